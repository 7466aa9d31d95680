"""The gauntlet's opponent groups: seen and unseen opponents reported apart (issue 24).

Which cells a grouped run plays, the mixed tables, the worst case per group and table size (from
made-up cells, then from a tiny real run), the unseen first, going on from a file, and the
command's flags.
"""

from __future__ import annotations

import json

import pytest

from byapar_agents.outside import SEEN_OUTSIDE, UNSEEN_OUTSIDE
from byapar_agents.panel import PANEL_NAMES
from byapar_agents.population import EVALUATION_SEEDS, population_seed
from byapar_cli import command as cli
from byapar_harness.arena import ArenaError
from byapar_harness.gauntlet import (
    DEFAULT_OPPONENTS,
    GROUP_NAMES,
    GROUPS,
    GauntletConfig,
    format_gauntlet,
    group_members,
    run_gauntlet,
    validate,
    worst_cases,
)


def test_the_groups_and_their_members() -> None:
    assert set(GROUP_NAMES) == {"panel", "outside-seen", "outside-unseen", "population"}
    assert not GROUPS["outside-unseen"] and not GROUPS["population"]
    assert GROUPS["panel"] and GROUPS["outside-seen"]
    # The unseen are listed first.
    assert [GROUPS[g] for g in GROUP_NAMES] == sorted(GROUPS[g] for g in GROUP_NAMES)
    assert group_members("outside-unseen") == UNSEEN_OUTSIDE
    assert group_members("outside-seen") == SEEN_OUTSIDE
    assert set(group_members("panel")) == set(DEFAULT_OPPONENTS) == set(
        PANEL_NAMES) | {"random", "easy", "medium", "hard"}
    pop = group_members("population", 5)
    assert len(pop) == 5 and all(population_seed(n) in EVALUATION_SEEDS for n in pop)
    with pytest.raises(ArenaError, match="unknown opponent group"):
        group_members("friends")


def test_the_cells_of_a_grouped_run() -> None:
    config = GauntletConfig(player="hard", groups=("panel", "outside-unseen"), sizes=(2, 4, 6),
                            mixed=True)
    opponents = config.opponent_list()
    assert "hard" not in opponents and "medium" in opponents
    assert set(UNSEEN_OUTSIDE) <= set(opponents)
    assert len(config.cells()) == 3 * len(opponents)
    mixed = {(g, n): others for g, n, others in config.mixed_tables()}
    assert set(mixed) == {(g, n) for g in ("panel", "outside-unseen") for n in (4, 6)}
    assert mixed["outside-unseen", 4] == UNSEEN_OUTSIDE  # one of each
    assert mixed["outside-unseen", 6] == UNSEEN_OUTSIDE + UNSEEN_OUTSIDE[:2]
    assert "hard" not in mixed["panel", 6]
    # Without groups, the opponents as before, and no mixed tables.
    plain = GauntletConfig(player="hard", opponents=("medium", "hard", "easy"))
    assert plain.opponent_list() == ("medium", "easy") and plain.mixed_tables() == []


def cell(opponent: str, size: int, multiple: float) -> dict:
    rate = multiple / size
    return {"opponent": opponent, "size": size, "games": 10, "win_rate": rate,
            "ci95": [rate / 2, min(1.0, rate * 1.5)], "multiple": multiple,
            "multiple_ci95": [multiple / 2, multiple * 1.5]}


def test_the_worst_case_per_group_and_size() -> None:
    config = GauntletConfig(player="medium", groups=("outside-seen", "outside-unseen"),
                            sizes=(2, 4), mixed=True)
    aggressive, huw, intrepid = UNSEEN_OUTSIDE
    trading, sophie, benchmark, bradderz, usama = SEEN_OUTSIDE
    cells = {
        f"{aggressive}@2": cell(aggressive, 2, 1.2), f"{huw}@2": cell(huw, 2, 0.9),
        f"{intrepid}@2": cell(intrepid, 2, 1.6),
        f"{aggressive}@4": cell(aggressive, 4, 1.5), f"{huw}@4": cell(huw, 4, 1.1),
        f"{intrepid}@4": cell(intrepid, 4, 3.0),
        "mixed:outside-unseen@4": cell("mixed:outside-unseen", 4, 0.8),
        f"{trading}@2": cell(trading, 2, 0.7), f"{sophie}@2": cell(sophie, 2, 2.0),
        f"{trading}@4": cell(trading, 4, 1.4), f"{sophie}@4": cell(sophie, 4, 4.0),
        f"{benchmark}@2": cell(benchmark, 2, 1.5), f"{benchmark}@4": cell(benchmark, 4, 2.5),
        f"{bradderz}@2": cell(bradderz, 2, 1.3), f"{bradderz}@4": cell(bradderz, 4, 1.9),
        f"{usama}@2": cell(usama, 2, 1.0), f"{usama}@4": cell(usama, 4, 1.6),
        "mixed:outside-seen@4": cell("mixed:outside-seen", 4, 2.0),
    }
    result = worst_cases(config, cells)
    groups = result["groups"]
    assert list(groups) == ["outside-unseen", "outside-seen"]  # unseen first, as given or not
    unseen = groups["outside-unseen"]["worst"]
    assert (unseen["2"]["opponent"], unseen["2"]["multiple"]) == (huw, 0.9)
    assert (unseen["4"]["opponent"], unseen["4"]["multiple"]) == ("mixed:outside-unseen", 0.8)
    seen = groups["outside-seen"]["worst"]
    assert (seen["2"]["opponent"], seen["4"]["opponent"]) == (trading, trading)
    assert result["worst_unseen"]["4"]["multiple"] == 0.8
    assert result["worst_seen"]["2"]["multiple"] == 0.7
    # The plain worst case stays over the opponents played alone, every group together.
    assert result["worst"]["4"]["multiple"] == 1.1 and result["worst"]["2"]["multiple"] == 0.7
    # A group with no finished cell of a size has no worst case there yet.
    partial = worst_cases(config, {f"{huw}@2": cells[f"{huw}@2"]})
    assert partial["groups"]["outside-unseen"]["worst"] == {
        "2": {k: cells[f"{huw}@2"][k] for k in ("opponent", "multiple", "win_rate", "ci95",
                                                 "multiple_ci95")}}
    assert partial["groups"]["outside-seen"]["worst"] == {} and "4" not in partial["worst_seen"]
    text = format_gauntlet(config, {"cells": cells, **result})
    assert text.index("outside-unseen (UNSEEN)") < text.index("outside-seen (seen)")
    assert text.index("UNSEEN worst case at 4 seats: 0.80x") < text.index("\nseen worst case at 2")
    assert "mixed table" in text


