"""Compact PPO: the ``--trainer compact`` of ``byapar train``, its PPO in one readable file
(CleanRL style). What it shares with the SB3 trainer has a module each: the config
(``byapar_training/config.py``), the opponents (``byapar_training/opponents.py``), the warm start's
games
(``byapar_training/imitation.py``), the weights (``byapar_training/weights.py``), the run folder
(``byapar_training/run_folder.py``) and the evaluation (``byapar_training/evaluation.py``).

Why our own and not Stable-Baselines3's: SB3 steps one environment per learner sample and asks
the policy for one batch per step, so a table of several learned seats costs one forward pass
per seat per step, and only one seat per game can learn. Here (``byapar_training/rollout.py``) each
worker process keeps many games in flight and runs **one forward pass per network per round**
over every game waiting on it, and **every seat the learner holds** (its own and its self-play
copies) gives samples. The algorithm is SB3's PPO with its defaults (clipped surrogate,
per-minibatch advantage normalisation, value loss 0.5, gradient norm 0.5, Adam eps 1e-5,
orthogonal initialisation) and the masked categorical of sb3-contrib, so runs of the two
trainers are comparable: ``bench/trainer_parity.py`` trains both on one budget and plays their
policies (its figures are in docs/training_history.md; no test compares them).

Read top to bottom:
1. ``ActorCritic``: separate tanh MLPs for the policy and the value (the hard player's shape);
2. ``CollectorPool``: the collectors (``byapar_training/rollout.py``) in this process, in
   ``n_workers`` processes or in ``n_workers`` Ray actors (``--backend ray``, on a local Ray
   instance or a cluster), each with its own share of ``n_envs`` games and its own opponents;
3. ``update``: PPO epochs over one rollout; ``imitate``: the warm start, the medium player's
   decisions copied;
4. ``train``: warm start, then collect, update, snapshot, save, evaluate, log, until the
   budget is spent. The run folder is the SB3 trainer's (state.json, pool/, eval.csv, league/,
   TensorBoard events) with ``latest.pt`` in place of ``latest.zip``; running the same command
   again resumes it. A save is written beside and renamed into place, so a run killed at any
   moment resumes from its last save.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import signal
import time
from pathlib import Path

import numpy as np

from byapar_agents.network import NumpyPolicy
from byapar_env.action_table import NUM_ACTIONS
from byapar_env.observation import OBSERVATION_SIZE

from .common import training_device
from .config import Config
from .evaluation import record_evaluation
from .games import trained_game
from .imitation import medium_demonstrations
from .opponents import OpponentPool, league_pool
from .rollout import Collector, Layers, Table
from .run_folder import open_run, write_state
from .tracking import TrackedWriter, start_wandb
from .weights import copy_policy_into, numpy_layers

CHECKPOINT = "latest.pt"


# ---------------------------------------------------------------------------- 1. network
def build_network(hidden: tuple[int, ...], observation_size: int = OBSERVATION_SIZE,
                  num_actions: int = NUM_ACTIONS):
    import torch
    from torch import nn

    class ActorCritic(nn.Module):
        """Policy and value as two tanh MLPs (no shared layers, as SB3's MlpPolicy with
        separate ``pi`` and ``vf`` nets), initialised as SB3 does."""

        def __init__(self) -> None:
            super().__init__()
            self.actor = self._mlp(num_actions, 0.01)
            self.critic = self._mlp(1, 1.0)

        @staticmethod
        def _mlp(outputs: int, last_gain: float) -> nn.Sequential:
            sizes = (observation_size, *hidden)
            layers: list[nn.Module] = []
            for a, b in zip(sizes, sizes[1:], strict=False):
                layers += [nn.Linear(a, b), nn.Tanh()]
            layers.append(nn.Linear(sizes[-1], outputs))
            for m in layers:
                if isinstance(m, nn.Linear):
                    gain = last_gain if m.out_features == outputs and m is layers[-1] else 2**0.5
                    nn.init.orthogonal_(m.weight, gain)
                    nn.init.zeros_(m.bias)
            return nn.Sequential(*layers)

        def dist(self, obs, mask):
            """Log-probabilities and entropy of the masked softmax (sb3-contrib's -1e8)."""
            logits = self.actor(obs).masked_fill(~mask, -1e8)
            logp = torch.log_softmax(logits, dim=1)
            entropy = -(torch.where(mask, logp.exp() * logp, 0.0)).sum(dim=1)
            return logp, entropy

    return ActorCritic()


def load_actor(net, folder: str, fmt: str = "byapar-policy") -> None:
    """Start the actor from a numpy checkpoint of format ``fmt`` (the critic stays fresh)."""
    import torch

    copy_policy_into([m for m in net.actor if isinstance(m, torch.nn.Linear)], folder,
                     "the --hidden sizes of this run", fmt)


# ---------------------------------------------------------------------------- 2. collectors
def make_collector(config: Config, worker: int, n_tables: int, seed: int) -> Collector:
    """A collector with its own opponents: a league pool (scores in RUN/league/worker_K.json)
    or the original pool. Self-play seats are the learner itself, so the pools draw none."""
    pool_config = dataclasses.replace(config, latest_share=0.0)
    report = None
    if config.league or config.exploiters:
        pool = league_pool(config, worker, 0.0)

        def report(table: Table, pool=pool) -> None:
            game = table.env.game
            others = [s for s, k in enumerate(table.keys) if k]
            worths = [float(game.net_worth(s)) for s in others]
            for seat in table.learner_seats():
                pool.report([table.keys[s] for s in others], float(game.net_worth(seat)),
                            worths)
    else:
        pool = OpponentPool(pool_config)
    game = trained_game(config.game)
    return Collector(n_tables, config.table_sizes, game.tables, config.reward,
                     config.latest_share, pool, seed, report, config.single_opponent_share, game)


def _worker(conn, config: Config, worker: int, n_tables: int, seed: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to answer
    collector = make_collector(config, worker, n_tables, seed)
    while True:
        message = conn.recv()
        if message[0] == "close":
            collector.close()
            break
        conn.send(collector.collect(*message[1:]))
    conn.close()


class RemoteCollector:
    """A collector in a Ray actor (``--backend ray``): on a cluster, every machine needs this
    project and the run folder at the same path (the snapshots are read from there)."""

    def __init__(self, config: Config, worker: int, n_tables: int, seed: int, cwd: str) -> None:
        with contextlib.suppress(OSError):
            os.chdir(cwd)  # relative run folders and checkpoint paths, as on the driver
        self.collector = make_collector(config, worker, n_tables, seed)

    def collect(self, *args) -> dict[str, np.ndarray]:
        return self.collector.collect(*args)

    def close(self) -> None:
        self.collector.close()


class CollectorPool:
    """``n_workers`` collectors sharing ``n_envs`` games; one rollout is split between them.
    They run in this process (one worker), in worker processes, or in Ray actors."""

    def __init__(self, config: Config, seed: int) -> None:
        workers = max(1, min(config.n_workers, config.n_envs))
        shares = [config.n_envs // workers + (i < config.n_envs % workers)
                  for i in range(workers)]
        self.local = None
        self.conns, self.procs, self.actors = [], [], []
        self._ray, self._ray_started = None, False
        if config.backend == "ray":
            from byapar_harness.arena_ray import connect, import_ray

            self._ray = ray = import_ray()
            self._ray_started = connect(config.address or None, workers)
            actor = ray.remote(num_cpus=1)(RemoteCollector)
            self.actors = [actor.remote(config, i, share, seed + 7919 * i, os.getcwd())
                           for i, share in enumerate(shares)]
            return
        if workers == 1:
            self.local = make_collector(config, 0, shares[0], seed)
            return
        import multiprocessing as mp

        ctx = mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods()
                             else "spawn")
        for i, share in enumerate(shares):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(child, config, i, share, seed + 7919 * i),
                               daemon=True)
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)

    def collect(self, n_samples: int, actor: Layers, critic: Layers, gamma: float,
                lam: float) -> dict[str, np.ndarray]:
        if self.local is not None:
            return self.local.collect(n_samples, actor, critic, gamma, lam)
        k = len(self.conns) or len(self.actors)
        parts = [n_samples // k + (i < n_samples % k) for i in range(k)]
        if self.actors:
            results = self._ray.get([a.collect.remote(part, actor, critic, gamma, lam)
                                     for a, part in zip(self.actors, parts, strict=True)])
        else:
            for conn, part in zip(self.conns, parts, strict=True):
                conn.send(("collect", part, actor, critic, gamma, lam))
            results = [conn.recv() for conn in self.conns]
        return {key: (np.sum([r[key] for r in results]) if key == "episodes"
                      else np.concatenate([r[key] for r in results])) for key in results[0]}

    def close(self) -> None:
        if self.local is not None:
            self.local.close()
        if self.actors:
            ray = self._ray
            ray.get([a.close.remote() for a in self.actors])
            for a in self.actors:
                ray.kill(a)
            self.actors = []
            if self._ray_started:
                ray.shutdown()
        for conn in self.conns:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(("close",))
        for proc in self.procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()


# ---------------------------------------------------------------------------- 3. update
def update(net, optimizer, batch: dict[str, np.ndarray], config: Config, rng: np.random.Generator,
           actor_learns: bool, start_policy=None) -> dict[str, float]:
    """PPO epochs over one rollout; the actor's loss is left out while the critic warms up.
    With ``start_policy`` (the --init-from policy) the actor's loss adds ``config.kl_to_init`` times
    KL(start || policy) over the legal actions: the fine-tune pays for every departure from
    its starting policy, so what an opponent mix does not reward is kept rather than drifted."""
    import torch

    device = next(net.parameters()).device
    t = {k: torch.as_tensor(v, device=device) for k, v in batch.items() if k != "episodes"}
    n = len(t["act"])
    size = min(config.batch_size, n)
    stats: dict[str, list[float]] = {"policy_loss": [], "value_loss": [], "entropy": [],
                                     "clip_fraction": [], "approx_kl": [], "kl_to_init": []}
    for _ in range(config.n_epochs):
        order = torch.as_tensor(rng.permutation(n), device=device)
        for start in range(0, n - size + 1, size):
            idx = order[start:start + size]
            logp_all, entropy = net.dist(t["obs"][idx], t["mask"][idx])
            logp = logp_all.gather(1, t["act"][idx, None])[:, 0]
            adv = t["adv"][idx]
            if len(idx) > 1:
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            ratio = torch.exp(logp - t["logp"][idx])
            policy_loss = -torch.min(adv * ratio, adv * ratio.clamp(
                1 - config.clip_range, 1 + config.clip_range)).mean()
            value_loss = ((net.critic(t["obs"][idx])[:, 0] - t["ret"][idx]) ** 2).mean()
            loss = 0.5 * value_loss
            if actor_learns:
                loss = loss + policy_loss - config.ent_coef * entropy.mean()
            if start_policy is not None:
                mask = t["mask"][idx]
                with torch.no_grad():
                    p0, _ = start_policy.dist(t["obs"][idx], mask)
                kl = torch.where(mask, p0.exp() * (p0 - logp_all), 0.0).sum(dim=1).mean()
                if actor_learns:
                    loss = loss + config.kl_to_init * kl
                stats["kl_to_init"].append(float(kl.detach()))
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimizer.step()
            with torch.no_grad():
                log_ratio = logp - t["logp"][idx]
                stats["approx_kl"].append(float(((ratio - 1) - log_ratio).mean()))
                stats["clip_fraction"].append(
                    float(((ratio - 1).abs() > config.clip_range).float().mean()))
            stats["policy_loss"].append(float(policy_loss.detach()))
            stats["value_loss"].append(float(value_loss.detach()))
            stats["entropy"].append(float(entropy.mean().detach()))
    return {k: float(np.mean(v)) for k, v in stats.items() if v}


def imitate(net, data, config: Config) -> float:
    """Copy the medium player's decisions (cross-entropy under the mask) and learn the value
    of what followed; the agreement with medium at the end."""
    import torch

    device = next(net.parameters()).device
    obs, masks, acts, returns = (torch.as_tensor(x, device=device) for x in data)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    gen = np.random.default_rng(config.seed)
    for epoch in range(config.imitation_epochs):
        order = torch.as_tensor(gen.permutation(len(acts)), device=device)
        for start in range(0, len(acts), 512):
            idx = order[start:start + 512]
            logp, _ = net.dist(obs[idx], masks[idx])
            value = net.critic(obs[idx])[:, 0]
            loss = (-logp.gather(1, acts[idx, None]).mean()
                    + 0.5 * ((value - returns[idx]) ** 2).mean())
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"imitation epoch {epoch + 1}: loss {float(loss.detach()):.4f}", flush=True)
    with torch.no_grad():
        logp, _ = net.dist(obs[:5000], masks[:5000])
        return float((logp.argmax(dim=1) == acts[:5000]).float().mean())


