"""A heuristic Tricky Landing player that uses only its own observation.

- Work out the trick forming on the target: the face-up cards touching it (through other
  cards too), the lead suit (the first face-up card to touch the target), the best card.
- If a card in hand would beat it (a higher trump, or a higher lead-suit card when no trump
  lies there), throw it at the centre with high spin (fewest face-down landings): the
  cheapest winner when last to throw, else the highest (later throwers may still beat it).
- Throwing first: the highest trump if it holds one of the top numbers, else its highest card.
- Otherwise, if it *wants the trump* — three or more cards of a non-trump suit with a high
  one — and nobody has missed yet in this trick, throw the lowest card of that suit
  deliberately wide (aimed between the target and its own seat) so that it becomes the new
  trump card; else throw its lowest card at the centre.
"""

from __future__ import annotations

from typing import Any

from bigtop.core.actions import Action
from bigtop.core.game import Game, State
from bigtop.games.tricky_landing.cards import number_of, suit_of
from bigtop.games.tricky_landing.physics import cards_touch, touches_target_card
from bigtop.games.tricky_landing.rules import SPINS, Throw, TrickyLandingState

_MISS_DISTANCE_CM = 17.0


class TrickyLandingBot:
    name = "tricky-landing-heuristic"

    def __init__(self, seat: int = 0) -> None:
        self.seat = seat

    def act(self, state: State) -> Action:
        assert isinstance(state, TrickyLandingState)
        g = state.game
        p = state.current_player()
        obs = state.observation(p)
        hand: list[str] = obs["hand"]
        trump: str | None = obs["trump_suit"]
        table: list[dict[str, Any]] = obs["table"]
        model = g.model
        n = g.num_players
        poses = [(c["x"], c["y"], c["rotation"]) for c in table]
        # Cards linked to the target (directly or through other cards).
        linked = [touches_target_card(model, pose) for pose in poses]
        changed = True
        while changed:
            changed = False
            for i, pose in enumerate(poses):
                if not linked[i] and any(linked[j] and cards_touch(model, pose, poses[j])
                                         for j in range(len(poses))):
                    linked[i] = changed = True
        up = [c["card"] for c, ok in zip(table, linked, strict=True)
              if ok and c["face"] == "up" and c["card"] is not None]
        misses = sum(1 for ok in linked if not ok)
        lead = suit_of(up[0]) if up else None
        best_trump = max((number_of(c) for c in up if suit_of(c) == trump), default=0)
        best_lead = max((number_of(c) for c in up if suit_of(c) == lead), default=0)
        last = len(table) == n - 1

        def beats(card: str) -> bool:
            if not up:
                return False
            if trump is not None and suit_of(card) == trump:
                return number_of(card) > best_trump
            return best_trump == 0 and suit_of(card) == lead and number_of(card) > best_lead

        def at_centre(card: str, spin: str) -> Action:
            return g.grid[card][[(a.x, a.y, a.spin) for a in g.grid[card]].index(
                (0.0, 0.0, SPINS[spin]))]

        winners = sorted((c for c in hand if beats(c)), key=number_of)
        if winners:
            return at_centre(winners[0] if last else winners[-1], "high")
        if not up:
            top = g.deck[-1]
            trumps = sorted((c for c in hand if suit_of(c) == trump), key=number_of)
            if trumps and number_of(trumps[-1]) >= number_of(top) - 2:
                return at_centre(trumps[-1], "high")
            return at_centre(max(hand, key=number_of), "high")
        # Cannot win this trick.
        if misses == 0 and len(table) >= n - 2:
            suits: dict[str, list[str]] = {}
            for c in hand:
                if suit_of(c) != trump:
                    suits.setdefault(suit_of(c), []).append(c)
            wanted = [cs for cs in suits.values()
                      if len(cs) >= 3 and max(map(number_of, cs)) >= number_of(g.deck[-1]) - 2]
            if wanted:
                cards = max(wanted, key=len)
                low = min(cards, key=number_of)
                # Aims are in the thrower's frame: negative y is short of the target.
                return Throw(low, 0.0, -_MISS_DISTANCE_CM, SPINS["medium"])
        low = min(hand, key=lambda c: (suit_of(c) == trump, number_of(c)))
        return at_centre(low, "medium")


def heuristic_agent(game: Game, seat: int) -> TrickyLandingBot:
    return TrickyLandingBot(seat)
