"""Floors: who may import whom (issue 25).

An AST read of every module in the tree (no module is imported): each ``import`` and
``from ... import`` statement, at the top of a module or inside a function, is an edge from the
importing module to the imported one. Imports under ``if TYPE_CHECKING:`` never run and name
types only (the engine's ``state`` annotates with ``Game``, which ``game`` makes); they are left
out. Three checks:

- no import loop (a strongly connected set of more than one module);
- no private cross-module import (``from x import _name`` where x is another module);
- the floors: the shared core (``byapar_env.core``) < each engine < environment
  (``byapar_env``) < players (``byapar_agents``) < harnesses
  that seat players at tables (``byapar_harness``: arena, gauntlet, analyse) < training and
  serve < the command line (``byapar_cli``), which nothing imports. A module imports
  modules of lower floors and of its own package, never a higher floor nor a neighbour on its
  own (training and serve do not import each other). The shipped checkpoints are data the
  players read, below them; the measurements in ``bench/`` sit above training and serve.

Violations that sit in files of another change still to come are listed below as known
exceptions, each naming the issue; the checks fail on any new violation, and on a known one
that is gone (so that the list shrinks as they are mended).
"""

from __future__ import annotations

import ast
import functools
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Folder in the checkout -> the package it installs as: every folder is named as it is imported
# (test_every_folder_is_named_as_it_is_imported).
PACKAGES = {name: name for name in ("byapar_env", "byapar_agents", "byapar_training",
                                    "byapar_serve", "byapar_checkpoints", "bench",
                                    "byapar_harness", "byapar_cli")}

CLI = "byapar_cli"
TYPE_CHECKING = {"TYPE_CHECKING", "typing.TYPE_CHECKING"}

# Violations still to be mended, each naming its issue.
KNOWN_LOOPS: set[frozenset[str]] = set()

# (importer, imported module, name).
KNOWN_PRIVATE: set[tuple[str, str, str]] = set()

# (importer, imported) edges that import the command line or climb a floor.
KNOWN_UPWARD: set[tuple[str, str]] = set()


def module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = [PACKAGES[rel.parts[0]], *rel.parts[1:]]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, pathlib.Path]:
    found = {}
    for folder in PACKAGES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found[module_name(path)] = path
    return found


def imports(name: str, path: pathlib.Path, known: set[str]) -> list[tuple[str, str | None]]:
    """(module imported, name taken from it or None) for each import in the module's source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, str | None]] = []
    tree = ast.parse(path.read_text(), str(path))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) in TYPE_CHECKING
        for stmt in node.body
        for inner in ast.walk(stmt)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                # ``from package import submodule`` imports the submodule.
                sub = f"{source}.{alias.name}"
                found.append((sub, None) if sub in known else (source, alias.name))
    return found


@functools.cache
def graph() -> tuple[dict[str, set[str]], list[tuple[str, str, str]]]:
    """Edges between the tree's own modules, and every (importer, module, _name) import."""
    mods = modules()
    known = set(mods)
    edges: dict[str, set[str]] = {name: set() for name in mods}
    private = []
    for name, path in mods.items():
        for target, alias in imports(name, path, known):
            # ``import a.b.c`` reaches the nearest module of the tree it names.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if not target or target == name:
                continue
            edges[name].add(target)
            if alias and alias.startswith("_") and not alias.startswith("__"):
                private.append((name, target, alias))
    return edges, private


def loops(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.add(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(frozenset(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


FLOORS = {
    "byapar_env.core": -1,  # the core every game's engine shares, below both engines
    "byapar_env.engine": 0,
    "byapar_env": 1,
    "byapar_checkpoints": 1,  # shipped weights: data only, importing nothing of the project
    "byapar_agents": 2,
    "byapar_harness": 3,
    "byapar_training": 4,
    "byapar_serve": 4,
    "bench": 5,
    CLI: 6,
}


def package(name: str) -> str:
    """The floor's package of a module: the longest name in FLOORS that holds it."""
    return max((p for p in FLOORS if name == p or name.startswith(p + ".")), key=len)


def climbs(name: str, target: str) -> bool:
    """Whether ``name`` importing ``target`` breaks the floors."""
    own, other = package(name), package(target)
    if other == CLI:
        return own != CLI
    return FLOORS[other] > FLOORS[own] or (FLOORS[other] == FLOORS[own] and other != own)


def test_the_graph_sees_the_tree() -> None:
    edges, _ = graph()
    assert "byapar_env.engine.state" in edges["byapar_env.engine.game"]
    assert "byapar_env.byapar_v0" in edges["byapar_harness.arena"]
    assert "byapar_agents" in edges["byapar_harness.offer_exploit"]  # from byapar_agents import ...
    assert "byapar_harness.arena_ray" in edges["byapar_harness.arena"]  # from .arena_ray import
    assert "byapar_harness.arena" in edges["byapar_cli.command"]  # in a function
    assert "byapar_env.engine.actions" in edges["byapar_env.engine.game"]  # from . import actions
    assert "byapar_env.engine.game" not in edges["byapar_env.engine.state"]  # TYPE_CHECKING


def test_the_floors_see_the_tree() -> None:
    assert set(modules()) >= {"byapar_env.engine.game", "byapar_harness.arena", CLI,
                              "byapar_cli.command", "byapar_serve.app", "bench.common"}
    assert not climbs("byapar_harness.arena", "byapar_env.driver")
    assert not climbs("byapar_harness.arena", "byapar_agents.hard")
    assert climbs("byapar_agents.hard", "byapar_harness.arena")
    assert not climbs("byapar_training.evaluation", "byapar_harness.arena")
    assert not climbs("byapar_serve.slow", "byapar_harness.analyse")
    assert not climbs("byapar_cli.command", "byapar_serve.app")
    assert not climbs("byapar_cli.command", "byapar_training.selfplay")
    assert not climbs("byapar_cli", "byapar_cli.command")
    assert climbs("byapar_env.driver", "byapar_harness.arena")
    assert climbs("byapar_serve.app", "byapar_training.selfplay")  # neighbours
    assert climbs("byapar_env.observation", "byapar_env.engine.serialize") is False
    assert climbs("byapar_env.engine.game", "byapar_env.driver")
    assert climbs("byapar_training.selfplay", CLI)
    assert climbs("byapar_training.selfplay", "byapar_cli.command")
    assert climbs("bench.common", "byapar_cli.command")


def test_loops_are_found() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert loops(edges) == [frozenset("abc")]


def test_no_import_loops() -> None:
    edges, _ = graph()
    found = set(loops(edges))
    assert found - KNOWN_LOOPS == set(), "new import loops"
    assert KNOWN_LOOPS - found == set(), "a known loop is gone: take it off KNOWN_LOOPS"


def test_no_private_imports_across_modules() -> None:
    _, private = graph()
    found = set(private)
    assert found - KNOWN_PRIVATE == set(), "private names imported from another module"
    assert KNOWN_PRIVATE - found == set(), "a known private import is gone: take it off"


def test_floors() -> None:
    edges, _ = graph()
    found = {
        (name, target)
        for name, targets in edges.items()
        for target in targets
        if climbs(name, target)
    }
    assert found - KNOWN_UPWARD == set(), "imports that climb a floor or import the command line"
    assert KNOWN_UPWARD - found == set(), "a known upward import is gone: take it off"


def test_every_folder_is_named_as_it_is_imported() -> None:
    """No package-dir mapping: a reader finds ``byapar_agents.hard`` at byapar_agents/hard.py."""
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert "package-dir" not in pyproject
    for folder in PACKAGES:
        assert (ROOT / folder / "__init__.py").is_file(), folder
