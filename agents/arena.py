"""Moved to ``byapar_harness.arena`` (issue 25: the harnesses that seat players at tables have a
home of their own, above the players). ``byapar_agents.arena`` stays importable as the very same
module until the modules that still import it by this name (in serve/, training/ and bench/)
import the new home; new code imports ``byapar_harness.arena``."""

import sys

from byapar_harness import arena as moved

sys.modules[__name__] = moved
