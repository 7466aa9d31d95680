"""``python -m byapar_cli``: the ``byapar`` command, from a checkout or an install."""

import sys

from .command import main

sys.exit(main())
