// Tricky Landing: a top view of the table (centimetres, the target card at the origin, P0 at
// the bottom, seats clockwise, as in games/tricky_landing/render.py). Aim by dragging from
// your seat: the pointer is the aim point; the spin control sets the spin; Throw (or Enter)
// throws. Every new landing is animated along its flight and slide with the engine's throw
// model (release height, gravity, touch-down retention, friction); resolved tricks are
// outlined in their trick's colour, misses dashed; face-down cards stay hidden as in the
// observation.
import { h, s, sleep, who } from "../dom.js";
import { countMotion, seatBox, tableGrid } from "./common.js";

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

// aim: the precise aim point (keyboard, Throw button), in your own frame: x to your right, y
// away from you (the engine's frame for your throws; the table is drawn with you at the
// bottom, so it is also the drawing's frame). flick: the pointer's path while flicking.
const ui = {version: -1, card: null, aim: [0, 0], spin: 3, flick: null, twist: null, practice: false, marks: [], said: ""};
const FLICK_WINDOW_MS = 90; // the release speed is the pointer's speed over its last 90 ms
const MIN_FLICK = 12; // cm/s: slower than this is no throw
const PRACTICE_SPREAD = 1.2; // cm: a practice card slides a little off the flick's point

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
    dataset: {card: landing.card || "", player: landing.player}, role: "img",
    "aria-label": `${who(landing.player)}: ${up ? cardName(landing.card) : "face down"}`});
  g.append(s("rect", {x: (-o.cardW / 2) * PX, y: (-o.cardL / 2) * PX, width: o.cardW * PX,
    height: o.cardL * PX, rx: 5, fill, stroke: outline || "#333",
    "stroke-width": outline ? 5 : 1.2, "stroke-dasharray": dashed ? "10 6" : undefined}));
  if (up && known) {
    g.append(s("text", {x: 0, y: 10, class: "tl-number"}, landing.card.slice(1)));
    g.append(s("text", {x: 0, y: 34, class: "tl-suit-letter"}, landing.card[0]));
  } else if (!up && known && mine) {
    // Your own face-down card: you know it, the others do not.
    g.append(s("text", {x: 0, y: 8, class: "tl-number faint"}, landing.card.slice(1)));
  }
  if (order !== null) g.append(s("text", {x: 0, y: (-o.cardL / 2) * PX + 16, class: "tl-order"}, `#${order + 1}`));
  return g;
}

/** How far the table is turned so that your seat is at the bottom (degrees, counter-clockwise). */
function turnOf(ctx, n) {
  return ctx.seat === null ? 0 : (360 * ctx.seat) / n;
}

function drawTable(obs, ctx) {
  const o = opts(ctx);
  const n = obs.hand_sizes.length;
  const svg = s("svg", {class: "tl-table", viewBox: `${-HALF * PX} ${-HALF * PX} ${2 * HALF * PX} ${2 * HALF * PX}`,
    role: "group", "aria-label": "the table seen from above, you at the bottom"});
  // The table in its own frame (P0's), turned so that you sit at the bottom.
  const world = s("g", {class: "tl-world", transform: `rotate(${-turnOf(ctx, n)})`});
  svg.append(world);
  drawWorld(world, obs, ctx, o, n);
  if (obs.trump_card) {
    const g = s("g", {class: "tl-trump", transform: `translate(${(HALF - 7) * PX} ${(-HALF + 9) * PX})`},
      s("rect", {x: -30, y: -42, width: 60, height: 84, rx: 5, fill: SUIT[obs.trump_card[0]], stroke: "#333"}),
      s("text", {x: 0, y: 10, class: "tl-number"}, obs.trump_card.slice(1)),
      s("text", {x: 0, y: 62, class: "tl-caption"}, `trump: ${SUIT_NAME[obs.trump_card[0]]}`));
    svg.append(g);
  }
  return svg;
}

