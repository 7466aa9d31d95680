"""byapar serve's page plays Businessman: the real server on a loopback port, the page in
headless Chromium (Debian's, driven by Playwright, as in test_browser.py), a person choosing
Businessman on the start screen and clicking moves at a desktop width (1280 px) and a phone's
(390 px), with save and load, and a page never wider than the screen; the board drawn as a
board (the big ring, abroad, the motorway and the roulette, with owners, buildings, pledges
and tokens), the share prices as a chart over the game, buttons and cards in plain words, the
page's title, and the Rules page's Businessman section.

Run as a script to picture the board for the docs (docs/businessman_board.png at 1280 x 800,
docs/serve_phone_businessman.png at 390 x 844):

    python tests/test_serve_businessman_browser.py docs
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from test_browser import DESKTOP, PHONE, fits, launch, post, seat_link, server, small

WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
# The person's choice among the buttons: buy, roll, end a session, else the first one shown.
PREFERENCE = ("buy", "roll", "end_session", "skip_card", "reject_trade", "no")


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
    assert page.text_content("#bm-round") == "Round 1 of 3"  # in the board's middle
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


def _prepared_table(base_url: str) -> dict:
    """Three seats: You hold Market stall (with a branch) and Kiosk, Bikash waits on the
    motorway's M5, Chandra stands abroad on Penalty abroad and holds Texas oil, pledged. The
    person's first roll is 3 and 3 (a session at the exchange first); the hand is seed 2's:
    two Market booms (down 3 and down 5), a Deuce and four small rises."""
    from byapar_env.businessman import Game, Rules

    game = Game(Rules(num_players=3, max_rounds=3), seed=2)
    game.owner[1] = game.owner[3] = 0
    game.level[1] = 1
    game.owner[53], game.mortgaged[53], game.pledge_lap[53] = 2, True, 0
    game.track[1], game.position[1] = 2, 60
    game.track[2], game.position[2] = 1, 45
    game.force_dice((3, 3))
    assert game.hands[0] == [0, 2, 3, 4, 4, 4, 4]
    return post(base_url + "/v1/tables", {"game": json.loads(game.to_json()),
                                          "seats": ["person", "easy", "hard"]})


# Where each cell is drawn, as (row, column) of the board's 11 x 11 grid.
GRID = """(ids) => {
    const board = document.getElementById('bm-board').getBoundingClientRect();
    const size = document.getElementById('cell-1').getBoundingClientRect().height;
    return ids.map((i) => {
        const r = document.getElementById('cell-' + i).getBoundingClientRect();
        return [Math.floor((r.y + r.height / 2 - board.y) / size),
                Math.floor((r.x + r.width / 2 - board.x) / size)];
    });
}"""


def _card_name(kind: int) -> str:
    """An Exchange card as a player calls it, from the engine's own figures."""
    from byapar_env.businessman import board as bm_board

    k = bm_board.EXCHANGE_KINDS[kind]
    if k.kind == "boom":
        return f"Market boom: one colour up {k.up}, the others down {k.down}"
    if k.kind == "double":
        return "Deuce: double or halve one colour"
    if k.kind == "rise":
        return f"One colour up {k.up}, the others down {k.down}"
    return f"One colour down {k.down}"