def test_a_tiny_grouped_run_plays_reports_and_resumes(tmp_path, monkeypatch) -> None:
    config = GauntletConfig(player="medium", groups=("population", "outside-seen"),
                            population=2, sizes=(2, 3), games=3, seed=1, mixed=True)
    path = tmp_path / "g.json"
    result = run_gauntlet(config, str(path))
    pop = group_members("population", 2)
    expected = {f"{o}@{n}" for o in pop + SEEN_OUTSIDE for n in (2, 3)}
    expected |= {"mixed:population@3", "mixed:outside-seen@3"}
    assert set(result["cells"]) == expected
    mixed = result["cells"]["mixed:population@3"]
    assert mixed["players"] == ["medium", *pop] and mixed["games"] == 3
    assert mixed["best_opponent"] in pop
    assert mixed["multiple"] == pytest.approx(mixed["win_rate"] * 3)
    for g in ("population", "outside-seen"):
        for size in ("2", "3"):
            keys = [f"{o}@{size}" for o in config.members(g)] + [f"mixed:{g}@{size}"]
            row = [result["cells"][k]["multiple"] for k in keys if k in result["cells"]]
            assert result["groups"][g]["worst"][size]["multiple"] == min(row)
    assert json.loads(path.read_text())["groups"] == result["groups"]
    text = format_gauntlet(config, result)
    assert "UNSEEN worst case at 3 seats" in text and "seen worst case at 2 seats" in text
    # Started again with the same settings and file, it plays nothing more.
    from byapar_harness import gauntlet

    monkeypatch.setattr(gauntlet, "run_arena", lambda *a, **k: pytest.fail("replayed a cell"))
    assert run_gauntlet(config, str(path))["cells"] == result["cells"]
    # The groups only choose cells: a plain run of the same settings goes on from the file.
    plain = GauntletConfig(player="medium", opponents=pop, sizes=(2,), games=3, seed=1)
    assert run_gauntlet(plain, str(path))["cells"][f"{pop[0]}@2"] == result["cells"][
        f"{pop[0]}@2"]


def test_grouped_runs_are_checked() -> None:
    with pytest.raises(ArenaError, match="give --groups"):
        validate(GauntletConfig(player="medium", opponents=("easy",), mixed=True))
    with pytest.raises(ArenaError, match="--population"):
        validate(GauntletConfig(player="medium", groups=("population",), population=0))
    with pytest.raises(ArenaError, match="distinct"):
        validate(GauntletConfig(player="medium", groups=("panel", "panel")))
    with pytest.raises(ArenaError, match="unknown opponent group"):
        validate(GauntletConfig(player="medium", groups=("friends",)))


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("argv", "fragment"), [
    (["--groups", "friends"], "expected comma-separated groups"),
    (["--groups", "panel", "--opponents", "easy"], "not both"),
    (["--mixed"], "give --groups"),
    (["--groups", "population", "--population", "0"], "--population"),
])
def test_the_command_refuses_bad_groups_in_one_line(argv, fragment, capsys) -> None:
    code, out, err = run(["gauntlet", "medium", *argv], capsys)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err
    assert out == ""


def test_the_command_runs_groups(tmp_path, capsys) -> None:
    path = tmp_path / "g.json"
    code, out, err = run(["gauntlet", "medium", "--groups", "outside-seen", "--sizes", "2",
                          "--games", "2", "--workers", "1", "--json", str(path)], capsys)
    assert code == 0, err
    assert "outside-seen (seen)" in out and "seen worst case at 2 seats" in out
    assert set(json.loads(path.read_text())["groups"]) == {"outside-seen"}
