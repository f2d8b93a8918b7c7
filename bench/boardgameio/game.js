// A boardgame.io 0.50 stand-in for a two-player SCOUT table, for bench/bench_server.py
// --beside boardgame.io: the same turn shape (one move a turn, the turn passes; a hand each,
// hidden from the other player by PlayerView.STRIP_SECRETS; a set on the table to beat or to
// scout from; rounds dealt by the server's random plugin), with trivial rules. It is not
// SCOUT: a move here costs boardgame.io almost nothing beyond its own machinery, so the
// comparison flatters it (docs/benchmarks.md).
'use strict';

const { INVALID_MOVE, PlayerView } = require('boardgame.io/core');

const HAND = 11; // SCOUT's two-player hand
const ROUNDS = 20; // as the bigtop benchmark's tables (options.rounds = 20)

function deal(random) {
  const deck = [];
  for (let v = 1; v <= 10; v++) deck.push(v, v, v);
  const cards = random.Shuffle(deck);
  return { 0: { hand: cards.slice(0, HAND) }, 1: { hand: cards.slice(HAND, 2 * HAND) } };
}

// A set beats another with more cards, or as many with a higher first card.
function beats(cards, set) {
  return cards.length > set.length || (cards.length === set.length && cards[0] > set[0]);
}

function endRound(G, random) {
  G.round += 1;
  G.players = deal(random);
  G.set = [];
  G.owner = null;
}

const ScoutStandIn = {
  name: 'scout-standin',
  minPlayers: 2,
  maxPlayers: 2,
  setup: ({ random }) => ({
    secret: {},
    players: deal(random),
    set: [],
    owner: null,
    scores: { 0: 0, 1: 0 },
    round: 1,
  }),
  playerView: PlayerView.STRIP_SECRETS,
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    // Show `length` adjacent cards of one's hand from `start`: they must beat the set.
    show: ({ G, playerID, random }, start, length) => {
      const hand = G.players[playerID].hand;
      if (!Number.isInteger(start) || !Number.isInteger(length) || length < 1 ||
          start < 0 || start + length > hand.length) return INVALID_MOVE;
      const cards = hand.slice(start, start + length);
      if (!beats(cards, G.set)) return INVALID_MOVE;
      if (G.owner !== null) G.scores[playerID] += G.set.length;
      hand.splice(start, length);
      G.set = cards;
      G.owner = playerID;
      if (hand.length === 0) endRound(G, random);
    },
    // Take the card at one end of the set into one's hand; the set's owner scores a point.
    scout: ({ G, playerID, random }, end) => {
      if (G.set.length === 0 || G.owner === playerID || (end !== 0 && end !== 1)) {
        return INVALID_MOVE;
      }
      const card = end === 0 ? G.set.shift() : G.set.pop();
      G.players[playerID].hand.unshift(card);
      G.scores[G.owner] += 1;
      if (G.set.length === 0) G.owner = null;
      if (G.players[playerID].hand.length > 3 * HAND) endRound(G, random);
    },
  },
  endIf: ({ G }) => (G.round > ROUNDS ? { scores: G.scores } : undefined),
};

// The move a simulated person makes (the load generator's choice, like bigtop's index 0):
// show one's first card when the table is empty, else scout the set's first card.
function firstMove(G, playerID) {
  if (G.set.length === 0 || G.owner === playerID) return { move: 'show', args: [0, 1] };
  return { move: 'scout', args: [0] };
}

module.exports = { ScoutStandIn, firstMove };
