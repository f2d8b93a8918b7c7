"""bigtop: play, simulate and study four circus-themed tabletop games.

>>> import bigtop
>>> state = bigtop.new_state("scout", players=3, seed=1)
>>> state.current_player()
0
"""

from bigtop.core.registry import game_names, get_game, list_games, load_state, new_game, new_state

__all__ = ["game_names", "get_game", "list_games", "load_state", "new_game", "new_state"]
__version__ = "0.1.0"
