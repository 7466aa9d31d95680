"""What the ``byapar`` command and the training jobs share: the argument parser, the errors a
bad value raises, the check for an optional package, and quiet worker processes.

A floor below both: the command line (``byapar_cli``) imports it and so do the jobs
(``selfplay``, ``exploit``, ``export``, ``answers``), so that no job imports the command line.
"""

from __future__ import annotations

import importlib
import signal
import threading
from collections.abc import Sequence

# One parser for every command, byapar simulate's included.
from byapar_env.cli_args import ArgumentParser
from byapar_env.engine.errors import ByaparError

__all__ = [
    "TRAIN_INSTALL",
    "TRAIN_PACKAGES",
    "ArgumentParser",
    "MissingPackageError",
    "UsageError",
    "quiet_worker_processes",
    "require",
]

# What `byapar train`, `exploit` and `export` need beyond the base install, and how to get it:
# PyTorch first, pinned, so that Stable-Baselines3 does not pull another (much larger) build.
TRAIN_PACKAGES = ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "threadpoolctl")
TRAIN_INSTALL = ("pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu "
                 "(the CPU build), then pip install -e '.[train]'")


class UsageError(ByaparError, ValueError):
    """A command-line value that cannot work (an output folder that does not exist...)."""


class MissingPackageError(ByaparError, ImportError):
    """A package the command needs is not installed; the message says what to install."""


def require(packages: Sequence[str], command: str, install: str = TRAIN_INSTALL) -> None:
    """Raise ``MissingPackageError`` naming what to install when a package will not import."""
    missing = []
    for name in packages:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise MissingPackageError(f"byapar {command} needs {', '.join(missing)}, which "
                                  f"{'is' if len(missing) == 1 else 'are'} not installed: "
                                  f"{install}")


def quiet_worker_processes() -> None:
    """Start multiprocessing's fork server with Ctrl-C ignored, so that every process forked
    from it (SB3's environment workers) ignores it too: the terminal sends SIGINT to the whole
    process group, and only the main process should answer, not each worker with a
    traceback. The workers end when the main process does (they are daemons)."""
    import multiprocessing

    if ("forkserver" not in multiprocessing.get_all_start_methods()
            or threading.current_thread() is not threading.main_thread()):
        return
    from multiprocessing import forkserver

    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        if old is not None:  # None: a handler set outside Python, left as it is
            signal.signal(signal.SIGINT, old)


def training_device(name: str):
    """The torch device of ``--device``: cpu, cuda, or auto (cuda where torch finds a GPU)."""
    import torch

    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(name)
