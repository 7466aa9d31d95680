"""Which of a Businessman player's decisions lose to the medium player's? Hand one phase at a time
to medium's rules and measure the win rate against medium and at the first table a user runs
(docs/businessman_env.md, "The shipped hard now" and "Answers by reckoning").

    python -m bench.businessman_phase_swap --player byapar_checkpoints/businessman_hard --games 400
    python -m bench.businessman_phase_swap --swap none,EXCHANGE_CARD+PICK_COLOUR
    python -m bench.businessman_phase_swap --tables mixed --games 1000

Each row plays ``--games`` games at each of ``--tables``: heads-up against medium (``2``), with
three medium players (``4``), and with one medium, one easy and one random player (``mixed``,
the README's table); 20 rounds, seats rotated; game ``i`` is seeded ``seed * 100_000 + i``, so
every row plays the same deals.
``--swap`` lists the variants to play, each a ``+``-joined set of phases handed to medium
(``none``: the player alone); by default the player alone and each phase by itself.
"""

from __future__ import annotations

import argparse
import time

from bench.common import phase_variants
from byapar_agents.businessman import BusinessmanPlayer, MediumPlayer, make_agent, play_game
from byapar_env.businessman import Action, Game, Phase, Rules
from byapar_env.stats import wilson

SWAPPABLE = tuple(p.name for p in Phase if p not in (Phase.TRADE_COMPOSE, Phase.GAME_OVER))


class PhaseSwap(BusinessmanPlayer):
    """``player`` everywhere except ``phases``, where a medium player chooses."""

    def __init__(self, player: BusinessmanPlayer, phases: frozenset[Phase]) -> None:
        self.player, self.medium, self.phases = player, MediumPlayer(), phases
        self.name = "+".join(sorted(p.name for p in phases)) or "none"

    def reset(self, seed: int | None = None) -> None:
        self.player.reset(seed)
        self.medium.reset(seed)

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        chooser = self.medium if game.phase in self.phases else self.player
        return chooser.choose(game, seat, legal)


# Each table's rivals, by the name ``--tables`` gives it.
TABLES = {"2": ("medium",), "4": ("medium",) * 3, "mixed": ("medium", "easy", "random")}
TABLE_TITLES = {"2": "heads-up", "4": "+ 3 medium", "mixed": "+ medium, easy, random"}


def win_rate(make, games: int, rivals: tuple[str, ...], seed: int) -> float:
    """The share of ``games`` won by the player ``make()`` builds against ``rivals`` (player
    names), the seats rotated from game to game."""
    won = 0.0
    seats = len(rivals) + 1
    for i in range(games):
        mine = i % seats
        others = iter(rivals[i % len(rivals):] + rivals[:i % len(rivals)])
        players = [make() if s == mine else make_agent(next(others), seed * 100_000 + i + s)
                   for s in range(seats)]
        for s, player in enumerate(players):
            player.reset(seed * 100_000 + i + s)
        game = Game(Rules(num_players=seats, max_rounds=20), seed=seed * 100_000 + i)
        play_game(game, players)
        if mine in game.winners:
            won += 1 / len(game.winners)
    return won / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="hard", help="a Businessman player name or folder")
    ap.add_argument("--games", type=int, default=400, help="games per table and variant")
    ap.add_argument("--seed", type=int, default=1, help="the games' seed")
    ap.add_argument("--swap", default=None,
                    help="comma-separated variants, each PHASE+PHASE or none (default: each "
                         f"phase alone; phases: {', '.join(SWAPPABLE)})")
    ap.add_argument("--tables", default="2,4",
                    help=f"comma-separated tables, each of {', '.join(TABLES)} (default 2,4)")
    args = ap.parse_args(argv)
    try:
        parsed = phase_variants(args.swap, Phase, SWAPPABLE)
    except ValueError as exc:
        ap.error(str(exc))
    tables = args.tables.split(",")
    unknown = [t for t in tables if t not in TABLES]
    if unknown:
        ap.error(f"unknown table {unknown[0]!r}: expected some of {', '.join(TABLES)}")
    print(f"{args.player}, {args.games} games a table, seed {args.seed}, 20 rounds")
    for name, phases in parsed:
        began = time.perf_counter()
        row = []
        for table in tables:
            rate = win_rate(lambda p=phases: PhaseSwap(make_agent(args.player), p), args.games,
                            TABLES[table], args.seed)
            low, high = wilson(rate * args.games, args.games)
            row.append(f"{TABLE_TITLES[table]} {rate:6.1%} ({low:.1%} - {high:.1%})")
        print(f"{name:28s} {'   '.join(row)}   {time.perf_counter() - began:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
