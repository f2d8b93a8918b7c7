"""So ein Zirkus: clowns carry coloured balls over a board with holes (rulebook
003_97aa81262881367c.txt; rulings in docs/so-ein-zirkus.md)."""

from bigtop.games.zirkus.board import Board, BoardError, load_board, parse_board
from bigtop.games.zirkus.bot import ZirkusBot, heuristic_agent, search_profile
from bigtop.games.zirkus.rules import (
    COLOURS,
    FACES,
    Add,
    BackToStart,
    Move,
    Restart,
    Roll,
    Upend,
    ZirkusGame,
    ZirkusOptions,
    ZirkusState,
)

GAME = ZirkusGame

__all__ = [
    "COLOURS",
    "FACES",
    "GAME",
    "Add",
    "BackToStart",
    "Board",
    "BoardError",
    "Move",
    "Restart",
    "Roll",
    "Upend",
    "ZirkusBot",
    "ZirkusGame",
    "ZirkusOptions",
    "ZirkusState",
    "heuristic_agent",
    "load_board",
    "parse_board",
    "search_profile",
]
