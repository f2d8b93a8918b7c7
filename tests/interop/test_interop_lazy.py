"""The adapters are optional: importing bigtop, its games, agents or the interop package
itself never imports OpenSpiel, PettingZoo or gymnasium."""

from __future__ import annotations

import subprocess
import sys


def test_core_never_imports_the_extras() -> None:
    code = (
        "import sys, importlib, importlib.util, bigtop, bigtop.interop, bigtop.interop.tensors\n"
        "from bigtop.core.registry import game_names, get_game\n"
        "[get_game(n) for n in game_names()]\n"
        "import bigtop.agents.base\n"
        "if importlib.util.find_spec('bigtop.cli'): importlib.import_module('bigtop.cli')\n"
        "bad = [m for m in ('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium')"
        " if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
