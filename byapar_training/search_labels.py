"""Search labels for the value network: expert iteration's first stage (issue 39).

    python -m byapar_training.search_labels --run-dir RUN [--games 2000] [--workers 2]

Seeded games at tables of 2 to 6, every seat drawn from one of the value network's rosters
(``--roster``: by default the hard policy, the levels and the panel, ``byapar_training.value``'s
``ROSTER``; ``wide`` adds the population's training seeds and the seen outside players). At a
share (``--sample-rate``) of the decisions, the expert lists its candidates (``focus`` off:
every decision, not only the money ones) and scores each by ``--sims`` simulations in all, in
rounds of one per candidate with a shared seed (common random numbers: two candidates meet the
same dice and cards), its rollouts ending on the current value network (``--horizon-rounds``
rounds on). A decision with a single candidate is not kept.

What a chunk keeps (``RUN/data/chunk_KKKK.npz``, written whole, a stop loses at most the chunks
under way; a chunk depends on its number alone, so the same chunks for any ``--workers``):

- ``obs`` (float16), one row per seat still in of each *child* (the position after a
  candidate, as the value network reads it), ``row_child`` its child;
- per child: ``child_decision``, ``child_seat_rows`` (the row of the deciding seat),
  ``child_mean`` (the deciding seat's mean score over its rollouts), ``child_prior`` (the
  policy's probability), ``child_scores`` (the paired scores, ``--sims`` wide, padded with -1);
- per decision: ``decision_seat``, ``decision_players`` and ``decision_phase``.

``--target horizon`` labels instead the positions the search's value network reads: each
simulation's position at the horizon, played on ``--label-rounds`` more rounds with the same
players and luck and read there by the value network (``horizon_decisions``). A round of
simulations (one per candidate, one seed) is then a labelled decision, its children the
candidates' horizon positions; the chunk's arrays are the same, with one score a child.

A fit reads siblings (the children of one decision) together: which child the rollouts rank
higher matters more than each child's calibration. Next rounds of expert iteration label with
the search that uses the new network: ``--value FOLDER`` ends the simulations on that value
checkpoint (the last round's fit) instead of the shipped one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from byapar_agents.expert import ExpertPlayer
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.judge import position_after
from byapar_agents.network import NumpyPolicy
from byapar_agents.search import ROLLOUT_MODES, Rollouts, horizon, rollout_seeds, search_root
from byapar_agents.value import value_at
from byapar_env.driver import NO_DECISION_CAP, PRE_ROLL_CAP, TRADE_STEP_CAP, SeatDriver
from byapar_env.engine import ByaparError, Game, Rules, actions
from byapar_env.fast_play import play_on
from byapar_env.observation import OBSERVATION_SIZE, PlaceBlocks, encode

from .chunks import chunk_path, play_chunks, run_stages
from .value import roster, seat_players, sizes


class SearchLabelError(ByaparError, ValueError):
    """A label-generation setting that cannot work; the message names it and what is allowed."""


@dataclass
class SearchLabelConfig:
    run_dir: str = "runs/search-labels"
    games: int = 2_000
    chunk_games: int = 5
    seed: int = 0
    table_sizes: str = "2,3,4,4,5,6"
    sample_rate: float = 0.02
    sims: int = 64
    horizon_rounds: int = 1
    rollout: str = "population"
    value: str = ""
    workers: int = 1
    roster: str = "shipped"
    target: str = "children"
    label_rounds: int = 3


HELP = {
    "run_dir": "the run folder: data/ chunks and config.json",
    "games": "games to play in all",
    "chunk_games": "games per data chunk (a stop loses at most the chunks under way)",
    "seed": "seed of the games and the searches (same seed, same labels)",
    "table_sizes": "comma-separated table sizes the games are drawn from (2 to 6)",
    "sample_rate": "share of decisions labelled (above 0, at most 1)",
    "sims": "simulations a labelled decision, in rounds of one per candidate (2 to 4,096)",
    "horizon_rounds": "rounds a simulation plays before the value network scores it (1 to 10)",
    "rollout": f"who plays the simulations' seats: {', '.join(ROLLOUT_MODES)}",
    "value": "the value checkpoint the simulations end on (empty: the shipped one); the next "
             "round of expert iteration labels with the last round's fit",
    "workers": "processes playing the games (1 to 64; the same chunks whatever the number)",
    "roster": "who sits at the tables, as byapar train-value's --roster: 'shipped', 'wide' or "
              "comma-separated NAME:WEIGHT",
    "target": "what is labelled: 'children' (the position after each candidate, scored by its "
              "simulations' mean) or 'horizon' (where each simulation stops, scored by playing "
              "on --label-rounds more rounds)",
    "label_rounds": "with --target horizon: rounds played on from the horizon before the value "
                    "network reads the label (1 to 40)",
}
TARGETS = ("children", "horizon")


def validate(config: SearchLabelConfig) -> None:
    """``SearchLabelError`` naming the first setting that cannot work."""
    bounds = {"games": (1, 10**8), "chunk_games": (1, 10**6), "sims": (2, 4096),
              "horizon_rounds": (1, 10), "label_rounds": (1, 40), "workers": (1, 64),
              "seed": (0, 2**62)}
    for name, (lo, hi) in bounds.items():
        value = getattr(config, name)
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise SearchLabelError(f"--{name.replace('_', '-')} must be a whole number from "
                                   f"{lo:,} to {hi:,}, got {value!r:.40}")
    if not isinstance(config.sample_rate, (int, float)) or not 0 < config.sample_rate <= 1:
        raise SearchLabelError(f"--sample-rate must be above 0 and at most 1, "
                               f"got {config.sample_rate!r:.40}")
    if config.target not in TARGETS:
        raise SearchLabelError(f"--target must be one of {', '.join(TARGETS)}, "
                               f"got {config.target!r:.40}")
    if config.rollout not in ROLLOUT_MODES:
        raise SearchLabelError(f"--rollout must be one of {', '.join(ROLLOUT_MODES)}, "
                               f"got {config.rollout!r:.40}")
    try:
        sizes(config)  # type: ignore[arg-type]
        roster(config)
    except ValueError as exc:
        raise SearchLabelError(str(exc)) from None
    if config.value:
        try:
            value_at(config.value)
        except (OSError, ValueError) as exc:
            raise SearchLabelError(f"--value: {exc}") from None


# ------------------------------------------------------------------------------ one game
def child_game(game: Game, pre_roll_actions: int, action) -> Game:
    """The position after ``action`` as the table takes it (an offer composed step by step);
    rolling: the position before the dice, as the judge reads it (``byapar_agents.judge``), so
    that a child never shows the game's own next roll. (Round 0's chunks were labelled before
    this rule: their rolling children show the roll the game went on to make.)"""
    if action == actions.ROLL:
        return game.clone()
    return position_after(game, action, pre_roll_actions)


def seat_rows(game: Game) -> tuple[np.ndarray, list[int]]:
    """The value network's input for every seat still in: one row a seat, and the seats."""
    seats = game.active_seats()
    obs = np.zeros((len(seats), OBSERVATION_SIZE), np.float32)
    places = PlaceBlocks()
    for row, seat in enumerate(seats):
        encode(game, seat, obs[row], None, 0, PRE_ROLL_CAP, TRADE_STEP_CAP, places=places)
    return obs, seats


