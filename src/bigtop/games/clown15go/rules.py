"""Clown 15 Go as a pure state machine (rulebook 004_23154701df508698.txt; deck, advanced
rules and rulings G1–G4 in shared/rules/clown-15-go.md).

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
from dataclasses import dataclass
from typing import Any, ClassVar

from bigtop.core.actions import Action, ActionTable
from bigtop.core.errors import (
    InvalidStateError,
    MalformedActionError,
    RuleOptionError,
)
from bigtop.core.game import JSON, TERMINAL, Game, State
from bigtop.core.options import RuleOptions, option
from bigtop.core.rng import derive_rng
from bigtop.games.clown15go.cards import DEFAULT_COLOURS, HIGHEST, Deck, colour, number

# -- actions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewRow(Action):
    """Put the card in play (a 1) in the middle: it starts a new row."""

    kind: ClassVar[str] = "new-row"


@dataclass(frozen=True, slots=True)
class ToRow(Action):
    """Put the card in play on middle row ``row`` (0 = oldest row), whose top is one lower."""

    kind: ClassVar[str] = "row"
    row: int


@dataclass(frozen=True, slots=True)
class ToPile(Action):
    """Put the card in play on ``player``'s open pile, whose top is one higher or lower."""

    kind: ClassVar[str] = "pile"
    player: int


@dataclass(frozen=True, slots=True)
class ToOwnPile(Action):
    """Advanced rule 2: put the turned card on your own open pile (top one higher or lower);
    the turn goes on."""

    kind: ClassVar[str] = "own-pile"


@dataclass(frozen=True, slots=True)
class LayDown(Action):
    """Put the turned card face up on your own open pile: your turn is over."""

    kind: ClassVar[str] = "lay-down"


@dataclass(frozen=True, slots=True)
class TurnOver(Action):
    """Stop playing from your open pile and turn over the top card of your closed pile."""

    kind: ClassVar[str] = "turn-over"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Ruling G2: no card can be turned over (closed pile empty, one open card): the turn
    passes."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Borrow(Action):
    """Advanced rule 3: move the top card of ``player``'s open pile onto middle row ``row``
    (``row = -1``: the card is a 1 and starts a new row)."""

    kind: ClassVar[str] = "borrow"
    player: int
    row: int


Clown15GoAction = NewRow | ToRow | ToPile | ToOwnPile | LayDown | TurnOver | Pass | Borrow

# -- options --------------------------------------------------------------------------------

END_REASONS = ("went-out", "all-out", "stall", "turn-limit")
"""Why a game ended: the first player went out (basic game); every player went out (points
rule); ruling G3's stall (a whole round with no card placed anywhere but the players' own
open piles); ruling G3's hard turn cap."""


