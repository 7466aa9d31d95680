"""Where the hard player's edge comes from: the hard player with its offers left out by source
(``LearnedPlayer(offers=...)``), against the hard player itself on the same arena games, with the
deals made at the table (docs/expert_iteration.md, "Where the hard player's edge comes from").

    python -m bench.hard_offers --opponents medium,medium,medium --games 200 --seed 61

Variants: ``both`` (the hard player), ``module`` (the deal module's offers only), ``policy``
(the offers its policy composes only), ``none`` (no offers; its answers as ever). Each table is
``byapar arena``'s: the hero in the first seat of the lineup, rotated by the game's number, game
``i`` seeded from ``--seed`` and ``i`` alone, so every variant meets the same dice. Measure on
seen opponents only: the gauntlet's unseen ones are for the final report.
"""

from __future__ import annotations

import argparse
import re

from bench.common import print_variants
from bench.seated import check_opponents, hero_share
from byapar_agents.hard import OFFER_SOURCES, LearnedPlayer
from byapar_env.engine import Game

VARIANTS = {"both": OFFER_SOURCES, "module": ("module",), "policy": ("policy",), "none": ()}
_OFFER = re.compile(r"seat (\d+) offers seat (\d+)")
# The deals of a game, by who offered: the hero (taken by a rival), a rival to the hero (taken,
# refused), a rival to another rival (taken).
DEAL_KINDS = ("hero's taken", "to hero, taken", "to hero, refused", "among rivals")


def deal_counts(log: list[str], hero: int) -> dict[str, int]:
    """The deals of a game's log, counted by ``DEAL_KINDS`` for seat ``hero``."""
    counts = dict.fromkeys(DEAL_KINDS, 0)
    last = None
    for line in log:
        m = _OFFER.match(line)
        if m:
            last = int(m.group(1)), int(m.group(2))
        elif last is not None and line.endswith(("accepts the trade", "declines the trade")):
            taken = line.endswith("accepts the trade")
            if last[0] == hero:
                counts["hero's taken"] += taken
            elif last[1] == hero:
                counts["to hero, taken" if taken else "to hero, refused"] += 1
            else:
                counts["among rivals"] += taken
            last = None
    return counts


def play(offers: tuple[str, ...], lineup: tuple[str, ...], index: int, seed: int,
         tally: dict[str, int]) -> float:
    """The hero's share of game ``index``'s win (ties split), its deals added to ``tally``."""
    def offering(players: list, me: int, game_seed: int) -> list:
        hero = LearnedPlayer(name="hard", offers=offers)
        hero.reset(game_seed + me)
        return [hero if s == me else p for s, p in enumerate(players)]

    def count(game: Game, me: int) -> None:
        for kind, n in deal_counts(game.log, me).items():
            tally[kind] = tally.get(kind, 0) + n

    return hero_share(lineup, index, seed, offering, count)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponents", default="medium,medium,medium",
                    help="comma-separated opponents, 1 to 5 (seen ones)")
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help=f"comma-separated, of {', '.join(VARIANTS)}")
    ap.add_argument("--games", type=int, default=200, help="games a variant (at least 1)")
    ap.add_argument("--seed", type=int, default=61, help="the run's seed, as the arena's")
    args = ap.parse_args(argv)
    opponents = args.opponents.split(",")
    variants = args.variants.split(",")
    try:
        unknown = [v for v in variants if v not in VARIANTS]
        if unknown:
            raise ValueError(f"unknown variant {unknown[0]!r}; the variants: {', '.join(VARIANTS)}")
        check_opponents(opponents)
    except ValueError as exc:
        ap.error(str(exc))
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    lineup = ("hard", *opponents)
    print(f"hard + {', '.join(opponents)}: {args.games} games a variant, seed {args.seed}, "
          "seats rotated", flush=True)
    tallies: dict[str, dict[str, int]] = {name: {} for name in variants}
    rows = ((name, (play(VARIANTS[name], lineup, i, args.seed, tallies[name])
                    for i in range(args.games))) for name in variants)
    for name in print_variants(rows, args.games, width=8):
        print("         deals a game: " + ", ".join(
            f"{k} {tallies[name].get(k, 0) / args.games:.2f}" for k in DEAL_KINDS), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
