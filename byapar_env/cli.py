"""The ``byapar`` command: one entry point, a subcommand per job."""

from __future__ import annotations

import sys

USAGE = """usage: byapar COMMAND [options]

commands:
  simulate   seeded games of random legal play, with figures on how they ended
"""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    command, rest = argv[0], argv[1:]
    if command == "simulate":
        from .simulate import main as simulate_main

        return simulate_main(rest)
    print(f"byapar: unknown command {command!r}\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
