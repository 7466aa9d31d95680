"""Self-play training of the hard player: MaskablePPO on the single-seat view.

    byapar train --run-dir runs/hard --total-steps 3000000

Read top to bottom:
1. the config (every field is a command-line flag);
2. the opponents, in one of two ways, at random seats, table sizes 2 to 6 and mixed table
   options:
   - league self-play (``--league`` names hand-written players, ``--exploiters`` checkpoint
     folders; ``training/league.py``): the newest snapshot for ``--latest-share`` of the seats,
     the rest by prioritised fictitious self-play over the named players, the exploiters and
     the window of recent snapshots, weighted towards whoever the learner does worst against;
   - the original pool: frozen snapshots of the learner (a window of recent ones, and a share
     of games against the latest) plus the easy and medium players as anchors;
3. a warm start: the network first learns to copy the medium player's decisions, or starts from
   a checkpoint's actor (``--init-from``; then ``--critic-warmup-steps`` lets the fresh critic
   learn before the actor moves);
4. PPO, with a snapshot into the pool, a save and an evaluation against medium (through the
   arena's code) every few hundred thousand steps. TensorBoard scalars (``charts/``,
   ``losses/``, ``eval/``) and ``eval.csv`` go to the run folder;
5. running the same command again resumes from the run folder's last save. The opponents, table
   sizes and reward may change between sittings; the PPO settings may not.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import math
import random
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from byapar_agents import LearnedPlayer, make_agent
from byapar_agents.arena import ArenaConfig, play_through_env, run_arena
from byapar_agents.network import NumpyPolicy

from byapar_env.byapar_v0 import raw_env
from byapar_env.single_seat import SingleSeatEnv

from .common import ArgumentParser, quiet_worker_processes, require
from .league import LeaguePool, LeagueSeatEnv


# ---------------------------------------------------------------------------- 1. config
@dataclass
class Config:
    run_dir: str = "runs/hard"
    # "sb3": Stable-Baselines3's MaskablePPO, one learner seat per game (every run before
    # this option); "compact": training/ppo.py, many games per process with batched networks
    # and every learner seat sampled (several times faster, docs/training_profile.md)
    trainer: str = "sb3"
    total_steps: int = 3_000_000  # learner decisions, imitation not counted
    seed: int = 0
    n_envs: int = 2  # environments stepped together (the learner's batch)
    # worker processes (one per core): with fewer than n_envs, each steps a group of
    # environments (training/vec_env.py), one message a step per process
    n_workers: int = 2
    # where the environments run: "local" (processes on this machine) or "ray" (n_workers Ray
    # actors, training/vec_env_ray.py), on a local Ray instance or the cluster at ``address``
    backend: str = "local"
    address: str = ""
    table_sizes: tuple[int, ...] = (2, 3, 4, 5, 6)
    # PPO
    n_steps: int = 2048
    batch_size: int = 512
    n_epochs: int = 4
    learning_rate: float = 1e-4
    gamma: float = 0.999  # games are long: a few hundred decisions per seat
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.003
    hidden: tuple[int, ...] = (256, 256)
    reward: str = "outcome"  # or "net_worth_share" / "position_share" (shaping; off by default)
    # opponents
    anchor_share: float = 0.5  # easy and medium
    medium_share_of_anchors: float = 0.75
    latest_share: float = 0.3  # the newest snapshot; the rest from the window
    pool_window: int = 5
    # league self-play (training/league.py): comma-separated hand-written players drawn by
    # PFSP with the snapshot window and the exploiters; empty: the anchors above instead
    league: str = ""
    exploiters: str = ""  # comma-separated checkpoint folders that join the league
    # league runs: share of tables whose every other seat is one member, drawn by PFSP (the
    # gauntlet's and the arena's tables are like that; mixed tables alone never show them)
    single_opponent_share: float = 0.0
    # steps at the start of a run during which only the critic learns (a warm start from a
    # checkpoint brings an actor but no critic)
    critic_warmup_steps: int = 0
    # warm start: a shipped checkpoint's policy (e.g. checkpoints/hard), else imitation of
    # the medium player (0 games: none)
    init_from: str = ""
    # compact trainer, with --init-from: weight of KL(starting policy || policy) in the actor's
    # loss, so a fine-tune learns what its opponents teach without losing what it knew
    kl_to_init: float = 0.0
    imitation_games: int = 300
    imitation_epochs: int = 8
    # saving and evaluation
    save_every: int = 100_000
    eval_every: int = 200_000
    eval_games: int = 200
    eval_workers: int = 1
    # evaluation tables as comma-separated OPPONENT:COUNT (the snapshot plus COUNT copies);
    # empty: three medium, one medium (and, in league runs, the panel tables)
    eval_tables: str = ""


MAX_SEED = 2**32 - 1  # np.random.seed and SB3's set_random_seed take no more
MAX_ENVS = 1024  # environments are cheap (a game each), but a batch this big is a typo

# What each Config field means, shown by ``byapar train --help`` with its default.
HELP = {
    "run_dir": "the run folder: saves, snapshots, logs, eval.csv; an existing one is resumed",
    "trainer": "sb3 (Stable-Baselines3's MaskablePPO) or compact (training/ppo.py: many games "
               "per process, batched networks, every learner seat sampled; faster)",
    "total_steps": "the learner's decisions to train for in all (imitation not counted); "
                   "a run stops at the first rollout that reaches it",
    "seed": f"the run's seed, from 0 to {MAX_SEED:,} (numpy's seed range)",
    "n_envs": "environments stepped together: the learner's batch",
    "n_workers": "worker processes (one per core); with fewer than --n-envs, each steps a group "
                 "of environments; with --backend ray, Ray actors (--num-workers is the same "
                 "flag)",
    "backend": "where the environments run: local (processes on this machine) or ray (Ray "
               "actors; needs the ray extra; docs/ray.md)",
    "address": "with --backend ray, the Ray cluster to join: HOST:PORT, or auto for the one "
               "started on this machine by ray start --head; empty: a local Ray instance of "
               "--n-workers CPUs",
    "table_sizes": "comma-separated table sizes (2 to 6) to draw each episode's table from",
    "n_steps": "PPO rollout length per environment: one rollout is n_steps x n_envs decisions "
               "(cut down for a budget smaller than that)",
    "batch_size": "PPO minibatch size (at least 2)",
    "n_epochs": "PPO passes over each rollout",
    "learning_rate": "Adam learning rate",
    "gamma": "discount factor (games are long: a few hundred decisions per seat)",
    "gae_lambda": "GAE lambda, from 0 to 1",
    "clip_range": "PPO clipping range",
    "ent_coef": "entropy bonus coefficient",
    "hidden": "comma-separated hidden layer sizes of the actor and of the critic",
    "reward": "outcome (win or loss only), net_worth_share (the outcome plus dense shaping "
              "by net worth share) or position_share (shaping by net worth plus expected rent)",
    "anchor_share": "share of opponent seats played by the easy and medium players (the "
                    "original pool)",
    "medium_share_of_anchors": "share of those anchor seats that are medium rather than easy",
    "latest_share": "share of opponent seats played by the newest snapshot of the learner",
    "pool_window": "recent snapshots kept in the opponent pool",
    "league": "comma-separated hand-written players for league self-play by PFSP "
              "(training/league.py; a name given k times is drawn k times as often); empty: "
              "the original pool",
    "exploiters": "comma-separated checkpoint folders that join the league",
    "single_opponent_share": "league runs (compact trainer): share of tables where every seat "
                             "but the learner's is one PFSP-drawn member, as in the gauntlet",
    "critic_warmup_steps": "steps at the start of a run during which only the critic learns "
                           "(a warm start from a checkpoint brings an actor but no critic)",
    "init_from": "start the actor from this checkpoint folder (e.g. checkpoints/hard) instead "
                 "of imitation",
    "kl_to_init": "compact trainer, with --init-from: weight of the KL divergence from the "
                  "--init-from policy in the actor's loss (0: none); keeps a fine-tune near "
                  "what it started from",
    "imitation_games": "games of the medium player to imitate before PPO (0: none; when not "
                       "given, at most one per 100 steps of --total-steps)",
    "imitation_epochs": "passes over the imitation data",
    "save_every": "steps between saves and snapshots into the pool",
    "eval_every": "steps between evaluations in the arena",
    "eval_games": "arena games per evaluation table (when not given, at most one per 100 steps "
                  "of --total-steps, and at least 20)",
    "eval_workers": "processes for the evaluation games",
    "eval_tables": "evaluation tables as comma-separated OPPONENT:COUNT (the snapshot plus "
                   "COUNT copies); empty: three medium, one medium (and, in league runs, the "
                   "panel tables)",
}


class ConfigError(ValueError):
    """A training setting that cannot work, found before any process starts or any step."""


def _int_tuple(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated whole numbers, got {text!r}") from None


def build_parser(suppress_defaults: bool = False) -> argparse.ArgumentParser:
    """The ``byapar train`` flags, one per Config field. With ``suppress_defaults`` a parsed
    namespace holds only the flags actually given (to tell a default from a choice)."""
    ap = ArgumentParser(prog="byapar train", description=__doc__.splitlines()[0])
    for f in dataclasses.fields(Config):
        flag = "--" + f.name.replace("_", "-")
        # --num-workers: the name Ray users know for --n-workers (the first name sets the field)
        names = (flag, "--num-workers") if f.name == "n_workers" else (flag,)
        kind = _int_tuple if f.type.startswith("tuple") else {
            "int": int, "float": float, "str": str}[f.type]
        ap.add_argument(*names, type=kind, help=HELP.get(f.name, ""),
                        default=argparse.SUPPRESS if suppress_defaults else f.default,
                        metavar="N,N,..." if kind is _int_tuple else None)
    return ap


def parse_command(argv: list[str] | None = None) -> tuple[Config, frozenset[str]]:
    """The config, and the names of the fields given on the command line."""
    config = Config(**vars(build_parser().parse_args(argv)))
    given = frozenset(vars(build_parser(suppress_defaults=True).parse_args(argv)))
    return config, given


def parse_args(argv: list[str] | None = None) -> Config:
    """Command-line flags generated from the Config fields."""
    return parse_command(argv)[0]


# Settings the saved model carries: a resumed run must keep them. The opponents, table sizes and
# reward may change between sittings (they are the environments', rebuilt each time).
PPO_FIELDS = ("n_steps", "batch_size", "n_epochs", "learning_rate", "gamma", "gae_lambda",
              "clip_range", "ent_coef", "hidden", "seed")


def _jsonable(value):
    return list(value) if isinstance(value, tuple) else value


def config_command(config: Config) -> str:
    """The byapar train command that reproduces this config."""
    parts = ["byapar", "train"]
    for f in dataclasses.fields(Config):
        value = getattr(config, f.name)
        if value != f.default:
            text = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
            parts += ["--" + f.name.replace("_", "-"), text]
    return " ".join(parts)


# ---------------------------------------------------------------------------- 2. opponents
class OpponentPool:
    """Picks the other seats' players at each episode (picklable, for SubprocVecEnv)."""

    def __init__(self, config: Config) -> None:
        self.pool_dir = Path(config.run_dir) / "pool"
        self.config = config
        self._loaded: dict[str, LearnedPlayer] = {}

    def snapshots(self) -> list[Path]:
        return sorted(self.pool_dir.glob("step_*"))[-self.config.pool_window:]

    def __call__(self, rng: random.Random, count: int) -> list:
        c = self.config
        snaps = self.snapshots()
        players = []
        for _ in range(count):
            r = rng.random()
            if not snaps or r < c.anchor_share:
                name = "medium" if rng.random() < c.medium_share_of_anchors else "easy"
                players.append(make_agent(name))
            elif r < c.anchor_share + c.latest_share:
                players.append(self._load(snaps[-1]))
            else:
                players.append(self._load(rng.choice(snaps)))
        return players

    def _load(self, path: Path) -> LearnedPlayer:
        key = str(path)
        if key not in self._loaded:
            keep = {str(p) for p in self.snapshots()}  # forget snapshots out of the window
            self._loaded = {k: v for k, v in self._loaded.items() if k in keep}
            self._loaded[key] = LearnedPlayer(path)
        return self._loaded[key]


