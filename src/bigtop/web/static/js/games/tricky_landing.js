// Tricky Landing: a top view of the table (centimetres, the target card at the origin, P0 at
// the bottom, seats clockwise, as in games/tricky_landing/render.py). Aim by dragging from
// your seat: the pointer is the aim point; the spin control sets the spin; Throw (or Enter)
// throws. Every new landing is animated along its flight and slide with the engine's throw
// model (release height, gravity, touch-down retention, friction); resolved tricks are
// outlined in their trick's colour, misses dashed; face-down cards stay hidden as in the
// observation.
import { h, s, sleep } from "../dom.js";
import { seatBox } from "./common.js";

// The colours of render.py, so the page and the project's pictures look alike.
const SUIT = {y: "#f4d03f", p: "#f39ac7", g: "#58b368", b: "#4a8fe0", o: "#f39c34"};
const SUIT_NAME = {y: "yellow", p: "pink", g: "green", b: "blue", o: "orange"};
const TRICK = ["#c0392b", "#1f3a93", "#8e44ad", "#117a65", "#d35400", "#2c3e50"];
const BACK = "#4b2e5c";
const MISS = "#7f8c8d";
const PX = 10; // pixels per centimetre, as render.py
const HALF = 48; // half the view, cm
const LIMIT = 45; // the engine accepts aims with |x|, |y| <= 45 cm

// Defaults of the engine's ThrowModel (docs/tricky-landing.md), for the animation.
const MODEL = {release_height_cm: 12, gravity_cm_s2: 981, touchdown_retention: 0.6};
const SLOW = 2; // the animation runs at half speed, so the eye can follow a 0.4 s throw

const ui = {version: -1, card: null, aim: [0, 0], spin: 3, dragging: false};

export function seatAngle(player, players) {
  return -90 - (360 * player) / players;
}

function seatPos(player, players, distance) {
  const a = (seatAngle(player, players) * Math.PI) / 180;
  return [distance * Math.cos(a), distance * Math.sin(a)];
}

function opts(ctx) {
  const o = ctx.options || {};
  return {
    cardW: (o.card_width_mm ?? 63) / 10, cardL: (o.card_length_mm ?? 88) / 10,
    targetW: (o.target_width_mm ?? 63) / 10, targetL: (o.target_length_mm ?? 88) / 10,
    seat: o.seat_distance_cm ?? 30, friction: o.friction ?? 0.35,
  };
}

function cardName(card) {
  return card ? `${SUIT_NAME[card[0]]} ${card.slice(1)}` : "a face-down card";
}

/** One card on the table: a rotated rectangle, its number, its outline. */
function tableCard(landing, o, {outline = null, dashed = false, order = null, mine = false} = {}) {
  const up = landing.face === "up";
  const known = landing.card !== null && landing.card !== undefined;
  const fill = up && known ? SUIT[landing.card[0]] : BACK;
  const g = s("g", {class: `tl-card${up ? "" : " down"}`,
    transform: `translate(${landing.x * PX} ${-landing.y * PX}) rotate(${-landing.rotation})`,
    dataset: {card: landing.card || "", player: landing.player},
    "aria-label": `P${landing.player}: ${up ? cardName(landing.card) : "face down"}`});
  g.append(s("rect", {x: (-o.cardW / 2) * PX, y: (-o.cardL / 2) * PX, width: o.cardW * PX,
    height: o.cardL * PX, rx: 5, fill, stroke: outline || "#333",
    "stroke-width": outline ? 5 : 1.2, "stroke-dasharray": dashed ? "10 6" : undefined}));
  if (up && known) {
    g.append(s("text", {x: 0, y: 10, class: "tl-number"}, landing.card.slice(1)));
  } else if (!up && known && mine) {
    // Your own face-down card: you know it, the others do not.
    g.append(s("text", {x: 0, y: 8, class: "tl-number faint"}, landing.card.slice(1)));
  }
  if (order !== null) g.append(s("text", {x: 0, y: (-o.cardL / 2) * PX + 16, class: "tl-order"}, `#${order + 1}`));
  return g;
}

