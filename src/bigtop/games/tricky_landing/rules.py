"""Tricky Landing as a pure state machine (the Tricky Landing rulebook, English edition;
readings T1–T8 in docs/tricky-landing.md).

The only action is a :class:`Throw`: a card from the hand, an aim point (cm from the target's
centre in the **thrower's frame**: ``x`` to their right, ``y`` away from them) and a spin
(revolutions per second, counter-clockwise positive). Landings are in table coordinates.
The landing is simulated (:mod:`bigtop.games.tricky_landing.physics`) from the state's seed
and the number of actions so far, so it is deterministic; each card lands before the next is
thrown. When every player has thrown, the trick is resolved
(:func:`bigtop.games.tricky_landing.tricks.resolve_trick`).

For search and RL the legal-action list is a finite grid: every card in hand × 9 aim points
× 3 spins (see :data:`GRID_AIMS`, :data:`GRID_SPINS`). ``apply`` also accepts any continuous
throw of a card in hand with ``|x|, |y| <= 45`` cm and ``|spin| <= 10`` rev/s.

>>> from bigtop import new_state
>>> s = new_state("tricky-landing", players=4, seed=3)
>>> s.current_player(), len(s.hands[0]), len(s.legal_actions())
(0, 11, 297)
>>> card = s.hands[0][0]
>>> s.apply(s.action_from_text(f"{card} 0 0 medium"))       # aim at the centre
>>> s.apply(Throw(s.hands[1][0], 2.5, -1.25, 4.0))           # any throw within bounds
>>> [c.player for c in s.table], s.current_player()
([0, 1], 2)
"""

from __future__ import annotations

import math
import random

from mypy_extensions import mypyc_attr

from bigtop.core.actions import Action, ActionTable, typed_text
from bigtop.core.errors import IllegalActionError, MalformedActionError, shown
from bigtop.core.game import JSON, TERMINAL, Game, State
from bigtop.core.rng import derive_normals, derive_rng, shuffle
from bigtop.core.text import Told, count, decimal, number, numbers
from bigtop.games.tricky_landing.actions import Throw
from bigtop.games.tricky_landing.cards import (
    HAND_SIZE,
    SUIT_NAMES,
    card_name,
    deck_for,
    is_card,
    leftover,
    sort_key,
    suit_of,
)
from bigtop.games.tricky_landing.options import TrickyLandingOptions
from bigtop.games.tricky_landing.physics import (
    Pose,
    Thrower,
    ThrowModel,
    seat_angle,
    wrap_degrees,
)
from bigtop.games.tricky_landing.position import load_position, problems
from bigtop.games.tricky_landing.tensor import TrickyLandingLayout
from bigtop.games.tricky_landing.tricks import Landing, Resolution, resolve_trick

__all__ = ["Throw", "TrickyLandingGame", "TrickyLandingState"]  # Throw lives in actions.py

AIM_LIMIT_CM = 45.0
"""A throw's aim coordinates must lie within ±45 cm of the target's centre."""
SPIN_LIMIT_REV_S = 10.0
"""A throw's spin must lie within ±10 revolutions per second."""
SPINS: dict[str, float] = {"none": 0.0, "low": 1.5, "medium": 3.0, "high": 6.0}
"""Named spins (rev/s) for typed actions."""
GRID_AIMS: tuple[tuple[float, float], ...] = (
    (0.0, 0.0), (5.0, 0.0), (-5.0, 0.0), (0.0, 5.0), (0.0, -5.0),
    (30.0, 0.0), (-30.0, 0.0), (0.0, 40.0), (0.0, -22.0))
"""The discrete aim points of the legal-action list, in the thrower's frame (x to the right,
y away from the thrower), so every seat gets the same choices (ruling T10): the centre, four
points 5 cm off it (on or next to the target) and four deliberate misses: 30 cm to the left
and right, 40 cm beyond and 22 cm short of the centre. Each touches the target at most 0.6%
of the time at the default skill 0.8, from every seat of 3–6 players and with every grid
spin (20,000 throws each; a long throw errs most along its line, so the miss beyond lies
farthest out: 18 cm beyond touched 9% even at skill 1, 28 cm beyond still 2.8%)."""
GRID_SPINS: tuple[float, ...] = (SPINS["low"], SPINS["medium"], SPINS["high"])


def _spin_word(spin: float) -> str:
    for name, v in SPINS.items():
        if v == spin:
            return "no spin" if v == 0 else f"{name} spin"
    return f"spin {number(spin)} rev/s"


