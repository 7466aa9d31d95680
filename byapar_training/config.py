"""The config of ``byapar train``: one dataclass whose fields are the command's flags.

Each field carries its default and its help (``flag(default, help)``, as CleanRL's ``Args``);
``build_parser`` makes one ``--flag`` per field from them, ``config_command`` writes the command
that reproduces a config (the run folder keeps it). The checks of every value are in
``byapar_training/checks.py``.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass

from byapar_env.engine.errors import ByaparError

from .common import ArgumentParser

MAX_SEED = 2**32 - 1  # np.random.seed and SB3's set_random_seed take no more
MAX_ENVS = 1024  # environments are cheap (a game each), but a batch this big is a typo


class ConfigError(ByaparError, ValueError):
    """A training setting that cannot work, found before any process starts or any step."""


def flag(default, text: str):
    """A Config field: its default and the help ``byapar train --help`` shows with it."""
    return dataclasses.field(default=default, metadata={"help": text})


@dataclass
class Config:
    run_dir: str = flag(
        "runs/hard",
        "the run folder: saves, snapshots, logs, eval.csv; an existing one is resumed")
    # sb3 trained every run before this option existed
    trainer: str = flag(
        "sb3",
        "sb3 (Stable-Baselines3's MaskablePPO) or compact (byapar_training/ppo.py: many games per "
        "process, batched networks, every learner seat sampled; faster)")
    game: str = flag(
        "byapar",
        "the game to train for: byapar, or businessman (compact trainer; byapar_training/games.py)")
    device: str = flag(
        "cpu",
        "where the network learns: cpu, cuda, or auto (cuda where a GPU is found); the games "
        "are played on the CPU whatever it is")
    total_steps: int = flag(
        3_000_000,
        "the learner's decisions to train for in all (imitation not counted); a run stops at "
        "the first rollout that reaches it")
    seed: int = flag(0, f"the run's seed, from 0 to {MAX_SEED:,} (numpy's seed range)")
    n_envs: int = flag(2, "environments stepped together: the learner's batch")
    # with fewer than n_envs, each process steps a group of environments
    # (byapar_training/vec_env.py),
    # one message a step per process
    n_workers: int = flag(
        2,
        "worker processes (one per core); with fewer than --n-envs, each steps a group of "
        "environments; with --backend ray, Ray actors (--num-workers and --workers are the same "
        "flag)")
    # ray: n_workers Ray actors (byapar_training/vec_env_ray.py)
    backend: str = flag(
        "local",
        "where the environments run: local (processes on this machine) or ray (Ray actors; "
        "needs the ray extra; docs/ray.md)")
    address: str = flag(
        "",
        "with --backend ray, the Ray cluster to join: HOST:PORT, or auto for the one started "
        "on this machine by ray start --head; empty: a local Ray instance of --n-workers CPUs")
    table_sizes: tuple[int, ...] = flag(
        (2, 3, 4, 5, 6), "comma-separated table sizes (2 to 6) to draw each episode's table from")

    # PPO
    n_steps: int = flag(
        2048,
        "PPO rollout length per environment: one rollout is n_steps x n_envs decisions (cut "
        "down for a budget smaller than that)")
    batch_size: int = flag(512, "PPO minibatch size (at least 2)")
    n_epochs: int = flag(4, "PPO passes over each rollout")
    learning_rate: float = flag(1e-4, "Adam learning rate")
    gamma: float = flag(0.999, "discount factor (games are long: a few hundred decisions per "
                               "seat)")
    gae_lambda: float = flag(0.95, "GAE lambda, from 0 to 1")
    clip_range: float = flag(0.2, "PPO clipping range")
    ent_coef: float = flag(0.003, "entropy bonus coefficient")
    hidden: tuple[int, ...] = flag(
        (256, 256), "comma-separated hidden layer sizes of the actor and of the critic")
    # shaping is off by default
    reward: str = flag(
        "outcome",
        "outcome (win or loss only), net_worth_share (the outcome plus dense shaping by net "
        "worth share) or position_share (shaping by net worth plus expected rent)")

    # opponents: the original pool (byapar_training/opponents.py)
    anchor_share: float = flag(
        0.5,
        "share of opponent seats played by the easy and medium players (the original pool)")
    medium_share_of_anchors: float = flag(
        0.75, "share of those anchor seats that are medium rather than easy")
    latest_share: float = flag(
        0.3, "share of opponent seats played by the newest snapshot of the learner")
    pool_window: int = flag(5, "recent snapshots kept in the opponent pool")
    # league self-play (byapar_training/league.py): drawn by PFSP with the snapshot window and the
    # exploiters
    league: str = flag(
        "",
        "comma-separated hand-written players for league self-play by PFSP "
        "(byapar_training/league.py; a name given k times is drawn k times as often); empty: the "
        "original pool")
    exploiters: str = flag("", "comma-separated checkpoint folders that join the league")
    # the gauntlet's and the arena's tables are like that; mixed tables alone never show them
    single_opponent_share: float = flag(
        0.0,
        "league runs (compact trainer): share of tables where every seat but the learner's is "
        "one PFSP-drawn member, as in the gauntlet")

    # warm start
    critic_warmup_steps: int = flag(
        0,
        "steps at the start of a run during which only the critic learns (a warm start from a "
        "checkpoint brings an actor but no critic)")
    init_from: str = flag(
        "",
        "start the actor from this checkpoint folder (e.g. byapar_checkpoints/hard) instead of "
        "imitation")
    # a fine-tune learns what its opponents teach without losing what it knew
    kl_to_init: float = flag(
        0.0,
        "compact trainer, with --init-from: weight of the KL divergence from the --init-from "
        "policy in the actor's loss (0: none); keeps a fine-tune near what it started from")
    imitation_games: int = flag(
        300,
        "games of the medium player to imitate before PPO (0: none; when not given, at most "
        "one per 100 steps of --total-steps)")
    imitation_epochs: int = flag(8, "passes over the imitation data")

    # saving and evaluation
    save_every: int = flag(100_000, "steps between saves and snapshots into the pool")
    eval_every: int = flag(200_000, "steps between evaluations in the arena")
    eval_games: int = flag(
        200,
        "arena games per evaluation table (when not given, at most one per 100 steps of "
        "--total-steps, and at least 20)")
    eval_workers: int = flag(1, "processes for the evaluation games")
    eval_tables: str = flag(
        "",
        "evaluation tables as comma-separated OPPONENT:COUNT (the snapshot plus COUNT "
        "copies); empty: three medium, one medium (and, in league runs, the panel tables)")

    # tracking (byapar_training/tracking.py)
    wandb_project: str = flag(
        "",
        "also log every TensorBoard scalar to this Weights & Biases project (needs the wandb "
        "package: pip install -e '.[wandb]'); empty: TensorBoard only")


# Settings the saved model carries: a resumed run must keep them. The opponents, table sizes and
# reward may change between sittings (they are the environments', rebuilt each time).
PPO_FIELDS = ("n_steps", "batch_size", "n_epochs", "learning_rate", "gamma", "gae_lambda",
              "clip_range", "ent_coef", "hidden", "seed")


def names(text: str) -> tuple[str, ...]:
    """The items of a comma-separated flag (``--league``, ``--exploiters``...), blanks left out."""
    return tuple(x.strip() for x in text.split(",") if x.strip())


def _int_tuple(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated whole numbers, got {text!r}") from None


def build_parser(suppress_defaults: bool = False) -> argparse.ArgumentParser:
    """The ``byapar train`` flags, one per Config field. With ``suppress_defaults`` a parsed
    namespace holds only the flags actually given (to tell a default from a choice)."""
    ap = ArgumentParser(prog="byapar train",
                        description="Self-play training of the hard player: MaskablePPO on "
                                    "the single-seat view.")
    for f in dataclasses.fields(Config):
        option = "--" + f.name.replace("_", "-")
        # --num-workers: the name Ray users know for --n-workers, and --workers the arena's and
        # the gauntlet's (the first name sets the field)
        options = ((option, "--num-workers", "--workers") if f.name == "n_workers"
                   else (option,))
        kind = _int_tuple if f.type.startswith("tuple") else {
            "int": int, "float": float, "str": str}[f.type]
        ap.add_argument(*options, type=kind, help=f.metadata["help"],
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


def jsonable(value):
    """A config value as config.json holds it (tuples as lists)."""
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
