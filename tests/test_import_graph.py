"""No import cycle anywhere in ``src/bigtop``: the graph of every ``import`` statement
(module level, under ``if TYPE_CHECKING``, and inside functions alike: a function-level
import only hides a cycle) between bigtop modules must be acyclic, so each layer can be
read, tested and loaded on its own (core below games, a game's rules above its actions,
options, cards or board, position and tensor; agents, sim, server and cli above).

Also: a game's ``rules.py`` imports nothing of the packages above it (agents, sim, server,
cli, interop), and nothing of a game's package imports its own ``bot``, ``teach`` or
``render`` from below ``rules.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "bigtop"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))
            if "migrations" not in p.parts}


def imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The bigtop modules that ``path`` (module ``name``) imports, anywhere in it. ``from a
    import b`` counts as importing ``a.b`` when that is a module, else ``a``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            # "import bigtop.a.b" names the module itself; keep the longest known prefix.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports(path, name, known) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component with more than one module
    (Tarjan), as a path ``a -> b -> ... -> a``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    out = []
    for component in components:
        members = set(component)
        # A shortest way back to the first member: a readable cycle.
        start = component[0]
        paths = {start: [start]}
        frontier = [start]
        found: list[str] | None = None
        while frontier and found is None:
            nxt = []
            for v in frontier:
                for w in sorted(edges[v] & members):
                    if w == start:
                        found = [*paths[v], start]
                        break
                    if w not in paths:
                        paths[w] = [*paths[v], w]
                        nxt.append(w)
                if found:
                    break
            frontier = nxt
        out.append(found or component)
    return out


def test_the_graph_finds_a_cycle() -> None:
    """The check itself: a planted cycle is found (and an acyclic graph passes)."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_relative_and_nested_imports_are_seen(tmp_path: Path) -> None:
    source = ("from __future__ import annotations\nfrom typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from bigtop.games.scout.rules import ScoutState\n"
              "def f() -> None:\n    from . import bot\n    import bigtop.core.rng\n")
    path = tmp_path / "x.py"
    path.write_text(source)
    known = {"bigtop.games.scout.rules", "bigtop.games.scout.bot", "bigtop.core.rng",
             "bigtop.games.scout"}
    assert imports(path, "bigtop.games.scout.x", known) == {
        "bigtop.games.scout.rules", "bigtop.games.scout.bot", "bigtop.core.rng"}


def test_no_import_cycle_in_bigtop() -> None:
    found = cycles(graph())
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_game_rules_stand_below_agents_and_the_platform() -> None:
    edges = graph()
    above = ("bigtop.agents", "bigtop.sim", "bigtop.server", "bigtop.cli", "bigtop.interop",
             "bigtop.train")
    for name, targets in edges.items():
        if name.startswith("bigtop.games.") and name.endswith((".rules", ".position",
                                                                ".tensor", ".actions",
                                                                ".options")):
            bad = sorted(t for t in targets if t.startswith(above))
            assert not bad, f"{name} imports {bad}"
