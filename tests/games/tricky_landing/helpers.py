"""Helpers for building Tricky Landing scenarios from explicit card poses."""

from __future__ import annotations

from bigtop.core.registry import new_game
from bigtop.games.tricky_landing.options import TrickyLandingOptions
from bigtop.games.tricky_landing.rules import TrickyLandingState
from bigtop.games.tricky_landing.tricks import Landing

# The target card spans x in [-3.15, 3.15] and y in [-4.4, 4.4] (cm); a clown card at
# rotation 0 has the same size.
TOP = (0.0, 8.0, 0.0)  # overlaps the target's top edge
BOTTOM = (0.0, -8.0, 0.0)
RIGHT = (6.0, 0.0, 0.0)
LEFT = (-6.0, 0.0, 0.0)
FAR = (0.0, -20.0, 0.0)  # well away from the target (towards seat 0)
FAR2 = (-20.0, 0.0, 0.0)
FAR3 = (20.0, 0.0, 0.0)
# "Example With No Trump Suit": the green 2 and the pink 5 touch the target card separately;
# a bridge card links them; another lies on the bridge, and one more on that.
G2 = (-5.5, 6.5, 0.0)
P5 = (5.5, 6.5, 0.0)
BRIDGE = (-1.0, 12.5, 90.0)
ON_BRIDGE = (0.0, 17.0, 0.0)
ON_TOP = (0.0, 25.0, 0.0)
# The defaults, then every alternative of a rule option on its own.
ALTERNATIVES: list[dict[str, object]] = [{}] + [
    {info.name: v} for info in TrickyLandingOptions.info() if info.choices is not None
    for v in info.choices if v != info.default]


def table(*cards: tuple[str, tuple[float, float, float]] | tuple[str, tuple[float, float,
                                                                            float], bool],
          first: int = 0, players: int | None = None) -> list[Landing]:
    """Landings in throwing order from ``first``: (card, pose[, face_down])."""
    n = players or max(3, len(cards))
    out = []
    for i, c in enumerate(cards):
        card, (x, y, r) = c[0], c[1]
        down = bool(c[2]) if len(c) == 3 else False
        out.append(Landing((first + i) % n, card, x, y, r, down))
    return out


def arranged(players: int, hands: dict[int, list[str]], seed: int = 0,
             options: dict[str, object] | None = None) -> TrickyLandingState:
    """A fresh state whose player ``q`` holds the cards ``hands[q]`` (swapped in from wherever
    the deal put them)."""
    state = new_game("tricky-landing", players, options).new_initial_state(seed)
    assert isinstance(state, TrickyLandingState)
    for q, cards in hands.items():
        for card in cards:
            if card in state.hands[q]:
                continue
            # Swap a card q does not need with the wanted card, wherever it is.
            spare = next(c for c in state.hands[q] if c not in cards)
            for pile in [*state.hands, state.undealt]:
                if card in pile:
                    pile[pile.index(card)] = spare
                    break
            state.hands[q][state.hands[q].index(spare)] = card
    for h in state.hands:
        h.sort()
    state.undealt.sort()
    state._legal = None
    state.audit()
    return state


def play_poses(state: TrickyLandingState,
               *cards: tuple[str, tuple[float, float, float]] | tuple[str, tuple[float, float,
                                                                                 float], bool]
               ) -> None:
    """Land the given cards in turn from the players' hands at exact poses."""
    for c in cards:
        card, (x, y, r) = c[0], c[1]
        down = bool(c[2]) if len(c) == 3 else False
        state.place_from_hand(card, x, y, r, down)


def finish_round_quickly(s: TrickyLandingState) -> None:
    """Jump to the round's last trick: all but one card of every hand go to its owner's
    face-down pile (as if won)."""
    n = s.game.num_players
    for q in range(n):
        s.won[q].extend(s.hands[q][1:])
        del s.hands[q][1:]
    s.trick = s.game.hand_size - 1
    s.leader = (s.starter + s.trick) % n
    s._legal = None
    s.audit()
