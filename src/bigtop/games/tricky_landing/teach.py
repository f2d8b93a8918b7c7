"""Tricky Landing explained to a newcomer, and what each trick and round did (for
``bigtop play`` and ``bigtop replay``).

>>> from bigtop import new_state
>>> s = new_state("tricky-landing", players=3, seed=1, options={"rounds": 1})
>>> "face down" in rules_text(s.game) and "T1" not in rules_text(s.game)
True
>>> before = s.clone()
>>> for _ in range(3):
...     s.apply(s.legal_actions()[0])
>>> trick_summary(before, s)[0].startswith("Trick 1 of 12:")
True
"""

from __future__ import annotations

from bigtop.core.game import Game, State
from bigtop.core.text import count, number, paragraphs
from bigtop.games.tricky_landing.cards import card_name
from bigtop.games.tricky_landing.rules import (
    SPINS,
    Throw,
    TrickyLandingGame,
    TrickyLandingState,
    describe_resolution,
)
from bigtop.games.tricky_landing.tricks import resolve_trick


def intro(game: Game) -> str:
    """Two lines to read before the first move."""
    assert isinstance(game, TrickyLandingGame)
    return paragraphs([
        "Throw one card a trick at the target card in the middle. Cards touching it form a "
        "trick; the highest card of the lead suit (or a trump) wins it. Missing costs points. "
        f"{count(game.rounds, 'round')}; most points wins."])


def rules_text(game: Game) -> str:
    """The rules in plain words, as this configuration plays them (fits 78 columns)."""
    assert isinstance(game, TrickyLandingGame)
    o = game.options
    spins = ", ".join(f"{name} {number(v)}" for name, v in SPINS.items())
    ties = ("Equal highest cards share the trick." if o.ties == "share"
            else "Of equal highest cards the first to land wins.")
    misses = ("When several cards miss, each thrower keeps their card face up: -2 points "
              "each." if o.several_misses == "kept-face-up" else
              "When several cards miss they are discarded.")
    lead = {"linked-directly": "; but if the cards touching it are linked only through "
            "other cards, there is no lead suit and the highest card of any suit wins",
            "all-pairs-touch": "; but unless all the cards touching it touch each other, "
            "there is no lead suit and the highest card of any suit wins",
            "first-toucher": ""}[o.lead_suit]
    face_down = (", but the winner collects them too" if o.face_down_cards == "to-winners"
                 else "; they are discarded")
    lone = ("" if o.face_down_miss == "names-suit"
            else "; if it landed face down, it is discarded instead")
    return paragraphs([
        "Tricky Landing. Five suits (y yellow, p pink, g green, b blue, o orange); a card is "
        "written suit letter and number, e.g. y7. Each trick, starting with the holder of "
        "the first player card, everyone throws one card at the target card in the middle "
        "of the table. A thrown card may land face up or face down.",
        "When all have thrown: cards that touch the target, directly or through each other, "
        f"form a trick. The first face-up card to touch the target sets the lead suit{lead}. "
        "The highest trump card wins; without one, the highest card of the lead suit. "
        f"Face-down cards never win{face_down}. {ties}",
        f"A single card that misses becomes the new trump card (its suit is trump){lone}. "
        f"{misses}",
        "The first player card then passes on. At the end of a round each card you won "
        "scores +1, each missed card kept face up -2. "
        f"{count(game.rounds, 'round')}; most points wins.",
        "Type a listed number, or a throw: CARD [X Y] [SPIN], e.g. 'y7' (the centre, medium "
        "spin), 'y7 5 0 high': aim X, Y in cm from the target's centre (x to your right, y "
        f"away from you), spin a name ({spins} revolutions a second) or a number.",
    ])


def featured(state: State) -> tuple[list[tuple[int, str]], str]:
    """One throw per card in the move menu (at the centre, medium spin), labelled by the
    card: the other 26 aims and spins of each card are typed."""
    legal = state.legal_actions()
    medium = SPINS["medium"]
    shown = [(i, f"{a.card} {card_name(a.card)}") for i, a in enumerate(legal)
             if isinstance(a, Throw) and (a.x, a.y, a.spin) == (0.0, 0.0, medium)]
    return shown, "A number throws at the centre, medium spin; or type e.g. 'y7 5 0 high'."


def trick_summary(before: State, after: State) -> list[str]:
    """What the trick did when the action from ``before`` to ``after`` finished one;
    otherwise nothing."""
    assert isinstance(before, TrickyLandingState) and isinstance(after, TrickyLandingState)
    if (after.round, after.trick) == (before.round, before.trick):
        return []
    # Resolve the trick again from the table before the throw and where the throw landed:
    # what apply did, and still there after the round's last trick, when the next deal has
    # cleared the table.
    throw = after.history[len(before.history)]
    assert isinstance(throw, Throw)
    g = before.game
    table = [*before.table, before.landing_of(throw)]
    res = resolve_trick(table, before.trump_suit, g.options, g.model)
    return [f"Trick {before.trick + 1} of {g.hand_size}:",
            *("  " + line for line in describe_resolution(res, table))]


def round_summary(before: State, after: State) -> list[str]:
    """Every player's points when the action from ``before`` to ``after`` finished a round;
    otherwise nothing."""
    assert isinstance(before, TrickyLandingState) and isinstance(after, TrickyLandingState)
    g = after.game
    lines = []
    if after.round > before.round:
        r = before.round
        lines.append(f"Round {r + 1} of {g.rounds} over:")
        for q in range(g.num_players):
            down, up = after.round_piles[r][q]
            kept = f", {up} face up -{2 * up}" if up else ", none face up"
            lines.append(f"  P{q}: {down} face down +{down}{kept} = "
                         f"{after.round_scores[r][q]:+d} (total {after.totals[q]})")
    return lines