function drawWorld(svg, obs, ctx, o, n) {
  svg.append(s("circle", {cx: 0, cy: 0, r: (o.seat + 6) * PX, class: "tl-felt"}));
  svg.append(s("rect", {x: (-o.targetW / 2) * PX, y: (-o.targetL / 2) * PX, width: o.targetW * PX,
    height: o.targetL * PX, rx: 5, class: "tl-target"}));
  svg.append(s("text", {x: 0, y: 8, class: "tl-target-label"}, "target"));
  for (let p = 0; p < n; p++) {
    const [x, y] = seatPos(p, n, o.seat);
    const cls = `tl-seat${obs.to_act === p ? " to-act" : ""}${p === ctx.seat ? " mine" : ""}`;
    svg.append(s("circle", {cx: x * PX, cy: -y * PX, r: 22, class: cls, dataset: {seat: p}}));
    // Upright whichever way the table is turned.
    svg.append(s("text", {x: x * PX, y: -y * PX + 6, class: "tl-seat-label",
      transform: `rotate(${turnOf(ctx, n)} ${x * PX} ${-y * PX})`}, `P${p}`));
  }
  // Practice: an empty table and the practice cards (nothing is sent).
  if (ui.practice) {
    ui.marks.forEach((l) => svg.append(tableCard(l, o, {mine: true})));
    return;
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
}

/** A pointer position in the drawing's frame (cm, y up): your frame, you at the bottom. */
function toCm(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [p.x / PX, -p.y / PX];
}

function round(x) {
  return Math.round(x * 10) / 10;
}

/** Where a card released at `speed` cm/s stops, from its seat (the engine's throw model:
 * a flight from the release height, then a slide that friction ends). */
export function stopDistance(speed, friction) {
  const {release_height_cm: hgt, gravity_cm_s2: g, touchdown_retention: r} = MODEL;
  const t = Math.sqrt((2 * hgt) / g);
  return speed * t + ((r * speed) ** 2) / (2 * friction * g);
}

/**
 * A flick: the pointer's speed and direction over its last moments before release decide
 * where the card would stop (measured from your seat, in your frame); null when the pointer
 * was too slow to throw.
 */
export function flickAim(samples, seat, friction) {
  const last = samples.at(-1);
  const first = samples.find(([t]) => last[0] - t <= FLICK_WINDOW_MS) || samples[0];
  const dt = (last[0] - first[0]) / 1000;
  if (dt <= 0) return null;
  const vx = (last[1] - first[1]) / dt, vy = (last[2] - first[2]) / dt;
  const speed = Math.hypot(vx, vy);
  if (speed < MIN_FLICK) return null;
  const d = stopDistance(speed, friction);
  return {speed, aim: [round(seat[0] + (vx / speed) * d), round(seat[1] + (vy / speed) * d)]};
}

/**
 * A twist: a flick that curls spins the card. The heading's turn over the whole flick
 * (degrees, counter-clockwise positive, as the spin); beyond 45° it sets the spin, 30° a
 * revolution per second (at most 10). null: a straight flick keeps the slider's spin.
 */
export function twistSpin(samples) {
  let turn = 0, last = null;
  for (let i = 1; i < samples.length; i++) {
    const dx = samples[i][1] - samples[i - 1][1], dy = samples[i][2] - samples[i - 1][2];
    if (Math.hypot(dx, dy) < 0.3) continue; // too short a step to have a heading
    const heading = (Math.atan2(dy, dx) * 180) / Math.PI;
    if (last !== null) turn += ((heading - last + 540) % 360) - 180;
    last = heading;
  }
  if (Math.abs(turn) < 45) return null;
  return spinOfTurn(turn);
}

/** A twist's turn (degrees, counter-clockwise positive) as a spin: 30° a revolution per
 * second, in halves, at most 10 either way (the curled flick and two fingers alike). */
function spinOfTurn(turn) {
  return Math.max(-10, Math.min(10, Math.round((turn / 30) * 2) / 2));
}

/**
 * A two-finger twist (touch screens): how far the line between two fingers turned from
 * `start` to `now` (each [[x, y], [x, y]], degrees counter-clockwise positive, the table's
 * y up), as a spin on the curl's scale: 30° a revolution per second, halves, at most 10.
 */
export function twoFingerSpin(start, now) {
  const angle = ([[x1, y1], [x2, y2]]) => (Math.atan2(y2 - y1, x2 - x1) * 180) / Math.PI;
  return spinOfTurn(((angle(now) - angle(start) + 540) % 360) - 180);
}

/** Words for an aim in your frame: "the target's centre", "4 cm beyond and 2 cm left of …". */
export function aimWords([x, y]) {
  const parts = [];
  if (Math.abs(y) >= 0.5) parts.push(`${Math.abs(y).toFixed(0)} cm ${y > 0 ? "beyond" : "short of"}`);
  if (Math.abs(x) >= 0.5) parts.push(`${Math.abs(x).toFixed(0)} cm ${x > 0 ? "right of" : "left of"}`);
  return parts.length ? `${parts.join(" and ")} the target's centre` : "the target's centre";
}

function aimLayer(svg, obs, ctx) {
  const o = opts(ctx);
  const seat = [0, -o.seat]; // yours, at the bottom
  const layer = s("g", {class: "tl-aim"});
  const draw = (pointer = null, predicted = null) => {
    const [ax, ay] = ui.aim;
    const parts = [s("circle", {cx: ax * PX, cy: -ay * PX, r: 9, class: "tl-aim-point"})];
    if (!pointer) parts.unshift(s("line", {x1: seat[0] * PX, y1: -seat[1] * PX, x2: ax * PX, y2: -ay * PX, class: "tl-aim-line"}));
    if (pointer) parts.push(s("line", {x1: seat[0] * PX, y1: -seat[1] * PX, x2: pointer[0] * PX, y2: -pointer[1] * PX, class: "tl-pull"}));
    if (predicted) parts.push(s("circle", {cx: predicted[0] * PX, cy: -predicted[1] * PX, r: 14, class: "tl-predicted"}));
    layer.replaceChildren(...parts);
    const label = document.getElementById("tl-aim-text");
    if (label) label.textContent = `aim (${ax.toFixed(1)}, ${ay.toFixed(1)}) cm`;
  };
  draw();
  svg.append(layer);
  svg.classList.add("aiming");
  // By hand: flick from anywhere toward where the card should go; the release decides.
  // Two fingers down at once twist the card instead (touch screens): the turn of the line
  // between them sets the spin, and lifting them throws nothing.
  const fingers = new Map();
  const twistNow = () => {
    const turned = twoFingerSpin(ui.twist.start, [...fingers.values()]);
    ui.spin = Math.max(-10, Math.min(10, ui.twist.spin + turned));
    const slider = document.getElementById("tl-spin");
    if (slider) slider.value = String(ui.spin);
    const text = document.getElementById("tl-spin-text");
    if (text) text.textContent = spinLabel();
  };
  svg.addEventListener("pointerdown", (ev) => {
    // Keep the flick when it leaves the table (a pointer that is not down cannot be captured).
    try { svg.setPointerCapture(ev.pointerId); } catch { /* nothing to capture */ }
    fingers.set(ev.pointerId, toCm(svg, ev));
    if (fingers.size === 2 && !ui.twist) {
      ui.flick = null; // the first finger was the start of a twist, not a flick
      ui.twist = {start: [...fingers.values()], spin: ui.spin};
      draw();
      return;
    }
    if (ui.twist) return;
    ui.flick = [[ev.timeStamp, ...toCm(svg, ev)]];
  });
  svg.addEventListener("pointermove", (ev) => {
    if (fingers.has(ev.pointerId)) fingers.set(ev.pointerId, toCm(svg, ev));
    if (ui.twist) {
      if (fingers.size === 2) twistNow();
      return;
    }
    if (!ui.flick) return;
    ui.flick.push([ev.timeStamp, ...toCm(svg, ev)]);
    if (ui.flick.length > 40) ui.flick.shift();
    const f = flickAim(ui.flick, seat, o.friction);
    draw(ui.flick.at(-1).slice(1), f && f.aim);
  });
  svg.addEventListener("pointerup", (ev) => {
    fingers.delete(ev.pointerId);
    if (ui.twist) {
      if (fingers.size === 0) {
        ui.twist = null;
        say(`Twisted: spin ${ui.spin.toFixed(1)} rev/s. Now flick with one finger to throw.`);
        document.body.dataset.twist = String(ui.spin);
      }
      return;
    }
    if (!ui.flick) return;
    ui.flick.push([ev.timeStamp, ...toCm(svg, ev)]);
    const done = ui.flick;
    const f = flickAim(done, seat, o.friction);
    ui.flick = null;
    draw();
    if (!f) {
      say("Too slow for a throw: flick toward the target, faster to throw farther.");
      return;
    }
    const twist = twistSpin(done);
    if (twist !== null) ui.spin = twist;
    say(`Flicked at ${f.speed.toFixed(0)} cm/s: it would stop at ${aimWords(f.aim)}` +
      (twist !== null ? `, twisted: spin ${twist.toFixed(1)} rev/s.` : "."));
    // The last flick, for people's tools and the tests: speed (cm/s), the stop point (cm).
    document.body.dataset.flick = `${f.speed.toFixed(1)} ${f.aim[0]} ${f.aim[1]} ${ui.spin}`;
    if (ui.practice) practiceThrow(svg, obs, ctx, f.aim);
    else ctx.play({type: "throw", card: ui.card, x: f.aim[0], y: f.aim[1], spin: ui.spin});
  });
  svg.addEventListener("pointercancel", (ev) => {
    fingers.delete(ev.pointerId);
    if (fingers.size === 0) ui.twist = null;
    ui.flick = null;
    draw();
  });
  // With the keyboard: the precise aim, moved by the arrow keys; Enter throws.
  svg.tabIndex = 0;
  svg.setAttribute("aria-label", "the table, you at the bottom: flick toward the target to throw, or aim with the arrow keys and press Enter");
  svg.addEventListener("keydown", (ev) => {
    const step = ev.shiftKey ? 5 : 1;
    const moves = {ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step]};
    if (moves[ev.key]) {
      ev.preventDefault();
      ui.aim = [round(ui.aim[0] + moves[ev.key][0]), round(ui.aim[1] + moves[ev.key][1])];
      draw();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      throwNow(svg, obs, ctx);
    }
  });
}

