"""The compact trainer (byapar_training/ppo.py, byapar_training/rollout.py): its advantages, its
masked
distribution against sb3-contrib's, its rollouts (legal, exact outcomes, seeded) and the real
``byapar train --trainer compact`` on a tiny budget, resumed and exported."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from byapar_agents import make_agent  # noqa: E402
from byapar_cli import command as cli  # noqa: E402
from byapar_env.observation import OBSERVATION_SIZE  # noqa: E402
from byapar_env.players import RandomPlayer  # noqa: E402
from byapar_training.league import LeaguePool  # noqa: E402
from byapar_training.ppo import build_network  # noqa: E402
from byapar_training.rollout import Buffer, Collector  # noqa: E402
from byapar_training.weights import numpy_layers  # noqa: E402

CLI = [sys.executable, "-m", "byapar_cli"]


def _stream_gae(rewards, values, last_done, boot, gamma, lam):
    """GAE of one stream on its own, written the textbook way."""
    adv, nxt_adv = [], 0.0
    for t in range(len(rewards) - 1, -1, -1):
        if t == len(rewards) - 1:
            nxt_value = 0.0 if last_done else boot
            nxt_adv = 0.0
        else:
            nxt_value = values[t + 1]
        delta = rewards[t] + gamma * nxt_value - values[t]
        nxt_adv = delta + gamma * lam * nxt_adv
        adv.append(nxt_adv)
    return adv[::-1]


def test_advantages_follow_each_stream_when_streams_interleave() -> None:
    buf = Buffer(7)
    # Stream A at indices 0, 2, 5 (ends: the game is over); stream B at 1, 3, 4, 6 (cut open).
    a, b = [0, 2, 5], [1, 3, 4, 6]
    buf.size = 7
    buf.value[:] = [0.1, -0.2, 0.3, 0.05, -0.1, 0.4, 0.2]
    buf.reward[:] = [0.0, 0.01, 0.0, 0.0, -0.02, 1.0, 0.0]
    for stream in (a, b):
        for i, j in zip(stream, stream[1:], strict=False):
            buf.nxt[i] = j
    buf.done[5] = True
    buf.boot[6] = 0.25
    adv, ret = buf.advantages(0.99, 0.9)
    want_a = _stream_gae(buf.reward[a], buf.value[a], True, 0.0, 0.99, 0.9)
    want_b = _stream_gae(buf.reward[b], buf.value[b], False, 0.25, 0.99, 0.9)
    np.testing.assert_allclose(adv[a], want_a, rtol=1e-6)
    np.testing.assert_allclose(adv[b], want_b, rtol=1e-6)
    np.testing.assert_allclose(ret, adv + buf.value, rtol=1e-6)


def test_masked_distribution_matches_sb3_contrib() -> None:
    from sb3_contrib.common.maskable.distributions import MaskableCategorical

    torch.manual_seed(0)
    net = build_network((32,))
    obs = torch.randn(16, OBSERVATION_SIZE)
    gen = np.random.default_rng(0)
    mask = torch.as_tensor(gen.random((16, 181)) < 0.1)
    mask[:, 0] = True  # at least one legal action a row
    logp, entropy = net.dist(obs, mask)
    theirs = MaskableCategorical(logits=net.actor(obs), masks=mask)
    acts = torch.as_tensor([int(gen.choice(np.flatnonzero(m))) for m in mask.numpy()])
    torch.testing.assert_close(logp.gather(1, acts[:, None])[:, 0], theirs.log_prob(acts))
    torch.testing.assert_close(entropy, theirs.entropy())


def _collector(seed: int, report=None) -> Collector:
    def pick(rng: random.Random, count: int) -> list:
        return [make_agent("medium") if rng.random() < 0.5 else RandomPlayer()
                for _ in range(count)]
    return Collector(6, [2, 3, 4], [{"rounds": 8}], "outcome", 0.4, pick, seed, report)


def _tiny_layers():
    torch.manual_seed(1)
    net = build_network((16,))
    return numpy_layers(net.actor), numpy_layers(net.critic)


def test_rollouts_are_legal_and_every_finished_stream_earns_its_exact_outcome() -> None:
    finished = []
    collector = _collector(3, report=finished.append)
    actor, critic = _tiny_layers()
    batch = collector.collect(3000, actor, critic, 1.0, 1.0)
    assert len(batch["act"]) == 3000 and int(batch["episodes"]) == len(finished) > 0
    assert batch["mask"][np.arange(3000), batch["act"]].all()
    buf = collector.buffer
    heads = set(range(buf.size)) - set(buf.nxt[:buf.size][buf.nxt[:buf.size] >= 0].tolist())
    totals = []
    for i in sorted(heads):
        total = 0.0
        while True:
            total += float(buf.reward[i])
            if buf.nxt[i] < 0:
                break
            i = int(buf.nxt[i])
        if buf.done[i]:
            totals.append(round(total, 6))
    # outcome rewards: a win is worth the losers' share, a loss -1/(n-1) at tables of 2 to 4
    allowed = {1.0, -1.0, -0.5, -round(1 / 3, 6), 0.5, round(2 / 3, 6), 0.25, 0.0}
    assert totals and set(totals) <= allowed
    # a stream that finished has return == reward-to-go at gamma = lambda = 1
    assert np.isfinite(batch["ret"]).all()


def test_same_seed_same_rollout() -> None:
    actor, critic = _tiny_layers()
    one = _collector(5).collect(800, actor, critic, 0.99, 0.95)
    two = _collector(5).collect(800, actor, critic, 0.99, 0.95)
    other = _collector(6).collect(800, actor, critic, 0.99, 0.95)
    for key in ("obs", "act", "adv"):
        np.testing.assert_array_equal(one[key], two[key])
    assert not np.array_equal(one["act"], other["act"])


def _kl_after_update(kl_to_init: float) -> float:
    """KL(start || policy) after PPO epochs that reward one action at every decision."""
    import copy

    from byapar_training.config import Config
    from byapar_training.ppo import update

    torch.manual_seed(0)
    net = build_network((32,))
    start = copy.deepcopy(net)
    gen = np.random.default_rng(0)
    n = 256
    obs = gen.standard_normal((n, OBSERVATION_SIZE)).astype(np.float32)
    mask = np.zeros((n, 181), dtype=bool)
    mask[:, :4] = True
    act = gen.integers(0, 4, n)
    with torch.no_grad():
        logp, _ = net.dist(torch.as_tensor(obs), torch.as_tensor(mask))
    batch = {"obs": obs, "mask": mask, "act": act,
             "logp": logp.gather(1, torch.as_tensor(act)[:, None])[:, 0].numpy(),
             "adv": np.where(act == 0, 1.0, -1.0).astype(np.float32),
             "ret": np.zeros(n, dtype=np.float32)}
    config = Config(trainer="compact", learning_rate=3e-3, n_epochs=8, batch_size=64,
                    init_from="byapar_checkpoints/hard", kl_to_init=kl_to_init)
    stats = update(net, torch.optim.Adam(net.parameters(), lr=3e-3), batch, config,
                   np.random.default_rng(1), actor_learns=True,
                   start_policy=start if kl_to_init else None)
    assert ("kl_to_init" in stats) == bool(kl_to_init)
    with torch.no_grad():
        p0, _ = start.dist(torch.as_tensor(obs), torch.as_tensor(mask))
        p1, _ = net.dist(torch.as_tensor(obs), torch.as_tensor(mask))
        m = torch.as_tensor(mask)
        return float(torch.where(m, p0.exp() * (p0 - p1), 0.0).sum(1).mean())


def test_kl_to_init_keeps_a_fine_tune_near_its_starting_policy() -> None:
    free, held = _kl_after_update(0.0), _kl_after_update(20.0)
    assert free > 0.05  # the advantages alone move the policy well away
    assert held < free / 3


@pytest.fixture(scope="module")
def compact_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("compact")
    run = root / "run"
    cmd = [*CLI, "train", "--trainer", "compact", "--run-dir", str(run), "--total-steps", "512",
           "--n-envs", "4", "--n-steps", "64", "--batch-size", "128", "--n-workers", "1",
           "--init-from", "byapar_checkpoints/hard", "--league", "medium,strategist",
           "--latest-share", "0.3", "--critic-warmup-steps", "256", "--save-every", "256",
           "--eval-every", "100000", "--eval-games", "2", "--eval-tables", "medium:1",
           "--table-sizes", "2,3", "--hidden", "256,256", "--kl-to-init", "0.5"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return run, root, done.stdout


def test_compact_training_saves_snapshots_and_evaluates(compact_run) -> None:
    run, _, out = compact_run
    assert (run / "latest.pt").is_file() and not (run / "latest.zip").exists()
    names = sorted(p.name for p in (run / "pool").iterdir())
    assert names == ["step_000000000", "step_000000256", "step_000000512"]
    assert make_agent(str(run / "pool" / "step_000000512")).name == "step_000000512"
    rows = (run / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("steps,wall_seconds,episodes,vs1medium_win_rate")
    assert rows[1].startswith("512,")
    state = json.loads((run / "state.json").read_text())
    assert state["steps"] == 512 and "--trainer compact" in state["command"]
    assert json.loads((run / "league" / "worker_0.json").read_text())["members"]
    assert "byapar train: 512 steps" in out and "latest.pt" in out
    assert "KL to start" in out  # the anchored fine-tune reports its distance from the start


def test_compact_training_resumes_and_exports(compact_run) -> None:
    run, root, _ = compact_run
    cmd = [*CLI, "train", "--trainer", "compact", "--run-dir", str(run), "--total-steps", "768",
           "--n-envs", "4", "--n-steps", "64", "--batch-size", "128", "--n-workers", "1",
           "--league", "medium,strategist", "--latest-share", "0.3", "--eval-every", "100000",
           "--eval-games", "2", "--eval-tables", "medium:1", "--table-sizes", "2,3",
           "--save-every", "256"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"resuming from {run / 'latest.pt'} at step 512" in done.stdout
    assert json.loads((run / "state.json").read_text())["steps"] == 768
    # A resumed run keeps its PPO settings.
    bad = subprocess.run([*cmd, "--learning-rate", "0.001", "--total-steps", "1024"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0 and "learning_rate" in bad.stdout + bad.stderr
    # The SB3 trainer does not take over a compact run.
    sb3 = subprocess.run([*CLI, "train", "--run-dir", str(run), "--total-steps", "1024"],
                         capture_output=True, text=True, timeout=300)
    assert sb3.returncode != 0 and "--trainer compact" in sb3.stdout + sb3.stderr
    # Export takes the last save's snapshot.
    out = subprocess.run([*CLI, "export", str(run), "--name", "tiny", "--out",
                          str(root / "ckpt")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    meta = json.loads((root / "ckpt" / "tiny" / "meta.json").read_text())
    assert meta["training"]["steps"] == 768
    np.testing.assert_array_equal(
        np.load(root / "ckpt" / "tiny" / "weights.npz")["layer0_w"],
        np.load(run / "pool" / "step_000000768" / "weights.npz")["layer0_w"])


def test_single_opponent_tables_seat_one_league_member_everywhere_but_the_learner(
        tmp_path) -> None:
    pool = LeaguePool(str(tmp_path), ("easy", "random", "medium"), (), 0.0, 0)
    collector = Collector(40, [3, 4, 6], [{"rounds": 8}], "outcome", 0.5, pool, 7,
                          single_opponent_share=1.0)
    for table in collector.tables:
        others = [k for k in table.keys if k]
        assert len(table.learner_seats()) == 1 and len(set(others)) == 1
        assert len(others) == len(table.keys) - 1
    mixed = Collector(40, [4, 6], [{"rounds": 8}], "outcome", 0.0, pool, 7,
                      single_opponent_share=0.0)
    assert any(len({k for k in t.keys if k}) > 1 for t in mixed.tables)


@pytest.mark.parametrize("flags, message", [
    (["--trainer", "fast"], "--trainer must be sb3 or compact"),
    (["--trainer", "compact", "--single-opponent-share", "0.5"], "needs a league"),
    (["--trainer", "compact", "--league", "medium", "--single-opponent-share", "1.5"],
     "--single-opponent-share"),
    (["--league", "medium", "--single-opponent-share", "0.5"], "setting of --trainer compact"),
    (["--trainer", "compact", "--kl-to-init", "0.5"], "it needs --init-from"),
    (["--init-from", "byapar_checkpoints/hard", "--kl-to-init", "0.5"],
     "setting of --trainer compact"),
    (["--trainer", "compact", "--init-from", "byapar_checkpoints/hard", "--kl-to-init", "-1"],
     "--kl-to-init"),
])
def test_bad_trainer_flags_are_refused_in_one_line(tmp_path, capsys, flags, message) -> None:
    code = cli.main(["train", "--run-dir", str(tmp_path / "r"), *flags])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err and not (tmp_path / "r").exists()
