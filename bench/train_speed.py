"""Training throughput: the compact trainer and the grouped SB3 layout beside today's trainer.

    python -m bench.train_speed [--steps 32768] [--envs 16] [--compact-envs 64] [--repeats 3]
                                [--json FILE]

Each run is the real ``byapar train`` (byapar_training/selfplay.py) in a fresh temporary run folder,
from the shipped hard checkpoint, with league opponents (medium, strategist and the learner's
snapshots, or its self-play seats) at tables of 3 to 6, for ``--steps`` learner steps. Its rate
is learner steps over the PPO wall time the run records (collection and updates; start-up and
the final evaluation are not counted). Three trainers, run one after the other in each repeat:

- **baseline**, today's trainer: SB3 with one environment per process in two processes
  (SubprocVecEnv, as every run before the grouped layout trained);
- **grouped**: SB3 with ``--envs`` environments in the same two processes
(byapar_training/vec_env.py);
- **compact**: ``--trainer compact`` (byapar_training/ppo.py), ``--compact-envs`` games in one
process
  (``--compact-workers``), every network batched and every learner seat sampled.

The figures are medians of ``--repeats``; ``ratio`` is compact over baseline (``grouped_ratio``
grouped over baseline). A learner step is one sample.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from byapar_agents.hard import DEFAULT_CHECKPOINT

from .common import baseline_ops_per_second


def one_run(steps: int, envs: int, workers: int, n_steps: int, trainer: str = "sb3") -> float:
    """Learner steps per second of one real training run."""
    from byapar_training.config import Config
    from byapar_training.selfplay import train

    with tempfile.TemporaryDirectory() as tmp:
        config = Config(run_dir=str(Path(tmp) / "run"), trainer=trainer, total_steps=steps,
                        n_envs=envs, n_workers=workers, n_steps=n_steps, batch_size=512,
                        init_from=str(DEFAULT_CHECKPOINT), league="medium,strategist",
                        latest_share=0.3, table_sizes=(3, 4, 5, 6), save_every=10**9,
                        eval_every=10**9, eval_games=1, eval_tables=f"medium:{1}")
        run = train(config)
        state = json.loads((run / "state.json").read_text())
        return state["steps"] / state["wall_seconds"]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=32_768, help="learner steps per run")
    ap.add_argument("--envs", type=int, default=16, help="environments of the grouped layout")
    ap.add_argument("--workers", type=int, default=2, help="processes of the SB3 layouts")
    ap.add_argument("--n-steps", type=int, default=512, help="PPO rollout length per env (SB3)")
    ap.add_argument("--compact-envs", type=int, default=64, help="games of the compact trainer")
    ap.add_argument("--compact-workers", type=int, default=1,
                    help="processes of the compact trainer")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = ap.parse_args(argv)
    # The compact trainer's rollout: the same samples per update as the grouped layout's.
    compact_n_steps = max(1, args.n_steps * args.envs // args.compact_envs)
    runs: dict[str, list[float]] = {"baseline": [], "grouped": [], "compact": []}
    ops = []
    for _ in range(args.repeats):
        ops.append(baseline_ops_per_second())
        runs["baseline"].append(one_run(args.steps, args.workers, args.workers, args.n_steps))
        runs["grouped"].append(one_run(args.steps, args.envs, args.workers, args.n_steps))
        runs["compact"].append(one_run(args.steps, args.compact_envs, args.compact_workers,
                                       compact_n_steps, "compact"))
    med = {k: statistics.median(v) for k, v in runs.items()}
    result = {
        "baseline_steps_per_s": med["baseline"],
        "grouped_steps_per_s": med["grouped"],
        "compact_steps_per_s": med["compact"],
        "candidate_steps_per_s": med["compact"],
        "ratio": med["compact"] / med["baseline"],
        "grouped_ratio": med["grouped"] / med["baseline"],
        "samples_per_s": med["compact"],  # one sample per learner step
        "runs": runs,
        "settings": {k: v for k, v in vars(args).items() if k != "json"},
        "baseline_ops_per_s": statistics.median(ops),
    }
    print(f"baseline ({args.workers} envs in {args.workers} processes, sb3): "
          f"{med['baseline']:,.0f} learner steps/s")
    print(f"grouped  ({args.envs} envs in {args.workers} processes, sb3): "
          f"{med['grouped']:,.0f} learner steps/s ({result['grouped_ratio']:.2f}x)")
    print(f"compact  ({args.compact_envs} games in {args.compact_workers} process(es)): "
          f"{med['compact']:,.0f} learner steps/s ({result['ratio']:.2f}x)")
    print(f"ratio {result['ratio']:.2f} (compact over baseline, median of {args.repeats}); "
          f"baseline ops/s {result['baseline_ops_per_s']:,.0f}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
