"""Expert iteration: the expert's searched decisions taught to the hard policy (``byapar distill``).

Why: the learned policy knows what its training opponents taught it. The expert
(``byapar_agents.expert``) checks the policy's money decisions (buying, bids, trade answers,
trade offers, leaving jail) by playing them forward with the real rules, and beats the policy
against every opponent measured. Training the policy toward the expert's choices (expert
iteration: Anthony, Tian and Barber, 2017; the policy target of AlphaZero) moves some of that
judgement into the numpy-only player, which a game site can afford at every decision, and the
expert's next search starts from a better prior.

Read top to bottom: the config, then the two stages.

1. **Games** (``generate``): seeded tables of 3 to 6 seats (the main policy's tables; heads-up has
   its own specialist), the expert in one seat (the game's number modulo the table size) and
   in every other seat one opponent style drawn from ``opponents`` (by default medium most,
   then the hard policy itself and every panel style: a table of one style, as the gauntlet
   and a game site's tables are). At each of the expert's decisions through the environment the
   observation, the mask, the expert's action id and the policy's own are kept, with whether
   the search ran: every decision where the expert left the policy or searched, and a
   ``keep_rate`` share of the rest (where it played the policy's move unasked). Games are
   written in chunks (``RUN/data/chunk_KKKK.npz``, each whole or absent), on ``workers``
   processes; each game's seed comes from the run's seed and its number alone, so a stopped
   run goes on from its chunks and gives the same data.
2. **Fit** (``fit``): from the policy's own weights, cross-entropy toward the expert's id at
   every kept decision (a departure from the policy weighted ``departure_weight``), plus ``kl``
   times the KL divergence from the starting policy's distribution (the rest of the
   distribution is the prior the expert's search reads). The chunks whose number ends in 9 are
   held out (with ``also_fit_on``, earlier rounds' chunks are added, held out alike); each
   epoch logs, on them, how often the network now makes the expert's departures
   and how often it still agrees with the expert elsewhere, and writes ``RUN/policy/`` (a
   checkpoint folder with the starting checkpoint's table specialists) whenever the held-out
   loss is the best so far.

Then measure ``RUN/policy`` with ``byapar gauntlet`` and ``byapar arena`` against the shipped
player, and ship it with ``byapar distill --stage ship`` (it copies ``RUN/policy`` into
``byapar_checkpoints/hard``).
"""

from __future__ import annotations

import math
import random
import shutil
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from byapar_agents import LEVEL_NAMES, PANEL_NAMES, expert_options, make_agent, play_through_env
from byapar_agents.expert import ExpertPlayer
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.network import load_checkpoint, specialist_folders
from byapar_agents.outside import SEEN_OUTSIDE
from byapar_agents.population import training_names
from byapar_env.action_table import NUM_ACTIONS
from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import NO_DECISION_CAP
from byapar_env.engine.errors import ByaparError
from byapar_env.engine.rules import MAX_PLAYERS
from byapar_env.observation import OBSERVATION_SIZE

from .chunks import chunk_files, chunk_path, play_chunks, run_stages, train_and_held_out
from .league import POPULATION, unseen_refusal
from .value import sizes

_NO_CAP = NO_DECISION_CAP
# The other seats' style, with weights: medium most (the opponent people play like most often),
# the policy itself (so it learns where its own habits lose), and every panel style.
OPPONENTS = ("medium:3,hard:2,strategist:1,completer:1,guardian:1,shark:1,builder:1,hoarder:1,"
             "trader:1")
SMALLEST_TABLE = 3  # the main policy's tables; tables of two have their own specialist


def _say(line: str) -> None:
    print(line, flush=True)


class DistillConfigError(ByaparError, ValueError):
    """A distillation setting that cannot work; the message names it and what is allowed."""


