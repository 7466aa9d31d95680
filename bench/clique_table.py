"""A player at a table whose rivals trade among themselves and refuse every offer it makes: a
seen stand-in for the issue's "where rivals swap among themselves it cannot join them"
(docs/expert_iteration.md, "A table where nobody has an edge, ...": a clique of seen
traders).

    python -m bench.clique_table --player hard --opponents outside-chrisaacson-trading --seats 6
    python -m bench.clique_table --player hard,medium --opponents pop-3,pop-4,pop-5 --seats 4

Each game is ``byapar arena``'s game of the lineup ``PLAYER`` then ``--opponents`` (repeated
in turn to fill ``--seats``), seats rotated, game ``i`` seeded from ``--seed`` and ``i``
alone; every rival is wrapped by ``Clique``: it answers an offer from the player's seat with a
refusal and plays as itself everywhere else (its own offers, to anyone, and its answers to the
others). ``--open`` plays the same games without the wrapper, for the comparison. Measure on
seen opponents only: the gauntlet's unseen ones are for the final report.
"""

from __future__ import annotations

import argparse

from bench.common import print_win_rate
from bench.seated import hero_share
from byapar_agents import make_agent
from byapar_env.action_table import REJECT_ID
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase


class Clique:
    """``player`` in every decision but one: an offer made by seat ``outsider`` is refused."""

    def __init__(self, player, outsider: int) -> None:
        self.player, self.outsider = player, outsider

    def reset(self, seed: int | None = None) -> None:
        if hasattr(self.player, "reset"):
            self.player.reset(seed)

    def act(self, env: raw_env, seat: int) -> int:
        game = env.game
        if (game.phase == Phase.TRADE_ANSWER and env.draft is None and game.offer is not None
                and game.offer[0] == self.outsider):
            return REJECT_ID
        return self.player.act(env, seat)


def lineup(player: str, opponents: list[str], seats: int) -> tuple[str, ...]:
    """The arena lineup: ``player``, then ``opponents`` in turn until ``seats`` are filled."""
    return (player, *(opponents[s % len(opponents)] for s in range(seats - 1)))


def win_share(player: str, opponents: list[str], seats: int, index: int, seed: int,
              clique: bool = True) -> float:
    """``player``'s share of game ``index``'s win, its rivals a clique unless ``clique`` is
    False."""
    def wrap(players: list, me: int, game_seed: int) -> list:
        # the arena's own players, reset for the game, each rival wrapped
        return [p if s == me else Clique(p, me) for s, p in enumerate(players)]

    return hero_share(lineup(player, opponents, seats), index, seed,
                      wrap if clique else lambda players, me, game_seed: players)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="hard",
                    help="comma-separated players, each measured in turn (not among the rivals)")
    ap.add_argument("--opponents", default="outside-chrisaacson-trading",
                    help="comma-separated rivals, repeated in turn to fill the table (seen ones)")
    ap.add_argument("--seats", type=int, default=6, choices=range(2, 7), metavar="2..6",
                    help="seats at the table (default 6)")
    ap.add_argument("--games", type=int, default=400, help="games a player (at least 1)")
    ap.add_argument("--seed", type=int, default=31, help="the run's seed, as the arena's")
    ap.add_argument("--open", action="store_true",
                    help="the same games with rivals that answer the player as anyone else")
    args = ap.parse_args(argv)
    players, opponents = args.player.split(","), args.opponents.split(",")
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    try:
        for name in {*players, *opponents}:
            make_agent(name)
    except ValueError as exc:
        ap.error(str(exc))
    clash = sorted(set(players) & set(opponents))
    if clash:
        ap.error(f"--player and --opponents must differ, both name {clash[0]!r}")
    rivals = "open table" if args.open else "a clique"
    print(f"{args.seats} seats, rivals {', '.join(lineup('', opponents, args.seats)[1:])} "
          f"({rivals}): {args.games} games a player, seed {args.seed}, seats rotated")
    for player in players:
        print_win_rate(player, (win_share(player, opponents, args.seats, i, args.seed,
                                          not args.open) for i in range(args.games)), args.games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
