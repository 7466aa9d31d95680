"""Engine speed: seeded games with uniformly random legal actions, single process.

    python -m bench.engine_speed [--games 200] [--players 4] [--repeats 5]

Prints the median over the repeats of decisions per second and games per second, and their
ratio to a fixed pure-Python baseline timed beside each run (the machines here are shared).
"""

from __future__ import annotations

import argparse
import random
import time

from bench.common import median_runs
from byapar_env.engine import Game, Rules


def play_games(games: int, players: int, seed: int, game_cls=Game, rules_cls=Rules) -> dict:
    """Random legal play of ``games`` seeded games of ``game_cls`` (Byapar's engine, or another
    game's with the same interface): decisions, games and turns a second."""
    rules = rules_cls(num_players=players)
    decisions = turns = 0
    start = time.perf_counter()
    for g in range(games):
        game = game_cls(rules, seed=seed + g)
        choice = random.Random(seed + g).choice
        legal = game.legal_actions
        apply = game.apply
        while not game.is_over:
            apply(choice(legal()))
            decisions += 1
        turns += game.turn_count
    elapsed = time.perf_counter() - start
    return {"decisions_per_s": decisions / elapsed, "games_per_s": games / elapsed,
            "turns_per_s": turns / elapsed, "decisions_per_game": decisions / games}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    fig, base = median_runs(lambda: play_games(args.games, args.players, args.seed), args.repeats)
    print(f"engine, random legal play, {args.players} players, {args.games} games x "
          f"{args.repeats} runs (medians)")
    print(f"  decisions/s        {fig['decisions_per_s']:>12,.0f}")
    print(f"  games/s            {fig['games_per_s']:>12,.1f}")
    print(f"  turns/s            {fig['turns_per_s']:>12,.0f}")
    print(f"  decisions/game     {fig['decisions_per_game']:>12,.0f}")
    print(f"  baseline ops/s     {base:>12,.0f}  (fixed pure-Python loop)")
    print(f"  decisions/baseline {fig['decisions_per_s'] / base:>12.4f}")


if __name__ == "__main__":
    main()
