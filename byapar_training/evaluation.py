"""Evaluation of a snapshot during training: arena games on the run's tables (the arena's own
code, seeded), noted in state.json and eval.csv, the same for both trainers.

The tables: three medium players, and one heads-up; Byapar's league runs also three
strategists and five guardians; ``--eval-tables OPPONENT:COUNT,...`` any others. A Businessman
run (``--game businessman``) plays Businessman's arena.
"""

from __future__ import annotations

import csv
from pathlib import Path

from byapar_harness.arena import ArenaConfig, run_arena

from .config import Config, names
from .games import BYAPAR, trained_game
from .run_folder import write_state

EVAL_TABLES = (("vs3medium", "medium", 3), ("vs1medium", "medium", 1))
# League runs are judged against a strategic panel member as well.
LEAGUE_EVAL_TABLES = EVAL_TABLES + (("vs3strategist", "strategist", 3),
                                    ("vs5guardian", "guardian", 5))


def parse_eval_tables(text: str) -> tuple[tuple[str, str, int], ...]:
    """``OPPONENT:COUNT,...`` as evaluation tables labelled ``vs{COUNT}{name}``."""
    tables = []
    for item in names(text):
        name, _, count = item.rpartition(":")
        if not name or not count.isdigit() or not 1 <= int(count) <= 5:
            raise ValueError(f"--eval-tables takes OPPONENT:COUNT items with COUNT from 1 to 5, "
                             f"got {item!r}")
        tables.append((f"vs{count}{Path(name).name}", name, int(count)))
    return tuple(tables)


def evaluate(folder: Path, games: int, seed: int, workers: int,
             tables=EVAL_TABLES, game: str = BYAPAR) -> dict:
    """The snapshot's win rate and 95% interval at each table (the snapshot plus the
    opponent's copies), in ``game``'s arena, at the round limit of its evaluation tables."""
    options = {"game": game, "rounds": trained_game(game).rounds}
    out = {}
    for label, other, others in tables:
        summary = run_arena(ArenaConfig(players=(str(folder),) + (other,) * others,
                                        games=games, seed=seed, workers=workers, **options))
        me = summary["players"][str(folder)]
        out[f"{label}_win_rate"] = me["win_rate"]
        out[f"{label}_ci_low"], out[f"{label}_ci_high"] = me["ci95"]
    return out


def record_evaluation(folder: Path, steps: int, run: Path, state: dict, config: Config) -> dict:
    """Evaluate a snapshot on the run's tables, note it in state.json and eval.csv, print it
    (both trainers)."""
    league = (config.league or config.exploiters) and trained_game(config.game).league_tables
    tables = LEAGUE_EVAL_TABLES if league else EVAL_TABLES
    if config.eval_tables:
        tables = parse_eval_tables(config.eval_tables)
    result = evaluate(folder, config.eval_games, config.seed + 17, config.eval_workers, tables,
                      config.game)
    state["evaluated_at"] = steps
    write_state(run, state)
    row = {"steps": steps, "wall_seconds": round(state["wall_seconds"], 1),
           "episodes": state["episodes"], **result}
    path = run / "eval.csv"
    new = not path.exists()
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)
    print(f"eval at step {steps:,}: "
          + ", ".join(f"{k} {v:.3f}" for k, v in result.items()), flush=True)
    return result
