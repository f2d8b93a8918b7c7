// The table page: one page for every game. It keeps the latest view of the table (from the
// server), draws it with the game's module (js/games/*.js), and adds what every game shares:
// whose turn it is, the server's message for an illegal attempt, the rules panel, the move
// log, round summaries, final scores, the replay viewer and the reconnect banner; the people
// at the table, the chat and the rematch (friends.js) and the turn notifications (notify.js).
import { ApiError, OfflineError, api, identity, liveUpdates, pictureBlob, recent, tableFromUrl, tableUrl } from "./api.js";
import { copyText, fill, fillKeeping, h, rulesNodes, sayOnce, seatName, setNames, sleep, who } from "./dom.js";
import { drawClocks } from "./clocks.js";
import { claimSeat, drawNameAsk, drawPeople, drawResign, drawUndo, drawWaiting, followRematch, loadChat, onChat, rematchButton, setupFriends } from "./friends.js";
import { markTurn, setTitle, setupNotify } from "./notify.js";
import { countMotion, roundTable } from "./games/common.js";
import clown15go from "./games/clown15go.js";
import scout from "./games/scout.js";
import trickyLanding from "./games/tricky_landing.js";
import zirkus from "./games/zirkus.js";

const MODULES = {[scout.name]: scout, [clown15go.name]: clown15go, [zirkus.name]: zirkus,
  [trickyLanding.name]: trickyLanding};

// ?speed=0 turns the pauses and animations off (the browser tests use a small value).
const SPEED = Number(new URLSearchParams(window.location.search).get("speed") ?? "1");
// The player's own pace (the Motion setting, kept in this browser): 0 turns motion off; the
// system's "reduce motion" makes off the default.
const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const MOTION_KEY = "bigtop.motion";
const MOVE_MS = 380; // a card or a clown going from where it was to where it goes
const HOLD_MS = 4000; // a trick's or round's result stays at least this long (or a click)
const PAUSE_MS = 450; // between two moves by others, so bot turns can be followed
const BACKLOG = 6; // more moves waiting than this: shown faster
const MAX_LISTED = 60; // moves listed under "Your moves" (the board offers every one)
const CHANCE = -1; // the engines' current_player while chance acts (core.game.CHANCE)

const page = {
  table: null, token: null, view: null, module: null, log: new Map(), queue: [], busy: false,
  sending: false, replay: null, summarySeen: 0, connected: true,
  motion: 1, auto: new Set(), // versions reached by a forced move the page played for us
  prevObs: null, // the observation shown before the current one (what moved, and from where)
  levels: [], // bot levels the host may start a waiting table with
  logUndos: 0, // the table's take-backs when the log the page holds was read
  noRematchYet: false, // a view without a rematch came: a rematch made now takes us along
  holdNeeded: null, // "summary": the view just drawn ended a round; hold before the next
  release: null, // ends the hold now (a click on Continue or Go on)
};

/** The factor for pauses and animations: the tests' ?speed times the player's Motion. */
function pace() {
  return SPEED * (page.motion || 1);
}

/** Whether moves are animated at all (the Motion setting, the system's reduced motion). */
function moving() {
  return SPEED > 0 && page.motion > 0;
}

const $ = (id) => document.getElementById(id);

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

function banner(text) {
  const node = $("banner");
  node.textContent = text || "";
  node.hidden = !text;
}

function legalList(view) {
  return view.legal_actions.map((e) => ({action: e.action, describe: e.text, index: e.index}));
}

function sameAction(a, b) {
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => a[k] === b[k]);
}

/** Send a move; `auto` when the page plays a forced move by itself. True when it was sent. */
async function play(action, {auto = false} = {}) {
  if (page.sending || page.replay) return false;
  const view = page.view;
  page.sending = true;
  markIdle();
  showError("");
  if (!auto) $("summary").hidden = true; // you move on: you have seen the round's result
  try {
    const entry = view.legal_actions.find((e) => sameAction(e.action, action));
    const next = await api.move(page.table, page.token, view.version, entry ? entry.action : action);
    if (next && next.observation) enqueue(next);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.type === "/problems/stale-version") {
      // Somebody (a bot, this seat in another window) moved first: a late move, not an
      // illegal one. A forced move the page played by itself needs no word at all.
      if (!auto) showError("Too late: the table moved on before your move arrived, so it was not played. This is the table now.");
      await refresh();
    } else if (err instanceof ApiError && err.status >= 500) {
      // No refusal but a failure on the way (the server, a proxy): whether the move was
      // played, the table as it is now says.
      showError(`Your move may not have been played (${err.message}): this is the table now.`);
      await refresh().catch(() => false); // a server still failing: the error line stands
    } else if (err instanceof ApiError) {
      // The server's own words; nothing changed on the table.
      showError(`Not allowed: ${err.message}`);
      if (err.status === 409) await refresh();
    } else if (err instanceof OfflineError) {
      banner("Connection lost — reconnecting…");
      showError("Your move was not sent: the server cannot be reached. Try again when it is back.");
    } else {
      throw err;
    }
  } finally {
    page.sending = false;
    markIdle();
  }
  return false;
}

function context(view) {
  return {
    obs: view.observation, legal: legalList(view), seat: view.seat, version: view.version,
    myTurn: view.seat !== null && view.legal_actions.length > 0 && !page.replay,
    over: view.status !== "playing" || view.current_player < 0,
    players: view.players, options: view.options, speed: pace(), play, motion: moving(),
    prev: page.replay ? null : page.prevObs,
    // The log's line for the move that led to this view (what a module may animate by).
    moveLine: [...page.log.values()].filter((l) => l.kind === "move" && l.seat >= 0 && l.version <= view.version)
      .sort((a, b) => a.version - b.version).at(-1)?.text ?? null,
    redraw: () => draw(),
    // A short line beside the turn ("Round 1 of 4"), outside the play area.
    head: (text) => { $("round-line").textContent = text || ""; },
  };
}

