"""Train the value network: each seat's chance of winning from a position (``byapar train-value``).

Read top to bottom: the config, then the two stages.

1. **Games** (``generate``): seeded games at tables of 2 to 6, every seat drawn from a roster of
   the hard policy (``byapar_agents.policy_rollout.PolicyRolloutPlayer``, the expert's own
   rollout player) and
   the hand-written levels and panel, so that the network sees the positions the expert's
   rollouts reach and many styles of opponent. At each decision, with probability
   ``sample_rate``, the position is kept: the observation of every seat still in, and, when the
   game is over, each seat's share of the win (1, 1/k for a shared win, 0). Games are written
   in chunks (``RUN/data/chunk_KKKK.npz``), on ``--workers`` processes (a chunk depends on its
   number alone: the same chunks whatever the number); a stopped run goes on from the chunks
   it has.
2. **Fit** (``fit``): one MLP scores each seat from its own observation; a softmax over the
   seats of a position is the table's win chances, trained by cross-entropy against the win
   shares (a listwise loss: the chances sum to one as the shares do, at every table size). The
   chunks whose number ends in 9 are held out. Each epoch logs the held-out loss beside the
   net-worth share's (``byapar_agents.search.score``, the value the search used before: a seat's
   share
   of position value read as its win chance, as it is and calibrated), and writes the numpy
   checkpoint ``RUN/value/`` whenever the held-out loss is the best so far (early stopping).

Then copy ``RUN/value`` to ``byapar_checkpoints/value`` to ship it.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from byapar_agents import make_agent
from byapar_agents.dealing_rollout import DealingRolloutPlayer
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.network import NumpyPolicy
from byapar_agents.outside import SEEN_OUTSIDE
from byapar_agents.policy_rollout import PolicyRolloutPlayer
from byapar_agents.population import training_names
from byapar_agents.search import score
from byapar_agents.value import ValueNet, shipped_value, win_shares
from byapar_env.driver import NO_DECISION_CAP, PRE_ROLL_CAP, TRADE_STEP_CAP, SeatDriver
from byapar_env.engine import ByaparError, Game, Rules
from byapar_env.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from byapar_env.observation import OBSERVATION_SIZE, encode

from .chunks import chunk_path, play_chunks, run_stages, train_and_held_out
from .league import POPULATION, unseen_refusal

_NO_CAP = NO_DECISION_CAP
# Who sits at the generated tables, with weights: the policy most (the expert's rollouts are
# mostly the policy and the medium player), and every hand-written style.
ROSTER = {"policy": 4, "medium": 3, "easy": 1, "guardian": 1, "completer": 1, "shark": 1,
          "builder": 1, "hoarder": 1, "trader": 1, "strategist": 1}
DEALER = "dealer"  # a roster kind: the policy with the deal module's offers and answers
# A wider one (``--roster wide``): the same, beside the generated population (a training seed
# drawn for each seat) and the outside players training may see, so that the network also
# reads the tables those players make (their trades, bids and building).
WIDE_ROSTER = {**ROSTER, POPULATION: 4, **{name: 1 for name in SEEN_OUTSIDE}}
NAMED_ROSTERS = {"shipped": ROSTER, "wide": WIDE_ROSTER}


def _say(line: str) -> None:
    print(line, flush=True)  # a log file shows each line as it comes


class ValueConfigError(ByaparError, ValueError):
    """A value-training setting that cannot work; the message names it and what is allowed."""


@dataclass
class ValueConfig:
    run_dir: str = "runs/value"
    # The shipped network's recipe: 60,000 games with a position kept at 1% of decisions
    # (half the rate, twice the games of the first one: positions of one game are alike, and
    # the fit overfit them after two epochs); the best held-out epoch is kept.
    games: int = 60_000
    chunk_games: int = 250  # games per data chunk (what a stop can lose)
    seed: int = 0
    table_sizes: str = "2,3,4,4,5,6"  # a size listed twice is drawn twice as often
    sample_rate: float = 0.01  # share of decisions kept as training positions
    epochs: int = 10
    hidden: str = "256,128"
    batch: int = 256  # positions per gradient step
    lr: float = 1e-3
    weight_decay: float = 1e-5
    workers: int = 1  # processes playing the games (the fit is one process)
    roster: str = "shipped"  # who sits at the tables: a named roster or NAME:WEIGHT,...


HELP = {
    "run_dir": "the run folder: data/ chunks, value/ (the checkpoint), fit.json, config.json",
    "games": "games to generate in all",
    "chunk_games": "games per data chunk (a stop loses at most the chunk under way)",
    "seed": "seed of the games and of the fit (same seed, same network)",
    "table_sizes": "comma-separated table sizes the games are drawn from (2 to 6)",
    "sample_rate": "share of decisions whose position is kept (above 0, at most 1)",
    "epochs": "passes over the training positions",
    "hidden": "comma-separated hidden layer widths",
    "batch": "positions per gradient step",
    "lr": "AdamW learning rate",
    "weight_decay": "AdamW weight decay",
    "workers": "processes playing the games (1 to 64; the same chunks whatever the number)",
    "roster": "who sits at the generated tables: 'shipped' (the policy, the levels and the "
              "panel), 'wide' (those, the population's training seeds and the seen outside "
              "players) or comma-separated NAME:WEIGHT (policy; dealer, the policy with the "
              "deal module; population, a drawn training seed; or a player that plays on the "
              "engine; never an unseen one)",
}


def validate(config: ValueConfig) -> None:
    if not isinstance(config.workers, int) or not 1 <= config.workers <= 64:
        raise ValueConfigError(f"--workers must be a whole number from 1 to 64, "
                               f"got {config.workers!r}")
    for name in ("games", "chunk_games", "epochs", "batch"):
        value = getattr(config, name)
        if not isinstance(value, int) or not 1 <= value <= 10**8:
            raise ValueConfigError(f"--{name.replace('_', '-')} must be a whole number from 1 to "
                                   f"100,000,000, got {value!r}")
    if not 0 < config.sample_rate <= 1:
        raise ValueConfigError(f"--sample-rate must be above 0 and at most 1, "
                               f"got {config.sample_rate!r}")
    if not 0 < config.lr < 1:
        raise ValueConfigError(f"--lr must be above 0 and below 1, got {config.lr!r}")
    sizes(config)
    hidden(config)
    roster(config)


def roster(config) -> dict[str, int]:
    """The config's roster (``config.roster``) as names and whole weights; a name no table may
    seat (unknown, unseen, or a player that needs the environment) is refused, naming it."""
    text = config.roster
    if text in NAMED_ROSTERS:
        return NAMED_ROSTERS[text]
    out: dict[str, int] = {}
    for part in str(text).split(","):
        name, _, weight = part.strip().partition(":")
        if not weight.isdigit() or int(weight) < 1 or name in out:
            raise ValueConfigError(
                f"--roster must be {' or '.join(map(repr, NAMED_ROSTERS))} or comma-separated "
                f"NAME:WEIGHT with each name once and a whole weight of at least 1, got "
                f"{part.strip()!r} in {text!r}")
        why = unseen_refusal(name, "--roster")
        if why is not None:
            raise ValueConfigError(why)
        if name not in ("policy", DEALER, POPULATION):
            try:
                player = make_agent(name)
            except ValueError as exc:  # UnknownAgentError and CheckpointError say why
                raise ValueConfigError(f"--roster: {exc}") from None
            if not callable(getattr(player, "choose", None)):
                raise ValueConfigError(f"--roster: {name!r} plays through the environment only; "
                                       "the generated tables seat engine players")
        out[name] = int(weight)
    return out


def seat_players(names: list[str], rng: random.Random, policy: NumpyPolicy) -> list:
    """The players of a generated table, one per name of a roster (``population``: a training
    seed drawn by ``rng``; ``dealer``: the policy with the deal module, judged by the shipped
    value network)."""
    out = []
    for k in names:
        if k == "policy":
            out.append(PolicyRolloutPlayer(policy))
        elif k == DEALER:
            out.append(DealingRolloutPlayer(policy, shipped_value()))
        else:
            out.append(make_agent(training_names(1, rng)[0] if k == POPULATION else k))
    return out


def sizes(config: ValueConfig) -> list[int]:
    try:
        out = [int(s) for s in config.table_sizes.split(",")]
    except ValueError:
        out = []
    if not out or any(not MIN_PLAYERS <= s <= MAX_PLAYERS for s in out):
        raise ValueConfigError(f"--table-sizes must be comma-separated table sizes from "
                               f"{MIN_PLAYERS} to {MAX_PLAYERS}, got {config.table_sizes!r}")
    return out


def hidden(config: ValueConfig) -> list[int]:
    try:
        out = [int(s) for s in config.hidden.split(",")]
    except ValueError:
        out = []
    if not out or any(not 1 <= h <= 4096 for h in out):
        raise ValueConfigError(f"--hidden must be comma-separated layer widths from 1 to 4096, "
                               f"got {config.hidden!r}")
    return out


# ---------------------------------------------------------------------------- stage 1: games
def play_and_sample(seed: int, table_sizes: list[int], sample_rate: float, policy: NumpyPolicy,
                    seated: dict[str, int] = ROSTER
                    ) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray]], np.ndarray]:
    """One seeded game: its kept positions, each (the active seats' observations, their
    net-worth shares, the seats), and every seat's final share of the win. Its players are
    drawn from ``seated`` (a roster: names and weights)."""
    rng = random.Random(seed)
    n = rng.choice(table_sizes)
    names = rng.choices(list(seated), list(seated.values()), k=n)
    players = seat_players(names, rng, policy)
    for s, p in enumerate(players):
        p.reset(seed + s)
    driver = SeatDriver.for_game(Game(Rules(num_players=n), seed=seed), max_decisions=_NO_CAP)
    game = driver.game
    positions = []
    while legal := driver.engine_choices():
        if rng.random() < sample_rate:
            seats = game.active_seats()
            obs = np.zeros((len(seats), OBSERVATION_SIZE), np.float32)
            for row, seat in enumerate(seats):
                encode(game, seat, obs[row], None, 0, PRE_ROLL_CAP, TRADE_STEP_CAP)
            shares = np.array([score(game, s) for s in seats], np.float32)
            positions.append((obs, shares, np.array(seats, np.int16)))
        seat = game.current_player
        driver.take_engine(players[seat].choose(game, seat, legal))
    return positions, np.array(win_shares(game), np.float32)



def _play_chunk(args: tuple[ValueConfig, int]) -> tuple[int, int]:
    """Write chunk ``k``: the kept positions of its games. Returns (k, positions)."""
    config, k = args
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy
    table_sizes = sizes(config)
    seated = roster(config)
    obs, baseline, target, state = [], [], [], []
    first = k * config.chunk_games
    for index in range(first, min(first + config.chunk_games, config.games)):
        # each game's seed from the run's seed and the game's number alone
        seed = random.Random(config.seed * 1_000_003 + index).getrandbits(62)
        positions, shares = play_and_sample(seed, table_sizes, config.sample_rate, policy,
                                            seated)
        for rows, base, seats in positions:
            obs.append(rows.astype(np.float16))
            baseline.append(base)
            target.append(shares[seats.astype(int)])
            state.append(np.full(len(seats), len(state), np.int32))
    path = chunk_path(Path(config.run_dir), k)
    tmp = path.with_suffix(".tmp.npz")
    empty = np.zeros((0, OBSERVATION_SIZE), np.float16)
    np.savez(tmp, obs=np.concatenate(obs) if obs else empty,
             baseline=np.concatenate(baseline) if obs else np.zeros(0, np.float32),
             target=np.concatenate(target) if obs else np.zeros(0, np.float32),
             state=np.concatenate(state) if obs else np.zeros(0, np.int32))
    tmp.replace(path)  # a chunk is whole or absent: a stop loses at most the ones under way
    return k, len(state)


def generate(config: ValueConfig, log=None) -> None:
    """Every missing chunk, on ``workers`` processes (the same chunks whatever the number)."""

    def describe(result: tuple[int, int], done: int, chunks: int, seconds: float) -> str:
        k, positions = result
        return (f"games {min(done * config.chunk_games, config.games):,}/{config.games:,}  "
                f"chunk {k}: {positions:,} positions  ({done}/{chunks} chunks, {seconds:,.0f} s)")

    play_chunks(config, _play_chunk, describe, log or _say)


# ---------------------------------------------------------------------------- stage 2: fit
def load_positions(paths: list[Path]) -> dict[str, np.ndarray]:
    """Every position of the chunks (held-out ones or the rest), padded to six seats."""
    obs, mask, target, baseline = [], [], [], []
    for path in paths:
        with np.load(path) as d:
            state, rows = d["state"], d["obs"]
            bounds = np.flatnonzero(np.diff(state)) + 1
            starts = np.concatenate([[0], bounds])
            ends = np.concatenate([bounds, [len(state)]])
            for a, b in zip(starts, ends, strict=True):
                o = np.zeros((MAX_PLAYERS, OBSERVATION_SIZE), np.float16)
                o[: b - a] = rows[a:b]
                m = np.zeros(MAX_PLAYERS, bool)
                m[: b - a] = True
                t = np.zeros(MAX_PLAYERS, np.float32)
                t[: b - a] = d["target"][a:b]
                base = np.zeros(MAX_PLAYERS, np.float32)
                base[: b - a] = d["baseline"][a:b]
                obs.append(o)
                mask.append(m)
                target.append(t)
                baseline.append(base)
    if not obs:
        return {}
    return {"obs": np.stack(obs), "mask": np.stack(mask), "target": np.stack(target),
            "baseline": np.stack(baseline)}


def baseline_figures(data: dict[str, np.ndarray]) -> dict[str, float]:
    """Cross-entropy and winner accuracy of the net-worth share read as a win chance: as it is,
    and calibrated (each share raised to the power that fits these positions best, then
    normalised), so the network is compared with the best the share can do."""
    base = np.where(data["mask"], data["baseline"], 0.0)
    plain = figures(base / np.maximum(base.sum(1, keepdims=True), 1e-9), data["target"],
                    data["mask"])
    best = None
    for power in (1.5, 2, 3, 4, 6, 8, 12):
        p = base**power
        f = figures(p / np.maximum(p.sum(1, keepdims=True), 1e-30), data["target"],
                    data["mask"])
        if best is None or f["cross_entropy"] < best[1]["cross_entropy"]:
            best = (power, f)
    return {**plain, "calibrated_power": best[0],
            "calibrated_cross_entropy": best[1]["cross_entropy"]}


def figures(chances: np.ndarray, target: np.ndarray, mask: np.ndarray) -> dict[str, float]:
    eps = 1e-4
    ce = -(target * np.log(np.clip(chances, eps, 1.0)) * mask).sum(1).mean()
    decided = target.max(1) == 1.0
    right = np.argmax(np.where(mask, chances, -1), 1) == np.argmax(target, 1)
    return {"cross_entropy": float(ce), "winner_accuracy": float(right[decided].mean())}


def fit(config: ValueConfig, log=None, command: str = "byapar train-value") -> dict:
    log = log or _say
    import torch
    from torch import nn

    torch.manual_seed(config.seed)
    run = Path(config.run_dir)
    train, held = train_and_held_out(run, load_positions, ValueConfigError)
    log(f"positions: {len(train['obs']):,} to train on, {len(held['obs']):,} held out")
    widths = [OBSERVATION_SIZE, *hidden(config), 1]
    layers: list[nn.Module] = []
    for a, b in zip(widths[:-1], widths[1:], strict=True):
        layers += [nn.Linear(a, b), nn.Tanh()]
    net = nn.Sequential(*layers[:-1])
    opt = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)

    def chances(obs: np.ndarray, mask: np.ndarray) -> torch.Tensor:
        x = torch.as_tensor(obs, dtype=torch.float32)
        scores = net(x.view(-1, OBSERVATION_SIZE)).view(len(obs), MAX_PLAYERS)
        scores = scores.masked_fill(~torch.as_tensor(mask), -1e9)
        return torch.log_softmax(scores, 1)

    base = baseline_figures(held)
    log(f"net-worth share on held-out positions: cross-entropy {base['cross_entropy']:.4f} "
        f"(calibrated, share ** {base['calibrated_power']}: "
        f"{base['calibrated_cross_entropy']:.4f}), winner named {base['winner_accuracy']:.1%}")
    rng = np.random.default_rng(config.seed)
    history = []
    for epoch in range(config.epochs):
        order = rng.permutation(len(train["obs"]))
        net.train()
        for i in range(0, len(order), config.batch):
            idx = np.sort(order[i: i + config.batch])
            logp = chances(train["obs"][idx], train["mask"][idx])
            loss = -(torch.as_tensor(train["target"][idx]) * logp).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            parts = [chances(held["obs"][i: i + 4096], held["mask"][i: i + 4096]).exp().numpy()
                     for i in range(0, len(held["obs"]), 4096)]
        result = figures(np.concatenate(parts), held["target"], held["mask"])
        history.append({"epoch": epoch + 1, **result})
        best = min(h["cross_entropy"] for h in history) == result["cross_entropy"]
        log(f"epoch {epoch + 1}/{config.epochs}: held-out cross-entropy "
            f"{result['cross_entropy']:.4f}, winner named {result['winner_accuracy']:.1%}"
            + ("  (best so far: written)" if best else ""))
        if best:  # the checkpoint is the epoch that predicts the held-out games best
            export(net, run / "value", config, command, {"epoch": epoch + 1, **result}, base,
                   len(train["obs"]), len(held["obs"]))
    return {"baseline": base, "history": history}


def export(net, folder: Path, config: ValueConfig, command: str, result: dict, base: dict,
           n_train: int, n_held: int) -> None:
    meta = {"name": "value", "training": {
        "command": command, "config": asdict(config), "positions": n_train,
        "held_out_positions": n_held, "held_out": result, "net_worth_share_held_out": base}}
    write_value(net, folder, meta)


def write_value(net, folder: Path, meta: dict) -> None:
    """The torch ``net`` (linear layers with tanh between) as a value checkpoint in ``folder``
    with ``meta``, written whole: into a temporary folder, then renamed."""
    linears = [m for m in net if hasattr(m, "weight")]
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
              for m in linears]
    tmp = folder.with_name(folder.name + ".tmp")
    ValueNet(NumpyPolicy(layers, "tanh")).save(tmp, meta)
    if folder.exists():
        for f in folder.iterdir():
            f.unlink()
        folder.rmdir()
    tmp.replace(folder)


def config_from_args(argv: list[str]) -> tuple[ValueConfig, str]:
    from byapar_env.cli_args import ArgumentParser

    ap = ArgumentParser(prog="byapar train-value",
                        description="Train the expert's value network: games, then the fit.")
    defaults = ValueConfig()
    for f in fields(ValueConfig):
        default = getattr(defaults, f.name)
        ap.add_argument("--" + f.name.replace("_", "-"), type=type(default), default=default,
                        help=HELP[f.name])
    ap.add_argument("--stage", choices=("all", "games", "fit"), default="all",
                    help="games, the fit, or both (the default)")
    args = vars(ap.parse_args(argv))
    stage = args.pop("stage")
    return ValueConfig(**args), stage


def main(argv: list[str]) -> int:
    config, stage = config_from_args(argv)
    validate(config)
    run_stages(config, stage, ["byapar", "train-value", *argv], generate, fit)
    return 0
