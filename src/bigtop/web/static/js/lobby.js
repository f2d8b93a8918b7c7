// The lobby: create a table (game, players, seats, rule options), copy invite links, join or
// watch open tables, and go back to tables this browser sat at; your name (an identity without
// a password) and "My games", your tables on every device.
import { ApiError, OfflineError, api, identity, recent, tableUrl } from "./api.js";
import { copyText, fill, h, rulesNodes, toast } from "./dom.js";

const $ = (id) => document.getElementById(id);
const state = {games: [], levels: [], levelDocs: [], defaultLevel: null};

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

function currentGame() {
  return state.games.find((g) => g.name === $("game").value);
}

// The player count a new table starts with, where the smallest is not the game at its best:
// SCOUT's rulebook deal for two lets one scout end a round.
const DEFAULT_PLAYERS = {scout: 4};
// What a player count means, said when it is picked (the engine's deal, rulings S6).
const PLAYER_NOTES = {
  scout: {2: "Two players: the rulebook's deal, 11 cards each from 44 (the rest unused). " +
    "A round ends as soon as play comes back to a set nobody beat, so when the other player " +
    "only scouts your first Show, the round is over: short, swingy rounds. Three to five " +
    "players is the game as designed."},
};

function drawPlayers(fresh = false) {
  const game = currentGame();
  const keep = fresh ? DEFAULT_PLAYERS[game.name] ?? game.min_players : Number($("players").value) || game.min_players;
  fill($("players"), Array.from({length: game.max_players - game.min_players + 1}, (_, i) => {
    const n = game.min_players + i;
    return h("option", {value: n, selected: n === Math.min(Math.max(keep, game.min_players), game.max_players)}, n);
  }));
  drawSeats();
}

/** A word on the chosen player count, where the rules make it matter. */
function drawPlayersNote() {
  const game = currentGame();
  const note = (PLAYER_NOTES[game.name] || {})[Number($("players").value)];
  $("players-note").textContent = note || "";
  $("players-note").hidden = !note;
}

/** The bot levels as the server describes them (GET /api/games: bot_level_docs, from
 * bigtop.agents.levels); from an older server, the bare names. */
function levelDocs() {
  return state.levelDocs.length ? state.levelDocs
    : state.levels.map((name) => ({name, about: "", yardstick: false}));
}

function levelOption(doc, value) {
  const v = `bot:${doc.name}`;
  return h("option", {value: v, title: doc.about || undefined, selected: v === value},
    `bot (${doc.name})${doc.name === state.defaultLevel ? " — default" : ""}`);
}

function drawSeats() {
  drawPlayersNote();
  const n = Number($("players").value);
  const old = [...document.querySelectorAll("#seat-list select")].map((s) => s.value);
  const oldNames = [...document.querySelectorAll("#seat-list .invite-name")].map((s) => s.value);
  const docs = levelDocs();
  const ladder = docs.filter((d) => !d.yardstick);
  const yardsticks = docs.filter((d) => d.yardstick);
  // The people, the ladder, then the yardsticks apart under their own heading.
  const choices = (value) => [
    h("option", {value: "me", selected: value === "me"}, "me"),
    h("option", {value: "invite", selected: value === "invite"}, "invite a person"),
    h("optgroup", {label: "bots, weakest first"}, ladder.map((d) => levelOption(d, value))),
    yardsticks.length ? h("optgroup", {label: "yardsticks (for analysts)"},
      yardsticks.map((d) => levelOption(d, value))) : null,
  ];
  fill($("seat-list"), Array.from({length: n}, (_, p) => {
    const value = old[p] || (p === 0 ? "me" : `bot:${state.defaultLevel || state.levels[0]}`);
    const select = h("select", {id: `seat-${p}`, name: `seat-${p}`}, choices(value));
    // Whom you invite (optional): shown as "waiting for Ben to join" until they come.
    const name = h("input", {type: "text", id: `invite-name-${p}`, class: "invite-name", maxlength: 32,
      placeholder: "their name (optional)", "aria-label": `name of the person invited to P${p}`,
      value: oldNames[p] || "", hidden: value !== "invite"});
    select.addEventListener("change", () => { name.hidden = select.value !== "invite"; });
    return h("div", {class: "field seat-choice"}, h("label", {for: `seat-${p}`}, `P${p}`), select, name);
  }));
}

