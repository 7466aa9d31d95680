"""Moved to ``byapar_env.core.table``, the core every game shares; importable here as well."""

from ..core.table import *  # noqa: F403
