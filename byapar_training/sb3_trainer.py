"""The SB3 trainer (``byapar train --trainer sb3``, the default): Stable-Baselines3's
MaskablePPO on the single-seat view, one learner seat per game.

Read top to bottom:
1. ``imitate``: the warm start, the policy taught to copy the medium player's decisions
   (``byapar_training/imitation.py``) and the value head the outcome that followed;
2. ``train_sb3``: the environments (``byapar_training/opponents.py``) in worker processes, grouped
   (``byapar_training/vec_env.py``) or in Ray actors (``byapar_training/vec_env_ray.py``); a new
   model warm
   started from ``--init-from`` or by imitation, or the run's last save; then PPO, with a
   snapshot into the pool, a save and an evaluation (``byapar_training/evaluation.py``) every few
   hundred thousand steps, TensorBoard scalars (``charts/``, ``losses/``, ``eval/``) in the run
   folder (``byapar_training/run_folder.py``).
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np

from .common import training_device
from .config import Config
from .evaluation import record_evaluation
from .imitation import medium_demonstrations
from .opponents import make_env
from .run_folder import open_run, write_state
from .tracking import start_wandb, wandb_output_format
from .weights import load_numpy_policy, numpy_policy


# ---------------------------------------------------------------------------- 1. imitation
def imitate(model, data, config: Config, logger) -> float:
    """Train the policy to copy the demonstrations (cross-entropy under the mask), and the
    value head to predict the outcome that followed."""
    import torch

    obs, masks, acts, returns = data
    policy = model.policy
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    n = len(acts)
    gen = np.random.default_rng(config.seed)
    accuracy = 0.0
    for epoch in range(config.imitation_epochs):
        order = gen.permutation(n)
        losses = []
        for start in range(0, n, 512):
            idx = order[start:start + 512]
            o = torch.as_tensor(obs[idx], device=policy.device)
            m = torch.as_tensor(masks[idx], device=policy.device)
            a = torch.as_tensor(acts[idx], device=policy.device)
            r = torch.as_tensor(returns[idx], device=policy.device)
            dist = policy.get_distribution(o, action_masks=m)
            value = policy.predict_values(o).squeeze(-1)
            loss = -dist.log_prob(a).mean() + 0.5 * ((value - r) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        with torch.no_grad():
            sample = order[:5000]
            d = policy.get_distribution(torch.as_tensor(obs[sample]),
                                        action_masks=torch.as_tensor(masks[sample]))
            pred = d.distribution.probs.argmax(dim=1).numpy()
            accuracy = float((pred == acts[sample]).mean())
        print(f"imitation epoch {epoch + 1}: loss {np.mean(losses):.4f}, agreement with "
              f"medium {accuracy:.1%}", flush=True)
        logger.record("imitation/loss", float(np.mean(losses)))
        logger.record("imitation/agreement", accuracy)
        logger.dump(epoch)
    return accuracy


# ---------------------------------------------------------------------------- 2. training
def train_sb3(config: Config) -> Path:
    """Train by MaskablePPO until ``config.total_steps``; the run folder (a new one, or one to
    resume from its ``latest.zip``)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from .vec_env import GroupedSubprocVecEnv  # imports SB3: here only

    run, state = open_run(config, "latest.zip")
    random.seed(config.seed)
    np.random.seed(config.seed)
    torch.manual_seed(config.seed)
    torch.set_num_threads(1)

    fns = [make_env(config, i) for i in range(config.n_envs)]
    if config.backend == "ray":
        from .vec_env_ray import RayGroupedVecEnv  # Ray is an optional extra: imported here only

        venv = RayGroupedVecEnv(fns, min(config.n_workers, config.n_envs),
                                address=config.address or None)
    elif config.n_envs == 1:
        venv = DummyVecEnv(fns)
    elif config.n_workers >= config.n_envs:
        venv = SubprocVecEnv(fns)
    else:
        venv = GroupedSubprocVecEnv(fns, config.n_workers)
    logger = configure(str(run), ["csv", "tensorboard"])
    wandb_run = start_wandb(config, run, state)
    if wandb_run is not None:  # --wandb-project: the TensorBoard scalars to W&B as well
        logger.output_formats.append(wandb_output_format(wandb_run))
    latest = run / "latest.zip"
    if latest.exists():
        model = MaskablePPO.load(latest, env=venv, device=training_device(config.device))
        print(f"resuming from {latest} at step {model.num_timesteps:,}", flush=True)
    else:
        model = MaskablePPO(
            "MlpPolicy", venv, n_steps=config.n_steps, batch_size=config.batch_size,
            n_epochs=config.n_epochs, learning_rate=config.learning_rate, gamma=config.gamma,
            gae_lambda=config.gae_lambda, clip_range=config.clip_range,
            ent_coef=config.ent_coef, seed=config.seed, device=training_device(config.device),
            verbose=0,
            policy_kwargs=dict(net_arch=dict(pi=list(config.hidden), vf=list(config.hidden))))
        model.set_logger(logger)
        if config.init_from:
            load_numpy_policy(model, config.init_from)
            state["init_from"] = config.init_from
        elif config.imitation_games:
            start = time.time()
            agreement = imitate(model, medium_demonstrations(config), config, logger)
            state["imitation_agreement"] = agreement
            state["imitation_seconds"] = round(time.time() - start, 1)
        _snapshot(model, run, state)
    model.set_logger(logger)

    class Progress(BaseCallback):
        """Snapshots, saves, evaluation and progress lines, on the steps the config says."""

        def _on_training_start(self) -> None:
            self.t0 = self.rate_t0 = time.time()
            self.rate_s0 = self.model.num_timesteps
            self.next_save = (self.num_timesteps // config.save_every + 1) * config.save_every
            self.next_eval = (self.num_timesteps // config.eval_every + 1) * config.eval_every

        def _on_step(self) -> bool:
            state["episodes"] += int(sum(self.locals["dones"]))
            if self.num_timesteps >= self.next_save:
                self.next_save += config.save_every
                self._account()
                folder = _snapshot(self.model, run, state)
                print(f"step {self.num_timesteps:,}: saved {folder.name}", flush=True)
            if self.num_timesteps >= self.next_eval:
                self.next_eval += config.eval_every
                self._account()
                _evaluate_latest(self.model, run, state, config, self.logger)
            return True

        def _on_rollout_end(self) -> None:
            # Before the update: the actor learns only once the critic has warmed up.
            warm = self.model.num_timesteps < config.critic_warmup_steps
            for module in (self.model.policy.mlp_extractor.policy_net,
                           self.model.policy.action_net):
                for param in module.parameters():
                    param.requires_grad_(not warm)
            rate = (self.model.num_timesteps - self.rate_s0) / max(1e-9,
                                                                  time.time() - self.rate_t0)
            self.logger.record("charts/steps_per_second", rate)
            self.logger.record("charts/episodes", state["episodes"])
            print(f"step {self.num_timesteps:,}/{config.total_steps:,}  {rate:,.0f} steps/s  "
                  f"{state['episodes']:,} episodes", flush=True)

        def _account(self) -> None:
            now = time.time()
            state["wall_seconds"] += now - self.t0
            self.t0 = now

    remaining = config.total_steps - model.num_timesteps
    if remaining > 0:
        progress = Progress()
        model.learn(remaining, callback=progress, reset_num_timesteps=False)
        progress._account()
    if state.get("evaluated_at") != model.num_timesteps:
        _evaluate_latest(model, run, state, config, logger)
    venv.close()
    if wandb_run is not None:
        wandb_run.finish()
    return run


def _snapshot(model, run: Path, state: dict) -> Path:
    """Save the model for resuming, and its policy as a numpy checkpoint into the pool. The
    save is written beside and renamed into place, so a run stopped mid-save still resumes."""
    model.save(run / "latest.tmp.zip")
    (run / "latest.tmp.zip").replace(run / "latest.zip")
    folder = run / "pool" / f"step_{model.num_timesteps:09d}"
    numpy_policy(model).save(folder, {"name": folder.name, "steps": model.num_timesteps})
    state["steps"] = model.num_timesteps
    write_state(run, state)
    return folder


def _evaluate_latest(model, run: Path, state: dict, config: Config, logger) -> None:
    folder = _snapshot(model, run, state)
    result = record_evaluation(folder, model.num_timesteps, run, state, config)
    for key, value in result.items():
        logger.record(f"eval/{key}", value)
    logger.dump(model.num_timesteps)