TABLES = [{"rounds": 40}, {"rounds": 40, "auctions": False}, {"rounds": None},
          {"rounds": 20}, {"rounds": 40, "starting_cash": 10_000}]


def _names(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.split(",") if x.strip())


def make_env(config: Config, worker: int = 0):
    def thunk() -> SingleSeatEnv:
        if config.league or config.exploiters:
            pool = LeaguePool(config.run_dir, _names(config.league), _names(config.exploiters),
                              config.latest_share, config.pool_window, worker)
            return LeagueSeatEnv(num_players=config.table_sizes, opponents=pool, tables=TABLES,
                                 reward=config.reward)
        return SingleSeatEnv(num_players=config.table_sizes, opponents=OpponentPool(config),
                             tables=TABLES, reward=config.reward)
    return thunk


# ---------------------------------------------------------------------------- 3. imitation
def medium_demonstrations(config: Config) -> tuple[np.ndarray, ...]:
    """Observations, masks, the medium player's choices and the discounted outcome that
    followed each, from games of medium players against easy and medium ones at every table
    size (the outcome warms up the value head too, so PPO starts from a sensible critic)."""
    rng = random.Random(config.seed)
    obs, masks, acts, returns = [], [], [], []
    for g in range(config.imitation_games):
        n = rng.choice(config.table_sizes)
        env = raw_env(num_players=n, **rng.choice(TABLES))
        players = [make_agent("medium" if rng.random() < 0.7 else "easy") for _ in range(n)]
        for s, p in enumerate(players):
            p.reset(s)
        env.reset(seed=rng.getrandbits(31))
        taken: list[list[int]] = [[] for _ in range(n)]  # each seat's sample indices

        def record(env, seat, action, players=players, taken=taken) -> None:
            if players[seat].name == "medium":
                o = env.observe(env.possible_agents[seat])
                taken[seat].append(len(acts))
                obs.append(o["observation"])
                masks.append(o["action_mask"])
                acts.append(action)
                returns.append(0.0)

        play_through_env(env, players, record)
        winners = env.game.winners
        for seat, indices in enumerate(taken):
            outcome = ((n - len(winners)) / (n - 1) / len(winners) if seat in winners
                       else -1 / (n - 1))
            for k, i in enumerate(reversed(indices)):
                returns[i] = outcome * config.gamma ** k
        if (g + 1) % max(1, config.imitation_games // 5) == 0:
            print(f"imitation: {g + 1}/{config.imitation_games} games, {len(acts):,} decisions",
                  flush=True)
    return (np.array(obs), np.array(masks, bool), np.array(acts),
            np.array(returns, np.float32))


def imitate(model, data, config: Config, logger) -> float:
    """Train the policy to copy the demonstrations (cross-entropy under the mask), and the
    value head to predict the outcome that followed."""
    import torch

    obs, masks, acts, returns = data
    policy = model.policy
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    n = len(acts)
    gen = np.random.default_rng(config.seed)
    accuracy = 0.0
    for epoch in range(config.imitation_epochs):
        order = gen.permutation(n)
        losses = []
        for start in range(0, n, 512):
            idx = order[start:start + 512]
            o = torch.as_tensor(obs[idx], device=policy.device)
            m = torch.as_tensor(masks[idx], device=policy.device)
            a = torch.as_tensor(acts[idx], device=policy.device)
            r = torch.as_tensor(returns[idx], device=policy.device)
            dist = policy.get_distribution(o, action_masks=m)
            value = policy.predict_values(o).squeeze(-1)
            loss = -dist.log_prob(a).mean() + 0.5 * ((value - r) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        with torch.no_grad():
            sample = order[:5000]
            d = policy.get_distribution(torch.as_tensor(obs[sample]),
                                        action_masks=torch.as_tensor(masks[sample]))
            pred = d.distribution.probs.argmax(dim=1).numpy()
            accuracy = float((pred == acts[sample]).mean())
        print(f"imitation epoch {epoch + 1}: loss {np.mean(losses):.4f}, agreement with "
              f"medium {accuracy:.1%}", flush=True)
        logger.record("imitation/loss", float(np.mean(losses)))
        logger.record("imitation/agreement", accuracy)
        logger.dump(epoch)
    return accuracy


# ---------------------------------------------------------------------------- export helpers
def numpy_policy(model) -> NumpyPolicy:
    """The PPO policy's actor as numpy layers (what the hard player runs)."""
    import torch

    layers = []
    for module in model.policy.mlp_extractor.policy_net:
        if isinstance(module, torch.nn.Linear):
            layers.append((module.weight.detach().numpy().T.copy(),
                           module.bias.detach().numpy().copy()))
    head = model.policy.action_net
    layers.append((head.weight.detach().numpy().T.copy(), head.bias.detach().numpy().copy()))
    return NumpyPolicy(layers, "tanh")


def load_numpy_policy(model, folder: str) -> None:
    """Start the PPO actor from a numpy checkpoint (the critic starts fresh)."""
    import torch

    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    copy_policy_into(linears + [model.policy.action_net], folder,
                     f"--hidden {config_hidden(model)}")


def copy_policy_into(linears: list, folder: str, hidden: str) -> None:
    """Copy a numpy checkpoint's layers into torch Linear layers (both trainers' warm start);
    ``hidden`` names the run's layer sizes for the error when they do not fit."""
    import torch
    from byapar_agents.network import load_checkpoint

    policy, _ = load_checkpoint(folder)
    if [tuple(m.weight.shape[::-1]) for m in linears] != [w.shape for w, _ in policy.layers]:
        raise ValueError(f"{folder}: its layers {[w.shape for w, _ in policy.layers]} do not "
                         f"fit {hidden}")
    with torch.no_grad():
        for module, (w, b) in zip(linears, policy.layers, strict=True):
            module.weight.copy_(torch.as_tensor(w.T))
            module.bias.copy_(torch.as_tensor(b))


def config_hidden(model) -> list[int]:
    return [m.out_features for m in model.policy.mlp_extractor.policy_net
            if hasattr(m, "out_features")]


EVAL_TABLES = (("vs3medium", "medium", 3), ("vs1medium", "medium", 1))
# League runs are judged against a strategic panel member as well.
LEAGUE_EVAL_TABLES = EVAL_TABLES + (("vs3strategist", "strategist", 3),
                                    ("vs5guardian", "guardian", 5))


def parse_eval_tables(text: str) -> tuple[tuple[str, str, int], ...]:
    """``OPPONENT:COUNT,...`` as evaluation tables labelled ``vs{COUNT}{name}``."""
    tables = []
    for item in _names(text):
        name, _, count = item.rpartition(":")
        if not name or not count.isdigit() or not 1 <= int(count) <= 5:
            raise ValueError(f"--eval-tables takes OPPONENT:COUNT items with COUNT from 1 to 5, "
                             f"got {item!r}")
        tables.append((f"vs{count}{Path(name).name}", name, int(count)))
    return tuple(tables)


def evaluate(folder: Path, games: int, seed: int, workers: int,
             tables=EVAL_TABLES) -> dict:
    """The snapshot against three medium players, heads-up against one, and (league runs)
    against three strategists and five guardians."""
    out = {}
    for label, other, others in tables:
        summary = run_arena(ArenaConfig(players=(str(folder),) + (other,) * others,
                                        games=games, seed=seed, workers=workers))
        me = summary["players"][str(folder)]
        out[f"{label}_win_rate"] = me["win_rate"]
        out[f"{label}_ci_low"], out[f"{label}_ci_high"] = me["ci95"]
    return out


# ---------------------------------------------------------------------------- 4. training
def train(config: Config) -> Path:
    """Train by the config's trainer; the run folder (a new one, or one to resume)."""
    if config.trainer == "compact":
        from .ppo import train as train_compact

        return train_compact(config)
    if (Path(config.run_dir) / "latest.pt").exists():
        raise SystemExit(f"byapar train: {config.run_dir} was trained by the compact trainer; "
                         "resume it with --trainer compact, or start a new --run-dir")
    return train_sb3(config)


def open_run(config: Config, last_save: str) -> tuple[Path, dict]:
    """The run folder and its state, for either trainer (``last_save``: its resumable save).
    A resumed run must keep its PPO settings; every sitting's command is kept, in order."""
    run = Path(config.run_dir)
    (run / "pool").mkdir(parents=True, exist_ok=True)
    state_path = run / "state.json"
    state = json.loads(state_path.read_text()) if state_path.exists() else {
        "wall_seconds": 0.0, "episodes": 0, "command": config_command(config)}
    # Every sitting's command, in order: a run resumed with other flags says so.
    state.setdefault("commands", [state["command"]])
    if state["commands"][-1] != config_command(config):
        state["commands"].append(config_command(config))
    saved = json.loads((run / "config.json").read_text()) if (run / "config.json").exists() \
        else None
    if saved is not None and (run / last_save).exists():
        changed = [k for k in PPO_FIELDS if saved.get(k) != _jsonable(getattr(config, k))]
        if changed:
            raise SystemExit(f"byapar train: {run} was trained with other {', '.join(changed)}; "
                             "a resumed run keeps its PPO settings (start a new --run-dir)")
    (run / "config.json").write_text(json.dumps(dataclasses.asdict(config), indent=2))
    return run, state


def train_sb3(config: Config) -> Path:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    run, state = open_run(config, "latest.zip")
    random.seed(config.seed)
    np.random.seed(config.seed)
    torch.manual_seed(config.seed)
    torch.set_num_threads(1)

    fns = [make_env(config, i) for i in range(config.n_envs)]
    from .vec_env import GroupedSubprocVecEnv

    if config.backend == "ray":
        from .vec_env_ray import RayGroupedVecEnv  # Ray is an optional extra: imported here only

        venv = RayGroupedVecEnv(fns, min(config.n_workers, config.n_envs),
                                address=config.address or None)
    elif config.n_envs == 1:
        venv = DummyVecEnv(fns)
    elif config.n_workers >= config.n_envs:
        venv = SubprocVecEnv(fns)
    else:
        venv = GroupedSubprocVecEnv(fns, config.n_workers)
    logger = configure(str(run), ["csv", "tensorboard"])
    latest = run / "latest.zip"
    if latest.exists():
        model = MaskablePPO.load(latest, env=venv, device="cpu")
        print(f"resuming from {latest} at step {model.num_timesteps:,}", flush=True)
    else:
        model = MaskablePPO(
            "MlpPolicy", venv, n_steps=config.n_steps, batch_size=config.batch_size,
            n_epochs=config.n_epochs, learning_rate=config.learning_rate, gamma=config.gamma,
            gae_lambda=config.gae_lambda, clip_range=config.clip_range,
            ent_coef=config.ent_coef, seed=config.seed, device="cpu", verbose=0,
            policy_kwargs=dict(net_arch=dict(pi=list(config.hidden), vf=list(config.hidden))))
        model.set_logger(logger)
        if config.init_from:
            load_numpy_policy(model, config.init_from)
            state["init_from"] = config.init_from
        elif config.imitation_games:
            start = time.time()
            agreement = imitate(model, medium_demonstrations(config), config, logger)
            state["imitation_agreement"] = agreement
            state["imitation_seconds"] = round(time.time() - start, 1)
        _snapshot(model, run, state)
    model.set_logger(logger)

    class Progress(BaseCallback):
        """Snapshots, saves, evaluation and progress lines, on the steps the config says."""

        def _on_training_start(self) -> None:
            self.t0 = self.rate_t0 = time.time()
            self.rate_s0 = self.model.num_timesteps
            self.next_save = (self.num_timesteps // config.save_every + 1) * config.save_every
            self.next_eval = (self.num_timesteps // config.eval_every + 1) * config.eval_every

        def _on_step(self) -> bool:
            state["episodes"] += int(sum(self.locals["dones"]))
            if self.num_timesteps >= self.next_save:
                self.next_save += config.save_every
                self._account()
                folder = _snapshot(self.model, run, state)
                print(f"step {self.num_timesteps:,}: saved {folder.name}", flush=True)
            if self.num_timesteps >= self.next_eval:
                self.next_eval += config.eval_every
                self._account()
                _evaluate_latest(self.model, run, state, config, self.logger)
            return True

        def _on_rollout_end(self) -> None:
            # Before the update: the actor learns only once the critic has warmed up.
            warm = self.model.num_timesteps < config.critic_warmup_steps
            for module in (self.model.policy.mlp_extractor.policy_net,
                           self.model.policy.action_net):
                for param in module.parameters():
                    param.requires_grad_(not warm)
            rate = (self.model.num_timesteps - self.rate_s0) / max(1e-9,
                                                                  time.time() - self.rate_t0)
            self.logger.record("charts/steps_per_second", rate)
            self.logger.record("charts/episodes", state["episodes"])
            print(f"step {self.num_timesteps:,}/{config.total_steps:,}  {rate:,.0f} steps/s  "
                  f"{state['episodes']:,} episodes", flush=True)

        def _account(self) -> None:
            now = time.time()
            state["wall_seconds"] += now - self.t0
            self.t0 = now

    remaining = config.total_steps - model.num_timesteps
    if remaining > 0:
        progress = Progress()
        model.learn(remaining, callback=progress, reset_num_timesteps=False)
        progress._account()
    if state.get("evaluated_at") != model.num_timesteps:
        _evaluate_latest(model, run, state, config, logger)
    venv.close()
    return run


def _snapshot(model, run: Path, state: dict) -> Path:
    """Save the model for resuming, and its policy as a numpy checkpoint into the pool. The
    save is written beside and renamed into place, so a run stopped mid-save still resumes."""
    model.save(run / "latest.tmp.zip")
    (run / "latest.tmp.zip").replace(run / "latest.zip")
    folder = run / "pool" / f"step_{model.num_timesteps:09d}"
    numpy_policy(model).save(folder, {"name": folder.name, "steps": model.num_timesteps})
    state["steps"] = model.num_timesteps
    _write_state(run, state)
    return folder


def _write_state(run: Path, state: dict) -> None:
    (run / "state.tmp.json").write_text(json.dumps(state, indent=2))
    (run / "state.tmp.json").replace(run / "state.json")


def _evaluate_latest(model, run: Path, state: dict, config: Config, logger) -> None:
    folder = _snapshot(model, run, state)
    result = record_evaluation(folder, model.num_timesteps, run, state, config)
    for key, value in result.items():
        logger.record(f"eval/{key}", value)
    logger.dump(model.num_timesteps)


def record_evaluation(folder: Path, steps: int, run: Path, state: dict, config: Config) -> dict:
    """Evaluate a snapshot on the run's tables, note it in state.json and eval.csv, print it
    (both trainers)."""
    tables = LEAGUE_EVAL_TABLES if config.league or config.exploiters else EVAL_TABLES
    if config.eval_tables:
        tables = parse_eval_tables(config.eval_tables)
    result = evaluate(folder, config.eval_games, config.seed + 17, config.eval_workers, tables)
    state["evaluated_at"] = steps
    _write_state(run, state)
    row = {"steps": steps, "wall_seconds": round(state["wall_seconds"], 1),
           "episodes": state["episodes"], **result}
    path = run / "eval.csv"
    new = not path.exists()
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)
    print(f"eval at step {steps:,}: "
          + ", ".join(f"{k} {v:.3f}" for k, v in result.items()), flush=True)
    return result


# ---------------------------------------------------------------------------- checks and budget


def _whole(flag: str, value: int, low: int, high: int | None = None) -> None:
    if value < low or (high is not None and value > high):
        allowed = f"at least {low:,}" if high is None else f"from {low:,} to {high:,}"
        raise ConfigError(f"{flag} must be {allowed}, got {value:,}")


def _number(flag: str, value: float, low: float, high: float, low_open: bool = False) -> None:
    if not math.isfinite(value) or value > high or value < low or (low_open and value == low):
        side = "(" if low_open else "["
        raise ConfigError(f"{flag} must be a number in {side}{low:g}, {high:g}], got {value!r}")


def _player(flag: str, name: str) -> None:
    try:
        make_agent(name)
    except ValueError as exc:  # UnknownAgentError and CheckpointError say why
        raise ConfigError(f"{flag}: {exc}") from None


def check_config(config: Config) -> None:
    """Refuse, with a ``ConfigError`` naming the flag, any setting that would fail later: in an
    environment process (a traceback from each), in SB3 after the imitation warm start, or at
    the first evaluation."""
    from byapar_agents.arena import MAX_GAMES, max_workers
    from byapar_agents.network import load_checkpoint

    from byapar_env.byapar_v0 import REWARD_MODES

    run = Path(config.run_dir)
    if not config.run_dir or (run.exists() and not run.is_dir()):
        raise ConfigError(f"--run-dir {config.run_dir!r} is not a folder")
    _whole("--total-steps", config.total_steps, 0)
    _whole("--seed", config.seed, 0, MAX_SEED)
    _whole("--n-envs", config.n_envs, 1, MAX_ENVS)
    workers = getattr(config, "n_workers", config.n_envs)
    _whole("--n-workers", workers, 1)
    if config.trainer not in ("sb3", "compact"):
        raise ConfigError(f"--trainer must be sb3 or compact, got {config.trainer!r}")
    if config.backend not in ("local", "ray"):
        raise ConfigError(f"--backend must be local or ray, got {config.backend!r}")
    if config.address and config.backend != "ray":
        raise ConfigError("--address is where Ray runs the environments: it needs --backend ray")
    if config.backend == "ray":
        from byapar_agents.arena_ray import RAY_INSTALL

        require(["ray"], "train --backend ray", RAY_INSTALL)
    # A cluster's actors run on its machines, not on this one's cores.
    if (config.n_envs > 1 and not config.address
            and min(workers, config.n_envs) > max_workers()):
        raise ConfigError(f"{min(workers, config.n_envs)} environment processes are too many: "
                          f"at most {max_workers()} here (four per core); lower --n-workers")
    if not config.table_sizes or any(not 2 <= n <= 6 for n in config.table_sizes):
        raise ConfigError("--table-sizes takes comma-separated table sizes from 2 to 6, got "
                          + ",".join(map(str, config.table_sizes)))
    _whole("--n-steps", config.n_steps, 1)
    _whole("--batch-size", config.batch_size, 2)  # SB3 refuses a minibatch of one
    _whole("--n-epochs", config.n_epochs, 1)
    _number("--learning-rate", config.learning_rate, 0.0, 1.0, low_open=True)
    _number("--gamma", config.gamma, 0.0, 1.0, low_open=True)
    _number("--gae-lambda", config.gae_lambda, 0.0, 1.0)
    _number("--clip-range", config.clip_range, 0.0, 10.0, low_open=True)
    _number("--ent-coef", config.ent_coef, 0.0, 10.0)
    if not config.hidden or any(n < 1 for n in config.hidden):
        raise ConfigError("--hidden takes comma-separated layer sizes of at least 1, got "
                          + ",".join(map(str, config.hidden)))
    if config.reward not in REWARD_MODES:
        raise ConfigError(f"--reward must be one of {', '.join(REWARD_MODES)}, "
                          f"got {config.reward!r}")
    for flag in ("anchor_share", "medium_share_of_anchors", "latest_share",
                 "single_opponent_share"):
        _number("--" + flag.replace("_", "-"), getattr(config, flag), 0.0, 1.0)
    _whole("--pool-window", config.pool_window, 0)
    for name in _names(config.league):
        _player("--league", name)
    for folder in _names(config.exploiters):
        if not Path(folder).is_dir():
            raise ConfigError(f"--exploiters: {folder!r} is not a checkpoint folder")
        _player("--exploiters", folder)
    if config.single_opponent_share and not (config.league or config.exploiters):
        raise ConfigError("--single-opponent-share needs a league (--league or --exploiters)")
    if config.single_opponent_share and config.trainer != "compact":
        raise ConfigError("--single-opponent-share is a setting of --trainer compact")
    _whole("--critic-warmup-steps", config.critic_warmup_steps, 0)
    if config.init_from:
        try:
            load_checkpoint(config.init_from)
        except ValueError as exc:
            raise ConfigError(f"--init-from: {exc}") from None
    _number("--kl-to-init", config.kl_to_init, 0.0, 1000.0)
    if config.kl_to_init and not config.init_from:
        raise ConfigError("--kl-to-init keeps a fine-tune near its start: it needs --init-from")
    if config.kl_to_init and config.trainer != "compact":
        raise ConfigError("--kl-to-init is a setting of --trainer compact")
    _whole("--imitation-games", config.imitation_games, 0, MAX_GAMES)
    _whole("--imitation-epochs", config.imitation_epochs, 0)
    _whole("--save-every", config.save_every, 1)
    _whole("--eval-every", config.eval_every, 1)
    _whole("--eval-games", config.eval_games, 1, MAX_GAMES)
    _whole("--eval-workers", config.eval_workers, 1, max_workers())
    try:
        tables = parse_eval_tables(config.eval_tables)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    for _, name, _ in tables:
        _player("--eval-tables", name)


def _batch_for(rollout: int, batch: int) -> int:
    """A minibatch size that divides the rollout (SB3 warns of a truncated last minibatch
    otherwise): the largest divisor not above ``batch`` and not below a quarter of it."""
    if batch >= rollout:
        return rollout
    for size in range(batch, max(1, batch // 4), -1):
        if rollout % size == 0:
            return size
    return batch


def fit_to_budget(config: Config, given: frozenset[str]) -> tuple[Config, list[str]]:
    """Make a small run small, and say what changed (one line each).

    - One PPO rollout (``n_steps`` x ``n_envs`` decisions) never exceeds ``total_steps``: SB3
      always collects whole rollouts, so ``--total-steps 2000`` would otherwise train 4,096.
    - Unless ``--imitation-games`` is given, the warm start plays at most one game of the medium
      player per 100 steps of the budget (300 games take over a minute, far longer than a
      smoke test's PPO); unless ``--eval-games`` is given, an evaluation plays at most one game
      a table per 100 steps, and at least 20.
    - A resumed run keeps its saved model's rollout settings unless they are given, so that a
      run cut down for a small budget can be resumed with a bigger one.
    """
    run = Path(config.run_dir)
    if (run / "latest.zip").exists() or (run / "latest.pt").exists():
        saved_path = run / "config.json"
        saved = json.loads(saved_path.read_text()) if saved_path.exists() else {}
        keep = {k: saved[k] for k in ("n_steps", "batch_size")
                if k not in given and isinstance(saved.get(k), int)
                and saved[k] != getattr(config, k)}
        if not keep:
            return config, []
        flags = " and ".join(f"--{k.replace('_', '-')} {v:,}" for k, v in keep.items())
        return dataclasses.replace(config, **keep), [f"resuming with the run's own {flags}"]
    changes: dict = {}
    notes = []
    rollout = config.n_steps * config.n_envs
    if 0 < config.total_steps < rollout:
        # SB3 needs a rollout of at least two decisions.
        n_steps = max(config.total_steps // config.n_envs, 2 if config.n_envs == 1 else 1)
        batch = _batch_for(n_steps * config.n_envs, config.batch_size)
        changes.update(n_steps=n_steps, batch_size=batch)
        also = f" and --batch-size {batch:,}" if batch != config.batch_size else ""
        notes.append(f"one rollout ({config.n_steps:,} steps x {config.n_envs} environments) "
                     f"is more than the budget of {config.total_steps:,} steps: using --n-steps "
                     f"{n_steps:,}{also}")
    cap = config.total_steps // 100
    if "imitation_games" not in given and not config.init_from and config.imitation_games > cap:
        changes["imitation_games"] = cap
        notes.append(f"imitation warm start cut to {cap:,} games for a budget of "
                     f"{config.total_steps:,} steps (one per 100 steps; give --imitation-games "
                     "to choose)")
    cap = max(20, cap)
    if "eval_games" not in given and config.eval_games > cap:
        changes["eval_games"] = cap
        notes.append(f"evaluations cut to {cap:,} games a table for a budget of "
                     f"{config.total_steps:,} steps (one per 100 steps, at least 20; give "
                     "--eval-games to choose)")
    return dataclasses.replace(config, **changes), notes


def _state(run_dir: str) -> dict:
    path = Path(run_dir) / "state.json"
    return json.loads(path.read_text()) if path.exists() else {}


def main(argv: list[str] | None = None) -> int:
    """``byapar train``: check every setting before anything starts, fit a small run to its
    budget, train, and say in one line what was done."""
    config, given = parse_command(argv)
    check_config(config)
    config, notes = fit_to_budget(config, given)
    for note in notes:
        print(f"byapar train: {note}", flush=True)
    quiet_worker_processes()
    start, before = time.time(), _state(config.run_dir)
    run = train(config)
    after = _state(config.run_dir)
    steps = after.get("steps", 0) - before.get("steps", 0)
    episodes = after.get("episodes", 0) - before.get("episodes", 0)
    save = "latest.pt" if config.trainer == "compact" else "latest.zip"
    print(f"byapar train: {steps:,} steps ({after.get('steps', 0):,} in the run), {episodes:,} "
          f"episodes, {time.time() - start:,.1f} s; saved {run / save}, policy "
          f"snapshots in {run / 'pool'}, evaluations in {run / 'eval.csv'}", flush=True)
    return 0

