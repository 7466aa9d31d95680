"""Businessman's engine beside Byapar's: random legal decisions per second in the same run.

    python -m bench.businessman_speed [--games 100] [--players 4] [--repeats 5]

Each run plays seeded games with uniformly random legal actions on both engines, one after the
other, single process; the figures are medians over the repeats, beside the fixed pure-Python
baseline of ``bench.common`` (the machines here are shared). The bars (issue 27): at least
100,000 Businessman decisions a second, and at least 0.4 times Byapar's rate.
"""

from __future__ import annotations

import argparse

from bench.common import median_runs
from bench.engine_speed import play_games
from byapar_env import businessman
from byapar_env import engine as byapar

BAR_RATE = 100_000
BAR_RATIO = 0.4


def run_once(games: int, players: int, seed: int) -> dict:
    bm = play_games(games, players, seed, businessman.Game, businessman.Rules)
    by = play_games(games, players, seed, byapar.Game, byapar.Rules)
    bm_rate, by_rate = bm["decisions_per_s"], by["decisions_per_s"]
    return {"businessman_decisions_per_s": bm_rate, "byapar_decisions_per_s": by_rate,
            "ratio": bm_rate / by_rate,
            "businessman_decisions_per_game": bm["decisions_per_game"],
            "businessman_turns_per_game": bm["turns_per_s"] / bm["games_per_s"],
            "byapar_decisions_per_game": by["decisions_per_game"]}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    fig, base = median_runs(lambda: run_once(args.games, args.players, args.seed), args.repeats)
    rate, ratio = fig["businessman_decisions_per_s"], fig["ratio"]
    print(f"random legal play, {args.players} players, {args.games} games per engine x "
          f"{args.repeats} runs (medians)")
    print(f"  Businessman decisions/s  {rate:>12,.0f}  "
          f"(bar {BAR_RATE:,}: {'met' if rate >= BAR_RATE else 'NOT met'})")
    print(f"  Byapar decisions/s       {fig['byapar_decisions_per_s']:>12,.0f}")
    print(f"  ratio Businessman/Byapar {ratio:>12.2f}  "
          f"(bar {BAR_RATIO}: {'met' if ratio >= BAR_RATIO else 'NOT met'})")
    print(f"  Businessman decisions/game {fig['businessman_decisions_per_game']:>10,.0f}  "
          f"turns/game {fig['businessman_turns_per_game']:,.0f}")
    print(f"  Byapar decisions/game      {fig['byapar_decisions_per_game']:>10,.0f}")
    print(f"  baseline ops/s           {base:>12,.0f}  (fixed pure-Python loop)")
    print(f"  Businessman decisions/baseline {rate / base:.4f}")
    return fig


if __name__ == "__main__":
    main()