function whoseTurn(view) {
  if (view.status === "waiting") return "The table waits for everyone to arrive.";
  if (view.status === "playing" && view.current_player === CHANCE) return "A chance move comes next (a deal, a roll).";
  if (view.status !== "playing" || view.current_player < 0) {
    if (view.status === "expired") return "This table has expired.";
    return view.result ? `The game is over: ${winnersLine(view)}.` : "The game is over.";
  }
  const seat = view.seats[view.current_player];
  // A replay's position: whose move it was (its view may be drawn from another seat's
  // hands, where "Your turn." named the wrong person and a past turn).
  if (page.replay) return `In the replay: ${seatName(view.current_player, page.view.seat)} to play.`;
  if (view.current_player === view.seat) {
    if (seat && seat.bot_playing) {
      return `A bot is playing your seat (${botReason(view, view.seat) === "timeout" ? "your time ran out" : "you were away"}).`;
    }
    return "Your turn.";
  }
  const mover = seat && seat.kind === "bot" ? `${who(view.current_player)} (bot, ${seat.level})` : who(view.current_player);
  return `${mover} to play.`;
}

/** Who won, in the top line: "you win", "P1 wins", "P0 (you) and P2 share first place". */
function winnersLine(view) {
  const {winners, ranking} = view.result;
  const best = Math.min(...ranking);
  const first = winners && winners.length ? winners : ranking.flatMap((place, p) => (place === best ? [p] : []));
  const name = (p) => (p === view.seat && first.length === 1 ? "you" : seatName(p, view.seat));
  if (first.length === 1) return first[0] === view.seat ? "you win" : `${name(first[0])} wins`;
  return `${first.slice(0, -1).map(name).join(", ")} and ${name(first[first.length - 1])} share first place`;
}

// A bot's move that takes long (a hard bot on a busy server, a bot process starting again):
// after THINK_S seconds the seconds it has taken, beside the turn line, so that a slow bot
// does not look like a page that stopped. Not a live region: it would speak every second.
const THINK_S = 3;
const thinking = {key: null, since: 0};

function drawThinking() {
  const view = page.view;
  const p = view && view.status === "playing" ? view.current_player : -1;
  const seat = p >= 0 ? view.seats[p] : null;
  const bot = !page.replay && !!seat && (seat.kind === "bot" || !!seat.bot_playing);
  const key = bot ? `${view.undos ?? 0}:${view.version}` : null;
  if (key !== thinking.key) Object.assign(thinking, {key, since: Date.now()});
  const s = Math.floor((Date.now() - thinking.since) / 1000);
  // (not while the page holds a result with the bot's move already waiting behind it)
  const waiting = bot && page.connected && !page.queue.length;
  $("thinking").textContent = waiting && s >= THINK_S ? `(the bot is thinking: ${s} s)` : "";
}

function drawStatus(view) {
  const you = view.seat === null ? "You are watching." : `You are ${who(view.seat)}.`;
  sayOnce($("turn"), `${whoseTurn(view)} ${page.replay ? "" : you}`);
  $("turn").classList.toggle("mine", !page.replay && view.seat !== null && view.current_player === view.seat);
  const seat = view.seat === null ? null : view.seats[view.seat];
  $("reclaim").hidden = !(seat && seat.bot_playing && !page.replay);
  if (seat && seat.bot_playing) {
    $("reclaim").textContent = botReason(view, view.seat) === "timeout"
      ? `Your time ran out: a bot (${seat.bot_playing}) plays for you — take my seat back`
      : `A bot (${seat.bot_playing}) plays for you while you are away — take my seat back`;
  }
}

/** Why a bot plays a person's seat: "timeout" where the latest hand-over in the log was their
 * clock running out, else "away" (the view's lines too: the page's log may not hold them yet). */
function botReason(view, seat) {
  const handovers = [...page.log.values(), ...(view.log || [])]
    .filter((l) => l.seat === seat && (l.kind === "takeover" || l.kind === "timeout"))
    .sort((a, b) => a.version - b.version || (a.id > b.id ? 1 : -1));
  return handovers.length && handovers.at(-1).kind === "timeout" ? "timeout" : "away";
}

function drawLog(view) {
  // A take-back (undos grew) comes with the whole, shorter log: the old one goes.
  if ((view.undos ?? 0) !== page.logUndos) {
    page.log.clear();
    page.logUndos = view.undos ?? 0;
  }
  for (const line of view.log || []) page.log.set(line.id, line);
  const lines = [...page.log.values()].sort((a, b) => a.version - b.version || (a.id > b.id ? 1 : -1));
  const list = $("log-list");
  if (!lines.length) {
    fill(list, h("li", {class: "hint empty"}, "No moves yet."));
    return;
  }
  // A chain of forced moves the page played for us is one line ("Played for you, the only
  // moves (2): You put R3 on row 2 (on R2); You lay B4 …"); every line is numbered in full.
  const items = [];
  for (const l of lines) {
    const last = items.at(-1);
    const forced = l.kind === "move" && page.auto.has(l.version);
    if (forced && last && last.forced && last.seat === l.seat) { last.texts.push(l.text); last.version = l.version; continue; }
    items.push({...l, forced, texts: [l.text]});
  }
  // Only the new lines are added (the list is a live region: no reading of the whole log).
  fillKeeping(list, items.map((l, i) => h("li", {class: `log-${l.forced ? "auto" : l.kind}`, dataset: {version: l.version}},
    h("span", {class: "n"}, `${i + 1}.`),
    h("span", {class: "t"}, l.forced ? forcedLine(l.texts)
      : [l.text, l.bot && l.kind === "move" && view.seats[l.seat] && view.seats[l.seat].kind !== "bot" ? ` (bot ${l.bot})` : ""]))));
  list.scrollTop = list.scrollHeight;
}

