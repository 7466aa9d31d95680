"""The command line's shared argument parser: each flag's default in its help, and a bad value
refused in one line with exit status 2. Here, in the lowest layer that has a command
(``byapar simulate``), so that every ``byapar`` command uses the same one."""

from __future__ import annotations

import argparse


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Every flag's default after its help: tuples as the flag takes them (2,3,4), empty text
    as ``empty``. A flag whose default is None says in its help what happens without it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if ("%(default)" in text or default is None or default is argparse.SUPPRESS
                or not action.option_strings):
            return text
        if isinstance(default, tuple):
            shown = ",".join(map(str, default))
        elif default == "":
            shown = "empty"
        else:
            shown = "%(default)s"
        return f"{text} (default: {shown})"


class ArgumentParser(argparse.ArgumentParser):
    """Defaults in the help, and a bad value in one line (not the whole usage), exit status 2."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(**kwargs)

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")
