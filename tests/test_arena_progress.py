"""The arena's progress: a bar redrawn in place on a terminal, plain lines in a log file."""

from __future__ import annotations

import io

from byapar_harness.arena import progress_bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_log_file_gets_a_line_at_the_first_report_and_each_tenth_no_carriage_returns() -> None:
    log = io.StringIO()
    for done in range(1, 41):
        progress_bar(done, 40, log)
    assert log.getvalue().splitlines() == ["1/40 games"] + [f"{n}/40 games"
                                                            for n in range(4, 41, 4)]
    assert "\r" not in log.getvalue()


def test_a_terminal_gets_the_bar() -> None:
    screen = Terminal()
    progress_bar(1, 2, screen)
    progress_bar(2, 2, screen)
    assert screen.getvalue() == ("\r[###############...............] 1/2 games"
                                 "\r[##############################] 2/2 games\n")
