"""Server-rendered SVG charts: labelled for screen readers, escaped, scaled to fit."""

import re

from stats.charts import bar_chart, describe_counts, line_chart


def test_a_line_chart_is_an_image_with_a_title_and_a_description():
    svg = line_chart("r", [1000, 1040, 1010], title="Rating <of> me",
                     description="3 games", first_label="1 Jan", last_label="3 Jan")
    assert svg.startswith('<svg class="chart" id="r" role="img" viewBox="0 0 640 220"')
    assert 'aria-labelledby="r-title r-desc"' in svg
    assert '<title id="r-title">Rating &lt;of&gt; me</title>' in svg
    assert '<desc id="r-desc">3 games</desc>' in svg
    points = re.search(r'points="([^"]+)"', svg).group(1).split()
    assert len(points) == 3
    ys = [float(p.split(",")[1]) for p in points]
    assert ys[1] < ys[2] < ys[0], "higher ratings are drawn higher"
    assert "1 Jan" in svg and "3 Jan" in svg and svg.endswith("</svg>")


def test_charts_with_nothing_to_show_say_so():
    assert "No rated games yet" in line_chart("r", [], title="t", description="d")
    assert "Nothing yet" in bar_chart("b", [], title="t", description="d")


def test_a_single_rating_is_drawn_without_dividing_by_zero():
    svg = line_chart("r", [1000.0], title="t", description="d")
    assert "<circle" in svg


def test_a_bar_chart_writes_its_numbers_and_escapes_its_labels():
    svg = bar_chart("b", [("1st", 4), ("<2nd>", 2)], title="Places", description="d")
    assert "&lt;2nd&gt;" in svg and "<2nd>" not in svg
    widths = [float(w) for w in re.findall(r'<rect[^>]*width="([\d.]+)"', svg)]
    assert widths[0] == 2 * widths[1]
    assert ">4</text>" in svg and ">2</text>" in svg


def test_counts_in_words():
    assert describe_counts([("1st", 1), ("2nd", 3)], "game") == "1st: 1 game; 2nd: 3 games."
    assert describe_counts([], "hand") == "No hands yet."


def test_one_point_or_one_day_has_its_date_written_once():
    """A player's first rated game: the chart wrote the same date at both ends."""
    from stats.charts import line_chart

    one = str(line_chart("r", [1500.0], title="t", description="d",
                         first_label="28 Nov 2026", last_label="28 Nov 2026"))
    assert one.count("28 Nov 2026") == 1 and 'text-anchor="middle">28 Nov 2026' in one
    same_day = str(line_chart("r", [1500.0, 1510.0], title="t", description="d",
                              first_label="28 Nov 2026", last_label="28 Nov 2026"))
    assert same_day.count("28 Nov 2026") == 1
    two_days = str(line_chart("r", [1500.0, 1510.0], title="t", description="d",
                              first_label="27 Nov 2026", last_label="28 Nov 2026"))
    assert "27 Nov 2026" in two_days and "28 Nov 2026" in two_days
