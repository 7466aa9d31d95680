"""A gauntlet of Businessman's players: each level against each other level, heads-up and at
a larger table, on seeded games.

    python -m byapar_harness.businessman_report [--games 100] [--seats 2,4] [--rounds 20]
                                               [--seed 0] [--json FILE]

A row is one level (the hero) against one other (the field): the hero in one seat, the field in
every other, the hero's seat moving round the table from game to game. A game's win counts 1,
or 1/k when k seats share it. The row gives the hero's win rate, its 95% Wilson interval, the
fair share 1/seats and their ratio. Game ``i`` of a row plays seed ``seed + i`` with fresh
players (a random one seeded from that seed and its seat), so a row is the same whenever it is
run.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass

from byapar_agents.businessman import make_agent, play_game
from byapar_env.businessman import Game, Rules, board
from byapar_env.stats import wilson

LEVELS = ("random", "easy", "medium")  # the players of byapar_agents.businessman.make_agent


@dataclass
class Row:
    hero: str
    field: str
    seats: int
    games: int
    wins: float
    win_rate: float
    low: float  # the 95% Wilson interval of the win rate
    high: float
    fair: float  # 1 / seats
    ratio: float  # win_rate / fair
    decisions_per_game: float


def play_row(hero: str, field: str, seats: int, games: int, rounds: int, seed: int) -> Row:
    """``games`` seeded games of ``hero`` against ``seats - 1`` players of ``field``."""
    wins = 0.0
    decisions = 0
    rules = Rules(num_players=seats, max_rounds=rounds)
    for i in range(games):
        game_seed = seed + i
        hero_seat = i % seats
        players = [make_agent(hero if s == hero_seat else field, game_seed * 8 + s)
                   for s in range(seats)]  # fresh players each game
        game = Game(rules, seed=game_seed)
        decisions += play_game(game, players)
        if hero_seat in game.winners:
            wins += 1 / len(game.winners)
    rate = wins / games if games else 0.0
    low, high = wilson(wins, games)
    fair = 1 / seats
    return Row(hero, field, seats, games, wins, rate, low, high, fair, rate / fair,
               decisions / games if games else 0.0)


def gauntlet(games: int, seat_counts: tuple[int, ...], rounds: int, seed: int) -> list[Row]:
    """Every level against every other level at each table size."""
    return [play_row(hero, field, seats, games, rounds, seed)
            for seats in seat_counts for hero in LEVELS for field in LEVELS if field != hero]


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = ["| hero | field | seats | games | win rate | 95% interval | fair | ratio |",
             "|---|---|---:|---:|---:|---|---:|---:|"]
    for r in rows:
        lines.append(f"| {r.hero} | {r.field} | {r.seats} | {r.games} | {r.win_rate:.1%} | "
                     f"{r.low:.1%} - {r.high:.1%} | {r.fair:.1%} | {r.ratio:.2f}x |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[Row]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games a row (default 100)")
    ap.add_argument("--seats", default="2,4", help="table sizes, comma-separated (default 2,4)")
    ap.add_argument("--rounds", type=int, default=board.FIGURES.default_max_rounds,
                    help="max_rounds of each game (default %(default)s)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args(argv)
    try:
        seats = tuple(int(s) for s in args.seats.split(","))
    except ValueError:
        ap.error(f"--seats must be whole numbers separated by commas, got {args.seats!r}")
    if args.games < 1 or any(not 2 <= s <= board.FIGURES.max_players for s in seats):
        ap.error(f"--games must be at least 1 and every --seats from 2 to "
                 f"{board.FIGURES.max_players}")
    rows = gauntlet(args.games, seats, args.rounds, args.seed)
    print(f"Businessman gauntlet: {args.games} games a row, max_rounds {args.rounds}, "
          f"seed {args.seed}")
    print(table(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"games": args.games, "rounds": args.rounds, "seed": args.seed,
                       "rows": [asdict(r) for r in rows]}, f, indent=1)
    return rows


if __name__ == "__main__":
    main()
