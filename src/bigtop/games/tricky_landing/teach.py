"""Tricky Landing explained to a newcomer, and what each trick and round did (for
``bigtop play`` and ``bigtop replay``).

>>> from bigtop import new_state
>>> s = new_state("tricky-landing", players=3, seed=1, options={"rounds": 1})
>>> "face down" in " ".join(rules(s.game)) and "T1" not in " ".join(rules(s.game))
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


def rules(game: Game) -> list[str]:
    """The rules in plain words, as this configuration plays them: paragraphs (``* ``
    starts a bullet; an empty one is left out), wrapped by ``Teaching.rules_text``."""
    assert isinstance(game, TrickyLandingGame)
    o = game.options
    lead = ("The first card to touch the target sets the lead suit; if it landed face down, "
            "the trick has no lead suit." if o.face_down_lead == "no-lead" else
            "The first face-up card to touch the target sets the lead suit.")
    no_lead = {
        "linked-directly": " But there is no lead suit when the cards touching the target "
        "are linked only through other cards.",
        "all-pairs-touch": " But there is no lead suit when two cards touching the target "
        "do not touch each other.",
    }.get(o.lead_suit, "")
    face_down = (", but the winner collects them too" if o.face_down_cards == "to-winners"
                 else " and are discarded")
    ties = ("Equal highest cards share the trick." if o.ties == "share"
            else "Of equal highest cards the first to land wins.")
    miss = (" (one that landed face down is turned face up)" if o.face_down_miss ==
            "names-suit" else "; one that landed face down is discarded instead")
    misses = ("When several cards miss, each thrower keeps their card face up: -2 points "
              "each." if o.several_misses == "kept-face-up" else
              "When several cards miss they are discarded.")
    leader = ("A sole winner throws first next; else the first player card passes "
              "clockwise." if o.next_leader == "trick-winner" else
              "The first player card then passes clockwise.")
    rounds = (" The trump suit carries over to the next round." if o.trump_between_rounds ==
              "carries-over" else "")
    starter = (" The first player card's holder starts the next round." if
               o.next_round_leader == "card-holder" else "")
    return [
        "Tricky Landing. Five suits (y yellow, p pink, g green, b blue, o orange); a card is "
        "written suit letter and number, e.g. y7. Each trick, starting with the holder of "
        "the first player card, everyone throws one card at the target card in the middle "
        "of the table. A thrown card may land face up or face down.",
        "When all have thrown: cards that touch the target, directly or through each other, "
        f"form a trick. {lead}{no_lead} The highest trump card wins; without one, the "
        "highest card of the lead suit (of any suit when there is none). Face-down cards "
        f"never win{face_down}. {ties}",
        f"A single card that misses becomes the new trump card{miss}. {misses}",
        f"{leader} At the end of a round each card you won scores +1, each missed card "
        f"kept face up -2.{rounds}{starter} {count(game.rounds, 'round')}; most points "
        "wins.",
    ]


def commands(game: Game) -> str:
    """How to type a move at ``bigtop play``'s prompt."""
    assert isinstance(game, TrickyLandingGame)
    spins = ", ".join(f"{name} {number(v)}" for name, v in SPINS.items())
    return ("Type a listed number, or a throw: CARD [X Y] [SPIN], e.g. 'y7' (the centre, medium "
            "spin), 'y7 5 0 high': aim X, Y in cm from the target's centre (x to your right, y "
            f"away from you), spin a name ({spins} revolutions a second) or a number.")


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
