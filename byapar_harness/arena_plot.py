"""A bar chart of an arena run's win rates with their 95% intervals."""

from __future__ import annotations


def plot_win_rates(summary: dict, path: str) -> None:
    """Save the chart to ``path`` (PNG, or any format matplotlib knows by the file ending)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise RuntimeError("--plot needs matplotlib: pip install matplotlib") from exc
    kinds = list(summary["players"])
    rates = [summary["players"][k]["win_rate"] for k in kinds]
    lows = [r - summary["players"][k]["ci95"][0] for k, r in zip(kinds, rates, strict=True)]
    highs = [summary["players"][k]["ci95"][1] - r for k, r in zip(kinds, rates, strict=True)]
    n = len(summary["config"]["players"])
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.bar(kinds, rates, yerr=[lows, highs], capsize=6, color="#3a7ca5")
    ax.axhline(1 / n, color="grey", linestyle="--", label=f"chance at {n} seats")
    ax.set_ylabel("win rate (shared wins split)")
    ax.set_ylim(0, 1)
    ax.set_title(f"{summary['run']['games']} games: {', '.join(summary['config']['players'])}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
