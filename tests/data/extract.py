"""Regenerate the test data in this folder from the game's spec files.

    python tests/data/extract.py ../shared/spec

The spec (``board.md``, the project's board, money and card tables, and
``byapar-rules-source.txt``, the published rules page) lives beside the repository, not in it.
The board-data tests compare the engine with what is extracted here, so that they run on a
fresh clone:

- ``board.md``: the spec's tables of squares, city rents, other money and both card decks, as
  written there;
- ``rules_figures.json``: the figures the rules page states (house cost by group, the places of
  each group, the transport squares and utilities, taxes, salary, fine, transport and utility
  rents), read from its sentences by the patterns below rather than copied as text.

Each pattern fails loudly when the page no longer says what it did.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOARD_SECTIONS = ("The squares", "City rents", "Other money", "Bhagya", "Samudaya")


def _num(text: str) -> int:
    return int(text.replace(",", ""))


def _need(pattern: str, text: str) -> re.Match:
    m = re.search(pattern, text)
    if m is None:
        raise SystemExit(f"the rules page no longer matches {pattern!r}")
    return m


def board_tables(board_md: str) -> str:
    """The sections of board.md that hold the tables the tests read, unchanged."""
    out = ["# Byapar board data (extracted from the spec's board.md by extract.py)", ""]
    keep = False
    for line in board_md.splitlines():
        if line.startswith("## "):
            keep = line[3:].startswith(BOARD_SECTIONS)
        if keep:
            out.append(line)
    return "\n".join(out).rstrip() + "\n"


def rules_figures(page: str) -> dict:
    """The figures the rules page states, as data."""
    text = " ".join(page.split())
    groups: dict[str, list[str]] = {}
    for line in page.splitlines():
        m = re.fullmatch(r"\s*•\s*([A-Za-z]+): ([A-Za-z, ]+)\.\s*", line)
        if m:
            groups[m.group(1)] = [n.strip() for n in m.group(2).split(",")]
        if len(groups) == 8:
            break
    house = _need(r"A house costs (.*?)\. A hotel", text).group(1)
    costs: dict[str, int] = {}
    for amount, names in re.findall(r"Rs ([\d,]+) in (?:the )?(.+?)(?=, Rs | and Rs |$)", house):
        for g in names.removesuffix(" group").split(" and "):
            costs[g] = _num(amount)
    squares = _need(r"four transport squares \(([^)]*)\), two utilities \(([^)]*)\)", text)
    taxes = _need(r"Income tax costs Rs ([\d,]+) and Property tax costs Rs ([\d,]+)", text)
    salary = _need(r"You collect Rs ([\d,]+) whenever a forward move takes you onto or past "
                   r"Start", text)
    fine = _need(r"pay the Rs ([\d,]+) fine", text)
    transport = _need(r"Transport charges Rs ([\d,]+) if the owner has one transport square, "
                      r"Rs ([\d,]+) for two, Rs ([\d,]+) for three and Rs ([\d,]+) for all four",
                      text)
    utility = _need(r"(\d+) times the dice total if the owner has one utility, or (\d+) times",
                    text)
    return {
        "source": "the published rules page (byapar-rules-source.txt), read by extract.py",
        "groups_cheapest_first": groups,
        "house_cost_by_group": costs,
        "transport_squares": [n.strip() for n in squares.group(1).split(",")],
        "utilities": [n.strip() for n in squares.group(2).split(" and ")],
        "taxes": {"Income tax": _num(taxes.group(1)), "Property tax": _num(taxes.group(2))},
        "salary": _num(salary.group(1)),
        "jail_fine": _num(fine.group(1)),
        "transport_rent_by_squares_held": [_num(x) for x in transport.groups()],
        "utility_multiplier_one_and_both": [int(x) for x in utility.groups()],
    }


def main(spec_dir: str) -> None:
    spec = Path(spec_dir)
    (HERE / "board.md").write_text(board_tables((spec / "board.md").read_text("utf-8")),
                                   encoding="utf-8")
    figures = rules_figures((spec / "byapar-rules-source.txt").read_text("utf-8"))
    (HERE / "rules_figures.json").write_text(json.dumps(figures, indent=2, ensure_ascii=False)
                                             + "\n", encoding="utf-8")
    print(f"wrote {HERE / 'board.md'} and {HERE / 'rules_figures.json'}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(HERE.parents[2] / "shared" / "spec"))
