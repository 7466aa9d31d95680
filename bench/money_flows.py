"""Where a Byapar player's money goes: rent paid and received, mortgages taken and paid off,
groups held and net worth at the end, for the player and for its rivals (docs/expert_iteration.md,
"A blind spot of the policy").

    python -m bench.money_flows --opponent pop-4 --seats 6 --games 30 --seed 2000
    python -m bench.money_flows --opponent pop-4 --seats 6 --games 30 --seed 2000 --undo-moves

Plays ``--games`` games of ``--player`` against ``--seats - 1`` copies of ``--opponent``, 40
rounds, Rs 15,000, auctions, through ``byapar_v0``; game ``i`` is seeded ``seed + i`` and
seats the player in seat ``i mod seats``. Reads each game's log and prints, per game, the
player's figures beside one rival seat's average. ``--undo-moves`` seats the hard player as
earlier releases played it, free to undo before rolling a move it made that turn
(``LearnedPlayer(keep_moves=False)``).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

from byapar_agents import make_agent, play_through_env
from byapar_agents.hard import LearnedPlayer
from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import NO_DECISION_CAP
from byapar_env.engine import Game, board

_RENT = re.compile(r"seat (\d+) pays Rs ([\d,]+) to seat (\d+)$")
_MORTGAGE = re.compile(r"seat (\d+) mortgages ")
_PAY_OFF = re.compile(r"seat (\d+) pays off the mortgage on ")
FIGURES = ("rent received", "rent paid", "mortgages", "mortgages paid off", "groups held",
           "cash", "net worth", "wins")


def seat_figures(game: Game) -> list[Counter]:
    """Each seat's figures over a finished ``game`` (``FIGURES``), read from its log and end."""
    seats = [Counter() for _ in range(game.num_players)]
    for line in game.log:
        if m := _RENT.match(line):
            amount = int(m.group(2).replace(",", ""))
            seats[int(m.group(1))]["rent paid"] += amount
            seats[int(m.group(3))]["rent received"] += amount
        elif m := _MORTGAGE.match(line):
            seats[int(m.group(1))]["mortgages"] += 1
        elif m := _PAY_OFF.match(line):
            seats[int(m.group(1))]["mortgages paid off"] += 1
    for s, row in enumerate(seats):
        row["groups held"] = sum(all(game.owner[q] == s for q in group)
                                 for group in board.GROUPS.values())
        row["cash"] = game.cash[s]
        row["net worth"] = game.net_worth(s)
        row["wins"] = 1 / len(game.winners) if s in game.winners else 0.0
    return seats


def money_flows(player: str, opponent: str, seats: int, games: int, seed: int,
                undo_moves: bool = False) -> tuple[Counter, Counter]:
    """The player's figures and one rival seat's, each a mean per game."""
    mine, theirs = Counter(), Counter()
    for i in range(games):
        me = i % seats
        hero = (LearnedPlayer(name="hard", keep_moves=False) if undo_moves
                else make_agent(player))
        players = [hero if s == me else make_agent(opponent) for s in range(seats)]
        for s, p in enumerate(players):
            if hasattr(p, "reset"):
                p.reset(seed + i * 10 + s)
        env = raw_env(num_players=seats, rounds=40, starting_cash=15_000, auctions=True,
                      max_decisions=NO_DECISION_CAP)
        env.reset(seed=seed + i)
        play_through_env(env, players)
        for s, row in enumerate(seat_figures(env.game)):
            (mine if s == me else theirs).update(row)
    return (Counter({k: mine[k] / games for k in FIGURES}),
            Counter({k: theirs[k] / (games * (seats - 1)) for k in FIGURES}))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="hard", help="the player watched")
    ap.add_argument("--opponent", default="medium", help="every other seat's player")
    ap.add_argument("--seats", type=int, default=4, choices=range(2, 7), metavar="2..6",
                    help="seats at the table (default 4)")
    ap.add_argument("--games", type=int, default=30, help="games to play (default 30)")
    ap.add_argument("--seed", type=int, default=2000, help="the first game's seed")
    ap.add_argument("--undo-moves", action="store_true",
                    help="the hard player free to undo its own moves within a turn")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    if args.undo_moves and args.player != "hard":
        ap.error(f"--undo-moves is the hard player's, got --player {args.player!r}")
    try:
        make_agent(args.player), make_agent(args.opponent)
    except ValueError as exc:
        ap.error(str(exc))
    mine, theirs = money_flows(args.player, args.opponent, args.seats, args.games, args.seed,
                               args.undo_moves)
    who = args.player + (" (undoing its moves)" if args.undo_moves else "")
    print(f"{who} and {args.seats - 1} x {args.opponent}: {args.games} games from seed "
          f"{args.seed}, a game")
    print(f"{'':20s} {'player':>10s} {'a rival':>10s}")
    for k in FIGURES:
        print(f"{k:20s} {mine[k]:10.2f} {theirs[k]:10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