/** One line for a chain of forced moves: "Played for you, the only moves (3): …; …; …". */
function forcedLine(texts) {
  const head = texts.length === 1 ? "Played for you, the only move" : `Played for you, the only moves (${texts.length})`;
  return `${head}: ${texts.join("; ")}`;
}

function drawMoves(view, ctx) {
  const box = $("moves");
  if (!ctx.myTurn || page.module.hideMoveList) { box.hidden = true; return; }
  box.hidden = false;
  // The count says that the list may scroll (phones hide scroll bars) or be cut short.
  const n = ctx.legal.length;
  $("moves-title").textContent = n > MAX_LISTED ? `Your moves (the first ${MAX_LISTED} of ${n})`
    : `Your moves (${n})`;
  fill($("moves-list"), ctx.legal.slice(0, MAX_LISTED).map((e) => h("li", {}, h("button", {type: "button", class: "act legal",
    dataset: {action: JSON.stringify(e.action)}, onclick: () => play(e.action)}, e.describe))));
}

function drawScores(view) {
  const info = page.module.rounds(view.observation);
  const box = $("scores");
  const result = view.result;
  const parts = [];
  if (result) {
    const best = Math.min(...result.ranking);
    parts.push(h("h2", {}, "Final scores"));
    parts.push(h("ol", {class: "final"}, result.ranking
      .map((place, p) => ({place, p}))
      .sort((a, b) => a.place - b.place)
      .map(({place, p}) => h("li", {class: place === best ? "winner" : ""},
        `${place}. ${seatName(p, view.seat)}: ${score(result, p, view)}${place === best ? " — wins" : ""}`))));
    // In words, never the engine's code ("six-hole"); games without one say nothing. A game
    // ended early by the server (a seat resigned, or lost on time) says who.
    const early = {resigned: "resigned", time: "ran out of time"}[result.ending];
    const why = early ? `${seatName(result[result.ending === "time" ? "timed_out" : "resigned"], view.seat)} ${early}`
      : page.module.ending ? page.module.ending(result, view) : null;
    if (why) parts.push(h("p", {class: "hint", id: "ending"}, `The game ended: ${why}.`));
    if (view.summary) parts.push(summaryTable(view.summary, view.seat));
    if (!page.replay) {
      parts.push(h("p", {class: "end-buttons"},
        rematchButton(view),
        h("button", {type: "button", class: "act", id: "open-replay", onclick: openReplay}, "Replay this game"),
        // What next: another game starts in the lobby (the "bigtop" at the top is a link too).
        h("a", {href: "/", class: "act legal", id: "to-lobby"}, "New game in the lobby")));
      if (view.seed !== null) parts.push(verifyGame(view));
    }
  }
  if (view.picture && !page.replay) {
    // The project's own SVG picture of this seat's view (the same one `bigtop render` draws).
    // The link itself carries no token (it is the spectators' picture); a seat's click
    // fetches its own picture with the token in a header and opens it as a blob: address.
    const url = new URL(view.picture, window.location.origin);
    const openOwn = page.token ? (ev) => {
      ev.preventDefault();
      pictureBlob(view.picture, page.token).then((blob) => {
        const own = URL.createObjectURL(blob);
        window.open(own, "_blank", "noopener");
        setTimeout(() => URL.revokeObjectURL(own), 60_000);
      }).catch((err) => showError(err.message));
    } : undefined;
    parts.push(h("p", {class: "hint"}, h("a", {href: url.toString(), target: "_blank", rel: "noopener", id: "picture-link",
      onclick: openOwn}, "This position as an SVG picture")));
  }
  // At the end the server's summary (above) has the points of each round: the heading
  // comes only with a table or notes under it (So ein Zirkus's one game left it bare).
  const table = info.rounds.length && !(result && view.summary);
  const notes = info.rounds.length && info.notes;
  if (table || notes) {
    parts.push(h("h2", {}, "Rounds"));
    if (table) parts.push(roundTable(info.rounds, info.totals, view.seat, info.labels));
    if (notes) parts.push(h("div", {class: "round-notes"}, info.notes.map(roundNote)));
  }
  fill(box, parts);
  box.hidden = !parts.length;
  if (result) resultFirst(box);
}

/** At the end the result (the final scores, Rematch, the replay) is what a player looks for:
 * its panel goes to the top of the side panel, which scrolls back up to show it once (it
 * came last, below the people, the chat and the settings: below the window's bottom). */
function resultFirst(box) {
  const side = box.parentElement;
  if (side.firstElementChild === box) return;
  side.prepend(box);
  side.scrollTop = 0;
}

/** The server's final summary: each player's points in every round, with names, best first. */
function summaryTable(summary, mySeat) {
  const rows = [...summary.players].sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
  const n = summary.rounds;
  // The rounds' columns are headed by their number under the caption ("Round" said to
  // screen readers only), and the table scrolls in its own box: at five rounds "Round 1" …
  // "Round 5" ran past the side panel, cutting off the totals.
  return h("div", {class: "scroll-x"}, h("table", {class: "scores", id: "final-summary"},
    h("caption", {}, n > 1 ? "Points per round" : "Points"),
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Place"), h("th", {scope: "col"}, "Player"),
      n > 1 ? Array.from({length: n}, (_, r) => h("th", {scope: "col"}, h("span", {class: "vh"}, "Round "), r + 1)) : null,
      h("th", {scope: "col"}, "Total"))),
    h("tbody", {}, rows.map((row) => h("tr", {class: row.seat === mySeat ? "mine" : "", dataset: {seat: row.seat}},
      h("td", {}, row.place ?? ""), h("th", {scope: "row"}, seatName(row.seat, mySeat)),
      n > 1 ? row.rounds.map((x) => h("td", {}, points(x))) : null, h("td", {}, points(row.total)))))));
}

