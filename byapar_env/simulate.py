"""Seeded games of uniformly random legal play: a quick look at the engine on any table.

    byapar simulate [--games 500] [--players 4] [--rounds 40 | --until-one-left]
                    [--starting-cash 15000] [--no-auctions] [--seed 0] [--log GAME]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from .engine import Game, Rules, RulesError


def simulate(rules: Rules, games: int, seed: int = 0, progress: bool = True) -> dict:
    """Play ``games`` random games; figures on how they ended and how fast they ran."""
    rounds, decisions, bankrupt_games, by_seat = [], [], 0, [0.0] * rules.num_players
    start = time.perf_counter()
    for g in range(games):
        game = Game(rules, seed=seed + g)
        choice = random.Random(seed + g).choice
        n = 0
        while not game.is_over:
            game.apply(choice(game.legal_actions()))
            n += 1
        decisions.append(n)
        rounds.append(game.round)
        bankrupt_games += any(game.bankrupt)
        for w in game.winners:
            by_seat[w] += 1 / len(game.winners)
        if progress and (g + 1) % max(1, games // 10) == 0:
            print(f"  {g + 1:>6}/{games} games", file=sys.stderr)
    elapsed = time.perf_counter() - start
    return {
        "games": games, "mean_rounds": statistics.mean(rounds),
        "mean_decisions": statistics.mean(decisions),
        "games_with_bankruptcy": bankrupt_games / games,
        "win_share_by_seat": [w / games for w in by_seat],
        "games_per_s": games / elapsed, "decisions_per_s": sum(decisions) / elapsed,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="byapar simulate", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--players", type=int, default=4)
    length = ap.add_mutually_exclusive_group()
    length.add_argument("--rounds", type=int, default=40)
    length.add_argument("--until-one-left", action="store_true")
    ap.add_argument("--starting-cash", type=int, default=15_000)
    ap.add_argument("--no-auctions", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--log", type=int, metavar="GAME", help="print the log of this game number")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    try:
        rules = Rules(num_players=args.players,
                      rounds=None if args.until_one_left else args.rounds,
                      starting_cash=args.starting_cash, auctions=not args.no_auctions)
    except RulesError as exc:
        ap.error(str(exc))
    if args.log is not None:
        game = Game(rules, seed=args.seed + args.log)
        choice = random.Random(args.seed + args.log).choice
        while not game.is_over:
            game.apply(choice(game.legal_actions()))
        print("\n".join(game.log))
        return 0
    r = simulate(rules, args.games, args.seed)
    print(f"{r['games']} random games, {rules}")
    print(f"  mean rounds            {r['mean_rounds']:.1f}")
    print(f"  mean decisions         {r['mean_decisions']:.0f}")
    print(f"  games with bankruptcy  {r['games_with_bankruptcy']:.1%}")
    print("  win share by seat      " + "  ".join(f"{w:.1%}" for w in r["win_share_by_seat"]))
    print(f"  games/s                {r['games_per_s']:.1f}")
    print(f"  decisions/s            {r['decisions_per_s']:,.0f}")
    return 0
