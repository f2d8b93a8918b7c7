"""SCOUT as a pure state machine (Oink Games; the Finnish edition's rulebook, readings S1–S7
in docs/scout.md).

A turn is one of: **Show** a set; **Scout** a card from an end of the active set and then
**Insert** it into the hand (two actions, so legal-action lists stay short); or **Scout & Show**:
a Scout with ``and_show=True``, an Insert, then a Show. Before a player's first action of a round
they may **TurnHand** (ruling S1).

>>> from bigtop import new_state
>>> s = new_state("scout", players=3, seed=2)
>>> s.current_player(), s.phase
(0, 'turn')
>>> all(a.kind in ("show", "turn-hand") for a in s.legal_actions())  # S4: the first must Show
True
"""

from __future__ import annotations

import random
from typing import Final, cast

from mypy_extensions import mypyc_attr

from bigtop.core.actions import Action, ActionTable, typed_text
from bigtop.core.errors import MalformedActionError, shown
from bigtop.core.game import JSON, TERMINAL, Game, State
from bigtop.core.rng import derive_rng, shuffle
from bigtop.core.text import Told, count
from bigtop.games.scout.actions import Insert, Pass, Scout, Show, TurnHand
from bigtop.games.scout.cards import HAND_SIZE, Card, canonical, deck_for, show_card
from bigtop.games.scout.options import ScoutOptions
from bigtop.games.scout.position import load_position, problems

__all__ = [  # the actions and options live in their own modules; importable from here too
    "Insert", "InsertCheck", "Pass", "Scout", "ScoutGame", "ScoutOptions", "ScoutState", "Show",
    "TurnHand",
]

# -- the game -------------------------------------------------------------------------------

# The action classes come from an uncompiled module, and compiled code looks an imported name
# up in the module's dict at every use; as Final aliases they are C statics.
_SHOW: Final = Show
_SCOUT: Final = Scout
_INSERT: Final = Insert
_TURN_HAND: Final = TurnHand


def _strength(tops: list[int], start: int, length: int) -> int:
    """Strength of a valid set as one integer: more cards, then same-number over run, then
    higher numbers. Returns -1 if the cards do not form a valid set."""
    if length == 1:
        return (2 + 1) * 16 + tops[start]
    first, second = tops[start], tops[start + 1]
    step = second - first
    if step not in (-1, 0, 1):
        return -1
    for i in range(start + 2, start + length):
        if tops[i] - tops[i - 1] != step:
            return -1
    same = 1 if step == 0 else 0
    low = min(first, tops[start + length - 1])
    return (length * 2 + same) * 16 + low


def _valid_sets(tops: list[int]) -> list[tuple[int, int, int]]:
    """Every valid set in hand order as (start, length, strength)."""
    out = []
    n = len(tops)
    for i in range(n):
        v = tops[i]
        out.append((i, 1, 48 + v))
        if i + 1 < n:
            step = tops[i + 1] - v
            if step in (-1, 0, 1):
                same = 1 if step == 0 else 0
                j = i + 1
                while True:
                    length = j - i + 1
                    low = v if step >= 0 else tops[j]
                    out.append((i, length, (length * 2 + same) * 16 + low))
                    if j + 1 < n and tops[j + 1] - tops[j] == step:
                        j += 1
                    else:
                        break
    return out


def _best_strength(tops: list[int]) -> int:
    """The strength of the strongest valid set (a maximal run dominates its parts)."""
    best = -1
    n = len(tops)
    i = 0
    for v in tops:
        if 48 + v > best:
            best = 48 + v
    while i < n - 1:
        step = tops[i + 1] - tops[i]
        if step not in (-1, 0, 1):
            i += 1
            continue
        j = i + 1
        while j + 1 < n and tops[j + 1] - tops[j] == step:
            j += 1
        length = j - i + 1
        low = tops[i] if step >= 0 else tops[j]
        s = (length * 2 + (1 if step == 0 else 0)) * 16 + low
        if s > best:
            best = s
        i = j
    return best


