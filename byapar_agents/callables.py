"""A player given as ``module:callable``: any function from a seat's observation and action
mask to an action id, as a researcher writes one (``byapar evaluate my_agent:act``).

The module is imported by name (from the current folder too, as ``python -m`` would), the
callable looked up in it; ``UnknownAgentError`` says which part could not be found.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable

from .errors import UnknownAgentError

CALLABLE_NAME = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


def is_callable_name(name: object) -> bool:
    """Whether ``name`` has the shape ``module:callable``."""
    return isinstance(name, str) and CALLABLE_NAME.fullmatch(name) is not None


def load_callable(name: str) -> Callable:
    """The callable that ``module:callable`` names (``UnknownAgentError`` if there is none)."""
    module_name, _, attr = name.partition(":")
    if "" not in sys.path and "." not in sys.path:
        sys.path.append("")  # a module beside the caller, as python -m finds one
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownAgentError(f"{name!r}: cannot import the module {module_name!r} ({exc}); "
                                "a module:callable player needs the module on the Python "
                                "path") from None
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise UnknownAgentError(f"{name!r}: the module {module_name!r} has no callable {attr!r}")
    return fn
