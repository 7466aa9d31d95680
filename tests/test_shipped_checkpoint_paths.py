"""The shipped checkpoints' records name no machine: every path in a meta.json is relative."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CHECKPOINTS = Path(__file__).resolve().parent.parent / "byapar_checkpoints"
METAS = sorted(CHECKPOINTS.rglob("meta.json"))


def _strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for value in node.values() for s in _strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in _strings(value)]
    return []


def test_every_shipped_checkpoint_and_specialist_is_checked() -> None:
    names = {str(m.parent.relative_to(CHECKPOINTS)) for m in METAS}
    assert {"hard", "hard/table_2", "businessman_hard", "businessman_hard/table_2"} <= names


@pytest.mark.parametrize("meta", METAS, ids=lambda m: str(m.parent.relative_to(CHECKPOINTS)))
def test_meta_names_no_absolute_path(meta: Path) -> None:
    for text in _strings(json.loads(meta.read_text())):
        for word in text.split():
            assert not word.startswith(("/", "~")), f"{meta}: {word!r} is a machine path"