/** What each bot does, in the server's words: the ladder, then the yardsticks apart. */
function drawLevels() {
  const docs = levelDocs().filter((d) => d.about);
  $("bot-levels").hidden = !docs.length;
  const item = (d) => h("li", {dataset: {level: d.name}}, h("strong", {}, d.name),
    d.name === state.defaultLevel ? " (default)" : "", `: ${d.about}`);
  const yardsticks = docs.filter((d) => d.yardstick);
  fill($("bot-levels-body"),
    h("ul", {class: "levels"}, docs.filter((d) => !d.yardstick).map(item)),
    yardsticks.length ? [h("p", {class: "levels-head"}, "Yardsticks (for analysts), not steps of the ladder:"),
      h("ul", {class: "levels yardsticks"}, yardsticks.map(item))] : null);
}
function optionInput(opt) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.choices && opt.choices.length) {
    input = h("select", {id, dataset: {option: opt.name, type: opt.type}},
      opt.choices.map((c) => h("option", {value: JSON.stringify(c), selected: c === opt.default}, String(c))));
  } else if (opt.type === "bool") {
    input = h("input", {id, type: "checkbox", checked: !!opt.default, dataset: {option: opt.name, type: opt.type}});
  } else if (opt.type === "int" || opt.type === "float") {
    input = h("input", {id, type: "number", value: opt.default, step: opt.type === "int" ? 1 : "any",
      min: opt.minimum ?? undefined, max: opt.maximum ?? undefined, dataset: {option: opt.name, type: opt.type}});
  } else {
    input = h("input", {id, type: "text", value: typeof opt.default === "string" ? opt.default : JSON.stringify(opt.default),
      dataset: {option: opt.name, type: opt.type}});
  }
  // A board (So ein Zirkus) may also be loaded from a file: its JSON text is the option.
  const file = opt.name === "board" && opt.type === "str"
    ? h("input", {type: "file", accept: ".json,application/json", id: `${id}-file`,
      "aria-label": "load a board file", onchange: async (ev) => {
        const chosen = ev.target.files[0];
        if (chosen) input.value = (await chosen.text()).trim();
      }})
    : null;
  return h("div", {class: "field option"},
    h("label", {for: id}, opt.name), input, file,
    h("span", {class: "hint"}, firstLine(opt.doc), ` (default ${JSON.stringify(opt.default)})`));
}

/** An option's explanation in the lobby: its first line without the rulings' codes, which
 * mean nothing to a player ("S1: when a player may …" → "When a player may …"). */
function firstLine(text) {
  const bare = (text || "").split("\n")[0]
    .replace(/^[A-Z]\d+(?: \([^)]*\))?: /, "") // "T1: ", "R1 (not in the rulings file): "
    .replace(/ \([A-Z]\d+\)/g, ""); // "Variant secret clown (Z5): …"
  const line = bare.charAt(0).toUpperCase() + bare.slice(1);
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

function drawOptions() {
  const game = currentGame();
  $("game-hint").textContent = `${game.min_players}–${game.max_players} players`;
  // What the game is, before choosing it: the engine's rules for the default options (a
  // table's own page shows them for its options).
  $("game-rules-title").textContent = `How to play ${game.title} (the rules with the default options)`;
  fill($("game-rules-body"), rulesNodes(game.rules || []));
  fill($("options"), game.options.map(optionInput));
}

