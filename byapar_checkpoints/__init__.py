"""The learned players this project ships (installed as ``byapar_checkpoints``).

Each sub-folder is a checkpoint: ``weights.npz`` and ``meta.json`` (see ``byapar_agents.hard``).
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
SHIPPED = ("hard", "value", "businessman_hard")


def shipped(name: str) -> Path:
    """The folder of a shipped checkpoint by name."""
    return HERE / name
