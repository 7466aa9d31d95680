"""``python -m byapar_training.restamp``: board hash 2981d70... -> the current one, nothing else."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from byapar_agents.network import load_checkpoint
from byapar_env.engine import board
from byapar_training import restamp

SHIPPED = Path(__file__).resolve().parent.parent / "byapar_checkpoints" / "hard"


def _old_checkpoint(tmp_path: Path, **changes: object) -> Path:
    """A copy of the shipped hard checkpoint (with its 2-player specialist) as it was before
    the restamp, with ``changes`` made to the main meta.json."""
    folder = tmp_path / "hard"
    shutil.copytree(SHIPPED, folder)
    for meta_path in (folder / "meta.json", folder / "table_2" / "meta.json"):
        meta = json.loads(meta_path.read_text())
        meta["board_hash"] = restamp.PREVIOUS_BOARD_HASH
        if meta_path.parent == folder:
            meta.update(changes)
        meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    return folder


def _texts(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in sorted(folder.rglob("meta.json"))}


def test_the_migration_is_this_installation() -> None:
    """The old formula gives the previous hash from today's data (the same figures), and the
    current hash is the one the migration leads to (and the shipped checkpoints carry)."""
    assert restamp.legacy_board_hash() == restamp.PREVIOUS_BOARD_HASH
    assert board.BOARD_HASH == restamp.RESTAMPED_BOARD_HASH != restamp.PREVIOUS_BOARD_HASH
    for meta_path in (SHIPPED / "meta.json", SHIPPED / "table_2" / "meta.json"):
        assert json.loads(meta_path.read_text())["board_hash"] == board.BOARD_HASH


def test_an_old_checkpoint_is_restamped_and_loads(tmp_path: Path) -> None:
    folder = _old_checkpoint(tmp_path)
    before = {p: json.loads(t) for p, t in _texts(folder).items()}
    assert restamp.main([str(folder), "--dry-run"]) == 0
    assert {p: json.loads(t) for p, t in _texts(folder).items()} == before  # dry run: unchanged
    assert restamp.main([str(folder)]) == 0
    after = {p: json.loads(t) for p, t in _texts(folder).items()}
    assert set(after) == {"meta.json", "table_2/meta.json"}  # the specialist too
    for path, meta in after.items():
        assert meta == {**before[path], "board_hash": board.BOARD_HASH}  # and nothing else
    policy, meta = load_checkpoint(folder)
    shipped, _ = load_checkpoint(SHIPPED)
    assert [w.tolist() for w, _ in policy.layers] == [w.tolist() for w, _ in shipped.layers]
    assert restamp.main([str(folder)]) == 0  # already current: left as it is


@pytest.mark.parametrize(("change", "message"), [
    ({"board_hash": "0000000000000000"}, "only checkpoints of the previous board hash"),
    ({"observation_version": 3}, "observation_version = 3"),
    ({"action_version": 2}, "action_version = 2"),
    ({"action_table_hash": "ffffffffffffffff"}, "action_table_hash"),
    ({"format": "something-else"}, "format"),
])
def test_anything_but_the_previous_board_hash_is_refused(tmp_path: Path, capsys,
                                                        change: dict, message: str) -> None:
    good = _old_checkpoint(tmp_path / "good")
    bad = _old_checkpoint(tmp_path / "bad", **change)
    before = {**_texts(good), **{f"bad/{k}": v for k, v in _texts(bad).items()}}
    assert restamp.main([str(good), str(bad)]) == 2
    err = capsys.readouterr().err
    assert message in err and "nothing was written" in err
    # All or nothing: the good folder named with it is not written either.
    assert {**_texts(good), **{f"bad/{k}": v for k, v in _texts(bad).items()}} == before


def test_a_changed_board_refuses_every_restamp(tmp_path: Path, monkeypatch) -> None:
    """Once a figure really changes, old checkpoints must be retrained, not relabelled."""
    folder = _old_checkpoint(tmp_path)
    before = _texts(folder)
    monkeypatch.setattr(board, "BOARD_HASH", "1234123412341234")
    with pytest.raises(restamp.RestampError, match="a figure has changed"):
        restamp.restamp([folder])
    assert _texts(folder) == before


def test_a_folder_without_a_checkpoint_is_refused(tmp_path: Path, capsys) -> None:
    assert restamp.main([str(tmp_path)]) == 2
    assert "no meta.json" in capsys.readouterr().err


def test_the_module_runs_from_the_command_line(tmp_path: Path) -> None:
    folder = _old_checkpoint(tmp_path)
    done = subprocess.run([sys.executable, "-m", "byapar_training.restamp", str(folder)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "restamped" in done.stdout
    load_checkpoint(folder)
