// So ein Zirkus: the board (whichever the table was created with), the three clowns with their
// ball stacks, the holes and their points, the die, and the paths a clown may take, drawn on
// the board to pick.
import { h, loggedName, s, who } from "../dom.js";
import { actionButton, countMotion, legalOfType, seatBox, tableGrid } from "./common.js";

const BALL = {red: "#d63c3c", yellow: "#f2c81b", blue: "#3b73d1", green: "#3fa34d",
  black: "#222", white: "#fafafa"};
const CELL = 64;
const STEP = {F: [0, 1], L: [-1, 0], R: [1, 0]};

const ui = {version: -1, clown: null, hover: null};

function parseField(field) {
  return [field.charCodeAt(0) - 65, Number(field.slice(1))];
}

function fieldName(col, row) {
  return String.fromCharCode(65 + col) + row;
}

/** The fields a move visits, the start included. */
export function pathFields(start, steps) {
  let [c, r] = parseField(start);
  const out = [fieldName(c, r)];
  for (const step of steps) {
    c += STEP[step][0]; r += STEP[step][1];
    out.push(fieldName(c, r));
  }
  return out;
}

function centre(board, field) {
  const [c, r] = parseField(field);
  return [c * CELL + CELL / 2, (board.rows - r) * CELL + CELL / 2];
}

function drawBoard(obs, ctx) {
  const board = obs.board;
  const svg = s("svg", {class: "zirkus-board", viewBox: `-4 -4 ${board.columns * CELL + 8} ${board.rows * CELL + 8}`,
    role: "group", "aria-label": `board ${board.name}: ${board.columns} columns, ${board.rows} rows`});
  svg.append(s("rect", {x: -4, y: -4, width: board.columns * CELL + 8, height: board.rows * CELL + 8, rx: 8, class: "frame"}));
  for (let r = 1; r <= board.rows; r++) {
    for (let c = 0; c < board.columns; c++) {
      const f = fieldName(c, r);
      const start = board.start.includes(f);
      svg.append(s("rect", {x: c * CELL, y: (board.rows - r) * CELL, width: CELL, height: CELL,
        class: `field${start ? " start" : ""}`, dataset: {field: f}}));
    }
  }
  for (const [f, points] of Object.entries(board.holes)) {
    const [x, y] = centre(board, f);
    const ball = obs.holes[f];
    // A ball that just fell in drops into view (with motion on).
    const fell = ball && ctx.motion && ctx.prev && !ctx.prev.holes[f];
    // Said with its field, as the paths are ("move clown 1 B1 to B2"), so that a screen
    // reader can aim for it; its number drawn only (the name says it).
    svg.append(s("circle", {cx: x, cy: y, r: CELL * 0.3, class: `hole${fell ? " fell" : ""}`, dataset: {hole: f}, role: "img",
      fill: ball ? BALL[ball] : "#3a2a1a",
      "aria-label": `${points}-point hole at ${f}${ball ? ` with a ${ball} ball` : ", empty"}`}));
    svg.append(s("text", {x, y: y + 6, class: `hole-points${ball === "yellow" ? " dark" : ""}`, "aria-hidden": "true"}, points));
  }
  // Field names along the edges, so typed moves and the log ("A1-A2") can be followed.
  for (let c = 0; c < board.columns; c++) {
    svg.append(s("text", {x: c * CELL + 6, y: board.rows * CELL - 4, class: "coord"}, fieldName(c, 1)));
  }
  return svg;
}

