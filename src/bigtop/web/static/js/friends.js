// The people at a table page: who sits where (names, here / away, who has not arrived yet),
// the host's invite links for every unclaimed seat, the chat, undo by agreement, and the
// rematch that takes everyone to the next table. Names and messages are text, never HTML (h() makes text nodes).
import { ApiError, api, identity, tableUrl } from "./api.js";
import { copyText, fill, fillKeeping, h, loggedName, seatName, who } from "./dom.js";

const $ = (id) => document.getElementById(id);

const friends = {
  table: null, token: null, asMe: false, // asMe: the token is this browser's player key
  messages: new Map(), // chat id → message
  chatLoading: false,
  rematching: false,
  listing: false, // the host's "Listed in the lobby" change on its way
  invites: null, // the host's invite links: {seats: "1,2", items: [li]}
  undoRefused: null, // the server's refusal of our take-back: {at: "undos:version", line}
  undoDrawn: null, // drawUndo's arguments for the latest view
  resignAsked: false, // "Resign…" clicked: the page asks "Yes, resign" or "Keep playing"
};

/** Where this page's seat is opened from (the seat token, or the player key with `asMe`). */
export function setupFriends(table, token, asMe) {
  Object.assign(friends, {table, token, asMe});
  $("chat-form").onsubmit = send;
  const line = $("chat-new");
  line.onclick = () => {
    line.hidden = true;
    $("chat").scrollIntoView({block: "nearest"});
    ($("chat-form").hidden ? $("chat-list") : $("chat-input")).focus({preventScroll: true});
  };
  // Seen in place (scrolled to), the line has said what it had to.
  new IntersectionObserver((seen) => { if (seen.some((e) => e.isIntersecting)) line.hidden = true; })
    .observe($("chat-list"));
}

/** This page's seat, or null for a spectator (whose body's data-seat is ""). */
function mySeat() {
  const seat = document.body.dataset.seat;
  return seat === undefined || seat === "" ? null : Number(seat);
}

// -- who sits where --------------------------------------------------------------------

/** A person's seat nobody has taken yet (its invite link unused). */
function unclaimed(seat) {
  return seat.kind === "human" && !seat.claimed;
}

/** A seat's state in words: a bot's level, "invited", "here", "away", a bot playing for them
 * (`why`: "away", or "timeout" where their clock ran out; `mine`: the viewer's own seat). */
function seatState(s, why, mine) {
  if (s.kind === "bot") return `bot, ${s.level}`;
  if (unclaimed(s)) return "invited, not here yet";
  if (s.bot_playing) {
    return `${why === "timeout" ? "out of time" : "away"}: a bot (${s.bot_playing}) plays for ${mine ? "you" : "them"}`;
  }
  return s.presence; // "here" | "away" (null from an older server)
}

/** Whether this page is the host's (the first person's seat: it has the invite links). */
function isHost(view) {
  return view.seat !== null && view.seat === view.host_seat;
}

/** The people panel (who sits where, here or away; for the host, the invite links of seats
 * still empty at a table already playing) and the waiting line. `botReason(seat)` says why a
 * bot plays a person's seat ("away" or "timeout"). */
export function drawPeople(view, botReason = () => "away") {
  const waiting = view.waiting_for || [];
  $("waiting").textContent = waiting.length
    ? `Waiting for ${waiting.map((w) => who(w.seat)).join(" and ")} to join.` : "";
  fill($("people-list"), view.seats.map((s) => {
    const mark = unclaimed(s) ? "invited" : s.kind === "bot" ? "bot" : s.presence || "";
    const state = seatState(s, s.bot_playing ? botReason(s.seat) : null, s.seat === view.seat);
    return h("li", {dataset: {seat: s.seat, presence: mark}},
      h("span", {class: `dot ${mark}`, "aria-hidden": "true"}),
      h("strong", {}, seatName(s.seat, view.seat)), state ? ` · ${state}` : "");
  }));
  // (While the table waits, its board shows the links.)
  const empty = view.seats.filter(unclaimed).map((s) => s.seat);
  const links = $("people-invites");
  // A table made before invite links could be given again has no host: its people are
  // told why its free seats' links are not here (the server's note).
  const asks = isHost(view) || (view.host_seat === null && view.seat !== null);
  links.hidden = !(asks && empty.length && view.status === "playing");
  if (links.hidden) fill(links);
  else drawInvites(links, empty.join(","));
  drawListing(view);
  $("people-title").textContent = view.rated ? "At the table (rated)" : "At the table";
  $("people").hidden = false;
}

