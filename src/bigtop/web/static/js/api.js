// The server's JSON API (docs/server.md) and its live updates, in one place: every URL and
// every shape the pages rely on is here.

/** An error the server explained (problem JSON: title, status, detail). */
export class ApiError extends Error {
  constructor(status, detail, title = "", type = "") {
    super(detail || title || `HTTP ${status}`);
    this.status = status;
    this.title = title;
    this.type = type; // the problem's type, e.g. "/problems/stale-version"
  }
}

/** A request that never reached the server (it is down or the network is gone). */
export class OfflineError extends Error {}

async function request(method, url, {body, token} = {}) {
  const headers = {Accept: "application/json"};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(url, {method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store"});
  } catch (err) {
    throw new OfflineError(`the server cannot be reached (${err.message})`);
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = {detail: text.slice(0, 200), raw: true}; }
  }
  if (!response.ok) {
    if (!data || data.raw) {
      // Not the server's problem JSON (a proxy's error page, an empty answer): said by its
      // status, never shown as the page's markup.
      throw new ApiError(response.status, `the server answered ${response.status} ${response.statusText}`.trim());
    }
    const detail = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
    throw new ApiError(response.status, detail, data.title, data.type);
  }
  return data;
}

const enc = encodeURIComponent;

// A page the browser brings back from its back/forward cache returns as it was left: its
// live socket closed (browsers close them on the way in) and its lists old. Every page
// imports this module, so each is loaded afresh instead.
window.addEventListener("pageshow", (ev) => { if (ev.persisted) window.location.reload(); });

export const api = {
  games: () => request("GET", "/api/games"),
  lobby: () => request("GET", "/api/lobby"),
  // With a player key the creator's identity sits in the first person's seat.
  createTable: (spec, key = null) => request("POST", "/api/tables", {body: spec, token: key}),
  view: (table, token) => request("GET", `/api/tables/${enc(table)}`, {token}),
  // The public view without its log (`since` past any version): where a table stands, for a
  // list of tables. No token: a seat's would mark its person "here" at every table listed.
  glance: (table) => request("GET", `/api/tables/${enc(table)}?since=${Number.MAX_SAFE_INTEGER}`),
  rules: (table) => request("GET", `/api/tables/${enc(table)}/rules`),
  move: (table, token, version, action) =>
    request("POST", `/api/tables/${enc(table)}/moves`, {token, body: {version, action}}),
  join: (table, seat, key = null) => request("POST", `/api/tables/${enc(table)}/join`, {body: {seat}, token: key}),
  reclaim: (table, token) => request("POST", `/api/tables/${enc(table)}/reclaim`, {token, body: {}}),
  // With `at`: the position then, without the step list (the page has it from the first call).
  replay: (table, token, at) =>
    request("GET", `/api/tables/${enc(table)}/replay${at === undefined ? "" : `?at=${at}&steps=false`}`, {token}),
  // Identities without passwords: the key goes in the Authorization header like a seat token.
  newPlayer: (name) => request("POST", "/api/players", {body: {name}}),
  me: (key) => request("GET", "/api/players/me", {token: key}),
  rename: (key, name) => request("PATCH", "/api/players/me", {token: key, body: {name}}),
  chat: (table, token, after = 0) =>
    request("GET", `/api/tables/${enc(table)}/chat${after ? `?after=${after}` : ""}`, {token}),
  say: (table, token, text) => request("POST", `/api/tables/${enc(table)}/chat`, {token, body: {text}}),
  // Invites: the host gets every unclaimed seat's link again; an identity claims the seat an
  // invite link opens; the host may start before everyone arrived (bots take the seats).
  invites: (table, token) => request("GET", `/api/tables/${enc(table)}/invites`, {token}),
  claim: (table, key, token) => request("POST", `/api/tables/${enc(table)}/claim`, {token: key, body: {token}}),
  // An invite link's token exchanged for the seat's own (a fresh one only this browser
  // knows; a token that is ours already comes back unchanged). In the body, never a URL.
  accept: (table, token) => request("POST", `/api/tables/${enc(table)}/accept`, {body: {token}}),
  // The host lists the table in the lobby (anyone may take a free seat) or takes it out.
  setListed: (table, token, listed) => request("PATCH", `/api/tables/${enc(table)}`, {token, body: {listed}}),
  start: (table, token, level) => request("POST", `/api/tables/${enc(table)}/start`, {token, body: {level}}),
  // Undo by agreement: "ask" to take back your last move; "accept" or "decline" an ask (the
  // asker declines to withdraw it). Each answers your view.
  undo: (table, token, answer) =>
    request("POST", `/api/tables/${enc(table)}/undo${answer === "ask" ? "" : `/${answer}`}`, {token, body: {}}),
  rematch: (table, token) => request("POST", `/api/tables/${enc(table)}/rematch`, {token}),
  resign: (table, token) => request("POST", `/api/tables/${enc(table)}/resign`, {token, body: {}}),
  ratings: (game) => request("GET", `/api/ratings/${enc(game)}`),
};