@dataclass
class DistillConfig:
    run_dir: str = "runs/distill"
    checkpoint: str = str(DEFAULT_CHECKPOINT)  # the policy taught, and the expert's prior
    expert: str = "expert"  # the teacher: any expert name (expert@96, expert-all, ...)
    games: int = 1_500  # a round of this release: 1,470 and 1,610 games
    chunk_games: int = 10  # games per data chunk (what a stop can lose)
    workers: int = 2
    seed: int = 0
    table_sizes: str = "3,4,4,4,5,6"  # a size listed twice is drawn twice as often
    rounds: int = 40  # the tables' round limit (the game's default)
    keep_rate: float = 0.1  # share kept of the decisions where the policy's move stood unasked
    epochs: int = 10
    batch: int = 256
    lr: float = 1e-4
    # The KL term keeps what the expert did not correct: at 0.5 (departures weighted 2) the fit
    # changed the policy's choice at a fifth of the decisions the expert agreed with, at 2 (1) at
    # a tenth, for at least as much strength (docs/distill.md).
    departure_weight: float = 1.0
    kl: float = 2.0
    # Earlier rounds' run folders whose games the fit trains on too (comma-separated): their
    # expert ids are still the search's choices, from a prior one round older.
    also_fit_on: str = ""
    opponents: str = OPPONENTS  # NAME:WEIGHT,...: the other seats' styles and how often each


HELP = {
    "run_dir": "the run folder: data/ chunks, policy/ (the checkpoint), fit.json, config.json",
    "checkpoint": "the checkpoint folder taught (and the expert's prior in the games)",
    "expert": "the teacher: an expert name (expert, expert@96, expert-all, ...)",
    "games": "games to generate in all",
    "chunk_games": "games per data chunk (a stop loses at most the chunks under way)",
    "workers": "processes playing the games",
    "seed": "seed of the games and of the fit (same seed, same data and network)",
    "table_sizes": "comma-separated table sizes the games are drawn from (3 to 6)",
    "rounds": "the round limit of the generated games",
    "keep_rate": "share kept of the decisions where the policy's move stood without a search",
    "epochs": "passes over the kept decisions",
    "batch": "decisions per gradient step",
    "lr": "Adam learning rate",
    "departure_weight": "weight of a decision where the expert left the policy's choice",
    "kl": "weight of the KL divergence from the starting policy",
    "opponents": "the other seats' styles, NAME:WEIGHT comma-separated (a level, a panel "
                 "name, a seen outside player or population, a training seed drawn for the "
                 "table; a table is one style, drawn by weight)",
    "also_fit_on": "comma-separated run folders of earlier rounds whose chunks the fit also "
                   "trains on (and holds out)",
}


def opponent_weights(config: DistillConfig) -> dict[str, int]:
    """``--opponents`` as {style: weight}; DistillConfigError naming what is wrong."""
    allowed = LEVEL_NAMES + PANEL_NAMES + SEEN_OUTSIDE + (POPULATION,)
    weights: dict[str, int] = {}
    for part in config.opponents.split(","):
        name, _, weight = part.strip().partition(":")
        why = unseen_refusal(name, "--opponents")
        if why is not None:
            raise DistillConfigError(why)
        if name not in allowed or name in weights or not weight.isdigit() or not (
                1 <= int(weight) <= 1000):
            raise DistillConfigError(
                f"--opponents must be NAME:WEIGHT pairs, each name once, from "
                f"{', '.join(allowed)}, with whole weights from 1 to 1000; got {part.strip()!r}")
        weights[name] = int(weight)
    return weights


def earlier_runs(config: DistillConfig) -> list[Path]:
    return [Path(p.strip()) for p in config.also_fit_on.split(",") if p.strip()]


def validate(config: DistillConfig) -> None:
    for name, low, high in (("games", 1, 10**7), ("chunk_games", 1, 10**5),
                            ("workers", 1, 64), ("epochs", 1, 1000), ("batch", 1, 10**6),
                            ("rounds", 1, 200)):
        value = getattr(config, name)
        if not isinstance(value, int) or not low <= value <= high:
            raise DistillConfigError(f"--{name.replace('_', '-')} must be a whole number from "
                                     f"{low} to {high:,}, got {value!r}")
    for name, low, high in (("keep_rate", 0.0, 1.0), ("lr", 0.0, 1.0),
                            ("departure_weight", 0.0, 1000.0), ("kl", 0.0, 1000.0)):
        value = getattr(config, name)
        if not (math.isfinite(value) and low <= value <= high) or (name == "lr" and value == 0):
            raise DistillConfigError(f"--{name.replace('_', '-')} must be a number from {low} "
                                     f"to {high}{' (above 0)' if name == 'lr' else ''}, "
                                     f"got {value!r}")
    if any(s < SMALLEST_TABLE for s in sizes(config)):
        raise DistillConfigError(f"--table-sizes must be from {SMALLEST_TABLE} to {MAX_PLAYERS} "
                                 f"(tables of two have their own specialist), "
                                 f"got {config.table_sizes!r}")
    if expert_options(config.expert) is None:
        raise DistillConfigError(f"--expert must name the expert (expert, expert@SIMS, "
                                 f"expert-all, ...), got {config.expert!r}")
    opponent_weights(config)
    for run in earlier_runs(config):
        if not chunk_files(run, False) and not chunk_files(run, True):
            raise DistillConfigError(f"--also-fit-on must name run folders with data chunks "
                                     f"(RUN/data/chunk_KKKK.npz); {str(run)!r} has none")
    load_checkpoint(config.checkpoint)  # CheckpointError, naming what is wrong, if unusable