/** The options that differ from their defaults (the server fills in the rest). */
function chosenOptions() {
  const game = currentGame();
  const out = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const opt = game.options.find((o) => o.name === input.dataset.option);
    let value;
    if (input.tagName === "SELECT") value = JSON.parse(input.value);
    else if (input.type === "checkbox") value = input.checked;
    else if (input.type === "number") value = input.value === "" ? opt.default : Number(input.value);
    else {
      value = input.value;
      if (typeof opt.default !== "string") {
        try { value = JSON.parse(input.value); } catch { /* the server explains */ }
      }
    }
    if (JSON.stringify(value) !== JSON.stringify(opt.default)) out[opt.name] = value;
  }
  return out;
}

async function create(ev) {
  ev.preventDefault();
  showError("");
  const game = currentGame();
  const picks = [...document.querySelectorAll("#seat-list select")].map((s) => s.value);
  if (picks.filter((p) => p === "me").length > 1) {
    showError("Only one seat can be yours; invite a person to the others or give them to bots.");
    return;
  }
  const seats = picks.map((p, k) => {
    if (p.startsWith("bot:")) return {kind: "bot", level: p.slice(4)};
    // The invited person's name: the table says "waiting for Ben to join" until they arrive.
    const invite = p === "invite" ? $(`invite-name-${k}`).value.trim() : "";
    return invite ? {kind: "human", invite} : {kind: "human"};
  });
  // (Tricky Landing: the server gives a person's seat its hand-thrown skill, see
  // capabilities' person_options, unless the skill option is set here.)
  const options = chosenOptions();
  // With a name, the server seats our identity in our seat ("host_seat": we host there).
  const me = identity.get();
  const key = me && picks.includes("me") ? me.key : null;
  const spec = {game: game.name, players: picks.length, options, seats, listed: $("listed").checked};
  if (key) spec.host_seat = picks.indexOf("me");
  // Nothing is dealt before the invited people arrive (unless you start with bots).
  if (picks.includes("invite")) spec.wait = true;
  // A time control and a rated table only when asked for (the server's defaults otherwise).
  if ($("clock").value) Object.assign(spec, {clock: JSON.parse($("clock").value), on_timeout: $("on-timeout").value});
  if ($("rated").checked) {
    if (!key) {
      showError(me ? "A rated table is between the people at it: make one seat \"me\"."
        : "Rated tables are between named players: choose your name above first.");
      return;
    }
    spec.rated = true;
  }
  let made;
  try {
    made = await api.createTable(spec, key);
  } catch (err) {
    showError(err instanceof ApiError || err instanceof OfflineError ? err.message : String(err));
    return;
  }
  const mine = picks.indexOf("me");
  const links = made.seats.filter((s) => s.token && picks[s.seat] === "invite");
  for (const s of made.seats) {
    if (s.token && picks[s.seat] === "me") {
      recent.remember({table: made.table, seat: s.seat, token: s.token, game: game.name, title: game.title});
    }
  }
  const myLink = mine >= 0 ? tableUrl(made.table, made.seats[mine].token) : null;
  // Claim our own seat now (the server claims a seat on its first use), so that the lobby
  // never offers it to somebody else while we copy the invite links.
  if (mine >= 0) await api.view(made.table, made.seats[mine].token).catch(() => null);
  if (!links.length && myLink) {
    window.location.href = myLink;
    return;
  }
  const box = $("created");
  fill(box, h("h3", {}, `Table ${made.table} is ready`),
    links.length ? h("p", {}, "Send each invited person their own link (it is their seat's key):") : null,
    h("ul", {class: "links"}, links.map((s) => {
      const url = tableUrl(made.table, s.token);
      // Whom each link is for, by the name the host typed: the seat alone left them to
      // work out who was P1.
      const invite = seats[s.seat].invite;
      const whom = invite ? `${invite} (P${s.seat})` : `P${s.seat}`;
      return h("li", {}, `${whom}: `, h("input", {type: "text", readonly: true, value: url, class: "link",
        "aria-label": `invite link for ${whom}`}),
      h("button", {type: "button", class: "act small", onclick: () => copyText(url)}, "Copy"));
    })),
    h("p", {}, "Spectators (they see no hidden cards): ", h("input", {type: "text", readonly: true,
      value: tableUrl(made.table), class: "link", id: "spectator-link", "aria-label": "spectator link"}),
    h("button", {type: "button", class: "act small",
      onclick: () => copyText(tableUrl(made.table))}, "Copy")),
    myLink ? h("a", {href: myLink, class: "act legal", id: "go-to-table"}, "Go to my seat")
      : h("a", {href: tableUrl(made.table), class: "act", id: "go-to-table"}, "Watch the table"));
  box.hidden = false;
  // Below a long form (the rule options open, a phone): the links must not go unseen.
  box.scrollIntoView({block: "nearest"});
  drawRecent();
  drawOpen();
}

