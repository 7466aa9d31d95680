"""Moved to ``byapar_env.core.errors``, the core every game shares; importable here as well."""

from ..core.errors import *  # noqa: F403
