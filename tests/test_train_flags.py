"""``byapar train`` takes the arena's names for what they share: ``--workers`` is
``--n-workers`` (as ``--num-workers`` is, Ray's name)."""

from __future__ import annotations

import pytest

from byapar_training.config import parse_command


@pytest.mark.parametrize("flag", ["--n-workers", "--num-workers", "--workers"])
def test_every_name_of_the_workers_flag_sets_it(flag) -> None:
    config, given = parse_command(["--run-dir", "r", flag, "3"])
    assert config.n_workers == 3 and "n_workers" in given
