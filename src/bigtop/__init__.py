"""bigtop: play, simulate and study four circus-themed tabletop games.

>>> import bigtop
>>> state = bigtop.new_state("scout", players=3, seed=1)
>>> state.current_player()
0
"""

# First of all: whether compiled modules may load (BIGTOP_PURE, stale builds).
from bigtop._compiled import activate as _activate

_activate()

from bigtop.core.registry import (  # noqa: E402
    game_names,
    get_game,
    list_games,
    load_state,
    new_game,
    new_state,
)
from bigtop.core.verify import verify_export  # noqa: E402

__all__ = ["game_names", "get_game", "list_games", "load_state", "new_game", "new_state",
           "verify_export"]
__version__ = "0.1.0"
