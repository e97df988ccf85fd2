"""The bar charts' labels fit their column (an outside probe found ランニング・フラッシュ
cut off and running into its bar on a phone): the column is measured from the longest
label shown, at the largest size site.css sets a chart's words, a full-width character
counted 1em; a label too long for a fair share of the chart wraps. The browser half,
measuring the drawn text, is in tests/test_ux_leftovers_browser.py."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from games.engine.ranking import BRAG_CATEGORIES, COMMERCE_CATEGORIES
from games.event_text import category_label, place_label
from stats.charts import (
    FONT,
    GAP,
    MAX_LABEL_SHARE,
    WIDTH,
    bar_chart,
    label_column,
    line_chart,
    text_em,
    text_units,
)

SITE_CSS = Path(__file__).resolve().parent.parent / "static" / "css" / "site.css"
CATEGORY_KEYS = [key for key, _label in BRAG_CATEGORIES + COMMERCE_CATEGORIES]


def labels_in(svg):
    """Each label's x (where it ends), its lines, and the x of its bar."""
    rows = re.findall(r'<text class="chart__label" x="([\d.]+)"[^>]*>(.*?)</text>'
                      r'<rect class="chart__bar" x="([\d.]+)"', svg)
    return [(float(x), re.findall(r">([^<>]+)<", f">{inner}<"), float(bar))
            for x, inner, bar in rows]


def values_in(svg):
    return [(float(x), text) for x, text in
            re.findall(r'<text class="chart__value" x="([\d.]+)"[^>]*>([^<]+)</text>', svg)]


def test_a_full_width_character_counts_one_em_and_latin_less():
    assert text_em("ランニング・フラッシュ") == 11
    assert text_em("３位") == 2
    assert text_em("ペア") == 2
    assert 0.5 * len("Running flush") < text_em("Running flush") < len("Running flush")
    assert text_em("iiii") < text_em("nnnn") < text_em("MMMM")
    assert text_units("ペア", 20) == 40


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("kind", ["categories", "places"])
def test_the_label_column_fits_the_longest_label_shown(language, kind):
    with translation.override(language):
        if kind == "categories":
            labels = [category_label(key) for key in CATEGORY_KEYS]
        else:
            labels = [place_label(n) for n in range(1, 11)]
        svg = bar_chart("c", [(label, n + 1) for n, label in enumerate(labels)],
                        title="t", description="d")
    longest = max(labels, key=text_em)
    column, _lines = label_column(labels)
    assert column >= text_units(longest) + GAP  # room for it, and a gap before its bar
    assert column < text_units(longest) + GAP + FONT  # and not much more
    for end, lines, bar in labels_in(svg):
        assert len(lines) == 1
        assert end - text_units(lines[0]) >= 0, f"{lines[0]} is cut off at the left"
        assert end + GAP <= bar, f"{lines[0]} runs into its bar"
    for x, count in values_in(svg):
        assert x + text_units(count) <= WIDTH, f"the count {count} is cut off at the right"


def test_the_japanese_running_flush_has_its_room():
    with translation.override("ja"):
        label = category_label("running_flush")
    assert label == "ランニング・フラッシュ"
    [(end, lines, bar)] = labels_in(bar_chart("c", [(label, 3)], title="t", description="d"))
    assert lines == [label]
    assert end >= 11 * FONT and bar >= end + GAP


def test_a_short_label_leaves_the_bars_their_room():
    [(end, _lines, bar)] = labels_in(bar_chart("c", [("1st", 3)], title="t", description="d"))
    assert bar < 4 * FONT


def test_a_label_too_long_for_its_share_wraps_and_every_line_fits():
    long = "ランニング・フラッシュとスリーカード・ブラッグの長い長い名前"
    svg = bar_chart("c", [(long, 2), ("Pair", 5)], title="t", description="d")
    rows = labels_in(svg)
    column = rows[0][2]
    assert column <= WIDTH * MAX_LABEL_SHARE + 2
    first, second = rows
    assert len(first[1]) > 1 and "".join(first[1]) == long  # nothing lost
    assert second[1] == ["Pair"]
    for end, lines, bar in rows:
        for line in lines:
            assert end - text_units(line) >= 0 and end + GAP <= bar
    height = int(re.search(r'viewBox="0 0 640 (\d+)"', svg).group(1))
    assert height > 16 + 2 * 32  # the wrapped row is taller
    words = "a label of many words that is much too long for the room left of the bars"
    rows = labels_in(bar_chart("c", [(words, 1)], title="t", description="d"))
    assert " ".join(rows[0][1]) == words  # broken at spaces


def test_a_large_count_is_not_cut_off():
    svg = bar_chart("c", [("Pair", 123456), ("Run", 1)], title="t", description="d")
    for x, count in values_in(svg):
        assert x + text_units(count) <= WIDTH


def test_the_rating_axis_has_room_for_its_numbers():
    svg = line_chart("r", [99000, 100500], title="t", description="d")
    ends = [float(x) for x in re.findall(r'<text class="chart__axis" x="([\d.]+)"[^>]*'
                                         r'text-anchor="end">\d', svg)]
    assert ends and all(end - text_units("100500") >= 0 for end in ends)


def test_no_rated_games_is_said_in_the_readers_language():
    with translation.override("ja"):
        svg = line_chart("r", [], title="t", description="d")
    assert "No rated games" not in svg and "レート対象のゲームはまだありません" in svg


def test_site_css_never_sets_a_charts_words_larger_than_they_are_measured_at():
    css = re.sub(r"/\*.*?\*/", "", SITE_CSS.read_text(), flags=re.DOTALL)
    sizes = [int(size) for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css)
             if ".chart__" in selector
             for size in re.findall(r"font-size:\s*(\d+)px", body)]
    assert sizes and max(sizes) == FONT
    # no other unit sneaks in for them
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        if ".chart__" in selector and "font-size" in body:
            assert re.search(r"font-size:\s*\d+px", body), selector
