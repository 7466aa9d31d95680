"""Fixtures the browser tests share: the real server on a loopback port, and one headless
Chromium per test module (test_browser.py says how both are started)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """``byapar serve`` as a person starts it (seats that need their secrets)."""
    from test_browser import server

    with server() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    from test_browser import launch

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def page(browser, request):
    """A fresh page at the test's viewport (an indirect parameter, else the module's
    ``VIEWPORT``, else a desktop's), which must end with no JavaScript error."""
    from test_browser import DESKTOP

    viewport = getattr(request, "param", None) or getattr(request.module, "VIEWPORT", DESKTOP)
    context = browser.new_context(viewport=viewport, accept_downloads=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()
    assert page.errors == [], page.errors  # no JavaScript error on the page