/** A person at a table with other people whose seat has no name (the host gave the invite
 * none, or made the table without one, and this browser has no name to claim the seat with):
 * asked for one, so that the others see it instead of "P1". The name
 * becomes this browser's identity, as the lobby's "Your name" does, and takes the seat (its
 * key then opens it on every device; this page's token keeps opening it too). `onView`: the
 * page's way in for the seat's new view. Kept across redraws while it asks (what is typed,
 * and the focus, stay). */
export function drawNameAsk(view, onView, showError) {
  const box = $("people-name");
  const seat = view.seat === null ? null : view.seats[view.seat];
  const others = view.seats.some((s) => s.kind === "human" && s.seat !== view.seat);
  const asks = !!seat && seat.kind === "human" && !seat.name && others && !friends.asMe &&
    !identity.get() && view.status !== "finished";
  if (!asks) {
    box.hidden = true;
    fill(box);
    return;
  }
  box.hidden = false;
  if (box.firstChild) return;
  const save = async (ev) => {
    ev.preventDefault();
    const button = $("seat-name-save");
    button.disabled = true;
    try {
      const me = await api.newPlayer($("seat-name-input").value);
      identity.set(me);
      const seated = await api.claim(friends.table, me.key, friends.token);
      box.hidden = true;
      fill(box);
      showError("");
      onView(seated);
    } catch (err) {
      showError(`Your name was not taken: ${err.message}`);
    } finally {
      button.disabled = false;
    }
  };
  fill(box, h("form", {id: "seat-name-form", class: "field", onsubmit: save},
    h("label", {for: "seat-name-input"}, "Your name"),
    // The name the host invited this seat by, to keep or change.
    h("input", {id: "seat-name-input", type: "text", maxlength: 32, autocomplete: "nickname",
      required: true, value: seat.invite || ""}),
    h("button", {type: "submit", class: "act legal small", id: "seat-name-save"}, "Use this name"),
    h("span", {class: "hint"}, `The others see it instead of ${seatName(view.seat, null)}. No password: ` +
      "this browser keeps your key, and the lobby's My games lists this table.")));
}

/** The host's "Listed in the lobby" switch (an open table whose seed the server drew): kept
 * across redraws, so keyboard focus stays on it; a refusal is said beside it. */
function drawListing(view) {
  const line = $("people-listing");
  // Only a table with a seat for a person still free: the lobby lists no other (at a table of
  // you and bots "Listed in the lobby" offered a switch that changed nothing).
  line.hidden = !(isHost(view) && ["waiting", "playing"].includes(view.status)
    && !view.seed_chosen_by_creator && view.seats.some(unclaimed));
  if (line.hidden) return;
  let box = $("host-listed");
  if (!box) {
    box = h("input", {type: "checkbox", id: "host-listed", onchange: async () => {
      // Not disabled meanwhile (a disabled box loses the keyboard focus): a redraw leaves
      // it alone until the answer, and a second change waits for it.
      const want = box.checked;
      if (friends.listing) { box.checked = !want; return; }
      friends.listing = true;
      box.setAttribute("aria-busy", "true");
      $("listing-note").textContent = "";
      try {
        box.checked = (await api.setListed(friends.table, friends.token, want)).listed;
      } catch (err) {
        box.checked = !want;
        $("listing-note").textContent = `Not changed: ${err.message}`;
      } finally {
        friends.listing = false;
        box.removeAttribute("aria-busy");
      }
    }});
    fill(line, h("label", {}, box, " Listed in the lobby"), " ",
      h("span", {class: "hint", id: "listing-hint"}), " ",
      h("span", {class: "hint", id: "listing-note", role: "status"}));
  }
  if (!friends.listing) box.checked = view.listed;
  $("listing-hint").textContent = view.listed ? "(anyone may take a free seat)"
    : "(only your invite links seat people)";
}

/**
 * The board of a table that waits for its people (nothing is dealt yet): whom it waits for;
 * for the host every empty seat's invite link (GET …/invites: they can be copied again at any
 * time) and "start now", bots taking the empty seats.
 */
