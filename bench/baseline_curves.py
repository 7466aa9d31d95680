"""Baselines for a new method to beat: PPO from scratch, several seeds, learning curves.

    python -m bench.baseline_curves --out runs/baselines [--seeds 0,1,2] [--steps 300000]
                                    [--points 4] [--games 40] [--workers 2]

For each seed, ``byapar train --trainer compact`` from scratch (no imitation, no checkpoint)
against the panel and medium (a league of the hand-written players), saving a snapshot at
``--points`` even steps. Each snapshot (the untrained one included) is then measured, seats
rotated, ``--games`` seeded games a table (seed 0): its win rate with three medium players, and
its worst case against the unseen outside players (each at a four-seat table with three copies;
the lowest win rate as a multiple of chance). Training never sees those players. Everything is
written to ``OUT/curves.json`` as it is measured, so the same command goes on from there; the
table is printed as Markdown and, with matplotlib, drawn to ``OUT/curves.png``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from byapar_agents.outside import UNSEEN_OUTSIDE
from byapar_agents.panel import PANEL_NAMES
from byapar_harness.arena import ArenaConfig, run_arena

LEAGUE = ",".join((*PANEL_NAMES, "medium"))


def train(out: Path, seed: int, steps: int, points: int) -> Path:
    """The seed's run folder, trained to ``steps`` (a finished run is left as it is)."""
    run = out / f"seed{seed}"
    every = steps // points
    subprocess.run([sys.executable, "-m", "byapar_cli", "train", "--trainer", "compact",
                    "--run-dir", str(run), "--seed", str(seed), "--total-steps", str(steps),
                    "--imitation-games", "0", "--league", LEAGUE, "--n-envs", "32",
                    "--n-steps", "128", "--n-workers", "1", "--save-every", str(every),
                    "--eval-every", str(steps), "--eval-games", "2"],
                   check=True, stdout=subprocess.DEVNULL)
    return run


def measure(folder: Path, games: int, workers: int) -> dict:
    """A snapshot's win rate with three medium players and its unseen worst case."""
    def rate(opponent: str) -> dict:
        summary = run_arena(ArenaConfig(players=(str(folder),) + (opponent,) * 3, games=games,
                                        seed=0, workers=workers))
        me = summary["players"][str(folder)]
        return {"win_rate": me["win_rate"], "ci95": me["ci95"]}

    unseen = {name: rate(name) for name in UNSEEN_OUTSIDE}
    worst = min(unseen, key=lambda k: unseen[k]["win_rate"])
    return {"medium": rate("medium"), "unseen": unseen, "worst_unseen": worst,
            "worst_unseen_multiple": unseen[worst]["win_rate"] / 0.25}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder for the runs and curves.json")
    ap.add_argument("--seeds", default="0,1,2", help="comma-separated training seeds")
    ap.add_argument("--steps", type=int, default=300_000, help="learner steps a seed")
    ap.add_argument("--points", type=int, default=4, help="snapshots measured after the start")
    ap.add_argument("--games", type=int, default=40, help="games a table and snapshot")
    ap.add_argument("--workers", type=int, default=2, help="arena processes")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "curves.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    settings = {"steps": args.steps, "points": args.points, "games": args.games,
                "league": LEAGUE}
    if data.get("settings") != settings:
        data = {"settings": settings, "runs": {}}
    for seed in (int(s) for s in args.seeds.split(",")):
        run = train(out, seed, args.steps, args.points)
        cells = data["runs"].setdefault(str(seed), {})
        for folder in sorted((run / "pool").glob("step_*")):
            step = str(int(folder.name.split("_")[1]))
            if step in cells:
                continue
            cells[step] = measure(folder, args.games, args.workers)
            path.write_text(json.dumps(data, indent=2))
            print(f"seed {seed} step {int(step):,}: medium {cells[step]['medium']['win_rate']:.1%}"
                  f", unseen worst {cells[step]['worst_unseen_multiple']:.2f}x "
                  f"({cells[step]['worst_unseen']})", file=sys.stderr, flush=True)
    print(table(data))
    try:
        plot(data, out / "curves.png")
    except ModuleNotFoundError:
        print("matplotlib is not installed: no chart", file=sys.stderr)
    return data


def table(data: dict) -> str:
    """Steps against the seeds' mean win rate with medium and mean unseen worst case."""
    steps = sorted({int(s) for cells in data["runs"].values() for s in cells})
    lines = ["| learner steps | win rate, 3 medium (mean of seeds) | each seed | unseen worst "
             "case, 4 seats (mean) | each seed |", "|---|---|---|---|---|"]
    for step in steps:
        cells = [c[str(step)] for c in data["runs"].values() if str(step) in c]
        medium = [c["medium"]["win_rate"] for c in cells]
        worst = [c["worst_unseen_multiple"] for c in cells]
        lines.append(f"| {step:,} | {statistics.mean(medium):.1%} | "
                     f"{', '.join(f'{m:.1%}' for m in medium)} | {statistics.mean(worst):.2f}x | "
                     f"{', '.join(f'{w:.2f}x' for w in worst)} |")
    return "\n".join(lines)


def plot(data: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for seed, cells in data["runs"].items():
        steps = sorted(int(s) for s in cells)
        left.plot(steps, [cells[str(s)]["medium"]["win_rate"] for s in steps], marker="o",
                  label=f"seed {seed}")
        right.plot(steps, [cells[str(s)]["worst_unseen_multiple"] for s in steps], marker="o",
                   label=f"seed {seed}")
    left.axhline(0.25, color="black", linewidth=1)
    right.axhline(1.0, color="black", linewidth=1)
    left.set(xlabel="learner steps", ylabel="win rate", title="with three medium players")
    right.set(xlabel="learner steps", ylabel="win rate / chance",
              title="unseen worst case (4 seats)")
    left.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    main()
