"""Time per decision of each panel player (and medium beside them), on positions from real games.

    python -m bench.panel_speed [--games 4] [--repeats 5]

Positions are collected from seeded games of the panel and medium (one of each at six seats);
each player then decides every collected position of its own seat, timed as a whole run. The
figures are the median over the runs of the mean time per decision, and the slowest decision
seen (p99 over all timed decisions), beside the fixed pure-Python baseline of bench.common.
"""

from __future__ import annotations

import argparse
import statistics
import time

from byapar_agents import make_agent
from byapar_agents.panel import PANEL_NAMES
from byapar_env.engine import Game, Rules

from .common import baseline_ops_per_second


def positions(games: int) -> list[tuple[Game, int]]:
    """(game clone, seat) at every decision of seeded games, trade offers made included."""
    names = ("medium", *PANEL_NAMES)
    out = []
    for g in range(games):
        for start in range(0, len(names), 6):
            lineup = names[start:start + 6]
            if len(lineup) < 2:
                lineup = (*lineup, "medium")
            game = Game(Rules(num_players=len(lineup), rounds=20), seed=g)
            players = [make_agent(n) for n in lineup]
            for s, p in enumerate(players):
                p.reset(s)
            while not game.is_over:
                seat = game.current_player
                out.append((game.clone(), seat))
                game.apply(players[seat].choose(game, seat, game.legal_actions()))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    sample = positions(args.games)
    print(f"{len(sample)} positions; baseline ops/s {baseline_ops_per_second():,.0f}")
    for name in ("medium", *PANEL_NAMES):
        runs, each = [], []
        for _ in range(args.repeats):
            player = make_agent(name)
            player.reset(0)
            start = time.perf_counter()
            for game, seat in sample:
                t = time.perf_counter()
                player.choose(game, seat, game.legal_actions())
                each.append(time.perf_counter() - t)
            runs.append((time.perf_counter() - start) / len(sample))
        each.sort()
        p99 = each[int(0.99 * (len(each) - 1))]
        print(f"{name:<11} {statistics.median(runs) * 1e6:8.1f} us per decision (median of "
              f"{args.repeats} runs), p99 {p99 * 1e6:8.1f} us")


if __name__ == "__main__":
    main()
