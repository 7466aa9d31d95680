"""Search labels for the value network (``byapar_training.search_labels``): a tiny run writes chunks
whose arrays agree with each other, a second run of the same folder redoes nothing, another
folder with the same settings gets the same labels, and bad settings are refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from byapar_env.engine import Game, Phase, Rules, actions
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
    (dict(target="leaves"), "--target must be one of children, horizon"),
    (dict(target="horizon", label_rounds=0), "--label-rounds must be a whole number from 1"),
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


def _first_purchase() -> Game:
    """Seat 0 of three on square 3 (the second place) after a forced roll of 1 and 2, with
    Rs 3,000 in hand: buy it or not (the policy buys; declining is its runner-up)."""
    game = Game(Rules(num_players=3), seed=8)
    game.forced_dice = [(1, 2)]
    game.apply(actions.ROLL)
    game.cash[0] = 3000
    assert game.legal_actions() == [actions.Action(actions.ActionKind.BUY, 3),
                                    actions.Action(actions.ActionKind.DECLINE, 3)]
    return game


def test_horizon_labels_are_the_positions_the_search_reads_labelled_rounds_on() -> None:
    from byapar_agents.expert import ExpertPlayer
    from byapar_agents.search import Rollouts, rollout_seeds, search_root
    from byapar_env.fast_play import play_on
    from byapar_env.observation import SLICES
    from byapar_training.search_labels import horizon_decisions

    game = _first_purchase()
    before = game.to_json()

    def label(rounds: int) -> tuple[list[dict], ExpertPlayer]:
        expert = ExpertPlayer(5, sims=6, focus=False, rollout="mixed")
        config = _config("unused", sims=6, target="horizon", label_rounds=rounds,
                         rollout="mixed")
        return horizon_decisions(game, 0, expert, config, seed=11), expert

    three, expert = label(3)
    one, _ = label(1)
    assert game.to_json() == before  # the game itself is untouched
    buy = actions.Action(actions.ActionKind.BUY, 3)
    listed = [c.action for c in expert.candidates(game, 0)[0]]
    assert listed == [buy, actions.Action(actions.ActionKind.DECLINE, 3)]
    # Six simulations over two candidates: three rounds, each a decision of two children.
    assert len(three) == 3
    rounds = SLICES["turn.round"].start
    owner_seat0 = SLICES["places"].start + 1 * 10 + 1  # square 3 is the second place
    for decision, shorter in zip(three, one, strict=True):
        assert (decision["seat"], decision["players"], decision["phase"]) == (0, 3, Phase.BUY)
        assert len(decision["children"]) == 2
        for action, child, same in zip(listed, decision["children"], shorter["children"],
                                       strict=True):
            # every child is one round on (the horizon), whatever the label looks at
            assert child["obs"][:, rounds] == pytest.approx((game.round + 1) / 40)
            assert np.array_equal(child["obs"], same["obs"])
            assert 0.0 <= child["mean"] <= 1.0 and child["scores"] == [child["mean"]]
            if action == buy:  # the seat that bought holds the place at the horizon
                assert child["obs"][child["seat_row"], owner_seat0] == 1.0
    assert [c["mean"] for d in three for c in d["children"]] != \
        [c["mean"] for d in one for c in d["children"]]
    # The label: the first simulation played on three rounds past the horizon, as read by the
    # value network.
    rollouts = Rollouts(search_root(game), 0, 0, 1, "mixed", expert.policy(game), expert.value)
    seed = rollout_seeds(11).getrandbits(62)
    at = rollouts.play(listed[0], seed)
    play_on(at, rollouts.seat_players(seed), (at.round + 3, at.turn))
    assert at.round == game.round + 4
    assert three[0]["children"][0]["mean"] == pytest.approx(expert.value.win_chances(at)[0])


def test_a_tiny_horizon_run_writes_chunks_the_fit_reads(tmp_path) -> None:
    from byapar_training.search_value import load_decisions

    generate(_config(tmp_path / "h", games=1, target="horizon", rollout="mixed"),
             lambda line: None)
    path = tmp_path / "h" / "data" / "chunk_0000.npz"
    d = np.load(path)
    counts = np.bincount(d["child_decision"], minlength=len(d["decision_seat"]))
    assert len(counts) >= 1 and (counts >= 2).all()
    assert np.array_equal(d["child_scores"][:, 0], d["child_mean"])
    assert (d["child_scores"][:, 1:] == -1).all()
    loaded = load_decisions([path])
    assert len(loaded["mean"]) == int((d["child_seat_row"] >= 0).sum())
