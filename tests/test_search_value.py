"""Fitting the value network to search labels (``byapar_training.search_value``): on labels whose
order a single input feature decides, the fit orders held-out siblings better than the network
it starts from, writes a checkpoint the value network loads, and refuses a missing folder."""

from __future__ import annotations

import numpy as np
import pytest

from byapar_agents.value import ValueNet
from byapar_env.observation import OBSERVATION_SIZE
from byapar_training.chunks import chunk_path
from byapar_training.search_value import (
    SearchValueConfig,
    SearchValueError,
    choice_regret,
    fit,
)

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
                 child_prior=np.full(len(mean), 1 / 3, np.float32),
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
    assert net.meta["training"]["config"]["start"] == "the shipped value network"
    assert "the start orders" in lines[0] and len(lines) == 4


def test_a_fit_without_labels_is_refused(tmp_path) -> None:
    with pytest.raises(SearchValueError, match="no search labels in"):
        fit(SearchValueConfig(labels=(str(tmp_path / "none"),), out=str(tmp_path / "v")))
    assert not (tmp_path / "v").exists()


def test_the_choice_regret_is_what_the_rated_best_child_loses_against_the_best() -> None:
    # Two decisions: children 0-2 (means .5, .7, .6) and 3-4 (.4, .3).
    mean = np.array([0.5, 0.7, 0.6, 0.4, 0.3], np.float32)
    decision = np.array([0, 0, 0, 1, 1])
    # Rated best: child 2 (loses .1) and child 3 (loses nothing).
    assert choice_regret(np.array([0.1, 0.2, 0.9, 5.0, 1.0]), mean, decision) == \
        pytest.approx(0.05)
    assert choice_regret(mean, mean, decision) == 0.0
    # A tie goes to the first child of the decision: child 0 (.2) and child 3 (0).
    assert choice_regret(np.zeros(5), mean, decision) == pytest.approx(0.1)


def test_the_anchor_keeps_the_fit_near_the_start_network(tmp_path) -> None:
    _write_labels(tmp_path / "labels")
    moved = {}
    for weight in (0.0, 50.0):
        out = tmp_path / f"value{weight}"
        fit(SearchValueConfig(labels=(str(tmp_path / "labels"),), out=str(out), epochs=2,
                              batch=8, lr=5e-3, anchor_weight=weight), lambda line: None)
        rows = np.random.default_rng(1).random((40, OBSERVATION_SIZE)).astype(np.float32)
        start, fitted = ValueNet.load().network, ValueNet.load(out).network
        moved[weight] = float(np.abs(fitted.logits(rows) - start.logits(rows)).mean())
    assert moved[50.0] < moved[0.0] / 2


def test_a_negative_anchor_weight_is_refused(tmp_path) -> None:
    _write_labels(tmp_path / "labels")
    with pytest.raises(SearchValueError, match="anchor_weight must be at least 0"):
        fit(SearchValueConfig(labels=(str(tmp_path / "labels"),), out=str(tmp_path / "v"),
                              anchor_weight=-1.0))
