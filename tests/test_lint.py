"""The code base stays ruff-clean and the engines stay standard-library only."""

from __future__ import annotations

import ast
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is installed by the test extra")
def test_ruff_clean() -> None:
    result = subprocess.run(["ruff", "check", str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


# Every engine folder and the core they share, every file in them: each game's numpy encoders
# sit beside its engine (byapar_env/observation.py, byapar_env/businessman_observation.py...).
ENGINE_FOLDERS = ("byapar_env/core", "byapar_env/engine", "byapar_env/businessman")


def test_engines_import_only_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    checked = 0
    for folder in ENGINE_FOLDERS:
        for path in (ROOT / folder).glob("*.py"):
            checked += 1
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    names = [node.module]
                elif isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                    # from ..x: only the shared core, never another game's engine
                    assert node.module.split(".")[0] == "core", f"{path.name}: ..{node.module}"
                    continue
                else:
                    continue
                for name in names:
                    assert name.split(".")[0] in stdlib, f"{path.name} imports {name}"
    assert checked >= 25


@pytest.mark.parametrize("engine, other", [("byapar_env.engine", "byapar_env.businessman"),
                                           ("byapar_env.businessman", "byapar_env.engine")])
def test_each_engine_imports_alone_with_the_standard_library(engine, other) -> None:
    code = (f"import sys; import {engine}; "
            "third = sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names)"
            " - {'byapar_env', '__main__'}); "
            f"print(third, {other!r} in sys.modules)")
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT)}, check=True).stdout
    assert out.strip() == "[] False"