function points(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/** How a round ended and where each seat's points came from (a module's `notes`). */
function roundNote(note) {
  return h("div", {class: "round-note"}, h("p", {}, note.why),
    h("ul", {}, note.points.map((line) => h("li", {}, line))));
}

/** One seat's final score as the game counts it (Clown 15 Go: cards left, not "-13"). */
function score(result, p, view) {
  return page.module.finalScore ? page.module.finalScore(result, p, view) : String(result.scores[p]);
}

function drawSummary(view) {
  // A summary at the end of every round (not in the replay); dismissed with its button.
  const info = page.module.rounds(view.observation);
  const box = $("summary");
  if (page.replay || info.rounds.length <= page.summarySeen || view.result) {
    if (view.result) {
      // The final scores hold every round: an earlier round's box left open would say
      // "Round 2 is over" beside them.
      page.summarySeen = info.rounds.length;
      box.hidden = true;
    }
    return;
  }
  const r = info.rounds.length;
  page.summarySeen = r;
  // Over the middle of the table until seen (Continue, or your next move); the pump holds
  // others' moves a few seconds meanwhile; the side panel's round table keeps it after.
  fill(box, h("h2", {}, `${info.labels ? info.labels[r - 1] : `Round ${r}`} is over`),
    roundTable(info.rounds, info.totals, view.seat, info.labels),
    info.notes ? h("div", {class: "round-notes"}, roundNote(info.notes[r - 1])) : null,
    h("button", {type: "button", class: "act legal", id: "summary-close", onclick: () => seen()}, "Continue"));
  box.hidden = false;
  page.holdNeeded = "summary";
}

/** The player has seen a result (clicked, or its time is up): play goes on. */
function seen() {
  $("summary").hidden = true;
  $("hold").hidden = true;
  if (page.release) page.release();
}

/** Hold the next moves until a result was seen: `ms`, or a click on its button. */
async function holdFor(ms, text = null) {
  if (text) {
    $("hold-text").textContent = text;
    $("hold").hidden = false;
  }
  document.body.dataset.holding = "yes";
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    page.release = () => { clearTimeout(timer); resolve(); };
  });
  page.release = null;
  document.body.dataset.holding = "no";
  $("hold").hidden = true;
}

// Redrawing replaces the board's elements; keyboard users keep their place through it.
const FOCUS_KEYS = ["data-hand", "data-gap", "data-end", "data-action", "data-card", "data-clown", "data-path"];

function focusSelector(node) {
  if (!node || node === document.body) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  const attrs = FOCUS_KEYS.filter((a) => node.hasAttribute(a))
    .map((a) => `[${a}="${CSS.escape(node.getAttribute(a))}"]`);
  return attrs.length ? `#board ${node.tagName.toLowerCase()}${attrs.join("")}` : null;
}

/** Draw the view; `moves`: the table moved on (the pump's step), so what moved glides. */
function draw(moves = false) {
  const view = page.replay ? page.replay.view : page.view;
  if (!view) return;
  const active = document.activeElement;
  const focused = focusSelector(active);
  // Where the action was: a control of the board or of "Your moves".
  const wasPlaying = active && (active.closest("#board") || active.closest("#moves"));
  const before = moves && moving() && !page.replay ? places() : null;
  try {
    drawAll(view);
  } finally {
    const again = focused && document.querySelector(focused);
    if (again && again !== document.activeElement) again.focus({preventScroll: true});
    else if (!again && wasPlaying && !document.activeElement.closest("#board, #moves")) {
      // The control is gone (a Scout: the card now goes into the hand): the focus stays at
      // the table, on the first thing to do next, never back at the top of the page.
      const next = document.querySelector("#board button.legal, #board .legal[tabindex], #board [tabindex='0']") || $("board");
      next.focus({preventScroll: true});
    }
  }
  if (before) glide(before);
  sizeBoard();
}

// -- motion: every element with data-key goes from where it was to where it is now; a new
// one with data-from starts where that key was (a shown set from the hand, a scouted card
// from the active set, a turned card onto a row, a card from another seat).

/** Where an element is: in its drawing's units for SVG (a board that scales to the window
 * does not make its pieces move), else on the screen. */
function where(e) {
  if (e instanceof SVGGraphicsElement && e.ownerSVGElement) {
    const b = e.getBBox();
    return {svg: true, left: b.x, top: b.y};
  }
  const r = e.getBoundingClientRect();
  return {svg: false, left: r.left, top: r.top};
}

function places() {
  const out = new Map();
  for (const e of document.querySelectorAll("#board [data-key]")) out.set(e.dataset.key, where(e));
  // Places things come from without moving themselves: a seat, the turned card's spot.
  for (const e of document.querySelectorAll("#board [data-spot]")) out.set(e.dataset.spot, where(e));
  return out;
}

function glide(before) {
  const ms = MOVE_MS * pace();
  let moved = 0;
  for (const e of document.querySelectorAll("#board [data-key]")) {
    const was = before.get(e.dataset.key) || (e.dataset.from && before.get(e.dataset.from));
    if (!was) continue;
    const now = where(e);
    if (now.svg !== was.svg) continue;
    const dx = was.left - now.left, dy = was.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    // SVG elements move in the drawing's units (CSS px there), HTML ones in CSS pixels.
    e.animate([{transform: `translate(${dx}px, ${dy}px)`}, {transform: "none"}],
      {duration: ms, easing: "ease-out"});
    moved += 1;
  }
  if (moved) countMotion(moved);
}

/** Wait until every animation of the board has finished. */
async function settled() {
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
}

/** The play area takes the window's height below the top lines (custom property --board-h). */
function sizeBoard() {
  const play = $("play");
  if (!play || $("layout").hidden) return;
  const top = play.getBoundingClientRect().top + window.scrollY;
  const h = Math.max(288, Math.floor(window.innerHeight - top - 6));
  document.documentElement.style.setProperty("--board-h", `${h}px`);
}

