"""Checks and budget fitting of a ``byapar train`` config, before anything starts.

- ``check_config`` refuses, with a ``ConfigError`` naming the flag, any setting that would fail
  later (in a worker process, after the warm start, at the first evaluation);
- ``fit_to_budget`` makes a small run small (one rollout never over the budget, fewer warm
  start and evaluation games) and says what it changed; a resumed run keeps its own rollout.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

from byapar_agents.network import load_checkpoint
from byapar_harness.arena import MAX_GAMES, max_workers

from .common import require
from .config import MAX_ENVS, MAX_SEED, Config, ConfigError, names
from .evaluation import parse_eval_tables
from .games import BYAPAR, trained_game
from .league import POPULATION, unseen_refusal
from .tracking import check_tracking


def _whole(flag: str, value: int, low: int, high: int | None = None) -> None:
    if value < low or (high is not None and value > high):
        allowed = f"at least {low:,}" if high is None else f"from {low:,} to {high:,}"
        raise ConfigError(f"{flag} must be {allowed}, got {value:,}")


def _number(flag: str, value: float, low: float, high: float, low_open: bool = False) -> None:
    if not math.isfinite(value) or value > high or value < low or (low_open and value == low):
        side = "(" if low_open else "["
        raise ConfigError(f"{flag} must be a number in {side}{low:g}, {high:g}], got {value!r}")


def _player(flag: str, name: str, game: str = BYAPAR) -> None:
    try:
        trained_game(game).player(name)
    except ValueError as exc:  # UnknownAgentError and CheckpointError say why
        raise ConfigError(f"{flag}: {exc}") from None


def _unseen_refused(name: str, flag: str = "--league") -> None:
    """The unseen opponents never train (``byapar_agents.unseen``)."""
    why = unseen_refusal(name, flag)
    if why is not None:
        raise ConfigError(why)


def check_config(config: Config) -> None:
    """Refuse, with a ``ConfigError`` naming the flag, any setting that would fail later: in an
    environment process (a traceback from each), in SB3 after the imitation warm start, or at
    the first evaluation."""
    run = Path(config.run_dir)
    if not config.run_dir or (run.exists() and not run.is_dir()):
        raise ConfigError(f"--run-dir {config.run_dir!r} is not a folder")
    _whole("--total-steps", config.total_steps, 0)
    _whole("--seed", config.seed, 0, MAX_SEED)
    _whole("--n-envs", config.n_envs, 1, MAX_ENVS)
    workers = getattr(config, "n_workers", config.n_envs)
    _whole("--n-workers", workers, 1)
    try:
        trained_game(config.game)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if config.device not in ("cpu", "cuda", "auto"):
        raise ConfigError(f"--device must be cpu, cuda or auto, got {config.device!r}")
    if config.device == "cuda":
        import torch

        if not torch.cuda.is_available():
            raise ConfigError(f"--device cuda: torch {torch.__version__} finds no CUDA device "
                              "here (--device auto takes a GPU where there is one)")
    if config.trainer not in ("sb3", "compact"):
        raise ConfigError(f"--trainer must be sb3 or compact, got {config.trainer!r}")
    if config.trainer not in trained_game(config.game).trainers:
        raise ConfigError(f"--game {config.game} is trained by --trainer "
                          f"{' or '.join(trained_game(config.game).trainers)} only")
    if config.backend not in ("local", "ray"):
        raise ConfigError(f"--backend must be local or ray, got {config.backend!r}")
    if config.address and config.backend != "ray":
        raise ConfigError("--address is where Ray runs the environments: it needs --backend ray")
    if config.backend == "ray":
        from byapar_harness.arena_ray import RAY_INSTALL

        require(["ray"], "train --backend ray", RAY_INSTALL)
    check_tracking(config)  # --wandb-project without the wandb package
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
    modes = trained_game(config.game).reward_modes
    if config.reward not in modes:
        raise ConfigError(f"--reward must be one of {', '.join(modes)} for {config.game}, "
                          f"got {config.reward!r}")
    for flag in ("anchor_share", "medium_share_of_anchors", "latest_share",
                 "single_opponent_share"):
        _number("--" + flag.replace("_", "-"), getattr(config, flag), 0.0, 1.0)
    _whole("--pool-window", config.pool_window, 0)
    for name in names(config.league):
        if name == POPULATION and trained_game(config.game).population:
            continue
        _unseen_refused(name)
        _player("--league", name, config.game)
    for folder in names(config.exploiters):
        if not Path(folder).is_dir():
            raise ConfigError(f"--exploiters: {folder!r} is not a checkpoint folder")
        _player("--exploiters", folder, config.game)
    if config.single_opponent_share and not (config.league or config.exploiters):
        raise ConfigError("--single-opponent-share needs a league (--league or --exploiters)")
    if config.single_opponent_share and config.trainer != "compact":
        raise ConfigError("--single-opponent-share is a setting of --trainer compact")
    _whole("--critic-warmup-steps", config.critic_warmup_steps, 0)
    if config.init_from:
        try:
            load_checkpoint(config.init_from, trained_game(config.game).policy_format)
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
        _unseen_refused(name, "--eval-tables")  # selection is training too
        _player("--eval-tables", name, config.game)


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
      player per 100 steps of the budget (its games take far longer than a smoke test's
      PPO); unless ``--eval-games`` is given, an evaluation plays at most one game
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
