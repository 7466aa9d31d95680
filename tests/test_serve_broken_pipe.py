"""``byapar ... | head``: a reader that goes away ends the command quietly (exit 141, no
traceback), and the files it was asked to write (``arena --json``) are written first."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from byapar_cli import command as cli


class ClosedPipe(io.TextIOBase):
    """Standard output whose reader has gone: every write fails as a closed pipe does."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def writable(self) -> bool:
        return True


def test_main_ends_quietly_when_stdout_is_closed(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert cli.main(["--version"]) == 141
    assert cli.main(["--help"]) == 141
    assert capsys.readouterr().err == ""


def test_arena_piped_into_a_closed_reader_keeps_its_json(tmp_path) -> None:
    out = tmp_path / "arena.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "byapar_cli", "arena", "--players", "random,easy",
         "--games", "2", "--workers", "1", "--rounds", "5", "--quiet", "--json", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the arena prints its table
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(120) == 141, err
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    summary = json.loads(out.read_text())
    assert summary["config"]["games"] == 2
    assert summary["players"]["random"]["games"] == summary["players"]["easy"]["games"] == 2