function drawAll(view) {
  setNames(view.seats); // names instead of seat labels, wherever the page says a seat
  const ctx = context(view);
  // What is on screen, for people's tools and the browser tests: version, whose turn, status.
  Object.assign(document.body.dataset, {version: view.version, myTurn: ctx.myTurn ? "yes" : "no",
    status: view.status, seat: view.seat ?? ""});
  if (view.status === "waiting") {
    // Nothing is dealt yet (no observation): whom the table waits for, and the invites.
    drawWaiting($("board"), view, page.levels, showError);
    $("auto-forced-line").hidden = true;
    $("moves").hidden = true;
    $("scores").hidden = true;
    drawStatus(view);
    drawPeople(view, (seat) => botReason(view, seat));
    drawNameAsk(view, enqueue, showError);
    drawClocks(view);
    drawResign(view, enqueue, showError);
    markTurn(false, "");
    return;
  }
  if (!view.observation) {
    // Closed while it waited (its host closed it, or nobody came in time): nothing was
    // ever dealt, so there is no board to draw.
    fill($("board"), h("div", {class: "waiting-board", id: "closed"},
      h("h2", {}, "This table was closed before the game started"),
      h("p", {}, "Nothing was dealt or played here. ",
        h("a", {href: "/", class: "act legal", id: "to-lobby"}, "New game in the lobby"))));
    for (const id of ["auto-forced-line", "moves", "scores"]) $(id).hidden = true;
    drawStatus(view);
    drawLog(view);
    drawPeople(view, (seat) => botReason(view, seat));
    drawResign(view, enqueue, showError);
    markTurn(false, "");
    return;
  }
  page.module.render($("board"), ctx);
  // Only a seat still playing has forced moves (not a spectator, not after the end).
  $("auto-forced-line").hidden = !page.module.autoForced || view.seat === null || ctx.over;
  drawStatus(view);
  if (!page.replay) {
    drawLog(view);
    drawMoves(view, ctx);
    drawSummary(view);
    drawPeople(view, (seat) => botReason(view, seat));
    drawNameAsk(view, enqueue, showError);
    drawClocks(view);
    drawUndo(view, enqueue, showError);
    drawThinking();
    markTurn(ctx.myTurn && !ctx.over, whoseTurn(view));
    // No turn comes after the end: "Your turn: a sound" offers nothing any more.
    if (view.result) $("notify-settings").hidden = true;
  }
  drawResign(view, enqueue, showError, !!page.replay);
  drawScores(view);
}

function markIdle() {
  const idle = !page.busy && !page.sending && !page.queue.length;
  document.body.dataset.idle = idle ? "yes" : "no";
}

/** Whether `view` is older than `than`: an earlier version, or from before a take-back
 * (after which versions count again from the move taken back). */
function older(view, than) {
  const u = view.undos ?? 0, t = than.undos ?? 0;
  return u !== t ? u < t : view.version < than.version;
}

function enqueue(view) {
  if (page.view && older(view, page.view)) return;
  page.queue.push(view);
  markIdle();
  if (!page.busy) pump();
}

/** Show queued views one by one, animated and paced so that others' moves can be followed. */
async function pump() {
  page.busy = true;
  try {
    for (;;) {
      while (page.queue.length) {
        const next = page.queue.shift();
        const prev = page.view;
        if (prev && older(next, prev)) continue;
        if (prev && next.version === prev.version && page.queue.length) continue;
        page.view = next;
        if (page.replay) continue;
        const mod = page.module;
        // One move at a time, animated; a long backlog (a bot's long turn, a reconnect) is
        // caught up faster, without animations.
        // A table that was waiting had nothing on it: its first deal is drawn, not animated.
        const stepped = !!(prev && prev.observation) && oneMove(prev, next);
        const fast = page.queue.length > BACKLOG;
        const animate = stepped && moving() && !fast;
        page.prevObs = animate ? prev.observation : null;
        if (animate && mod.animate && mod.animateBefore) await mod.animate(prev.observation, next.observation, $("board"), context(prev));
        draw(animate);
        if (animate && mod.animate && !mod.animateBefore) await mod.animate(prev.observation, next.observation, $("board"), context(next));
        if (animate) await settled();
        // A result stays until seen: a round's summary, a trick (the module says which).
        // (with the log's lines of the step: So ein Zirkus says a turn lost to the die)
        const held = !fast && prev && prev.observation && mod.held
          ? mod.held(prev.observation, next.observation, next.seat, linesBetween(prev, next)) : null;
        if (page.holdNeeded === "summary" && !fast) {
          // Others' moves wait a few seconds (or Continue); the summary itself stays until
          // Continue or your own next move.
          page.holdNeeded = null;
          await holdFor(HOLD_MS * 1.5 * SPEED);
        } else if (held && SPEED > 0) {
          await holdFor(HOLD_MS * SPEED, held);
        }
        if (stepped && page.queue.length && SPEED > 0) {
          await sleep((mod.pauseMs ?? PAUSE_MS) * pace() * (fast ? 0.25 : 1));
        }
      }
      // Only once everything is shown: a forced move may be played for us.
      if (!(await playForced(page.view))) break;
    }
  } finally {
    page.busy = false;
    markIdle();
  }
}

/** The log's lines of the steps from `prev` to `next`, in order. */
function linesBetween(prev, next) {
  return [...page.log.values()].filter((l) => l.version > prev.version && l.version <= next.version)
    .sort((a, b) => a.version - b.version);
}

/** Whether `next` is one player's move after `prev` (with the chance that follows it, a So
 * ein Zirkus roll): such a step is animated and paced; a jump is caught up at once. */
function oneMove(prev, next) {
  if (!prev || next.version <= prev.version) return false;
  if (next.version === prev.version + 1) return true;
  const lines = (next.log || []).filter((l) => l.version > prev.version && l.version <= next.version);
  const versions = new Set(lines.map((l) => l.version));
  return versions.size === next.version - prev.version &&
    lines.filter((l) => l.kind === "move" && l.seat >= 0).length <= 1;
}

