"""Time per decision of the expert at several budgets, on positions from real games.

    python -m bench.expert_speed [--positions 60] [--json PATH]

Positions are every decision of seeded four-seat games of medium players, thinned evenly to
``--positions``; the expert then decides each of them at every budget, one decision timed at a
time (the policy's prior, the candidates and the simulations: the whole ``choose`` call). The
figures are the median and the p99 of the time per decision over all positions, and over those
that were searched (more than one candidate); for a time budget, whether the p99 stays within
the budget plus 20%.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time

from byapar_agents import ExpertPlayer, make_agent
from byapar_env.driver import SeatDriver
from byapar_env.engine import Game, Rules

from .common import baseline_ops_per_second

# The default expert (the trade finder on, the value network one round on) at several
# budgets; beside it at the arena's budget, the previous release's default (no trade finder)
# and the one before (the position-value share, three rounds on).
BUDGETS: tuple[dict, ...] = (dict(sims=16), dict(sims=48), dict(sims=96), dict(budget_ms=100),
                             dict(budget_ms=300), dict(sims=48, find_trades=False),
                             dict(sims=48, value="share"))


def positions(count: int, seed: int = 0) -> list[tuple[Game, int]]:
    """(game clone, pre-roll count) at every real decision of seeded games, thinned evenly."""
    out = []
    for g in range(2):
        driver = SeatDriver.for_game(Game(Rules(num_players=4), seed=seed + g))
        game = driver.game
        players = [make_agent("medium") for _ in range(4)]
        for s, p in enumerate(players):
            p.reset(s)
        while legal := driver.engine_choices():
            out.append((game.clone(), driver.pre_roll_actions))
            driver.take_engine(players[game.current_player].choose(game, game.current_player,
                                                                   legal))
    step = max(1, len(out) // count)
    return out[::step][:count]


def _pct(values: list[float], q: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``q`` of them at or below
    it (with fewer than 100 values the p99 is the slowest)."""
    values = sorted(values)
    return values[max(0, math.ceil(q * len(values)) - 1)] if values else 0.0


def time_budget(sample: list[tuple[Game, int]], budget: dict) -> dict:
    player = ExpertPlayer(seed=0, **budget)
    every, searched, sims = [], [], []
    for game, pre_roll in sample:
        player.known_pre_roll = pre_roll
        legal = game.legal_actions()
        t = time.perf_counter()
        player.choose(game, game.current_player, legal)
        took = (time.perf_counter() - t) * 1000.0
        every.append(took)
        if player.last is not None and player.last.sims:
            searched.append(took)
            sims.append(player.last.sims)
    row = {"budget": budget, "decisions": len(every), "searched": len(searched),
           "median_ms": statistics.median(every), "p99_ms": _pct(every, 0.99),
           "searched_median_ms": statistics.median(searched) if searched else 0.0,
           "searched_p99_ms": _pct(searched, 0.99),
           "mean_sims_searched": statistics.fmean(sims) if sims else 0.0}
    if "budget_ms" in budget:
        row["p99_within_budget_plus_20pc"] = row["p99_ms"] <= 1.2 * budget["budget_ms"]
    return row


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--json", default=None, help="write the rows as JSON to this file")
    args = ap.parse_args(argv)
    sample = positions(args.positions)
    base = baseline_ops_per_second()
    print(f"{len(sample)} positions (4 seats); baseline ops/s {base:,.0f}")
    rows = []
    for budget in BUDGETS:
        row = time_budget(sample, budget)
        rows.append(row)
        name = ", ".join(f"{k}={v}" for k, v in budget.items())
        extra = ""
        if "p99_within_budget_plus_20pc" in row:
            extra = f"; p99 within budget + 20%: {row['p99_within_budget_plus_20pc']}"
        print(f"{name:<15} all: median {row['median_ms']:7.1f} ms, p99 {row['p99_ms']:7.1f} ms; "
              f"searched ({row['searched']}): median {row['searched_median_ms']:7.1f} ms, "
              f"p99 {row['searched_p99_ms']:7.1f} ms, {row['mean_sims_searched']:.0f} sims"
              f"{extra}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"positions": len(sample), "baseline_ops_per_s": base, "rows": rows}, f,
                      indent=2)


if __name__ == "__main__":
    main()