export function drawWaiting(board, view, levels, showError) {
  const host = isHost(view);
  const names = view.waiting_for.map((w) => who(w.seat)).join(" and ");
  const links = h("ul", {class: "links invites", id: "invites"});
  const level = h("select", {id: "start-level", "aria-label": "level of the bots that take the empty seats"},
    levels.map((l) => h("option", {value: l, selected: l === "medium"}, `bots (${l})`)));
  fill(board, h("div", {class: "waiting-board"},
    h("h2", {}, `Waiting for ${names} to join`),
    h("p", {}, "Nothing is dealt until everyone is here."),
    host ? [h("p", {}, "Send each person their own link (it is their seat's key):"), links,
      h("p", {class: "controls"}, "Or start now: ", level,
        h("button", {type: "button", class: "act legal", id: "start-now", onclick: async () => {
          try { await api.start(friends.table, friends.token, level.value); } catch (err) { showError(err.message); }
        }}, "take the empty seats and start"))]
      : h("p", {class: "hint"}, "The game starts as soon as everyone has opened their link.")));
  if (host) drawInvites(links, view.waiting_for.map((w) => w.seat).join(","));
}

/** The host's invite links, asked again whenever the empty seats change. */
async function drawInvites(list, seats) {
  if (friends.invites && friends.invites.seats === seats) {
    fill(list, friends.invites.items);
    return;
  }
  try {
    const data = await api.invites(friends.table, friends.token);
    const items = data.invites.map((i) => {
      const url = tableUrl(friends.table, i.token); // as the lobby gave it
      return h("li", {dataset: {seat: i.seat}}, `${who(i.seat)}: `,
        h("input", {type: "text", readonly: true, value: url, class: "link", id: `invite-${i.seat}`,
          "aria-label": `invite link for ${who(i.seat)}`}),
        h("button", {type: "button", class: "act small", dataset: {copyInvite: i.seat},
          onclick: () => copyText(url)}, "Copy"));
    });
    if (data.note) items.push(h("li", {class: "hint", id: "invites-note"}, data.note));
    friends.invites = {seats, items};
    fill(list, items);
  } catch (err) {
    fill(list, h("li", {class: "hint"}, `The invite links could not be read: ${err.message}`));
  }
}

/** Opening an invite link with a name: the seat becomes this identity's (its name shows, the
 * key opens it on every device). The answer is the seat's view; null when it cannot be. */
export async function claimSeat(view, key) {
  if (!key || view.seat === null || view.seats[view.seat].name) return null;
  try {
    return await api.claim(friends.table, key, friends.token);
  } catch {
    return null; // another identity holds it: the token still opens the seat
  }
}

// -- chat ------------------------------------------------------------------------------

/** Read the chat each time the live updates connect: what came before (or, after a
 * reconnect, what was missed meanwhile); later messages come over the socket. */
export async function loadChat(view) {
  const seated = view.seat !== null;
  $("chat").hidden = false;
  $("chat-form").hidden = !seated;
  if (!seated && !view.chat_spectators_read) {
    fill($("chat-list"), h("li", {class: "hint"}, "The chat of this table is for its players."));
    return;
  }
  if (friends.chatLoading) return;
  friends.chatLoading = true;
  $("chat-note").textContent = seated ? "" : "Spectators read the chat; the players write.";
  try {
    // Page by page (the server answers at most max_chat_page messages) until none is left.
    let after = Math.max(0, ...friends.messages.keys());
    for (;;) {
      const page = await api.chat(friends.table, friends.token, after);
      for (const m of page.messages) friends.messages.set(m.id, m);
      if (!page.messages.length) break;
      after = page.messages.at(-1).id;
    }
  } catch (err) {
    $("chat-note").textContent = `The chat could not be read: ${err.message}`;
  } finally {
    friends.chatLoading = false;
  }
  drawChat();
}

/** A {type: "chat"} message of the WebSocket. */
export function onChat(message) {
  if (!message || typeof message.id !== "number") return;
  friends.messages.set(message.id, message);
  drawChat();
  if (message.seat !== mySeat()) sayNew(message);
}

/** Who wrote a message: their name then, else what the table calls the seat now (the name
 * the host invited them by: "Ben", as everywhere else on the page, not "P1"). */
function sender(m) {
  return m.name || loggedName(m.seat);
}

/** A message from someone else while the chat is out of view (on a phone it lies below the
 * board and the panels): said in the status line above the table until the chat is seen or
 * the line clicked. Not a live region: the chat's list says it to screen readers already. */
function sayNew(m) {
  const r = $("chat-list").getBoundingClientRect();
  if (r.bottom > 0 && r.top < window.innerHeight) return;
  const line = $("chat-new");
  line.textContent = `${sender(m)}: ${m.text} (the chat ↓)`;
  line.hidden = false;
}