/** A line under the table saying what the last flick did (kept across redraws). */
function say(text) {
  ui.said = text;
  const node = document.getElementById("tl-said");
  if (node) node.textContent = text;
}

function throwNow(svg, obs, ctx) {
  if (!ui.card) return;
  if (ui.practice) { practiceThrow(svg, obs, ctx, ui.aim); return; }
  ctx.play({type: "throw", card: ui.card, x: ui.aim[0], y: ui.aim[1], spin: ui.spin});
}

/** A practice throw: the card flies from your seat and slides to about the flick's point on
 * an empty table; nothing is sent, nothing counts. */
async function practiceThrow(svg, obs, ctx, aim) {
  const o = opts(ctx);
  const n = obs.hand_sizes.length;
  const turn = (turnOf(ctx, n) * Math.PI) / 180;
  // Your frame to the table's (the world group is turned by the same angle).
  const spread = () => (Math.random() + Math.random() + Math.random() - 1.5) * PRACTICE_SPREAD;
  const [vx, vy] = [aim[0] + spread(), aim[1] + spread()];
  const x = vx * Math.cos(turn) - vy * Math.sin(turn), y = vx * Math.sin(turn) + vy * Math.cos(turn);
  const card = ui.card || obs.hand[0];
  const landing = {player: ctx.seat, card, face: "up", x, y, rotation: seatAngle(ctx.seat, n) + 90 + ui.spin * 40};
  await animateLanding(svg.closest("#board") || document, obs, landing, ctx);
  ui.marks.push(landing);
  const touching = Math.abs(vx) < (o.cardW + o.targetW) / 2 && Math.abs(vy) < (o.cardL + o.targetL) / 2;
  say(`Practice: your ${cardName(card)} stopped at ${aimWords([vx, vy])}${touching ? ", touching the target" : ", off the target"}. It counts nothing.`);
  ctx.redraw();
}

