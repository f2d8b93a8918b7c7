"""So ein Zirkus explained to a newcomer, and how a game ended (for ``bigtop play`` and
``bigtop replay``).

>>> from bigtop import new_state
>>> s = new_state("so-ein-zirkus", players=2, seed=1)
>>> "black" in " ".join(rules(s.game)) and "Z1" not in " ".join(rules(s.game))
True
>>> "P1 yellow; blue and green stay in the box." in " ".join(rules(s.game))
True
"""

from __future__ import annotations

from bigtop.core.game import Game, State
from bigtop.core.teaching import Teaching
from bigtop.core.text import count, paragraphs
from bigtop.games.zirkus.actions import COLOURS
from bigtop.games.zirkus.options import ENDING_WORDS
from bigtop.games.zirkus.rules import ZirkusGame, ZirkusState


def intro(game: Game) -> str:
    """Two lines to read before the first move."""
    assert isinstance(game, ZirkusGame)
    return paragraphs([
        "Roll the die, then add a ball of that colour to a clown or move a clown whose top "
        "ball has that colour; a clown drops its bottom ball into each empty hole it enters. "
        "Holes holding your colour score; the game ends when the 6-point hole is filled."])


def rules(game: Game) -> list[str]:
    """The rules in plain words, as this configuration plays them: paragraphs (``* ``
    starts a bullet; an empty one is left out), wrapped by ``Teaching.rules_text``."""
    assert isinstance(game, ZirkusGame)
    o = game.options
    # Only this table's seats; "the balls of the colours not chosen stay in the box".
    n = game.num_players
    unused = COLOURS[n:]
    colours = ("Everyone draws a secret colour; all four colours are in play."
               if o.secret_clown else
               "P0 plays red, " + ", ".join(f"P{p} {COLOURS[p]}" for p in range(1, n))
               + (f"; {' and '.join(unused)} stay{'s' if len(unused) == 1 else ''} in the box."
                  if unused else "."))
    length = ("any number of fields from 1 to the number of balls it holds" if o.lazy_clown
              else "exactly as many fields as it holds balls (" + (
                  "or, if it cannot, as far as it can)" if o.short_move == "as-far-as-possible"
                  else "if it cannot, it may not move)"))
    never = ("never onto or past another clown" if o.shoving == "off" else
             "never past another clown; stepping onto one pushes it a field on, "
             + ("once a move (one pushed off the board restarts empty on a start field)"
                if o.shoving == "clumsy" else "onto a free field, not off the board, once a move"))
    end = {"games": f"the most points over {count(o.tournament_games, 'game')} wins",
           "score": f"games go on until a total reaches {o.tournament_score}, then the most "
           "points wins"}.get(o.tournament, "most points wins")
    black = "put a clown back on a free start field (it keeps its balls)"
    if o.upside_down:
        black += ", or turn a clown's bottom ball to its top"
    return [
        "So ein Zirkus. Three clowns walk over the board; each carries up to three balls, "
        "stacked, and the top ball is the one that counts. " + colours,
        "On your turn roll the die. It shows red, yellow, blue, green, black or white.",
        "* A colour: add a ball of that colour (from the supply) to any clown with room, or "
        "move a clown whose top ball has that colour. If you can do neither (on any face), "
        "your turn is lost.",
        "* White: add a ball of any colour, or move any clown that holds balls.",
        f"* Black: the same as white, or {black}.",
        f"A clown moves {length}: forward or sideways, never backward, {never}, never back "
        "onto a field of the same move.",
        "Whenever a clown enters an empty hole, its bottom ball drops in (a filled hole "
        + ("takes nothing; the last field counts too)."
           if o.drop_on_stop else "takes nothing; the field it stops on does not count)."),
        "The game ends as soon as a ball falls into the 6-point hole. Each player scores the "
        f"holes holding their colour; {end}.",
    ]


def commands(game: Game) -> str:
    """How to type a move at ``bigtop play``'s prompt."""
    assert isinstance(game, ZirkusGame)
    o = game.options
    return ("Type a listed number, or 'add 0 red', 'move 1 FFL' (F forward, L left, R right), "
            "'back 2 A1'" + (", 'upend 0'" if o.upside_down else "")
            + (", 'restart B1' (a clown pushed off the board)" if o.shoving == "clumsy" else "")
            + ".")


def round_summary(before: State, after: State) -> list[str]:
    """How a game ended, the holes and each player's points, when the action from
    ``before`` to ``after`` ended one; otherwise nothing."""
    assert isinstance(before, ZirkusState) and isinstance(after, ZirkusState)
    if len(after.games) <= len(before.games):
        return []
    k = len(before.games)
    rec = after.games[k]
    g = after.game
    series = g.options.tournament != "off"
    head = f"Game {k + 1} over" if series else "Game over"
    why = ENDING_WORDS.get(str(rec["ending"]), str(rec["ending"]).replace("-", " "))
    lines = [f"{head}: {why}."]
    value = {g.field_names[f]: v for f, v in g.board.holes}
    filled = sorted((value[name], ball) for name, ball in rec["holes"].items()
                    if ball is not None)
    lines.append("  Holes filled: " + (", ".join(f"{v} {ball}" for v, ball in filled)
                                       if filled else "none"))
    for p in range(g.num_players):
        total = f" (total {after.totals[p]})" if series else ""
        lines.append(f"  P{p} ({rec['colours'][p]}): {count(rec['scores'][p], 'point')}"
                     + total)
    return lines


TEACHING = Teaching(intro, rules, commands, round_summary)
"""This module's functions, as the game's capability record declares them."""
