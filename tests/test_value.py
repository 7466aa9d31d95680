"""The value network: win chances from a position, its checkpoint, its training and its use by
the search."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scenario import new_game

from byapar_agents import CheckpointError, make_agent
from byapar_agents.expert import ExpertBudgetError, ExpertPlayer
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.network import NumpyPolicy
from byapar_agents.search import Rollouts, search_root
from byapar_agents.value import DEFAULT_VALUE, ValueNet
from byapar_env.engine import Phase, actions
from byapar_env.observation import OBSERVATION_SIZE, OBSERVATION_VERSION, encode


def _net(weights: np.ndarray, bias: float = 0.0) -> ValueNet:
    """A one-layer value network: a seat's score is ``observation @ weights + bias``."""
    return ValueNet(NumpyPolicy([(weights.reshape(-1, 1).astype(np.float32),
                                  np.array([bias], np.float32))]))


def _cash_index() -> int:
    """An observation entry that is seat 0's own cash in seat 0's view and not in the others'."""
    game = new_game(3, seed=0)
    views = [encode(game, s, np.zeros(OBSERVATION_SIZE, np.float32)) for s in range(3)]
    game.cash[0] += 5_000
    after = encode(game, 0, np.zeros(OBSERVATION_SIZE, np.float32))
    return int(np.flatnonzero(after != views[0])[0])


def test_flat_scores_give_every_seat_still_in_an_equal_chance() -> None:
    game = new_game(4, seed=2)
    net = _net(np.zeros(OBSERVATION_SIZE))
    assert net.win_chances(game) == [0.25] * 4
    game.bankrupt[1] = True
    chances = net.win_chances(game)
    assert chances[1] == 0.0 and chances[0] == chances[2] == chances[3] == pytest.approx(1 / 3)


def test_a_higher_score_is_a_higher_chance_and_the_chances_sum_to_one() -> None:
    game = new_game(3, seed=0)
    weights = np.zeros(OBSERVATION_SIZE)
    weights[_cash_index()] = 1.0
    game.cash[0] += 5_000  # only seat 0 reads its own cash at that entry as this much
    chances = _net(weights).win_chances(game)
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] > chances[1] and chances[1] == pytest.approx(chances[2])


def test_a_finished_game_gives_the_true_shares_whatever_the_network() -> None:
    game = new_game(3, seed=0)
    game.bankrupt[1] = game.bankrupt[2] = True
    game.phase = Phase.GAME_OVER
    game.winners = [0]
    assert _net(np.ones(OBSERVATION_SIZE)).win_chances(game) == [1.0, 0.0, 0.0]


def test_rollouts_score_the_horizon_by_the_value_network() -> None:
    game = new_game(4, seed=5)
    flat = _net(np.zeros(OBSERVATION_SIZE))
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy_for(4)
    scores = [Rollouts(search_root(game), 0, 0, 1, "mixed", policy, flat).run(actions.ROLL, seed)
              for seed in range(4)]
    assert scores == [0.25] * 4  # one round on, nobody out: the flat network's even chances
    share = Rollouts(search_root(game), 0, 0, 1, "mixed", policy).run(actions.ROLL, 0)
    assert share != 0.25  # without it, the position-value share


def test_a_value_checkpoint_round_trips(tmp_path) -> None:
    net = _net(np.linspace(-1, 1, OBSERVATION_SIZE), 0.5)
    net.save(tmp_path / "v", {"name": "value"})
    back = ValueNet.load(tmp_path / "v")
    game = new_game(5, seed=3)
    assert back.win_chances(game) == pytest.approx(net.win_chances(game))
    assert back.meta["format"] == "byapar-value"


