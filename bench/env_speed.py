"""Environment speed: masked uniformly random play, single process.

    python -m bench.env_speed [--games 30] [--players 4] [--repeats 5]

Decisions per second through ``raw_env`` and through ``env()`` (PettingZoo's wrappers), and
learner steps per second of the single-seat view (``SingleSeatEnv``, random opponents: a step
includes the opponents' decisions up to the learner's next one), each the median of the repeats,
beside a fixed pure-Python baseline timed before each run. The time includes the random agent
itself (reading the mask and drawing one legal id).
"""

from __future__ import annotations

import argparse
import random
import time

from bench.common import median_runs
from byapar_env import byapar_v0
from byapar_env.single_seat import SingleSeatEnv


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
            env.step(choice(obs["action_mask"].nonzero()[0].tolist()))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def play_single_seat(games: int, players: int, seed: int) -> float:
    choice = random.Random(seed).choice
    env = SingleSeatEnv(num_players=players)
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        env.reset(seed=seed + g)
        done = False
        while not done:
            _, _, term, trunc, _ = env.step(choice(env.action_masks().nonzero()[0].tolist()))
            done = term or trunc
            steps += 1
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    def run() -> dict:
        return {"raw_env": play(byapar_v0.raw_env, args.games, args.players, args.seed),
                "env": play(byapar_v0.env, args.games, args.players, args.seed),
                "single_seat": play_single_seat(args.games, args.players, args.seed)}

    fig, base = median_runs(run, args.repeats)
    print(f"environment, masked random play, {args.players} players, {args.games} games x "
          f"{args.repeats} runs (medians)")
    for name in ("raw_env", "env"):
        print(f"  {name:<11} decisions/s {fig[name]:>10,.0f}   per baseline op "
              f"{fig[name] / base:.4f}")
    print(f"  single_seat steps/s     {fig['single_seat']:>10,.0f}   per baseline op "
          f"{fig['single_seat'] / base:.4f}")
    print(f"  baseline ops/s          {base:>10,.0f}  (fixed pure-Python loop)")


if __name__ == "__main__":
    main()