@pytest.mark.parametrize("page", [pytest.param(DESKTOP, id="desktop")], indirect=True)
def test_the_board_the_chart_and_the_words(base_url: str, page) -> None:
    page.goto(seat_link(base_url, _prepared_table(base_url)))
    page.wait_for_selector("#bm-controls button[data-kind=roll]")
    assert page.title() == "Businessman" and page.text_content(".topbar h1") == "Businessman"
    assert page.get_attribute("#rules-link", "href").endswith("rules.html#businessman")

    # The board: the big ring round the edge from Start (bottom right), the side tracks inside
    # it, each next to the cells that lead on and off it, each cell beside the next.
    grid = dict(enumerate(page.evaluate(GRID, list(range(78)))))
    assert [grid[i] for i in (0, 10, 20, 30)] == [[10, 10], [10, 0], [0, 0], [0, 10]]
    for i in range(40):
        assert 0 in grid[i] or 10 in grid[i], (i, grid[i])
    for i in range(40, 78):
        assert all(1 <= x <= 9 for x in grid[i]), (i, grid[i])
    assert len({tuple(x) for x in grid.values()}) == 78  # no two cells in one place

    def next_to(a: int, b: int) -> bool:
        return max(abs(grid[a][0] - grid[b][0]), abs(grid[a][1] - grid[b][1])) == 1

    for track in (range(40, 56), range(56, 66), range(66, 78)):
        cells = list(track)
        assert all(next_to(a, b) for a, b in zip(cells, cells[1:], strict=False)), cells
    assert next_to(77, 66)  # the roulette is a ring
    assert next_to(30, 40) and next_to(55, 31)  # abroad: in at Customs, home at Textile mill
    assert next_to(5, 56) and next_to(65, 35)  # the motorway: from cell 5 to the Broker
    assert next_to(15, 66)  # the roulette from cell 15
    assert page.locator(".bm-arrows line").count() == 6

    # Owners, buildings, pledges and tokens where the game has them.
    colours = page.evaluate("S.board.seat_colours.map(c => { const d = "
                            "document.createElement('i'); d.style.color = c; "
                            "return d.style.color; })")
    assert page.eval_on_selector("#cell-1 .owner", "e => e.style.background") == colours[0]
    assert page.locator("#cell-1 .branch").count() == 1
    assert page.locator("#cell-3 .blds").count() == 0
    assert page.eval_on_selector("#cell-53 .owner", "e => e.style.background") == colours[2]
    assert "pledged" in page.get_attribute("#cell-53", "class")
    tokens = {i: page.eval_on_selector_all(f"#cell-{i} .token", "ts => ts.map(t => t.title)")
              for i in (0, 60, 45)}
    assert tokens == {0: ["You"], 60: ["Bikash"], 45: ["Chandra"]}
    # A cell's card, by a click.
    page.click("#cell-53")
    card = page.text_content("#place-card")
    for text in ("Texas oil", "Abroad", "America", "105,000 cr", "Owner", "Chandra", "Pledged"):
        assert text in card, (text, card)
    page.click("#place-close")

    # Buttons and cards in plain words, never the engine's names or card codes.
    state = page.evaluate("BM.state")
    engine_names = {e["name"] for e in state["legal"]}
    buttons = page.eval_on_selector_all("#bm-controls button, #bm-more button",
                                        "bs => bs.map(b => b.textContent)")
    assert not engine_names & set(buttons), engine_names & set(buttons)
    for text in ("Roll the dice", "Propose a trade to Bikash", "Kiosk (get 12,000 cr)",
                 "A branch on Kiosk (15,000 cr)", "An enterprise on Market stall (30,000 cr)",
                 "The branch on Market stall (get 7,500 cr)"):
        assert text in buttons, (text, buttons)
    headings = page.eval_on_selector_all("#bm-more h4", "hs => hs.map(h => h.textContent)")
    assert headings == ["Trade", "Pledge a lot (the bank lends half its price)", "Build",
                        "Sell a building (for half its cost)"]
    hand = page.eval_on_selector_all("#bm-hand li", "ls => ls.map(l => l.textContent)")
    sizes = ["large"] * 3 + ["small"] * 4
    assert hand == [f"{_card_name(k)} ({d} card)"
                    for k, d in zip(state["view"]["hand"], sizes, strict=True)]
    assert not re.search(r"\b[LS]-[A-Z]+|\bseat \d", page.text_content("#bm-table"))

    # A trade being written reads as the offer.
    page.click("#bm-more button:text-is('Propose a trade to Bikash')")
    page.click("#bm-controls button:text-is('Give Kiosk')")
    page.wait_for_selector("#bm-controls button:text-is('Keep Kiosk')")
    page.click("#bm-controls button:text-is('Ask for one more blue share')")
    page.wait_for_function("BM.state.view.trade && BM.state.view.trade.shares[1] === -1")
    assert page.text_content("#bm-trade") == \
        "You offer Bikash Kiosk for 1 blue share (not sent yet)."
    assert "are writing a trade offer to Bikash" in page.text_content("#bm-status")
    # Sent, it reads in the log as the offer; the computer answers it.
    page.click("#bm-controls button:text-is('Send the offer')")
    page.wait_for_function("BM.state.status.phase === 'PRE_ROLL' && "
                           "BM.state.log.some(l => l.endsWith(' the trade'))", timeout=20_000)
    log = page.text_content("#bm-log")
    assert "You offer Bikash Kiosk for 1 blue share" in log
    assert "Bikash accepts the trade" in log or "Bikash rejects the trade" in log

    # The share prices over the game: flat at 10 to start; a Market boom on red moves them.
    page.wait_for_selector("#bm-controls button[data-kind=roll]")
    assert page.eval_on_selector_all("#bm-chart path", "ps => ps.map(p => p.dataset.prices)") == \
        ["10,10"] * 4
    page.click("#bm-controls button[data-kind=roll]")
    page.wait_for_selector("#bm-controls button[data-kind=play_card]")
    page.click("#bm-controls button:text-is('Red up 10, the others down 5')")
    page.wait_for_function("BM.state.view.prices[0] === 20")
    chart = page.eval_on_selector_all("#bm-chart path",
                                      "ps => ps.map(p => [p.dataset.colour, p.dataset.prices])")
    assert chart == [["RED", "10,20,20"], ["BLUE", "10,5,5"], ["GREEN", "10,5,5"],
                     ["YELLOW", "10,5,5"]]
    assert page.eval_on_selector_all("#bm-scores .bm-score", "s => s.map(x => x.textContent)") \
        == ["red 20", "blue 5", "green 5", "yellow 5"]
    log = page.text_content("#bm-log")
    assert "You play an Exchange card: red up 10, the others down 5" in log
    assert "Share prices now: red 20, blue 5, green 5, yellow 5" in log
    buttons = page.eval_on_selector_all("#bm-controls button", "bs => bs.map(b => b.textContent)")
    assert "Buy a red share (20,000 cr)" in buttons and "End the session" in buttons

    # Back to the setup: the page is Byapar's again.
    page.click("#new-btn")
    assert page.title() == "Byapar" and page.get_attribute("#rules-link", "href").endswith(
        "rules.html")