def test_damaged_or_foreign_value_checkpoints_are_refused(tmp_path) -> None:
    with pytest.raises(CheckpointError, match="has no meta.json"):
        ValueNet.load(tmp_path / "missing")
    # A policy checkpoint is not a value network.
    with pytest.raises(CheckpointError, match="format"):
        ValueNet.load(DEFAULT_CHECKPOINT)
    net = _net(np.zeros(OBSERVATION_SIZE))
    net.save(tmp_path / "v", {})
    meta = json.loads((tmp_path / "v" / "meta.json").read_text())
    (tmp_path / "v" / "meta.json").write_text(json.dumps(
        {**meta, "observation_version": OBSERVATION_VERSION + 1}))
    with pytest.raises(CheckpointError, match="observation_version"):
        ValueNet.load(tmp_path / "v")
    wide = ValueNet(NumpyPolicy([(np.zeros((OBSERVATION_SIZE, 2), np.float32),
                                  np.zeros(2, np.float32))]))
    wide.save(tmp_path / "w", {})
    with pytest.raises(CheckpointError, match="2 outputs, 1 expected"):
        ValueNet.load(tmp_path / "w")
    (tmp_path / "w" / "weights.npz").write_bytes(b"not a zip")
    with pytest.raises(CheckpointError, match="corrupt"):
        ValueNet.load(tmp_path / "w")


def test_the_shipped_value_network_loads_and_favours_the_richer_seat() -> None:
    net = ValueNet.load(DEFAULT_VALUE)
    game = new_game(4, seed=0)
    even = net.win_chances(game)
    assert sum(even) == pytest.approx(1.0) and max(even) - min(even) < 0.15
    game.cash[2] += 20_000
    rich = net.win_chances(game)
    assert rich[2] > even[2] and rich[2] == max(rich)


def test_expert_names_choose_the_value_and_the_horizon() -> None:
    expert = make_agent("expert-net-h2@24")
    assert (expert.value is not None, expert.horizon_rounds, expert.sims) == (True, 2, 24)
    share = make_agent("expert-share")
    assert share.value is None and share.horizon_rounds == 3  # the share's own horizon
    default = make_agent("expert")  # the network, one round on
    assert default.value is not None and default.horizon_rounds == 1
    both = make_agent("expert-all-policy-net@12")
    assert (both.focus, both.rollout, both.value is not None) == (False, "policy", True)
    with pytest.raises(ExpertBudgetError, match="value must be one of net, share"):
        ExpertPlayer(value="critic")
    with pytest.raises(ExpertBudgetError, match="horizon_rounds"):
        make_agent("expert-h0")