function drawTable(obs, ctx) {
  const o = opts(ctx);
  const n = obs.hand_sizes.length;
  const svg = s("svg", {class: "tl-table", viewBox: `${-HALF * PX} ${-HALF * PX} ${2 * HALF * PX} ${2 * HALF * PX}`,
    role: "img", "aria-label": "the table seen from above"});
  svg.append(s("circle", {cx: 0, cy: 0, r: (o.seat + 6) * PX, class: "tl-felt"}));
  svg.append(s("rect", {x: (-o.targetW / 2) * PX, y: (-o.targetL / 2) * PX, width: o.targetW * PX,
    height: o.targetL * PX, rx: 5, class: "tl-target"}));
  svg.append(s("text", {x: 0, y: 8, class: "tl-target-label"}, "target"));
  for (let p = 0; p < n; p++) {
    const [x, y] = seatPos(p, n, o.seat);
    const cls = `tl-seat${obs.to_act === p ? " to-act" : ""}${p === ctx.seat ? " mine" : ""}`;
    svg.append(s("circle", {cx: x * PX, cy: -y * PX, r: 22, class: cls, dataset: {seat: p}}));
    svg.append(s("text", {x: x * PX, y: -y * PX + 6, class: "tl-seat-label"}, `P${p}`));
  }
  // The cards of this trick; between tricks, the last trick as resolved, outlined by trick.
  if (obs.table.length) {
    obs.table.forEach((l, i) => svg.append(tableCard(l, o, {order: i, mine: l.player === ctx.seat})));
  } else if (obs.last_trick) {
    const res = obs.last_trick.resolution;
    obs.last_trick.table.forEach((l, i) => {
      const t = res.trick_of[i];
      svg.append(tableCard(l, o, {order: i, outline: t >= 0 ? TRICK[t % TRICK.length] : MISS,
        dashed: t < 0, mine: l.player === ctx.seat}));
    });
  }
  if (obs.trump_card) {
    const g = s("g", {class: "tl-trump", transform: `translate(${(HALF - 7) * PX} ${(-HALF + 9) * PX})`},
      s("rect", {x: -30, y: -42, width: 60, height: 84, rx: 5, fill: SUIT[obs.trump_card[0]], stroke: "#333"}),
      s("text", {x: 0, y: 10, class: "tl-number"}, obs.trump_card.slice(1)),
      s("text", {x: 0, y: 62, class: "tl-caption"}, "trump"));
    svg.append(g);
  }
  return svg;
}

function toCm(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [round(p.x / PX), round(-p.y / PX)];
}

function round(x) {
  return Math.round(x * 10) / 10;
}

function aimLayer(svg, obs, ctx) {
  const o = opts(ctx);
  const n = obs.hand_sizes.length;
  const [sx, sy] = seatPos(ctx.seat, n, o.seat);
  const layer = s("g", {class: "tl-aim"});
  const draw = () => {
    const [ax, ay] = ui.aim;
    layer.replaceChildren(
      s("line", {x1: sx * PX, y1: -sy * PX, x2: ax * PX, y2: -ay * PX, class: "tl-aim-line"}),
      s("circle", {cx: ax * PX, cy: -ay * PX, r: 9, class: "tl-aim-point"}));
    const label = document.getElementById("tl-aim-text");
    if (label) label.textContent = `aim (${ax.toFixed(1)}, ${ay.toFixed(1)}) cm`;
  };
  draw();
  svg.append(layer);
  svg.classList.add("aiming");
  svg.addEventListener("pointerdown", (ev) => {
    ui.dragging = true;
    svg.setPointerCapture(ev.pointerId);
    ui.aim = toCm(svg, ev);
    draw();
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!ui.dragging) return;
    ui.aim = toCm(svg, ev);
    draw();
  });
  svg.addEventListener("pointerup", () => { ui.dragging = false; });
  svg.tabIndex = 0;
  svg.setAttribute("aria-label", "the table: drag, or use the arrow keys, to aim; Enter throws");
  svg.addEventListener("keydown", (ev) => {
    const step = ev.shiftKey ? 5 : 1;
    const moves = {ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step]};
    if (moves[ev.key]) {
      ev.preventDefault();
      ui.aim = [round(ui.aim[0] + moves[ev.key][0]), round(ui.aim[1] + moves[ev.key][1])];
      draw();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      throwNow(ctx);
    }
  });
}

function throwNow(ctx) {
  if (!ui.card) return;
  ctx.play({type: "throw", card: ui.card, x: ui.aim[0], y: ui.aim[1], spin: ui.spin});
}