def test_the_rules_page_tells_businessman(base_url: str, browser) -> None:
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(base_url + "/static/rules.html#businessman")
        assert page.text_content("h1#businessman") == "How to play Businessman"
        text = " ".join(page.text_content("body").split())
        for choice in ("Cash alone is not a trade", "the engine allows 24; the tables here",
                       "the older one is used first", "paid to the bank instead",
                       "counts in net worth at its printed price"):
            assert choice in text, choice
        fits(page)
    finally:
        page.close()


def picture(folder: str) -> None:
    """The board for the docs: a four-seat game at round 7, at a desktop's size and a phone's."""
    from playwright.sync_api import sync_playwright

    out = Path(folder)
    with server() as url, sync_playwright() as p:
        browser = launch(p)
        for name, viewport in (("businessman_board.png", DESKTOP),
                               ("serve_phone_businessman.png", PHONE)):
            page = browser.new_page(viewport=viewport)
            page.goto(url + "/")
            start_businessman(page, ["person", "hard", "medium", "easy"], rounds=20, seed=3)
            while page.evaluate("BM.state.status.round") < 7:
                person_moves(page, 1)
            page.wait_for_function("BM.state.to_move === 'person'")
            page.screenshot(path=str(out / name))
            small(out / name)
            page.close()
        browser.close()


if __name__ == "__main__":
    picture(sys.argv[1] if len(sys.argv) > 1 else "docs")
