"""`bigtop play`: a game in the terminal, against bots or hot-seat.

A session keeps the game as (seed, actions): the state is always the fresh deal with the
actions applied, which is what ``--save`` writes (the engine's own JSON, so ``replay`` and
``render`` read it), what ``--load`` resumes and what ``undo`` cuts back. Bots are made from
seeds derived from the game's seed, the seat and the number of actions so far, so a resumed or
undone game goes on the same way every time.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from bigtop.agents.base import Agent
from bigtop.agents.levels import BOT_NAMES, DEFAULT_LEVEL, SEARCH_BOTS, make_bot
from bigtop.cli._app import OptionArg, app, fail, game_options, seconds_or_rate
from bigtop.cli.files import load_state_file, write_whole
from bigtop.cli.screen import Screen, columns, fit_columns, fit_width, read_number
from bigtop.core.actions import Action
from bigtop.core.errors import BigtopError
from bigtop.core.game import CHANCE, Game, State
from bigtop.core.limits import parse_json_limited
from bigtop.core.registry import new_game
from bigtop.core.rng import check_seed, derive_seed
from bigtop.core.text import named
from bigtop.games import Teaching, teaching

MOVE_STYLE, CHANCE_STYLE, SUMMARY_STYLE = "", "dim", "bold"
"""How the lines between two prompts look: moves, chance (dice) and round summaries (which
are never folded away)."""

HINT_BOT = "hard"
"""The level ``hint`` asks: the strongest."""
HINT_SECONDS = 1.0
"""A hint waits at most about this long (the hard level's time budget), unless ``--think``."""

_HELP = """\
Type the number of a listed move, a move in words ({words}),
or an action as JSON (e.g. {example}). Commands:
  rules      how to play this game        board      show the table again
  list       every legal move, numbered   log [all]  the moves so far
  hint       ask the strongest bot        undo       take back your last move
  save FILE  save the game now            quit       leave (a save file stays)"""


class _Quit(Exception):
    """The player left (quit, or end of input)."""


@dataclass(frozen=True)
class Seats:
    """Who plays which seat: the humans at this terminal, and each other seat's bot."""

    humans: tuple[int, ...]
    bots: dict[int, str]
    names: tuple[str | None, ...] = ()
    """Each seat's name (None or missing: its label, P0, P1…)."""

    def name(self, seat: int) -> str:
        """What the terminal calls ``seat``: its name, else its label."""
        given = self.names[seat] if seat < len(self.names) else None
        return given or f"P{seat}"

    def with_names(self, text: str | None, players: int) -> Seats:
        """These seats named by ``--names`` (comma-separated, in seat order; an empty entry
        keeps the label): plain text, at most 32 characters each.

        >>> Seats((0,), {1: "easy", 2: "easy"}).with_names("Anna,,Ben", 3).names
        ('Anna', None, 'Ben')
        >>> Seats((0,), {1: "easy"}).with_names("A,B,C", 2)
        Traceback (most recent call last):
        ...
        bigtop.core.errors.BigtopError: --names gives 3 names for 2 seats
        """
        if text is None:
            return self
        names = [n.strip() for n in text.split(",")]
        if len(names) > players:
            raise BigtopError(f"--names gives {len(names)} names for {players} seats")
        for n in names:
            if len(n) > 32 or any(not ch.isprintable() for ch in n):
                raise BigtopError(f"--names: {n[:40]!r} is not a name (plain text, at most "
                                  "32 characters)")
        return Seats(self.humans, self.bots, tuple(n or None for n in names))

    @staticmethod
    def parse(players: int, seat: int | None, humans: str | None, bots: str) -> Seats:
        """From the command line: ``--seat 1`` or ``--humans 0,2``, and ``--bots`` as one
        name for every bot seat or one name per bot seat in seat order.

        >>> Seats.parse(4, None, "0,2", "hard,easy")
        Seats(humans=(0, 2), bots={1: 'hard', 3: 'easy'}, names=())
        >>> Seats.parse(3, 1, None, "random").bots
        {0: 'random', 2: 'random'}
        >>> Seats.parse(3, None, "0,0", "easy")
        Traceback (most recent call last):
        ...
        bigtop.core.errors.BigtopError: --humans names seat 0 twice
        """
        if seat is not None and humans is not None:
            raise BigtopError("give --seat or --humans, not both")
        if humans is None:
            chosen = [0 if seat is None else seat]
        else:
            chosen = []
            for word in humans.replace(" ", "").split(","):
                n = read_number(word)
                if n is None:
                    raise BigtopError(f"--humans takes seat numbers like 0,2, not {word!r}")
                if n in chosen:
                    raise BigtopError(f"--humans names seat {n} twice")
                chosen.append(n)
        for n in chosen:
            if not 0 <= n < players:
                raise BigtopError(f"seat must be 0..{players - 1}, got {n}")
        others = [p for p in range(players) if p not in chosen]
        names = [b.strip() for b in bots.split(",")] if bots.strip() else []
        for name in names:
            if name not in BOT_NAMES:
                raise BigtopError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}")
        if len(names) == 1:
            names = names * len(others)
        if len(names) != len(others):
            raise BigtopError(f"--bots needs one name, or one per bot seat ({len(others)}: "
                              + ", ".join(f"P{p}" for p in others) + f"), got {len(names)}")
        return Seats(tuple(sorted(chosen)), dict(zip(others, names, strict=True)))


