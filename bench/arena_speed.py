"""Arena speed: four medium players, 40 rounds, default options, one process.

    python -m bench.arena_speed [--games 300] [--players medium,medium,medium,medium] [--repeats 5]

Prints the median over the repeats of complete games per second and turns per second, with their
ratio to a fixed pure-Python baseline timed beside each run.
"""

from __future__ import annotations

import argparse
import time

from bench.common import median_runs
from byapar_harness.arena import ArenaConfig, run_games


def run(players: tuple[str, ...], games: int) -> dict:
    start = time.perf_counter()
    results = run_games(ArenaConfig(players=players, games=games, workers=1))
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed,
            "turns_per_s": sum(r.turns for r in results) / elapsed,
            "decisions_per_s": sum(r.decisions for r in results) / elapsed}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", default="medium,medium,medium,medium")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    players = tuple(args.players.split(","))
    fig, base = median_runs(lambda: run(players, args.games), args.repeats)
    print(f"arena, {args.players}, {args.games} games x {args.repeats} runs, one process "
          "(medians)")
    for key in ("games_per_s", "turns_per_s", "decisions_per_s"):
        print(f"  {key:<16}{fig[key]:>12,.1f}   per baseline op {fig[key] / base:.6f}")
    print(f"  baseline ops/s  {base:>12,.0f}  (fixed pure-Python loop)")


if __name__ == "__main__":
    main()
