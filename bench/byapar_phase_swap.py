"""Which of a Byapar player's decisions lose to another player's? Hand one phase at a time to
medium (or ``--donor``) and measure the win rate against given opponents (docs/population.md,
docs/expert_iteration.md).

    python -m bench.byapar_phase_swap --opponents outside-chrisaacson-trading,pop-11,pop-12
    python -m bench.byapar_phase_swap --donor strategist --seats 6 --swap none,AUCTION

Each row plays ``--games`` games at ``--seats`` seats (default four) against copies of each
opponent, 40 rounds, Rs 15,000, auctions, seats rotated, through ``byapar_v0``; game ``i`` is
seeded ``seed * 100_000 + i``. ``--swap`` lists the variants, each a ``+``-joined set of phases
handed to the donor (``none``: the player alone); by default the player alone and each phase.
Measure on seen opponents only: the gauntlet's unseen ones are for the final report.
"""

from __future__ import annotations

import argparse
import time

from bench.common import phase_variants
from byapar_agents import make_agent, play_through_env
from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import NO_DECISION_CAP
from byapar_env.engine import Phase

SWAPPABLE = tuple(p.name for p in Phase if p != Phase.GAME_OVER)


class PhaseSwap:
    """``player`` everywhere except ``phases``, where a ``donor`` player (medium by default)
    acts (a trade draft under way is the phase's too, so whoever started it finishes it)."""

    engine_tables = False

    def __init__(self, player, phases: frozenset[Phase], donor: str = "medium") -> None:
        self.player, self.medium, self.phases = player, make_agent(donor), phases

    def reset(self, seed: int | None = None) -> None:
        for p in (self.player, self.medium):
            if hasattr(p, "reset"):
                p.reset(seed)

    def act(self, env: raw_env, seat: int) -> int:
        chooser = self.medium if env.game.phase in self.phases else self.player
        return chooser.act(env, seat)


def win_rate(player: str, phases: frozenset[Phase], opponent: str, games: int,
             seed: int, seats: int = 4, donor: str = "medium") -> float:
    """The share of ``games`` the swapped ``player`` wins against ``seats - 1`` copies of
    ``opponent``."""
    won = 0.0
    for i in range(games):
        mine = i % seats
        players = [PhaseSwap(make_agent(player), phases, donor) if s == mine
                   else make_agent(opponent)
                   for s in range(seats)]
        for s, p in enumerate(players):
            if hasattr(p, "reset"):
                p.reset(seed * 100_000 + i * 10 + s)
        env = raw_env(num_players=seats, rounds=40, starting_cash=15_000, auctions=True,
                      max_decisions=NO_DECISION_CAP)  # to the real end, as the arena plays
        env.reset(seed=seed * 100_000 + i)
        play_through_env(env, players)
        if mine in env.game.winners:
            won += 1 / len(env.game.winners)
    return won / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="hard", help="the player whose phases are swapped")
    ap.add_argument("--opponents", default="outside-chrisaacson-trading",
                    help="comma-separated opponent names (seen ones)")
    ap.add_argument("--games", type=int, default=300, help="games per opponent and variant")
    ap.add_argument("--seed", type=int, default=5, help="the games' seed")
    ap.add_argument("--swap", default=None, help="comma-separated variants, each PHASE+PHASE "
                    f"or none (default: each phase alone; phases: {', '.join(SWAPPABLE)})")
    ap.add_argument("--donor", default="medium",
                    help="the player who takes the swapped phases (default medium)")
    ap.add_argument("--seats", type=int, default=4, choices=range(2, 7), metavar="2..6",
                    help="seats at each table (default 4)")
    args = ap.parse_args(argv)
    try:
        parsed = phase_variants(args.swap, Phase, SWAPPABLE)
        make_agent(args.donor)
    except ValueError as exc:
        ap.error(str(exc))
    opponents = args.opponents.split(",")
    donor = "" if args.donor == "medium" else f", phases to {args.donor}"
    print(f"{args.player}, {args.seats} seats, {args.games} games an opponent, seed "
          f"{args.seed}{donor}")
    for name, phases in parsed:
        began = time.perf_counter()
        rates = [win_rate(args.player, phases, o, args.games, args.seed, args.seats,
                          args.donor) for o in opponents]
        cells = "  ".join(f"{o} {r:6.1%}" for o, r in zip(opponents, rates, strict=True))
        print(f"{name:24s} {cells}  {time.perf_counter() - began:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
