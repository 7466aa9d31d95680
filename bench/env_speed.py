"""Environment speed: masked uniformly random play, single process.

    python -m bench.env_speed [--games 30] [--players 4] [--repeats 5]

Decisions per second through ``raw_env`` and through ``env()`` (PettingZoo's wrappers), each the
median of the repeats, beside a fixed pure-Python baseline timed before each run.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from bench.common import median_runs
from byapar_env import byapar_v0


def play(make, games: int, players: int, seed: int) -> float:
    choice = random.Random(seed).choice
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        env = make(num_players=players)
        env.reset(seed=seed + g)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(choice(np.flatnonzero(obs["action_mask"]).tolist()))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    def run() -> dict:
        return {"raw_env": play(byapar_v0.raw_env, args.games, args.players, args.seed),
                "env": play(byapar_v0.env, args.games, args.players, args.seed)}

    fig, base = median_runs(run, args.repeats)
    print(f"environment, masked random play, {args.players} players, {args.games} games x "
          f"{args.repeats} runs (medians)")
    for name in ("raw_env", "env"):
        print(f"  {name:<8} decisions/s {fig[name]:>10,.0f}   per baseline op "
              f"{fig[name] / base:.4f}")
    print(f"  baseline ops/s       {base:>10,.0f}  (fixed pure-Python loop)")


if __name__ == "__main__":
    main()