function drawChat() {
  const list = $("chat-list");
  const all = [...friends.messages.values()].sort((a, b) => a.id - b.id);
  if (!all.length) {
    fill(list, h("li", {class: "hint empty"}, "No messages yet."));
    return;
  }
  const me = mySeat();
  fillKeeping(list, all.map((m) => h("li", {dataset: {id: m.id, seat: m.seat}, class: m.seat === me ? "mine" : ""},
    h("strong", {class: "from"}, sender(m)), " ", h("span", {class: "text"}, m.text))));
  list.scrollTop = list.scrollHeight;
  document.body.dataset.chat = String(all.length);
}

async function send(ev) {
  ev.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  $("chat-note").textContent = "";
  try {
    onChat(await api.say(friends.table, friends.token, text));
    input.value = "";
  } catch (err) {
    $("chat-note").textContent = err instanceof ApiError ? `Not sent: ${err.message}` : String(err);
  }
}

// -- undo by agreement ----------------------------------------------------------------

/**
 * Taking back a move, by agreement (unrated tables): a player asks to take back their last
 * move (and what followed it); every other person accepts or refuses (bots accept). While
 * asked, the view's `undo` says so: {"seat", "name", "to_version", "accepted", "waiting_for"}.
 * The view's `take_back` says beforehand whether asking would be refused (a roll, a turned
 * card, a shown hand since our move: docs/server.md, "A take-back cannot unsee"):
 * {"possible", "why"}, null with no move of ours to take back.
 * `onView` shows the view an answer returns.
 */
export function drawUndo(view, onView, showError) {
  const box = $("undo");
  const me = view.seat;
  const ask = view.undo;
  const at = `${view.undos ?? 0}:${view.version}`;
  friends.undoDrawn = [view, onView, showError];
  const answer = (word) => async (event) => {
    const button = event.currentTarget;
    button.disabled = true; // a double click asks (or answers) once
    // The view drawn last (a button is kept over redraws that leave the line as it was).
    const asked = friends.undoDrawn[0];
    const when = `${asked.undos ?? 0}:${asked.version}`;
    try {
      onView(await api.undo(friends.table, friends.token, word));
    } catch (err) {
      // Refused all the same (a step came between the view and the ask): asking again
      // would only be refused again until the table moves.
      if (word === "ask" && err instanceof ApiError && err.status === 409) {
        friends.undoRefused = {at: when, line: err.message};
        drawUndo(...friends.undoDrawn); // as the latest view has it (said only if it is this one)
        const why = $("undo-why");
        if (why) showWhy(why, true); // asked: the answer is wanted now
      } else {
        button.disabled = false;
        showError(err.message);
      }
    }
  };
  // A server without undo has no `undo` in its views; a rated table refuses it.
  if (!("undo" in view) || me === null || view.status !== "playing" || view.rated) { put(box); return; }
  if (ask) {
    const waiting = ask.waiting_for.map(who).join(" and ");
    if (ask.seat === me) {
      put(box, `You asked to take back your last move: waiting for ${waiting}. `,
        h("button", {type: "button", class: "act small", id: "undo-withdraw", onclick: answer("decline")}, "Withdraw"));
    } else if (ask.waiting_for.includes(me)) {
      put(box, `${who(ask.seat)} asks to take back their last move. `,
        h("button", {type: "button", class: "act small legal", id: "undo-accept", onclick: answer("accept")}, "Accept"),
        h("button", {type: "button", class: "act small", id: "undo-refuse", onclick: answer("decline")}, "Refuse"));
    } else {
      put(box, `${who(ask.seat)} asks to take back their last move: waiting for ${waiting}.`);
    }
    return;
  }
  const mine = view.take_back ?? null;
  const why = mine && !mine.possible ? mine.why
    : mine && friends.undoRefused && friends.undoRefused.at === at ? friends.undoRefused.line : null;
  if (why) { putRefused(box, why); return; }
  put(box, mine ? h("button", {type: "button", class: "act small", id: "undo-ask",
    onclick: answer("ask")}, "Ask to take back my last move") : null);
}

/** Say that our last move cannot be taken back, its reason behind a Why? button. The line
 * stays the same from one move to the next (it is a live region: So ein Zirkus's roll after
 * every move of ours would have been spoken at each turn); only the hidden reason changes. */
