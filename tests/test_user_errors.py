"""One base for every user-facing error (issue 25): each error class of a bad value in the tree
derives from ``ByaparError``, and the ``byapar`` command reports any of them as one line.

An AST read of the tree, as ``test_floors`` does: a class whose bases reach ``ValueError``,
``TypeError`` or ``ImportError`` (by name, through the tree's own classes) must reach
``ByaparError`` too, with none let off.
"""

from __future__ import annotations

import ast

import pytest
from test_floors import modules

from byapar_cli import command as cli
from byapar_env.engine.errors import ByaparError

BUILTIN_BAD_VALUES = {"ValueError", "TypeError", "ImportError"}


def _bases() -> dict[str, set[str]]:
    """Each class of the tree (by name) and the names of its bases."""
    found: dict[str, set[str]] = {}
    for path in modules().values():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                names = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                         for b in node.bases}
                found.setdefault(node.name, set()).update(names)
    return found


def _reaches(name: str, targets: set[str], bases: dict[str, set[str]], seen=None) -> bool:
    seen = set() if seen is None else seen
    if name in targets:
        return True
    if name in seen:
        return False
    seen.add(name)
    return any(_reaches(b, targets, bases, seen) for b in bases.get(name, ()))


def test_every_error_of_a_bad_value_is_a_byapar_error() -> None:
    bases = _bases()
    errors = {name for name in bases if _reaches(name, BUILTIN_BAD_VALUES, bases)}
    assert {"ArenaError", "UsageError", "MissingPackageError", "ExportError"} <= errors
    missing = sorted(name for name in errors
                     if not _reaches(name, {"ByaparError"}, bases))
    assert missing == [], f"error classes that do not derive from ByaparError: {missing}"


def test_the_byapar_errors_stay_what_they_were() -> None:
    from byapar_agents import UnknownAgentError
    from byapar_harness.analyse import AnalyseError
    from byapar_harness.arena import ArenaError
    from byapar_training.common import MissingPackageError, UsageError

    for cls in (UnknownAgentError, AnalyseError, ArenaError, UsageError):
        assert issubclass(cls, ByaparError) and issubclass(cls, ValueError)
    assert issubclass(MissingPackageError, ByaparError)
    assert issubclass(MissingPackageError, ImportError)


@pytest.mark.parametrize("base", [ByaparError, ValueError])
def test_the_command_reports_a_byapar_error_in_one_line(base, capsys, monkeypatch) -> None:
    class Odd(base):
        pass

    def job(argv: list[str]) -> int:
        raise Odd("a bad value\nover two lines")

    monkeypatch.setitem(cli.COMMANDS, "arena", ("", job))
    if base is ByaparError:
        assert cli.main(["arena"]) == 2
        err = capsys.readouterr().err
        assert err == "byapar arena: a bad value over two lines\n"
    else:  # not one of the project's errors: a bug, whose traceback is the report
        with pytest.raises(Odd):
            cli.main(["arena"])
