"""Which of a Businessman player's decisions lose to the medium player's? Hand one phase at a time
to medium's rules and measure the win rate against medium (docs/businessman_env.md, "The
shipped hard now").

    python -m bench.businessman_phase_swap --player byapar_checkpoints/businessman_hard --games 400
    python -m bench.businessman_phase_swap --swap none,EXCHANGE_CARD+PICK_COLOUR

Each row plays ``--games`` games heads-up and as many with three medium players, 20 rounds,
seats rotated; game ``i`` is seeded ``seed * 100_000 + i``, so every row plays the same deals.
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


def win_rate(make, games: int, seats: int, seed: int) -> float:
    """The share of ``games`` won by the player ``make()`` builds against medium players."""
    won = 0.0
    for i in range(games):
        mine = i % seats
        players = [make() if s == mine else MediumPlayer() for s in range(seats)]
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
    args = ap.parse_args(argv)
    try:
        parsed = phase_variants(args.swap, Phase, SWAPPABLE)
    except ValueError as exc:
        ap.error(str(exc))
    print(f"{args.player}, {args.games} games a table, seed {args.seed}, 20 rounds")
    for name, phases in parsed:
        began = time.perf_counter()
        row = []
        for seats in (2, 4):
            rate = win_rate(lambda p=phases: PhaseSwap(make_agent(args.player), p), args.games,
                            seats, args.seed)
            low, high = wilson(rate * args.games, args.games)
            row.append(f"{rate:6.1%} ({low:.1%} - {high:.1%})")
        print(f"{name:28s} heads-up {row[0]}   + 3 medium {row[1]}   "
              f"{time.perf_counter() - began:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
