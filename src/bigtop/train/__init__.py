"""Self-play training of the policy-and-value networks that :mod:`bigtop.agents.neural`
plays with (``bigtop train GAME``; the ``bigtop[train]`` extra).

Plain numpy, by choice: the network is small (two hidden layers), inference must need
numpy only, and a hand-written MLP with Adam keeps training to the one dependency every
bigtop install already has — no second framework for the same arithmetic. The loop is
expert iteration (AlphaZero-style): the planner with the current network inside it plays
every seat, and the network learns its moves and their outcomes (:mod:`.selfplay`,
:mod:`.learn`, :mod:`.run`). The action policy learns a teacher bot's moves from its kept
games (:mod:`.imitate`, :mod:`.actions`; ``bigtop train GAME --teacher BOT``).
"""

from bigtop.train.run import Config, run
from bigtop.train.selfplay import Table

__all__ = ["Config", "Table", "run"]
