"""The hard player: a policy learned by self-play, read from ``checkpoints/hard/``.

It reads only its observation and mask and plays the most likely legal action. Loading needs
numpy alone; a checkpoint made for another observation layout, action table or board, or a
damaged one, is refused with ``CheckpointError``.
"""

from __future__ import annotations

from pathlib import Path

from byapar_env.byapar_v0 import raw_env

from .network import load_checkpoint

DEFAULT_CHECKPOINT = Path(__file__).resolve().parent.parent / "checkpoints" / "hard"


class LearnedPlayer:
    """A player from any checkpoint folder."""

    def __init__(self, folder: str | Path = DEFAULT_CHECKPOINT, name: str | None = None):
        self.folder = Path(folder)
        self.policy, self.meta = load_checkpoint(self.folder)
        self.name = name or self.meta.get("name", self.folder.name)

    def act(self, env: raw_env, seat: int) -> int:
        obs = env.observe(env.possible_agents[seat])
        return self.policy.act(obs["observation"], obs["action_mask"])