# ---------------------------------------------------------------------------- stage 1: games
class _Recorder:
    """The expert's seat: plays the expert and keeps what it decided beside the policy's
    choice."""

    def __init__(self, expert, policy, keep_rate: float, rng: random.Random) -> None:
        self.expert, self.policy, self.keep_rate, self.rng = expert, policy, keep_rate, rng
        self.rows: list[tuple[np.ndarray, np.ndarray, int, int, bool]] = []

    def act(self, env: raw_env, seat: int) -> int:
        obs = env.observe(env.possible_agents[seat])
        observation, mask = obs["observation"].copy(), obs["action_mask"].copy()
        self.expert.last = None  # set again only if this call searched
        action = self.expert.act(env, seat)
        last = self.expert.last
        # the deal judgement's refusal departs from the policy by design, as a search does
        searched = last is not None and (last.sims > 0 or last.guarded)
        own = self.policy.act(observation, mask)
        if searched or own != action or self.rng.random() < self.keep_rate:
            self.rows.append((observation, mask.astype(bool), action, own, searched))
        return action


def play_and_record(config: DistillConfig, index: int, policy) -> list[tuple]:
    """Game ``index`` of the run: the expert's kept decisions."""
    seed = random.Random(config.seed * 1_000_003 + index).getrandbits(62)
    rng = random.Random(seed)
    n = rng.choice(sizes(config))
    weights = opponent_weights(config)
    style = rng.choices(list(weights), list(weights.values()))[0]
    if style == POPULATION:  # one training seed of the population, in every other seat
        style = training_names(1, rng)[0]
    expert_seat = index % n
    expert = ExpertPlayer(seed=seed + expert_seat, checkpoint=config.checkpoint,
                          **expert_options(config.expert))
    recorder = _Recorder(expert, policy, config.keep_rate, rng)
    players = [recorder if s == expert_seat else make_agent(style) for s in range(n)]
    for s, p in enumerate(players):
        if hasattr(p, "reset"):
            p.reset(seed + s)  # the expert was made with its seed (the recorder has no reset)
    env = raw_env(num_players=n, rounds=config.rounds, max_decisions=_NO_CAP)
    env.reset(seed=seed)
    play_through_env(env, players)
    return recorder.rows


def _play_chunk(args: tuple[DistillConfig, int]) -> tuple[int, int, int]:
    """Write chunk ``k``: its games' kept decisions. Returns (k, decisions, departures)."""
    config, k = args
    policy = LearnedPlayer(config.checkpoint).policy
    rows = []
    first = k * config.chunk_games
    for index in range(first, min(first + config.chunk_games, config.games)):
        rows += play_and_record(config, index, policy)
    path = chunk_path(Path(config.run_dir), k)
    tmp = path.with_suffix(".tmp.npz")
    obs = np.stack([r[0] for r in rows]) if rows else np.zeros((0, OBSERVATION_SIZE))
    mask = np.stack([r[1] for r in rows]) if rows else np.zeros((0, NUM_ACTIONS), bool)
    np.savez(tmp, obs=obs.astype(np.float32), mask=np.packbits(mask, axis=1),
             expert=np.array([r[2] for r in rows], np.int16),
             policy=np.array([r[3] for r in rows], np.int16),
             searched=np.array([r[4] for r in rows], bool))
    tmp.replace(path)  # whole or absent: a stop loses at most the chunks under way
    return k, len(rows), sum(r[2] != r[3] for r in rows)


