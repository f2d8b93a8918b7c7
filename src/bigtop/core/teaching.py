"""How a game is taught: its ``teach`` module's functions, declared once in the game's
capability record (:mod:`bigtop.core.capabilities`) as a :class:`Teaching` (the optional
ones default to saying nothing more); read them through :func:`bigtop.games.teaching`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bigtop.core.game import Game, State
from bigtop.core.text import paragraphs


def _no_lines(before: State, after: State) -> list[str]:
    return []


def _nothing(before: State, after: State, player: int | None) -> str:
    return ""


def _everything(state: State) -> tuple[list[tuple[int, str]], str] | None:
    return None


def _the_score(state: State, player: int) -> str:
    score = state.scores()[player]
    return f"{score:g}"


@dataclass(frozen=True)
class Teaching:
    """A game's ``teach`` module, declared in its capability record: ``intro(game)`` (a few
    lines before the first move), ``rules(game)`` (the rules in plain words, for this
    configuration), ``commands(game)`` (how to type a move at ``bigtop play``'s prompt),
    ``round_summary(before, after)`` (lines saying how a round or game ended when the one
    action from ``before`` to ``after`` ended it; else no lines) and, optionally,
    ``trick_summary``, ``outcome``, ``trick_result`` and ``featured``."""

    intro: Callable[[Game], str]
    rule_items: Callable[[Game], list[str]]
    """The module's ``rules(game)``: paragraphs, unwrapped, ``* `` starting a bullet; an
    empty item is a sentence this configuration leaves out."""
    commands: Callable[[Game], str]
    round_summary: Callable[[State, State], list[str]]
    trick_summary: Callable[[State, State], list[str]] = _no_lines
    """Like ``round_summary`` for a smaller unit inside a round (Tricky Landing's tricks)."""
    featured: Callable[[State], tuple[list[tuple[int, str]], str] | None] = _everything
    """Which legal actions a move menu shows, as (index, label), and a line saying how to
    reach the others (Tricky Landing: one throw per card); None: every action, labelled
    by ``describe``."""
    score_words: Callable[[State, int], str] = _the_score
    """One seat's final score as the game counts it (Clown 15 Go: "6 cards left", not the
    engine's score -6); by default the score itself."""
    outcome: Callable[[State, State, int | None], str] = _nothing
    """``outcome(before, after, player)``: what the one action from ``before`` to ``after``
    did that its describe line, said before it, cannot tell, as told to ``player`` (None:
    everyone): where a Tricky Landing throw landed. Empty by default: the describe line
    tells the whole move."""
    trick_result: Callable[[State, State, int | None], str] = _nothing
    """``trick_result(before, after, player)``: like ``outcome``, what the action ended,
    in one clause ("P1 wins the trick (3 cards)"); ``trick_summary`` says it at length."""

    @property
    def tells_outcomes(self) -> bool:
        """Whether :meth:`played` can add anything to a describe line (it needs the position
        before the action only then)."""
        return self.outcome is not _nothing or self.trick_result is not _nothing

    def played(self, line: str, before: State, after: State, player: int | None = None, *,
               results: bool = True) -> str:
        """The log line of the action from ``before`` to ``after``: its describe ``line``
        (told to ``player``), then after a colon its :attr:`outcome` and, with ``results``,
        its :attr:`trick_result` (a log that prints ``trick_summary`` below passes False).
        The server's log, ``bigtop play`` and ``bigtop replay`` all use it.

        >>> from bigtop import new_state
        >>> s = new_state("tricky-landing", players=3, seed=1, options={"rounds": 1})
        >>> before, action = s.clone(), s.legal_actions()[0]
        >>> line = s.describe(action); s.apply(action)
        >>> from bigtop.games import teaching
        >>> print(  # doctest: +ELLIPSIS
        ...     teaching(s.game.name).played(line, before, s))
        P0 throws a card at the target's centre with low spin: the yellow 1 lands face up off ...
        """
        more = [self.outcome(before, after, player)]
        if results:
            more.append(self.trick_result(before, after, player))
        said = "; ".join(x for x in more if x)
        return f"{line}: {said}" if said else line

    def rules(self, game: Game) -> list[str]:
        """The rules as ``game``'s options play them, one paragraph a line (``* `` starts a
        bullet), nothing about typing: what the web page's rules panel shows."""
        return [item.strip() for item in self.rule_items(game) if item.strip()]

    def rules_text(self, game: Game) -> str:
        """The rules and how to type a move, wrapped at 78 columns (``bigtop play``'s
        ``rules`` command)."""
        return paragraphs([*self.rules(game), self.commands(game)])