function seatSummary(seats) {
  return seats.map((s, p) => `${s.name ? `${s.name} (P${p})` : `P${p}`} ${s.kind === "bot" ? `bot ${s.level}` : s.claimed ? "taken" : "free"}`).join(" · ");
}

async function drawOpen() {
  let lobby;
  try {
    lobby = await api.lobby();
  } catch (err) {
    fill($("open-tables"), h("li", {class: "hint"}, err.message));
    return;
  }
  if (!lobby.tables.length) {
    fill($("open-tables"), h("li", {class: "hint"}, "No open tables right now. Create one!"));
    return;
  }
  fill($("open-tables"), lobby.tables.map((t) => h("li", {dataset: {table: t.table}},
    h("strong", {}, t.title), ` · ${t.players} players · ${seatSummary(t.seats)}`,
    h("span", {class: "row-buttons"},
      t.free_seats.map((seat) => h("button", {type: "button", class: "act small legal",
        onclick: () => join(t, seat)}, `Sit at P${seat}`)),
      h("a", {class: "act small", href: tableUrl(t.table)}, "Watch")))));
}

async function join(t, seat) {
  try {
    const me = identity.get();
    const joined = await api.join(t.table, seat, me ? me.key : null);
    recent.remember({table: t.table, seat: joined.seat, token: joined.token, game: t.game, title: t.title});
    window.location.href = tableUrl(t.table, joined.token);
  } catch (err) {
    showError(err.message);
    drawOpen();
  }
}

/** The tables this browser sat at, each with where you stand there (your turn, waiting,
 * finished) and who sits there, as My games says them: a person without a name, back in the
 * lobby, has only this list to find the table that waits for them. */
function drawRecent() {
  const list = recent.list();
  if (!list.length) {
    fill($("recent-tables"), h("li", {class: "hint"}, "None yet."));
    return;
  }
  fill($("recent-tables"), list.map((e) => {
    const badge = h("span", {class: "badge"}, "…");
    const link = h("a", {href: tableUrl(e.table, e.token)}, `${e.title || e.game} · table ${e.table} · P${e.seat}`);
    const item = h("li", {dataset: {table: e.table}}, badge, " ", link,
      h("span", {class: "hint"}, ` · ${new Date(e.at).toLocaleString()} `),
      h("button", {type: "button", class: "act small", "aria-label": `forget table ${e.table}`,
        onclick: () => { recent.forget(e.table); drawRecent(); }}, "Forget"));
    api.glance(e.table).then((view) => {
      const stand = standing(view, e.seat);
      item.dataset.state = stand;
      badge.className = `badge ${stand}`;
      badge.textContent = standingWords(stand, view, e.seat);
      link.textContent = `${view.title} · ${view.seats.map((s, p) => seatWho(s, p, e.seat)).join(", ")}`;
    }, (err) => {
      item.dataset.state = "unknown";
      badge.textContent = err instanceof ApiError && err.status === 404 ? "Gone" : "?";
      badge.title = err instanceof ApiError && err.status === 404
        ? "This table is no longer on the server." : `Not known now: ${err.message}`;
    });
    return item;
  }));
}