/** Clown 15 Go: a move that is the only one possible is played after a short pause; true
 * when it was sent. */
async function playForced(view) {
  if (!view || !page.module.autoForced || !$("auto-forced").checked || page.replay) return false;
  if (view.seat === null || view.legal_actions.length !== 1) return false;
  // Fast: long enough to see the card go, the page waits only where there is a choice.
  await sleep(150 * pace());
  if (page.view !== view || page.queue.length) return page.queue.length > 0;
  const only = view.legal_actions[0];
  // The log folds a chain of these into one line that says they were played for us.
  page.auto.add(view.version + 1);
  return play(only.action, {auto: true});
}

async function refresh() {
  try {
    enqueue(await api.view(page.table, page.token));
    return true;
  } catch (err) {
    if (err instanceof OfflineError) return false;
    throw err;
  }
}

function onUpdate(message) {
  // {"type": "view", "view": …} for every change (its log holds only the new entries);
  // {"type": "error", "problem": …} when the server refused something.
  if (message.type === "view" && message.view) {
    enqueue(message.view);
    // A rematch made while we are here takes everyone to the new table (not somebody looking
    // at the replay; an old table opened later just offers "Go to the rematch").
    const fresh = message.view.rematch && page.noRematchYet;
    if (!message.view.rematch) page.noRematchYet = true;
    if (fresh && !page.replay) followRematch(message.view, showError);
  } else if (message.type === "chat") onChat(message.message);
  else if (message.type === "error" && message.problem) showError(message.problem.detail || message.problem.title);
}

async function onStatus(status) {
  if (status === "open") {
    // The server's first message catches us up from our version.
    banner("");
    page.connected = true;
    // Connected first, then the chat so far: later messages come over the socket.
    if (page.view) loadChat(page.view);
  } else if (status === "lost") {
    page.connected = false;
    banner("Connection lost — reconnecting…");
  } else if (status === "refused") {
    // Its invite link was opened elsewhere (or the seat changed hands): this page's token
    // opens the seat no more.
    page.connected = false;
    banner("This page's token no longer opens the seat: its invite link was opened elsewhere.");
  }
}

// -- replay ---------------------------------------------------------------------------------

async function openReplay() {
  const data = await api.replay(page.table, page.token);
  // as: whose hands the replay shows (a finished game's replay carries every seat's view);
  // null: this page's own (a spectator's: the public one).
  // at: the step shown; to: the step last asked for (a step's observation is fetched first);
  // asked: how many were asked for (only the latest draws).
  page.replay = {steps: data.steps, at: data.steps.length, to: data.steps.length, asked: 0,
    view: page.view, cache: new Map(), rounds: [], as: null};
  $("replay").hidden = false;
  drawRevealChoice();
  $("summary").hidden = true;
  await replayTo(data.steps.length);
  // The button is at the end of the side panel (far below the board on a phone): the
  // replay's controls and the board come into view, and the focus goes with them.
  $("replay").scrollIntoView({block: "nearest"});
  $("replay-prev").focus({preventScroll: true});
  page.replay.rounds = await roundStarts();
  fill($("replay-rounds"), page.replay.rounds.map(([label, v]) =>
    h("button", {type: "button", class: "act small", dataset: {round: label}, onclick: () => replayTo(v)}, label)));
}

async function observationAt(at) {
  const cache = page.replay.cache;
  if (!cache.has(at)) cache.set(at, await api.replay(page.table, page.token, at));
  return cache.get(at).observation;
}

/** The view at `at` with the hands the replay shows: a seat's (`hands`, once the game is
 * over: every hand and hidden card) or this page's own. */
async function replayObservation(at) {
  const replay = page.replay; // (closed meanwhile: the answer is not drawn)
  const own = await observationAt(at);
  const hands = replay.cache.get(at).hands;
  return replay.as !== null && hands ? hands[replay.as] : own;
}

/** After the game the replay may show every seat's hands: "Hands shown: yours / Ben's…". */
function drawRevealChoice() {
  const view = page.view;
  const box = $("replay-as-box");
  box.hidden = view.status !== "finished";
  $("replay-as-note").textContent = "";
  if (box.hidden) return;
  fill($("replay-as"), h("option", {value: ""}, view.seat === null ? "the public view" : "yours"),
    view.seats.map((s) => (s.seat === view.seat ? null
      : h("option", {value: s.seat}, `${who(s.seat)}'s`))));
  $("replay-as").onchange = () => {
    page.replay.as = $("replay-as").value === "" ? null : Number($("replay-as").value);
    // The board draws that seat where yours is ("You: …" then means them).
    $("replay-as-note").textContent = page.replay.as === null ? ""
      : `(${who(page.replay.as)} at the bottom, as they saw it)`;
    replayTo(page.replay.to);
  };
}

/** Where each round (or game of a series) starts: a binary search over the replay by the
 * module's round counter, which never goes down. */
async function roundStarts() {
  const mod = page.module;
  const last = page.replay.steps.length;
  const rounds = mod.roundOf(await observationAt(last));
  const out = [[mod.roundLabel(0), 0]];
  let lo = 0;
  for (let r = 1; r <= rounds; r++) {
    let hi = last;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (mod.roundOf(await observationAt(mid)) >= r) hi = mid; else lo = mid + 1;
    }
    out.push([mod.roundLabel(r), lo]);
  }
  return out;
}