def aim_words(x: float, y: float) -> str:
    """An aim in the thrower's frame in words, whole centimetres: "the target's centre",
    "4 cm beyond and 2 cm left of the target's centre" (the log speaks no coordinates)."""
    parts = []
    if abs(y) >= 0.5:
        parts.append(f"{abs(y):.0f} cm {'beyond' if y > 0 else 'short of'}")
    if abs(x) >= 0.5:
        parts.append(f"{abs(x):.0f} cm {'right of' if x > 0 else 'left of'}")
    return f"{' and '.join(parts)} the target's centre" if parts else "the target's centre"


def _number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


class TrickyLandingGame(Game[TrickyLandingOptions]):
    """Tricky Landing for 3–6 players.

    >>> g = TrickyLandingGame(3)
    >>> g.num_distinct_actions(), len(g.deck)
    (1080, 40)
    >>> g.action_from_int(g.action_to_int(Throw("g2", 0.0, 0.0, 3.0)))
    Throw(card='g2', x=0.0, y=0.0, spin=3.0)
    """

    name = "tricky-landing"
    title = "Tricky Landing"
    min_players = 3
    max_players = 6
    options_type = TrickyLandingOptions
    action_types = (Throw,)

    @classmethod
    def conformance_options(cls, num_players: int) -> list[dict[str, object]]:
        # Every alternative is played, each at one player count (spread so that the harness
        # stays fast), plus one combination; the defaults at every player count.
        singles: list[dict[str, object]] = []
        for info in TrickyLandingOptions.info():
            if info.choices is None:
                continue
            singles.extend({info.name: v} for v in info.choices if v != info.default)
        singles.append({"ties": "first-landed", "face_down_cards": "discarded",
                        "several_misses": "discarded", "rounds": 2, "skill": 0.5})
        k = num_players - cls.min_players
        span = cls.max_players - cls.min_players + 1
        # One skill per player, from clumsy to sure-handed, at every player count.
        skills = [round(0.6 + 0.2 * p, 1) for p in range(num_players)]
        return [{}, *singles[k::span], {"skill": tuple(skills), "first_player": num_players - 1}]

    def __init__(self, num_players: object,
                 options: TrickyLandingOptions | dict[str, object] | None = None) -> None:
        super().__init__(num_players, options)
        num_players = self.num_players  # checked by Game.__init__
        self.deck = deck_for(num_players)
        self.deck_set = frozenset(self.deck)
        self.hand_size = HAND_SIZE[num_players]
        self.leftover = leftover(num_players)
        self.rounds = self.options.rounds
        self.model: ThrowModel = self.options.throw_model()
        # One model per seat: only the skill differs (option skill, one or one per player).
        self.models = [self.options.throw_model(p) for p in range(num_players)]
        self.seats = [seat_angle(p, num_players) for p in range(num_players)]
        self.throwers = [Thrower(m, seat) for m, seat in zip(self.models, self.seats,
                                                               strict=True)]
        # Interned grid actions: legal lists are built from references.
        self.grid: dict[str, tuple[Throw, ...]] = {
            c: tuple(Throw(c, x, y, s) for (x, y) in GRID_AIMS for s in GRID_SPINS)
            for c in self.deck}
        self._all: list[Action] = [a for c in self.deck for a in self.grid[c]]
        self.action_table = ActionTable(self._all)
        # Each card's grid numbers: a run, in the deck's (= every hand's) order.
        size = len(GRID_AIMS) * len(GRID_SPINS)
        self.grid_numbers: dict[str, tuple[int, ...]] = {
            c: tuple(range(k * size, (k + 1) * size)) for k, c in enumerate(self.deck)}

    def _new_initial_state(self, seed: int) -> TrickyLandingState:
        state = TrickyLandingState(self, seed)
        # "Give that player the first player card": the seat of option first_player (P0).
        state.starter = self.options.first_player
        state._deal()
        return state

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """Shape of :meth:`observation_tensor` (see :mod:`bigtop.games.tricky_landing.tensor`)."""
        return (TrickyLandingLayout(self).size,)

    def observation_tensor(self, state: object, player: object) -> list[float]:
        """``player``'s observation as fixed-size floats, for OpenSpiel and PettingZoo (the
        layout refuses another game's state or no seat: typed ``object`` so that a compiled
        build makes the same refusal rather than its own TypeError)."""
        return TrickyLandingLayout(self).floats(state, player)

    def _state_from_position(self, position: JSON, seed: int) -> TrickyLandingState:
        state = TrickyLandingState(self, seed)
        load_position(state, position)
        return state


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class TrickyLandingState(State[TrickyLandingGame]):

    def __init__(self, game: TrickyLandingGame, seed: int) -> None:
        super().__init__(game, seed)
        n = game.num_players
        self.round = 0
        self.trick = 0
        self.starter = 0  # the round's starting player (the dealer sits to their right)
        self.leader = 0  # holder of the first player card: throws first in this trick
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.table: list[Landing] = []
        self.trump_card: str | None = None
        self.trump_suit: str | None = None
        self.won: list[list[str]] = [[] for _ in range(n)]  # face down in front of a player
        self.penalty: list[list[str]] = [[] for _ in range(n)]  # face up in front of a player
        self.discard: list[str] = []
        self.undealt: list[str] = []  # dealt-out leftovers: never seen this round
        self.hidden: dict[str, int] = {}  # card landed face down -> its thrower (who saw it)
        self.last_table: list[Landing] = []
        self.last_trump: str | None = None
        self._last_res: Resolution | None = None  # cache of resolution(), not state
        self.totals = [0] * n
        self.round_scores: list[list[int]] = []
        self.round_piles: list[list[list[int]]] = []  # per round, per player [down, up]
        self.finished = False

    # -- set-up -----------------------------------------------------------------------------
    @property
    def dealer(self) -> int:
        """"The player to the right of that player is the dealer" (clockwise = to the left)."""
        return (self.starter - 1) % self.game.num_players

    def _deal(self) -> None:
        g = self.game
        n = g.num_players
        cards = list(g.deck)
        shuffle(derive_rng(self.seed, "deal", self.round), cards)
        # "deals them face down, starting with the starting player and going clockwise"
        self.hands = [[] for _ in range(n)]
        for i in range(n * g.hand_size):
            self.hands[(self.starter + i) % n].append(cards[i])
        for h in self.hands:
            h.sort(key=sort_key)
        self.undealt = sorted(cards[n * g.hand_size:], key=sort_key)
        self.leader = self.starter
        self.trick = 0
        self.table = []
        self.won = [[] for _ in range(n)]
        self.penalty = [[] for _ in range(n)]
        self.discard = []
        self.hidden = {}
        self.last_table = []
        self.last_trump = None
        self._last_res = None
        self.trump_card = None
        if g.options.trump_between_rounds == "cleared":
            self.trump_suit = None

    # -- turn ---------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.finished:
            return TERMINAL
        return (self.leader + len(self.table)) % self.game.num_players

    def _legal_actions(self) -> list[Action]:
        grid = self.game.grid
        out: list[Action] = []
        for c in self.hands[self.current_player()]:
            out.extend(grid[c])
        return out

    def legal_action_numbers(self) -> list[int]:
        # A hand is sorted in the deck's order, and so are the grid's numbers: the list is
        # each card's run in turn, ascending, with no look-up per action (a test checks it
        # against the table).
        if self.finished:
            return []
        numbers = self.game.grid_numbers
        out: list[int] = []
        for c in self.hands[self.current_player()]:
            out.extend(numbers[c])
        return out

    def _throw_problem(self, action: Throw) -> str | None:
        """Why a throw is not legal now, or None."""
        p = self.current_player()
        if not isinstance(action.card, str) or action.card not in self.hands[p]:
            return f"P{p} has no card {shown(action.card)} in hand"
        for name, v, limit in (("x", action.x, AIM_LIMIT_CM), ("y", action.y, AIM_LIMIT_CM),
                               ("spin", action.spin, SPIN_LIMIT_REV_S)):
            if not _number(v):
                return f"the throw's {name} must be a finite number, got {shown(v)}"
            if abs(v) > limit:
                return f"the throw's {name} must lie within ±{limit:g}, got {v!r}"
        return None

    def _is_legal(self, action: Action) -> bool:
        """Any throw of a card in hand with aim and spin within bounds is legal, on the grid
        or not."""
        if type(action) is Throw and not self.finished:
            return self._throw_problem(action) is None
        return super()._is_legal(action)

    def _why_illegal(self, action: Action) -> str:
        if isinstance(action, Throw):
            return self._throw_problem(action) or super()._why_illegal(action)
        return super()._why_illegal(action)

    def _apply(self, action: Action) -> None:
        assert isinstance(action, Throw)
        pose = self._pose(action)
        self.hands[self.current_player()].remove(action.card)
        self._land(action.card, pose.x, pose.y, pose.rotation, pose.face_down)

    def _pose(self, action: Throw) -> Pose:
        # The throw's four release errors from one hash of (seed, action count).
        errors = derive_normals(self.seed, "throw", len(self.history))
        thrower = self.game.throwers[self.current_player()]
        return thrower.throw(float(action.x), float(action.y), float(action.spin), errors)

    def landing_of(self, action: Throw) -> Landing:
        """Where ``action``, thrown now by the current player, comes to rest: what ``apply``
        will put on the table. Summaries use it to show a round's last trick, which
        ``apply`` resolves and then clears with the next deal."""
        pose = self._pose(action)
        return Landing(self.current_player(), action.card, float(pose.x), float(pose.y),
                       wrap_degrees(float(pose.rotation)), bool(pose.face_down))

    def _land(self, card: str, x: float, y: float, rotation: float, face_down: bool) -> None:
        """The current player's ``card`` (already out of the hand) comes to rest."""
        p = self.current_player()
        self.table.append(Landing(p, card, float(x), float(y), wrap_degrees(float(rotation)),
                                  bool(face_down)))
        if face_down:
            self.hidden[card] = p
        self._legal = None
        if len(self.table) == self.game.num_players:
            self._resolve()

    def place_from_hand(self, card: str, x: float, y: float, rotation: float,
                        face_down: bool) -> None:
        """Land ``card`` from the current player's hand at an exact pose, with no throw and no
        history entry: scenarios built from explicit poses (tests, analysis) use this; replay
        from the history will not reproduce such a state."""
        if self.finished:
            raise IllegalActionError("the game is over")
        p = self.current_player()
        if card not in self.hands[p]:
            raise IllegalActionError(f"P{p} has no card {shown(card)} in hand")
        if not all(_number(v) for v in (x, y, rotation)):
            raise IllegalActionError("a pose needs finite numbers x, y and rotation")
        self.hands[p].remove(card)
        self._land(card, x, y, rotation, face_down)

    def resolution(self) -> Resolution | None:
        """How the last finished trick was resolved (recomputed from its poses)."""
        if not self.last_table:
            return None
        if self._last_res is None:
            self._last_res = resolve_trick(self.last_table, self.last_trump, self.game.options,
                                           self.game.model)
        return self._last_res

    def _resolve(self) -> None:
        g = self.game
        n = g.num_players
        table = self.table
        before = self.trump_suit
        res = resolve_trick(table, before, g.options, g.model)
        for trick in res.tricks:
            for k, w in enumerate(trick.winners):  # each winner takes their share
                self.won[table[w].player].extend([table[i].card for i in trick.taken[k]])
            self.discard.extend([table[i].card for i in trick.discarded])
        if res.new_trump is not None:
            card = table[res.new_trump].card
            if self.trump_card is not None:
                self.discard.append(self.trump_card)
            self.trump_card = card
            self.trump_suit = suit_of(card)
            self.hidden.pop(card, None)  # T7: turned face up beside the play area
        for i in res.kept_face_up:
            self.penalty[table[i].player].append(table[i].card)
            self.hidden.pop(table[i].card, None)
        self.discard.extend([table[i].card for i in res.missed_discarded])
        self.last_table = table
        self.last_trump = before
        self._last_res = res
        self.table = []
        winners = {table[w].player for t in res.tricks for w in t.winners}
        if g.options.next_leader == "trick-winner" and len(winners) == 1:
            self.leader = winners.pop()
        else:
            self.leader = (self.leader + 1) % n
        self.trick += 1
        if self.trick == g.hand_size:
            self._end_round()

    def _end_round(self) -> None:
        g = self.game
        n = g.num_players
        piles = [[len(self.won[q]), len(self.penalty[q])] for q in range(n)]
        scores = [d - 2 * u for d, u in piles]
        self.round_piles.append(piles)
        self.round_scores.append(scores)
        for q in range(n):
            self.totals[q] += scores[q]
        self.round += 1
        if self.round >= g.rounds:
            self.finished = True
            return
        if g.options.next_round_leader == "card-holder":
            self.starter = self.leader
        else:
            self.starter = (self.starter + 1) % n
        self._deal()

    # -- results ----------------------------------------------------------------------------
    def scores(self) -> list[float]:
        return [float(t) for t in self.totals]

    def result(self) -> JSON:
        out = super().result()
        out["round_scores"] = [list(r) for r in self.round_scores]
        return out

    # -- text -------------------------------------------------------------------------------
    def _describe(self, action: Action, player: int | None) -> str:
        p = self.current_player()
        if not isinstance(action, Throw):
            return f"P{p}: {action!r}"
        # A card may land face down: only its thrower may be told which card it is (the
        # table shows it once it lands face up).
        what = (f"the {card_name(action.card)}" if player == p and is_card(action.card)
                else "a card")
        t = Told(p, player)  # "You throw …" to the thrower, "P1 throws …" to the others
        return (f"{t.who} {t.verb('throws')} {what} at {aim_words(action.x, action.y)} with "
                f"{_spin_word(action.spin)}")

    def _render(self, player: int | None = None) -> str:
        g = self.game
        n = g.num_players
        if self.finished:
            head = (f"Tricky Landing — game over after {count(g.rounds, 'round')}, totals "
                    f"{numbers(self.totals)}")
        else:
            head = (f"Tricky Landing — round {self.round + 1} of {g.rounds}, trick "
                    f"{self.trick + 1} of {g.hand_size}, totals {numbers(self.totals)}")
        trump = (f"{card_name(self.trump_card)} (trump {SUIT_NAMES[self.trump_suit or 'y']})"
                 if self.trump_card else
                 (f"none (trump suit {SUIT_NAMES[self.trump_suit]})" if self.trump_suit
                  else "none (no trump suit)"))
        lines = [head, f"Trump card: {trump}; first player card: P{self.leader}; "
                 f"dealer P{self.dealer}"]

        def show(c: Landing) -> str:
            seen = c.card not in self.hidden or self.hidden[c.card] == player
            name = card_name(c.card) if seen else "a card"
            face = "face down" if c.face_down else "face up"
            return (f"  P{c.player}: {name} {face} at ({decimal(c.x, 1)}, {decimal(c.y, 1)}) cm,"
                    f" turned {decimal(c.rotation, 0)}°")

        if self.last_table:
            res = self.resolution()
            assert res is not None
            trump = (f"trump {suit_word(self.last_trump)}" if self.last_trump is not None
                     else "no trump")
            lines.append(f"Last trick ({trump}):")
            # Where each card landed matters until the next trick starts; then only its
            # outcome is kept, so the view stays one screen high with six players.
            for i, c in enumerate(self.last_table if not self.table else []):
                k = res.trick_of[i]
                lines.append(show(c) + (f" — trick {k + 1}" if k >= 0 else " — missed"))
            lines.extend("  " + line for line in describe_resolution(res, self.last_table))
        if self.table:
            lines.append("On the table (landing order):")
            lines.extend(show(c) for c in self.table)
        for q in range(n):
            tag = "you" if q == player else count(len(self.hands[q]), "card")
            lines.append(f"  P{q} ({tag}): {len(self.won[q])} face down (+1 each), "
                         f"{len(self.penalty[q])} face up (−2 each)"
                         + (f": {' '.join(self.penalty[q])}" if self.penalty[q] else ""))
        if player is not None and not self.finished:
            lines.append("Your hand: " + " ".join(self.hands[player]))
        return "\n".join(lines)

    def action_from_text(self, text: object) -> Action:
        """``"y7"``, ``"y7 0 0"``, ``"y7 0 0 medium"``, ``"y7 -3.5 2 4.5"``: card, aim (cm)
        and spin (a name from :data:`SPINS` or rev/s); aim defaults to the centre, spin to
        medium."""
        text = typed_text(text, self.game.title)
        parts = text.replace(",", " ").split()
        if not parts or len(parts) not in (1, 2, 3, 4):
            raise MalformedActionError(
                f"cannot read {shown(text)}: type CARD [X Y] [SPIN], e.g. 'y7 0 0 medium'")
        card = parts[0].lower()
        if not is_card(card):
            raise MalformedActionError(f"{shown(parts[0])} is not a card (e.g. y7, b10)")
        rest = parts[1:]
        spin = SPINS["medium"]
        if len(rest) in (1, 3):
            word = rest.pop().lower()
            if word in SPINS:
                spin = SPINS[word]
            else:
                try:
                    spin = float(word)
                except ValueError:
                    raise MalformedActionError(
                        f"spin {shown(word)} is not a number or one of "
                        f"{', '.join(SPINS)}") from None
        x = y = 0.0
        if len(rest) == 2:
            try:
                x, y = float(rest[0]), float(rest[1])
            except ValueError:
                raise MalformedActionError(f"aim {shown(rest[0])} {shown(rest[1])} is not two "
                                           "numbers") from None
        if not all(math.isfinite(v) for v in (x, y, spin)):
            raise MalformedActionError("aim and spin must be finite numbers")
        for a in self.game.grid.get(card, ()):
            if (a.x, a.y, a.spin) == (x, y, spin):
                return a  # the interned grid action
        return Throw(card, x, y, spin)

    # -- JSON -------------------------------------------------------------------------------
    def _position_json(self) -> JSON:
        return {
            "round": self.round,
            "trick": self.trick,
            "starter": self.starter,
            "leader": self.leader,
            "hands": [list(h) for h in self.hands],
            "table": [c.to_json() for c in self.table],
            "trump_card": self.trump_card,
            "trump_suit": self.trump_suit,
            "won": [list(w) for w in self.won],
            "penalty": [list(p) for p in self.penalty],
            "discard": list(self.discard),
            "undealt": list(self.undealt),
            "hidden": dict(sorted(self.hidden.items())),
            "last_table": [c.to_json() for c in self.last_table],
            "last_trump": self.last_trump,
            "totals": list(self.totals),
            "round_scores": [list(r) for r in self.round_scores],
            "round_piles": [[list(x) for x in r] for r in self.round_piles],
            "finished": self.finished,
        }

    def _seen(self, card: str, player: int | None) -> str | None:
        owner = self.hidden.get(card)
        return card if owner is None or owner == player else None

    def _landing_view(self, c: Landing, player: int | None) -> JSON:
        out = c.to_json()
        out["card"] = self._seen(c.card, player)
        return out

    def _observation(self, player: int | None) -> JSON:
        res = self.resolution()
        return {
            "game": self.game.name,
            "player": player,
            "round": self.round,
            "rounds": self.game.rounds,
            "trick": self.trick,
            "tricks_per_round": self.game.hand_size,
            "starter": self.starter,
            "dealer": self.dealer,
            "leader": self.leader,
            "to_act": self.current_player(),
            "hand": list(self.hands[player]) if player is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "table": [self._landing_view(c, player) for c in self.table],
            "trump_card": self.trump_card,
            "trump_suit": self.trump_suit,
            "won": [[self._seen(c, player) for c in w] for w in self.won],
            "penalty": [list(p) for p in self.penalty],
            "discard": [self._seen(c, player) for c in self.discard],
            "undealt": len(self.undealt),
            "last_trick": None if res is None else {
                "trump_suit": self.last_trump,
                "table": [self._landing_view(c, player) for c in self.last_table],
                "resolution": res.to_json(),
            },
            "totals": list(self.totals),
            "round_scores": [list(r) for r in self.round_scores],
            "finished": self.finished,
        }

    def _resample_hidden(self, player: int, seed: int) -> TrickyLandingState:
        """Redraw what ``player`` cannot know — the other hands, the undealt leftovers and the
        cards others threw face down this round — and the seed. The unseen cards are sorted,
        shuffled and dealt into the unseen places in a fixed order (hands by player, the
        undealt pile, then face-down cards on the table, in the piles and in the discard), so
        the draw depends only on what ``player`` sees and on ``seed``."""
        n = self.game.num_players
        rng = random.Random(self.fresh_seed(seed))

        def secret(c: str) -> bool:
            owner = self.hidden.get(c)
            return owner is not None and owner != player

        # The unseen places, in an order the observation shows.
        slots = [c.card for c in self.table if secret(c.card)]
        slots += [c for w in self.won for c in w if secret(c)]
        slots += [c for c in self.discard if secret(c)]
        others = [q for q in range(n) if q != player]
        pool = [c for q in others for c in self.hands[q]] + self.undealt + slots
        pool.sort(key=sort_key)
        shuffle(rng, pool)
        new = self.clone()
        at = 0
        for q in others:
            k = len(self.hands[q])
            new.hands[q] = sorted(pool[at:at + k], key=sort_key)
            at += k
        new.undealt = sorted(pool[at:at + len(self.undealt)], key=sort_key)
        at += len(self.undealt)
        sigma = dict(zip(slots, pool[at:], strict=True))

        def m(c: str) -> str:
            return sigma.get(c, c)

        def ml(c: Landing) -> Landing:
            return c if c.card not in sigma else Landing(
                c.player, sigma[c.card], c.x, c.y, c.rotation, c.face_down)

        new.table = [ml(c) for c in self.table]
        new.last_table = [ml(c) for c in self.last_table]
        new._last_res = None
        new.won = [[m(c) for c in w] for w in self.won]
        new.discard = [m(c) for c in self.discard]
        new.hidden = {m(c): owner for c, owner in self.hidden.items()}
        # This round's throws in the history follow the face-down cards (earlier rounds'
        # cards were reshuffled and are not remapped).
        count = n * self.trick + len(self.table) if not self.finished else 0
        if count and sigma:
            new.history = self.history[:-count] + [
                a if not isinstance(a, Throw) or a.card not in sigma
                else Throw(sigma[a.card], a.x, a.y, a.spin) for a in self.history[-count:]]
        new.seed = rng.getrandbits(63)
        new._legal = None
        return new

    def problems(self) -> list[str]:
        return problems(self)

    def clone(self) -> TrickyLandingState:
        # Field by field: a compiled class has no __dict__ to copy (a test checks that a
        # clone has every attribute of the original).
        new = TrickyLandingState(self.game, self.seed)
        new.history = list(self.history)
        new.round = self.round
        new.trick = self.trick
        new.starter = self.starter
        new.leader = self.leader
        new.trump_card = self.trump_card
        new.trump_suit = self.trump_suit
        new.last_trump = self.last_trump
        new._last_res = self._last_res
        new.finished = self.finished
        new.hands = [list(h) for h in self.hands]
        new.table = list(self.table)
        new.won = [list(w) for w in self.won]
        new.penalty = [list(p) for p in self.penalty]
        new.discard = list(self.discard)
        new.undealt = list(self.undealt)
        new.hidden = dict(self.hidden)
        new.last_table = list(self.last_table)
        new.totals = list(self.totals)
        new.round_scores = [list(r) for r in self.round_scores]
        new.round_piles = [[list(x) for x in r] for r in self.round_piles]
        new._legal = None
        return new