class Session:
    """One game at the terminal. ``history`` is the truth; ``state`` follows it."""

    def __init__(self, game: Game, seed: int, seats: Seats, screen: Screen, *,
                 save: str | None, confirm_forced: bool, pause: bool,
                 think: float | None = None) -> None:
        self.game = game
        self.think = think
        """At most this many seconds a move for searching bots (None: their full budget)."""
        self.seed = seed
        self.seats = seats
        self.screen = screen
        self.save_path = save
        self.written = {os.path.realpath(save)} if save else set()
        """The files this game may write over: its --save file and those it saved to."""
        self.last_save: tuple[str, int] | None = None
        """The last ``save FILE`` typed: the file and the moves it holds."""
        self.confirm_forced = confirm_forced
        self.pause = pause
        self.teach: Teaching = teaching(game.name)
        self.state = game.new_initial_state(seed)
        self.log: list[str] = []
        self.marks: list[int] = []
        """History lengths where a human's move began (what ``undo`` goes back to)."""
        self._run: tuple[int, bool] = (-99, False)  # (seat acting, move already marked)
        self.bots: dict[int, Agent] = {}
        self.pending: list[tuple[str, str, int]] = []
        """Lines since the last prompt: (text, style, the seat that moved or CHANCE)."""
        self.last_human: int | None = None
        self.numbers: set[int] | None = None
        """The move numbers the player was shown this turn (None: every number). A short
        menu (Tricky Landing's one throw per card: 1, 28, 55, …) takes only its own numbers,
        so that '2' is not some unlisted throw; 'list' and 'hint' show more."""
        self.viewer = seats.humans[0] if len(seats.humans) == 1 else None
        """Whom the moves are told to: the one human, or everyone (hot-seat: the screen is
        shared, so a Tricky Landing throw is not named to the others)."""
        self._make_bots()

    # -- the game as (seed, actions) ----------------------------------------------------
    def _make_bots(self) -> None:
        k = len(self.state.history)
        self.bots = {p: make_bot(name, self.game, p, derive_seed(self.seed, "bot", p, k),
                                 time_limit=self.think if name in SEARCH_BOTS else None)
                     for p, name in self.seats.bots.items()}

    def _choice_point(self) -> bool:
        return self.confirm_forced or len(self.state.legal_actions()) > 1

    def _step(self, action: Action, *, quiet: bool = False, remark: str = "") -> None:
        """Apply ``action`` (legal), noting the move, its summaries and undo marks."""
        s = self.state
        p = s.current_player()
        if p >= 0 and p in self.seats.humans:
            seat, marked = self._run
            if seat != p:
                marked = False
            if not marked and self._choice_point():
                self.marks.append(len(s.history))
                marked = True
            self._run = (p, marked)
        elif p >= 0:
            self._run = (p, False)
        line = s.describe(action, self.viewer)
        before = s.clone()
        s.apply(action)
        # Where a throw landed (who won the trick: the trick summary below says it).
        line = self._n(self.teach.played(line, before, s, self.viewer, results=False))
        self.log.append(line)
        # Moves in the terminal's own colour, so every card shows in its colour.
        events = [(line + remark, MOVE_STYLE if p != CHANCE else CHANCE_STYLE, p)]
        trick = [self._n(x) for x in self.teach.trick_summary(before, s)]
        rnd = [self._n(x) for x in self.teach.round_summary(before, s)]
        self.log.extend(trick + rnd)
        events += [(x, SUMMARY_STYLE, p) for x in trick + rnd]
        if not quiet:
            self.pending.extend(events)
            if rnd and self.seats.humans and not s.is_terminal():
                self._flush()
                self._wait("(press Enter for the next round)")
        if self.save_path:
            self._autosave()

    def _autosave(self) -> None:
        """Write the --save file; when that fails mid-game (a full disk) the player is told
        and plays on without it, rather than losing the game to an exit."""
        assert self.save_path is not None
        try:
            self._write(self.save_path)
        except BigtopError as e:
            self.screen.error(f"{e}; the game goes on unsaved ('save FILE' saves it "
                              "elsewhere)")
            self.save_path = None

    def _rebuild(self, history: list[Action]) -> None:
        """Go back to the fresh deal and replay ``history`` (undo, resume)."""
        self.state = self.game.new_initial_state(self.seed)
        self.log, self.marks, self._run = [], [], (-99, False)
        save, self.save_path = self.save_path, None
        for a in history:
            self._step(a, quiet=True)
        self.save_path = save
        self.pending = []
        self._make_bots()

    def resume(self, saved: State) -> None:
        self._rebuild(list(saved.history))
        if self.state != saved:
            raise BigtopError("the file's history does not lead to its position (was it "
                              "edited by hand?), so play cannot go on from it")

    def _write(self, path: str) -> None:
        """Write the game to ``path`` whole or not at all."""
        data = json.dumps(self.state.to_json(), ensure_ascii=False) + "\n"
        try:
            write_whole(path, lambda tmp: Path(tmp).write_text(data, encoding="utf-8"))
        except OSError as e:
            raise BigtopError(f"cannot write {path}: {e.strerror or e}") from None
        self.written.add(os.path.realpath(path))

    # -- output -------------------------------------------------------------------------
    def _flush(self, room: int | None = None) -> None:
        """Print the events since the last prompt; when there are more than ``room`` lines
        the oldest plain moves are folded into one line (``log`` shows them)."""
        events, self.pending = self.pending, []
        if not self.screen.console.is_terminal:
            room = len(events)  # a log, not a screen: keep every line
        room = max(4, room if room is not None else self.screen.height - 4)
        plain = [i for i, (_, style, _) in enumerate(events) if style != SUMMARY_STYLE]
        # Folding k lines prints one line in their place.
        fold = set(plain[:len(events) - room + 1] if len(events) > room else [])
        by_seat = Counter(events[i][2] for i in fold if events[i][2] >= 0)
        folded = False
        for i, (line, style, _) in enumerate(events):
            if i in fold:
                if not folded:
                    seats = ", ".join(f"{self.seats.name(q)} {k}"
                                      for q, k in sorted(by_seat.items()))
                    self.screen.note(f"({len(fold)} earlier moves: {seats}; 'log' shows them)")
                    folded = True
                continue
            self.screen.say(line, style)

    def _n(self, text: str) -> str:
        """An engine's line with the named seats called by their names."""
        return named(text, self.seats.names)

    def _board(self, seat: int) -> list[str]:
        return fit_width([self._n(x) for x in self.state.render(seat).splitlines()],
                         self.screen.width)

    def _menu(self, every: bool = False) -> tuple[list[tuple[int, str]], str]:
        """The numbered moves to show, and a line about the rest."""
        s = self.state
        legal = s.legal_actions()
        featured = None if every else self.teach.featured(s)
        if featured is not None:
            return featured
        items = []
        for i, action in enumerate(legal):
            # Told to the mover ("You show 8/10"): the menu lists the bare move ("show 8/10").
            text = s.describe(action, s.current_player())
            items.append((i, self._n(text.removeprefix("You "))))
        return items, ""

    def _show_turn(self, seat: int) -> None:
        """Events, board and menu, fitted so the board and menu stay on one screen."""
        screen = self.screen
        board = self._board(seat)
        items, note = self._menu()
        menu_rows = len(columns(items, screen.width))
        free = screen.height - 2 - (len(board) + 1) - (1 if note else 0)
        if menu_rows > free:
            keep = fit_columns(items, screen.width, max(3, free - 1))
            if keep < len(items):
                items, note = items[:keep], (f"({len(items) - keep} more moves: 'list' "
                                             "shows them all)")
        self._flush(free - min(menu_rows, free))
        screen.rule(f"{self.seats.name(seat)}'s turn")
        for line in board:
            screen.say(line)
        for line in columns(items, screen.width):
            screen.say(line)
        if note:
            screen.note(note)

    def _page(self, lines: list[str]) -> None:
        """Print ``lines`` a screen at a time."""
        rows = max(5, self.screen.height - 2)
        for start in range(0, len(lines), rows):
            for line in lines[start:start + rows]:
                self.screen.say(line)
            more = start + rows < len(lines) and self.screen.console.is_terminal
            if more and self._input("-- more (Enter), q to stop -- ").strip().lower() == "q":
                return

    # -- input --------------------------------------------------------------------------
    def _input(self, prompt: str) -> str:
        while True:
            try:
                return input(prompt)
            except EOFError:
                raise _Quit from None
            except UnicodeDecodeError:
                # Where stdin decodes strictly (a UTF-8 locale outside Python's UTF-8 mode),
                # a stray byte (0xff) is a line nobody can read: ask again.
                self.screen.error("that line is not UTF-8 text; type it again")

    def _wait(self, message: str) -> None:
        if self._input(message + " ").strip().lower() in ("q", "quit", "exit"):
            raise _Quit

    def _ask(self, seat: int) -> Action:
        """The human at ``seat`` chooses a move (commands are handled here)."""
        s = self.state
        legal = s.legal_actions()
        featured = self.teach.featured(s)
        self.numbers = None if featured is None else {i for i, _ in featured[0]}
        self._show_turn(seat)
        while True:
            text = self._input(f"{self.seats.name(seat)}> ").strip()
            word, _, rest = text.partition(" ")
            word = word.lower()
            if not text:
                continue
            if word in ("q", "quit", "exit"):
                raise _Quit
            if word in ("?", "h", "help"):
                self._help()
                continue
            if word == "rules":
                self._page(self.teach.rules_text(self.game).splitlines())
                continue
            if word == "list":
                items, _ = self._menu(every=True)
                self._page(columns(items, self.screen.width))
                self.numbers = None
                continue
            if word == "board":
                for line in self._board(seat):
                    self.screen.say(line)
                continue
            if word == "log":
                tail = self.log if rest.strip().lower() == "all" else \
                    self.log[-(self.screen.height - 3):]
                self._page(tail or ["(no moves yet)"])
                continue
            if word == "hint":
                self._hint(seat)
                continue
            if word == "undo":
                if self._undo():
                    return self._ask(self.state.current_player())
                continue
            if word == "save":
                self._save_now(rest.strip())
                continue
            try:
                return self._parse(text, legal)
            except BigtopError as e:
                self.screen.error(f"{e} — try again ('help' explains the input)")

    def _parse(self, text: str, legal: list[Action]) -> Action:
        n = read_number(text)
        if n is not None:
            if not 0 <= n < len(legal):
                raise BigtopError(f"choose a number from 0 to {len(legal) - 1}")
            if self.numbers is not None and n not in self.numbers:
                shown = ", ".join(str(i) for i in sorted(self.numbers)[:4])
                raise BigtopError(f"{n} is not a listed move: type one of the numbers shown "
                                  f"({shown}, …), a move in words, or 'list' to number them all")
            return legal[n]
        if text.startswith("{"):
            action = self.game.action_from_json(parse_json_limited(text, "that action"))
        else:
            action = self.state.action_from_text(text)
        self.state.check_playable(action)  # a bad entry changes nothing
        return action

    def _help(self) -> None:
        s = self.state
        example = json.dumps(s.legal_actions()[0].to_json())
        words = "see 'rules'"
        for line in _HELP.format(words=words, example=example).splitlines():
            self.screen.console.print(line, markup=False, highlight=False)

    def _hint(self, seat: int) -> None:
        s = self.state
        bot = make_bot(HINT_BOT, self.game, seat,
                       derive_seed(self.seed, "hint", len(s.history)),
                       time_limit=HINT_SECONDS if self.think is None else self.think)
        with self.screen.console.status(f"thinking about P{seat}'s move…"):
            action = bot.act(s)
        legal = s.legal_actions()
        index = next((i for i, a in enumerate(legal) if a == action), None)
        number = f" (type {index})" if index is not None else ""
        if index is not None and self.numbers is not None:
            self.numbers.add(index)
        self.screen.say(f"hint: {s.describe(action, seat).removeprefix('You ')}{number}", "cyan")

    def _undo(self) -> bool:
        if len(self.seats.humans) > 1:
            self.screen.error("undo works in games against bots only")
            return False
        now = len(self.state.history)
        earlier = [m for m in self.marks if m < now]
        if not earlier:
            self.screen.error("there is no move of yours to take back")
            return False
        target = earlier[-1]
        taken = now - target
        self._rebuild(self.state.history[:target])
        if self.save_path:
            self._autosave()
        self.screen.note(f"took back {taken} {'move' if taken == 1 else 'moves'} "
                         "(yours and the replies)")
        return True

    def _save_now(self, path: str) -> None:
        # Typed at our prompt, not a shell's: a leading ~ is the home folder all the same.
        target = os.path.expanduser(path) if path else self.save_path
        if not target:
            self.screen.error("save where? type 'save FILE' (or start with --save FILE)")
            return
        if os.path.lexists(target) and os.path.realpath(target) not in self.written:
            # A file this game did not write (another game, anything): never replaced.
            self.screen.error(f"{target} exists; save to another file")
            return
        try:
            self._write(target)
        except BigtopError as e:
            self.screen.error(str(e))
            return
        self.last_save = (target, len(self.state.history))
        self.screen.note(f"saved to {target}; go on later with: bigtop play --load {target}")

    # -- the loop -----------------------------------------------------------------------
    def _bot_move(self, p: int) -> Action:
        bot = self.bots[p]
        name = self.seats.bots[p]
        if self.screen.console.is_terminal and name not in ("random",):
            with self.screen.console.status(f"{self.seats.name(p)} ({name}) is thinking…"):
                return bot.act(self.state)
        return bot.act(self.state)

    def _hand_over(self, seat: int) -> None:
        """Hot-seat: hide the last player's hand before the next one looks (the moves since,
        all public, are printed on the cleared screen)."""
        if len(self.seats.humans) > 1 and self.last_human not in (None, seat):
            self._wait(f"Pass the terminal to {self.seats.name(seat)} and press Enter.")
            self.screen.clear()
        self.last_human = seat

    def run(self) -> None:
        g = self.game
        screen = self.screen
        who = ", ".join(self.seats.name(p) for p in self.seats.humans)
        bots = ", ".join(f"{self.seats.name(p)} {name}" for p, name in self.seats.bots.items())
        screen.say(f"{g.title}: {g.num_players} players. You: {who}. Bots: {bots or 'none'}.",
                   "bold")
        if not self.state.history:
            for line in self.teach.intro(g).splitlines():
                screen.say(line)
            for note in g.notes():
                screen.say(note, "yellow")
        else:
            screen.note(f"resumed after {len(self.state.history)} moves")
        screen.note("Type 'rules' to learn the game, 'help' for the commands.")
        try:
            while not self.state.is_terminal():
                s = self.state
                p = s.current_player()
                if p == CHANCE:
                    self._step(s.sample_chance())
                elif p in self.seats.humans:
                    self._hand_over(p)
                    if not self._choice_point():
                        self._step(s.legal_actions()[0], remark="  (your only move)")
                    else:
                        self._step(self._ask(p))
                else:
                    self._step(self._bot_move(p))
                    if self.pause and self.seats.humans:
                        self._flush()
                        self._wait("(Enter)")
        except (_Quit, KeyboardInterrupt):  # quit, end of input or Ctrl-C: the same goodbye
            self.screen.say("")
            self._flush()
            saved = self.save_path or (self.last_save[0] if self.last_save is not None and
                                       self.last_save[1] == len(self.state.history) else None)
            if saved:
                screen.note(f"saved; go on with: bigtop play --load {saved}")
            elif self.last_save is not None:
                screen.note(f"the moves since 'save {self.last_save[0]}' are not saved")
            elif self.state.history:
                # Nothing keeps this game: say so, and how to keep the next one.
                screen.note("not saved (type 'save FILE' before quitting, or start with "
                            "--save FILE, to go on later)")
            screen.say("bye")
            return
        self._flush()
        screen.rule("game over")
        seat = self.seats.humans[0] if len(self.seats.humans) == 1 else None
        for line in fit_width([self._n(x) for x in self.state.render(seat).splitlines()],
                              screen.width):
            screen.say(line)
        r = self.state.result()
        # Seats named (and "you" marked), each score in the game's own words.
        you = set(self.seats.humans) if len(self.seats.humans) == 1 else set()
        name = {q: f"{self.seats.name(q)} (you)" if q in you else self.seats.name(q)
                for q in range(len(r["scores"]))}
        scores = ", ".join(f"{name[q]} {self.teach.score_words(self.state, q)}" for q in name)
        winners = ", ".join(name[w] for w in r["winners"])
        label = "Winner" if len(r["winners"]) == 1 else "Winners (tied)"
        screen.say(f"Scores: {scores}. {label}: {winners}.", "bold")


