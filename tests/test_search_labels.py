"""Search labels for the value network (``byapar_training.search_labels``): a tiny run writes chunks
whose arrays agree with each other, a second run of the same folder redoes nothing, another
folder with the same settings gets the same labels, and bad settings are refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from byapar_env.engine import Game, Rules, actions
from byapar_training.search_labels import (
    SearchLabelConfig,
    SearchLabelError,
    child_game,
    generate,
    validate,
)


def _config(run_dir, **changes) -> SearchLabelConfig:
    settings = dict(run_dir=str(run_dir), games=2, chunk_games=1, sample_rate=0.03, sims=4,
                    table_sizes="3")
    settings.update(changes)
    return SearchLabelConfig(**settings)


def test_a_tiny_run_writes_consistent_resumable_reproducible_labels(tmp_path) -> None:
    lines: list[str] = []
    generate(_config(tmp_path / "a"), lines.append)
    chunks = sorted((tmp_path / "a" / "data").glob("chunk_*.npz"))
    assert [p.name for p in chunks] == ["chunk_0000.npz", "chunk_0001.npz"]
    decisions = 0
    for path in chunks:
        d = np.load(path)
        n_children = len(d["child_decision"])
        decisions += len(d["decision_seat"])
        # Every observation row belongs to a child, every child to a decision, every decision
        # has two children or more, and the deciding seat's row is one of its child's rows.
        assert d["obs"].shape == (len(d["row_child"]), 677)
        assert set(d["row_child"]) == set(range(n_children))
        counts = np.bincount(d["child_decision"], minlength=len(d["decision_seat"]))
        assert (counts >= 2).all()
        rows_per_child = np.bincount(d["row_child"], minlength=n_children)
        assert ((d["child_seat_row"] >= 0) & (d["child_seat_row"] < rows_per_child)).all()
        assert (d["decision_players"] == 3).all()
        # Scores are win chances; a child's mean is the mean of its paired scores.
        scores = d["child_scores"]
        for c in range(n_children):
            played = scores[c][scores[c] >= 0]
            assert len(played) >= 1 and ((played >= 0) & (played <= 1)).all()
            assert d["child_mean"][c] == pytest.approx(played.mean(), rel=1e-5)
        # Siblings were scored on the same rounds (common random numbers: paired).
        for k in range(len(d["decision_seat"])):
            played = {(scores[c] >= 0).sum() for c in np.flatnonzero(d["child_decision"] == k)}
            assert len(played) == 1
    assert decisions >= 1
    assert len(lines) == 2
    before = [p.stat().st_mtime_ns for p in chunks]
    generate(_config(tmp_path / "a"), lines.append)  # nothing left to do
    assert [p.stat().st_mtime_ns for p in chunks] == before
    assert lines[-1] == "games: all 2 chunks are there"
    # The same settings elsewhere: the same labels, array for array.
    generate(_config(tmp_path / "b", games=1), lambda line: None)
    a, b = np.load(chunks[0]), np.load(tmp_path / "b" / "data" / "chunk_0000.npz")
    assert a.files == b.files
    for name in a.files:
        assert np.array_equal(a[name], b[name]), name


@pytest.mark.parametrize("change, message", [
    (dict(sims=1), "--sims must be a whole number from 2"),
    (dict(sample_rate=0), "--sample-rate must be above 0"),
    (dict(rollout="best"), "--rollout must be one of"),
    (dict(table_sizes="1,4"), "table-sizes"),
    (dict(workers=0), "--workers must be a whole number from 1"),
    (dict(value="no-such-folder"), "--value: "),
    (dict(roster="outside-monopyly-huw:1"), "--roster: 'outside-monopyly-huw' is kept unseen"),
    (dict(roster="medium"), "--roster must be"),
])
def test_bad_settings_are_refused_by_name(tmp_path, change, message) -> None:
    with pytest.raises(SearchLabelError, match=message):
        validate(_config(tmp_path, **change))
    assert not (tmp_path / "data").exists()


def test_a_rolling_child_is_the_position_before_the_dice() -> None:
    game = Game(Rules(num_players=3), seed=8)
    rolled = child_game(game, 0, actions.ROLL)
    assert rolled is not game and rolled.to_json() == game.to_json()
    assert rolled.position == [0, 0, 0] and rolled.phase == game.phase
    clone = child_game(game, 0, actions.ROLL)
    clone.apply(actions.ROLL)  # the clone rolls on its own; the game is untouched
    assert game.position == [0, 0, 0]


def test_the_next_round_labels_with_the_value_network_it_is_given(tmp_path) -> None:
    from byapar_agents.network import NumpyPolicy
    from byapar_agents.value import DEFAULT_VALUE, ValueNet

    shipped = ValueNet.load(DEFAULT_VALUE)
    # Another network: the shipped one with its last layer's weights halved.
    layers = [(w.copy(), b.copy()) for w, b in shipped.network.layers]
    layers[-1] = (layers[-1][0] * 0.5, layers[-1][1])
    ValueNet(NumpyPolicy(layers, shipped.network.activation), dict(shipped.meta)).save(
        tmp_path / "other", {"name": "value"})
    runs = {}
    for name, value in (("default", ""), ("named", str(DEFAULT_VALUE)),
                        ("other", str(tmp_path / "other"))):
        generate(_config(tmp_path / name, games=1, value=value), lambda line: None)
        runs[name] = np.load(tmp_path / name / "data" / "chunk_0000.npz")
    # The shipped network named: the same labels; another network: other simulated means.
    assert np.array_equal(runs["default"]["child_mean"], runs["named"]["child_mean"])
    assert not np.array_equal(runs["default"]["child_mean"], runs["other"]["child_mean"])
