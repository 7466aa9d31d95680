"""byapar serve's page plays Businessman: the real server on a loopback port, the page in
headless Chromium (Debian's, driven by Playwright, as in test_browser.py), a person choosing
Businessman on the start screen and clicking moves at a desktop width (1280 px) and a phone's
(390 px), with save and load, and a page never wider than the screen."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_browser import DESKTOP, PHONE, fits, launch, server

WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
# The person's choice among the buttons: buy, roll, end a session, else the first one shown.
PREFERENCE = ("buy", "roll", "end_session", "skip_card", "reject_trade", "no")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with server() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport=request.param, accept_downloads=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()
    assert page.errors == [], page.errors  # no JavaScript error on the page


def start_businessman(page, seats: list[str], rounds: int, seed: int) -> None:
    page.wait_for_selector("#start")
    page.select_option("#game-kind", "businessman")
    assert page.is_visible("#businessman-options") and page.is_hidden("#byapar-options")
    offered = page.eval_on_selector(".seat-select", "s => [...s.options].map(o => o.value)")
    assert offered == ["person", "random", "easy", "medium", "hard", "expert"], offered
    while page.locator(".seat-select").count() > len(seats):
        page.locator(".remove-seat").last.click()
    for i, name in enumerate(seats):
        page.locator(".seat-select").nth(i).select_option(name)
    page.fill("#bm-rounds", str(rounds))
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#bm-table:not([hidden])")


def person_moves(page, clicks: int) -> int:
    """Click the person's choices; returns the clicks made (fewer once the game is over)."""
    for made in range(clicks):
        page.wait_for_function("BM.state && (BM.state.status.is_over || "
                               "document.querySelector('#bm-controls button[data-kind], "
                               "#bm-more button[data-kind]'))", timeout=20_000)
        if page.evaluate("BM.state.status.is_over"):
            return made
        kinds = page.eval_on_selector_all("#bm-controls button[data-kind]",
                                          "bs => bs.map(b => b.dataset.kind)")
        kind = next((k for k in PREFERENCE if k in kinds), kinds[0] if kinds else None)
        where = "#bm-controls" if kind is not None else "#bm-more"
        version = page.evaluate("BM.state.version")
        selector = f"{where} button[data-kind={kind}]" if kind else f"{where} button"
        page.click(f"{selector} >> nth=0")
        page.wait_for_function("v => BM.state && BM.state.version !== v", arg=version,
                               timeout=20_000)
    return clicks


@pytest.mark.parametrize("page", WIDTHS, indirect=True)
def test_a_person_plays_businessman_in_the_browser(base_url: str, page, tmp_path: Path) -> None:
    page.goto(base_url + "/")
    start_businessman(page, ["person", "easy"], rounds=3, seed=5)
    assert page.locator(".bm-cell").count() == 78
    assert page.locator("#bm-players .player").count() == 2
    assert page.locator("#bm-hand li").count() == 7  # the person's own Exchange hand
    assert "Round 1 of 3" in page.text_content("#bm-status")
    state = page.evaluate("BM.state")
    assert state["viewer"] == 0 and "hands" not in state["view"]
    fits(page)

    assert person_moves(page, 12) >= 3
    log = page.text_content("#bm-log")
    assert "You roll" in log and "seat 0" not in log
    fits(page)

    with page.expect_download() as download:
        page.click("#save-btn")
    saved = tmp_path / "saved.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["format"] == "businessman-table" and data["seats"] == ["person", "easy"]

    before = page.evaluate("BM.state")
    page.set_input_files("#load-file-top", str(saved))
    page.wait_for_function("id => BM.state && BM.state.id !== id", arg=before["id"])
    loaded = page.evaluate("BM.state")
    assert loaded["version"] == 0 and loaded["game"] == "businessman"
    assert loaded["status"]["turn_count"] == data["game"]["turn_count"]

    # Back to the setup: Byapar is a choice away, and its table still opens.
    page.click("#new-btn")
    page.select_option("#game-kind", "byapar")
    assert page.is_visible("#byapar-options") and page.is_hidden("#bm-table")
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")
    assert page.locator(".sq").count() == 36 and page.is_hidden("#bm-table")
    fits(page)
