"""``byapar train --device``: where the network learns (the games stay on the CPU)."""

from __future__ import annotations

import dataclasses

import pytest

torch = pytest.importorskip("torch")

from byapar_training.checks import check_config  # noqa: E402
from byapar_training.common import training_device  # noqa: E402
from byapar_training.config import Config, ConfigError  # noqa: E402


def test_auto_is_a_gpu_where_there_is_one_else_the_cpu() -> None:
    want = "cuda" if torch.cuda.is_available() else "cpu"
    assert training_device("auto").type == want
    assert training_device("cpu").type == "cpu"


def test_a_device_that_is_not_there_is_refused_in_one_line(tmp_path) -> None:
    config = Config(run_dir=str(tmp_path / "r"), trainer="compact")
    with pytest.raises(ConfigError, match="--device must be cpu, cuda or auto, got 'tpu'"):
        check_config(dataclasses.replace(config, device="tpu"))
    if not torch.cuda.is_available():
        with pytest.raises(ConfigError, match="--device cuda: torch .* finds no CUDA device"):
            check_config(dataclasses.replace(config, device="cuda"))