function handRow(obs, ctx) {
  if (ctx.seat === null) return null;
  if (!obs.hand.includes(ui.card)) ui.card = obs.hand[0] || null;
  // After the last throw "it would stop at …" says nothing any more (the result is above).
  if (ctx.over) ui.said = "";
  const cards = obs.hand.map((c) => h("button", {type: "button",
    class: `tl-hand-card${ui.card === c ? " selected" : ""}${ctx.myTurn ? " legal" : ""}`,
    style: {background: SUIT[c[0]]}, "aria-pressed": ui.card === c ? "true" : "false",
    // The suit's letter is drawn too (CSS, from data-suit): no card relies on colour alone.
    "aria-label": cardName(c), dataset: {card: c, suit: c[0]},
    onclick: () => { ui.card = c; ctx.redraw(); }}, c.slice(1)));
  const parts = [h("div", {class: "hand tl-hand", role: "group", "aria-label": "your hand"}, cards)];
  // Practice at the start of a game, as the rulebook recommends: before your first throw.
  const fresh = obs.round === 0 && obs.hand.length === obs.tricks_per_round && !obs.table.some((l) => l.player === ctx.seat);
  if (ctx.myTurn || ui.practice) {
    const spin = h("input", {type: "range", id: "tl-spin", min: -10, max: 10, step: 0.5, value: ui.spin,
      "aria-label": "spin in revolutions per second",
      oninput: (ev) => { ui.spin = Number(ev.target.value); spinText.textContent = spinLabel(); }});
    const spinText = h("span", {id: "tl-spin-text"}, spinLabel());
    parts.push(h("div", {class: "controls"},
      h("label", {for: "tl-spin"}, "Spin "), spin, spinText,
      h("span", {id: "tl-aim-text", class: "hint"}, `aim (${ui.aim[0].toFixed(1)}, ${ui.aim[1].toFixed(1)}) cm`),
      h("button", {type: "button", class: "act legal", id: "tl-throw",
        onclick: () => throwNow(document.querySelector("#board svg.tl-table"), obs, ctx)},
      ui.practice ? "Practice throw" : `Throw the ${cardName(ui.card)}`),
      fresh || ui.practice ? h("button", {type: "button", class: "act", id: "tl-practice", "aria-pressed": ui.practice ? "true" : "false",
        onclick: () => { ui.practice = !ui.practice; ui.marks = []; say(ui.practice ? "Practice: flick cards at an empty table; nothing counts." : ""); ctx.redraw(); }},
      ui.practice ? "Done practising" : "Practice first") : null));
  } else if (fresh) {
    parts.push(h("div", {class: "controls"}, h("button", {type: "button", class: "act", id: "tl-practice",
      "aria-pressed": "false", onclick: () => { ui.practice = true; ui.marks = []; ctx.redraw(); }}, "Practice first")));
  }
  parts.push(h("p", {class: "hint", id: "tl-said", "aria-live": "polite"}, ui.said ||
    (ctx.myTurn ? "Flick from your seat toward the target: the faster the flick, the farther the card goes. " +
      "Curl the flick to twist the card (spin), or turn two fingers on the table, or set the spin with the slider. " +
      "Or aim with the arrow keys (Shift: 5 cm) and press Enter or Throw." : "")));
  return h("div", {class: "mine tl-mine"}, parts);
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
        return h("li", {style: {color: TRICK[i % TRICK.length]}}, `${name}every card face down, ${gone}`);
      }
      const lead = t.lead ? `lead ${SUIT_NAME[t.lead]}` : "no lead suit";
      const winners = t.winners.map((w) => who(table[w].player)).join(" and ");
      const took = t.taken.map((x) => x.length).reduce((a, b) => a + b, 0);
      return h("li", {style: {color: TRICK[i % TRICK.length]}},
        `${name}${lead}, won by ${winners} (${took} card${took === 1 ? "" : "s"})`);
    })];
  if (res.missed.length) {
    lines.push(h("li", {}, `Missed: ${res.missed.map((m) => who(table[m].player)).join(", ")}` +
      (res.new_trump !== null ? ` — the new trump: ${cardName(obs.trump_card)}` : "")));
  }
  return h("ul", {class: "tl-tricks", "aria-label": "the last trick"}, lines);
}