def generate(config: DistillConfig, log=None) -> None:
    def describe(result: tuple[int, int, int], done: int, chunks: int, seconds: float) -> str:
        k, decisions, departures = result
        return (f"chunk {k}: {decisions:,} decisions kept, {departures:,} departures  "
                f"({done}/{chunks} chunks, {seconds:,.0f} s)")

    play_chunks(config, _play_chunk, describe, log or _say)


# ---------------------------------------------------------------------------- stage 2: fit
def load_decisions(paths: list[Path]) -> dict[str, np.ndarray]:
    parts: dict[str, list[np.ndarray]] = {"obs": [], "mask": [], "expert": [], "policy": [],
                                          "searched": []}
    for path in paths:
        with np.load(path) as d:
            for key in parts:
                value = d[key]
                if key == "mask":
                    value = np.unpackbits(value, axis=1, count=NUM_ACTIONS).astype(bool)
                parts[key].append(value)
    if not parts["obs"] or not sum(len(p) for p in parts["obs"]):
        return {}
    return {key: np.concatenate(value) for key, value in parts.items()}


def fit(config: DistillConfig, log=None, command: str = "byapar distill") -> dict:
    log = log or _say
    import torch
    from torch import nn

    torch.manual_seed(config.seed)
    run = Path(config.run_dir)
    train, held = train_and_held_out(run, load_decisions, DistillConfigError,
                                     also=earlier_runs(config))
    start_policy, start_meta = load_checkpoint(config.checkpoint)
    log(f"decisions: {len(train['obs']):,} to train on "
        f"({int((train['expert'] != train['policy']).sum()):,} departures), "
        f"{len(held['obs']):,} held out ({int((held['expert'] != held['policy']).sum()):,})")
    linears = []
    for w, b in start_policy.layers:
        layer = nn.Linear(*w.shape)
        with torch.no_grad():
            layer.weight.copy_(torch.as_tensor(w.T))
            layer.bias.copy_(torch.as_tensor(b))
        linears.append(layer)
    modules: list[nn.Module] = []
    for layer in linears:
        modules += [layer, nn.Tanh()]
    net = nn.Sequential(*modules[:-1])
    opt = torch.optim.Adam(net.parameters(), lr=config.lr)

    def starting_logp(data: dict) -> np.ndarray:
        logits = np.where(data["mask"], start_policy.logits(data["obs"]), -np.inf)
        logits = logits - logits.max(1, keepdims=True)
        return (logits - np.log(np.exp(logits).sum(1, keepdims=True))).astype(np.float32)

    train["start"], held["start"] = starting_logp(train), starting_logp(held)

    def losses(data: dict, idx: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        mask = torch.as_tensor(data["mask"][idx])
        logits = net(torch.as_tensor(data["obs"][idx])).masked_fill(~mask, -1e9)
        logp = torch.log_softmax(logits, 1)
        target = torch.as_tensor(data["expert"][idx].astype(np.int64))
        ce = -logp.gather(1, target[:, None])[:, 0]
        departed = torch.as_tensor(data["expert"][idx] != data["policy"][idx])
        weight = torch.where(departed, config.departure_weight, 1.0)
        p0 = torch.as_tensor(data["start"][idx])
        kl = torch.where(mask, p0.exp() * (p0 - logp), torch.zeros_like(logp)).sum(1)
        loss = (weight * ce).mean() + config.kl * kl.mean()
        return loss, logits.argmax(1)

    def held_figures() -> dict:
        net.eval()
        with torch.no_grad():
            total, picks = 0.0, []
            for i in range(0, len(held["obs"]), 4096):
                idx = np.arange(i, min(i + 4096, len(held["obs"])))
                loss, pick = losses(held, idx)
                total += float(loss) * len(idx)
                picks.append(pick.numpy())
        pick = np.concatenate(picks)
        departed = held["expert"] != held["policy"]
        agree = pick == held["expert"]
        return {"loss": total / len(held["obs"]),
                "departures_made": float(agree[departed].mean()) if departed.any() else 0.0,
                "agreement_elsewhere": float(agree[~departed].mean())}

    before = held_figures()
    log(f"held out before: loss {before['loss']:.4f}, departures made "
        f"{before['departures_made']:.1%}, agreement elsewhere {before['agreement_elsewhere']:.1%}")
    rng = np.random.default_rng(config.seed)
    history = []
    for epoch in range(config.epochs):
        net.train()
        order = rng.permutation(len(train["obs"]))
        for i in range(0, len(order), config.batch):
            loss, _ = losses(train, np.sort(order[i: i + config.batch]))
            opt.zero_grad()
            loss.backward()
            opt.step()
        result = held_figures()
        history.append({"epoch": epoch + 1, **result})
        best = min(h["loss"] for h in history) == result["loss"]
        log(f"epoch {epoch + 1}/{config.epochs}: held-out loss {result['loss']:.4f}, departures "
            f"made {result['departures_made']:.1%}, agreement elsewhere "
            f"{result['agreement_elsewhere']:.1%}" + ("  (best so far: written)" if best else ""))
        if best:
            export(net, run / "policy", config, start_meta, command, {
                "epoch": epoch + 1, **result, "before": before,
                "decisions": len(train["obs"]), "held_out_decisions": len(held["obs"])})
    return {"before": before, "history": history}


def export(net, folder: Path, config: DistillConfig, start_meta: dict, command: str,
           result: dict) -> None:
    """``folder``: a checkpoint of the fitted network, with the starting checkpoint's table
    specialists copied in, and the fit recorded in its meta.json after the starting
    checkpoint's own training record (``training.distilled``: one entry per round)."""
    from byapar_agents.network import NumpyPolicy

    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
              for m in net if hasattr(m, "weight")]
    source = Path(config.checkpoint)
    training = dict(start_meta.get("training", {}))
    # One entry per round of expert iteration, oldest first: a round's start is the last one's
    # result, so the record of how the policy was made stays whole.
    rounds = training.get("distilled", [])
    training["distilled"] = [*(rounds if isinstance(rounds, list) else [rounds]),
                             {"command": command, "config": asdict(config), "fit": result}]
    meta = {"name": start_meta.get("name", "hard"), "training": training,
            "evaluation": start_meta.get("evaluation", []),
            "table_specialists": start_meta.get("table_specialists", {})}
    tmp = folder.with_name(folder.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    NumpyPolicy(layers, start_meta.get("activation", "tanh")).save(tmp, meta)
    for sub in specialist_folders(source, start_meta).values():
        shutil.copytree(sub, tmp / sub.name)
    if folder.exists():
        shutil.rmtree(folder)
    tmp.replace(folder)


def ship(config: DistillConfig, out: Path, log=None) -> None:
    """Copy ``RUN/policy`` over ``out`` (``byapar_checkpoints/hard``), after checking it loads."""
    log = log or _say
    source = Path(config.run_dir) / "policy"
    LearnedPlayer(source)  # CheckpointError if it cannot play
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(source, out)
    log(f"shipped {source} as {out}")


def config_from_args(argv: list[str]) -> tuple[DistillConfig, str, Path]:
    from byapar_env.cli_args import ArgumentParser

    ap = ArgumentParser(prog="byapar distill",
                        description="Teach the hard policy the expert's searched decisions: "
                                    "games with the expert, then the fit.")
    defaults = DistillConfig()
    for f in fields(DistillConfig):
        default = getattr(defaults, f.name)
        ap.add_argument("--" + f.name.replace("_", "-"), type=type(default), default=default,
                        help=HELP[f.name])
    ap.add_argument("--stage", choices=("all", "games", "fit", "ship"), default="all",
                    help="games, the fit, both (the default), or ship: copy RUN/policy to "
                         "--ship-to")
    ap.add_argument("--ship-to", default="byapar_checkpoints/hard",
                    help="where --stage ship copies the fitted checkpoint")
    args = vars(ap.parse_args(argv))
    stage, ship_to = args.pop("stage"), Path(args.pop("ship_to"))
    return DistillConfig(**args), stage, ship_to


def main(argv: list[str]) -> int:
    config, stage, ship_to = config_from_args(argv)
    validate(config)
    if stage == "ship":
        ship(config, ship_to)
        return 0
    run_stages(config, stage, ["byapar", "distill", *argv], generate, fit)
    return 0
