"""Fast attribute access to an enum's members, for the engines' hot paths.

On Python 3.11 ``ActionKind.ROLL`` goes through the enum's member descriptor and costs about
100 ns, several times a plain class attribute; an engine decision reads a dozen of them. The
class returned here holds the very same member objects, so comparisons, names and types are
unchanged.
"""

from __future__ import annotations

from enum import Enum


def member_lookup(enum_cls: type[Enum]) -> type:
    """A plain class whose attributes are ``enum_cls``'s members (the same objects)."""
    return type(f"{enum_cls.__name__}Members", (), dict(enum_cls.__members__))
