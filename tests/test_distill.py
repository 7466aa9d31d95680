"""Expert iteration (``byapar distill``): the games recorded, the fit, the shipped folder."""

from __future__ import annotations

import json

import numpy as np
import pytest

from byapar_agents import make_agent
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.network import NumpyPolicy

pytest.importorskip("torch")

from byapar_cli import main  # noqa: E402
from byapar_training.chunks import chunk_files  # noqa: E402
from byapar_training.distill import (  # noqa: E402
    DistillConfig,
    DistillConfigError,
    fit,
    generate,
    load_decisions,
    play_and_record,
)

# Short games with a small search: the pipeline, not the teacher's strength, is under test.
_TINY = ["--games", "10", "--chunk-games", "1", "--workers", "1", "--rounds", "4",
         "--table-sizes", "3,4", "--expert", "expert@24"]


def _config(run, **changes) -> DistillConfig:
    base = dict(run_dir=str(run), games=10, chunk_games=1, workers=1, rounds=4,
                table_sizes="3,4", expert="expert@24")
    return DistillConfig(**{**base, **changes})


def test_distill_runs_end_to_end_and_goes_on_from_its_chunks(tmp_path, capsys) -> None:
    run = tmp_path / "run"
    assert main(["distill", "--run-dir", str(run), *_TINY, "--epochs", "2"]) == 0
    out = capsys.readouterr().out
    assert "chunk 9:" in out and "epoch 2/2: held-out loss" in out
    assert sorted(p.name for p in (run / "data").glob("chunk_*.npz")) == [
        f"chunk_{k:04d}.npz" for k in range(10)]
    # The fitted folder is a whole player: the main policy and the starting specialists.
    player = make_agent(str(run / "policy"))
    assert set(player.specialists) == set(LearnedPlayer(DEFAULT_CHECKPOINT).specialists)
    meta = json.loads((run / "policy" / "meta.json").read_text())
    # The starting checkpoint's record first (its own rounds of distillation too), then this one.
    start = json.loads((DEFAULT_CHECKPOINT / "meta.json").read_text())["training"]
    assert meta["training"]["distilled"][:-1] == start.get("distilled", [])
    assert meta["training"]["distilled"][-1]["config"]["expert"] == "expert@24"
    assert meta["training"]["command"] == start["command"]
    fitted = json.loads((run / "fit.json").read_text())
    assert len(fitted["history"]) == 2
    # Again: every chunk is there, so only the lost one is played.
    (run / "data" / "chunk_0004.npz").unlink()
    assert main(["distill", "--run-dir", str(run), *_TINY, "--stage", "games"]) == 0
    out = capsys.readouterr().out
    assert "chunk 4:" in out and "chunk 3:" not in out


def test_another_checkpoint_is_taught_and_is_the_expert_prior(tmp_path, capsys) -> None:
    # A teacher whose choices differ from the shipped policy's: its last layer's biases moved.
    shipped = LearnedPlayer(DEFAULT_CHECKPOINT).policy
    layers = [(w, b.copy()) for w, b in shipped.layers]
    layers[-1][1][:] += np.random.default_rng(0).normal(0, 20, layers[-1][1].shape)
    teacher = tmp_path / "ckpt"
    NumpyPolicy(layers, shipped.activation).save(teacher, {"name": "hard", "training": {}})
    run = tmp_path / "run"
    assert main(["distill", "--run-dir", str(run), *_TINY, "--games", "2", "--stage", "games",
                 "--checkpoint", str(teacher)]) == 0
    assert "chunk 1:" in capsys.readouterr().out
    # Every decision the expert left to its prior is the teacher's choice, not the shipped one
    # (trades aside: an offer the search chose is composed as it was chosen; answers to
    # offers are the deal judgement's, byapar_agents.deals, whatever the policy; and after
    # cancelling
    # a repeated offer the hard player starts no more drafts that turn).
    from byapar_env.action_table import ACTIONS

    policy = LearnedPlayer(teacher).policy
    rows = play_and_record(_config(run, checkpoint=str(teacher), keep_rate=1.0), 0, policy)
    trading = ("accept", "reject", "trade_start")
    unsearched = [r for r in rows if not r[4] and not ACTIONS[r[2]].kind.startswith("trade_")
                  and ACTIONS[r[2]].kind not in trading and ACTIONS[r[3]].kind not in trading]
    assert unsearched and all(r[2] == r[3] == policy.act(r[0], r[1]) for r in unsearched)
    assert any(r[3] != shipped.act(r[0], r[1]) for r in unsearched)


def test_a_recorded_decision_holds_the_policy_own_choice_beside_the_expert(tmp_path) -> None:
    config = _config(tmp_path)
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy
    rows = play_and_record(config, 3, policy)
    assert rows
    for obs, mask, expert, own, _searched in rows:
        assert mask[expert] and mask[own]  # both legal where they were taken
        assert own == policy.act(obs, mask)
    # Departures happen only where the expert searched, or while it composes an offer it chose
    # by search (a trade step), never at a decision it left to the policy.
    from byapar_env.action_table import ACTIONS

    for _obs, _mask, expert, own, searched in rows:
        if expert != own and not searched:
            assert ACTIONS[expert].kind.startswith("trade_")