/** Where a seat stands at a table, from its public view: the server's rule for My games
 * (players.table_state), so that both lists say the same. */
function standing(view, seat) {
  if (view.status === "waiting") return "waiting";
  if (view.status !== "playing") return "finished";
  const s = view.seats[seat];
  return view.current_player === seat && s && s.kind !== "bot" && !s.bot_playing ? "your_turn" : "waiting";
}

// -- you: a name without a password, and your games ---------------------------------------

/** Take an identity from a "use on another device" link (/#key=KEY): checked with the
 * server, kept, and the key wiped from the address bar at once. */
async function adoptKeyFromLink() {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const key = hash.get("key");
  if (!key) return;
  history.replaceState(null, "", window.location.pathname + window.location.search);
  try {
    const me = await api.me(key);
    identity.set({id: me.id, name: me.name, key});
    toast(`Welcome, ${me.name}: this browser now plays as you.`);
  } catch (err) {
    showError(err instanceof ApiError && err.status === 401
      ? "That device link is not known here (any more)." : `The server did not answer: ${err.message}`);
  }
}

function drawMe() {
  const me = identity.get();
  if (!me) {
    // Ask for a name: friends see it at your tables instead of "P1".
    fill($("me-body"), h("form", {id: "name-form", class: "field", onsubmit: chooseName},
      h("label", {for: "name-input"}, "Your name"),
      h("input", {id: "name-input", type: "text", maxlength: 32, autocomplete: "nickname", required: true}),
      h("button", {type: "submit", class: "act legal small", id: "name-save"}, "Use this name"),
      h("span", {class: "hint"}, "No password: this browser keeps your key. Your tables then follow you " +
        "(My games), on every device you move it to.")));
    $("my-games-box").hidden = true;
    return;
  }
  fill($("me-body"), h("p", {class: "me-line"}, "You are ", h("strong", {id: "my-name"}, me.name), ". ",
    h("button", {type: "button", class: "act small", id: "rename", onclick: showRename}, "Change name"),
    h("button", {type: "button", class: "act small", id: "device-link", onclick: showDeviceLink}, "Use on another device")),
  h("div", {id: "me-extra"}));
  drawMyGames();
}

async function chooseName(ev) {
  ev.preventDefault();
  showError("");
  try {
    identity.set(await api.newPlayer($("name-input").value));
  } catch (err) {
    showError(err.message);
    return;
  }
  drawMe();
}

function showRename() {
  const me = identity.get();
  fill($("me-extra"), h("form", {class: "field", id: "rename-form", onsubmit: async (ev) => {
    ev.preventDefault();
    showError("");
    try {
      const done = await api.rename(me.key, $("rename-input").value);
      identity.set({...me, name: done.name});
      drawMe();
    } catch (err) { showError(err.message); }
  }}, h("label", {for: "rename-input"}, "New name"),
  h("input", {id: "rename-input", type: "text", maxlength: 32, value: me.name, required: true}),
  h("button", {type: "submit", class: "act legal small"}, "Save")));
  $("rename-input").focus();
}

/** The link that takes this identity to another device: the key after "#" (never sent to a
 * server, never in a request); shown only on demand, as it is a password. */
function showDeviceLink() {
  const link = identity.link(identity.get());
  fill($("me-extra"), h("p", {class: "hint"}, "Open this link on your other device (it is your key: " +
    "whoever has it plays as you; keep it to yourself):"),
  h("p", {}, h("input", {type: "text", readonly: true, value: link, class: "link", id: "device-link-text",
    "aria-label": "link for another device"}),
  h("button", {type: "button", class: "act small", onclick: () => copyText(link)}, "Copy")));
}

/** A table's badge in My games and the recent tables: your turn, whose turn it is else, whom
 * a table not started yet waits for, or the end. ("Waiting" alone said neither whom you
 * waited for nor whether the game had begun.) `t`: a view or My games' entry (status,
 * current_player, seats); `state`: players.table_state's word for it. */
