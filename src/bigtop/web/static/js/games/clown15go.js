// Clown 15 Go: the middle rows, every player's open pile, your turned card and where it may
// go. A turned card is shown with a short flip; a move that is the only one possible is played
// for you after a short pause (the move log says so), never skipped silently.
import { h, sleep, who } from "../dom.js";
import { actionButton, findLegal, legalOfType, seatBox, tableGrid } from "./common.js";

// The default box's letters (V violet; P purple for a box given with the colours option).
// Shades dark enough for white numbers (orange, yellow and white cards take dark ones).
const COLOURS = {R: "#c62828", O: "#f08a24", Y: "#f2c81b", G: "#2e7d32", B: "#1f5fbf",
  V: "#7b3fb0", K: "#2b2b2b", W: "#f4f1e8", P: "#7b3fb0"};
const DARK_TEXT = new Set(["O", "Y", "W"]);
const NAMES = {R: "red", O: "orange", Y: "yellow", G: "green", B: "blue", V: "violet",
  K: "black", W: "white", P: "purple"};

function cardName(text) {
  return `${NAMES[text[0]] || text[0]} ${text.slice(1)}`;
}

function card(text, extra = "", attrs = {}) {
  if (!text) return h("span", {class: `c15-card empty ${extra}`}, "");
  // The colour's letter is drawn too (CSS, from data-suit): no card relies on colour alone.
  const {dataset = {}, ...rest} = attrs;
  return h("span", {class: `c15-card ${extra}`, title: cardName(text), "aria-label": cardName(text), role: "img",
    style: {"--c": COLOURS[text[0]] || "#777", color: DARK_TEXT.has(text[0]) ? "#222" : "#fff"},
    dataset: {...dataset, suit: text[0]}, ...rest}, text.slice(1));
}

/** A place a card may go: a button, highlighted when the move is legal. */
function target(ctx, action, label, content) {
  const ok = !!findLegal(ctx.legal, action);
  if (!ctx.myTurn) return h("div", {class: "c15-place"}, content);
  return h("button", {type: "button", class: `c15-place${ok ? " legal" : ""}`, "aria-label": label,
    dataset: {action: JSON.stringify(action)}, onclick: () => ctx.play(action)}, content);
}

function rows(obs, ctx) {
  const out = obs.rows.map((row, r) => h("div", {class: "c15-row", dataset: {row: r}},
    h("span", {class: "label"}, `row ${r}`),
    underTop(row),
    target(ctx, {type: "row", row: r}, `row ${r}, top ${cardName(obs.rows[r].at(-1))}`,
      card(row.at(-1), "top", {dataset: {key: `row-${r}-${row.length}`, from: "turned"}}))));
  const canNew = findLegal(ctx.legal, {type: "new-row"});
  if (ctx.myTurn && canNew) {
    out.push(h("div", {class: "c15-row"}, target(ctx, {type: "new-row"}, "start a new row",
      h("span", {class: "c15-card empty"}, "new row"))));
  }
  if (!out.length) out.push(h("p", {class: "hint"}, "No rows yet: a turned 1 starts one."));
  return h("section", {class: "c15-middle", "aria-label": "middle rows"},
    h("div", {class: "label"}, `Middle rows (${obs.completed.length} completed)`), out);
}

/** A row's cards under its top, said at once by their numbers ("under it: 1, 2, 3"): card
 * by card by colour, a screen reader read some fifty images of the middle, where only the
 * numbers count and only the top takes a card (its button says it). */
function underTop(row) {
  const under = row.slice(0, -1);
  return h("span", {class: "c15-row-cards", role: under.length ? "img" : undefined,
    "aria-label": under.length ? `under it: ${under.map((c) => c.slice(1)).join(", ")}` : undefined},
  under.map((c) => card(c, "under", {role: null, "aria-label": null})));
}

/** One seat: its closed pile (the count), its open pile (a place a card may go), facts. */
function player(obs, ctx, p) {
  const pl = obs.players[p];
  const mine = p === ctx.seat;
  const top = pl.open.at(-1);
  const action = mine ? {type: "own-pile"} : {type: "pile", player: p};
  const pile = target(ctx, action, `${mine ? "your own" : `${who(p)}'s`} open pile${top ? `, top ${cardName(top)}` : ""}`,
    card(top, "top", {dataset: {key: `pile-${p}-${pl.open.length}`, from: "turned"}}));
  const facts = `${pl.closed} closed · ${pl.open.length} open · ${pl.cards} cards` +
    (pl.points ? ` · ${pl.points} points` : "") + (pl.out ? " · out" : "");
  const box = seatBox(p, ctx, obs.to_act === p,
    h("div", {class: "c15-piles"},
      h("span", {class: "c15-card back", title: "closed pile", role: "img", "aria-label": `closed pile: ${pl.closed} cards`}, pl.closed), pile),
    h("div", {class: "seat-facts"}, facts));
  box.dataset.spot = `seat-${p}`;
  return box;
}

