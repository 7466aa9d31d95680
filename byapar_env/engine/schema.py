"""Moved to ``byapar_env.core.schema``, the core every game shares; importable here as well."""

from ..core.schema import *  # noqa: F403