/** A seat's picture of its view (an SVG Blob), its token in a header, never in the URL. */
export async function pictureBlob(path, token) {
  let response;
  try {
    response = await fetch(path, {headers: {Authorization: `Bearer ${token}`}, cache: "no-store"});
  } catch (err) {
    throw new OfflineError(`the server cannot be reached (${err.message})`);
  }
  if (!response.ok) throw new ApiError(response.status, `no picture (HTTP ${response.status})`);
  return response.blob();
}

/** The seat token and table id of the current page's address (?table=ID#token=SECRET; the
 * token only after "#", which no request carries); `asMe`: "#me", the seat of this browser's
 * identity (its key, kept in localStorage, opens it). */
export function tableFromUrl(loc = window.location) {
  const query = new URLSearchParams(loc.search);
  const hash = new URLSearchParams(loc.hash.replace(/^#/, ""));
  return {table: query.get("table") || query.get("t"), token: hash.get("token") || null, asMe: hash.has("me")};
}

/** The address of a table page for a seat token (null: spectator, or with `asMe` the seat of
 * this browser's identity). */
export function tableUrl(table, token = null, asMe = false) {
  const url = new URL("/table.html", window.location.origin);
  url.searchParams.set("table", table);
  if (token) url.hash = `token=${token}`;
  else if (asMe) url.hash = "me";
  return url.toString();
}

/**
 * Live updates of one table: calls `onUpdate(message)` for every message (`since()` gives
 * the version the page already shows, or null) and
 * `onStatus("open" | "lost")` when the connection comes and goes; reconnects by itself with a
 * growing pause (0.25 s up to 3 s) until `close()`, or until the server refuses the token
 * (closed with 4403: it no longer opens the seat), told as `onStatus("refused")`.
 */
export function liveUpdates(table, token, since, onUpdate, onStatus) {
  let socket = null;
  let closed = false;
  let pause = 250;
  const connect = () => {
    const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
    const url = new URL(`${proto}//${window.location.host}/api/tables/${enc(table)}/ws`);
    // The server's first message is our view, with the log after the version we have.
    const have = since();
    if (have !== null) url.searchParams.set("since", String(have));
    // A browser cannot set headers on a WebSocket: the token rides in a subprotocol offered
    // beside "bigtop" (the server answers "bigtop"), never in the URL.
    socket = new WebSocket(url, token ? ["bigtop", `bigtop.token.${token}`] : ["bigtop"]);
    socket.onopen = () => { pause = 250; onStatus("open"); };
    socket.onmessage = (ev) => {
      try { onUpdate(JSON.parse(ev.data)); } catch (err) { console.warn("bad update", err); }
    };
    socket.onclose = (ev) => {
      if (closed) return;
      if (ev.code === 4403) { // the same token would be refused again
        closed = true;
        onStatus("refused");
        return;
      }
      onStatus("lost");
      setTimeout(connect, pause);
      pause = Math.min(3000, pause * 2);
    };
    socket.onerror = () => {};
  };
  connect();
  return {close() { closed = true; if (socket) socket.close(); }};
}

/**
 * This browser's identity ({id, name, key}: POST /api/players), kept in localStorage on this
 * device. The key is a secret like a seat token: only ever in an Authorization header, or in
 * the fragment of the "use on another device" link (which no request carries).
 */
export const identity = {
  key: "bigtop.player",
  get() {
    try {
      const me = JSON.parse(localStorage.getItem(this.key) || "null");
      return me && typeof me.key === "string" ? me : null;
    } catch { return null; }
  },
  set(me) { localStorage.setItem(this.key, JSON.stringify({id: me.id, name: me.name, key: me.key})); },
  forget() { localStorage.removeItem(this.key); },
  /** The link that moves this identity to another device: the key after "#". */
  link(me) { return `${window.location.origin}/#key=${me.key}`; },
};

/** Tables this browser has sat at, newest first (localStorage; tokens stay on this device). */
export const recent = {
  key: "bigtop.recent",
  list() {
    try { return JSON.parse(localStorage.getItem(this.key) || "[]"); } catch { return []; }
  },
  remember(entry) {
    const list = this.list().filter((e) => !(e.table === entry.table && e.seat === entry.seat));
    list.unshift({...entry, at: Date.now()});
    localStorage.setItem(this.key, JSON.stringify(list.slice(0, 20)));
  },
  forget(table) {
    localStorage.setItem(this.key, JSON.stringify(this.list().filter((e) => e.table !== table)));
  },
};