def test_train_value_runs_end_to_end_on_a_tiny_budget(tmp_path, capsys) -> None:
    pytest.importorskip("torch")
    from byapar_cli import main

    run = tmp_path / "run"
    args = ["train-value", "--run-dir", str(run), "--games", "20", "--chunk-games", "2",
            "--epochs", "2", "--hidden", "16", "--sample-rate", "0.05"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "games 20/20" in out and "epoch 2/2: held-out cross-entropy" in out
    chunks = sorted(p.name for p in (run / "data").glob("chunk_*.npz"))
    assert chunks == [f"chunk_{k:04d}.npz" for k in range(10)]
    net = ValueNet.load(run / "value")
    assert [list(w.shape) for w, _ in net.network.layers] == [[OBSERVATION_SIZE, 16], [16, 1]]
    fit = json.loads((run / "fit.json").read_text())
    assert len(fit["history"]) == 2 and 0 < fit["baseline"]["winner_accuracy"] <= 1
    # The same command again finds every chunk written and only fits.
    (run / "data" / "chunk_0003.npz").unlink()
    assert main(args) == 0
    assert "chunk 3:" in capsys.readouterr().out


def test_the_same_seed_samples_the_same_positions() -> None:
    from byapar_training.value import play_and_sample

    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy
    a, won = play_and_sample(11, [3, 4], 0.05, policy)
    b, _ = play_and_sample(11, [3, 4], 0.05, policy)
    assert len(a) == len(b) > 0 and sum(won) == pytest.approx(1.0)
    for (oa, sa, ta), (ob, sb, tb) in zip(a, b, strict=True):
        assert np.array_equal(oa, ob) and np.array_equal(sa, sb) and np.array_equal(ta, tb)
        assert oa.shape == (len(ta), OBSERVATION_SIZE)


def test_two_workers_write_the_same_chunks_as_one(tmp_path) -> None:
    from byapar_training.value import ValueConfig, generate

    def chunks(workers: int) -> list[dict[str, np.ndarray]]:
        run = tmp_path / f"w{workers}"
        generate(ValueConfig(run_dir=str(run), games=6, chunk_games=2, sample_rate=0.05,
                             workers=workers), log=lambda line: None)
        out = []
        for path in sorted((run / "data").glob("chunk_*.npz")):
            with np.load(path) as d:
                out.append({k: d[k] for k in d.files})
        return out

    one, two = chunks(1), chunks(2)
    assert len(one) == len(two) == 3 and sum(len(c["state"]) for c in one) > 0
    for a, b in zip(one, two, strict=True):
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("flag,value,word", [("--games", "0", "--games"),
                                            ("--sample-rate", "0", "--sample-rate"),
                                            ("--table-sizes", "1,4", "--table-sizes"),
                                            ("--hidden", "64,x", "--hidden"),
                                            ("--workers", "0", "--workers"),
                                            ("--roster", "policy:0", "--roster"),
                                            ("--roster", "policy:2,policy:1", "--roster"),
                                            ("--roster", "outside-monopyly-huw:1", "kept unseen"),
                                            ("--roster", "pop-1000000:1", "kept unseen"),
                                            ("--roster", "hard:1", "environment only"),
                                            ("--roster", "nobody:1", "unknown player")])
def test_bad_value_training_flags_are_one_line_errors(tmp_path, capsys, flag, value,
                                                      word) -> None:
    pytest.importorskip("torch")
    from byapar_cli import main

    assert main(["train-value", "--run-dir", str(tmp_path / "r"), flag, value]) == 2
    err = capsys.readouterr().err
    assert err.startswith("byapar train-value:") and word in err and "Traceback" not in err
    assert not (tmp_path / "r").exists()


def test_the_wide_roster_seats_the_population_and_the_seen_outside_players() -> None:
    from byapar_agents.outside import SEEN_OUTSIDE, UNSEEN_OUTSIDE
    from byapar_agents.population import population_seed
    from byapar_agents.unseen import kept_unseen
    from byapar_training.value import ROSTER, ValueConfig, play_and_sample, roster, seat_players

    wide = roster(ValueConfig(roster="wide"))
    assert roster(ValueConfig()) == ROSTER and set(ROSTER) < set(wide)
    assert set(SEEN_OUTSIDE) < set(wide) and not set(UNSEEN_OUTSIDE) & set(wide)
    assert roster(ValueConfig(roster="medium:2,pop-7:1")) == {"medium": 2, "pop-7": 1}
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy
    import random

    assert roster(ValueConfig(roster="dealer:2,medium:1")) == {"dealer": 2, "medium": 1}
    dealer, plain = seat_players(["dealer", "policy"], random.Random(5), policy)
    assert type(dealer).__name__ == "DealingRolloutPlayer"
    assert type(plain).__name__ == "PolicyRolloutPlayer"
    drawn = seat_players(["population"] * 6, random.Random(5), policy)
    seeds = {population_seed(p.name) for p in drawn}
    assert len(seeds) == 6 and not any(kept_unseen(p.name) for p in drawn)
    a, won = play_and_sample(11, [6], 0.05, policy, {"population": 1, SEEN_OUTSIDE[0]: 1})
    b, _ = play_and_sample(11, [6], 0.05, policy, {"population": 1, SEEN_OUTSIDE[0]: 1})
    assert len(a) == len(b) > 0 and sum(won) == pytest.approx(1.0)
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(a, b, strict=True))
