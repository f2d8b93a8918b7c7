// The people at a table page: who sits where (names, here / away, who has not arrived yet),
// the host's invite links for every unclaimed seat, the chat, and the rematch that takes
// everyone to the next table. Names and messages are text, never HTML (h() makes text nodes).
import { ApiError, api, invites, tableUrl } from "./api.js";
import { copyText, fill, h, seatName, who } from "./dom.js";

const $ = (id) => document.getElementById(id);

const friends = {
  table: null, token: null, asMe: false, // asMe: the token is this browser's player key
  messages: new Map(), // chat id → message
  chatState: "idle", // "idle" | "loading" | "loaded" | "closed" (spectators may not read)
  rematching: false,
};

/** Where this page's seat is opened from (the seat token, or the player key with `asMe`). */
export function setupFriends(table, token, asMe) {
  Object.assign(friends, {table, token, asMe});
  $("chat-form").onsubmit = send;
}

// -- who sits where --------------------------------------------------------------------

/** A human seat nobody has opened yet (its invite link unused). */
function unclaimed(seat) {
  return seat.kind === "human" && !seat.claimed;
}

/** The presence of a person's seat in words ("here", "away"), where the view says it. */
function presence(seat) {
  if (seat.kind !== "human" || !seat.claimed) return null;
  if (seat.bot_playing) return `away: a bot (${seat.bot_playing}) plays`;
  if (seat.presence) return seat.presence; // "here" | "away"
  return null;
}

/** The people panel (who sits where, invite links for the host) and the waiting line. */
export function drawPeople(view) {
  const mine = invites.of(friends.table) || {};
  const waiting = view.seats.filter(unclaimed);
  const over = view.status !== "playing";
  // "Waiting for Ben to join": the invited seats nobody opened yet (a name where the host gave one).
  $("waiting").textContent = waiting.length && !over
    ? `Waiting for ${waiting.map((s) => s.invited_name || who(s.seat)).join(" and ")} to join.` : "";
  fill($("people-list"), view.seats.map((s) => {
    const p = s.seat;
    const state = s.kind === "bot" ? `bot, ${s.level}` : unclaimed(s) ? "not here yet" : presence(s);
    const token = unclaimed(s) && !over ? mine[p] : null;
    return h("li", {dataset: {seat: p, presence: s.presence || (unclaimed(s) ? "invited" : "")}},
      h("span", {class: `dot ${s.presence || (unclaimed(s) ? "invited" : s.kind)}`, "aria-hidden": "true"}),
      h("strong", {}, seatName(p, view.seat)), state ? ` · ${state}` : "",
      token ? inviteLink(p, tableUrl(friends.table, token)) : null);
  }));
  $("people").hidden = false;
}

/** An unclaimed seat's invite link, copyable at any time (kept from the lobby on the host's
 * device: the link is the seat's key, so only its creator has it). */
function inviteLink(p, url) {
  return h("div", {class: "invite"},
    h("input", {type: "text", readonly: true, value: url, class: "link", id: `invite-${p}`,
      "aria-label": `invite link for ${who(p)}`}),
    h("button", {type: "button", class: "act small", dataset: {copyInvite: p},
      onclick: () => copyText(url)}, "Copy invite link"));
}

// -- chat ------------------------------------------------------------------------------

/** Read the chat once the live updates are connected (messages after that come live). */
export async function loadChat(view) {
  const seated = view.seat !== null;
  $("chat").hidden = false;
  $("chat-form").hidden = !seated;
  if (!seated && !view.chat_spectators_read) {
    friends.chatState = "closed";
    fill($("chat-list"), h("li", {class: "hint"}, "The chat of this table is for its players."));
    return;
  }
  if (friends.chatState !== "idle") return;
  friends.chatState = "loading";
  $("chat-note").textContent = seated ? "" : "Spectators read the chat; the players write.";
  try {
    // Page by page (the server answers at most max_chat_page messages) until none is left.
    let after = 0;
    for (;;) {
      const page = await api.chat(friends.table, friends.token, after);
      for (const m of page.messages) friends.messages.set(m.id, m);
      if (!page.messages.length) break;
      after = page.messages.at(-1).id;
    }
    friends.chatState = "loaded";
  } catch (err) {
    friends.chatState = "idle"; // read again on the next connection
    $("chat-note").textContent = `The chat could not be read: ${err.message}`;
  }
  drawChat();
}

/** A {type: "chat"} message of the WebSocket. */
export function onChat(message) {
  if (!message || typeof message.id !== "number") return;
  friends.messages.set(message.id, message);
  drawChat();
}

function drawChat() {
  const list = $("chat-list");
  const all = [...friends.messages.values()].sort((a, b) => a.id - b.id);
  if (!all.length) {
    fill(list, h("li", {class: "hint empty"}, "No messages yet."));
    return;
  }
  const me = Number(document.body.dataset.seat);
  fill(list, all.map((m) => h("li", {dataset: {id: m.id, seat: m.seat}, class: m.seat === me ? "mine" : ""},
    h("strong", {class: "from"}, m.name || `P${m.seat}`), " ", h("span", {class: "text"}, m.text))));
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
