"""The shipped levels' results against each other: what ``byapar evaluate``'s rating scale is
anchored on.

    python -m bench.reference_ratings --game byapar --out runs/reference [--games 50] [--seed 0]
                                      [--workers 1] [--write]

For the game and each of its levels (random, easy, medium, hard), the level plays
the gauntlet's cells against each other level at 2, 4 and 6 seats: one seat against copies of
the other, seats rotated, ``--games`` seeded games a cell, the game's default rules: exactly the
cells ``byapar evaluate LEVEL --seed SEED --games GAMES`` plays against the levels. Each
finished cell goes to ``OUT/GAME_LEVEL.json`` at once (the gauntlet's file), so the same command
goes on from there. The ratings fitted to the cells (``byapar_harness.rating_scale``) are
printed; ``--write`` writes the game's cells into ``byapar_harness/reference_results.py``, the
committed table the scale reads (the other game's entry kept as it is). ``--summary`` plays
nothing: it prints, from the committed table, each level's rating with a 95% interval (from
``RESAMPLES`` fits to the table with each cell's games drawn again, with replacement, seeded)
and each cell's win rate beside the model's.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from byapar_env.games import available_games, find_game
from byapar_harness.gauntlet import GauntletConfig, run_gauntlet

LEVELS = ("random", "easy", "medium", "hard")
SIZES = (2, 4, 6)
RESAMPLES = 200
TABLE = Path(__file__).resolve().parents[1] / "byapar_harness" / "reference_results.py"


def measure(game: str, out: Path, games: int, seed: int, workers: int) -> list[tuple]:
    """Every cell of ``game`` as ``(player, opponent, size, wins, games)``."""
    spec = find_game(game)
    cells = []
    for player in LEVELS:
        config = GauntletConfig(player=player, opponents=tuple(o for o in LEVELS if o != player),
                                sizes=SIZES, games=games, seed=seed, workers=workers,
                                rounds=spec.default_rounds, game=spec.name)
        start = time.perf_counter()
        result = run_gauntlet(config, str(out / f"{game}_{player}.json"))
        print(f"{game} {player}: {time.perf_counter() - start:.0f} s", flush=True)
        for size in SIZES:
            for opponent in config.opponent_list():
                c = result["cells"][f"{opponent}@{size}"]
                # the arena's win rate of a seat, times its games: the wins, shares included
                cells.append((player, opponent, size, round(c["win_rate"] * c["games"], 6),
                              c["games"]))
    return cells


def module_text(tables: dict[str, dict]) -> str:
    lines = ['"""The shipped levels\' results against each other, the measurement the rating scale '
             'of',
             '``byapar evaluate`` is anchored on (``byapar_harness.rating_scale``).',
             '',
             'Written by ``python -m bench.reference_ratings --out DIR --write`` (the command, '
             'its games and',
             'seed are in docs/evaluate.md); not edited by hand. A cell: (player, opponent, '
             'table size, the',
             "player's wins, games), the player seated with copies of the opponent.",
             '"""',
             '',
             'REFERENCE_RESULTS: dict[str, dict] = {']
    for game, table in tables.items():
        lines.append(f'    "{game}": {{"games": {table["games"]}, "seed": {table["seed"]}, '
                     f'"rounds": {table["rounds"]}, "cells": (')
        for cell in table["cells"]:
            lines.append(f"        {cell!r},")
        lines.append("    )},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def summary(game: str) -> str:
    """Markdown tables of the committed measurement of ``game``: the levels' ratings, and each
    cell's win rate beside the one the ratings give."""
    import numpy as np

    from byapar_harness.rating import Cell, fit_ratings, win_chance
    from byapar_harness.rating_scale import ANCHOR, ANCHOR_RATING, PRIOR_GAMES, reference_ratings
    from byapar_harness.reference_results import REFERENCE_RESULTS

    table = REFERENCE_RESULTS[game]
    ratings = reference_ratings(game)
    rng = np.random.default_rng(0)
    draws = []
    for _ in range(RESAMPLES):
        cells = [Cell(p, o, n, float(rng.binomial(g, w / g)), g)
                 for p, o, n, w, g in table["cells"]]
        draws.append(fit_ratings(cells, ANCHOR, ANCHOR_RATING, PRIOR_GAMES))
    lines = ["| level | rating | 95% interval | won as the player |", "|---|---|---|---|"]
    for level, value in ratings.items():
        low, high = np.percentile([d[level] for d in draws], [2.5, 97.5])
        wins = sum(c[3] for c in table["cells"] if c[0] == level)
        games = sum(c[4] for c in table["cells"] if c[0] == level)
        interval = "the anchor" if level == ANCHOR else f"{low:,.0f} - {high:,.0f}"
        lines.append(f"| {level} | {value:,.0f} | {interval} | {wins:g} of {games} |")
    lines += ["", "| player | opponent | " + " | ".join(f"{n} seats: won (model)" for n in SIZES)
              + " |", "|---|---|" + "---|" * len(SIZES)]
    cells = {(p, o, n): w / g for p, o, n, w, g in table["cells"]}
    for p in ratings:
        for o in ratings:
            if p != o:
                row = [f"{cells[p, o, n]:.0%} ({win_chance(ratings[p], ratings[o], n):.0%})"
                       for n in SIZES]
                lines.append(f"| {p} | {o} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=available_games(), default=available_games()[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--write", action="store_true",
                    help="write the cells to byapar_harness/reference_results.py")
    ap.add_argument("--summary", action="store_true",
                    help="play nothing: the committed table's ratings and fit, as Markdown")
    args = ap.parse_args(argv)
    if args.summary:
        print(summary(args.game))
        return
    if args.out is None:
        ap.error("--out is required to measure (the cells are kept there)")
    args.out.mkdir(parents=True, exist_ok=True)
    cells = measure(args.game, args.out, args.games, args.seed, args.workers)
    table = {"games": args.games, "seed": args.seed,
             "rounds": find_game(args.game).default_rounds, "cells": tuple(cells)}
    if args.write:
        from byapar_harness.reference_results import REFERENCE_RESULTS

        TABLE.write_text(module_text({**REFERENCE_RESULTS, args.game: table}))
        print(f"wrote {TABLE.name}")
    from byapar_harness.rating import Cell, fit_ratings
    from byapar_harness.rating_scale import ANCHOR, ANCHOR_RATING, PRIOR_GAMES

    ratings = fit_ratings([Cell(*c) for c in table["cells"]], ANCHOR, ANCHOR_RATING,
                          PRIOR_GAMES)
    print(f"{args.game}: " + ", ".join(f"{k} {v:.0f}" for k, v in ratings.items()))


if __name__ == "__main__":
    main()