@app.command()
def play(
    game: Annotated[str | None, typer.Argument(
        help="Game name, see `bigtop games` (default scout).", show_default=False)] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Number of players (default 3).", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        help="Seed for the deal and all chance (default 0).", show_default=False)] = None,
    option: OptionArg = None,
    seat: Annotated[int | None, typer.Option(
        help="Your seat, from 0 (P0 plays first unless -o first_player=N says another); "
        "default 0.", show_default=False)] = None,
    humans: Annotated[str | None, typer.Option(
        help="Hot-seat: the seats played at this terminal, e.g. 0,2.")] = None,
    bots: Annotated[str, typer.Option(
        help="Bot level for the other seats: one name for all, or one per seat in seat "
        "order, e.g. hard,easy. Levels: " + ", ".join(BOT_NAMES) + ".")] = DEFAULT_LEVEL,
    save: Annotated[str | None, typer.Option(
        help="Write the game to this file after every move (JSON for replay, render and "
        "--load): a new file, or the one --load reads.")] = None,
    load: Annotated[str | None, typer.Option(
        help="Go on with a saved game (its game, players, options and seed).")] = None,
    confirm_forced: Annotated[bool, typer.Option(
        "--confirm-forced", help="Ask for your move even when only one is legal (by default "
        "it is played and shown).", show_default=False)] = False,
    pause: Annotated[bool, typer.Option(
        "--pause", help="Wait for Enter after every bot move.", show_default=False)] = False,
    think: Annotated[float | None, typer.Option(
        help="At most this many seconds a move for searching bots (medium, hard, ismcts); "
        "by default they use their full iteration budget.")] = None,
    names: Annotated[str | None, typer.Option(
        help="Names of the seats in seat order, e.g. Anna,,Ben (an empty one keeps the "
        "label P1); every line, prompt and the scores call them so.")] = None,
) -> None:
    """Play a game in the terminal against bots, or hot-seat with several players."""
    screen = Screen(game or "scout")
    try:
        if sys.stdin is None:  # started with fd 0 closed (`0<&-`): no move could be read
            raise BigtopError("play reads your moves from stdin, which is closed")
        if load is not None:
            given = [name for name, v in (("GAME", game), ("--players", players),
                                          ("--seed", seed), ("--option", option))
                     if v not in (None, [])]
            if given:
                raise BigtopError(f"--load takes the game from the file; leave out "
                                  f"{', '.join(given)}")
            if load == "-":  # stdin carries the moves; and "-" is no file to save to
                raise BigtopError("--load needs a file: play reads your moves from stdin")
            saved = load_state_file(load)
            g, s0 = saved.game, saved.seed
        else:
            s0 = check_seed(0 if seed is None else seed)
            name = game or "scout"
            g = new_game(name, 3 if players is None else players, game_options(name, option))
            saved = None
        if save is not None and os.path.lexists(save) and not (
                load is not None and os.path.realpath(save) == os.path.realpath(load)):
            # A new game (or a copy of a loaded one) never replaces a file: it may be an
            # earlier game, or anything else.
            raise BigtopError(f"{save} exists; give --save another file, or go on with "
                              f"that game: bigtop play --load {save}")
        if think is not None:
            seconds_or_rate("--think", think, zero=False)
        seats = Seats.parse(g.num_players, seat, humans, bots).with_names(names, g.num_players)
        screen = Screen(g.name)
        session = Session(g, s0, seats, screen, save=save or load,
                          confirm_forced=confirm_forced, pause=pause, think=think)
        if saved is not None:
            session.resume(saved)
        elif save:
            session._write(save)
    except BigtopError as e:
        fail(str(e))
        return
    try:
        session.run()
    except BigtopError as e:  # (a save that fails mid-game is told and played on)
        fail(str(e))
