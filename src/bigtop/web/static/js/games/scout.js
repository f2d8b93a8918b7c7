// SCOUT: your hand in its fixed order (both numbers of every card visible), the active set,
// Show (select adjacent cards), Scout (take an end card, flip it, drop it between two hand
// cards), the hand-turn choice with a preview, and Scout & Show.
import { h, who } from "../dom.js";
import { actionButton, findLegal, legalOfType, seatBox, tableGrid } from "./common.js";

// What the player has picked but not yet sent; cleared whenever the table's version changes.
const ui = {version: -1, start: null, length: 0, scoutEnd: null, flip: false};

function resetUi(version) {
  Object.assign(ui, {version, start: null, length: 0, scoutEnd: null, flip: false});
}

/** One SCOUT card: the number that counts on top, the other one upside down below. */
function card([top, bottom], attrs = {}) {
  return h("span", {class: "scout-card", dataset: {key: cardKey([top, bottom])}, ...attrs}, faces([top, bottom]));
}

/** A card's two numbers as seen, and as said to a screen reader ("card 7 over 2"). */
function faces([top, bottom], what = "card") {
  return [h("span", {class: "vh"}, `${what} `), h("span", {class: "top"}, top), h("span", {class: "vh"}, " over "),
    h("span", {class: "bottom"}, bottom)];
}

/** A card's name for the motion between draws: the same card whichever way up. */
function cardKey([a, b]) {
  return `card-${Math.min(a, b)}-${Math.max(a, b)}`;
}

/** A card's back: drawn only; its hand says it (handWords). */
function hiddenCard() {
  return h("span", {class: "scout-card back"}, "");
}

/** Another seat's hand as one picture said at once ("12 cards in hand, 11 hidden; shown:
 * card 8 over 4 (place 8)"): its backs one by one were "a hidden card" eleven times a seat. */
function handWords(hand) {
  const shown = hand.flatMap((c, i) => (c ? [`card ${c[0]} over ${c[1]} (place ${i + 1})`] : []));
  const words = `${hand.length} cards in hand, ${hand.length - shown.length} hidden`;
  return shown.length ? `${words}; shown: ${shown.join(", ")}` : words;
}

function selectCard(index, ctx) {
  // Clicking next to the selection extends it; anywhere else starts a new one.
  if (ui.start === null) {
    ui.start = index; ui.length = 1;
  } else if (index === ui.start - 1) {
    ui.start = index; ui.length += 1;
  } else if (index === ui.start + ui.length) {
    ui.length += 1;
  } else if (index >= ui.start && index < ui.start + ui.length) {
    // Clicking inside the selection shrinks it to start there (or clears a single card).
    if (ui.length === 1) { ui.start = null; ui.length = 0; } else { ui.length = index - ui.start; }
    if (ui.length === 0) { ui.start = null; }
  } else {
    ui.start = index; ui.length = 1;
  }
  ctx.redraw();
}

/** Another seat: its facts and its hand as backs (the cards it scouted from the table are
 * public, drawn face up). */
function seat(obs, ctx, p) {
  const known = obs.hands[p].map((c) => (c ? card(c, {class: "scout-card small known"}) : hiddenCard()));
  const box = seatBox(p, ctx, obs.to_act === p,
    h("div", {class: "seat-facts"},
      `${obs.hand_sizes[p]} cards · captured ${obs.captured[p]} · tokens ${obs.scout_tokens[p]}`,
      obs.show_tokens[p] ? " · S&S left" : ""),
    h("div", {class: "mini-hand", role: "img", "aria-label": handWords(obs.hands[p])}, known));
  box.dataset.spot = `seat-${p}`;
  return box;
}

function activeSet(obs, ctx) {
  const scouts = legalOfType(ctx.legal, "scout");
  const n = obs.active.length;
  const cards = obs.active.map((c, i) => {
    const end = n === 1 ? "left" : i === 0 ? "left" : i === n - 1 ? "right" : null;
    const canScout = end && scouts.some((e) => e.action.end === end);
    const attrs = {class: `scout-card${canScout ? " legal" : ""}${ui.scoutEnd === end && end ? " selected" : ""}`};
    // A set somebody just showed comes from their seat.
    const from = obs.active_owner === null ? undefined : `seat-${obs.active_owner}`;
    if (end && ctx.myTurn && obs.phase === "turn") {
      return h("button", {type: "button", ...attrs,
        dataset: {active: i, end, key: cardKey(c), from},
        onclick: () => { ui.scoutEnd = ui.scoutEnd === end ? null : end; ctx.redraw(); }},
      faces(c, `take the ${end} card`));
    }
    return card(c, {...attrs, dataset: {key: cardKey(c), from}});
  });
  const owner = obs.active_owner === null ? "" : ` (${who(obs.active_owner)}'s)`;
  const children = [h("div", {class: "label"}, n ? `Active set${owner}` : "The table is empty")];
  children.push(h("div", {class: "active-set"}, cards));
  if (ui.scoutEnd && ctx.myTurn) {
    const plain = findLegal(ctx.legal, {type: "scout", end: ui.scoutEnd, and_show: false});
    const both = findLegal(ctx.legal, {type: "scout", end: ui.scoutEnd, and_show: true});
    children.push(h("div", {class: "controls"},
      actionButton(ctx, `Scout the ${ui.scoutEnd} card`, {type: "scout", end: ui.scoutEnd, and_show: false},
        {legal: !!plain}),
      obs.show_tokens[ctx.seat]
        ? actionButton(ctx, "Scout & Show", {type: "scout", end: ui.scoutEnd, and_show: true}, {legal: !!both})
        : null));
  }
  return h("div", {class: "middle"}, children);
}