def test_the_opponents_flag_chooses_the_other_seats(tmp_path, monkeypatch) -> None:
    import byapar_training.distill as distill
    from byapar_agents.unseen import kept_unseen

    assert distill.opponent_weights(_config(tmp_path))["medium"] == 3  # the default's first
    seated: list[str] = []
    made = distill.make_agent
    monkeypatch.setattr(distill, "make_agent",
                        lambda name, *a, **k: seated.append(name) or made(name, *a, **k))
    config = _config(tmp_path, opponents="hoarder:1")
    for index in range(3):
        play_and_record(config, index, LearnedPlayer(DEFAULT_CHECKPOINT).policy)
    assert len(seated) >= 6 and set(seated) == {"hoarder"}  # every seat but the expert's
    # population: one training seed drawn for the table, in every other seat
    seated.clear()
    play_and_record(_config(tmp_path, opponents="population:1"), 0,
                    LearnedPlayer(DEFAULT_CHECKPOINT).policy)
    (name,) = set(seated)
    assert len(seated) >= 2 and name.startswith("pop-") and not kept_unseen(name)


def test_the_same_seed_records_the_same_decisions(tmp_path) -> None:
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy
    a = play_and_record(_config(tmp_path), 5, policy)
    b = play_and_record(_config(tmp_path), 5, policy)
    assert len(a) == len(b) > 0
    for ra, rb in zip(a, b, strict=True):
        assert np.array_equal(ra[0], rb[0]) and np.array_equal(ra[1], rb[1])
        assert ra[2:] == rb[2:]


def test_the_fit_moves_the_policy_toward_the_expert_departures(tmp_path) -> None:
    run = tmp_path / "run"
    config = _config(run, epochs=25, lr=1e-3, kl=0.0, departure_weight=5.0)
    generate(config, log=lambda line: None)
    fit(config, log=lambda line: None)
    data = load_decisions(chunk_files(run, held_out=False))
    departed = data["expert"] != data["policy"]
    assert departed.sum() >= 5
    fitted = LearnedPlayer(run / "policy").policy
    made = [fitted.act(o, m) == e for o, m, e in zip(data["obs"][departed],
                                                      data["mask"][departed],
                                                      data["expert"][departed], strict=True)]
    assert np.mean(made) > 0.5  # the starting policy made none of them


def test_too_few_chunks_to_hold_out_is_a_clear_error(tmp_path) -> None:
    config = _config(tmp_path / "run", games=3)
    generate(config, log=lambda line: None)
    with pytest.raises(DistillConfigError, match="at least 10 chunks"):
        fit(config, log=lambda line: None)


def test_the_fit_also_trains_on_earlier_rounds_chunks(tmp_path) -> None:
    earlier, run = tmp_path / "round1", tmp_path / "round2"
    generate(_config(earlier), log=lambda line: None)  # ten chunks: one of them held out
    generate(_config(run, games=3, seed=1), log=lambda line: None)  # too few alone
    lines: list[str] = []
    fit(_config(run, epochs=1, also_fit_on=str(earlier)), log=lines.append)
    own = load_decisions(chunk_files(run, held_out=False))["obs"]
    theirs = load_decisions(chunk_files(earlier, held_out=False))["obs"]
    held = load_decisions(chunk_files(earlier, held_out=True))["obs"]
    assert lines[0].startswith(f"decisions: {len(own) + len(theirs):,} to train on")
    assert f"{len(held):,} held out" in lines[0]
    assert (run / "policy" / "meta.json").is_file()


def test_ship_copies_the_fitted_player(tmp_path, capsys) -> None:
    run = tmp_path / "run"
    assert main(["distill", "--run-dir", str(run), *_TINY, "--epochs", "1"]) == 0
    out = tmp_path / "shipped"
    assert main(["distill", "--run-dir", str(run), "--stage", "ship",
                 "--ship-to", str(out)]) == 0
    assert "shipped" in capsys.readouterr().out
    a, b = LearnedPlayer(run / "policy").policy, LearnedPlayer(out).policy
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(a.layers, b.layers, strict=True))


@pytest.mark.parametrize("flag,value,word", [("--games", "0", "--games"),
                                            ("--table-sizes", "2,4", "--table-sizes"),
                                            ("--expert", "hard", "--expert"),
                                            ("--keep-rate", "1.5", "--keep-rate"),
                                            ("--lr", "0", "--lr"),
                                            ("--checkpoint", "nowhere", "nowhere"),
                                            ("--also-fit-on", "nowhere", "--also-fit-on"),
                                            ("--opponents", "medium:3,expert:1", "'expert:1'"),
                                            ("--opponents", "medium:0", "'medium:0'"),
                                            ("--opponents", "medium", "'medium'"),
                                            ("--opponents", "outside-monopyly-huw:1",
                                             "kept unseen"),
                                            ("--opponents", "pop-1000000:1", "kept unseen")])
def test_bad_distill_flags_are_one_line_errors(tmp_path, capsys, flag, value, word) -> None:
    assert main(["distill", "--run-dir", str(tmp_path / "r"), flag, value]) == 2
    err = capsys.readouterr().err
    assert err.startswith("byapar distill:") and word in err and "Traceback" not in err
    assert not (tmp_path / "r").exists()


def test_ship_without_a_fitted_policy_is_a_clear_error(tmp_path, capsys) -> None:
    assert main(["distill", "--run-dir", str(tmp_path / "r"), "--stage", "ship",
                 "--ship-to", str(tmp_path / "out")]) == 2
    assert "no meta.json" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
