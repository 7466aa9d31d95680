"""Fitting the value network to search labels (``training.search_value``): on labels whose
order a single input feature decides, the fit orders held-out siblings better than the network
it starts from, writes a checkpoint the value network loads, and refuses a missing folder."""

from __future__ import annotations

import numpy as np
import pytest
from byapar_agents.value import ValueNet
from byapar_training.chunks import chunk_path
from byapar_training.search_value import SearchValueConfig, SearchValueError, fit

from byapar_env.observation import OBSERVATION_SIZE

# The input the labels follow (of the eight that vary): more of it, a better child for the
# deciding seat.
FEATURE = 5


def _write_labels(run, chunks: int = 10, decisions: int = 30, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for k in range(chunks):
        obs, row_child, child_decision, seat_row, mean = [], [], [], [], []
        for d in range(decisions):
            for _ in range(3):  # three children, two seats each; seat 0 decided
                c = len(child_decision)
                # Positions alike but for a few inputs, as siblings are; FEATURE decides.
                rows = np.zeros((2, OBSERVATION_SIZE), np.float16)
                rows[:, :8] = rng.random((2, 8))
                obs.append(rows)
                row_child += [c, c]
                child_decision.append(d)
                seat_row.append(0)
                mean.append(float(rows[0, FEATURE]) * 0.8 + 0.1)
        path = chunk_path(run, k)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, obs=np.concatenate(obs), row_child=np.array(row_child, np.int32),
                 child_decision=np.array(child_decision, np.int32),
                 child_seat_row=np.array(seat_row, np.int16),
                 child_mean=np.array(mean, np.float32),
                 decision_seat=np.zeros(decisions, np.int16))


def test_the_fit_learns_the_sibling_order_and_writes_a_value_checkpoint(tmp_path) -> None:
    _write_labels(tmp_path / "labels")
    lines: list[str] = []
    out = tmp_path / "value"
    summary = fit(SearchValueConfig(labels=(str(tmp_path / "labels"),), out=str(out),
                                    epochs=3, batch=8, lr=5e-3), lines.append)
    start = summary["start"]["pair_order"]
    best = max(h["pair_order"] for h in summary["history"])
    assert summary["start"]["pairs"] > 20
    assert best > start + 0.15 and best > 0.7
    assert summary["written"]
    net = ValueNet.load(out)  # the value network's own format and checks
    assert net.meta["training"]["held_out"]["pair_order"] == best
    assert "the start orders" in lines[0] and len(lines) == 4


def test_a_fit_without_labels_is_refused(tmp_path) -> None:
    with pytest.raises(SearchValueError, match="no search labels in"):
        fit(SearchValueConfig(labels=(str(tmp_path / "none"),), out=str(tmp_path / "v")))
    assert not (tmp_path / "v").exists()