function handRow(obs, ctx) {
  if (ctx.seat === null) return null;
  if (!obs.hand.includes(ui.card)) ui.card = obs.hand[0] || null;
  const cards = obs.hand.map((c) => h("button", {type: "button",
    class: `tl-hand-card${ui.card === c ? " selected" : ""}${ctx.myTurn ? " legal" : ""}`,
    style: `background:${SUIT[c[0]]}`, "aria-pressed": ui.card === c ? "true" : "false",
    "aria-label": cardName(c), dataset: {card: c},
    onclick: () => { ui.card = c; ctx.redraw(); }}, c.slice(1)));
  const parts = [h("div", {class: "label"}, "Your hand"), h("div", {class: "hand"}, cards)];
  if (ctx.myTurn) {
    const spin = h("input", {type: "range", id: "tl-spin", min: -10, max: 10, step: 0.5, value: ui.spin,
      "aria-label": "spin in revolutions per second",
      oninput: (ev) => { ui.spin = Number(ev.target.value); spinText.textContent = spinLabel(); }});
    const spinText = h("span", {id: "tl-spin-text"}, spinLabel());
    parts.push(h("div", {class: "controls"},
      h("label", {for: "tl-spin"}, "Spin "), spin, spinText,
      h("span", {id: "tl-aim-text", class: "hint"}, ""),
      h("button", {type: "button", class: "act legal", id: "tl-throw", onclick: () => throwNow(ctx)},
        `Throw the ${cardName(ui.card)}`)));
    parts.push(h("p", {class: "hint"},
      "Drag from your seat toward the target: where you let go is where you want the card to stop. " +
      "Arrow keys move the aim, Enter throws. Faster spin: steadier flight, less accurate direction."));
  }
  return h("div", {class: "mine"}, parts);
}

function spinLabel() {
  return ` ${ui.spin.toFixed(1)} rev/s ${ui.spin >= 0 ? "counter-clockwise" : "clockwise"}`;
}

function trickText(obs) {
  if (obs.table.length || !obs.last_trick) return null;
  const res = obs.last_trick.resolution;
  const table = obs.last_trick.table;
  // Which trick of the round this was: the one before the current, or a round's last.
  const number = obs.trick > 0 ? obs.trick : obs.tricks_per_round;
  // Several groups of cards may touch the target: each is a trick of its own (the rules'
  // word), numbered like the picture's colours; a single one needs no number.
  const several = res.tricks.length > 1;
  const lines = [h("li", {class: "head"}, `Last trick (${number} of ${obs.tricks_per_round})${several ? `: ${res.tricks.length} groups touched the target` : ""}`),
    ...res.tricks.map((t, i) => {
      const name = several ? `Trick ${i + 1}: ` : "";
      if (!t.winners.length) {
        // Nobody wins a trick of face-down cards (the engine's describe_resolution words).
        const gone = t.members.length === 1 ? "discarded" : `all ${t.members.length} discarded`;
        return h("li", {style: `color:${TRICK[i % TRICK.length]}`}, `${name}every card face down, ${gone}`);
      }
      const lead = t.lead ? `lead ${SUIT_NAME[t.lead]}` : "no lead suit";
      const who = t.winners.map((w) => `P${table[w].player}`).join(" and ");
      const took = t.taken.map((x) => x.length).reduce((a, b) => a + b, 0);
      return h("li", {style: `color:${TRICK[i % TRICK.length]}`},
        `${name}${lead}, won by ${who} (${took} card${took === 1 ? "" : "s"})`);
    })];
  if (res.missed.length) {
    lines.push(h("li", {}, `Missed: ${res.missed.map((m) => `P${table[m].player}`).join(", ")}` +
      (res.new_trump !== null ? ` — the new trump: ${cardName(obs.trump_card)}` : "")));
  }
  return h("ul", {class: "tl-tricks", "aria-label": "the last trick"}, lines);
}

function seatsFacts(obs, ctx) {
  return h("div", {class: "seats"}, obs.hand_sizes.map((n, p) => seatBox(p, ctx, obs.to_act === p,
    h("div", {class: "seat-facts"}, `${n} in hand · won ${obs.won[p].length} · missed ${obs.penalty[p].length} · total ${obs.totals[p]}`))));
}

