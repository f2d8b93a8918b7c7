// Pieces the four game modules share: legal-action lookup, action buttons and the
// round-summary table.
import { h, seatName } from "../dom.js";

/** Count an animation shown (body[data-moved], for people's tools and the tests). */
export function countMotion(n = 1) {
  document.body.dataset.moved = String(Number(document.body.dataset.moved || 0) + n);
}

/** The legal entry whose action JSON matches every field of `partial`, or undefined. */
export function findLegal(legal, partial) {
  return legal.find((entry) => Object.entries(partial).every(([k, v]) => entry.action[k] === v));
}

/** Every legal entry of one action type. */
export function legalOfType(legal, type) {
  return legal.filter((entry) => entry.action.type === type);
}

/** A button that plays `action` (legal or not: the server explains an illegal one). */
export function actionButton(ctx, label, action, {legal = true, key = undefined, title} = {}) {
  return h("button", {
    class: legal ? "act legal" : "act",
    type: "button",
    title: title || undefined,
    "aria-keyshortcuts": key,
    dataset: {action: JSON.stringify(action)},
    onclick: () => ctx.play(action),
  }, label);
}

/** One seat's box: its name ("P1", "P0 (you)", ▶ while it is to act), then `children`. */
export function seatBox(p, ctx, toAct, ...children) {
  toAct = toAct && !ctx.over; // a finished game's last mover is not "to act" any more
  const mine = p === ctx.seat;
  return h("div", {class: `seat${toAct ? " to-act" : ""}${mine ? " mine" : ""}`, dataset: {seat: p}},
    h("div", {class: "seat-name"}, seatName(p, ctx.seat), toAct ? " ▶" : ""), ...children);
}

/** A table of per-round scores: rows are rounds, columns seats, plus a total row. */
export function roundTable(rounds, totals, mySeat, labels = null) {
  const seats = totals.length;
  const head = h("tr", {}, h("th", {}, ""),
    ...Array.from({length: seats}, (_, p) => h("th", {}, seatName(p, mySeat))));
  const rows = rounds.map((scores, r) => h("tr", {},
    h("th", {}, labels ? labels[r] : `Round ${r + 1}`), ...scores.map((x) => h("td", {}, fmt(x)))));
  const total = h("tr", {class: "total"}, h("th", {}, "Total"),
    ...totals.map((x) => h("td", {}, fmt(x))));
  return h("table", {class: "scores"}, h("thead", {}, head), h("tbody", {}, rows, total));
}

function fmt(x) {
  if (x === null || x === undefined) return "?";
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/**
 * Where every other seat sits, seen from yours at the bottom (a spectator sits where P0
 * does): going round in the order of play, the next seat on the left, the last on the right,
 * the others across ("top"). {seat: "left" | "top" | "right"}.
 */
export function seatPlaces(n, mySeat) {
  const me = mySeat ?? 0;
  const others = Array.from({length: n - 1}, (_, k) => (me + k + 1) % n);
  const places = {};
  others.forEach((p, k) => {
    places[p] = others.length === 1 ? "top" : k === 0 ? "left" : k === others.length - 1 ? "right" : "top";
  });
  return places;
}

/**
 * The table: the other seats around (`seat(p)` draws one), `middle` in the middle, `mine`
 * (your seat: hand and controls) at the bottom; `head` a short line over the middle.
 */
export function tableGrid(ctx, n, seat, middle, mine, head = null) {
  ctx.head(head);
  const places = seatPlaces(n, ctx.seat);
  const at = (where) => Object.keys(places).filter((p) => places[p] === where).map((p) => seat(Number(p)));
  return h("div", {class: "tbl", style: {"--others": String(Math.max(1, n - 1))}},
    h("div", {class: "tbl-top"}, at("top")),
    h("div", {class: "tbl-left"}, at("left")),
    h("div", {class: "tbl-mid"}, middle),
    h("div", {class: "tbl-right"}, at("right")),
    h("div", {class: "tbl-me"}, mine));
}