function turned(obs, ctx) {
  const actor = obs.to_act === ctx.seat ? "You" : who(obs.to_act);
  const parts = [];
  if (obs.phase === "card" && obs.pending) {
    parts.push(h("div", {class: "c15-turned", dataset: {spot: "turned"}},
      h("span", {class: "label"}, `${actor} turned over`), card(obs.pending, "big pending")));
  } else if (obs.phase === "turn") {
    // Advanced rule 1: the top of the own open pile may be played before turning over.
    const top = obs.players[obs.to_act].open.at(-1);
    parts.push(h("div", {class: "c15-turned"}, h("span", {class: "label"},
      top ? `${actor}: start of the turn — the open pile's top may be played first` : `${actor}: start of the turn`),
    top ? card(top, "big") : null));
  }
  if (ctx.myTurn) {
    const buttons = [];
    for (const [type, label] of [["lay-down", "Lay it down (turn ends)"], ["turn-over", "Turn over"],
      ["pass", "Pass"]]) {
      if (findLegal(ctx.legal, {type})) buttons.push(actionButton(ctx, label, {type}));
    }
    for (const e of legalOfType(ctx.legal, "borrow")) {
      buttons.push(actionButton(ctx, e.describe, e.action));
    }
    const where = whereItMayGo(obs, ctx);
    if (where) parts.push(h("p", {class: "hint", id: "c15-where"}, where));
    parts.push(h("div", {class: "controls"}, buttons));
  }
  return h("section", {class: "c15-hand"}, parts);
}

/** Where the turned card may go, in words (the places are highlighted, but a newcomer saw a
 * card and a board and did not know which were places): "Your green 9 fits row 1, row 2
 * or Ben (P2)'s open pile: click one." */
function whereItMayGo(obs, ctx) {
  const names = ctx.legal.flatMap(({action: a}) => (a.type === "row" ? [`row ${a.row}`]
    : a.type === "new-row" ? ["a new row"] : a.type === "pile" ? [`${who(a.player)}'s open pile`]
      : a.type === "own-pile" ? ["your own open pile"] : []));
  const or = (xs) => (xs.length > 1 ? `${xs.slice(0, -1).join(", ")} or ${xs.at(-1)}` : xs[0]);
  if (obs.phase === "card" && obs.pending) {
    if (!names.length) return null; // only the buttons below (lay it down, borrow)
    return `Your ${cardName(obs.pending)} fits ${or(names)}: choose one (highlighted).`;
  }
  if (obs.phase === "turn" && names.length) {
    return `Your open pile's top fits ${or(names)}: choose one${findLegal(ctx.legal, {type: "turn-over"}) ? ", or turn over" : ""}.`;
  }
  return null;
}

/** The middle rows scroll by themselves when they outgrow the play area (a phone): a
 * redraw keeps where they were scrolled to, and on your turn, when no row the card may go
 * to is in view, the first one comes into view (it lay below the fold, unseen). */
function showLegalRow(middle, scrolled, myTurn) {
  if (!middle) return;
  middle.scrollTop = scrolled;
  const places = [...middle.querySelectorAll(".c15-place.legal")];
  if (!myTurn || !places.length) return;
  const box = middle.getBoundingClientRect();
  const seen = (e) => { const r = e.getBoundingClientRect(); return r.top >= box.top - 1 && r.bottom <= box.bottom + 1; };
  if (places.some(seen)) return;
  const r = places[0].getBoundingClientRect();
  middle.scrollTop += r.top < box.top ? r.top - box.top - 4 : r.bottom - box.bottom + 4;
}

export default {
  name: "clown-15-go",
  title: "Clown 15 Go",
  howTo: "Places where the turned card may go are highlighted; click one (or any pile: the " +
    "server says why a card does not fit). When only one move is possible it is played for " +
    "you after a moment (untick “play forced moves for me” to click it yourself).",
  autoForced: true,
  render(root, ctx) {
    const obs = ctx.obs;
    const me = ctx.seat ?? 0;
    const mine = h("div", {class: "c15-mine"}, turned(obs, ctx), player(obs, ctx, me));
    const scrolled = root.querySelector(".c15-middle")?.scrollTop ?? 0;
    root.replaceChildren(h("div", {class: "c15"}, tableGrid(ctx, obs.players.length,
      (p) => player(obs, ctx, p), rows(obs, ctx), mine, `Turn ${obs.turns + 1}`)));
    showLegalRow(root.querySelector(".c15-middle"), scrolled, ctx.myTurn);
  },
  /** A turned card flips into view (the engine turns cards over by itself). */
  async animate(prev, next, root, ctx) {
    if (!prev || next.pending === null || next.pending === prev.pending) return;
    const node = root.querySelector(".pending");
    if (node) {
      node.classList.add("flip-in");
      await sleep(300 * (ctx.speed ?? 1));
    }
  },
  /** A final score in words: without the points rule the score is minus the cards left. */
  finalScore(result, p, view) {
    const left = result.cards_left[p];
    const cards = `${left} card${left === 1 ? "" : "s"} left`;
    return view.options.points ? `${result.scores[p]} points, ${cards}` : cards;
  },
  /** Why the game ended, in the engine's words (games/clown15go/options.py end_reason_text;
   * tests/web/test_docs.py keeps the two the same). */
  ending(result, view) {
    const first = result.out_order && result.out_order.length ? result.out_order[0] : null;
    const words = {
      "went-out": `${who(first)} got rid of all their cards`,
      "all-out": "every player has gone out",
      "stall": "for too long no card went anywhere but onto its player's open pile",
      "turn-limit": `the turn limit of ${view.options.max_turns} turns was reached`,
    };
    return words[result.end_reason] ?? null;
  },
  pauseMs: 250, // turns are many short placements
  rounds(obs) {
    // One game, no rounds: the scores are the points (all 0 without the points rule).
    return {rounds: [], totals: obs.players.map((pl) => pl.points)};
  },
  roundOf: (obs) => Math.floor(obs.turns / 10),
  roundLabel: (r) => `Turn ${r * 10 + 1}`,
};
