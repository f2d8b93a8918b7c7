"""So ein Zirkus's rule options: the board, the rulings' alternatives, the variants from the
rulebook's expert section (lazy clown, shoving, clumsy clown, secret clown, upside-down,
tournament) and the safety limit; when a tournament series is over."""

from __future__ import annotations

from dataclasses import dataclass

from bigtop.core.options import RuleOptions, check_first_player, first_player_option, option

ENDINGS = ("six-hole", "no-balls", "turn-limit")
ENDING_WORDS: dict[str, str] = {
    "six-hole": "a ball fell into the 6-point hole",
    "no-balls": "the 6-point hole can no longer be filled",
    "turn-limit": "the turn limit was reached",
}
"""Why a game ended, in words (the keys are :data:`ENDINGS`)."""
MAX_SERIES_GAMES = 50
"""Ruling Z13: a tournament to a target score also stops after this many games."""


@dataclass(frozen=True)
class ZirkusOptions(RuleOptions):
    board: str = option(
        "default",
        doc="The board: a shipped board's name ('default': our 3 x 8 layout; '4x10') or a "
        "board as JSON text. On the command line a board file may be named (board=FILE.json): "
        "it is read then and embedded, so a state never refers to a file.",
    )
    short_move: str = option(
        "no-move",
        choices=("no-move", "as-far-as-possible"),
        doc="Z2: a clown with no path of full length may not be moved ('no-move'), or moves "
        "as far as it can ('as-far-as-possible': only the longest possible paths).",
        quote="Where possible, the full move must be made.",
    )
    drop_on_stop: bool = option(
        True,
        doc="Z4: a clown that stops on (not only passes over) an empty hole drops its bottom "
        "ball; false: only fields passed before the last one drop.",
        quote="Clowns may stop above holes.",
    )
    lazy_clown: bool = option(
        False,
        doc="Variant lazy clown: a move may be any length from 1 to the number of balls.",
        quote="Lazy clown: You are not obliged to use all of the movement points.",
    )
    shoving: str = option(
        "off",
        choices=("off", "shove", "clumsy"),
        doc="Variants shoving ('shove': the moving clown may push one clown one field ahead of "
        "it, never off the board) and clumsy clown ('clumsy': pushing off the board is "
        "allowed; that clown restarts empty on a free start field, its balls return).",
        quote="may also push another clown with the clown he is moving. However, a clown may "
        "not be pushed beyond the edge of the board.",
    )
    secret_clown: bool = option(
        False,
        doc="Variant secret clown (Z5): colours are dealt at random and hidden until the game "
        "ends; all four colours are in play (Z11).",
        quote="In secret, each player draws a card that shows his colour. Players keep their "
        "colour secret until the end of the game.",
    )
    upside_down: bool = option(
        False,
        doc="Variant upside-down: on black a player may instead move a clown's bottom ball to "
        "its top.",
        quote="If a player rolls black, he may choose to move the bottom ball of a clown "
        "upward, instead of returning that clown to the start.",
    )
    tournament: str = option(
        "off",
        choices=("off", "games", "score"),
        doc="Variant tournament: 'games' plays tournament_games games, 'score' plays until a "
        "total reaches tournament_score (at most 50 games, Z13); points add up.",
        quote="The winner is the player who first reaches a certain score, or who has the most "
        "points after a predetermined number of games.",
    )
    tournament_games: int = option(3, minimum=1, maximum=100,
                                    doc="Games in a 'games' tournament.")
    tournament_score: int = option(30, minimum=1, maximum=1000,
                                   doc="Target total of a 'score' tournament.")
    turn_limit: int = option(
        1000, minimum=1, maximum=100_000,
        doc="Z12 (safety rule, not in the rulebook): a game also ends after this many turns "
        "(die rolls), scored as it stands.",
    )
    first_player: int = first_player_option("The first player, chosen by lot, takes the "
                                            "coloured die.")

    def validate_for(self, num_players: int) -> None:
        check_first_player(self.first_player, num_players)


def series_over(opts: ZirkusOptions, totals: list[int], played: int) -> bool:
    """Is the series over after ``played`` games with these totals? (Z13)"""
    if played < 1:
        return False
    if opts.tournament == "off":
        return True
    if opts.tournament == "games":
        return played >= opts.tournament_games
    return max(totals) >= opts.tournament_score or played >= MAX_SERIES_GAMES