function seat(obs, ctx, p) {
  const box = seatBox(p, ctx, obs.to_act === p, h("div", {class: "seat-facts"},
    `${obs.hand_sizes[p]} in hand · won ${obs.won[p].length} · missed ${obs.penalty[p].length} · total ${obs.totals[p]}`));
  box.dataset.spot = `seat-${p}`;
  return box;
}

/** The last trick's result in one line, for the page to hold until seen. */
function trickLine(obs) {
  const list = trickText(obs);
  return list ? [...list.children].map((li) => li.textContent).join(" · ") : null;
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
  const svg = root.querySelector("svg.tl-table .tl-world");
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
  countMotion();
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
  howTo: "Pick a card and flick it from your seat toward the target: the speed and " +
    "direction of your flick decide where it would stop (the card itself adds a little " +
    "spread); set the spin with the slider. With the keyboard, aim with the arrow keys and " +
    "press Enter. Before your first throw, Practice first throws at an empty table.",
  render(root, ctx) {
    if (ui.version !== ctx.version) Object.assign(ui, {version: ctx.version, flick: null});
    const obs = ctx.obs;
    const n = obs.hand_sizes.length;
    // Practice ends with your first real throw of the game.
    if (ui.practice && ctx.seat !== null && obs.table.some((l) => l.player === ctx.seat)) ui.practice = false;
    const svg = drawTable(obs, ctx);
    if (ctx.seat !== null && (ctx.myTurn || ui.practice)) aimLayer(svg, obs, ctx);
    const mine = h("div", {class: "tl-bottom"}, ctx.seat === null ? seat(obs, ctx, 0) : null,
      trickText(obs), handRow(obs, ctx));
    root.replaceChildren(h("div", {class: "tl"}, tableGrid(ctx, n, (p) => seat(obs, ctx, p), svg, mine,
      `Round ${Math.min(obs.round + 1, obs.rounds)} of ${obs.rounds} · trick ${Math.min(obs.trick + 1, obs.tricks_per_round)} of ${obs.tricks_per_round}` +
      (obs.trump_suit ? ` · trump ${SUIT_NAME[obs.trump_suit]}` : " · no trump yet") +
      (ctx.seat === null ? "" : ` · you: won ${obs.won[ctx.seat].length}, total ${obs.totals[ctx.seat]}`))));
  },
  /** A resolved trick stays on the table until seen, even when a bot leads the next. */
  held(prev, next) {
    if (!prev || !prev.table.length || next.table.length || !next.last_trick) return null;
    return trickLine(next);
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
    await sleep(50 * (ctx.speed ?? 1));
  },
  animateBefore: true,
  roundOf: (obs) => Math.min(obs.round, obs.rounds - 1),
  roundLabel: (r) => `Round ${r + 1}`,
  rounds(obs) {
    return {rounds: obs.round_scores, totals: obs.totals};
  },
};