function drawPaths(svg, obs, ctx, moves) {
  const board = obs.board;
  moves.forEach((e, i) => {
    const clown = obs.clowns[e.action.clown];
    const pts = pathFields(clown.field, e.action.steps).map((f) => centre(board, f));
    // A small sideways offset keeps paths that share fields apart.
    const off = (i % 5 - 2) * 3;
    const d = pts.map(([x, y], k) => `${k ? "L" : "M"}${x + off} ${y + off}`).join(" ");
    const hot = ui.hover === i;
    const g = s("g", {class: `path legal${hot ? " hot" : ""}`, tabindex: 0, role: "button",
      // The fields it walks, as the buttons say them (not the engine's steps: "FFR").
      "aria-label": `move clown ${e.action.clown} ${pathFields(clown.field, e.action.steps).join(" to ")}`,
      dataset: {path: e.action.steps, clown: e.action.clown},
      onclick: () => ctx.play(e.action),
      onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ctx.play(e.action); } },
      onpointerenter: () => { ui.hover = i; highlight(svg, i); },
    },
    s("path", {d, class: "hit"}), s("path", {d, class: "line", "marker-end": "url(#arrow)"}));
    svg.append(g);
  });
}

function highlight(svg, index) {
  svg.querySelectorAll(".path").forEach((g, i) => g.classList.toggle("hot", i === index));
}

function drawClowns(svg, obs, ctx) {
  const board = obs.board;
  const movers = new Set(legalOfType(ctx.legal, "move").map((e) => e.action.clown));
  obs.clowns.forEach((clown, i) => {
    if (!clown.field) return;
    const [x, y] = centre(board, clown.field);
    const selectable = ctx.myTurn && movers.has(i);
    const g = s("g", {class: `clown${selectable ? " legal" : ""}${ui.clown === i ? " selected" : ""}`,
      dataset: {clown: i, key: `clown-${i}`}, tabindex: selectable ? 0 : undefined, role: selectable ? "button" : "img",
      // Its balls bottom first, and the top one named: the colour that moves it.
      "aria-label": `clown ${i} at ${clown.field}, ${clown.balls.length
        ? `balls ${clown.balls.join(", ")} (${clown.balls.at(-1)} on top)` : "no balls"}`,
      onclick: selectable ? () => { ui.clown = ui.clown === i ? null : i; ctx.redraw(); } : undefined,
      onkeydown: selectable ? (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ui.clown = ui.clown === i ? null : i; ctx.redraw(); }
      } : undefined});
    g.append(s("rect", {x: x - 14, y: y - 26, width: 28, height: 52, rx: 10, class: "tube"}));
    // The letters and the number are drawn over it, beside the button rather than in it: its
    // name says them, and a button's text must be in its name (voice control users say what
    // they see). Moved with it (data-key; the walk).
    const marks = s("g", {class: "clown-marks", "aria-hidden": "true", dataset: {key: `clown-${i}-marks`}},
      // (Its box the tube's, so that a ball added moves nothing.)
      s("rect", {x: x - 14, y: y - 26, width: 28, height: 52, fill: "none"}));
    // Balls bottom first: the top ball (the one that counts for moving) is drawn highest.
    clown.balls.forEach((ball, k) => {
      g.append(s("circle", {cx: x, cy: y + 16 - k * 16, r: 7.5, fill: BALL[ball], class: "ball"}));
      // Its colour's letter (k: black), so that no ball relies on colour alone.
      marks.append(s("text", {x, y: y + 19 - k * 16, class: "ball-letter",
        fill: ["black", "red", "blue", "green"].includes(ball) ? "#fff" : "#222"}, ball === "black" ? "k" : ball[0]));
    });
    marks.append(s("text", {x: x + 20, y: y - 18, class: "clown-label"}, i));
    svg.append(g, marks);
  });
}