def _ending_strengths(tops: list[int]) -> list[int]:
    """For each index j, the strength of the strongest valid set that ends at j."""
    out = []
    same = up = down = 1
    for j, v in enumerate(tops):
        if j:
            d = v - tops[j - 1]
            same = same + 1 if d == 0 else 1
            up = up + 1 if d == 1 else 1
            down = down + 1 if d == -1 else 1
        best = (same * 2 + 1) * 16 + v
        if up > 1 and up * 32 + v - up + 1 > best:
            best = up * 32 + v - up + 1
        if down > 1 and down * 32 + v > best:
            best = down * 32 + v
        out.append(best)
    return out


class InsertCheck:
    """Answers "after inserting number v at position p, can some set beat ``beat``?" in O(1)
    per question after O(hand) set-up: a set either lies wholly left or right of the new card
    (prefix/suffix bests), or runs through it (measured from its neighbours)."""

    def __init__(self, tops: list[int], beat: int) -> None:
        self.tops = tops
        self.beat = beat
        n = len(tops)
        ending = _ending_strengths(tops)
        starting = _ending_strengths(tops[::-1])[::-1]
        self.prefix = [-1] * (n + 1)  # best set inside tops[:p]
        for j in range(n):
            self.prefix[j + 1] = max(self.prefix[j], ending[j])
        self.suffix = [-1] * (n + 1)  # best set inside tops[p:]
        for j in range(n - 1, -1, -1):
            self.suffix[j] = max(self.suffix[j + 1], starting[j])

    def ok(self, p: int, v: int) -> bool:
        beat = self.beat
        if self.prefix[p] > beat or self.suffix[p] > beat:
            return True
        return _through_strength(self.tops, p, v) > beat


def _through_strength(tops: list[int], p: int, v: int) -> int:
    """The strongest set that uses number ``v`` inserted before position ``p``."""
    n = len(tops)
    best = 48 + v
    for step in (0, 1, -1):
        left = 0
        while p - 1 - left >= 0 and tops[p - 1 - left] == v - step * (left + 1):
            left += 1
        right = 0
        while p + right < n and tops[p + right] == v + step * (right + 1):
            right += 1
        length = left + right + 1
        if length > 1:
            low = v if step == 0 else min(v - step * left, v + step * right)
            best = max(best, (length * 2 + (1 if step == 0 else 0)) * 16 + low)
    return best


def _log_copy(entry: JSON) -> JSON:
    """A round-log entry for JSON: its lists copied too, so that changing the JSON (a caller
    editing a position) cannot change the state (clones share entries: play never changes
    one once written)."""
    return {k: list(v) if isinstance(v, list) else v for k, v in entry.items()}


