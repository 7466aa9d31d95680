"""The evaluation win rate against training steps: ``python -m training.plot RUN OUT.png``."""

from __future__ import annotations

import csv
import sys
from pathlib import Path


def plot_training(run_dir: str | Path, out: str | Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with (Path(run_dir) / "eval.csv").open() as f:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    steps = [r["steps"] / 1e6 for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label, colour, bar in (("vs3medium", "against three medium (4 seats)", "#3a7ca5",
                                     0.40),
                                    ("vs1medium", "against one medium (heads-up)", "#d1495b",
                                     0.65)):
        ax.plot(steps, [r[f"{key}_win_rate"] for r in rows], marker="o", color=colour,
                label=label)
        ax.fill_between(steps, [r[f"{key}_ci_low"] for r in rows],
                        [r[f"{key}_ci_high"] for r in rows], color=colour, alpha=0.15)
        ax.axhline(bar, color=colour, linestyle=":", linewidth=1)
    ax.axhline(0.25, color="grey", linestyle="--", linewidth=1, label="chance at 4 seats")
    ax.set_xlabel("training steps (millions of learner decisions)")
    ax.set_ylabel("win rate, 95% interval")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize=8)
    ax.set_title("The hard player in training (dotted: the strength bars)")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    plot_training(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "docs/training.png")