/** Where a throw of distance d (cm) touches down, as a fraction of d, and how long it takes. */
export function flightPlan(d, friction) {
  const {release_height_cm: hgt, gravity_cm_s2: g, touchdown_retention: r} = MODEL;
  const t = Math.sqrt((2 * hgt) / g);
  const a = (r * r) / (2 * friction * g);
  const v = d > 0 ? (-t + Math.sqrt(t * t + 4 * a * d)) / (2 * a) : 0;
  const slide = (r * v) / (friction * g);
  return {flight: t, slide, touchdown: d > 0 ? (v * t) / d : 1};
}

async function animateLanding(root, obs, landing, ctx) {
  const svg = root.querySelector("svg.tl-table");
  if (!svg) return;
  const o = opts(ctx);
  const n = obs.hand_sizes.length;
  const [sx, sy] = seatPos(landing.player, n, o.seat);
  const d = Math.hypot(landing.x - sx, landing.y - sy);
  const plan = flightPlan(d, o.friction);
  const total = (plan.flight + plan.slide) * 1000 * SLOW * (ctx.speed ?? 1);
  const start = seatAngle(landing.player, n) + 90;
  const turn = ((landing.rotation - start) % 360 + 360) % 360;
  const ghost = tableCard({...landing, x: sx, y: sy, rotation: start}, o, {mine: landing.player === ctx.seat});
  ghost.classList.add("flying");
  svg.append(ghost);
  const begin = performance.now();
  await new Promise((resolve) => {
    const frame = (now) => {
      const ms = Math.min(now - begin, total);
      const tau = total ? ms / total : 1;
      // Flight at constant speed, then a slide that slows to rest (Coulomb friction).
      const flightShare = plan.flight / (plan.flight + plan.slide || 1);
      let f;
      if (tau < flightShare) f = (tau / flightShare) * plan.touchdown;
      else {
        const u = (tau - flightShare) / (1 - flightShare || 1);
        f = plan.touchdown + (1 - plan.touchdown) * (1 - (1 - u) * (1 - u));
      }
      const x = sx + (landing.x - sx) * f;
      const y = sy + (landing.y - sy) * f;
      const rot = start + turn * Math.min(1, tau * 1.2);
      const lift = tau < flightShare ? 1 + 0.25 * Math.sin((Math.PI * tau) / flightShare) : 1;
      ghost.setAttribute("transform", `translate(${x * PX} ${-y * PX}) rotate(${-rot}) scale(${lift})`);
      if (ms < total) requestAnimationFrame(frame); else resolve();
    };
    requestAnimationFrame(frame);
  });
  ghost.remove();
}

export default {
  name: "tricky-landing",
  title: "Tricky Landing",
  hideMoveList: true,
  howTo: "Pick a card, drag from your seat toward where it should stop, set the spin, and " +
    "throw (or use the arrow keys and Enter). The throw is not exact: the card lands near " +
    "the aim point.",
  render(root, ctx) {
    if (ui.version !== ctx.version) Object.assign(ui, {version: ctx.version, dragging: false});
    const obs = ctx.obs;
    const svg = drawTable(obs, ctx);
    if (ctx.myTurn) aimLayer(svg, obs, ctx);
    root.replaceChildren(h("div", {class: "tl"},
      h("div", {class: "round-line"},
        `Round ${Math.min(obs.round + 1, obs.rounds)} of ${obs.rounds} · trick ${Math.min(obs.trick + 1, obs.tricks_per_round)} of ${obs.tricks_per_round}` +
        (obs.trump_suit ? ` · trump ${SUIT_NAME[obs.trump_suit]}` : " · no trump yet")),
      h("div", {class: "tl-main"}, svg, h("div", {class: "tl-side"}, trickText(obs), seatsFacts(obs, ctx))),
      handRow(obs, ctx)));
  },
  /** Animate the card that landed between `prev` and `next` along its path. */
  async animate(prev, next, root, ctx) {
    if (!prev || prev.round !== next.round) return;
    let landing = null;
    if (next.table.length === prev.table.length + 1) landing = next.table.at(-1);
    else if (!next.table.length && prev.table.length && next.last_trick &&
      next.last_trick.table.length === prev.table.length + 1) landing = next.last_trick.table.at(-1);
    if (!landing) return;
    await animateLanding(root, prev, landing, ctx);
    await sleep(50);
  },
  animateBefore: true,
  roundOf: (obs) => Math.min(obs.round, obs.rounds - 1),
  roundLabel: (r) => `Round ${r + 1}`,
  rounds(obs) {
    return {rounds: obs.round_scores, totals: obs.totals};
  },
};
