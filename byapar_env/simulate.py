"""Seeded games of uniformly random legal play: a quick look at the engine on any table.

    byapar simulate [--games 500] [--players 4] [--rounds 40 | --until-one-left]
                    [--starting-cash 15000] [--no-auctions] [--seed 0] [--log GAME]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from .cli_args import ArgumentParser, add_table_flags
from .engine import Game, Rules, RulesError

# Game g is seeded with seed + g. Seeds start at 0 (random.Random folds a negative seed onto its
# absolute value: -1 would replay the game of 1); the top keeps seed + g within a signed 64-bit
# integer, as the arena's seeds are.
MAX_SEED = 2**63 - 1
# The figures are running sums, so memory does not grow with the games; the cap only catches
# typos (a million random games is about two hours on one core).
MAX_GAMES = 10_000_000


def simulate(rules: Rules, games: int, seed: int = 0, progress: bool = True) -> dict:
    """Play ``games`` random games; figures on how they ended and how fast they ran."""
    rounds = decisions = bankrupt_games = 0
    by_seat = [0.0] * rules.num_players
    start = time.perf_counter()
    for g in range(games):
        game = Game(rules, seed=seed + g)
        choice = random.Random(seed + g).choice
        n = 0
        while not game.is_over:
            game.apply(choice(game.legal_actions()))
            n += 1
        decisions += n
        rounds += game.round
        bankrupt_games += any(game.bankrupt)
        for w in game.winners:
            by_seat[w] += 1 / len(game.winners)
        if progress and (g + 1) % max(1, games // 10) == 0:
            print(f"  {g + 1:>6}/{games} games", file=sys.stderr)
    elapsed = time.perf_counter() - start
    # int / int is correctly rounded, as statistics.mean of the per-game lists was.
    return {
        "games": games, "mean_rounds": rounds / games,
        "mean_decisions": decisions / games,
        "games_with_bankruptcy": bankrupt_games / games,
        "win_share_by_seat": [w / games for w in by_seat],
        "games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed,
    }


def build_parser() -> argparse.ArgumentParser:
    ap = ArgumentParser(prog="byapar simulate", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500,
                    help=f"games to play, from 1 to {MAX_GAMES:,}")
    add_table_flags(ap, players=True)
    ap.add_argument("--seed", type=int, default=0,
                    help=f"game g is seeded with SEED + g; from 0 to {MAX_SEED:,}")
    ap.add_argument("--log", type=int, metavar="GAME", default=None,
                    help="print the log of this game number (from 0) instead of the figures "
                         "(default: the figures)")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if not 1 <= args.games <= MAX_GAMES:
        ap.error(f"--games must be from 1 to {MAX_GAMES:,}, got {args.games:,}")
    if not 0 <= args.seed <= MAX_SEED:
        ap.error(f"--seed must be a whole number from 0 to {MAX_SEED:,}, got {args.seed:,}")
    if args.log is not None and not 0 <= args.log <= MAX_SEED - args.seed:
        ap.error(f"--log must be a game number from 0 to {MAX_SEED - args.seed:,}, "
                 f"got {args.log:,}")
    if args.seed + args.games - 1 > MAX_SEED:
        ap.error(f"--seed {args.seed:,} with --games {args.games:,} runs past the last seed "
                 f"{MAX_SEED:,}")
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
