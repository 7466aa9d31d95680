"""Training throughput: today's trainer layout beside the grouped one, run the same way.

    python -m bench.train_speed [--steps 32768] [--envs 16] [--repeats 3] [--json FILE]

Each run is the real ``byapar train`` (training/selfplay.py) in a fresh temporary run folder,
from the shipped hard checkpoint, with league opponents (medium, strategist and the learner's
snapshots) at tables of 3 to 6, for ``--steps`` learner steps. Its rate is learner steps over
the PPO wall time the run records (collection and updates; start-up and the final evaluation
are not counted). The baseline is one environment per process in two processes (SB3's
SubprocVecEnv, as every earlier run trained); the candidate runs ``--envs`` environments in the
same two processes (training/vec_env.py). Runs alternate, and the figures are medians; the
ratio is candidate over baseline. A learner step is one sample: the learner holds one seat.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from byapar_agents.hard import DEFAULT_CHECKPOINT

from .common import baseline_ops_per_second


def one_run(steps: int, envs: int, workers: int, n_steps: int) -> float:
    """Learner steps per second of one real training run."""
    from byapar_training.selfplay import Config, train

    with tempfile.TemporaryDirectory() as tmp:
        config = Config(run_dir=str(Path(tmp) / "run"), total_steps=steps, n_envs=envs,
                        n_workers=workers, n_steps=n_steps, batch_size=512,
                        init_from=str(DEFAULT_CHECKPOINT), league="medium,strategist",
                        latest_share=0.3, table_sizes=(3, 4, 5, 6), save_every=10**9,
                        eval_every=10**9, eval_games=1, eval_tables=f"medium:{1}")
        run = train(config)
        state = json.loads((run / "state.json").read_text())
        return state["steps"] / state["wall_seconds"]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=32_768, help="learner steps per run")
    ap.add_argument("--envs", type=int, default=16, help="environments of the candidate")
    ap.add_argument("--workers", type=int, default=2, help="processes of both layouts")
    ap.add_argument("--n-steps", type=int, default=512, help="PPO rollout length per env")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = ap.parse_args(argv)
    base, cand, ops = [], [], []
    for _ in range(args.repeats):
        ops.append(baseline_ops_per_second())
        base.append(one_run(args.steps, args.workers, args.workers, args.n_steps))
        cand.append(one_run(args.steps, args.envs, args.workers, args.n_steps))
    result = {
        "baseline_steps_per_s": statistics.median(base),
        "candidate_steps_per_s": statistics.median(cand),
        "ratio": statistics.median(cand) / statistics.median(base),
        "samples_per_s": statistics.median(cand),  # one sample per learner step
        "runs": {"baseline": base, "candidate": cand},
        "settings": {k: v for k, v in vars(args).items() if k != "json"},
        "baseline_ops_per_s": statistics.median(ops),
    }
    print(f"baseline  ({args.workers} envs in {args.workers} processes): "
          f"{result['baseline_steps_per_s']:,.0f} learner steps/s")
    print(f"candidate ({args.envs} envs in {args.workers} processes): "
          f"{result['candidate_steps_per_s']:,.0f} learner steps/s")
    print(f"ratio {result['ratio']:.2f} (median of {args.repeats}); baseline ops/s "
          f"{result['baseline_ops_per_s']:,.0f}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
