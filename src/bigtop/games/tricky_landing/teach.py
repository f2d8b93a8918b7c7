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
from bigtop.core.teaching import Teaching
from bigtop.core.text import Told, count, number, paragraphs
from bigtop.games.tricky_landing.cards import card_name
from bigtop.games.tricky_landing.rules import (
    SPINS,
    Throw,
    TrickyLandingGame,
    TrickyLandingState,
    describe_resolution,
)
from bigtop.games.tricky_landing.tricks import Landing, Resolution, resolve_trick


def intro(game: Game) -> str:
    """Two lines to read before the first move."""
    assert isinstance(game, TrickyLandingGame)
    # "If a throw misses the target, the trump suit for the next trick is set. However, if
    # several players miss, everyone is penalized" (unless several_misses=discarded).
    several = ("several misses cost points" if game.options.several_misses == "kept-face-up"
               else "several misses are discarded")
    return paragraphs([
        "Throw one card a trick at the target card in the middle. Cards touching it form a "
        "trick; the highest card of the lead suit (or a trump) wins it. A lone miss sets the "
        f"trump; {several}. {count(game.rounds, 'round')}; most points wins."])


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
    split = ("face-up and face-down cards each split evenly" if o.shared_face_down == "apart"
             else "split evenly")
    ties = (f"Equal highest cards share the trick ({split}, the rest discarded)."
            if o.ties == "share" else "Of equal highest cards the first to land wins.")
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
        "The cards touching the target, directly or through each other, "
        f"form a trick. {lead}{no_lead} The highest trump card wins; without one, the "
        "highest card of the lead suit (of any suit when there is none). Face-down cards "
        f"never win{face_down}.",
        f"{ties} A single card that misses becomes the new trump card{miss}. {misses}",
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


def _thrown(before: TrickyLandingState, after: TrickyLandingState
            ) -> tuple[list[Landing], Resolution, bool] | None:
    """The cards on the table once the one throw from ``before`` to ``after`` came to rest
    (it is the last), how they lie (the trick's resolution when ``final``: the throw ended
    the trick) or None when no throw lies between the two."""
    g = before.game
    if after.round == before.round and after.trick == before.trick:
        if len(after.table) != len(before.table) + 1:
            return None
        # The trick goes on: which cards touch the target or each other, as they lie now.
        return after.table, resolve_trick(after.table, before.trump_suit, g.options,
                                          g.model), False
    if (after.round == before.round and after.last_table[:-1] == before.table
            and len(after.last_table) == len(before.table) + 1):
        res = after.resolution()
        assert res is not None
        return after.last_table, res, True
    # The round's last trick: the next deal has cleared the table, so the throw is
    # simulated again from the position before it (what apply did).
    if len(after.history) != len(before.history) + 1:
        return None
    throw = after.history[-1]
    if not isinstance(throw, Throw):
        return None
    table = [*before.table, before.landing_of(throw)]
    return table, resolve_trick(table, before.trump_suit, g.options, g.model), True


def _card(c: Landing, player: int | None) -> str | None:
    """The card's name when ``player`` may know it: face up, or their own face-down card."""
    return card_name(c.card) if not c.face_down or player == c.player else None


def _whose(q: int, player: int | None) -> str:
    return "your" if q == player else f"P{q}'s"


def _who(t: Told) -> str:
    """The subject inside a log line's later clauses: "you" or "P2"."""
    return "you" if t.you else t.who


def landing_words(table: list[Landing], res: Resolution, final: bool,
                  player: int | None = None) -> str:
    """Where the last card of ``table`` came to rest, told to ``player``: on the target,
    touching a card of the trick, or off the target (a miss once the trick is ``final``).
    The card is named when it lies face up (a face-down one is "it"), but to its thrower,
    whose describe line of the throw names it anyway."""
    i = len(table) - 1
    c = table[i]
    # Named when face up, except to the thrower: their own line has just named it.
    name = _card(c, player) if player != c.player else None
    it = f"the {name}" if name else "it"
    face = "face down" if c.face_down else "face up"
    k = res.trick_of[i]
    if k >= 0 and i in res.tricks[k].direct:
        return f"{it} lands {face} on the target"
    if k >= 0:
        members = res.tricks[k].members
        j = next(a if b == i else b for a, b in res.touches
                 if i in (a, b) and (a if b == i else b) in members)
        whose = _whose(table[j].player, player)
        return f"{it} lands {face} touching {whose} card, joining the trick"
    if final:
        return f"{it} misses the target, landing {face}"
    return f"{it} lands {face} off the target"


