"""The answer reader's prior fit (``byapar_training.answer_prior``), run as a user runs it: a
short run writes each game's answers and the fitted weights, and a second run plays nothing."""

from __future__ import annotations

import json

import numpy as np

from byapar_agents.answer_reader import FEATURES
from byapar_training.answer_prior import KINDS, main


def test_a_short_run_writes_answers_and_weights_and_resumes(tmp_path, capsys) -> None:
    out = tmp_path / "prior"
    main(["--games", "1", "--seed", "9003", "--sample", "2", "--workers", "1",
          "--out", str(out)])
    game = np.load(out / "game-9003.npz")
    report = json.loads((out / "prior.json").read_text())
    assert list(report["weights"]) == list(FEATURES)
    assert report["answers"] == len(game["y"]) > 0
    assert game["x"].shape == (len(game["y"]), len(FEATURES))
    assert set(game["y"].tolist()) <= {0.0, 1.0}
    assert all(0 <= k < len(KINDS) for k in game["kind"].tolist())
    assert set(report["by_kind"]) <= set(KINDS)
    capsys.readouterr()
    main(["--games", "1", "--seed", "9003", "--sample", "2", "--workers", "1",
          "--out", str(out)])
    assert "1 of 1 games there; playing 0" in capsys.readouterr().out
