"""Keep the tables of ``docs/env.md`` in step with the code: ``python -m byapar_env.doc_tables``.

The action table and the observation layout are written between marker comments, so the prose
around them stays hand-written.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .action_table import ACTIONS
from .observation import LAYOUT, SLICES


def actions_markdown() -> str:
    rows = ["| id | kind | name |", "|---|---|---|"]
    rows += [f"| {a.id} | `{a.kind}` | {a.name} |" for a in ACTIONS]
    return "\n".join(rows)


def layout_markdown() -> str:
    rows = ["| slice | start | size |", "|---|---|---|"]
    rows += [f"| `{name}` | {SLICES[name].start} | {size} |" for name, size in LAYOUT]
    return "\n".join(rows)


def refresh(text: str) -> str:
    for tag, table in (("actions", actions_markdown()), ("layout", layout_markdown())):
        pattern = re.compile(rf"<!-- {tag} -->.*?<!-- /{tag} -->", re.S)
        if not pattern.search(text):
            raise ValueError(f"no <!-- {tag} --> ... <!-- /{tag} --> markers in the document")
        text = pattern.sub(lambda _m, tag=tag, table=table:
                           f"<!-- {tag} -->\n{table}\n<!-- /{tag} -->", text)
    return text


if __name__ == "__main__":
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/env.md")
    path.write_text(refresh(path.read_text()))