def trick_words(table: list[Landing], res: Resolution, player: int | None = None
                ) -> list[str]:
    """Who won the resolved trick and what became of the misses, told to ``player``: short
    clauses for a log line ("P1 wins the trick (3 cards)"); no face-down card is named to
    anyone but its thrower."""
    out = []
    several = len(res.tricks) > 1
    the = "a trick" if several else "the trick"
    if not res.tricks:
        out.append("no card touches the target")
    for t in res.tricks:
        gone = f"; {len(t.discarded)} discarded" if t.discarded else ""
        if not t.winners:
            out.append(f"nobody wins {the}: every card in it lies face down "
                       f"({count(len(t.members), 'card')} discarded)")
            continue
        told = [Told(table[w].player, player) for w in t.winners]
        if len(told) == 1:
            out.append(f"{_who(told[0])} {told[0].verb('wins')} {the} "
                       f"({count(len(t.taken[0]), 'card')}{gone})")
            continue
        sizes = [len(x) for x in t.taken]
        each = (f"{count(sizes[0], 'card')} each" if len(set(sizes)) == 1
                else " and ".join(str(n) for n in sizes) + " cards")
        who = ", ".join(_who(x) for x in told[:-1]) + f" and {_who(told[-1])}"
        out.append(f"{who} share {the} ({each}{gone})")
    if res.new_trump is not None:
        c = table[res.new_trump]  # turned face up beside the play area
        out.append(f"{_whose(c.player, player)} missed {card_name(c.card)} is the new trump "
                   "card")
    for i in res.kept_face_up:
        c = table[i]
        keeper = Told(c.player, player)
        out.append(f"{_who(keeper)} {keeper.verb('keeps')} {keeper.their} missed "
                   f"{card_name(c.card)} face up (−2)")
    for i in res.missed_discarded:
        c = table[i]
        name = _card(c, player)
        out.append(f"{_whose(c.player, player)} missed {name or 'card'} is discarded")
    return out


def outcome(before: State, after: State, player: int | None = None) -> str:
    """What the throw from ``before`` to ``after`` did, which its describe line, said before
    the throw, cannot tell (the throw's luck is known only once thrown): where the card
    landed; told to ``player`` (None: everyone), so a face-down card is named to its thrower
    only. (A describe line of the throw cannot say it: it also labels the choices of the
    thrower, who would learn each choice's luck.)

    >>> from bigtop import new_state
    >>> s = new_state("tricky-landing", players=3, seed=1, options={"rounds": 1})
    >>> before = s.clone(); s.apply(s.legal_actions()[0])
    >>> outcome(before, s)
    'the yellow 1 lands face up off the target'
    """
    assert isinstance(before, TrickyLandingState) and isinstance(after, TrickyLandingState)
    thrown = _thrown(before, after)
    return "" if thrown is None else landing_words(*thrown, player)


def trick_result(before: State, after: State, player: int | None = None) -> str:
    """When the throw from ``before`` to ``after`` was a trick's last, who won the trick and
    what became of the misses, in one clause for a log line ("P1 wins the trick (3 cards)";
    :func:`trick_summary` says it at length); otherwise nothing."""
    assert isinstance(before, TrickyLandingState) and isinstance(after, TrickyLandingState)
    thrown = _thrown(before, after)
    if thrown is None or not thrown[2]:
        return ""
    return "; ".join(trick_words(thrown[0], thrown[1], player))


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


TEACHING = Teaching(intro, rules, commands, round_summary, featured=featured,
                    trick_summary=trick_summary, outcome=outcome, trick_result=trick_result)
"""This module's functions, as the game's capability record declares them."""
