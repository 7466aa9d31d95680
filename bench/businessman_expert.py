"""Businessman's expert against the hard player: the arena's games, one line per game.

    python -m bench.businessman_expert --players expert,hard --games 400 --seed 0
    python -m bench.businessman_expert --players expert,hard,hard,hard --games 120 --out g.jsonl
    python -m bench.businessman_expert --players expert,hard,hard,hard --control hard --games 200

Game ``i`` is the arena's game ``i`` (``byapar_harness.arena.play_game``: the same seed
derived from ``--seed`` and ``i``, the seats rotated by ``i``, a fresh player per seat), so a
run gives the figures ``byapar arena --game businessman`` gives for the same options. Each game
is written as a JSON line to ``--out`` as it ends (a long run can be read while it goes on),
and the summary gives the first player's win rate (a shared win counts as its share) with its
95% Wilson interval (``byapar_env.stats.wilson``) beside the fair share, and its mean net
worth against the others'. Numpy runs on one thread (``single_thread_blas``).

``--control NAME`` plays every game a second time with the control in the first player's seats
(the same seed, seating and other players): the two rates then differ only by the decisions,
not by the deals. The summary adds the control's rate, the mean paired difference with its
95% interval (``byapar_env.stats.paired_difference``) and the games only one of the two won,
with an exact sign test (``sign_test``). Why: the deals of 100 games can favour a seat by
chance, and the same deals are then the fair yardstick (on the 100 four-seat games of seed 0
the hard player itself, in the expert's seats, wins 14.0%, not 25%). ``--workers N`` plays
games in N processes (the results do not depend on N).
"""

from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path

from byapar_agents.network import single_thread_blas
from byapar_env.stats import paired_difference, sign_test, wilson
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


def paired(hero: list[dict], control: list[dict], name: str, control_name: str) -> dict:
    """The first player's results against the control's in the same seats of the same games:
    both rates, the mean paired difference of their win shares with its 95% interval, and the
    games only one of them won (a larger share counts as a win) with the sign test's p-value."""
    a: list[float] = []
    b: list[float] = []
    for mine, theirs in zip(hero, control, strict=True):
        seats = [j for j, kind in enumerate(mine["kinds"]) if kind == name]
        a.append(sum(mine["shares"][j] for j in seats))
        b.append(sum(theirs["shares"][j] for j in seats))
    mean, low, high = paired_difference(a, b)
    better = sum(1 for x, y in zip(a, b, strict=True) if x > y)
    worse = sum(1 for x, y in zip(a, b, strict=True) if x < y)
    return {"control": control_name, "control_win_rate": sum(b) / len(b) if b else 0.0,
            "difference": mean, "difference_ci95": [low, high], "only_hero_won": better,
            "only_control_won": worse, "sign_test_p": sign_test(better, worse)}


def _play(job: tuple[ArenaConfig, int]) -> dict:
    config, i = job
    r = play_game(config, i)
    return {"index": i, "kinds": r.kinds, "shares": r.shares, "net_worth": r.net_worth}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="expert,hard",
                    help="comma-separated table, the player measured first (default "
                         "expert,hard)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--control", default=None,
                    help="a player that plays the same games in the first player's seats")
    ap.add_argument("--workers", type=int, default=1, help="processes playing games")
    ap.add_argument("--out", default=None, help="a JSON-lines file, one game a line")
    args = ap.parse_args(argv)
    single_thread_blas()
    players = [p.strip() for p in args.players.split(",")]
    config = ArenaConfig(players=tuple(players), games=args.games, seed=args.seed,
                         game="businessman", rounds=args.rounds, workers=args.workers)
    validate(config)
    jobs = [(config, i) for i in range(args.games)]
    if args.control is not None:
        if players[0] in players[1:]:
            raise SystemExit(f"with --control, the first player {players[0]!r} must not sit "
                             "in the other seats too")
        twin = ArenaConfig(players=(args.control, *players[1:]), games=args.games,
                           seed=args.seed, game="businessman", rounds=args.rounds)
        validate(twin)
        jobs += [(twin, i) for i in range(args.games)]
    lines: list[dict] = []
    start = time.perf_counter()
    if args.out:
        Path(args.out).write_text("")
    with Pool(args.workers) as pool:
        for line in pool.imap(_play, jobs):
            line["seconds"] = round(time.perf_counter() - start, 1)
            lines.append(line)
            if args.out:
                with Path(args.out).open("a") as out:
                    out.write(json.dumps(line) + "\n")
    hero_lines = lines[:args.games]
    result = summary(players, hero_lines)
    low, high = result["ci95"]
    print(f"Businessman, {', '.join(players)}: {result['games']} games, seats rotated, "
          f"{args.rounds} rounds, seed {args.seed}")
    print(f"  {result['player']} wins {result['wins']:g}: {result['win_rate']:.1%} "
          f"(95% Wilson {low:.1%} - {high:.1%}; fair share {result['fair']:.1%})")
    print(f"  mean net worth {result['mean_net_worth']:,.0f} (the others "
          f"{result['others_mean_net_worth']:,.0f}); {time.perf_counter() - start:.0f} s")
    if args.control is not None:
        result.update(paired(hero_lines, lines[args.games:], players[0], args.control))
        d_low, d_high = result["difference_ci95"]
        print(f"  {args.control} in the same seats of the same games: "
              f"{result['control_win_rate']:.1%}; the difference {result['difference']:+.1%} "
              f"(95% {d_low:+.1%} to {d_high:+.1%}); only {players[0]} won "
              f"{result['only_hero_won']}, only {args.control} won "
              f"{result['only_control_won']} (sign test p = {result['sign_test_p']:.3f})")
    return result


if __name__ == "__main__":
    main()