async function replayTo(at) {
  const replay = page.replay;
  const steps = replay.steps;
  at = Math.max(0, Math.min(steps.length, at));
  // "First" then "Next" clicked before the first answer came means step 1: steps count from
  // the one asked for, and an answer that comes after a later request's is dropped.
  replay.to = at;
  const ask = ++replay.asked;
  const obs = await replayObservation(at);
  if (page.replay !== replay || ask !== replay.asked) return;
  page.replay.at = at;
  const end = at === steps.length;
  const as = page.replay.as;
  page.replay.view = {...page.view, observation: obs, legal_actions: [], version: at,
    seat: as === null ? page.view.seat : as, // a seat's hands: drawn from that seat
    // Before a die roll (So ein Zirkus) chance acts: the player whose turn it is rolls.
    current_player: end ? page.view.current_player : (obs.to_act >= 0 ? obs.to_act : (obs.turn_of ?? obs.to_act ?? -1)),
    status: end ? page.view.status : "playing", result: end ? page.view.result : null};
  draw();
  $("replay-at").textContent = `move ${at} of ${steps.length}`;
  // The move just shown, marked in the log.
  for (const li of document.querySelectorAll("#log-list li.current")) li.classList.remove("current");
  const line = at > 0 && document.querySelector(`#log-list li[data-version="${steps[at - 1].version}"].log-move`);
  if (line) { line.classList.add("current"); scrollWithin(line); }
  $("replay-line").textContent = at > 0 ? steps[at - 1].text : "the start";
  $("replay-range").max = String(steps.length);
  $("replay-range").value = String(at);
}

/** Bring `item` into view inside the boxes that scroll by themselves (the log, the side
 * panel beside the board), never by scrolling the window: on a phone, where the side panel
 * lies below the board, scrollIntoView took the board off screen at every replay step. */
function scrollWithin(item) {
  for (let box = item.parentElement; box && box !== document.body; box = box.parentElement) {
    if (!/(auto|scroll)/.test(getComputedStyle(box).overflowY) || box.scrollHeight <= box.clientHeight) continue;
    const outer = box.getBoundingClientRect(), r = item.getBoundingClientRect();
    if (r.top < outer.top) box.scrollTop -= outer.top - r.top;
    else if (r.bottom > outer.bottom) box.scrollTop += Math.min(r.bottom - outer.bottom, r.top - outer.top);
  }
}

function closeReplay() {
  page.replay = null;
  // The log's lines as they were (a marked one would be put anew, and spoken again).
  for (const li of document.querySelectorAll("#log-list li.current")) li.classList.remove("current");
  $("replay").hidden = true;
  draw();
}

// -- rules ----------------------------------------------------------------------------------

/**
 * The engine's rules text as the table's options play them (GET /api/tables/{id}/rules, drawn
 * by dom.js rulesNodes), then the game's notes on this configuration and the module's hint
 * on moving on this page.
 */
function showRules(rules) {
  const parts = rulesNodes(rules ? rules.rules : []);
  if (!rules) parts.push(h("p", {class: "error"}, "The rules could not be loaded."));
  for (const note of rules ? rules.notes : []) parts.push(h("p", {class: "note"}, note));
  parts.push(h("p", {class: "how-to"}, h("strong", {}, "On this page: "), page.module.howTo));
  fill($("rules-body"), parts);
}

// -- start ----------------------------------------------------------------------------------

/** The top line when the table cannot be shown: what to do next instead of "Loading…". */
function cannotOpen(table, err) {
  const turn = $("turn");
  if (err instanceof ApiError && err.type === "/problems/invite-used") {
    // Somebody (maybe this person, in another browser) exchanged the link already.
    fill(turn, "This invite link was opened already (or is mistyped): ask the host for the table, or open it where you first opened it. ",
      h("a", {href: tableUrl(table), id: "watch-instead"}, "Watch the table"), ".");
  } else if (err instanceof ApiError && err.status === 403) {
    // An invite link whose seat somebody took from the lobby, or a mistyped token.
    fill(turn, "This link is not a seat at the table (any more). ",
      h("a", {href: tableUrl(table), id: "watch-instead"}, "Watch the table"), " or go back to ",
      h("a", {href: "/"}, "the lobby"), ".");
  } else if (err instanceof OfflineError) {
    turn.textContent = "The server cannot be reached: reload the page when it is back.";
  } else {
    fill(turn, "This table cannot be shown. Go back to ", h("a", {href: "/"}, "the lobby"), ".");
  }
}

function setupMotion() {
  const select = $("motion");
  let saved = null;
  try { saved = localStorage.getItem(MOTION_KEY); } catch { /* storage off: the default */ }
  page.motion = saved !== null ? Number(saved) : (REDUCED ? 0 : 1);
  select.value = String(page.motion);
  $("motion-hint").textContent = REDUCED && saved === null ? "off: your system asks for reduced motion" : "";
  const setPace = () => document.documentElement.style.setProperty("--pace", String(pace()));
  setPace();
  select.onchange = () => {
    page.motion = Number(select.value);
    setPace();
    try { localStorage.setItem(MOTION_KEY, select.value); } catch { /* kept for this page only */ }
    $("motion-hint").textContent = "";
  };
}

/**
 * The seat token this page opens the table with, for the token of the link it was opened
 * with: the token this browser holds for the table already (`recent`: this very link's seat,
 * else the seat this browser sits at, so that a host opening a friend's link does not use it
 * up), else the link's own, exchanged for the seat's (POST …/accept: an invite's token
 * becomes a fresh one only this browser knows; a token of our own comes back unchanged).
 * The address then carries that token (its fragment replaced: never a query).
 */
async function ownToken(table, linkToken) {
  const held = recent.list().filter((e) => e.table === table);
  const mine = held.find((e) => e.token === linkToken || e.link === linkToken) || held[0];
  let token = mine && mine.own ? mine.token : null;
  if (!token) {
    let got;
    try {
      got = await api.accept(table, mine ? mine.token : linkToken);
    } catch (err) {
      // What this browser held no longer opens a seat (taken over meanwhile): the link's.
      if (!mine || mine.token === linkToken || !(err instanceof ApiError) || err.status !== 403) throw err;
      got = await api.accept(table, linkToken);
    }
    token = got.token;
    recent.remember({...mine, table, seat: got.seat, token, link: linkToken, own: true});
  }
  if (token !== linkToken) history.replaceState(history.state, "", `#token=${token}`);
  return token;
}

