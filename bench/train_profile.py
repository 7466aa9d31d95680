"""Where a training step's time goes: one short real training run under cProfile.

    python -m bench.train_profile [--steps 8192] [--envs 1]

Runs ``byapar train`` (byapar_training/selfplay.py) in one process (``--envs 1``: SB3's
DummyVecEnv, so
the environments, the opponents and the learner all show in one profile) from the shipped hard
checkpoint against league opponents (medium, strategist and the learner's snapshots), and
prints the cumulative time of each part as a share of the run. ``docs/training_profile.md``
holds the figures and what they led to.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
from pathlib import Path

from byapar_agents.hard import DEFAULT_CHECKPOINT

PARTS = {
    "collect rollouts (all below)": lambda f, n: n == "collect_rollouts",
    "  learner forward passes (policy, one call a step)":
        lambda f, n: n == "forward" and "maskable" in f and "policies" in f,
    "  environment step (learner's action and the other seats)":
        lambda f, n: n == "step" and f.endswith("single_seat.py"),
    "    other seats' decisions and steps": lambda f, n: n == "_play_others",
    "      learned opponents (numpy forward passes)":
        lambda f, n: n == "act" and f.endswith("hard.py"),
    "      hand-written opponents": lambda f, n: n == "choose" and f.endswith("panel.py"),
    "    observation": lambda f, n: n == "observe" and f.endswith("byapar_v0.py"),
    "  action masks": lambda f, n: n == "action_masks",
    "PPO update": lambda f, n: n == "train" and "ppo_mask" in f,
}


def main(argv: list[str] | None = None) -> dict:
    from byapar_training.config import Config
    from byapar_training.selfplay import train

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=8192)
    ap.add_argument("--envs", type=int, default=1, help="1: everything in one process")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(run_dir=str(Path(tmp) / "run"), total_steps=args.steps,
                        n_envs=args.envs, n_workers=1, n_steps=min(2048, args.steps),
                        batch_size=512, init_from=str(DEFAULT_CHECKPOINT),
                        league="medium,strategist", latest_share=0.3, table_sizes=(3, 4, 5, 6),
                        save_every=10**9, eval_every=10**9, eval_games=1,
                        eval_tables="medium:1")
        profile = cProfile.Profile()
        profile.enable()
        train(config)
        profile.disable()
    stats = pstats.Stats(profile)
    total = stats.total_tt
    shares = {}
    for label, match in PARTS.items():
        cum = max((ct for (f, _, n), (_, _, _, ct, _) in stats.stats.items() if match(f, n)),
                  default=0.0)
        shares[label] = cum / total
        print(f"{label:<62} {cum:7.2f} s {cum / total:6.1%}")
    print(f"{'whole run':<62} {total:7.2f} s")
    return shares


if __name__ == "__main__":
    main()
