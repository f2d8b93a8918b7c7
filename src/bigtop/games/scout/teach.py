"""SCOUT explained to a newcomer, and what a finished round means (for ``bigtop play`` and
``bigtop replay``).

>>> from bigtop import new_state
>>> s = new_state("scout", players=3, seed=1, options={"rounds": 1})
>>> "Show" in " ".join(rules(s.game)) and "ruling" not in " ".join(rules(s.game)).lower()
True
"""

from __future__ import annotations

from bigtop.core.game import Game, State
from bigtop.core.teaching import Teaching
from bigtop.core.text import count, paragraphs
from bigtop.games.scout.cards import show_card
from bigtop.games.scout.rules import Insert, ScoutGame, ScoutState


def intro(game: Game) -> str:
    """Two lines to read before the first move."""
    assert isinstance(game, ScoutGame)
    return paragraphs([
        "Play adjacent cards that beat the set on the table, or scout a card from it into "
        "your hand. You may not reorder your hand; only the top number of a card counts. "
        f"{count(game.rounds, 'round')}; most points wins."])


def rules(game: Game) -> list[str]:
    """The rules in plain words, as this configuration plays them: paragraphs (``* ``
    starts a bullet; an empty one is left out), wrapped by ``Teaching.rules_text``."""
    assert isinstance(game, ScoutGame)
    o = game.options
    turn = {
        "before-first-action": "Before your first action of a round you may turn your whole "
        "hand upside down: the order reverses and every card shows its other number.",
        "any-turn-once": "Once per round, at the start of one of your turns, you may turn "
        "your whole hand upside down: the order reverses and every card shows its other "
        "number.",
        "off": "",
    }[o.hand_turn]
    last = {
        "empties-table": " Taking a set's last card empties the table: any set may follow.",
        "ends-round-at-owner": " Taking a set's last card empties the table; if play then "
        "comes back to that set's owner, the round ends as if nobody beat it.",
        "forbidden": " The last card of a set may not be taken.",
    }.get(o.scout_last_card, "")
    stall = (f" (or, so that it cannot go on for ever, after {o.stall_turns} turns in a row "
             "beat no set: then everyone pays for their hand)" if o.stall_turns else "")
    exempt = (", except the owner of the set nobody beat"
              if o.exemption == "unbeaten-set" else "")
    return [
        "SCOUT. Every card has two numbers; only the top one counts. You may never reorder "
        "your hand. " + turn,
        "On your turn do one of:",
        "* Show: play adjacent cards from your hand that form a set, all one number (4-4-4) "
        "or consecutive numbers (3-4-5, 7-6), stronger than the set on the table: more cards "
        "win; with as many cards one number beats consecutive; then higher numbers win. "
        "You keep the beaten set face down.",
        "* Scout: take the card at either end of the set on the table, turned either way, and "
        "put it anywhere in your hand; the set's owner gets a scout token." + last,
        "* Scout & Show, once per round: scout, then show at once.",
        "A round ends when someone plays their last card, or when play comes back to the "
        "owner of the set on the table because everyone else only scouted" + stall + ". "
        "Score: +1 per "
        f"captured card, +1 per scout token, -1 per card left in hand{exempt}. "
        f"The game has {count(game.rounds, 'round')}; most points wins.",
    ]


def commands(game: Game) -> str:
    """How to type a move at ``bigtop play``'s prompt."""
    assert isinstance(game, ScoutGame)
    turn = "" if game.options.hand_turn == "off" else "'turn', "
    return ("Type a listed number, or 'show 2 3' (3 cards from position 2), 'scout left', "
            f"'scout right and-show', 'insert 4' or 'insert 4 flip', {turn}'pass'.")


def featured(state: State) -> tuple[list[tuple[int, str]], str] | None:
    """While a scouted card waits to be inserted, short labels (``10/2 at 3``) so that the
    up to 26 places fit a few rows; otherwise every move as ``describe`` says it."""
    assert isinstance(state, ScoutState)
    if state.phase != "insert" or state.pending is None:
        return None
    top, bottom = state.pending
    items = []
    for i, a in enumerate(state.legal_actions()):
        if isinstance(a, Insert):
            card = show_card((bottom, top) if a.flip else (top, bottom))
            items.append((i, f"{card} at {a.position}"))
    return items, "Insert the scouted card: its numbers as it will show, and the position."


ENDING_WORDS: dict[str, str] = {
    "emptied": "P{player} played their last card",
    "unbeaten": "play came back to P{player}, whose set nobody beat (everyone else only scouted)",
    "stalled": "too many turns in a row beat no set (rule S9), so everyone pays for their hand",
}
"""How a round ended, in words (the keys are the round log's ``ending``; ``{player}`` is the
player who emptied their hand, or the owner of the unbeaten set; a stalled round names
nobody). The table page's SCOUT
module says the same (tests/web/test_docs.py keeps the two alike)."""


def round_summary(before: State, after: State) -> list[str]:
    """How the round ended and each player's points, when the action from ``before`` to
    ``after`` ended a round; otherwise nothing."""
    assert isinstance(before, ScoutState) and isinstance(after, ScoutState)
    if len(after.round_log) <= len(before.round_log):
        return []
    g = after.game
    r = len(before.round_log)
    rec = after.round_log[r]
    scores = after.round_scores[r]
    ending = rec["ending"]
    if ending in ENDING_WORDS:
        who = before.to_act if ending == "emptied" else before.active_owner
        why = ENDING_WORDS[str(ending)].format(player=who) + "."
    else:
        why = f"the round ended ({str(ending).replace('-', ' ')})."
    lines = [f"Round {r + 1} of {g.rounds} over: {why}"]
    totals = [sum(rs[q] for rs in after.round_scores[:r + 1]) for q in range(g.num_players)]
    for q in range(g.num_players):
        hand = rec["hand"][q]
        pays = ("pays nothing for the hand" if rec["exempt"] == q
                else f"hand -{hand}" if hand else "hand empty")
        lines.append(f"  P{q}: captured +{rec['captured'][q]}, tokens +{rec['scout_tokens'][q]}"
                     f", {pays} = {scores[q]:+d} (total {totals[q]})")
    return lines


TEACHING = Teaching(intro, rules, commands, round_summary, featured=featured)
"""This module's functions, as the game's capability record declares them."""
