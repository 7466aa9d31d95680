"""Businessman's expert against the hard player: the arena's games, one line per game.

    python -m bench.businessman_expert --players expert,hard --games 400 --seed 0
    python -m bench.businessman_expert --players expert,hard,hard,hard --games 120 --out g.jsonl

Game ``i`` is the arena's game ``i`` (``byapar_harness.arena.play_game``: the same seed
derived from ``--seed`` and ``i``, the seats rotated by ``i``, a fresh player per seat), so a
run gives the figures ``byapar arena --game businessman`` gives for the same options. Each game
is written as a JSON line to ``--out`` as it ends (a long run can be read while it goes on),
and the summary gives the first player's win rate (a shared win counts as its share) with its
95% Wilson interval (``byapar_env.stats.wilson``) beside the fair share, and its mean net
worth against the others'. Numpy runs on one thread (``single_thread_blas``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from byapar_agents.network import single_thread_blas

from byapar_env.stats import wilson
from byapar_harness.arena import ArenaConfig, play_game, validate


def summary(players: list[str], lines: list[dict]) -> dict:
    """The first player's wins (shares), rate and Wilson interval over the games in ``lines``,
    and the mean net worth of its seats and of the other seats."""
    hero = players[0]
    wins = mine = theirs = 0.0
    others = 0
    for line in lines:
        for kind, share, worth in zip(line["kinds"], line["shares"], line["net_worth"],
                                      strict=True):
            if kind == hero:
                wins += share
                mine += worth
            else:
                theirs += worth
                others += 1
    games = len(lines)
    low, high = wilson(wins, games)
    return {"player": hero, "games": games, "wins": wins, "win_rate": wins / games if games else 0,
            "ci95": [low, high], "fair": 1 / len(players),
            "mean_net_worth": mine / games if games else 0,
            "others_mean_net_worth": theirs / others if others else 0}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="expert,hard",
                    help="comma-separated table, the player measured first (default "
                         "expert,hard)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--out", default=None, help="a JSON-lines file, one game a line")
    args = ap.parse_args(argv)
    single_thread_blas()
    players = [p.strip() for p in args.players.split(",")]
    config = ArenaConfig(players=tuple(players), games=args.games, seed=args.seed,
                         game="businessman", rounds=args.rounds)
    validate(config)
    lines: list[dict] = []
    start = time.perf_counter()
    if args.out:
        Path(args.out).write_text("")
    for i in range(args.games):
        r = play_game(config, i)
        line = {"index": i, "kinds": r.kinds, "shares": r.shares, "net_worth": r.net_worth,
                "seconds": round(time.perf_counter() - start, 1)}
        lines.append(line)
        if args.out:
            with Path(args.out).open("a") as out:
                out.write(json.dumps(line) + "\n")
    result = summary(players, lines)
    low, high = result["ci95"]
    print(f"Businessman, {', '.join(players)}: {result['games']} games, seats rotated, "
          f"{args.rounds} rounds, seed {args.seed}")
    print(f"  {result['player']} wins {result['wins']:g}: {result['win_rate']:.1%} "
          f"(95% Wilson {low:.1%} - {high:.1%}; fair share {result['fair']:.1%})")
    print(f"  mean net worth {result['mean_net_worth']:,.0f} (the others "
          f"{result['others_mean_net_worth']:,.0f}); {time.perf_counter() - start:.0f} s")
    return result


if __name__ == "__main__":
    main()