function handRow(obs, ctx) {
  const hand = obs.hands[ctx.seat] || [];
  const shows = legalOfType(ctx.legal, "show");
  const inShow = new Set();
  for (const e of shows) for (let i = e.action.start; i < e.action.start + e.action.length; i++) inShow.add(i);
  const inserting = ctx.myTurn && obs.phase === "insert" && obs.pending;
  const row = [];
  const gap = (position) => {
    const ok = findLegal(ctx.legal, {type: "insert", position, flip: ui.flip});
    return h("button", {type: "button", class: `gap${ok ? " legal" : ""}`, dataset: {gap: position},
      onclick: () => ctx.play({type: "insert", position, flip: ui.flip})}, "+",
      h("span", {class: "vh"}, ` insert before card ${position}`));
  };
  hand.forEach((c, i) => {
    if (inserting) row.push(gap(i));
    const selected = ui.start !== null && i >= ui.start && i < ui.start + ui.length;
    const interactive = ctx.myTurn && obs.phase !== "insert";
    const cls = `scout-card${selected ? " selected" : ""}${inShow.has(i) ? " legal" : ""}`;
    if (interactive) {
      row.push(h("button", {type: "button", class: cls, dataset: {hand: i, key: cardKey(c)},
        "aria-pressed": selected ? "true" : "false",
        onclick: () => selectCard(i, ctx)}, faces(c)));
    } else {
      row.push(card(c, {class: cls, dataset: {hand: i, key: cardKey(c)}}));
    }
  });
  if (inserting) row.push(gap(hand.length));
  return h("div", {class: "hand", role: "group", "aria-label": "your hand"}, row);
}

function controls(obs, ctx) {
  const out = [];
  if (!ctx.myTurn) return out;
  if (obs.phase === "insert" && obs.pending) {
    // The observation's pending card is [top, bottom] (the state's is {card, and_show}).
    const c = Array.isArray(obs.pending) ? obs.pending : obs.pending.card;
    const shown = ui.flip ? [c[1], c[0]] : c;
    out.push(h("div", {class: "controls"},
      h("span", {}, "The scouted card: "), card(shown, {class: "scout-card pending"}),
      h("button", {type: "button", class: "act", "aria-pressed": ui.flip ? "true" : "false",
        onclick: () => { ui.flip = !ui.flip; ctx.redraw(); }}, "Flip it"),
      h("span", {class: "hint"}, "then pick a + between two cards of your hand")));
    return out;
  }
  if (obs.phase === "show") {
    // The second half of Scout & Show: only shows are possible now, and the page says why.
    out.push(h("p", {class: "hint", id: "scout-show-hint"}, obs.active.length
      ? "Scout & Show: now show a set from your hand that beats the active set."
      // the scouted card was the set's last: nothing is left to beat
      : "Scout & Show: now show a set from your hand (the table is empty: any set)."));
  }
  if (obs.phase === "turn") out.push(h("p", {class: "hint", id: "scout-what"}, whatToDo(obs, ctx)));
  const buttons = [];
  if (ui.start !== null) {
    const sel = {type: "show", start: ui.start, length: ui.length};
    buttons.push(actionButton(ctx, `Show ${ui.length} card${ui.length > 1 ? "s" : ""}`, sel,
      {legal: !!findLegal(ctx.legal, sel)}));
    buttons.push(h("button", {type: "button", class: "act",
      onclick: () => { ui.start = null; ui.length = 0; ctx.redraw(); }}, "Clear"));
  }
  if (findLegal(ctx.legal, {type: "pass"})) buttons.push(actionButton(ctx, "Pass", {type: "pass"}));
  if (buttons.length) out.push(h("div", {class: "controls"}, buttons));
  if (findLegal(ctx.legal, {type: "turn-hand"})) {
    const hand = obs.hands[ctx.seat];
    const turned = hand.slice().reverse().map(([a, b]) => card([b, a], {class: "scout-card small", dataset: {}}));
    out.push(h("div", {class: "controls preview"},
      actionButton(ctx, "Turn my hand", {type: "turn-hand"}),
      h("span", {class: "hint"}, "Turned, your hand would read:"),
      h("div", {class: "mini-hand"}, turned)));
  }
  return out;
}

