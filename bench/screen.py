"""The seen screen: a candidate player against a baseline (the hard player) on seven seen tables,
the same arena games for both, and the verdict of a rule fixed before any game is played
(docs/expert_iteration.md, "The seen screen").

    python -m bench.screen --candidate hard-consolidating --run-dir ../runs/screen

The tables mix rivals that judge deals worse than the hard player (three and five
``outside-chrisaacson-trading``, three ``medium``, five ``completer``, five population training
seeds) with rivals that judge them as it does (three and five ``hard``), so a candidate that
only wins more deals from weak judges is seen as such. Each table is ``byapar arena``'s first
``--games`` games of ``--seed`` (seats rotated, game ``i`` seeded from the seed and ``i``
alone); the figure is the share won by the seat of the lineup's first player. The rule:

- the candidate's mean over the tables at least ``MEAN_GAIN`` (one point) above the baseline's;
- no table more than ``WORST_LOSS`` (three points) below;
- the mean of the equal-judge tables not below the baseline's.

Beside each table's gain the screen prints its standard error over the games' paired
differences and how many games' outcome changed (``paired``). The games are the same, but one
changed decision sends a game down another road: a candidate that is no different in strength
still changes the outcome of some games, so a few points at one table can be chance alone
(docs/expert_iteration.md, "The screen's noise").

A table's shares are kept in ``--run-dir`` (one file per player, table, games and seed): a
stopped screen resumes, and the baseline is played once for every candidate screened after it.
A passing candidate goes once to the unseen gate; the screen never seats an unseen player.
"""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import dataclass
from pathlib import Path

from bench.common import paired
from bench.seated import hero_share
from byapar_agents import make_agent
from byapar_agents.outside import UNSEEN_OUTSIDE
from byapar_harness.arena import worker_pool

_CT = "outside-chrisaacson-trading"
TABLES: dict[str, tuple[str, ...]] = {
    "medium-3": ("medium",) * 3,
    "trading-3": (_CT,) * 3,
    "trading-5": (_CT,) * 5,
    "completer-5": ("completer",) * 5,
    "population-5": ("pop-3", "pop-5", "pop-6", "pop-7", "pop-11"),
    "hard-3": ("hard",) * 3,
    "hard-5": ("hard",) * 5,
}
EQUAL_JUDGES = ("hard-3", "hard-5")
MEAN_GAIN = 1.0  # points the candidate's mean must clear the baseline's by
WORST_LOSS = 3.0  # points no table may fall by


@dataclass(frozen=True)
class Verdict:
    """The rule applied to per-table win rates in points (the same tables for both)."""

    mean_gain: float
    worst: tuple[str, float]  # the table the candidate loses most at, and by how much
    equal_judges_gain: float

    @property
    def passed(self) -> bool:
        return (self.mean_gain >= MEAN_GAIN and self.worst[1] >= -WORST_LOSS
                and self.equal_judges_gain >= 0)


def verdict(baseline: dict[str, float], candidate: dict[str, float]) -> Verdict:
    """The rule's verdict on win rates in points by table; both must hold every table of
    ``TABLES``."""
    missing = sorted(set(TABLES) - set(baseline) | set(TABLES) - set(candidate))
    if missing:
        raise ValueError(f"a verdict needs every table; missing: {', '.join(missing)}")
    gains = {t: candidate[t] - baseline[t] for t in TABLES}
    worst = min(gains.items(), key=lambda kv: kv[1])
    return Verdict(statistics.fmean(gains.values()), worst,
                   statistics.fmean(gains[t] for t in EQUAL_JUDGES))


def _as_seated(players: list, seat: int, game_seed: int) -> list:
    return players


def _share(job: tuple[tuple[str, ...], int, int]) -> float:
    lineup, index, seed = job
    return hero_share(lineup, index, seed, _as_seated)


def table_shares(player: str, table: str, games: int, seed: int, workers: int,
                 run_dir: Path | None) -> list[float]:
    """``player``'s share of each of the table's ``games`` games, read from ``run_dir`` if
    played before."""
    # A checkpoint folder names a player too: its path's separators kept out of the file name
    kept = player.replace("/", "_").replace("\\", "_")
    path = run_dir / f"{kept}--{table}--{games}--{seed}.json" if run_dir else None
    if path is not None and path.exists():
        return json.loads(path.read_text())["shares"]
    jobs = [((player, *TABLES[table]), i, seed) for i in range(games)]
    if workers > 1:
        with worker_pool(workers) as pool:
            shares = pool.map(_share, jobs, chunksize=max(1, games // (4 * workers)))
    else:
        shares = [_share(job) for job in jobs]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"player": player, "table": table, "games": games,
                                    "seed": seed, "shares": shares}))
    return shares


def table_rate(player: str, table: str, games: int, seed: int, workers: int,
               run_dir: Path | None) -> float:
    """``player``'s win rate in points at ``table`` (``table_shares``' mean)."""
    return 100 * statistics.fmean(table_shares(player, table, games, seed, workers, run_dir))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--candidate", required=True, help="a player name (not an unseen one)")
    ap.add_argument("--baseline", default="hard", help="the player it must beat (default: hard)")
    ap.add_argument("--games", type=int, default=200, help="games a table (default 200)")
    ap.add_argument("--seed", type=int, default=61, help="the arena's seed (default 61)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--run-dir", type=Path, default=None,
                    help="where each table's shares are kept, so a screen resumes")
    args = ap.parse_args(argv)
    try:
        for name in (args.candidate, args.baseline):
            if name in UNSEEN_OUTSIDE:
                raise ValueError(f"{name} is an unseen player: the screen seats seen ones only")
            make_agent(name)
        if args.games < 2 or args.workers < 1:
            raise ValueError(f"--games must be at least 2 (the games are compared in pairs) "
                             f"and --workers at least 1, got {args.games} and {args.workers}")
    except ValueError as exc:
        ap.error(str(exc))
    print(f"screen of {args.candidate} against {args.baseline}: the first {args.games} arena "
          f"games of seed {args.seed} at each table, seats rotated", flush=True)
    rates: dict[str, dict[str, float]] = {args.baseline: {}, args.candidate: {}}
    for table in TABLES:
        shares = {player: table_shares(player, table, args.games, args.seed, args.workers,
                                       args.run_dir) for player in rates}
        for player, kept in shares.items():
            rates[player][table] = 100 * statistics.fmean(kept)
        base, cand = rates[args.baseline][table], rates[args.candidate][table]
        pair = paired(shares[args.baseline], shares[args.candidate])
        print(f"{table:14s} {args.baseline} {base:5.1f}  {args.candidate} {cand:5.1f}  "
              f"{cand - base:+5.1f} (se {pair.standard_error:.1f}, {pair.changed} games "
              "changed)", flush=True)
    v = verdict(rates[args.baseline], rates[args.candidate])
    print(f"mean {v.mean_gain:+.2f} (needs {MEAN_GAIN:+.1f}); worst {v.worst[0]} "
          f"{v.worst[1]:+.1f} (needs {-WORST_LOSS:+.1f} or better); equal judges "
          f"{v.equal_judges_gain:+.2f} (needs +0.0 or better): "
          f"{'PASSES' if v.passed else 'FAILS'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
