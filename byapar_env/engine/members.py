"""Moved to ``byapar_env.core.members``, the core every game shares; importable here as well."""

from ..core.members import *  # noqa: F403