class ScoutGame(Game[ScoutOptions]):
    """SCOUT for 2–5 players.

    >>> g = ScoutGame(4)
    >>> g.num_distinct_actions()
    1086
    >>> g.action_from_int(g.action_to_int(Show(2, 3)))
    Show(start=2, length=3)
    """

    name = "scout"
    title = "SCOUT"
    min_players = 2
    max_players = 5
    options_type = ScoutOptions
    action_types = (Show, Scout, Insert, TurnHand, Pass)

    def __init__(
        self, num_players: object, options: ScoutOptions | dict[str, object] | None = None
    ) -> None:
        super().__init__(num_players, options)
        num_players = self.num_players  # checked by Game.__init__
        self.deck = deck_for(num_players)
        # faces[1][i]: deck[i] upside down; shared tuples, so a deal builds none.
        self.faces: list[list[Card]] = [list(self.deck), [(b, a) for a, b in self.deck]]
        self.deck_set = frozenset(self.deck)
        self.hand_size = HAND_SIZE[num_players]
        self.rounds = self.options.rounds or num_players
        # The largest hand possible: every dealt card.
        self.max_hand = num_players * self.hand_size
        # Interned actions: the hot loop hands out references, never builds objects.
        self.pass_action = Pass()
        self.turn_hand = TurnHand()
        self.scouts = {(e, t): Scout(e, t) for e in ("left", "right") for t in (False, True)}
        # scout_lists[and_show][k]: the Scouts of an active set of k + 1 cards, 1 or more (a
        # one-card set is scouted from the left only).
        self.scout_lists: list[list[list[Action]]] = [
            [[self.scouts["left", t]], [self.scouts["left", t], self.scouts["right", t]]]
            for t in (False, True)]
        # The rule options the hot loop asks about, as plain attributes.
        opts = self.options
        self.scout_last_allowed = opts.scout_last_card != "forbidden"
        self.scout_empties_table = opts.scout_last_card == "empties-table"
        self.turn_before_first = opts.hand_turn == "before-first-action"
        self.turn_off = opts.hand_turn == "off"
        self.exempt_unbeaten = opts.exemption == "unbeaten-set"
        self.stall_turns = opts.stall_turns
        h = self.max_hand
        self.inserts = [(Insert(p, False), Insert(p, True)) for p in range(h + 1)]
        # insert_lists[k]: every Insert into a hand of k cards, in legal-action order.
        self.insert_lists: list[list[Action]] = [
            [a for pair in self.inserts[: k + 1] for a in pair] for k in range(h + 1)]
        # shows[start][length]; length 0 is a placeholder that is never handed out.
        self.shows = [[Show(s, max(n, 1)) for n in range(h - s + 1)] for s in range(h)]
        self._all: list[Action] = [self.pass_action, self.turn_hand, *self.scouts.values()]
        for pair in self.inserts:
            self._all.extend(pair)
        for row in self.shows:
            self._all.extend(row[1:])
        self.action_table = ActionTable(self._all)

    @classmethod
    def conformance_options(cls, num_players: int) -> list[dict[str, object]]:
        return [
            {},
            {"hand_turn": "any-turn-once", "scout_last_card": "forbidden"},
            {"hand_turn": "off", "exemption": "none", "rounds": 1},
            {"scout_last_card": "ends-round-at-owner", "first_player": num_players - 1},
        ]

    def _new_initial_state(self, seed: int) -> ScoutState:
        state = ScoutState(self, seed)
        state._deal()
        return state

    def _state_from_position(self, position: JSON, seed: int) -> ScoutState:
        state = ScoutState(self, seed)
        load_position(state, position)
        return state


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class ScoutState(State[ScoutGame]):

    def __init__(self, game: ScoutGame, seed: int) -> None:
        super().__init__(game, seed)
        n = game.num_players
        self.round = 0
        self.to_act = 0
        self.phase = "turn"
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        # known[p][i]: that card's face is public (it was scouted from the table).
        self.known: list[list[bool]] = [[] for _ in range(n)]
        self.active: list[Card] = []
        self.active_owner: int | None = None
        self.captured: list[list[Card]] = [[] for _ in range(n)]
        self.scout_tokens = [0] * n
        self.show_tokens = [True] * n
        self.hand_decided = [False] * n  # S1: the hand-turn chance is used or gone
        self.pending: Card | None = None
        self.pending_and_show = False
        self.unused: list[Card] = []
        self.totals = [0] * n
        self.round_scores: list[list[int]] = []
        # One entry per finished round: the score's components, for replays and audit().
        self.round_log: list[JSON] = []
        self.finished = False
        # S9: turns in a row, this round, that ended with no set beaten.
        self.quiet_turns = 0

    # -- set-up -----------------------------------------------------------------------------
    @property
    def start_player(self) -> int:
        """The round's starting player: ``first_player`` in the first round, then clockwise."""
        return (self.game.options.first_player + self.round) % self.game.num_players

    def _deal(self) -> None:
        g = self.game
        rng = derive_rng(self.seed, "deal", self.round)
        # Sorting by random keys is a uniform shuffle and much faster than random.shuffle.
        size = len(g.deck)
        draw = rng.random
        keys = [draw() for _ in range(size)]
        order = sorted(range(size), key=keys.__getitem__)  # the shuffled deck, by index
        flips = rng.getrandbits(size)  # random orientation, one bit per card
        faces = g.faces
        n, k = g.num_players, g.hand_size
        for p in range(n):
            hand: list[Card] = []
            for i in range(p * k, (p + 1) * k):
                hand.append(faces[flips >> i & 1][order[i]])
            self.hands[p] = hand
            self.known[p] = [False] * k
            self.captured[p] = []
        upright = faces[0]
        self.unused = [upright[order[i]] for i in range(n * k, size)]
        self.active = []
        self.active_owner = None
        self.scout_tokens = [0] * n
        self.show_tokens = [True] * n
        self.hand_decided = [g.turn_off] * n
        self.pending = None
        self.pending_and_show = False
        self.phase = "turn"
        self.quiet_turns = 0
        self.to_act = self.start_player

    # -- protocol ---------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.finished else self.to_act

    def active_strength(self) -> int:
        """The strength of the set on the table (-1: none, or not a valid set)."""
        if not self.active:
            return -1
        return _strength([c[0] for c in self.active], 0, len(self.active))

    def _show_actions(self, hand: list[Card], beat: int) -> list[Action]:
        """Shows stronger than ``beat``, by start then length. Strength grows with length
        first, so only windows at least as long as the active set are looked at."""
        shows = self.game.shows
        tops = [c[0] for c in hand]
        n = len(tops)
        min_len = max(1, beat // 32)
        singles = min_len == 1
        out: list[Action] = []
        for i in range(n):
            v = tops[i]
            row = shows[i]
            if singles and 48 + v > beat:
                out.append(row[1])
            j = i + 1
            if j >= n:
                break
            step = tops[j] - v
            if step == 0:
                kind = 16  # same-number sets rank above runs of their size
            elif step == 1 or step == -1:
                kind = 0
            else:
                continue
            expect = tops[j] + step
            while True:
                length = j - i + 1
                if length >= min_len and length * 32 + kind + (
                        v if step >= 0 else tops[j]) > beat:
                    out.append(row[length])
                j += 1
                if j >= n or tops[j] != expect:
                    break
                expect += step
        return out

    def _legal_actions(self) -> list[Action]:
        g = self.game
        p = self.to_act
        hand = self.hands[p]
        if self.phase == "insert":
            if not self.pending_and_show:
                return g.insert_lists[len(hand)]  # shared; legal lists are read-only
            inserts = g.inserts[: len(hand) + 1]
            # After Scout & Show the card must go where a Show is still possible.
            assert self.pending is not None
            top, bottom = self.pending
            check = InsertCheck([c[0] for c in hand], self.active_strength())
            out: list[Action] = []
            for pos, (plain, flipped) in enumerate(inserts):
                if check.ok(pos, top):
                    out.append(plain)
                if check.ok(pos, bottom):
                    out.append(flipped)
            return out
        beat = self.active_strength()
        out = self._show_actions(hand, beat)
        can_show = bool(out)
        if self.phase == "show":
            return out
        active = self.active
        if active and (len(active) > 1 or g.scout_last_allowed):
            two = 1 if len(active) > 1 else 0
            out.extend(g.scout_lists[0][two])
            if self.show_tokens[p]:
                if can_show:
                    # What beats the whole active set beats it less one card.
                    out.extend(g.scout_lists[1][two])
                else:
                    best = _best_strength([c[0] for c in hand])
                    for scout in g.scout_lists[1][two]:
                        if self._scout_and_show_possible(cast(Scout, scout).end, best):
                            out.append(scout)
        # S5: a pass whenever neither Show nor Scout is possible; turning the hand stays a
        # choice beside it, never the only way on.
        if not out:
            out.append(g.pass_action)
        if not self.hand_decided[p]:
            out.insert(0, g.turn_hand)
        return out


    def _reduced_active(self, end: str) -> list[int]:
        tops = [c[0] for c in self.active]
        return tops[1:] if end == "left" else tops[:-1]

    def strength_after_scout(self, end: str) -> int:
        """The strength a Show must beat once the card at ``end`` of the active set is
        scouted (-1 when that leaves the table empty)."""
        rest = self._reduced_active(end)
        return _strength(rest, 0, len(rest)) if rest else -1

    def _scout_and_show_possible(self, end: str, hand_best: int) -> bool:
        """Scout & Show needs a Show afterwards: some insertion must leave a set that beats
        what remains of the active set."""
        beat = self.strength_after_scout(end)
        if hand_best > beat:
            return True  # insert at the far end: no set is broken
        # Every set wholly inside the hand is too weak: the new card must be part of it.
        tops = [c[0] for c in self.hands[self.to_act]]
        card = self.active[0] if end == "left" else self.active[-1]
        return any(_through_strength(tops, pos, v) > beat
                   for v in card for pos in range(len(tops) + 1))

    def _why_illegal(self, action: Action) -> str:
        p = self.to_act
        if isinstance(action, Show):
            hand = self.hands[p]
            if self.phase == "insert":
                return "insert the scouted card first"
            if not (action.start >= 0 and action.length >= 1
                    and action.start + action.length <= len(hand)):
                return f"there are no cards {action.start}..{action.start + action.length - 1} " \
                       f"in a hand of {len(hand)}"
            st = _strength([c[0] for c in hand], action.start, action.length)
            if st < 0:
                return "those cards are neither all the same number nor consecutive numbers"
            return "that set is not stronger than the active set"
        if isinstance(action, Scout):
            if self.phase != "turn":
                return "you cannot scout now"
            if not self.active:
                return "there is no active set to scout from"
            if action.and_show and not self.show_tokens[p]:
                return "your Scout & Show token is spent this round"
            if len(self.active) == 1 and not self.game.scout_last_allowed:
                return ("the last card of the active set may not be scouted in this game "
                        "(scout_last_card=forbidden)")
            if action.end == "right" and len(self.active) == 1:
                # Its one card is at both ends; the action list names it once, as left.
                return ("a one-card active set is scouted from the left end (both ends are "
                        "the same card): scout left")
            if action.and_show:
                return "no Show would be possible after that Scout"
            return "that card may not be scouted"
        if isinstance(action, Insert):
            if self.phase != "insert":
                return "there is no scouted card to insert"
            if not 0 <= action.position <= len(self.hands[p]):
                return f"position must be 0..{len(self.hands[p])}"
            return "after Scout & Show the card must go where a Show is still possible"
        if isinstance(action, TurnHand):
            # The refusal names the reading of S1 in play (option hand_turn).
            g = self.game
            if g.turn_off:
                return "the hand is never turned in this game (hand_turn=off)"
            if g.turn_before_first:
                return "the hand may be turned only once per round, before your first action"
            if self.hand_decided[p]:
                return "the hand may be turned only once per round, and yours was"
            return "the hand may be turned only at the start of your turn"
        return "a pass is allowed only when nothing else is possible"

    def _apply(self, action: Action) -> None:
        p = self.to_act
        hand = self.hands[p]
        known = self.known[p]
        t = type(action)
        if t is _SHOW:
            show = cast(Show, action)
            s, n = show.start, show.length
            shown = hand[s:s + n]
            del hand[s:s + n]
            del known[s:s + n]
            beat = bool(self.active)
            if beat:
                self.captured[p].extend(self.active)
            self.active = shown
            self.active_owner = p
            self.phase = "turn"
            self._acted(p)
            if not hand:
                self._end_round("emptied")
                return
            self._next_turn(beat)
        elif t is _SCOUT:
            scout = cast(Scout, action)
            card = self.active.pop(0 if scout.end == "left" else -1)
            owner = self.active_owner
            assert owner is not None
            self.scout_tokens[owner] += 1
            if not self.active and self.game.scout_empties_table:
                # S2: the table is empty; the count restarts. (Under 'ends-round-at-owner' the
                # former owner is kept: play coming back to them ends the round.)
                self.active_owner = None
            and_show = scout.and_show
            if and_show:
                self.show_tokens[p] = False
            self.pending = card
            self.pending_and_show = and_show
            self.phase = "insert"
            self._acted(p)
        elif t is _INSERT:
            insert = cast(Insert, action)
            scouted = self.pending
            assert scouted is not None
            position = insert.position
            hand.insert(position, (scouted[1], scouted[0]) if insert.flip else scouted)
            known.insert(position, True)
            self.pending = None
            if self.pending_and_show:
                self.pending_and_show = False
                self.phase = "show"
            else:
                self.phase = "turn"
                self._next_turn(False)
        elif t is _TURN_HAND:
            hand.reverse()
            hand[:] = [(b, a) for a, b in hand]
            known.reverse()
            self.hand_decided[p] = True
        else:  # Pass
            self._acted(p)
            self._next_turn(False)

    def _acted(self, p: int) -> None:
        """S1: under the default the chance to turn the hand ends with the first action."""
        if self.game.turn_before_first:
            self.hand_decided[p] = True

    def _next_turn(self, beat: bool) -> None:
        """End the turn (``beat``: a set was beaten in it) and pass play on, unless the
        round ends here."""
        n = self.game.num_players
        nxt = (self.to_act + 1) % n
        self.quiet_turns = 0 if beat else self.quiet_turns + 1
        if nxt == self.active_owner:
            # Play came back to the owner: every other player only scouted.
            self._end_round("unbeaten")
            return
        bound = self.game.stall_turns
        if bound and self.quiet_turns >= bound:
            # S9: nothing has been beaten for a long time; the round cannot be trusted to end.
            self._end_round("stalled")
            return
        self.to_act = nxt

    def _end_round(self, why: str) -> None:
        n = self.game.num_players
        exempt = (self.active_owner if why == "unbeaten"
                  and self.game.exempt_unbeaten else None)
        scores = []
        for q in range(n):
            s = len(self.captured[q]) + self.scout_tokens[q]
            if q != exempt:
                s -= len(self.hands[q])
            scores.append(s)
        self.round_scores.append(scores)
        self.round_log.append({
            "ending": why,
            "exempt": exempt,
            "captured": [len(c) for c in self.captured],
            "scout_tokens": list(self.scout_tokens),
            "hand": [len(h) for h in self.hands],
        })
        for q in range(n):
            self.totals[q] += scores[q]
        self.round += 1
        if self.round >= self.game.rounds:
            self.finished = True
            self.phase = "turn"
            return
        self._deal()

    def scores(self) -> list[float]:
        return [float(t) for t in self.totals]

    def result(self) -> JSON:
        out = super().result()
        out["round_scores"] = [list(r) for r in self.round_scores]
        out["round_endings"] = [r["ending"] for r in self.round_log]
        return out

    # -- text -------------------------------------------------------------------------------
    def _describe(self, action: Action, player: int | None) -> str:
        p = self.to_act
        t = Told(p, player)  # "You show …" to the mover, "P1 shows …" to everyone else
        who = t.who
        hand = self.hands[p]
        if isinstance(action, Show):
            cards = " ".join(show_card(c) for c in hand[action.start:action.start +
                                                          action.length])
            if self.active:
                beaten = " ".join(show_card(c) for c in self.active)
                return f"{who} {t.verb('shows')} {cards}, beating {beaten}"
            return f"{who} {t.verb('shows')} {cards}"
        if isinstance(action, Scout):
            if not self.active:
                return f"{who} {t.verb('scouts')} (no active set)"
            card = self.active[0] if action.end == "left" else self.active[-1]
            extra = " (Scout & Show)" if action.and_show else ""
            return f"{who} {t.verb('scouts')} {show_card(card)} from the {action.end} end{extra}"
        if isinstance(action, Insert):
            card = self.pending or (0, 0)
            if action.flip:
                card = (card[1], card[0])
            return f"{who} {t.verb('inserts')} {show_card(card)} at position {action.position}"
        if isinstance(action, TurnHand):
            return f"{who} {t.verb('turns')} {t.their} hand upside down"
        return f"{who} {t.verb('passes')}"

    def action_from_text(self, text: object) -> Action:
        """Typed moves: ``show START LENGTH``, ``scout left|right [and-show]`` (either end of a
        one-card active set is its one card), ``insert POSITION [flip]``, ``turn``, ``pass``.

        >>> from bigtop import new_state
        >>> new_state("scout", 3, 1).action_from_text("show 2 3")
        Show(start=2, length=3)
        """
        text = typed_text(text, self.game.title)
        words = text.lower().replace(",", " ").split()
        g = self.game
        try:
            verb, args = words[0], words[1:]
            if verb == "show" and len(args) == 2:
                return Show(int(args[0]), int(args[1]))
            if verb == "scout" and args and args[0] in ("left", "right") and len(args) <= 2:
                and_show = len(args) == 2 and args[1] in ("and-show", "show", "+show")
                if len(args) == 2 and not and_show:
                    raise ValueError
                # A one-card set's card is at both ends: "right" means the same card.
                end = "left" if args[0] == "left" or len(self.active) == 1 else "right"
                return g.scouts[end, and_show]
            if verb == "insert" and 1 <= len(args) <= 2:
                if len(args) == 2 and args[1] != "flip":
                    raise ValueError
                return Insert(int(args[0]), len(args) == 2)
            if verb in ("turn", "turn-hand") and not args:
                return g.turn_hand
            if verb == "pass" and not args:
                return g.pass_action
        except (ValueError, IndexError):
            pass
        raise MalformedActionError(
            f"cannot read {shown(text)}; type show START LENGTH, scout left|right [and-show], "
            "insert POSITION [flip], turn or pass")

    def _render(self, player: int | None = None) -> str:
        g = self.game
        lines = [f"SCOUT — round {min(self.round + 1, g.rounds)} of {g.rounds}, "
                 f"totals {self.totals}"]
        if self.active:
            owner = self.active_owner
            lines.append("Active set: " + " ".join(show_card(c) for c in self.active)
                         + f"  (P{owner})")
        else:
            lines.append("Active set: none (the table is empty)")
        for q in range(g.num_players):
            tag = "you" if q == player else count(len(self.hands[q]), "card")
            info = (f"captured {len(self.captured[q])}, scout tokens {self.scout_tokens[q]}, "
                    f"Scout & Show {'ready' if self.show_tokens[q] else 'spent'}")
            lines.append(f"  P{q} ({tag}): {info}")
        if player is not None:
            hand = self.hands[player]
            lines.append("Your hand (top numbers; position above):")
            lines.append("  " + " ".join(f"{i:>4}" for i in range(len(hand))))
            lines.append("  " + " ".join(f"{show_card(c):>4}" for c in hand))
        if self.pending is not None:
            lines.append(f"Scouted card to insert: {show_card(self.pending)}")
        return "\n".join(lines)

    # -- JSON -------------------------------------------------------------------------------
    def _position_json(self) -> JSON:
        return {
            "round": self.round,
            "to_act": self.to_act,
            "phase": self.phase,
            "hands": [[list(c) for c in h] for h in self.hands],
            "known": [list(k) for k in self.known],
            "active": [list(c) for c in self.active],
            "active_owner": self.active_owner,
            "captured": [[list(c) for c in cs] for cs in self.captured],
            "scout_tokens": list(self.scout_tokens),
            "show_tokens": list(self.show_tokens),
            "hand_decided": list(self.hand_decided),
            "pending": None if self.pending is None else {
                "card": list(self.pending), "and_show": self.pending_and_show},
            "unused": [list(c) for c in self.unused],
            "totals": list(self.totals),
            "round_scores": [list(r) for r in self.round_scores],
            "round_log": [_log_copy(r) for r in self.round_log],
            "quiet_turns": self.quiet_turns,
            "finished": self.finished,
        }

    def _observation(self, player: int | None) -> JSON:
        n = self.game.num_players
        hands: list[list[list[int] | None]] = []
        for q in range(n):
            if q == player:
                hands.append([list(c) for c in self.hands[q]])
            else:
                hands.append([list(c) if k else None
                              for c, k in zip(self.hands[q], self.known[q], strict=True)])
        return {
            "game": self.game.name,
            "player": player,
            "round": self.round,
            "rounds": self.game.rounds,
            "start_player": self.start_player,
            "to_act": self.current_player(),
            "phase": self.phase,
            "hands": hands,
            "hand_sizes": [len(h) for h in self.hands],
            "active": [list(c) for c in self.active],
            "active_owner": self.active_owner,
            "captured": [len(c) for c in self.captured],
            # Every captured set was shown face up first: public, and what a player with
            # perfect memory knows (resampling keeps these cards out of the unseen pool).
            "captured_cards": [[list(c) for c in cs] for cs in self.captured],
            "scout_tokens": list(self.scout_tokens),
            "show_tokens": list(self.show_tokens),
            "hand_decided": list(self.hand_decided),
            "pending": None if self.pending is None else list(self.pending),
            "pending_and_show": self.pending is not None and self.pending_and_show,
            "unused": len(self.unused),
            "totals": list(self.totals),
            "round_scores": [list(r) for r in self.round_scores],
            "round_log": [_log_copy(r) for r in self.round_log],
            "quiet_turns": self.quiet_turns,
            "finished": self.finished,
        }

    def _resample_hidden(self, player: int, seed: int) -> ScoutState:
        new = self.clone()
        assert isinstance(new, ScoutState)
        rng = random.Random(self.fresh_seed(seed))
        slots = [(q, i) for q in range(self.game.num_players) if q != player
                 for i, k in enumerate(self.known[q]) if not k]
        # Sorted first, so the draw depends only on what ``player`` sees and the seed.
        pool = sorted([canonical(self.hands[q][i]) for q, i in slots] + list(self.unused))
        shuffle(rng, pool)
        for (q, i), card in zip(slots, pool, strict=False):
            new.hands[q][i] = card if rng.random() < 0.5 else (card[1], card[0])
        new.unused = pool[len(slots):]
        new.seed = rng.getrandbits(63)
        return new

    def problems(self) -> list[str]:
        return problems(self)

    def clone(self) -> ScoutState:
        # Field by field: a compiled class has no __dict__ to copy (a test checks that a
        # clone has every attribute of the original).
        new = ScoutState(self.game, self.seed)
        new.history = list(self.history)
        new.round = self.round
        new.to_act = self.to_act
        new.phase = self.phase
        new.active_owner = self.active_owner
        new.pending = self.pending
        new.pending_and_show = self.pending_and_show
        new.finished = self.finished
        new.hands = [list(h) for h in self.hands]
        new.known = [list(k) for k in self.known]
        new.active = list(self.active)
        new.captured = [list(c) for c in self.captured]
        new.scout_tokens = list(self.scout_tokens)
        new.show_tokens = list(self.show_tokens)
        new.hand_decided = list(self.hand_decided)
        new.unused = list(self.unused)
        new.totals = list(self.totals)
        new.round_scores = [list(r) for r in self.round_scores]
        new.round_log = list(self.round_log)
        new.quiet_turns = self.quiet_turns
        new._legal = None
        return new