async function start() {
  const {table, token: seatToken, asMe} = tableFromUrl();
  // "#me": the seat of this browser's identity, opened with its key (a header, never a URL).
  const me = asMe && !seatToken ? identity.get() : null;
  let token = seatToken || (me ? me.key : null);
  if (!table) {
    showError("No table in the address: open a table from the lobby.");
    fill($("turn"), h("a", {href: "/"}, "Go to the lobby"), ".");
    return;
  }
  page.table = table;
  let view;
  try {
    if (seatToken) token = await ownToken(table, seatToken);
    page.token = token;
    view = await api.view(table, token);
  } catch (err) {
    showError(err instanceof ApiError || err instanceof OfflineError ? err.message : String(err));
    cannotOpen(table, err);
    return;
  }
  page.module = MODULES[view.game];
  if (!page.module) {
    showError(`This page cannot draw the game ${view.game}.`);
    return;
  }
  // Only a table that can be shown gets its board and panels (a bad link shows its line).
  $("layout").hidden = false;
  setupMotion();
  window.addEventListener("resize", sizeBoard);
  // The lines above the play area also grow outside a redraw (an error line, the banner, a
  // refused take-back's reason): the board is sized again, so that your hand stays in the
  // window instead of being pushed below it.
  const above = new ResizeObserver(() => sizeBoard());
  for (const line of document.querySelectorAll(".topbar, #banner, .status-line, #error, #replay")) above.observe(line);
  $("hold-go").onclick = seen;
  setTitle(`${view.title} — bigtop`);
  setupNotify($("notify-sound"), $("notify-popup"), $("notify-note"));
  setupFriends(table, token, !seatToken && !!me);
  // An invite link opened with a name: the seat becomes this identity's.
  if (seatToken) view = (await claimSeat(view, identity.get()?.key)) || view;
  // A spectator has no turn to be told of ("Your turn: a sound" asked for nothing).
  $("notify-settings").hidden = view.seat === null;
  if (asMe && !me) {
    // "My games" opened where this browser has no name of ours: the public view, said so
    // (not a silent "You are watching" where the player expected their seat).
    showError("This browser does not know your name, so it shows the table as a spectator sees it. " +
      "To play your seat here, open “Use on another device” in the lobby where you chose your name.");
  }
  $("game-title").textContent = view.title;
  api.rules(table).then(showRules, () => showRules(null));
  if (seatToken && view.seat !== null) {
    const held = recent.list().find((e) => e.table === table && e.token === token);
    recent.remember({...held, table, seat: view.seat, token, game: view.game, title: view.title});
  }
  page.summarySeen = view.observation ? page.module.rounds(view.observation).rounds.length : 0;
  if (view.status === "waiting" && view.seat !== null && view.seat === view.host_seat) {
    // The host may start with bots in the empty seats: the ladder's levels, for the choice.
    const games = await api.games().catch(() => null);
    page.levels = games ? (games.bot_level_docs || []).filter((d) => !d.yardstick).map((d) => d.name) : [];
    if (!page.levels.length && games) page.levels = games.bot_levels;
  }
  $("copy-spectate").onclick = () => copyText(tableUrl(table));
  // The rules lie at the end of the side panel (below the log; on a phone below everything):
  // the button at the top opens them and brings them into view, the focus on their heading.
  $("show-rules").onclick = () => {
    $("rules").open = true;
    $("rules").scrollIntoView({block: "start"});
    $("rules").querySelector("summary").focus({preventScroll: true});
  };
  $("reclaim").onclick = async () => {
    try { enqueue(await api.reclaim(table, token)); } catch (err) { showError(err.message); }
  };
  $("replay-close").onclick = closeReplay;
  $("replay-first").onclick = () => replayTo(0);
  $("replay-prev").onclick = () => replayTo(page.replay.to - 1);
  $("replay-next").onclick = () => replayTo(page.replay.to + 1);
  $("replay-last").onclick = () => replayTo(page.replay.steps.length);
  $("replay-range").oninput = (ev) => replayTo(Number(ev.target.value));
  document.addEventListener("keydown", (ev) => {
    if (!page.replay || ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowLeft") replayTo(page.replay.to - 1);
    if (ev.key === "ArrowRight") replayTo(page.replay.to + 1);
  });
  page.noRematchYet = !view.rematch;
  setInterval(drawThinking, 1000);
  enqueue(view);
  liveUpdates(table, token, () => (page.view ? page.view.version : null), onUpdate, onStatus);
}

start();

// "Verify this game": the seed every view committed to, revealed now the game is over, and how
// anyone can check that it made every deal, roll and throw (docs/server.md: fair chance).
function verifyGame(view) {
  const exportUrl = `/api/tables/${encodeURIComponent(view.table)}/export`;
  // docs/server.md's recipe, TABLE and COMMITMENT filled in: verify_export checks the
  // commitment, that every roll is the seed's, and the final position.
  const check = [
    "import json, bigtop",
    `problems = bigtop.verify_export(json.load(open("export.json")), "${view.table}", "${view.seed_commitment}")`,
    'print("\\n".join(problems) or "the committed seed made every deal, roll and throw")',
  ].join("\n");
  return h("details", {class: "verify", id: "verify"},
    h("summary", {}, "Verify this game"),
    h("p", {}, "Before the first move every view showed the commitment, the SHA-256 of “table:seed”. ",
      view.seed_chosen_by_creator ? "The creator chose this seed (nobody else could sit here)."
        : "The server drew the seed at random; nobody saw it until now."),
    h("p", {}, "Seed: ", h("code", {id: "verify-seed"}, String(view.seed))),
    h("p", {}, "Commitment: ", h("code", {id: "verify-commitment"}, view.seed_commitment)),
    h("p", {}, "Save ", h("a", {href: exportUrl, download: "export.json"}, "the game's record"),
      " as export.json and run (Python with bigtop):"),
    h("pre", {}, check));
}
