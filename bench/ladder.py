"""Ratings of the difficulty ladder's levels (``byapar_agents.ladder``): seeded four-seat games
among them.

    python -m bench.ladder --out DIR [--games 300] [--seed 0] [--levels beginner,...,master]
                           [--expert-sims 12] [--json PATH] [--summary]

Game ``i`` seats four different levels, drawn and ordered from the seed and ``i`` alone, on the
game seed the arena would give game ``i`` (``game_seed``); the expert, when on the list,
plays ``--expert-sims`` simulations a decision (reproducible). Each game's result is appended to
``DIR/games.jsonl`` as it ends, so a run started again goes on from there. The summary is the
arena's (``arena.summarise``): each level's win rate in these games with its 95% Wilson
interval, and its OpenSkill (Plackett-Luce) rating fitted over them in game order; and, since
an online rating depends on the order of the games, an Elo-scale rating fitted to all of them
at once (``elo``: Bradley-Terry on every pair of seats in every game, the better finish
winning, a tie half each; 400 points a factor of ten in odds, the first level at 1,000), with
a 95% interval from resampling the games (``ELO_RESAMPLES``).
``--summary`` summarises the games played so far (the first games in order, without gaps) and
plays none.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from byapar_agents import play_through_env
from byapar_agents.expert import ExpertPlayer
from byapar_agents.ladder import LADDER, make_level
from byapar_agents.network import single_thread_blas
from byapar_harness.arena import (
    ArenaConfig,
    GameResult,
    game_result,
    game_seed,
    summarise,
    table_env,
)

DEFAULT_LEVELS = tuple(n for n in LADDER if n != "expert")
ELO_RESAMPLES = 200
ELO_BASE = 1000.0


def bradley_terry(results: list[GameResult], levels: tuple[str, ...]) -> list[float]:
    """Each level's strength on the Elo scale (the first level at ``ELO_BASE``), fitted by
    the MM algorithm to every pair of seats in every game: the better finish (lower rank)
    wins, a tie counts half each way."""
    import numpy as np

    k = len(levels)
    index = {n: i for i, n in enumerate(levels)}
    wins = np.zeros((k, k))
    for r in results:
        for a in range(len(r.kinds)):
            for b in range(len(r.kinds)):
                if a != b and r.ranks[a] <= r.ranks[b]:
                    wins[index[r.kinds[a]], index[r.kinds[b]]] += (
                        1.0 if r.ranks[a] < r.ranks[b] else 0.5)
    games = wins + wins.T
    strength = np.ones(k)
    total = wins.sum(axis=1) + 0.5  # a half win of prior each, so none is 0 or infinite
    for _ in range(500):
        denom = (games / (strength[:, None] + strength[None, :])).sum(axis=1) + 1.0 / (
            strength + 1.0)
        strength = total / denom
        strength /= strength[0]
    return [float(ELO_BASE + 400.0 * np.log10(x)) for x in strength]


def elo(results: list[GameResult], levels: tuple[str, ...], seed: int = 0) -> dict:
    """``bradley_terry`` over all the games, with a 95% interval from resampling them."""
    import random as random_module

    point = bradley_terry(results, levels)
    rng = random_module.Random(seed)
    draws = [bradley_terry([rng.choice(results) for _ in results], levels)
             for _ in range(ELO_RESAMPLES)]
    out = {}
    for i, n in enumerate(levels):
        xs = sorted(d[i] for d in draws)
        out[n] = {"elo": point[i], "ci95": [xs[int(0.025 * len(xs))],
                                            xs[int(0.975 * len(xs)) - 1]]}
    return out


def table(levels: tuple[str, ...], seed: int, index: int) -> list[str]:
    return random.Random(seed * 1_000_003 + index).sample(list(levels), 4)


def play(levels: tuple[str, ...], seed: int, index: int, expert_sims: int) -> GameResult:
    kinds = table(levels, seed, index)
    gseed = game_seed(seed, index)
    players = []
    for s, k in enumerate(kinds):
        if k == "expert":
            p = ExpertPlayer(gseed + s, sims=expert_sims)
            p.reset(gseed + s)
        else:
            p = make_level(k, gseed + s)
        players.append(p)
    env = table_env(ArenaConfig(players=tuple(kinds)), gseed)
    decisions = play_through_env(env, players)
    return game_result(index, kinds, env.game, decisions)


def run(out: Path, games: int, seed: int, levels: tuple[str, ...], expert_sims: int,
        play_more: bool = True) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    setup = {"games": games, "seed": seed, "levels": list(levels), "expert_sims": expert_sims}
    meta = out / "setup.json"
    if meta.exists() and json.loads(meta.read_text()) != setup:
        raise SystemExit(f"{out} holds a run with other settings: {meta.read_text()}")
    meta.write_text(json.dumps(setup) + "\n")
    path = out / "games.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    done = {r["index"] for r in rows}
    if not play_more:
        games = next(i for i in range(games + 1) if i not in done)
        setup["games"] = games
    start = time.perf_counter()
    for i in range(games):
        if i in done:
            continue
        r = play(levels, seed, i, expert_sims)
        row = {k: getattr(r, k) for k in GameResult.__dataclass_fields__}
        rows.append(row)
        with path.open("a") as f:
            f.write(json.dumps(row) + "\n")
        if (i + 1) % 20 == 0:
            print(f"{i + 1} games, {time.perf_counter() - start:.0f} s", flush=True)
    results = sorted((GameResult(**r) for r in rows if r["index"] < games),
                     key=lambda r: r.index)
    summary = summarise(ArenaConfig(players=levels, games=games, seed=seed), results,
                        time.perf_counter() - start)
    ratings = elo(results, levels, seed)
    return {**setup, "players": {k: {**summary["players"][k], **{
        "elo": ratings[k]["elo"], "elo_ci95": ratings[k]["ci95"]}} for k in levels}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--levels", default=",".join(DEFAULT_LEVELS))
    ap.add_argument("--expert-sims", type=int, default=12)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--summary", action="store_true")
    args = ap.parse_args(argv)
    single_thread_blas()
    levels = tuple(args.levels.split(","))
    result = run(args.out, args.games, args.seed, levels, args.expert_sims, not args.summary)
    for k in levels:
        p = result["players"][k]
        print(f"{k:<9} elo {p['elo']:6.0f} ({p['elo_ci95'][0]:.0f} - {p['elo_ci95'][1]:.0f})  "
              f"openskill {p['rating_mu']:6.2f} (sigma {p['rating_sigma']:.2f})  "
              f"win rate {p['win_rate']:.1%} ({p['ci95'][0]:.1%} - {p['ci95'][1]:.1%}) "
              f"of {p['games']} games")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
