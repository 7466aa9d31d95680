"""The policy network as numpy alone: a shipped player runs without torch or training code.

A checkpoint folder holds ``weights.npz`` (the policy layers, input to output) and
``meta.json`` (what it was trained on and how). ``load_checkpoint`` refuses, with a clear
``CheckpointError``, a folder that is missing, corrupt, or made for another observation layout,
action table or board.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from byapar_env.action_table import ACTION_VERSION, NUM_ACTIONS, action_table_hash
from byapar_env.engine.board import BOARD_HASH
from byapar_env.engine.errors import ByaparError
from byapar_env.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from byapar_env.observation import OBSERVATION_SIZE, OBSERVATION_VERSION

CHECKPOINT_FORMAT = "byapar-policy"
CHECKPOINT_VERSION = 1
_FOLDER_NAME = re.compile(r"[A-Za-z0-9_.-]+")
ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


class CheckpointError(ByaparError, ValueError):
    """A checkpoint that cannot be used here; the message says why and what was expected."""


class NumpyPolicy:
    """An MLP: hidden layers with one activation, then a linear layer of action logits."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str = "tanh"):
        if activation not in ACTIVATIONS:
            raise CheckpointError(f"activation must be one of {sorted(ACTIVATIONS)}, "
                                  f"got {activation!r}")
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.activation = activation
        self._act = ACTIVATIONS[activation]

    def logits(self, observation: np.ndarray) -> np.ndarray:
        x = np.asarray(observation, np.float32)
        for w, b in self.layers[:-1]:
            x = self._act(x @ w + b)
        w, b = self.layers[-1]
        return x @ w + b

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The action distribution with illegal actions at zero (a masked softmax)."""
        logits = np.where(np.asarray(mask, bool), self.logits(observation), -np.inf)
        logits = logits - logits.max(axis=-1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=-1, keepdims=True)

    def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The most likely legal action."""
        logits = self.logits(observation)
        return int(np.argmax(np.where(np.asarray(mask, bool), logits, -np.inf)))

    def save(self, folder: str | Path, meta: dict, fmt: str = CHECKPOINT_FORMAT) -> None:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        arrays = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"layer{i}_w"], arrays[f"layer{i}_b"] = w, b
        np.savez_compressed(folder / "weights.npz", **arrays)
        full = {**expected_meta(fmt), "activation": self.activation,
                "layers": [list(w.shape) for w, _ in self.layers], **meta}
        (folder / "meta.json").write_text(json.dumps(full, indent=2) + "\n")


