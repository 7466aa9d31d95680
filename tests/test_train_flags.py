"""``byapar train`` takes the arena's names for what they share: ``--workers`` is
``--n-workers`` (as ``--num-workers`` is, Ray's name)."""

from __future__ import annotations

import pytest

from byapar_training.config import parse_command


@pytest.mark.parametrize("flag", ["--n-workers", "--num-workers", "--workers"])
def test_every_name_of_the_workers_flag_sets_it(flag) -> None:
    config, given = parse_command(["--run-dir", "r", flag, "3"])
    assert config.n_workers == 3 and "n_workers" in given


def test_export_names_the_checkpoint_after_the_run_by_default(tmp_path) -> None:
    import shutil
    import subprocess
    import sys

    from byapar_checkpoints import shipped

    run = tmp_path / "my-run"
    shutil.copytree(shipped("hard"), run / "pool" / "step_000000000")
    (run / "latest.pt").write_bytes(b"")  # a compact run's save; the snapshot is exported
    done = subprocess.run([sys.executable, "-m", "byapar_cli", "export", str(run), "--snapshot",
                           "0", "--out", str(tmp_path / "out")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "my-run" / "meta.json").exists()