@dataclass(frozen=True)
class Clown15GoOptions(RuleOptions):
    sets: int = option(
        8, minimum=1, maximum=26,
        doc="How many sets of 15 cards (one per colour) are in play; fewer sets is the "
        "rulebook's shorter game (e.g. 4 sets for 2 players, 6 for 3).",
        quote="you can decide to play with fewer cards by removing one or more sets of 15 "
        "cards. That's how the game goes faster.",
    )
    colours: str = option(
        DEFAULT_COLOURS,
        doc="The colour letters of the sets in the box, one distinct capital letter per set; "
        "the game uses the first `sets` of them (default: red, orange, yellow, green, blue, "
        "purple, black, white).",
    )
    open_pile_first: bool = option(
        False,
        doc="Advanced rule 1: at the start of your turn you may play the top card of your own "
        "open pile (again and again while it fits), then turn cards over.",
        quote="When it's your turn, you can first see if you can lose the card from your open "
        "pile.",
    )
    own_pile: bool = option(
        False,
        doc="Advanced rule 2: a turned card one higher or lower than the top of your own open "
        "pile may go there; this is a placement and your turn goes on.",
        quote="If you turn over a card from your closed pile, you can also place it on your own "
        "open pile, if this card is 1 higher or lower than the card that is there.",
    )
    borrowing: bool = option(
        False,
        doc="Advanced rule 3: during your turn you may move the top card of another player's "
        "open pile onto a middle row where it fits.",
        quote="If you put in the middle during your turn, you can also use cards from the open "
        "cards of your fellow players.",
    )
    points: bool = option(
        False,
        doc="Advanced rule 4: play on until every player is out; going out scores 30, 25, 20, "
        "... (never below 0); completing a row with its 15 scores 15, or 150 when the row is "
        "one colour; most points wins.",
        quote="You also carry on playing until all the cards are finished; you do not stop "
        "when the first player has already played all his cards.",
    )
    placing: str = option(
        "forced", choices=("forced", "voluntary"),
        doc="G1: 'forced': a turned card that fits somewhere must be placed (you choose "
        "where) and goes to your own open pile only when it fits nowhere; 'voluntary': you may "
        "always lay it down instead.",
        quote="You cannot place a card anywhere? Then your turn is over and you put the card "
        "in front of your closed pile with the number facing up.",
    )
    recycle: str = option(
        "turn-over", choices=("turn-over", "shuffle"),
        doc="How an empty closed pile is renewed: 'turn-over': the open pile but its top card "
        "is turned over as it lies (the first card laid down comes up first); 'shuffle': it "
        "is also shuffled (a house rule making ruling G4's hidden order real).",
        quote="you leave the last card of your open pile facing up and you turn the rest "
        "over, creating a new pile of closed cards.",
    )
    last_card: str = option(
        "stays", choices=("stays", "turned"),
        doc="G2: 'stays': with an empty closed pile and a single open card you cannot turn a "
        "card and your turn passes (so in the basic game nobody who ever laid a card down can "
        "go out); 'turned': that single card is turned over as your closed pile and played "
        "like any turned card.",
        quote="Then you leave the last card of your open pile facing up and you turn the rest "
        "over, creating a new pile of closed cards.",
    )
    stall_rounds: int = option(
        20, minimum=1, maximum=1000,
        doc="G3: the game ends when this many whole rounds of turns pass with no card placed "
        "anywhere but on the players' own open piles (a round: one turn of every player still "
        "in; 1 = the ruling's words, which cut most games short in their first rounds, see "
        "the docs); a whole round in which every player passed (G2) always ends the game at "
        "once, as nothing can change any more. Players are then ranked by fewest cards left "
        "(points game: by points).",
        quote="If a whole round of turns passes with no card placed anywhere but on the "
        "players' own open piles, or after a configurable number of turns, the game ends",
    )
    max_turns: int = option(
        1000, minimum=1, maximum=1_000_000,
        doc="G3: hard cap on the number of turns; when it is reached the game ends and players "
        "are ranked by fewest cards left (points game: by points).",
    )

    def validate_for(self, num_players: int) -> None:
        c = self.colours
        if not (c.isascii() and c.isalpha() and c.isupper()) or len(set(c)) != len(c):
            raise RuleOptionError(
                f"rule option 'colours' must be distinct capital letters, got {c!r}")
        if self.sets > len(c):
            raise RuleOptionError(
                f"{self.sets} sets need {self.sets} colour letters; 'colours' has {len(c)}")


# -- the game -------------------------------------------------------------------------------

PHASES = ("turn", "card", "over")


class Clown15GoGame(Game):
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
    options: Clown15GoOptions

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
        if num_players >= 7:  # beyond the 2–6 the issue asks for: a lighter sample
            out = [o for o in out if len(o) <= 1 or o.get("sets") == 1]
        out.append({"placing": "voluntary", "sets": 3, "stall_rounds": 3})
        out.append({"recycle": "shuffle", "sets": 3, "stall_rounds": 1, "max_turns": 60})
        return out

    def __init__(
        self, num_players: int, options: Clown15GoOptions | dict[str, object] | None = None
    ) -> None:
        super().__init__(num_players, options)
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
        """The basic game under ruling G2 cannot be won; say so before it is played.

        >>> Clown15GoGame(2).notes()[0][:40]
        'Ruling G2: with an empty closed pile and'
        >>> Clown15GoGame(2, {"last_card": "turned"}).notes()
        []
        """
        o = self.options
        if o.last_card == "turned" or o.open_pile_first or o.borrowing:
            return []
        ranked = "most points wins" if o.points else "fewest cards left wins"
        return ["Ruling G2: with an empty closed pile and one open card your turn passes, and "
                "only advanced rules 1 and 3 take cards off an open pile, so nobody who has "
                f"laid a card down can go out. The game ends by ruling G3 and {ranked}. "
                "-o last_card=turned lets that last card be played."]

    def new_initial_state(self, seed: int = 0) -> Clown15GoState:
        state = Clown15GoState(self, seed)
        state._deal()
        return state

    def _state_from_position(self, position: JSON, seed: int) -> Clown15GoState:
        return _load_position(self, position, seed)

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """Shape of :meth:`observation_tensor`: it depends on the number of sets only (see
        :mod:`bigtop.games.clown15go.tensor`).

        >>> Clown15GoGame(2).observation_tensor_shape(), Clown15GoGame(8, {"sets": 2}
        ...     ).observation_tensor_shape()
        ((952,), (652,))
        """
        from bigtop.games.clown15go.tensor import tensor_size

        return (tensor_size(self),)

    def observation_tensor(self, state: State, player: int) -> list[float]:
        """``player``'s observation as fixed-size floats, for OpenSpiel and PettingZoo."""
        from bigtop.games.clown15go.tensor import encode

        return encode(self, state.observation(player))