def single_thread_blas() -> bool:
    """Run numpy's matrix products on one thread in this process, for good; False if
    ``threadpoolctl`` is missing (then nothing changes).

    A player's forward pass multiplies a handful of rows by a few hundred columns: a threaded
    BLAS gains nothing there, and on a busy machine its threads wait for each other. Measured on
    this project's 2-core machine with both cores busy, one value-network forward pass of four
    seats took 1.62 ms with OpenBLAS's default threads and 0.24 ms with one. The commands that
    play (``byapar arena``, ``gauntlet``, ``serve``, ``analyse``) and the arena's worker
    processes call this; a program that seats the players itself can too, or set
    ``OPENBLAS_NUM_THREADS=1`` before numpy loads."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return False
    threadpool_limits(1, user_api="blas")
    return True


def average_policies(policies: list[NumpyPolicy],
                     weights: list[float] | None = None) -> NumpyPolicy:
    """The policy whose weights are the mean of ``policies``' (snapshots of one run: weight
    averaging of nearby snapshots tends to play better than any one of them), or with
    ``weights`` their weighted mean (a fine-tune blended with the policy it started from)."""
    if not policies:
        raise CheckpointError("averaging needs at least one policy")
    if weights is not None and (len(weights) != len(policies) or any(w < 0 for w in weights)
                                or not sum(weights) > 0):
        raise CheckpointError(f"averaging weights must be one non-negative number a policy, "
                              f"not all 0; got {weights} for {len(policies)} policies")
    shapes = [[w.shape for w, _ in p.layers] for p in policies]
    kinds = {p.activation for p in policies}
    if any(s != shapes[0] for s in shapes) or len(kinds) != 1:
        raise CheckpointError(f"only policies of one shape and activation can be averaged, got "
                              f"layers {shapes} and activations {sorted(kinds)}")
    layers = [(np.average([p.layers[i][0] for p in policies], axis=0, weights=weights),
               np.average([p.layers[i][1] for p in policies], axis=0, weights=weights))
              for i in range(len(shapes[0]))]
    return NumpyPolicy(layers, policies[0].activation)


# The checkpoint formats of the second game, Businessman (byapar_env.businessman): its policies
# read its observations and choose among its action ids. Every other format is Byapar's.
BUSINESSMAN_FORMATS = ("businessman-policy",)


def _businessman_game() -> dict:
    import hashlib

    from byapar_env.businessman.board import BOARD_HASH as BM_BOARD
    from byapar_env.businessman_action_table import ALL_ACTIONS
    from byapar_env.businessman_action_table import NUM_ACTIONS as BM_ACTIONS
    from byapar_env.businessman_observation import OBSERVATION_SIZE as BM_SIZE
    from byapar_env.businessman_observation import OBSERVATION_VERSION as BM_VERSION

    names = "\n".join(str(a) for a in ALL_ACTIONS).encode()
    return {"observation_version": BM_VERSION, "observation_size": BM_SIZE,
            "action_version": 1, "num_actions": BM_ACTIONS,
            "action_table_hash": hashlib.sha256(names).hexdigest()[:16], "board_hash": BM_BOARD}


def expected_meta(fmt: str = CHECKPOINT_FORMAT) -> dict:
    """What a checkpoint must have been made for, to play in this installation: the game of its
    format (``BUSINESSMAN_FORMATS``, or Byapar), that game's observation, action table and
    board."""
    if fmt in BUSINESSMAN_FORMATS:
        return {"format": fmt, "checkpoint_version": CHECKPOINT_VERSION, **_businessman_game()}
    return {"format": fmt, "checkpoint_version": CHECKPOINT_VERSION,
            "observation_version": OBSERVATION_VERSION, "observation_size": OBSERVATION_SIZE,
            "action_version": ACTION_VERSION, "num_actions": NUM_ACTIONS,
            "action_table_hash": action_table_hash(), "board_hash": BOARD_HASH}


def load_checkpoint(folder: str | Path, fmt: str = CHECKPOINT_FORMAT,
                    outputs: int | None = None) -> tuple[NumpyPolicy, dict]:
    """The policy and its metadata from a checkpoint folder, checked against this install.

    ``fmt`` and ``outputs``: another network of the same form (``byapar_agents.value``: one
    output, a position's value)."""
    folder = Path(folder)
    meta_path, weights_path = folder / "meta.json", folder / "weights.npz"
    for path in (meta_path, weights_path):
        if not path.is_file():
            raise CheckpointError(f"checkpoint {folder} has no {path.name} (a checkpoint folder "
                                  "holds weights.npz and meta.json)")
    try:
        meta = json.loads(meta_path.read_text())
    except (OSError, ValueError) as exc:
        raise CheckpointError(f"checkpoint {folder}: meta.json is not valid JSON: {exc}") from exc
    if not isinstance(meta, dict):
        raise CheckpointError(f"checkpoint {folder}: meta.json must hold an object")
    expected = expected_meta(fmt)
    inputs = expected["observation_size"]
    outputs = expected["num_actions"] if outputs is None else outputs
    for key, want in expected.items():
        if meta.get(key) != want:
            raise CheckpointError(
                f"checkpoint {folder} was made for {key} = {meta.get(key)!r}, but this "
                f"installation has {want!r}; retrain or export it again for this version")
    try:
        with np.load(weights_path) as data:
            count = len(data.files) // 2
            layers = [(data[f"layer{i}_w"], data[f"layer{i}_b"]) for i in range(count)]
    except Exception as exc:  # numpy raises several kinds for a damaged file
        raise CheckpointError(f"checkpoint {folder}: weights.npz is corrupt: {exc}") from exc
    shapes = [list(w.shape) for w, _ in layers]
    if not layers or shapes != meta.get("layers"):
        raise CheckpointError(f"checkpoint {folder}: the weights have layers {shapes}, "
                              f"meta.json says {meta.get('layers')}")
    size = inputs
    for (_w, b), shape in zip(layers, shapes, strict=True):
        if shape[0] != size or b.shape != (shape[1],):
            raise CheckpointError(f"checkpoint {folder}: layer shapes {shapes} do not chain "
                                  f"from {inputs} inputs to {outputs} outputs")
        size = shape[1]
    if size != outputs:
        raise CheckpointError(f"checkpoint {folder}: the last layer has {size} outputs, "
                              f"{outputs} expected")
    for i, (w, b) in enumerate(layers):
        # A NaN or inf weight makes every logit NaN, and the argmax then always picks the
        # lowest legal id: a player that loads but cannot play. Refuse it here.
        if w.dtype.kind != "f" or b.dtype.kind != "f":
            raise CheckpointError(f"checkpoint {folder}: layer {i} holds {w.dtype}/{b.dtype} "
                                  "values; weights must be floating-point numbers")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise CheckpointError(f"checkpoint {folder}: layer {i} holds NaN or infinite "
                                  "weights; weights must be finite numbers")
    return NumpyPolicy(layers, meta.get("activation", "tanh")), meta


def specialist_folders(folder: Path, meta: dict, min_players: int = MIN_PLAYERS,
                       max_players: int = MAX_PLAYERS) -> dict[int, Path]:
    """The table specialists a checkpoint's meta.json names, checked: {table size: folder}.
    The sizes allowed are the game's, ``min_players`` to ``max_players`` (Byapar's by default)."""
    named = meta.get("table_specialists", {})
    if not isinstance(named, dict):
        raise CheckpointError(f"checkpoint {folder}: table_specialists must map a table size "
                              f"to a sub-folder, got {named!r}")
    out = {}
    sizes = {str(n): n for n in range(min_players, max_players + 1)}
    for key, sub in named.items():
        if key not in sizes:
            raise CheckpointError(f"checkpoint {folder}: table_specialists key {key!r} is not a "
                                  f"table size from {min_players} to {max_players}")
        if not isinstance(sub, str) or not _FOLDER_NAME.fullmatch(sub) or sub in (".", ".."):
            raise CheckpointError(f"checkpoint {folder}: table_specialists[{key!r}] must name a "
                                  f"sub-folder of the checkpoint (letters, digits, _ . -), "
                                  f"got {sub!r}")
        out[sizes[key]] = folder / sub
    return out
