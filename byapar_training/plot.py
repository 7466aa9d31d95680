"""The evaluation win rate against training steps:
``python -m byapar_training.plot RUN [OUT.png] [--branch RUN2]``.

``--branch`` adds a run that was forked from RUN's folder and trained on (for instance the
heads-up specialist): its evaluations after the fork are drawn dashed.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

SERIES = (("vs3medium", "against three medium (4 seats)", "#3a7ca5", 0.40),
          ("vs1medium", "against one medium (heads-up)", "#d1495b", 0.65),
          # league runs' tables (drawn when the run has them): 1.3x chance is the bar
          ("vs3strategist", "against three strategists (4 seats)", "#2a9d5c", 0.325),
          ("vs5guardian", "against five guardians (6 seats)", "#8d6cab", 1.3 / 6))


def _evaluations(run_dir: str | Path) -> list[dict[str, float]]:
    with (Path(run_dir) / "eval.csv").open() as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def plot_training(run_dir: str | Path, out: str | Path, branch: str | Path | None = None,
                  branch_label: str = "heads-up branch") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = _evaluations(run_dir)
    series = [s for s in SERIES if f"{s[0]}_win_rate" in rows[0]]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label, colour, bar in series:
        steps = [r["steps"] / 1e6 for r in rows]
        ax.plot(steps, [r[f"{key}_win_rate"] for r in rows], marker="o", color=colour,
                label=label)
        ax.fill_between(steps, [r[f"{key}_ci_low"] for r in rows],
                        [r[f"{key}_ci_high"] for r in rows], color=colour, alpha=0.15)
        ax.axhline(bar, color=colour, linestyle=":", linewidth=1)
    if branch is not None:
        seen = {r["steps"] for r in rows}
        fork = max(r["steps"] for r in rows)
        own = [r for r in _evaluations(branch) if r["steps"] not in seen and r["steps"] > fork]
        for key, label, colour, _ in series:
            last = rows[-1]
            ax.plot([last["steps"] / 1e6] + [r["steps"] / 1e6 for r in own],
                    [last[f"{key}_win_rate"]] + [r[f"{key}_win_rate"] for r in own],
                    marker=".", linestyle="--", color=colour, label=f"{label}, {branch_label}")
    ax.axhline(0.25, color="grey", linestyle="--", linewidth=1, label="chance at 4 seats")
    ax.set_xlabel("training steps (millions of learner decisions)")
    ax.set_ylabel("win rate, 95% interval")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize=7)
    ax.set_title("The hard player in training (dotted: the strength bars)")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m byapar_training.plot",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("run")
    ap.add_argument("out", nargs="?", default="docs/training.png")
    ap.add_argument("--branch", help="a run forked from RUN's folder, drawn dashed after the fork")
    ap.add_argument("--branch-label", default="heads-up branch")
    args = ap.parse_args(argv)
    plot_training(args.run, args.out, args.branch, args.branch_label)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