def suit_word(suit: str | None) -> str:
    return "none" if suit is None else SUIT_NAMES[suit]


def _packed(head: str, items: list[str], width: int = 76) -> list[str]:
    """``head`` and the comma-separated ``items`` in as few lines of at most ``width``
    characters as whole items allow (the callers indent them by two)."""
    lines = [head]
    for k, item in enumerate(items):
        word = item + ("," if k < len(items) - 1 else "")
        if len(lines[-1]) + 1 + len(word) > width:
            lines.append("  " + word)
        else:
            lines[-1] += " " + word
    return lines


def describe_resolution(res: Resolution, table: list[Landing]) -> list[str]:
    """Human lines saying what happened to a resolved trick's cards."""
    out = []
    for k, t in enumerate(res.tricks):
        if not t.winners:
            out.append(f"trick {k + 1}: every card face down, "
                       + ("discarded" if len(t.members) == 1
                          else f"all {len(t.members)} discarded"))
            continue
        who = " and ".join(f"P{table[w].player}" for w in t.winners)
        took = " and ".join(str(len(x)) for x in t.taken)
        cards = "card" if all(len(x) == 1 for x in t.taken) else "cards"
        extra = f", {len(t.discarded)} discarded" if t.discarded else ""
        lead = f"lead {suit_word(t.lead)}" if t.lead is not None else "no lead suit"
        out.append(f"trick {k + 1}: {lead}; won by {who} (taking {took} {cards}{extra})")
    if res.new_trump is not None:
        out.append(f"the lone miss {card_name(table[res.new_trump].card)} is the new trump card")
    # Several misses share one line: at six players they would take six lines of an 80x24
    # terminal's board.
    kept = [(f"P{table[i].player}", card_name(table[i].card)) for i in res.kept_face_up]
    if len(kept) == 1:
        out.append(f"{kept[0][0]} keeps the missed {kept[0][1]} face up")
    elif kept:
        out.extend(_packed("missed, each kept face up by its thrower:",
                           [f"{who} {card}" for who, card in kept]))
    gone = [f"P{table[i].player}" for i in res.missed_discarded]
    if len(gone) == 1:
        out.append(f"the missed card of {gone[0]} is discarded")
    elif gone:
        out.append("the missed cards of " + ", ".join(gone) + " are discarded")
    return out
