// The ratings page: a game's leaderboard (GET /api/ratings/{game}), people and the bots'
// fixed anchors in one list, best first, so that a rating reads against the ladder.
import { api, identity } from "./api.js";
import { fill, h } from "./dom.js";

const $ = (id) => document.getElementById(id);

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

const num = (x) => (typeof x === "number" ? x.toFixed(1) : "");

async function drawBoard(game) {
  showError("");
  let data;
  try {
    data = await api.ratings(game);
  } catch (err) {
    fill($("leaderboard-body"));
    showError(err.message);
    return;
  }
  const me = identity.get();
  const rows = [
    ...data.players.map((p) => ({...p, kind: "player"})),
    ...(data.anchors || []).map((a) => ({...a, kind: "bot"})),
  ].sort((a, b) => b.ordinal - a.ordinal);
  if (!data.players.length) {
    fill($("leaderboard-body"), h("tr", {}, h("td", {colspan: 6, class: "hint"},
      "Nobody has played a rated game of this yet: create a rated table in the lobby.")),
    rows.map((r) => row(r, me)));
    return;
  }
  fill($("leaderboard-body"), rows.map((r) => row(r, me)));
}

/** One line: a person (their name, "?" while provisional) or a bot at its fixed rating. */
function row(r, me) {
  const mine = r.kind === "player" && me && r.player === me.id;
  const who = r.kind === "bot"
    ? h("span", {class: "hint"}, `bot (${r.level}), fixed`)
    : [r.name, r.provisional ? h("abbr", {title: "provisional: fewer than five rated games"}, " ?") : null,
      mine ? " (you)" : null];
  return h("tr", {class: `${r.kind}${mine ? " mine" : ""}`, dataset: {kind: r.kind}},
    h("td", {class: "num"}, r.kind === "player" ? String(r.rank) : ""), h("td", {}, who),
    h("td", {class: "num"}, num(r.ordinal)), h("td", {class: "num"}, num(r.mu)),
    h("td", {class: "num"}, num(r.sigma)), h("td", {class: "num"}, r.kind === "player" ? String(r.games) : ""));
}

async function start() {
  let games;
  try {
    games = (await api.games()).games;
  } catch (err) {
    showError(`The server did not answer: ${err.message}`);
    return;
  }
  const wanted = new URLSearchParams(window.location.search).get("game");
  fill($("rating-game"), games.map((g) => h("option", {value: g.name, selected: g.name === wanted}, g.title)));
  $("rating-game").onchange = () => {
    const url = new URL(window.location.href);
    url.searchParams.set("game", $("rating-game").value);
    history.replaceState(null, "", url);
    drawBoard($("rating-game").value);
  };
  drawBoard($("rating-game").value);
}

start();
