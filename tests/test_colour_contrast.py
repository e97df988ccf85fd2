"""Issue 32, item 7: every colour pair the pages use meets WCAG AA (4.5:1 for text), in
light and in dark mode.

Cheap and complete where the browser test is slow and sees only what one page shows: the
stylesheets are read with tinycss2, every rule that sets both a text colour and a solid
background is checked in both schemes (custom properties resolved, dark mode's rules and
variables laid over the light ones), and so is every avatar colour under its initials, and
the design's pairs of variables (text on the page, on panels, on its tinted backgrounds).
tests/test_avatar_contrast_browser.py runs axe-core on every avatar colour in chromium.
"""

import re
from pathlib import Path

import pytest
import tinycss2
from django.conf import settings
from tinycss2.color4 import parse_color

from games.templatetags.cards import AVATAR_COLOURS

CSS = [Path(settings.BASE_DIR) / "static" / "css" / name for name in ("site.css", "table.css")]
AA_TEXT = 4.5


def luminance(colour) -> float:
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour.to("srgb").coordinates)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _declarations(rule):
    found = {}
    for d in tinycss2.parse_blocks_contents(rule.content, skip_comments=True,
                                            skip_whitespace=True):
        if d.type == "declaration":
            found[d.lower_name] = tinycss2.serialize(d.value).strip()
    return found


def _rules(nodes, dark=False):
    """(selector, declarations, is dark mode's) of every style rule, in order."""
    for node in nodes:
        if node.type == "qualified-rule":
            decls = _declarations(node)
            for selector in tinycss2.serialize(node.prelude).split(","):
                yield " ".join(selector.split()), decls, dark
        elif node.type == "at-rule" and node.lower_at_keyword == "media" and node.content:
            query = tinycss2.serialize(node.prelude)
            inner = tinycss2.parse_rule_list(node.content, skip_comments=True,
                                             skip_whitespace=True)
            yield from _rules(inner, dark or "prefers-color-scheme: dark" in query)


@pytest.fixture(scope="module")
def rules():
    found = []
    for path in CSS:
        sheet = tinycss2.parse_stylesheet(path.read_text(encoding="utf-8"),
                                          skip_comments=True, skip_whitespace=True)
        found += list(_rules(sheet))
    return found


def _variables(rules, dark):
    names = {}
    for selector, decls, is_dark in rules:
        if selector == ":root" and (not is_dark or dark):
            names.update({k: v for k, v in decls.items() if k.startswith("--")})
    return names


def _resolve(value, variables):
    for _ in range(5):
        value = re.sub(r"var\((--[\w-]+)\)", lambda m: variables.get(m.group(1), ""), value)
    return value


def _solid(value, variables):
    """The one solid colour a color/background value is, else None (gradients, images,
    see-through colours, inherit: nothing to check on its own)."""
    value = _resolve(value or "", variables).strip()
    if not value or "gradient" in value or "url(" in value:
        return None
    tokens = [t for t in tinycss2.parse_component_value_list(value)
              if t.type != "whitespace"]
    if len(tokens) != 1:
        return None
    colour = parse_color(tokens[0])
    if colour is None or colour == "currentcolor" or colour.alpha < 1:
        return None
    return colour


def _pairs(rules, dark):
    """{selector: (text colour, background)} with dark mode's rules laid over."""
    merged = {}
    for selector, decls, is_dark in rules:
        if selector == ":root" or (is_dark and not dark):
            continue
        mine = merged.setdefault(selector, {})
        for name in ("color", "background", "background-color"):
            if name in decls:
                mine["background" if name.startswith("background") else name] = decls[name]
    return merged


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_rule_with_text_on_a_background_meets_aa(rules, dark):
    variables = _variables(rules, dark)
    failures, checked = [], 0
    for selector, decls in _pairs(rules, dark).items():
        ink = _solid(decls.get("color"), variables)
        paper = _solid(decls.get("background"), variables)
        if ink is None or paper is None:
            continue
        checked += 1
        ratio = contrast(ink, paper)
        if ratio < AA_TEXT:
            failures.append((selector, round(ratio, 2)))
    assert checked > 30, checked  # the reading found the pairs
    assert failures == [], failures


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_avatar_colour_meets_aa_under_its_initials(rules, dark):
    variables = _variables(rules, dark)
    pairs = _pairs(rules, dark)
    initials = _solid(pairs[".avatar"]["color"], variables)
    palette = {}
    for selector, decls in pairs.items():
        match = re.fullmatch(r"\.avatar--c(\d+)", selector)
        if match and "background" in decls:
            palette[int(match.group(1))] = _solid(decls["background"], variables)
    # one colour for each value the avatar_colour filter gives, no more, no fewer
    assert sorted(palette) == list(range(AVATAR_COLOURS))
    low = {n: round(contrast(initials, c), 2) for n, c in palette.items()
           if contrast(initials, c) < AA_TEXT}
    assert low == {}


# text colours on the surfaces they are written on, by the design's variables
DESIGN_PAIRS = [("--ink", "--page"), ("--ink", "--paper"), ("--muted", "--page"),
                ("--muted", "--paper"), ("--danger", "--danger-light"),
                ("--danger", "--paper"), ("--felt", "--paper"), ("--felt", "--page"),
                ("--felt-dark", "--felt-light"), ("--ink", "--warning-light"),
                ("--ink", "--felt-light"), ("--muted", "--felt-light")]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_designs_text_colours_meet_aa_on_their_surfaces(rules, dark):
    variables = _variables(rules, dark)
    low = []
    for ink, paper in DESIGN_PAIRS:
        a, b = _solid(f"var({ink})", variables), _solid(f"var({paper})", variables)
        assert a is not None and b is not None, (ink, paper)
        if contrast(a, b) < AA_TEXT:
            low.append((ink, paper, round(contrast(a, b), 2)))
    assert low == []


def test_the_check_finds_a_low_contrast_pair():
    """The reading and the sums catch what they must: a palette entry of the issue's
    (#b5651d under white, 4.34:1) and a rule setting grey on grey."""
    white, orange = parse_color("#fff"), parse_color("#b5651d")
    assert 4.3 < contrast(white, orange) < AA_TEXT
    assert round(contrast(parse_color("#000"), white), 1) == 21.0
    sheet = tinycss2.parse_stylesheet(".x { color: #777; background: var(--bg) } "
                                      ":root { --bg: #888 }", skip_whitespace=True)
    found = list(_rules(sheet))
    pair = _pairs(found, False)[".x"]
    variables = _variables(found, False)
    assert contrast(_solid(pair["color"], variables), _solid(pair["background"], variables)) < 2