def out_points(place: int) -> int:
    """Points for going out ``place``-th (0 = first): 30, 25, 20, ..., never below 0."""
    return max(0, 30 - 5 * place)


def row_points(cards: list[int]) -> int:
    """Points for completing a row: 150 if all 15 cards share a colour, else 15."""
    c = colour(cards[0])
    return 150 if all(colour(x) == c for x in cards) else 15


class Clown15GoState(State):
    """A position. Piles are lists from bottom to top: ``closed[p][-1]`` is turned over next,
    ``open_piles[p][-1]`` is the visible top."""

    game: Clown15GoGame

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
        derive_rng(self.seed, "deal").shuffle(cards)
        for i, c in enumerate(cards):
            self.closed[i % n].append(c)
        self._begin_turn(0)

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
        g = self.game
        out: list[Action] = []
        p = self.to_act
        for q, pile in enumerate(self.open_piles):
            if not pile or q == p:
                continue
            v = pile[-1] % HIGHEST + 1
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
                return "you have a turned card: place it (or lay it down)"
            if isinstance(action, LayDown):
                return "the turned card fits somewhere, so it must be placed (ruling G1)"
        else:
            if isinstance(action, LayDown | ToOwnPile):
                return "there is no turned card (turn one over first)"
            if isinstance(action, NewRow | ToRow | ToPile) and not (
                    self.game.options.open_pile_first):
                return "there is no turned card (turn one over first)"
        if isinstance(action, Borrow) and not self.game.options.borrowing:
            return "borrowing (advanced rule 3) is not in play"
        if isinstance(action, ToOwnPile) and not self.game.options.own_pile:
            return "placing on your own open pile (advanced rule 2) is not in play"
        if isinstance(action, ToPile) and action.player == self.to_act:
            return "you cannot place on your own open pile this way"
        if isinstance(action, TurnOver):
            return "your closed pile is empty and your open pile has one card: pass (G2)"
        if isinstance(action, Pass):
            return "you can still turn a card over"
        card = self._source_text()
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
        if isinstance(action, NewRow):
            return f"only a 1 starts a new row, not {card}"
        return f"{action!r} is not possible now (P{self.to_act} to act)"

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
                derive_rng(self.seed, "recycle", len(self.history)).shuffle(rest)
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
        who = f"P{p}"
        d = self.deck
        src = self._source_text()
        where = "" if self.phase == "card" else " from their open pile"
        if isinstance(action, NewRow):
            return f"{who} puts {src}{where} in the middle: a new row"
        if isinstance(action, ToRow):
            top = d.text(self.rows[action.row][-1]) if action.row < len(self.rows) else "?"
            return f"{who} puts {src}{where} on row {action.row} (on {top})"
        if isinstance(action, ToPile):
            pile = self.open_piles[action.player] if action.player < len(self.open_piles) else []
            top = d.text(pile[-1]) if pile else "?"
            return f"{who} puts {src}{where} on P{action.player}'s open pile (on {top})"
        if isinstance(action, ToOwnPile):
            return f"{who} puts {src} on their own open pile and goes on"
        if isinstance(action, LayDown):
            return f"{who} lays {src} on their own open pile; turn over"
        if isinstance(action, TurnOver):
            renew = "" if self.closed[p] else " (renewing the closed pile)"
            return f"{who} turns over the next card{renew}"
        if isinstance(action, Pass):
            return f"{who} cannot turn a card over and passes"
        if isinstance(action, Borrow):
            pile = self.open_piles[action.player] if action.player < len(self.open_piles) else []
            card = d.text(pile[-1]) if pile else "?"
            if action.row < 0:
                return f"{who} borrows {card} from P{action.player}: a new row"
            top = d.text(self.rows[action.row][-1]) if action.row < len(self.rows) else "?"
            return f"{who} borrows {card} from P{action.player} onto row {action.row} (on {top})"
        return f"{who}: {action!r}"

    def action_from_text(self, text: str) -> Action:
        """Typed moves: ``new``, ``row 2``, ``pile 1``, ``own``, ``lay`` (lay down), ``turn``,
        ``pass``, ``borrow 1 2`` (from P1 onto row 2; ``borrow 1 new`` for a 1)."""
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
            f"cannot read {text!r}; type new, row N, pile P, own, lay, turn, pass or "
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
            pts = f", {self.points[q]} points" if o.points else ""
            below = " ".join(d.texts(pile[-6:-1]))
            lines.append(f"  P{q}{tag}: open top {top:>4} ({len(pile)} open"
                         f"{': … ' + below if below else ''}), {len(self.closed[q])} closed, "
                         f"{_cards(self.cards_left(q))}{pts}")
        if self.phase == "card" and self.pending is not None:
            lines.append(f"P{self.to_act} turned over: {d.text(self.pending)}")
        if self.phase == "over":
            lines.append(f"Game over ({self.end_reason}); ranking {self.ranking()}")
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
        turned card, closed-pile sizes; a renewed closed pile's cards (they lay open) but not
        their order; the sorted union of the never-renewed closed piles."""
        n = self.game.num_players
        d = self.deck
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
                "closed_cards": sorted(d.texts(sorted(self.closed[q])))
                if self.recycled[q] else None,
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
        their union (sizes kept), every renewed pile is reshuffled, and the seed is new."""
        new = self.clone()
        rng = random.Random(self.fresh_seed(seed))
        n = self.game.num_players
        dealt = [q for q in range(n) if not self.recycled[q]]
        # Sorted first, so the draw depends only on what is public and the seed.
        pool = sorted(c for q in dealt for c in self.closed[q])
        rng.shuffle(pool)
        i = 0
        for q in dealt:
            k = len(self.closed[q])
            new.closed[q] = pool[i:i + k]
            i += k
        for q in range(n):
            if self.recycled[q]:
                new.closed[q] = sorted(new.closed[q])
                rng.shuffle(new.closed[q])
        new.seed = rng.getrandbits(63)
        return new

    def audit(self) -> None:
        g = self.game
        n = g.num_players
        everything = [c for pile in self.closed for c in pile]
        everything += [c for pile in self.open_piles for c in pile]
        everything += [c for row in self.rows for c in row]
        everything += [c for _, row in self.completed for c in row]
        if self.pending is not None:
            everything.append(self.pending)
        assert sorted(everything) == list(self.deck.cards), "cards not conserved"
        for row in self.rows:
            assert [number(c) for c in row] == list(range(1, len(row) + 1)), f"bad row {row}"
            assert len(row) < HIGHEST, "a complete row was left in the middle"
        assert len(self.rows) <= g.max_rows
        for by, row in self.completed:
            assert 0 <= by < n
            assert [number(c) for c in row] == list(range(1, HIGHEST + 1)), "bad completed row"
        assert len(set(self.out_order)) == len(self.out_order)
        for q in range(n):
            assert (self.cards_left(q) == 0) == (q in self.out_order), f"P{q} out bookkeeping"
        expect = [0] * n
        if g.options.points:
            for by, row in self.completed:
                expect[by] += row_points(row)
            for place, q in enumerate(self.out_order):
                expect[q] += out_points(place)
        assert expect == self.points, f"points {self.points} != {expect}"
        assert self.phase != "card" or self.pending is not None
        assert self.phase != "turn" or self.pending is None
        assert (self.end_reason is not None) == (self.phase == "over")
        if self.phase != "over":
            assert self.to_act not in self.out_order
            assert self.turns < g.options.max_turns
            if not g.options.points:
                assert not self.out_order
        assert 0 <= self.pass_streak <= self.quiet_turns <= self.turns

    def clone(self) -> Clown15GoState:
        new = Clown15GoState.__new__(Clown15GoState)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.closed = [list(c) for c in self.closed]
        new.open_piles = [list(c) for c in self.open_piles]
        new.recycled = list(self.recycled)
        new.rows = [list(r) for r in self.rows]
        new.completed = [(by, list(r)) for by, r in self.completed]
        new.out_order = list(self.out_order)
        new.points = list(self.points)
        new._legal = None
        return new