function defs() {
  return s("defs", {}, s("marker", {id: "arrow", viewBox: "0 0 10 10", refX: 6, refY: 5,
    markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse"},
  s("path", {d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead"})));
}

function controls(obs, ctx) {
  if (!ctx.myTurn) return null;
  const out = [];
  const adds = legalOfType(ctx.legal, "add");
  if (adds.length) {
    out.push(h("div", {class: "controls"}, h("span", {class: "label"}, "Add a ball:"),
      adds.map((e) => actionButton(ctx, `${e.action.colour} → clown ${e.action.clown}`, e.action,
        {title: e.describe}))));
  }
  const moves = legalOfType(ctx.legal, "move").filter((e) => ui.clown === null || e.action.clown === ui.clown);
  if (moves.length) {
    out.push(h("div", {class: "controls"}, h("span", {class: "label"},
      ui.clown === null ? "Move (or click a clown):" : `Move clown ${ui.clown}:`),
    moves.map((e) => {
      const b = actionButton(ctx, `${e.action.clown}: ${pathFields(obs.clowns[e.action.clown].field, e.action.steps).join("→")}`,
        e.action, {title: e.describe});
      // Pointing at (or tabbing to) a move's button lights its path on the board.
      const light = (on) => () => {
        const g = document.querySelector(`#board .path[data-clown="${e.action.clown}"][data-path="${e.action.steps}"]`);
        if (g) g.classList.toggle("hot", on);
      };
      b.addEventListener("pointerenter", light(true));
      b.addEventListener("pointerleave", light(false));
      b.addEventListener("focus", light(true));
      b.addEventListener("blur", light(false));
      return b;
    })));
  }
  const rest = ctx.legal.filter((e) => !["add", "move"].includes(e.action.type));
  if (rest.length) {
    out.push(h("div", {class: "controls"}, rest.map((e) => actionButton(ctx, e.describe, e.action))));
  }
  return out;
}

function seat(obs, ctx, p) {
  const points = obs.points[p];
  const box = seatBox(p, ctx, obs.turn_of === p,
    h("div", {class: "seat-facts"},
      obs.colours[p] ? h("span", {class: "swatch", style: {background: BALL[obs.colours[p]]}}) : null,
      obs.colours[p] ? `${obs.colours[p]} · ` : "secret colour · ",
      points === null ? "? points" : `${points} point${points === 1 ? "" : "s"}`));
  box.dataset.spot = `seat-${p}`;
  return box;
}

function facts(obs, ctx) {
  const supply = Object.entries(obs.supply).filter(([c]) => obs.in_play.includes(c))
    .map(([c, n]) => h("span", {class: "supply"}, h("span", {class: "swatch", style: {background: BALL[c]}}), `${n}`));
  const die = obs.roll
    ? h("div", {class: "die", style: {background: BALL[obs.roll], color: ["yellow", "white"].includes(obs.roll) ? "#222" : "#fff"},
      role: "img", "aria-label": `the die shows ${obs.roll}`}, obs.roll)
    : h("div", {class: "die blank"}, "—");
  // On your turn, what the face lets you do (the rules panel says it, far from the die).
  const means = ctx.myTurn && obs.roll ? h("p", {class: "hint die-means", id: "die-means"}, dieMeans(obs.roll, ctx)) : null;
  return h("div", {class: "zirkus-side"},
    // Your own roll is said as yours, as a lost turn is ("You rolled green: …").
    h("div", {class: "die-line"}, h("span", {class: "label"},
      `${obs.turn_of === ctx.seat ? "You" : who(obs.turn_of)} rolled`), die), means,
    h("div", {class: "label"}, "Supply: ", supply), seat(obs, ctx, ctx.seat ?? 0));
}

/** What a rolled face allows, in the rules' words (games/zirkus/teach.py). */
function dieMeans(face, ctx) {
  const any = "add a ball of any colour to a clown with room, or move any clown that holds balls";
  if (face === "white") return `White: ${any}.`;
  if (face === "black") {
    const own = ctx.legal.some((e) => !["add", "move"].includes(e.action.type));
    return `Black: ${any}${own ? ", or one of black's own moves (the last buttons)" : ""}.`;
  }
  const name = face[0].toUpperCase() + face.slice(1);
  return `${name}: add a ${face} ball to a clown with room, or move a clown whose top ball is ${face}.`;
}

/** A turn the die made impossible passes at once (no move): its line stays until seen,
 * said to you as yours ("You rolled green: …, your turn is lost."). */
function lostTurn(lines, seat) {
  const lost = lines.find((l) => l.seat < 0 && /: nothing is possible, the turn is lost$/.test(l.text));
  if (!lost) return null;
  const yours = seat === null || seat === undefined ? null : `${loggedName(seat)} rolls `;
  if (yours && lost.text.startsWith(yours)) {
    return `You rolled ${lost.text.slice(yours.length).split(":")[0]}: nothing is possible, your turn is lost.`;
  }
  return `${lost.text}.`;
}

export default {
  name: "so-ein-zirkus",
  title: "So ein Zirkus",
  howTo: "The die is rolled for you. Click a clown to see its paths on the board, then " +
    "click a path (or use the buttons under the board).",
  render(root, ctx) {
    if (ui.version !== ctx.version) Object.assign(ui, {version: ctx.version, clown: null, hover: null});
    const obs = ctx.obs;
    const svg = drawBoard(obs, ctx);
    svg.prepend(defs());
    const moves = ctx.myTurn ? legalOfType(ctx.legal, "move") : [];
    const single = new Set(moves.map((e) => e.action.clown)).size === 1;
    const shown = moves.filter((e) => (ui.clown === null ? single : e.action.clown === ui.clown));
    drawPaths(svg, obs, ctx, shown);
    drawClowns(svg, obs, ctx);
    // The die, the supply and your seat beside the board, which is tall and narrow: below
    // it (with the die's meaning) they left a phone's board 110 px wide, its paths too
    // close to tell apart.
    const middle = h("div", {class: "zirkus-mid"}, svg, facts(obs, ctx));
    const mine = h("div", {class: "zirkus-mine"}, h("div", {class: "zirkus-controls"}, controls(obs, ctx)));
    root.replaceChildren(h("div", {class: "zirkus"}, tableGrid(ctx, obs.points.length,
      (p) => seat(obs, ctx, p), middle, mine, `Game ${obs.game_number} · roll ${obs.turn + 1}`)));
  },
  /** Why the (last) game ended, in the engine's words (games/zirkus/options.py
   * ENDING_WORDS; tests/web/test_docs.py keeps the two the same). */
  ending(result) {
    const words = {
      "six-hole": "a ball fell into the 6-point hole",
      "no-balls": "the 6-point hole can no longer be filled",
      "turn-limit": "the turn limit was reached",
    };
    return words[result.ending] ?? null;
  },
  /** The clown that moved walks its path field by field (the log line names the fields). */
  async animate(prev, next, root, ctx) {
    const walk = /clown (\d) ([A-Z]\d+(?:-[A-Z]\d+)+)/.exec(ctx.moveLine || "");
    if (!walk || !next.clowns[Number(walk[1])].field) return;
    const g = root.querySelector(`g.clown[data-clown="${walk[1]}"]`);
    const marks = root.querySelector(`g.clown-marks[data-key="clown-${walk[1]}-marks"]`);
    const fields = walk[2].split("-");
    if (!g || fields.at(-1) !== next.clowns[Number(walk[1])].field) return;
    const [ex, ey] = centre(next.board, fields.at(-1));
    const frames = fields.map((f) => {
      const [x, y] = centre(next.board, f);
      return {transform: `translate(${x - ex}px, ${y - ey}px)`};
    });
    countMotion();
    const walks = [g, marks].filter(Boolean).map((e) => {
      for (const a of e.getAnimations()) a.cancel(); // the straight glide: the walk replaces it
      return e.animate(frames, {duration: 260 * (fields.length - 1) * (ctx.speed ?? 1), easing: "linear"});
    });
    await Promise.all(walks.map((w) => w.finished.catch(() => null)));
  },
  held: (prev, next, seat, lines) => lostTurn(lines || [], seat),
  roundOf: (obs) => obs.game_number - 1,
  roundLabel: (r) => `Game ${r + 1}`,
  rounds(obs) {
    return {rounds: obs.games.map((g) => g.scores), totals: obs.totals,
      labels: obs.games.map((g, i) => `Game ${i + 1}`)};
  },
};