def label_game(seed: int, config: SearchLabelConfig, policy: NumpyPolicy) -> list[dict]:
    """One seeded game: its labelled decisions, each with its children."""
    rng = random.Random(seed)
    n = rng.choice(sizes(config))  # type: ignore[arg-type]
    seated = roster(config)
    names = rng.choices(list(seated), list(seated.values()), k=n)
    players = seat_players(names, rng, policy)
    for s, p in enumerate(players):
        p.reset(seed + s)
    expert = ExpertPlayer(seed, sims=config.sims, horizon_rounds=config.horizon_rounds,
                          focus=False, rollout=config.rollout,
                          value_checkpoint=config.value or None)
    driver = SeatDriver.for_game(Game(Rules(num_players=n), seed=seed),
                                 max_decisions=NO_DECISION_CAP)
    game = driver.game
    out = []
    while legal := driver.engine_choices():
        seat = game.current_player
        sampled = rng.random() < config.sample_rate
        if sampled and config.target == "horizon":
            out += horizon_decisions(game, driver.pre_roll_actions, expert, config,
                                     rng.getrandbits(62))
        elif sampled:
            pre = driver.pre_roll_actions
            ev = expert.evaluate(game, pre, rng.getrandbits(62))
            if len(ev.candidates) > 1 and ev.sims:
                children = []
                for c in ev.candidates:
                    if not c.scores:
                        continue
                    obs, seats = seat_rows(child_game(game, pre, c.action))
                    children.append({"obs": obs, "seat_row": seats.index(seat)
                                     if seat in seats else -1,
                                     "mean": c.mean, "prior": c.prior, "scores": c.scores})
                if len(children) > 1:
                    out.append({"seat": seat, "players": n, "phase": int(game.phase),
                                "children": children})
        driver.take_engine(players[seat].choose(game, seat, legal))
    return out


