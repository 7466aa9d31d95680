"""How often the rival reader names the right kind, at tables of known players.

    python -m bench.rival_reading [--games 60] [--players 4] [--seed 0]

Each game seats kinds drawn from the reader's portfolio (``byapar_agents.rival_reader.PORTFOLIO``;
game
``g``'s draw from ``--seed`` and ``g``), plays it on the engine as the arena does, and reads
every seat from its decisions. At rounds 5, 10 and 20 and at the end, a seat counts as named
when the reader's most probable kind is the seat's own; the share named carries a 95% Wilson
interval. Also: the share where the right kind is among the three most probable, the share
named at the end by family (the panel's styles and medium are one family: medium's mechanics),
and the reader's time per decision read.
"""

from __future__ import annotations

import argparse
import random
import time

from byapar_agents.rival_reader import PORTFOLIO, RivalReader
from byapar_env.driver import NO_DECISION_CAP, SeatDriver
from byapar_env.engine import Game, Rules
from byapar_env.stats import wilson

CHECKS = (5, 10, 20)  # rounds at which the reading is scored, and at the end
_MEDIUM_FAMILY = {"medium", "guardian", "completer", "shark", "builder", "hoarder", "trader",
                  "strategist"}


def family(kind: str) -> str:
    return "medium" if kind in _MEDIUM_FAMILY else kind


def read_game(seed: int, players: int) -> tuple[list[str], dict, float, int]:
    """One game: the kinds seated, each checkpoint's (named, top three, family) per seat, the
    reader's seconds and the decisions it read."""
    rng = random.Random(seed)
    kinds = [rng.choice(list(PORTFOLIO)) for _ in range(players)]
    seated = [PORTFOLIO[k]() for k in kinds]
    for s, p in enumerate(seated):
        p.reset(seed + s)
    reader = RivalReader(players, seed=seed + 1_000)
    driver = SeatDriver.for_game(Game(Rules(num_players=players), seed=seed),
                                 max_decisions=NO_DECISION_CAP)
    game = driver.game
    checks: dict = {}
    spent = 0.0
    read = 0

    def score(label) -> None:
        rows = []
        for s, kind in enumerate(kinds):
            post = reader.posterior(s)
            top = sorted(post, key=lambda k: -post[k])[:3]
            rows.append((reader.named(s) == kind, kind in top,
                         family(reader.named(s)) == family(kind)))
        checks[label] = rows

    pending = list(CHECKS)
    while legal := driver.engine_choices():
        while pending and game.round >= pending[0]:
            score(pending.pop(0))
        seat = game.current_player
        action = seated[seat].choose(game, seat, legal)
        start = time.perf_counter()
        reader.observe(game, seat, legal, action)
        spent += time.perf_counter() - start
        read += len(legal) > 1
        driver.take_engine(action)
    score("end")
    return kinds, checks, spent, read


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    totals: dict = {}
    spent = 0.0
    read = 0
    for g in range(args.games):
        _, checks, s, r = read_game(args.seed * 1_000_003 + g, args.players)
        spent += s
        read += r
        for label, rows in checks.items():
            totals.setdefault(label, []).extend(rows)
    print(f"rival reading: {args.games} games of {args.players} seats, kinds drawn from "
          f"{len(PORTFOLIO)}, seed {args.seed}")
    for label in (*CHECKS, "end"):
        rows = totals.get(label, [])
        if not rows:
            continue
        n = len(rows)
        named = sum(r[0] for r in rows)
        lo, hi = wilson(named, n)
        where = f"round {label}" if label != "end" else "the end"
        print(f"  at {where:9} named {named / n:6.1%} ({lo:.1%}-{hi:.1%}) of {n} seats; "
              f"in the top three {sum(r[1] for r in rows) / n:.1%}; "
              f"family {sum(r[2] for r in rows) / n:.1%}")
    print(f"  chance: {1 / len(PORTFOLIO):.1%}; reader {spent / max(read, 1) * 1e6:,.0f} µs "
          f"a decision read ({read:,} read)")


if __name__ == "__main__":
    main()
