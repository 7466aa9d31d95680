"""Names explain themselves (issue 40).

An AST read of every Python file in the checkout (packages, tests, benchmarks) for short names
that only stand for another: one or two capital letters, an underscore before them allowed.

- No ``import X as Y`` or ``from M import X as Y`` with such a Y (``board as B``, ``actions as
  BA``, ``gauntlet as G``).
- No assignment of a name, or of an attribute of one, to such a name, at any depth
  (``K = ActionKind``, ``_F = board.FIGURES``, ``L = _LAYOUT`` in a function). A computed
  value (``K = member_lookup(ActionKind)``, ``T = TypeVar("T")``) is not a renaming.

Such a name says nothing where it is used; ``board.SQUARES`` and ``ActionKind.ROLL`` do.
Folders that hold no project code (``runs/``, builds, virtual environments, caches, hidden
ones) are not read.
"""

from __future__ import annotations

import ast
import os
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent

SHORT = re.compile(r"_?[A-Z][A-Z]?")
# Only files with such text anywhere are parsed (parsing all of them takes seconds).
MAYBE = re.compile(r"\bas\s+_?[A-Z][A-Z]?\b")
MAYBE_ASSIGNED = re.compile(r"^[ \t]*_?[A-Z][A-Z]?[ \t]*(?::[^=\n]*)?=(?!=)", re.MULTILINE)
SKIPPED_FOLDERS = {"runs", "build", "dist", "venv", "__pycache__"}


def python_files() -> list[pathlib.Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders
                         if not name.startswith(".") and name not in SKIPPED_FOLDERS
                         and not name.endswith(".egg-info")]
        found += [pathlib.Path(folder, name) for name in files if name.endswith(".py")]
    return sorted(found)


def short_aliases(source: str) -> list[tuple[int, str, str]]:
    """(line, imported name, alias) of each import whose alias is one or two capitals."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found += [(node.lineno, alias.name, alias.asname) for alias in node.names
                      if alias.asname and SHORT.fullmatch(alias.asname)]
    return sorted(found)


def dotted_name(node: ast.expr) -> str | None:
    """``a.b.c`` when the expression is a name or attributes of one, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def short_renames(source: str) -> list[tuple[int, str, str]]:
    """(line, short name, the name it stands for) of each assignment of a name, or of an
    attribute of one, to one or two capitals."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        else:
            continue
        name = dotted_name(node.value)
        found += [(node.lineno, target.id, name) for target in targets
                  if name and isinstance(target, ast.Name) and SHORT.fullmatch(target.id)]
    return sorted(found)


def test_the_check_finds_short_aliases_at_any_depth_and_nothing_else() -> None:
    source = (
        "import numpy as np\n"
        "from byapar_env.engine import board as B\n"
        "import byapar_harness.gauntlet as G\n"
        "from . import actions as BA, board as board_facts\n"
        "from byapar_env.engine import Game as ABC\n"
        "from byapar_env.engine import actions as Ab\n"
        "def f():\n"
        "    from byapar_serve import tables as T\n"
        "    from byapar_env.engine import Rules as R1\n"
        "from byapar_env.engine import state as _S\n"
    )
    assert short_aliases(source) == [
        (2, "board", "B"),
        (3, "byapar_harness.gauntlet", "G"),
        (4, "actions", "BA"),
        (8, "tables", "T"),
        (10, "state", "_S"),
    ]
    # the quick text filter lets exactly those lines through
    lines = source.splitlines()
    assert [n for n, line in enumerate(lines, 1) if MAYBE.search(line)] == [2, 3, 4, 8, 10]


def test_the_check_finds_short_renamings_at_any_depth_and_nothing_else() -> None:
    source = (
        "K = ActionKind\n"
        "_F = board.FIGURES\n"
        "FIGURES = board.FIGURES\n"
        "K2 = ActionKind\n"
        "_P = member_lookup(Phase)\n"
        "T = TypeVar('T')\n"
        "NO = -1\n"
        "_ = ActionKind\n"
        "class Player:\n"
        "    RP: type = Phase\n"
        "    def choose(self):\n"
        "        S = self.state.sets\n"
        "        ABC = SetState\n"
        "        k = ActionKind\n"
        "        A = B = board\n"
        "        if S == K: pass\n"
    )
    assert short_renames(source) == [
        (1, "K", "ActionKind"),
        (2, "_F", "board.FIGURES"),
        (10, "RP", "Phase"),
        (12, "S", "self.state.sets"),
        (15, "A", "board"),
        (15, "B", "board"),
    ]
    # the quick text filter lets those lines through (and some computed values, parsed away)
    lines = source.splitlines()
    assert [n for n, line in enumerate(lines, 1) if MAYBE_ASSIGNED.search(line)] == [
        1, 2, 5, 6, 7, 10, 12, 15]


def test_no_file_imports_a_name_under_one_or_two_capital_letters() -> None:
    files = python_files()
    # The whole tree is read, this file among it (about 290 files today).
    assert pathlib.Path(__file__).resolve() in files and len(files) > 200
    found = [f"{path.relative_to(ROOT)}:{line}: {name} as {alias}"
             for path in files if MAYBE.search(text := path.read_text())
             for line, name, alias in short_aliases(text)]
    assert found == []


def test_no_file_renames_a_name_to_one_or_two_capital_letters() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {short} = {name}"
             for path in python_files() if MAYBE_ASSIGNED.search(text := path.read_text())
             for line, short, name in short_renames(text)]
    assert found == []
