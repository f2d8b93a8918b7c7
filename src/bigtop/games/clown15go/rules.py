"""Clown 15 Go as a pure state machine (15GO!, Van der Meulen, 2020: the English user guide;
the deck, the advanced rules and the readings G1–G5 in docs/clown-15-go.md).

Turning over a card is automatic (there is never a choice): the state then waits for the
player to place the **turned card** (phase ``"card"``): on a middle row (:class:`ToRow`, or
:class:`NewRow` for a 1), on another player's open pile (:class:`ToPile`), on their own open
pile with the advanced rule (:class:`ToOwnPile`), or, when it fits nowhere, to lay it on their
own open pile, which ends the turn (:class:`LayDown`). Phase ``"turn"`` is the start of a
turn when the player has something to decide before turning over: play the top of their own
open pile (advanced rule 1), borrow (advanced rule 3), then :class:`TurnOver`; or, when no card
can be turned (ruling G2), :class:`Pass`.

>>> from bigtop import new_state
>>> s = new_state("clown-15-go", players=2, seed=3)
>>> s.phase, s.current_player(), s.deck.text(s.pending)
('card', 0, 'Y2')
>>> [a.kind for a in s.legal_actions()]  # nothing takes a 2 yet: lay it down
['lay-down']
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from bigtop.core.actions import Action, ActionTable, typed_text
from bigtop.core.errors import MalformedActionError, shown
from bigtop.core.game import JSON, TERMINAL, Game, State
from bigtop.core.rng import derive_rng, shuffle
from bigtop.core.text import Told, count
from bigtop.games.clown15go.actions import (
    Borrow,
    Clown15GoAction,
    LayDown,
    NewRow,
    Pass,
    ToOwnPile,
    ToPile,
    ToRow,
    TurnOver,
)
from bigtop.games.clown15go.cards import HIGHEST, Deck, colour
from bigtop.games.clown15go.options import END_REASONS, Clown15GoOptions, end_reason_text
from bigtop.games.clown15go.position import PHASES, load_position, problems
from bigtop.games.clown15go.scoring import out_points, row_points
from bigtop.games.clown15go.tensor import Clown15GoLayout

__all__ = [  # the actions and options live in their own modules; importable from here too
    "END_REASONS", "PHASES", "Borrow", "Clown15GoAction", "Clown15GoGame", "Clown15GoOptions",
    "Clown15GoState", "LayDown", "NewRow", "Pass", "ToOwnPile", "ToPile", "ToRow", "TurnOver",
    "out_points", "row_points",
]

# -- the game -------------------------------------------------------------------------------


class Clown15GoGame(Game[Clown15GoOptions]):
    """Clown 15 Go for 2–8 players.

    >>> g = Clown15GoGame(3, {"sets": 6})
    >>> len(g.deck.cards), g.max_rows, g.num_distinct_actions()
    (90, 6, 35)
    >>> g.action_from_int(g.action_to_int(Borrow(2, 1)))
    Borrow(player=2, row=1)
    """

    name = "clown-15-go"
    title = "Clown 15 Go"
    min_players = 2
    max_players = 8
    options_type = Clown15GoOptions
    action_types = (NewRow, ToRow, ToPile, ToOwnPile, LayDown, TurnOver, Pass, Borrow)

    @classmethod
    def conformance_options(cls, num_players: int) -> list[dict[str, object]]:
        """Every combination of the four advanced rules (16), with G1, the recycling rule and
        short decks spread over them; small decks and G3 limits keep the harness fast."""
        out: list[dict[str, object]] = [{}]
        for bits in range(1, 16):
            opts: dict[str, object] = {
                "open_pile_first": bool(bits & 1), "own_pile": bool(bits & 2),
                "borrowing": bool(bits & 4), "points": bool(bits & 8),
                "sets": 1 + bits % 3, "stall_rounds": 2 + bits % 2, "max_turns": 150,
            }
            if bits % 4 == 1:
                opts["placing"] = "voluntary"
            if bits % 5 == 2:
                opts["recycle"] = "shuffle"
            out.append(opts)
        # The revised rulings' alternatives: G2's earlier reading, G5's option, rule 3 while
        # placing in the middle, another starting seat.
        out.append({"last_card": "stays", "sets": 3, "stall_rounds": 3})
        out.append({"one_on_pile": True, "open_pile_first": True, "borrowing": True,
                    "borrowing_when": "placing", "first_player": num_players - 1, "sets": 2,
                    "stall_rounds": 3, "max_turns": 150})
        if num_players >= 7:  # beyond the 2–6 the issue asks for: a lighter sample
            out = [o for o in out if len(o) <= 1 or o.get("sets") == 1]
        out.append({"placing": "voluntary", "sets": 3, "stall_rounds": 3})
        out.append({"recycle": "shuffle", "sets": 3, "stall_rounds": 1, "max_turns": 60})
        return out

    def __init__(
        self, num_players: object, options: Clown15GoOptions | dict[str, object] | None = None
    ) -> None:
        super().__init__(num_players, options)
        num_players = self.num_players  # checked by Game.__init__
        o = self.options
        self.deck = Deck(o.colours, o.sets)
        # Each row starts on its own 1, so there are never more rows than sets.
        self.max_rows = o.sets
        n, r = num_players, self.max_rows
        # Interned actions: legal lists hold references, never new objects.
        self.new_row = NewRow()
        self.to_row = [ToRow(i) for i in range(r)]
        self.to_pile = [ToPile(q) for q in range(n)]
        self.to_own = ToOwnPile()
        self.lay_down = LayDown()
        self.turn_over = TurnOver()
        self.pass_ = Pass()
        self.borrow = [[Borrow(q, i) for i in range(-1, r)] for q in range(n)]
        self._all: list[Action] = [self.new_row, *self.to_row, *self.to_pile, self.to_own,
                                   self.lay_down, self.turn_over, self.pass_]
        for row in self.borrow:
            self._all.extend(row)
        self.action_table = ActionTable(self._all)

    def notes(self) -> list[str]:
        """With ``last_card=stays`` the basic game cannot be won; say so before it is played.

        >>> Clown15GoGame(2, {"last_card": "stays"}).notes()[0][:40]
        'With last_card=stays, when your closed p'
        >>> Clown15GoGame(2).notes()
        []
        """
        o = self.options
        if o.last_card == "turned" or o.open_pile_first or o.borrowing:
            return []
        ranked = "most points wins" if o.points else "fewest cards left wins"
        return ["With last_card=stays, when your closed pile is empty and your open pile has "
                "one card your turn passes, and only advanced rules 1 and 3 take cards off an "
                "open pile, so nobody who has laid a card down can go out. The game ends when "
                f"it stalls and {ranked}. The default (last_card=turned) lets that last card be "
                "played."]

    def _new_initial_state(self, seed: int) -> Clown15GoState:
        state = Clown15GoState(self, seed)
        state._deal()
        return state

    def _state_from_position(self, position: JSON, seed: int) -> Clown15GoState:
        state = Clown15GoState(self, seed)
        load_position(state, position)
        return state

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """Shape of :meth:`observation_tensor`: it depends on the number of sets only (see
        :mod:`bigtop.games.clown15go.tensor`).

        >>> Clown15GoGame(2).observation_tensor_shape(), Clown15GoGame(8, {"sets": 2}
        ...     ).observation_tensor_shape()
        ((954,), (654,))
        """
        return (Clown15GoLayout(self).size,)

    def observation_tensor(self, state: object, player: object) -> list[float]:
        """``player``'s observation as fixed-size floats, for OpenSpiel and PettingZoo (the
        layout refuses another game's state or no seat: typed ``object`` so that a compiled
        build makes the same refusal rather than its own TypeError)."""
        return Clown15GoLayout(self).floats(state, player)


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class Clown15GoState(State[Clown15GoGame]):
    """A position. Piles are lists from bottom to top: ``closed[p][-1]`` is turned over next,
    ``open_piles[p][-1]`` is the visible top."""


    def __init__(self, game: Clown15GoGame, seed: int) -> None:
        super().__init__(game, seed)
        n = game.num_players
        self.deck = game.deck
        self.to_act = 0
        self.phase = "card"
        self.pending: int | None = None
        self.closed: list[list[int]] = [[] for _ in range(n)]
        self.open_piles: list[list[int]] = [[] for _ in range(n)]
        self.recycled = [False] * n
        self.rows: list[list[int]] = []
        self.completed: list[tuple[int, list[int]]] = []
        self.out_order: list[int] = []
        self.points = [0] * n
        self.turns = 0
        self.quiet_turns = 0
        self.pass_streak = 0
        self.placed_this_turn = False
        self.stale_recycle = False
        self.end_reason: str | None = None

    # -- set-up -----------------------------------------------------------------------------
    def _deal(self) -> None:
        """Shuffle and deal every card, one at a time round the table from player 0 (when the
        deck does not divide evenly the first players get one card more)."""
        n = self.game.num_players
        cards = list(self.deck.cards)
        shuffle(derive_rng(self.seed, "deal"), cards)
        for i, c in enumerate(cards):
            self.closed[i % n].append(c)
        self._begin_turn(self.game.options.first_player)

    # -- queries ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == "over" else self.to_act

    def cards_left(self, player: int) -> int:
        """Cards a player still holds: closed pile, open pile and the turned card in hand."""
        extra = 1 if self.pending is not None and player == self.to_act else 0
        return len(self.closed[player]) + len(self.open_piles[player]) + extra

    def is_out(self, player: int) -> bool:
        return player in self.out_order

    def card_in_play(self) -> int | None:
        """The card the player is placing now: the turned card, or (phase "turn", advanced
        rule 1) the top of their own open pile."""
        if self.phase == "card":
            return self.pending
        if self.phase == "turn" and self.game.options.open_pile_first:
            pile = self.open_piles[self.to_act]
            return pile[-1] if pile else None
        return None

    def _targets(self, card: int, own: bool) -> list[Action]:
        """Where ``card`` fits for the player to act: rows, other players' open piles and
        (``own``) their own open pile."""
        g = self.game
        # Compare 0-based numbers (code % 15): a card with 0-based k fits on k - 1 (rows) and
        # on k - 1 or k + 1 (open piles).
        k = card % HIGHEST
        below, above = k - 1, k + 1
        out: list[Action]
        if k == 0:
            out = [g.new_row]
            if not g.options.one_on_pile:  # G5: a 1 goes to the middle
                return out
        else:
            to_row = g.to_row
            out = [to_row[i] for i, row in enumerate(self.rows) if row[-1] % HIGHEST == below]
        p = self.to_act
        to_pile = g.to_pile
        for q, pile in enumerate(self.open_piles):
            if pile and q != p:
                t = pile[-1] % HIGHEST
                if t in (below, above):
                    out.append(to_pile[q])
        if own:
            pile = self.open_piles[p]
            if pile and pile[-1] % HIGHEST in (below, above):
                out.append(g.to_own)
        return out

    def _borrows(self) -> list[Action]:
        """Borrow moves (rule 3); with ``borrowing_when=placing`` only those after which the
        card in play goes on the borrowed card."""
        g = self.game
        out: list[Action] = []
        p = self.to_act
        wanted = None  # the 1-based number a borrowed card must have, if restricted
        if g.options.borrowing_when == "placing":
            card = self.card_in_play()
            if card is None or card % HIGHEST == 0:
                return out
            wanted = card % HIGHEST  # the card in play's number minus one
        for q, pile in enumerate(self.open_piles):
            if not pile or q == p:
                continue
            v = pile[-1] % HIGHEST + 1
            if wanted is not None and v != wanted:
                continue
            if v == 1:
                out.append(g.borrow[q][0])
                continue
            for i, row in enumerate(self.rows):
                if row[-1] % HIGHEST + 2 == v:
                    out.append(g.borrow[q][i + 1])
        return out

    def _can_turn_over(self) -> bool:
        p = self.to_act
        return bool(self.closed[p]) or len(self.open_piles[p]) >= self._keep_open + 1

    @property
    def _keep_open(self) -> int:
        """Cards left face up when the closed pile is renewed (G2)."""
        return 1 if self.game.options.last_card == "stays" else 0

    def _legal_actions(self) -> list[Action]:
        g = self.game
        o = g.options
        if self.phase == "card":
            assert self.pending is not None
            out = self._targets(self.pending, o.own_pile)
            if o.borrowing:
                out.extend(self._borrows())
            if o.placing == "voluntary" or not any(
                    type(a) is not Borrow for a in out):
                out.append(g.lay_down)
            return out
        # phase "turn"
        out = []
        if o.open_pile_first:
            pile = self.open_piles[self.to_act]
            if pile:
                out = self._targets(pile[-1], False)
        if o.borrowing:
            out.extend(self._borrows())
        out.append(g.turn_over if self._can_turn_over() else g.pass_)
        return out

    def _why_illegal(self, action: Action) -> str:
        if self.phase == "card":
            if isinstance(action, TurnOver | Pass):
                # Say what G1 (option placing) allows with this card.
                legal = self.legal_actions()
                lay = self.game.lay_down in legal
                place = any(type(a) is not LayDown and type(a) is not Borrow for a in legal)
                todo = ("place it or lay it down" if place and lay else
                        "place it" if place else "lay it down")
                return f"you have a turned card: {todo}"
            if isinstance(action, LayDown):
                return "the turned card fits somewhere, so it must be placed"
        else:
            if isinstance(action, LayDown | ToOwnPile):
                return "there is no turned card (turn one over first)"
            if isinstance(action, NewRow | ToRow | ToPile) and self.card_in_play() is None:
                # Rule 1 plays the open pile's top; without it (or with that pile empty)
                # nothing is in play before turning over.
                if self.game.options.open_pile_first:
                    return "your open pile is empty: there is no card to place (turn one over)"
                return "there is no turned card (turn one over first)"
        if isinstance(action, Borrow) and not self.game.options.borrowing:
            return "borrowing (advanced rule 3) is not in play"
        if isinstance(action, ToOwnPile) and not self.game.options.own_pile:
            return "placing on your own open pile (advanced rule 2) is not in play"
        if isinstance(action, ToPile) and action.player == self.to_act:
            return "you cannot place on your own open pile this way"
        if isinstance(action, TurnOver):
            return "your closed pile is empty and your open pile has one card: pass"
        if isinstance(action, Pass):
            return "you can still turn a card over"
        card = self._source_text()
        in_play = self.card_in_play()
        if (isinstance(action, ToPile | ToOwnPile) and in_play is not None
                and in_play % HIGHEST == 0 and not self.game.options.one_on_pile):
            return f"{card} is a 1: it goes to the middle and starts a new row"
        if isinstance(action, Borrow) and self.game.options.borrowing_when == "placing":
            if in_play is None:
                return "you may borrow only to put your own card in the middle on it"
            q = action.player
            pile = self.open_piles[q] if 0 <= q < self.game.num_players else []
            if pile and pile[-1] % HIGHEST + 1 != in_play % HIGHEST:
                return (f"you may borrow only a card your {card} then goes on "
                        f"(borrowing_when=placing)")
        if isinstance(action, ToRow | Borrow) and action.row >= 0:
            if action.row >= len(self.rows):
                return (f"there is no middle row {action.row}" if self.rows else
                        "there are no middle rows yet (a 1 starts one)")
            top = self.deck.text(self.rows[action.row][-1])
            if isinstance(action, ToRow):
                return f"{card} does not go on row {action.row} (top {top}): rows go up by one"
        if isinstance(action, ToPile | Borrow):
            q = action.player
            if not 0 <= q < self.game.num_players:
                return f"there is no player {q}"
            if q == self.to_act:
                return "that is your own open pile"
            if not self.open_piles[q]:
                return f"P{q} has no open pile"
            top = self.deck.text(self.open_piles[q][-1])
            if isinstance(action, ToPile):
                return f"{card} does not go on P{q}'s {top}: it must be one higher or lower"
            return f"P{q}'s {top} does not fit there"
        if isinstance(action, ToOwnPile):
            own = self.open_piles[self.to_act]
            if not own:
                return "your own open pile is empty: there is no card to go on"
            return (f"{card} does not go on your own open pile's {self.deck.text(own[-1])}: "
                    "it must be one higher or lower")
        if isinstance(action, NewRow):
            return f"only a 1 starts a new row, not {card}"
        return f"{shown(action)} is not possible now (P{self.to_act} to act)"

    # -- applying ---------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        p = self.to_act
        t = type(action)
        if t is LayDown:
            card = self.pending
            assert card is not None
            self.pending = None
            self.open_piles[p].append(card)
            self._end_turn()
            return
        if t is TurnOver:
            self._turn_over()
            return
        if t is Pass:
            self._end_turn(passed=True)
            return
        if t is Borrow:
            assert isinstance(action, Borrow)
            q = action.player
            card = self.open_piles[q].pop()
            self._to_middle(card, action.row)
            self.placed_this_turn = True
            self.stale_recycle = False
            if not self._check_out(q) and self.phase == "turn":
                self._maybe_skip_turn_phase()
            return
        # A placement of the card in play.
        if self.phase == "card":
            card = self.pending
            assert card is not None
            self.pending = None
        else:
            card = self.open_piles[p].pop()
        if t is ToOwnPile:
            self.open_piles[p].append(card)
        else:
            if t is ToPile:
                assert isinstance(action, ToPile)
                self.open_piles[action.player].append(card)
            else:
                self._to_middle(card, action.row if isinstance(action, ToRow) else -1)
            self.placed_this_turn = True
            self.stale_recycle = False
        if self._check_out(p):
            return
        if self.phase == "card":
            self._turn_over()
        else:
            self._maybe_skip_turn_phase()

    def _to_middle(self, card: int, row: int) -> None:
        """Put ``card`` on middle row ``row`` (-1: a 1 starting a new row); a row that reaches
        15 is complete and is put away (kept by the player, for the points rule)."""
        if row < 0:
            self.rows.append([card])
            return
        cards = self.rows[row]
        cards.append(card)
        if len(cards) == HIGHEST:
            del self.rows[row]
            self.completed.append((self.to_act, cards))
            if self.game.options.points:
                self.points[self.to_act] += row_points(cards)

    def _check_out(self, player: int) -> bool:
        """If ``player`` has no cards left they go out. Returns True if the turn (or game) is
        over because of it."""
        if self.cards_left(player) or player in self.out_order:
            return False
        place = len(self.out_order)
        self.out_order.append(player)
        if not self.game.options.points:
            self._finish("went-out")
            return True
        self.points[player] += out_points(place)
        if len(self.out_order) == self.game.num_players:
            self._finish("all-out")
            return True
        if player == self.to_act:
            self._end_turn()
            return True
        return False

    def _turn_over(self) -> None:
        """Turn over the top card of the closed pile, renewing an empty closed pile from the
        open pile; when that is impossible (G2) the turn ends."""
        p = self.to_act
        closed = self.closed[p]
        if not closed:
            pile = self.open_piles[p]
            # G2: a single open card cannot be turned; G3: a turn that went through the whole
            # pile placing cards only on the own open pile ends instead of renewing it again.
            keep = 1 if len(pile) > 1 else self._keep_open
            if len(pile) <= keep or self.stale_recycle:
                self._end_turn()
                return
            rest = pile[:len(pile) - keep]
            if self.game.options.recycle == "shuffle":
                shuffle(derive_rng(self.seed, "recycle", len(self.history)), rest)
            rest.reverse()  # turning the pile over: its bottom card comes up first
            self.closed[p] = closed = rest
            self.open_piles[p] = pile[len(pile) - keep:]
            self.recycled[p] = True
            self.stale_recycle = True
        self.pending = closed.pop()
        self.phase = "card"

    def _end_turn(self, passed: bool = False) -> None:
        o = self.game.options
        self.turns += 1
        if self.placed_this_turn:
            self.quiet_turns = 0
            self.pass_streak = 0
        else:
            self.quiet_turns += 1
            self.pass_streak = self.pass_streak + 1 if passed else 0
        n = self.game.num_players
        still_in = n - len(self.out_order)
        # G3: a whole round of passes repeats the position forever; otherwise wait
        # stall_rounds quiet rounds (1 = the ruling's words).
        if (self.pass_streak >= still_in
                or self.quiet_turns >= o.stall_rounds * still_in):
            self._finish("stall")
            return
        if self.turns >= o.max_turns:
            self._finish("turn-limit")
            return
        q = (self.to_act + 1) % n
        while q in self.out_order:
            q = (q + 1) % n
        self._begin_turn(q)

    def _begin_turn(self, player: int) -> None:
        self.to_act = player
        self.pending = None
        self.placed_this_turn = False
        self.stale_recycle = False
        self.phase = "turn"
        self._maybe_skip_turn_phase()

    def _maybe_skip_turn_phase(self) -> None:
        """Phase "turn" is only a decision when the player can do more than turn over."""
        self._legal = None
        o = self.game.options
        if o.open_pile_first or o.borrowing:
            legal = self._legal_actions()
            if len(legal) > 1 or legal[0] is not self.game.turn_over:
                return
        elif not self._can_turn_over():
            return  # G2: the player must pass
        self._turn_over()

    def _finish(self, reason: str) -> None:
        if reason in ("went-out", "all-out"):
            self.turns += 1  # the turn in progress counts (G3 endings counted it already)
        self.phase = "over"
        self.end_reason = reason

    # -- results ----------------------------------------------------------------------------
    def scores(self) -> list[float]:
        """Points with the points rule; otherwise minus the cards left (the player who went
        out has 0, the best possible)."""
        n = self.game.num_players
        if self.game.options.points:
            return [float(x) for x in self.points]
        return [-float(self.cards_left(q)) for q in range(n)]

    def ranking(self) -> list[int]:
        """Basic game: fewest cards first (the player who went out wins). Points rule: most
        points first, ties broken by fewest cards left."""
        n = self.game.num_players
        if self.game.options.points:
            keys = [(self.points[q], -self.cards_left(q)) for q in range(n)]
        else:
            keys = [(-self.cards_left(q), 0) for q in range(n)]
        return [1 + sum(1 for k in keys if k > key) for key in keys]

    def result(self) -> JSON:
        out = super().result()
        out["end_reason"] = self.end_reason
        out["turns"] = self.turns
        out["cards_left"] = [self.cards_left(q) for q in range(self.game.num_players)]
        out["out_order"] = list(self.out_order)
        return out

    # -- text -------------------------------------------------------------------------------
    def _source_text(self) -> str:
        card = self.card_in_play()
        return "?" if card is None else self.deck.text(card)

    def _describe(self, action: Action, player: int | None) -> str:
        p = self.to_act
        t = Told(p, player)  # "You put …" to the mover, "P1 puts …" to everyone else
        who = t.who
        d = self.deck
        src = self._source_text()
        where = "" if self.phase == "card" else f" from {t.their} open pile"
        if isinstance(action, NewRow):
            return f"{who} {t.verb('puts')} {src}{where} in the middle: a new row"
        if isinstance(action, ToRow):
            top = d.text(self.rows[action.row][-1]) if action.row < len(self.rows) else "?"
            return f"{who} {t.verb('puts')} {src}{where} on row {action.row} (on {top})"
        if isinstance(action, ToPile):
            pile = self.open_piles[action.player] if action.player < len(self.open_piles) else []
            top = d.text(pile[-1]) if pile else "?"
            return (f"{who} {t.verb('puts')} {src}{where} on P{action.player}'s open pile "
                    f"(on {top})")
        if isinstance(action, ToOwnPile):
            line = f"{who} {t.verb('puts')} {src} on {t.their} own open pile"
            if action in self.legal_actions():
                # The turn goes on only if a card can be turned over next: not with the
                # closed pile empty and no renewal (G2's single card, G3's loop rule).
                after = self.clone()
                after.apply(action)
                if after.to_act != p or after.is_terminal():
                    return f"{line}; {t.their} turn is over"
            return f"{line} and {t.verb('goes')} on"
        if isinstance(action, LayDown):
            return (f"{who} {t.verb('lays')} {src} on {t.their} own open pile; "
                    f"{t.their} turn is over")
        if isinstance(action, TurnOver):
            renew = "" if self.closed[p] else " (renewing the closed pile)"
            return f"{who} {t.verb('turns')} over the next card{renew}"
        if isinstance(action, Pass):
            return f"{who} cannot turn a card over and {t.verb('passes')}"
        if isinstance(action, Borrow):
            pile = self.open_piles[action.player] if action.player < len(self.open_piles) else []
            card = d.text(pile[-1]) if pile else "?"
            if action.row < 0:
                return f"{who} {t.verb('borrows')} {card} from P{action.player}: a new row"
            top = d.text(self.rows[action.row][-1]) if action.row < len(self.rows) else "?"
            return (f"{who} {t.verb('borrows')} {card} from P{action.player} onto row "
                    f"{action.row} (on {top})")
        return f"{who}: {action!r}"

    def action_from_text(self, text: object) -> Action:
        """Typed moves: ``new``, ``row 2``, ``pile 1``, ``own``, ``lay`` (lay down), ``turn``,
        ``pass``, ``borrow 1 2`` (from P1 onto row 2; ``borrow 1 new`` for a 1)."""
        text = typed_text(text, self.game.title)
        words = text.lower().split()
        g = self.game
        simple = {"new": g.new_row, "new-row": g.new_row, "own": g.to_own,
                  "own-pile": g.to_own, "lay": g.lay_down, "lay-down": g.lay_down,
                  "turn": g.turn_over, "turn-over": g.turn_over, "pass": g.pass_}
        try:
            if len(words) == 1 and words[0] in simple:
                return simple[words[0]]
            if len(words) == 2 and words[0] == "row":
                return ToRow(int(words[1]))
            if len(words) == 2 and words[0] == "pile":
                return ToPile(int(words[1].lstrip("p")))
            if len(words) == 3 and words[0] == "borrow":
                row = -1 if words[2] == "new" else int(words[2])
                return Borrow(int(words[1].lstrip("p")), row)
        except ValueError:
            pass
        raise MalformedActionError(
            f"cannot read {shown(text)}; type new, row N, pile P, own, lay, turn, pass or "
            "borrow P ROW (borrow P new)")

    def _render(self, player: int | None = None) -> str:
        g = self.game
        d = self.deck
        o = g.options
        rules = [name for name, on in (("open pile first", o.open_pile_first),
                                       ("own pile", o.own_pile), ("borrowing", o.borrowing),
                                       ("points", o.points)) if on]
        head = f"Clown 15 Go — turn {self.turns + 1}"
        if rules:
            head += " — advanced: " + ", ".join(rules)
        lines = [head]
        if self.rows:
            lines.append("Middle rows:")
            for i, row in enumerate(self.rows):
                cols = {d.colours[colour(c)] for c in row}
                mono = f" (all {d.colour_name(row[0])})" if len(cols) == 1 and o.points else ""
                lines.append(f"  row {i}: top {d.text(row[-1]):>4}  "
                             f"[{' '.join(d.texts(row))}]{mono}")
        else:
            lines.append("Middle rows: none yet (a 1 starts a row)")
        if self.completed:
            lines.append(f"Completed rows: {len(self.completed)}")
        for q in range(g.num_players):
            pile = self.open_piles[q]
            top = d.text(pile[-1]) if pile else "--"
            marks = []
            if q == player:
                marks.append("you")
            if q == self.to_act and self.phase != "over":
                marks.append("to play")
            if q in self.out_order:
                marks.append(f"out #{self.out_order.index(q) + 1}")
            tag = f" ({', '.join(marks)})" if marks else ""
            pts = f", {count(self.points[q], 'point')}" if o.points else ""
            below = " ".join(d.texts(pile[-5:-1]))
            lines.append(f"  P{q}{tag}: open top {top:>4} ({len(pile)} open"
                         f"{': … ' + below if below else ''}), {len(self.closed[q])} closed, "
                         f"{count(self.cards_left(q), 'card')}{pts}")
        if self.phase == "card" and self.pending is not None:
            lines.append(f"P{self.to_act} turned over: {d.text(self.pending)}")
        if self.phase == "over":
            first = self.out_order[0] if self.out_order else None
            why = end_reason_text(self.end_reason, first, o.max_turns)
            places = ", ".join(f"P{q} {k}" for q, k in enumerate(self.ranking()))
            lines.append(f"Game over: {why}. Places: {places}")
        return "\n".join(lines)

    # -- JSON -------------------------------------------------------------------------------
    def _position_json(self) -> JSON:
        d = self.deck
        return {
            "to_act": self.to_act,
            "phase": self.phase,
            "pending": None if self.pending is None else d.text(self.pending),
            "closed": [d.texts(c) for c in self.closed],
            "open": [d.texts(c) for c in self.open_piles],
            "recycled": list(self.recycled),
            "rows": [d.texts(r) for r in self.rows],
            "completed": [{"by": by, "cards": d.texts(c)} for by, c in self.completed],
            "out_order": list(self.out_order),
            "points": list(self.points),
            "turns": self.turns,
            "quiet_turns": self.quiet_turns,
            "pass_streak": self.pass_streak,
            "placed_this_turn": self.placed_this_turn,
            "stale_recycle": self.stale_recycle,
            "end_reason": self.end_reason,
        }

    def unseen(self) -> list[int]:
        """Cards in closed piles that were never renewed: nobody knows which pile holds which
        (ruling G4), only this union is derivable."""
        return sorted(c for q, pile in enumerate(self.closed) if not self.recycled[q]
                      for c in pile)

    def _observation(self, player: int | None) -> JSON:
        """What ``player`` sees (the same for everybody, ruling G4): rows, open piles, the
        turned card, closed-pile sizes; a renewed closed pile's cards (they lay open), in
        pile order under ``recycle=turn-over`` (everybody saw the open pile turned over as it
        lay), sorted under ``recycle=shuffle`` (its order is hidden); the sorted union of the
        never-renewed closed piles."""
        n = self.game.num_players
        d = self.deck
        in_order = self.game.options.recycle == "turn-over"
        return {
            "game": self.game.name,
            "player": player,
            "to_act": self.current_player(),
            "phase": self.phase,
            "pending": None if self.pending is None else d.text(self.pending),
            "rows": [d.texts(r) for r in self.rows],
            "completed": [{"by": by, "cards": d.texts(c)} for by, c in self.completed],
            "players": [{
                "closed": len(self.closed[q]),
                "closed_cards": (None if not self.recycled[q]
                                 else d.texts(self.closed[q]) if in_order
                                 else sorted(d.texts(sorted(self.closed[q])))),
                "open": d.texts(self.open_piles[q]),
                "cards": self.cards_left(q),
                "out": q in self.out_order,
                "points": self.points[q],
            } for q in range(n)],
            "unseen": d.texts(self.unseen()),
            "out_order": list(self.out_order),
            "turns": self.turns,
            "quiet_turns": self.quiet_turns,
            "pass_streak": self.pass_streak,
            "placed_this_turn": self.placed_this_turn,
            "stale_recycle": self.stale_recycle,
            "end_reason": self.end_reason,
        }

    def _resample_hidden(self, player: int, seed: int) -> Clown15GoState:
        """Redraw what nobody can see: the never-renewed closed piles are dealt afresh from
        their union (sizes kept), every renewed pile is reshuffled under ``recycle=shuffle``
        (under ``turn-over`` its order is public and kept, G4), and the seed is new."""
        new = self.clone()
        rng = random.Random(self.fresh_seed(seed))
        n = self.game.num_players
        dealt = [q for q in range(n) if not self.recycled[q]]
        # Sorted first, so the draw depends only on what is public and the seed.
        pool = sorted(c for q in dealt for c in self.closed[q])
        shuffle(rng, pool)
        i = 0
        for q in dealt:
            k = len(self.closed[q])
            new.closed[q] = pool[i:i + k]
            i += k
        if self.game.options.recycle == "shuffle":
            for q in range(n):
                if self.recycled[q]:
                    new.closed[q] = sorted(new.closed[q])
                    shuffle(rng, new.closed[q])
        new.seed = rng.getrandbits(63)
        return new

    def problems(self) -> list[str]:
        return problems(self)

    def clone(self) -> Clown15GoState:
        # Field by field: a compiled class has no __dict__ to copy (a test checks that a
        # clone has every attribute of the original).
        new = Clown15GoState(self.game, self.seed)
        new.history = list(self.history)
        new.deck = self.deck
        new.to_act = self.to_act
        new.phase = self.phase
        new.pending = self.pending
        new.turns = self.turns
        new.quiet_turns = self.quiet_turns
        new.pass_streak = self.pass_streak
        new.placed_this_turn = self.placed_this_turn
        new.stale_recycle = self.stale_recycle
        new.end_reason = self.end_reason
        new.closed = [list(c) for c in self.closed]
        new.open_piles = [list(c) for c in self.open_piles]
        new.recycled = list(self.recycled)
        new.rows = [list(r) for r in self.rows]
        new.completed = [(by, list(r)) for by, r in self.completed]
        new.out_order = list(self.out_order)
        new.points = list(self.points)
        new._legal = None
        return new
