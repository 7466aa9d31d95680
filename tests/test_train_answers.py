"""byapar train-answers: the policy's accept and decline rows taught the value network's check;
nothing else in the checkpoint changes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from byapar_agents import LearnedPlayer
from byapar_agents.hard import DEFAULT_CHECKPOINT
from byapar_agents.network import load_checkpoint
from byapar_agents.trade_guard import ACCEPT_ID, REJECT_ID
from byapar_cli import main


def test_only_the_answer_rows_change(tmp_path, capsys) -> None:
    out = tmp_path / "taught"
    assert main(["train-answers", "hard", "--out", str(out), "--positions", "2",
                 "--seed", "7"]) == 0
    fits = json.loads(capsys.readouterr().out)
    assert set(fits) == {"main", "2"}  # the main policy and the heads-up specialist
    for sub in ("", "table_2"):
        old, _ = load_checkpoint(DEFAULT_CHECKPOINT / sub if sub else DEFAULT_CHECKPOINT)
        new, meta = load_checkpoint(out / sub if sub else out)
        for (w0, b0), (w1, b1) in zip(old.layers[:-1], new.layers[:-1], strict=True):
            assert np.array_equal(w0, w1) and np.array_equal(b0, b1)
        (w0, b0), (w1, b1) = old.layers[-1], new.layers[-1]
        others = [i for i in range(w0.shape[1]) if i not in (ACCEPT_ID, REJECT_ID)]
        assert np.array_equal(w0[:, others], w1[:, others])
        assert np.array_equal(b0[others], b1[others])
        assert not np.array_equal(w0[:, ACCEPT_ID], w1[:, ACCEPT_ID])
        # the change is split evenly: the sum of the two rows stays
        assert np.allclose(w0[:, ACCEPT_ID] + w0[:, REJECT_ID],
                           w1[:, ACCEPT_ID] + w1[:, REJECT_ID], atol=1e-5)
        fit = meta["answers"]["fit"]
        assert fit["offers"] > 0 and fit["before"]["refuses_what_the_check_refused"] == 0.0
        assert meta["answers"]["command"].startswith("byapar train-answers hard")
    assert LearnedPlayer(out).specialists  # a checkpoint like any other, specialist included


@pytest.mark.parametrize("args,message", [
    (["--seed", "0"], "--seed must be from 1"),
    (["--positions", "0"], "--positions must be from 1"),
    (["--out", str(DEFAULT_CHECKPOINT)], "--out must be a new folder"),
])
def test_bad_values_are_refused_in_one_line(args, message, tmp_path, capsys) -> None:
    base = ["train-answers", "hard", "--out", str(tmp_path / "x")]
    assert main(base + args) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
