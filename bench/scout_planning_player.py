"""A yardstick for SCOUT: the public SCOUT AI project's baseline, its "planning player",
written here from that project's description of it (its README and the value it states), so
that our bots can be measured against the fixed point of the skill scale that project
reports its policy networks on (the planning player is 1.0 there).

The planning player values the position after each of its moves from its own hand and plays
the best: ``0.25 × hand value − cards in hand + cards captured − 1 for a Scout`` (Scout &
Show: the Scout's −1 and the Show's capture), where the hand value counts every window of
two or more adjacent cards that is a set: a run of ``k`` cards counts ``k − 1``, ``k`` equal
numbers ``k − 0.5`` (the windows overlap: a run of three also counts its two runs of two).
It considers every place and side for a scouted card, and turns its hand at the start of a
round when the turned hand's value is higher.

>>> hand_value([3, 4, 5])          # one run of three (2), two runs of two (1 each)
4.0
>>> hand_value([7, 7, 2])          # a pair
1.5
>>> from bigtop import new_state
>>> s = new_state("scout", players=4, seed=3, options={"rounds": 1})
>>> PlanningPlayer().act(s) in s.legal_actions()
True
"""

from __future__ import annotations

from bigtop.core.actions import Action
from bigtop.core.game import State
from bigtop.games.scout.rules import Insert, Scout, ScoutState, Show, TurnHand, _valid_sets

C = 0.25
"""The weight of the hand value (the published grid-searched value)."""

SCOUT_PENALTY = 1.0
"""What a Scout costs in the value (the published default)."""


def hand_value(tops: list[int]) -> float:
    """The summed value of every window of two or more adjacent cards that is a set. (The
    walk over maximal segments is the one of ``games/scout/bot.py``'s ``_hand_value``, kept
    apart on purpose: a yardstick must not change when our bots do.)"""
    total = 0.0
    n = len(tops)
    i = 0
    while i < n - 1:
        step = tops[i + 1] - tops[i]
        if step < -1 or step > 1:
            i += 1
            continue
        j = i + 1
        while j + 1 < n and tops[j + 1] - tops[j] == step:
            j += 1
        length = j - i + 1  # a maximal segment of one step: its windows of k cards
        per = 0.5 if step == 0 else 1.0
        total += sum((length - k + 1) * (k - per) for k in range(2, length + 1))
        i = j
    return total


class PlanningPlayer:
    """One seat's planning player (deterministic; no memory between moves)."""

    name = "planning-player"

    def act(self, state: State) -> Action:
        assert isinstance(state, ScoutState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.current_player()
        hand = state.hands[p]
        tops = [c[0] for c in hand]
        if state.phase == "insert":
            return self._insert(state, legal, tops)
        if state.phase == "show":
            return max((a for a in legal if isinstance(a, Show)),
                       key=lambda a: self._show_value(tops, a, len(state.active)))
        if isinstance(legal[0], TurnHand):
            turned = [c[1] for c in reversed(hand)]
            if hand_value(turned) > hand_value(tops):
                return legal[0]
        best: Action = legal[-1]
        best_value = -float("inf")
        captured = len(state.active)
        for a in legal:
            if isinstance(a, Show):
                value = self._show_value(tops, a, captured)
            elif isinstance(a, Scout):
                card = state.active[0] if a.end == "left" else state.active[-1]
                if a.and_show:
                    # As published: the table's size before the Scout counts as captured.
                    beat = state.strength_after_scout(a.end)
                    value = max(self._best_show_value(new, beat, captured)
                                for new in _inserted(tops, card))
                else:
                    value = max(C * hand_value(new) - len(new) for new in _inserted(tops, card))
                value -= SCOUT_PENALTY
            else:
                continue
            if value > best_value:
                best, best_value = a, value
        return best

    @staticmethod
    def _show_value(tops: list[int], show: Show, captured: int) -> float:
        rest = [*tops[:show.start], *tops[show.start + show.length:]]
        return C * hand_value(rest) - len(rest) + captured

    @classmethod
    def _best_show_value(cls, tops: list[int], beat: int, captured: int) -> float:
        """The value of the best Show from ``tops`` stronger than ``beat`` (-inf: none)."""
        return max((cls._show_value(tops, Show(s, n), captured)
                    for s, n, strength in _valid_sets(tops) if strength > beat),
                   default=-float("inf"))

    def _insert(self, state: ScoutState, legal: list[Action], tops: list[int]) -> Action:
        pending = state.pending
        assert pending is not None

        def new_hand(a: Insert) -> list[int]:
            v = pending[1] if a.flip else pending[0]
            return [*tops[:a.position], v, *tops[a.position:]]

        inserts = [a for a in legal if isinstance(a, Insert)]
        if not state.pending_and_show:
            return max(inserts, key=lambda a: C * hand_value(new_hand(a)))
        beat = state.active_strength()
        captured = len(state.active)
        return max(inserts, key=lambda a: self._best_show_value(new_hand(a), beat, captured))


def _inserted(tops: list[int], card: tuple[int, int]) -> list[list[int]]:
    """Every hand the scouted ``card`` can make: each side up, each place."""
    return [[*tops[:p], v, *tops[p:]] for v in card for p in range(len(tops) + 1)]