def _cards(k: int) -> str:
    return "1 card" if k == 1 else f"{k} cards"


# -- loading hand-written positions ----------------------------------------------------------

_KEYS = {"to_act", "phase", "pending", "closed", "open", "recycled", "rows", "completed",
         "out_order", "points", "turns", "quiet_turns", "pass_streak", "placed_this_turn",
         "stale_recycle", "end_reason"}


def _int(obj: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(obj, bool) or not isinstance(obj, int) or not lo <= obj <= hi:
        raise InvalidStateError(f"{where} must be a whole number {lo}..{hi}, got {obj!r}")
    return obj


def _bool(obj: Any, where: str) -> bool:
    if not isinstance(obj, bool):
        raise InvalidStateError(f"{where} must be true or false, got {obj!r}")
    return obj


def _load_position(game: Clown15GoGame, pos: JSON, seed: int) -> Clown15GoState:
    """Build a state from a (possibly hand-written) position and check it fully. Fields other
    than ``closed``, ``open`` and ``rows`` have defaults (a fresh turn of player 0)."""
    n = game.num_players
    o = game.options
    d = game.deck
    extra = sorted(set(pos) - _KEYS)
    if extra:
        raise InvalidStateError(f"unknown Clown 15 Go position field {extra[0]!r}")
    s = Clown15GoState(game, seed)
    for key in ("closed", "open"):
        piles = pos.get(key)
        if not isinstance(piles, list) or len(piles) != n:
            raise InvalidStateError(f"'{key}' must list {n} piles (one per player)")
    s.closed = [d.parse_list(c, f"closed[{q}]") for q, c in enumerate(pos["closed"])]
    s.open_piles = [d.parse_list(c, f"open[{q}]") for q, c in enumerate(pos["open"])]
    rows = pos.get("rows", [])
    if not isinstance(rows, list):
        raise InvalidStateError("'rows' must be a list of rows")
    s.rows = [d.parse_list(r, f"rows[{i}]") for i, r in enumerate(rows)]
    for i, row in enumerate(s.rows):
        if [number(c) for c in row] != list(range(1, len(row) + 1)) or not row:
            raise InvalidStateError(f"rows[{i}] must run 1, 2, 3, ... from its bottom card")
        if len(row) >= HIGHEST:
            raise InvalidStateError(f"rows[{i}] is complete: it belongs in 'completed'")
    completed = pos.get("completed", [])
    if not isinstance(completed, list):
        raise InvalidStateError("'completed' must be a list of {by, cards}")
    for i, item in enumerate(completed):
        if not isinstance(item, dict) or set(item) != {"by", "cards"}:
            raise InvalidStateError(f"completed[{i}] must be an object {{by, cards}}")
        by = _int(item["by"], f"completed[{i}].by", 0, n - 1)
        cards = d.parse_list(item["cards"], f"completed[{i}].cards")
        if [number(c) for c in cards] != list(range(1, HIGHEST + 1)):
            raise InvalidStateError(f"completed[{i}] must be a whole row 1..15")
        s.completed.append((by, cards))
    pending = pos.get("pending")
    s.pending = None if pending is None else d.parse(pending)
    # Conservation: every card of the deck exactly once.
    everything = [c for p in s.closed for c in p] + [c for p in s.open_piles for c in p]
    everything += [c for r in s.rows for c in r] + [c for _, r in s.completed for c in r]
    if s.pending is not None:
        everything.append(s.pending)
    seen: set[int] = set()
    for c in everything:
        if c in seen:
            raise InvalidStateError(f"card {d.text(c)} appears twice")
        seen.add(c)
    missing = sorted(set(d.cards) - seen)
    if missing:
        raise InvalidStateError(
            f"{len(missing)} card(s) missing, e.g. {d.text(missing[0])}")
    recycled = pos.get("recycled", [False] * n)
    if not isinstance(recycled, list) or len(recycled) != n:
        raise InvalidStateError(f"'recycled' must list {n} true/false values")
    s.recycled = [_bool(x, f"recycled[{q}]") for q, x in enumerate(recycled)]
    out_order = pos.get("out_order", [])
    if not isinstance(out_order, list):
        raise InvalidStateError("'out_order' must be a list of players")
    s.out_order = [_int(q, "out_order[]", 0, n - 1) for q in out_order]
    if len(set(s.out_order)) != len(s.out_order):
        raise InvalidStateError("a player cannot go out twice")
    phase = pos.get("phase", "card" if s.pending is not None else "turn")
    if phase not in PHASES:
        raise InvalidStateError(f"phase must be one of {', '.join(PHASES)}")
    s.phase = phase
    s.to_act = _int(pos.get("to_act", 0), "to_act", 0, n - 1)
    # A game can end (a borrow empties another player) while the turned card is in hand.
    if (phase == "card" and s.pending is None) or (phase == "turn" and s.pending is not None):
        raise InvalidStateError("a turned card ('pending') goes with phase 'card' and only then")
    for q in range(n):
        if (s.cards_left(q) == 0) != (q in s.out_order):
            raise InvalidStateError(
                f"P{q} has {s.cards_left(q)} cards, so they are "
                f"{'' if s.cards_left(q) == 0 else 'not '}out: 'out_order' disagrees")
    if not o.points and len(s.out_order) > 1:
        raise InvalidStateError("in the basic game the first player out ends the game")
    # Points: recomputed, and must match if given.
    expect = [0] * n
    if o.points:
        for by, row in s.completed:
            expect[by] += row_points(row)
        for place, q in enumerate(s.out_order):
            expect[q] += out_points(place)
    points = pos.get("points", expect)
    if not isinstance(points, list) or points != expect or any(
            isinstance(x, bool) for x in points):
        raise InvalidStateError(
            f"'points' must be {expect} (completed rows and going out"
            f"{'' if o.points else '; the points rule is off'})")
    s.points = list(expect)
    s.turns = _int(pos.get("turns", 0), "turns", 0, o.max_turns)
    s.quiet_turns = _int(pos.get("quiet_turns", 0), "quiet_turns", 0, s.turns)
    s.pass_streak = _int(pos.get("pass_streak", 0), "pass_streak", 0, s.quiet_turns)
    s.placed_this_turn = _bool(pos.get("placed_this_turn", False), "placed_this_turn")
    s.stale_recycle = _bool(pos.get("stale_recycle", False), "stale_recycle")
    reason = pos.get("end_reason")
    if phase == "over":
        if reason not in END_REASONS:
            raise InvalidStateError(f"a finished game needs end_reason, one of "
                                    f"{', '.join(END_REASONS)}")
        if (reason == "went-out") != (not o.points and len(s.out_order) == 1):
            raise InvalidStateError("'went-out' ends a basic game whose winner has no cards")
        if (reason == "all-out") != (o.points and len(s.out_order) == n):
            raise InvalidStateError("'all-out' ends a points game when every player is out")
        if reason == "turn-limit" and s.turns < o.max_turns:
            raise InvalidStateError(f"'turn-limit' needs turns = max_turns ({o.max_turns})")
    else:
        if reason is not None:
            raise InvalidStateError("end_reason must be null while the game goes on")
        if s.to_act in s.out_order:
            raise InvalidStateError(f"P{s.to_act} is out and cannot be to act")
        if s.out_order and not o.points:
            raise InvalidStateError("a player is out: the basic game is over")
        if s.turns >= o.max_turns:
            raise InvalidStateError(f"turns must stay below max_turns ({o.max_turns})")
        still_in = n - len(s.out_order)
        # (A borrow this turn may have put a player out, shrinking the round: G3 is next
        # checked when the turn ends.)
        if not s.placed_this_turn and (s.quiet_turns >= o.stall_rounds * still_in
                                       or s.pass_streak >= still_in):
            raise InvalidStateError("quiet_turns has reached the stall limit (ruling G3)")
    s.end_reason = reason
    return s
