"""Imported names explain themselves (issue 40).

An AST read of every Python file in the checkout (packages, tests, benchmarks): no ``import X as
Y`` or ``from M import X as Y`` where Y is one or two capital letters (``board as B``, ``actions
as BA``, ``gauntlet as G``). Such a name says nothing where it is used; ``board.SQUARES`` does.
Folders that hold no project code (``runs/``, builds, virtual environments, caches, hidden
ones) are not read.
"""

from __future__ import annotations

import ast
import os
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent

SHORT = re.compile(r"[A-Z][A-Z]?")
# Only files with such text anywhere are parsed (parsing all of them takes seconds).
MAYBE = re.compile(r"\bas\s+[A-Z][A-Z]?\b")
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
    )
    assert short_aliases(source) == [
        (2, "board", "B"),
        (3, "byapar_harness.gauntlet", "G"),
        (4, "actions", "BA"),
        (8, "tables", "T"),
    ]
    # the quick text filter lets exactly those lines through
    lines = source.splitlines()
    assert [n for n, line in enumerate(lines, 1) if MAYBE.search(line)] == [2, 3, 4, 8]


def test_no_file_imports_a_name_under_one_or_two_capital_letters() -> None:
    files = python_files()
    # The whole tree is read, this file among it (about 290 files today).
    assert pathlib.Path(__file__).resolve() in files and len(files) > 200
    found = [f"{path.relative_to(ROOT)}:{line}: {name} as {alias}"
             for path in files if MAYBE.search(text := path.read_text())
             for line, name, alias in short_aliases(text)]
    assert found == []
