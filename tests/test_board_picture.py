"""The board picture (``byapar_env.board_picture``, ``render_rgb``, docs/board.png): every
square's name whole, on at most two lines, at two sizes."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from byapar_env.board_picture import CELL, fit_label, font, wrap
from byapar_env.engine import Game, Rules, board
from byapar_env.render import render_rgb, save_board_picture


@pytest.mark.parametrize("text, width, lines", [
    ("Jail", 9, ["Jail"]),
    ("Drinking water", 9, ["Drinking", "water"]),
    ("Go to jail", 9, ["Go to", "jail"]),
    # a word wider than the line: split after a vowel before a consonant, nearest the middle
    ("Mahendranagar", 9, ["Mahendra-", "nagar"]),
    ("Mahendranagar", 13, ["Mahendranagar"]),
    # no such break fits: the longest part that does
    ("Bhktpr", 4, ["Bhk-", "tpr"]),
])
def test_a_label_wraps_at_spaces_then_between_syllables(text, width, lines) -> None:
    assert wrap(text, width, len) == lines


def test_a_label_that_needs_three_lines_gets_a_smaller_size() -> None:
    # a letter is size / 10 wide: "aaa bbb" is 7 at size 10, 6.3 at 9, 5.6 at 8
    def measure_at(size):
        return lambda text: len(text) * size / 10

    assert fit_label("Bus park ticket", 8, 10, measure_at) == (["Bus park", "ticket"], 10)
    assert fit_label("aa bb cc dd", 6, 10, measure_at) == (["aa bb", "cc dd"], 10)
    assert fit_label("aaa bbb ccc", 6, 10, measure_at) == (["aaa bbb", "ccc"], 8)


@pytest.mark.parametrize("scale", [1, 2])
def test_every_square_name_is_drawn_whole_inside_its_square(scale) -> None:
    d = ImageDraw.Draw(Image.new("RGB", (1, 1)))

    def measure_at(size):
        return lambda text: d.textlength(text, font=font(size))

    width = CELL * scale - 8 * scale
    for s in board.SQUARES:
        lines, size = fit_label(s.name, width, 10 * scale, measure_at)
        assert 1 <= len(lines) <= 2 and size >= 8 * scale
        assert all(measure_at(size)(line) <= width for line in lines)
        joined = "".join(line[:-1] if line.endswith("-") else line + " " for line in lines)
        assert joined.strip() == s.name
    lines, _ = fit_label("Mahendranagar", CELL - 8, 10, measure_at)
    assert lines == ["Mahendra-", "nagar"]


def test_the_picture_is_720_pixels_a_side_times_the_scale(tmp_path) -> None:
    game = Game(Rules(num_players=6), seed=1)
    small, large = render_rgb(game), render_rgb(game, scale=2)
    assert small.shape == (720, 720, 3) and small.dtype == np.uint8
    assert large.shape == (1440, 1440, 3)
    save_board_picture(str(tmp_path / "board.png"))
    assert Image.open(tmp_path / "board.png").size == (1440, 1440)