# ---------------------------------------------------------------------------- 4. training
def _save(net, optimizer, run: Path, steps: int, state: dict, fmt: str = "byapar-policy") -> Path:
    """The resumable save and a numpy snapshot of the actor into the pool (in the checkpoint
    format ``fmt`` of the game trained)."""
    import torch

    torch.save({"net": net.state_dict(), "optimizer": optimizer.state_dict(), "steps": steps},
               run / "latest.tmp.pt")
    (run / "latest.tmp.pt").replace(run / CHECKPOINT)
    folder = run / "pool" / f"step_{steps:09d}"
    NumpyPolicy(numpy_layers(net.actor), "tanh").save(folder, {"name": folder.name,
                                                               "steps": steps}, fmt)
    state["steps"] = steps
    write_state(run, state)
    return folder


def _open_run(config: Config) -> tuple[Path, dict]:
    """The run folder and its state; an SB3 run is not taken over."""
    if (Path(config.run_dir) / "latest.zip").exists():
        raise SystemExit(f"byapar train: {config.run_dir} was trained by the sb3 trainer; "
                         "resume it with --trainer sb3, or start a new --run-dir")
    return open_run(config, CHECKPOINT)


def train(config: Config) -> Path:
    import torch
    from torch.utils.tensorboard import SummaryWriter

    run, state = _open_run(config)
    game = trained_game(config.game)
    fmt = game.policy_format
    torch.manual_seed(config.seed)
    torch.set_num_threads(max(1, min(2, config.n_workers)))
    device = training_device(config.device)
    net = build_network(config.hidden, game.observation_size, game.num_actions).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=config.learning_rate, eps=1e-5)
    steps = 0
    if (run / CHECKPOINT).exists():
        saved = torch.load(run / CHECKPOINT, weights_only=True, map_location=device)
        net.load_state_dict(saved["net"])
        optimizer.load_state_dict(saved["optimizer"])
        steps = int(saved["steps"])
        print(f"resuming from {run / CHECKPOINT} at step {steps:,}", flush=True)
    else:
        if config.init_from:
            load_actor(net, config.init_from, fmt)
            state["init_from"] = config.init_from
        elif config.imitation_games:
            start = time.time()
            state["imitation_agreement"] = imitate(net, medium_demonstrations(config), config)
            state["imitation_seconds"] = round(time.time() - start, 1)
        _save(net, optimizer, run, steps, state, fmt)
    start_policy = None
    if config.kl_to_init:
        start_policy = build_network(config.hidden, game.observation_size, game.num_actions)
        load_actor(start_policy, config.init_from, fmt)
        start_policy.to(device)
    writer = TrackedWriter(SummaryWriter(str(run)), start_wandb(config, run, state))
    # Each sitting draws fresh games: seeded by the run's seed and where the sitting starts.
    seed = random.Random(f"{config.seed}:{steps}").getrandbits(32)
    rng = np.random.default_rng(seed)
    collectors = CollectorPool(config, seed)
    rollout = config.n_steps * config.n_envs
    next_save = (steps // config.save_every + 1) * config.save_every
    next_eval = (steps // config.eval_every + 1) * config.eval_every
    t0 = time.time()
    try:
        while steps < config.total_steps:
            start = time.time()
            batch = collectors.collect(rollout, numpy_layers(net.actor),
                                       numpy_layers(net.critic), config.gamma, config.gae_lambda)
            collected = time.time()
            stats = update(net, optimizer, batch, config, rng,
                           actor_learns=steps >= config.critic_warmup_steps,
                           start_policy=start_policy)
            steps += len(batch["act"])
            state["episodes"] += int(batch["episodes"])
            now = time.time()
            state["wall_seconds"] += now - t0
            t0 = now
            rate = len(batch["act"]) / (now - start)
            for key, value in stats.items():
                writer.add_scalar(f"losses/{key}", value, steps)
            writer.add_scalar("charts/steps_per_second", rate, steps)
            writer.add_scalar("charts/collect_share", (collected - start) / (now - start), steps)
            writer.add_scalar("charts/episodes", state["episodes"], steps)
            kl_note = (f"  KL to start {stats['kl_to_init']:.4f}" if "kl_to_init" in stats
                       else "")
            print(f"step {steps:,}/{config.total_steps:,}  {rate:,.0f} steps/s  "
                  f"{state['episodes']:,} episodes  value loss {stats['value_loss']:.4f}  "
                  f"entropy {stats['entropy']:.3f}{kl_note}", flush=True)
            if steps >= next_save or steps >= config.total_steps:
                next_save = (steps // config.save_every + 1) * config.save_every
                folder = _save(net, optimizer, run, steps, state, fmt)
                print(f"step {steps:,}: saved {folder.name}", flush=True)
            if steps >= next_eval:
                next_eval = (steps // config.eval_every + 1) * config.eval_every
                _evaluate(net, optimizer, run, steps, state, config, writer)
                t0 = time.time()  # evaluation time is not training time
        if state.get("evaluated_at") != steps:
            _evaluate(net, optimizer, run, steps, state, config, writer)
    finally:
        collectors.close()
        writer.close()
    return run


def _evaluate(net, optimizer, run: Path, steps: int, state: dict, config: Config,
              writer) -> None:
    folder = _save(net, optimizer, run, steps, state, trained_game(config.game).policy_format)
    result = record_evaluation(folder, steps, run, state, config)
    for key, value in result.items():
        writer.add_scalar(f"eval/{key}", value, steps)