function putRefused(box, why) {
  const text = `${why[0].toUpperCase()}${why.slice(1)}.`; // a sentence of its own
  const kept = $("undo-why");
  if (kept && box.contains(kept)) {
    if (kept.textContent !== text) kept.textContent = text;
    return;
  }
  const reason = h("span", {id: "undo-why", hidden: true}, text);
  const toggle = h("button", {type: "button", class: "act small", id: "undo-why-toggle",
    "aria-expanded": "false", "aria-controls": "undo-why", onclick: () => showWhy(reason, reason.hidden)}, "Why?");
  fill(box, [h("span", {class: "hint", id: "undo-refused"}, "Your last move cannot be taken back. ", toggle, " ", reason)]);
}

function showWhy(reason, shown) {
  reason.hidden = !shown;
  const toggle = $("undo-why-toggle");
  if (toggle) toggle.setAttribute("aria-expanded", String(shown));
}

/** Fill the take-back line only where it changes: it is a live region, and the same line
 * (or button) put again after every move was spoken again ("Luck came after your last
 * move…" at every roll of So ein Zirkus). */
function put(box, ...children) {
  const next = h("span", {}, ...children);
  if (box.innerHTML === next.innerHTML) return;
  fill(box, [...next.childNodes]);
}

// -- resigning ---------------------------------------------------------------------------

/** The Resign button of a seat at a game still going (the host's "Close table" while it
 * waits for people), asked twice: the first click says what it does, the second sends it.
 * Hidden for spectators, after the end and in the replay. */
export function drawResign(view, onView, showError, replaying = false) {
  const box = $("resign");
  const closing = view.status === "waiting";
  const may = !replaying && view.seat !== null && "undos" in view &&
    (view.status === "playing" || (closing && isHost(view)));
  if (!may) { friends.resignAsked = false; fill(box, []); box.hidden = true; return; }
  box.hidden = false;
  const word = closing ? "Close table" : "Resign";
  if (!friends.resignAsked) {
    if (box.querySelector("#resign-ask")) return; // as it was: kept (and its focus)
    fill(box, [h("button", {type: "button", class: "act small", id: "resign-ask",
      onclick: () => { friends.resignAsked = true; drawResign(view, onView, showError); $("resign-yes").focus(); }},
    `${word}…`)]);
    return;
  }
  const send = async (event) => {
    event.currentTarget.disabled = true; // a double click sends once
    try {
      friends.resignAsked = false;
      onView(await api.resign(friends.table, friends.token));
    } catch (err) {
      showError(err.message);
      drawResign(view, onView, showError);
    }
  };
  const keep = () => { friends.resignAsked = false; drawResign(view, onView, showError); $("resign-ask").focus(); };
  fill(box, [
    h("span", {id: "resign-what"}, closing ? "Close the table: nobody plays it. " :
      "Resign: the game ends now and you place last. "),
    h("button", {type: "button", class: "act small", id: "resign-yes", onclick: send}, closing ? "Yes, close it" : "Yes, resign"),
    h("button", {type: "button", class: "act small legal", id: "resign-keep", onclick: keep}, closing ? "Keep it" : "Keep playing"),
  ]);
}

// -- rematch ---------------------------------------------------------------------------

/** The Rematch button after the end (people seated at the table only). */
export function rematchButton(view) {
  if (view.seat === null || view.status !== "finished") return null;
  return h("button", {type: "button", class: "act legal", id: "rematch", onclick: () => goToRematch(view)},
    view.rematch ? "Go to the rematch" : "Rematch");
}

/** A view that names the rematch takes everyone there: seats ask for their own seat there
 * (the server answers the same seat to every asker), spectators watch it. */
export function followRematch(view, showError) {
  if (!view.rematch || friends.rematching) return;
  goToRematch(view, showError);
}

async function goToRematch(view, showError = () => {}) {
  if (friends.rematching) return;
  friends.rematching = true;
  document.body.dataset.rematch = "going";
  if (view.seat === null) {
    window.location.href = withSpeed(tableUrl(view.rematch));
    return;
  }
  try {
    const next = await api.rematch(friends.table, friends.token);
    // Asked with a player key, the key opens the new seat too ("#me").
    window.location.href = withSpeed(tableUrl(next.table, next.token, !next.token && friends.asMe));
  } catch (err) {
    friends.rematching = false;
    document.body.dataset.rematch = "";
    showError(`No rematch: ${err.message}`);
  }
}

/** The page's ?speed (the tests' pace) goes along to the next table. */
function withSpeed(url) {
  const speed = new URLSearchParams(window.location.search).get("speed");
  if (speed === null) return url;
  const next = new URL(url);
  next.searchParams.set("speed", speed);
  return next.toString();
}