function standingWords(state, t, mine) {
  if (state === "your_turn") return "Your turn";
  if (state === "finished") return "Finished";
  const called = (s, p) => s.name || s.invite || `P${p}`;
  if (t.status === "waiting") {
    const empty = t.seats.filter((s) => s.kind !== "bot" && !s.claimed).map((s) => called(s, s.seat));
    return empty.length ? `Waiting for ${empty.join(" and ")}` : "Not started";
  }
  const p = t.current_player, s = t.seats[p];
  if (!s) return "Waiting";
  if (p === mine) return "A bot plays for you"; // (else it would be your turn)
  return s.kind === "bot" ? `${called(s, p)}'s turn (a bot)` : `${called(s, p)}'s turn`;
}

/** GET /api/players/me: your tables, your turn first, then waiting, then finished. */
async function drawMyGames() {
  const me = identity.get();
  let data;
  try {
    data = await api.me(me.key);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      // A key this server does not know (a new database): choose a name again.
      identity.forget();
      showError("This server does not know your name (any more): choose one again.");
      drawMe();
    } else {
      showError(`My games could not be loaded: ${err.message}`);
    }
    return;
  }
  if (data.name !== me.name) { identity.set({...me, name: data.name}); $("my-name").textContent = data.name; }
  const box = $("my-games-box");
  box.hidden = false;
  if (!data.tables.length) {
    fill($("my-games"), h("li", {class: "hint"}, "No games yet: create a table or sit at an open one."));
    return;
  }
  fill($("my-games"), data.tables.map((t) => h("li", {class: `my-${t.state}`, dataset: {table: t.table, state: t.state}},
    h("span", {class: `badge ${t.state}`}, standingWords(t.state, t, t.seat)), " ",
    // "#me": the table page opens the seat with this browser's key (sent as a header).
    h("a", {href: tableUrl(t.table, null, true)}, `${t.title} · ${t.seats.map((s, p) => seatWho(s, p, t.seat)).join(", ")}`),
    h("span", {class: "hint"}, t.rated ? " · rated" : "", t.clock ? " · clock" : "",
      ` · ${new Date(t.updated_at * 1000).toLocaleString()}`))));
}

/** A seat in a list: a bot's level, else what the table calls its person (their name, else
 * the name the host invited them by, else the seat label: the server's shown_name), marked
 * while the seat is still empty. */
function seatWho(seat, p, mine) {
  if (p === mine) return "you";
  if (seat.kind === "bot") return `bot (${seat.level})`;
  const who = seat.name || seat.invite || `P${p}`;
  if (seat.claimed) return who;
  return seat.invite ? `${who} (invited)` : `${who} (free)`;
}

async function start() {
  // Invite and spectator links point at /?table=ID#token=…: that is a table page.
  if (new URLSearchParams(window.location.search).get("table")) {
    window.location.replace(`/table.html${window.location.search}${window.location.hash}`);
    return;
  }
  await adoptKeyFromLink();
  drawMe();
  try {
    const data = await api.games();
    state.games = data.games;
    state.levels = data.bot_levels;
    state.levelDocs = data.bot_level_docs || [];
    state.defaultLevel = data.default_bot_level;
  } catch (err) {
    showError(`The server did not answer: ${err.message}`);
    return;
  }
  fill($("game"), state.games.map((g) => h("option", {value: g.name}, g.title)));
  $("game").onchange = () => { drawOptions(); drawPlayers(true); };
  $("players").onchange = () => drawSeats();
  // What happens when time runs out is asked only with a clock ("Clock: none — then a bot
  // plays for them" asked about a time that never runs out).
  $("clock").onchange = () => { $("on-timeout").hidden = !$("clock").value; };
  $("clock").onchange();
  $("create").onsubmit = create;
  $("refresh").onclick = drawOpen;
  drawOptions();
  drawPlayers(true);
  drawLevels();
  drawOpen();
  drawRecent();
}

start();