/** What a turn offers now, in words (a newcomer saw highlighted cards and no sentence): how
 * to Show, how to Scout, or why only one of them is possible; a picked set that is no Show,
 * why. */
function whatToDo(obs, ctx) {
  const shows = legalOfType(ctx.legal, "show").length > 0;
  const scouts = legalOfType(ctx.legal, "scout").length > 0;
  if (ui.start !== null && !findLegal(ctx.legal, {type: "show", start: ui.start, length: ui.length})) {
    return "These cards are no Show: a set is cards next to each other of one number (4 4) or " +
      "of numbers in a row (3 4 5)" + (obs.active.length ? ", and it must beat the active set." : ".");
  }
  if (ui.scoutEnd) {
    return "Scout takes this card into your hand (you choose where next, and which way up)" +
      (obs.show_tokens[ctx.seat] ? "; Scout & Show (once a round) lets you show a set right after." : ".");
  }
  if (!obs.active.length) return "Pick cards next to each other in your hand, then Show: any set starts the table.";
  if (shows && scouts) {
    return "Pick cards next to each other in your hand that beat the active set, then Show; " +
      "or pick the left or right card of the active set to Scout it.";
  }
  if (scouts) return "No set in your hand beats the active set: pick its left or right card to Scout it into your hand.";
  return "Pick cards next to each other in your hand that beat the active set, then Show.";
}

export default {
  name: "scout",
  title: "SCOUT",
  howTo: "Click adjacent cards of your hand, then Show. To scout, click the left or right " +
    "card of the active set, then Scout (or Scout & Show) and click a + between your cards " +
    "where it should go.",
  render(root, ctx) {
    if (ui.version !== ctx.version) resetUi(ctx.version);
    const obs = ctx.obs;
    const facts = ctx.seat === null ? "" :
      `You: ${obs.hand_sizes[ctx.seat]} cards · captured ${obs.captured[ctx.seat]} · ` +
      `scout tokens ${obs.scout_tokens[ctx.seat]}${obs.show_tokens[ctx.seat] ? " · Scout & Show left" : ""}`;
    const mine = ctx.seat === null ? seat(obs, ctx, 0) : h("div", {class: "mine"},
      h("div", {class: "label"}, facts), handRow(obs, ctx), controls(obs, ctx));
    root.replaceChildren(h("div", {class: "scout"}, tableGrid(ctx, obs.hand_sizes.length,
      (p) => seat(obs, ctx, p), activeSet(obs, ctx), mine,
      `Round ${Math.min(obs.round + 1, obs.rounds)} of ${obs.rounds}`)));
  },
  roundOf: (obs) => Math.min(obs.round, obs.rounds - 1),
  roundLabel: (r) => `Round ${r + 1}`,
  rounds(obs) {
    return {rounds: obs.round_scores, totals: obs.totals, notes: obs.round_log.map((rec, r) => roundNote(obs, rec, r))};
  },
};

/** How round `r` ended, in the engine's words (games/scout/teach.py ENDING_WORDS;
 * tests/web/test_docs.py keeps the two the same), and where each seat's points came from. */
function roundNote(obs, rec, r) {
  const emptied = rec.hand.indexOf(0);
  // The owner of an unbeaten set pays nothing for their hand; without that rule (or after
  // a scouted-away set) the last round's owner is still on the table.
  const owner = rec.exempt ?? (r === obs.round_log.length - 1 && obs.finished ? obs.active_owner : null);
  const player = rec.ending === "emptied" ? emptied : owner;
  const words = {
    "emptied": `${who(player)} played their last card`,
    "unbeaten": `play came back to ${who(player)}, whose set nobody beat (everyone else only scouted)`,
    "stalled": `too many turns in a row beat no set (rule S9), so everyone pays for their hand`,
  };
  const named = rec.ending === "stalled" || (player !== null && player >= 0);
  const why = named && words[rec.ending] ? words[rec.ending] : "the round ended";
  const points = obs.round_scores[r].map((score, q) => {
    const hand = rec.hand[q];
    const pays = rec.exempt === q ? `${hand} in hand (not counted)` : hand ? `hand -${hand}` : "hand empty";
    return `${who(q)}: captured +${rec.captured[q]}, tokens +${rec.scout_tokens[q]}, ${pays} = ${score >= 0 ? "+" : ""}${score}`;
  });
  return {why: `Round ${r + 1} ended: ${why}.`, points};
}
