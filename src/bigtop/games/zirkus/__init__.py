"""So ein Zirkus: clowns carry coloured balls over a board with holes (Bambus Spieleverlag,
2000; readings Z1–Z19 in docs/so-ein-zirkus.md)."""

from bigtop.core.capabilities import Capabilities
from bigtop.games.zirkus.board import (
    Board,
    BoardError,
    board_option,
    load_board,
    parse_board,
    read_board_file,
)
from bigtop.games.zirkus.bot import (
    ZirkusBot,
    deep_search_profile,
    heuristic_agent,
    search_profile,
)
from bigtop.games.zirkus.features import FEATURES, action_features
from bigtop.games.zirkus.render import PICTURES, render_png, render_svg, svg_from_observation
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
from bigtop.games.zirkus.teach import TEACHING
from bigtop.games.zirkus.tensor import ZirkusLayout

GAME = ZirkusGame

CAPABILITIES = Capabilities(
    name=ZirkusGame.name,
    game=ZirkusGame,
    teaching=TEACHING,
    heuristic_agent=heuristic_agent,
    search_profile=search_profile,
    deep_search_profile=deep_search_profile,
    chance="chance-nodes",
    observation_tensor=ZirkusLayout,
    picture=PICTURES,
    action_features=(FEATURES, action_features),
)
"""What the game provides, declared once (:mod:`bigtop.core.capabilities`)."""

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
    "board_option",
    "deep_search_profile",
    "heuristic_agent",
    "load_board",
    "parse_board",
    "read_board_file",
    "render_png",
    "render_svg",
    "search_profile",
    "svg_from_observation",
]