def horizon_decisions(game: Game, pre_roll_actions: int, expert: ExpertPlayer,
                      config: SearchLabelConfig, seed: int) -> list[dict]:
    """``--target horizon``: the positions the search's value network reads. The expert's
    candidates at this decision are played in rounds of one simulation each with a shared
    seed (``--sims`` in all), each to the horizon, as the search plays them; each simulation's
    horizon position is kept and labelled by playing that rollout on ``--label-rounds`` more
    rounds with the same players and luck, then reading the deciding seat's chance by the
    value network (its share of the win if the game ends first). A round of simulations is
    one labelled decision: its children are the candidates' horizon positions, on the same
    dice and cards."""
    candidates, _ = expert.candidates(game, pre_roll_actions)
    if len(candidates) < 2:
        return []
    seat = game.current_player
    rollouts = Rollouts(search_root(game), seat, pre_roll_actions, config.horizon_rounds,
                        config.rollout, expert.policy(game), expert.value)
    seeds = rollout_seeds(seed)
    out = []
    for _ in range(max(1, config.sims // len(candidates))):
        s = seeds.getrandbits(62)
        children = []
        for c in candidates:
            at = rollouts.play(c.action, s)
            obs, seats = seat_rows(at)
            if not at.is_over:
                play_on(at, rollouts.seat_players(s), horizon(at, config.label_rounds))
            label = expert.value.win_chances(at)[seat]
            children.append({"obs": obs, "seat_row": seats.index(seat) if seat in seats else -1,
                             "mean": label, "prior": c.prior, "scores": [label]})
        out.append({"seat": seat, "players": game.num_players, "phase": int(game.phase),
                    "children": children})
    return out


# ------------------------------------------------------------------------------ the chunks
def _label_chunk(args: tuple[SearchLabelConfig, int]) -> tuple[int, int, int]:
    """Write chunk ``k``: the labelled decisions of its games. Returns (k, decisions,
    children)."""
    config, k = args
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy
    rows, row_child = [], []
    child_decision, child_seat_row, child_mean, child_prior, child_scores = [], [], [], [], []
    decision_seat, decision_players, decision_phase = [], [], []
    first = k * config.chunk_games
    for index in range(first, min(first + config.chunk_games, config.games)):
        seed = random.Random(config.seed * 1_000_003 + index).getrandbits(62)
        for decision in label_game(seed, config, policy):
            d = len(decision_seat)
            decision_seat.append(decision["seat"])
            decision_players.append(decision["players"])
            decision_phase.append(decision["phase"])
            for child in decision["children"]:
                c = len(child_decision)
                rows.append(child["obs"].astype(np.float16))
                row_child.append(np.full(len(child["obs"]), c, np.int32))
                child_decision.append(d)
                child_seat_row.append(child["seat_row"])
                child_mean.append(child["mean"])
                child_prior.append(child["prior"])
                padded = np.full(config.sims, -1.0, np.float32)
                padded[:len(child["scores"])] = child["scores"]
                child_scores.append(padded)
    path = chunk_path(Path(config.run_dir), k)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(
        tmp,
        obs=np.concatenate(rows) if rows else np.zeros((0, OBSERVATION_SIZE), np.float16),
        row_child=np.concatenate(row_child) if rows else np.zeros(0, np.int32),
        child_decision=np.array(child_decision, np.int32),
        child_seat_row=np.array(child_seat_row, np.int16),
        child_mean=np.array(child_mean, np.float32),
        child_prior=np.array(child_prior, np.float32),
        child_scores=(np.stack(child_scores) if child_scores
                      else np.zeros((0, config.sims), np.float32)),
        decision_seat=np.array(decision_seat, np.int16),
        decision_players=np.array(decision_players, np.int16),
        decision_phase=np.array(decision_phase, np.int16))
    tmp.replace(path)
    return k, len(decision_seat), len(child_decision)


def generate(config: SearchLabelConfig, log=None) -> None:
    """Every missing chunk, on ``config.workers`` processes."""
    validate(config)

    data = Path(config.run_dir) / "data"
    already = len(list(data.glob("chunk_*[0-9].npz"))) if data.is_dir() else 0

    def describe(result: tuple[int, int, int], done: int, chunks: int, seconds: float) -> str:
        k, decisions, children = result
        left = seconds / (done - already) * (chunks - done)
        return (f"chunk {k}: {decisions} decisions, {children} children  "
                f"({done}/{chunks} chunks, {seconds:,.0f} s, about {left:,.0f} s left)")

    play_chunks(config, _label_chunk, describe, log or (lambda line: print(line, flush=True)))


def main(argv: list[str] | None = None) -> None:
    from byapar_env.cli_args import ArgumentParser

    ap = ArgumentParser(prog="python -m byapar_training.search_labels",
                        description=__doc__.splitlines()[0])
    for f in fields(SearchLabelConfig):
        ap.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default),
                        default=f.default, help=HELP[f.name])
    args = ap.parse_args(argv)
    config = SearchLabelConfig(**vars(args))
    try:
        validate(config)
    except SearchLabelError as exc:
        ap.exit(2, f"search-labels: {exc}\n")
    run_stages(config, "games", ["search_labels", *(argv or [])], generate,
               lambda c, command: {})
    print(f"labels in {Path(config.run_dir) / 'data'}; the settings in "
          f"{Path(config.run_dir) / 'config.json'} ({config.games:,} games)")


if __name__ == "__main__":
    main()
