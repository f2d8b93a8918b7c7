"""A heuristic Clown 15 Go player that uses only what its seat can see (everything but the
order of the closed piles, ruling G4).

Each legal action is scored and the best is played:

- a placement loses a card: always better than laying the card down (which ends the turn) or
  putting it on the own open pile (advanced rule 2: the turn goes on but the card stays);
- dumping a card on another player's open pile is best on the player with the fewest cards
  (it hands them a card); otherwise the middle;
- ties are broken by the chance that the next turned card fits somewhere afterwards (counted
  over the cards that can still be in the bot's closed pile); in the basic game (no
  advanced rule) with ``fit_weight`` above 1 that chance comes first and dumping only breaks
  ties (the ``easy`` level, ``fit_weight=20``: see :func:`easy_agent`);
- with the points rule the middle comes first (a dumped card keeps its receiver in the game,
  completing rows; the bot does not dump from its open pile at all): completing a row (15
  or 150 points) first, and a card goes on a one-colour row of its own colour when it can;
- borrowing (advanced rule 3) only when it lets the bot place its own card, from the player
  with the most cards (a borrow helps its victim go out);
- no endless passing round: when no card has gone to the middle for ``stuck_rounds`` whole
  rounds, the bot stops dumping on other players' piles where the middle would do. Cards
  dumped on the leader come back when the leader renews their pile, and two bots that both
  dump on the leader pass the same cards back and forth until G3's turn cap (this happened
  in 35-47% of self-play games before the rule); only middle placements make progress, as
  the cards held by all players together go down only there. When only other players' piles
  take the card, the bot then picks a receiver whose top card would fit the middle: the
  receiver turns that card over next. The bot remembers, from what it saw on its earlier
  turns, when the middle last grew (perfect recall of public facts).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from bigtop.agents.ismcts import SearchProfile
from bigtop.core.actions import Action
from bigtop.core.game import Game, State, seat_to_act
from bigtop.games.clown15go.cards import HIGHEST, colour, number
from bigtop.games.clown15go.rules import (
    Borrow,
    Clown15GoState,
    LayDown,
    Pass,
    ToOwnPile,
    ToPile,
    ToRow,
    TurnOver,
    row_points,
)


def _fitting_numbers(state: Clown15GoState, player: int) -> set[int]:
    """Numbers a card turned by ``player`` would fit on now."""
    fits = {1}
    for row in state.rows:
        fits.add(number(row[-1]) + 1)
    for q, pile in enumerate(state.open_piles):
        if pile and (q != player or state.game.options.own_pile):
            t = number(pile[-1])
            fits.update((t - 1, t + 1))
    return fits


def _closed_numbers(state: Clown15GoState, player: int) -> Counter[int]:
    """How often each number can be the bot's next turned card (known contents of a renewed
    closed pile, else the union of the unseen cards)."""
    cards = state.closed[player] if state.recycled[player] else state.unseen()
    return Counter(number(c) for c in cards)


def _middle_size(state: Clown15GoState) -> int:
    """Cards that have gone to the middle for good (open rows and completed rows)."""
    return sum(len(row) for row in state.rows) + HIGHEST * len(state.completed)


class Clown15GoBot:
    name = "clown15go-heuristic"

    def __init__(self, seat: int = 0, dump_weight: float = 3.0, stuck_rounds: int = 3,
                 fit_weight: float = 1.0) -> None:
        self.seat = seat
        self.dump_weight = dump_weight
        self.stuck_rounds = stuck_rounds
        self.fit_weight = fit_weight
        # (cards in the middle, turn at which that count was first seen)
        self._middle: tuple[int, int] = (-1, 0)

    def _stuck(self, state: Clown15GoState) -> bool:
        """Whether no card has gone to the middle for ``stuck_rounds`` rounds, as far as this
        bot has seen (it is asked on its own turns only)."""
        size = _middle_size(state)
        seen, since = self._middle
        if size != seen or state.turns < since:  # progress, or a new game
            self._middle = (size, state.turns)
            return False
        return state.turns - since >= self.stuck_rounds * state.game.num_players

    def act(self, state: State) -> Action:
        seat_to_act(state, "clown-15-go")
        assert isinstance(state, Clown15GoState)  # checked above, also under -O
        stuck = self._stuck(state)  # also on forced moves: it keeps the memory up to date
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.current_player()
        weights = _closed_numbers(state, p)
        total = sum(weights.values()) or 1
        o = state.game.options
        basic = not (o.open_pile_first or o.own_pile or o.borrowing or o.points)
        fit_weight = self.fit_weight if basic else 1.0
        best = legal[0]
        best_score = float("-inf")
        for a in legal:
            s = self._score(state, p, a, weights, total, fit_weight)
            if stuck and type(a) is ToPile:
                s -= 20.0 + fit_weight  # below every middle placement, above laying down
                if self._unblocks(state, a):
                    s += 5.0
            if s > best_score:
                best, best_score = a, s
        return best

    @staticmethod
    def _unblocks(state: Clown15GoState, a: ToPile) -> bool:
        """Whether the receiver's current top, which a renewal turns over next once the
        dumped card lies on it, would fit the middle (the way out of a passing cycle)."""
        top = number(state.open_piles[a.player][-1])
        return top == 1 or any(number(row[-1]) == top - 1 for row in state.rows)

    def _score(self, state: Clown15GoState, p: int, a: Action, weights: Counter[int],
               total: int, fit_weight: float = 1.0) -> float:
        o = state.game.options
        n = state.game.num_players
        card = state.card_in_play()
        if type(a) is Pass:
            return -100.0
        if type(a) is LayDown:
            return -50.0
        if type(a) is TurnOver:
            return -10.0
        after = state.clone()
        after.apply(a)
        if after.is_terminal():
            # The game ended on this move: judge by the resulting place.
            return 1000.0 if after.ranking()[p] == 1 else -1000.0
        fit = sum(weights[v] for v in _fitting_numbers(after, p)) / total
        cards = [state.cards_left(q) for q in range(n)]
        if type(a) is ToOwnPile:
            return 1.0 + fit
        score = 10.0 + fit_weight * fit
        if o.points:
            score += 0.2 * (after.points[p] - state.points[p])
        if type(a) is ToPile and o.points:
            # Points: a dumped card keeps its receiver in the game, completing rows; from
            # the own open pile (rule 1) turning over is better.
            return (-11.0 if state.phase == "turn" else 7.0) + fit
        if type(a) is ToPile:
            assert isinstance(a, ToPile)
            others = [cards[q] for q in range(n) if q != p and not state.is_out(q)]
            # Dumping hurts most on the leader (fewest cards).
            if cards[a.player] == min(others):
                score += self.dump_weight
            score -= 0.05 * cards[a.player]
        elif type(a) is ToRow and o.points and card is not None:
            assert isinstance(a, ToRow)
            row = state.rows[a.row]
            score += 1.0  # rows are where the points are
            # Keep one-colour rows one colour: 150 points for whoever completes them.
            if all(colour(c) == colour(card) for c in row):
                score += 1.0 + 0.2 * len(row)
            if len(row) == HIGHEST - 1:
                score += 0.2 * row_points([*row, card])
        elif type(a) is Borrow:
            assert isinstance(a, Borrow)
            # Worth it only if our own card then fits on the borrowed card.
            enables = card is not None and number(card) == number(
                state.open_piles[a.player][-1]) + 1
            if not enables and not (o.points and after.points[p] > state.points[p]):
                return -20.0
            score = 9.0 + fit + 0.03 * cards[a.player]
            if o.points:
                score += 0.2 * (after.points[p] - state.points[p])
            others = [cards[q] for q in range(n) if q != p and not state.is_out(q)]
            if cards[a.player] == min(others):
                score -= 2.0
        return score


EASY_FIT_WEIGHT = 20.0
"""The ``easy`` level's weight on "the next turned card fits" against dumping (3 points) in
the basic game: dumping a card on the other player hands them a card, but a placement that
leaves the next card likely to fit keeps the turn going. Against random players (3,000
two-player games each, seeds 1): weight 1 (the first bot) 0.558, 4: 0.554, 8: 0.562, 20:
0.572, 50: 0.573, 200: 0.573; the middle first instead of dumping: 0.474."""


def heuristic_agent(game: Game, seat: int) -> Clown15GoBot:
    """The first bot (the ``heuristic`` alias): dumping first, the next card's fit breaks
    ties."""
    return Clown15GoBot(seat)


def easy_agent(game: Game, seat: int) -> Clown15GoBot:
    """The ``easy`` level: in the basic game the next card's fit first
    (:data:`EASY_FIT_WEIGHT`)."""
    return Clown15GoBot(seat, fit_weight=EASY_FIT_WEIGHT)


def _rollout_player(game: Game, seat: int) -> Clown15GoBot:
    return Clown15GoBot(seat, fit_weight=EASY_FIT_WEIGHT)


SEARCH = SearchProfile(rollout=_rollout_player, epsilon=0.05, score_scale=3.0, horizon=60,
                       keep_default=1.0,
                       summary=("heuristic rollouts of at most 60 steps, "
                                "score-difference reward"))
"""IS-MCTS in Clown 15 Go: heuristic rollouts of at most 60 steps, score-difference reward
(cards left, or points with the points rule)."""


def search_profile(game: Game) -> SearchProfile:
    return SEARCH


def distinct_places(state: State) -> list[Action]:
    """The legal actions with the same outcome counted once: of several middle rows with
    the same top number only the first (rows differ only in colour, which matters only
    with the points rule; the heuristic bot also picks the first of equal rows).

    >>> from bigtop import new_state
    >>> s = new_state("clown-15-go", players=2, seed=1)
    >>> set(distinct_places(s)) <= set(s.legal_actions())
    True
    """
    assert isinstance(state, Clown15GoState)
    legal = state.legal_actions()
    if state.game.options.points:
        return legal
    seen: set[int] = set()
    out: list[Action] = []
    for a in legal:
        if type(a) is ToRow:
            assert isinstance(a, ToRow)
            top = number(state.rows[a.row][-1])
            if top in seen:
                continue
            seen.add(top)
        out.append(a)
    return out


DEEP_SEARCH = replace(SEARCH, candidates=distinct_places,
                      summary=("heuristic rollouts of at most 60 steps, score-difference "
                               "reward, equal rows counted once"))
"""The ``hard`` level's search in Clown 15 Go: :data:`SEARCH` (medium's) over the distinct
places only (equal rows one candidate), with more determinizations (``levels.BUDGETS``).
Rollouts to the game's end rewarded by the win (hard's profile until 2026-12-03) lost to
medium once the rule revisions made a renewed pile's order public (G4): late in the game
every determinization is the same position, the deterministic rollouts all end in the same
win or loss, and the candidates tie, where the card difference still tells them apart
(docs/bots.md, "Clown 15 Go's hard")."""


def deep_search_profile(game: Game) -> SearchProfile:
    return DEEP_SEARCH
