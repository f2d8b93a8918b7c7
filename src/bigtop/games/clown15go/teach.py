"""Clown 15 Go explained to a newcomer, and how a game ended (for ``bigtop play`` and
``bigtop replay``).

>>> from bigtop import new_state
>>> s = new_state("clown-15-go", players=2, seed=1, options={"sets": 2})
>>> "open pile" in " ".join(rules(s.game)) and "G2" not in " ".join(rules(s.game))
True
"""

from __future__ import annotations

from bigtop.core.game import Game, State
from bigtop.core.teaching import Teaching
from bigtop.core.text import count, paragraphs
from bigtop.games.clown15go.options import end_reason_text
from bigtop.games.clown15go.rules import Clown15GoGame, Clown15GoState


def intro(game: Game) -> str:
    """Two lines to read before the first move."""
    assert isinstance(game, Clown15GoGame)
    goal = ("Play on until all are out: going out early and finishing rows score; most "
            "points wins." if game.options.points else "Lose all your cards to win.")
    return paragraphs([
        "Turn over your cards one by one and place each in the middle (rows 1, 2, 3 ... 15) "
        "or on another player's open pile (one higher or lower). A card that fits nowhere "
        f"ends your turn. {goal}"])


def rules(game: Game) -> list[str]:
    """The rules in plain words, as this configuration plays them: paragraphs (``* ``
    starts a bullet; an empty one is left out), wrapped by ``Teaching.rules_text``."""
    assert isinstance(game, Clown15GoGame)
    o = game.options
    d = game.deck
    colours = ", ".join(f"{letter} {d.colour_name(i * 15)}"
                        for i, letter in enumerate(d.colours))
    forced = ("A card that fits must be placed (you choose where)."
              if o.placing == "forced" else "You may always lay a card down instead.")
    last = ("A single open card then becomes your closed pile."
            if o.last_card == "turned" else
            "With one open card and none closed your turn passes.")
    advanced = [
        "* First play the top of your open pile while it fits." if o.open_pile_first else "",
        "* A card one off your open pile's top may go there." if o.own_pile else "",
        ("* You may move other players' open tops to the middle"
         + (" while placing your own card there." if o.borrowing_when ==
            "placing" else ".")) if o.borrowing else "",
        "* Play on until all are out: going out scores 30, 25, 20 ...; a finished row 15 "
        "(150 if one colour). Most points wins." if o.points else "",
    ]
    end = ("" if o.points else
           "The first player with no cards left wins; the others rank by cards left. ")
    return [
        f"Clown 15 Go. The deck has {count(len(d.cards), 'card')}: the numbers 1 to 15 in "
        f"each colour ({colours}), written like {d.colours[0]}7. Everyone starts with a "
        "face-down closed pile.",
        "On your turn, turn over the top card of your closed pile and place it:",
        "* in the middle: a 1 starts a new row; any other card goes on a row whose top is "
        "one lower. A row that reaches 15 is put away;",
        "* on another player's open pile whose top is one higher or one lower"
        + (" (a 1 also on an open 2)." if o.one_on_pile else
           " (a 1 always goes to the middle)."),
        "Turn over the next card; one that fits nowhere goes face up on your own open pile "
        f"and ends your turn. {forced}",
        "An empty closed pile is renewed: your open pile but its top card, turned over"
        + (" and shuffled. " if o.recycle == "shuffle" else ". ") + last,
        *(["Advanced rules:", *advanced] if any(advanced) else []),
        f"{end}If nothing changes for a long time the game stops; the same ranking decides.",
    ]


def commands(game: Game) -> str:
    """How to type a move at ``bigtop play``'s prompt."""
    assert isinstance(game, Clown15GoGame)
    o = game.options
    # Turning over is a choice only beside rules 1 and 3; a pass exists only under G2's
    # last_card=stays.
    return ("Type a listed number, or 'new', 'row 2', 'pile 1', 'lay'"
            + (", 'turn'" if o.open_pile_first or o.borrowing else "")
            + (", 'pass'" if o.last_card == "stays" else "")
            + (", 'own'" if o.own_pile else "") + (", 'borrow 1 2'" if o.borrowing else "") + ".")


def score_words(state: State, player: int) -> str:
    """A final score as the game counts it: the cards left (and the points with the points
    rule), never the engine's score, which is minus the cards left.

    >>> from bigtop import new_state
    >>> s = new_state("clown-15-go", players=2, seed=1)
    >>> score_words(s, 0)
    '60 cards left'
    """
    assert isinstance(state, Clown15GoState)
    cards = f"{count(state.cards_left(player), 'card')} left"
    if not state.game.options.points:
        return cards
    return f"{count(state.points[player], 'point')}, {cards}"


def round_summary(before: State, after: State) -> list[str]:
    """How the game ended and everyone's cards (and points), when the action from
    ``before`` to ``after`` ended it; a line when a player went out; otherwise nothing."""
    assert isinstance(before, Clown15GoState) and isinstance(after, Clown15GoState)
    lines = [f"P{q} has gone out (no cards left)."
             for q in after.out_order[len(before.out_order):]
             if not after.is_terminal()]  # the game's end says it
    if after.is_terminal() and not before.is_terminal():
        first = after.out_order[0] if after.out_order else None
        why = end_reason_text(after.end_reason, first, after.game.options.max_turns)
        lines.append(f"Game over: {why}.")
        points = after.game.options.points
        ranking = after.ranking()
        for q in range(after.game.num_players):
            pts = f"{count(after.points[q], 'point')}, " if points else ""
            lines.append(f"  P{q}: {pts}{count(after.cards_left(q), 'card')} left, "
                         f"place {ranking[q]}")
    return lines


TEACHING = Teaching(intro, rules, commands, round_summary, score_words=score_words)
"""This module's functions, as the game's capability record declares them."""
