"""No user-visible English outside translation tags, template by template.

Every template is checked. The ones not translated yet are named in
``STILL_TO_TRANSLATE`` -- a documented allowlist that later work empties: the
test reports them on every run (a warning listing them), and fails when one of
them has become clean, so that the list only ever shrinks and never hides a
template that should be checked.
"""

import re
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

TEMPLATES = Path(settings.BASE_DIR) / "templates"

# Templates whose translation tags come in a later pass, named here while they are being
# written (none now: every template is translated). Remove a template from here once it
# passes the check.
STILL_TO_TRANSLATE: set[str] = set()

# Attributes a person reads or hears.
READ_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "aria-description",
                   "aria-roledescription", "data-confirm"}
TRANSLATION_BLOCKS = {"blocktranslate", "blocktrans"}
# Blocks of the admin's base template whose content is a class name, never shown.
CLASS_BLOCKS = {"bodyclass", "coltype"}
# Text that is the same in every language: symbols, and words that are names.
NOT_WORDS = re.compile(r"&[a-z]+;|&#\d+;|SHA-256|Stop the Bus")
WORD = re.compile(r"[A-Za-z]{2,}")
HOLE = " "  # where a template tag or variable stood (a space keeps the HTML parseable)


def all_templates():
    return sorted(p for p in TEMPLATES.rglob("*") if p.is_file()
                  and p.suffix in (".html", ".txt"))


def name_of(path: Path) -> str:
    return path.relative_to(TEMPLATES).as_posix()


def translated_templates():
    return [p for p in all_templates() if name_of(p) not in STILL_TO_TRANSLATE]


def _outside_translation(source: str) -> str:
    """The template's text with every tag and variable made a hole, and the insides of
    blocktranslate, comment and class-name blocks removed (they are translated, or never
    shown)."""
    out = []
    skip_until = None
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            tag = token.contents.split()[0] if token.contents else ""
            if skip_until:
                if tag == skip_until:
                    skip_until = None
                out.append(HOLE)
                continue
            if tag in TRANSLATION_BLOCKS:
                skip_until = "end" + tag
            elif tag == "comment":
                skip_until = "endcomment"
            elif tag == "block" and token.contents.split()[1:2] and (
                    token.contents.split()[1] in CLASS_BLOCKS):
                skip_until = "endblock"
            out.append(HOLE)
        elif token.token_type == TokenType.TEXT and not skip_until:
            out.append(token.contents)
        else:
            out.append(HOLE)
    return "".join(out)


class _VisibleText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.pieces = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            read = name in READ_ATTRIBUTES or (
                name == "value" and dict(attrs).get("type") in ("submit", "button"))
            if read and value:
                self.pieces.append((f'{name}="', value, '"'))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.pieces.append(("", data, ""))


def untranslated_text(path: Path) -> list[str]:
    """User-visible text of ``path`` that is outside translation tags."""
    source = path.read_text(encoding="utf-8")
    text = _outside_translation(source)
    if path.suffix == ".txt":
        pieces = [("", text, "")]
    else:
        parser = _VisibleText()
        parser.feed(text)
        parser.close()
        pieces = parser.pieces
    found = []
    for before, piece, after in pieces:
        words = NOT_WORDS.sub(" ", piece)
        if WORD.search(words):
            found.append(before + " ".join(piece.split()) + after)
    return found


def test_the_allowlist_names_only_templates_that_exist():
    names = {name_of(p) for p in all_templates()}
    assert names >= STILL_TO_TRANSLATE, STILL_TO_TRANSLATE - names


@pytest.mark.parametrize("path", translated_templates(), ids=name_of)
def test_translated_template_has_no_text_outside_translation_tags(path):
    assert untranslated_text(path) == []


def test_templates_still_to_translate_are_reported_and_still_need_it():
    """The allowlist is reported on every run, and a template that has become clean
    must leave it (so the list stays true)."""
    clean = sorted(n for n in STILL_TO_TRANSLATE if not untranslated_text(TEMPLATES / n))
    assert clean == [], f"translated now: remove from STILL_TO_TRANSLATE: {clean}"
    warnings.warn(
        f"{len(STILL_TO_TRANSLATE)} templates still to translate (tests/test_i18n_templates.py"
        f" STILL_TO_TRANSLATE): {', '.join(sorted(STILL_TO_TRANSLATE))}", stacklevel=1)


def test_the_check_finds_english_outside_the_tags(tmp_path):
    """The checker itself: text, read attributes and buttons are caught; translated
    text, tags, comments, scripts and symbols are not."""
    template = TEMPLATES / "stats" / "_pagination.html"
    assert untranslated_text(template) == []
    samples = {
        "<p>Hello there</p>": ["Hello there"],
        '<button aria-label="Close the panel">{% translate "x" %}</button>':
            ['aria-label="Close the panel"'],
        '<input type="submit" value="Send it">': ['value="Send it"'],
        "<p>{% translate 'Hello there' %} &middot; {{ name }}</p>": [],
        "<p>{% blocktranslate %}Hello {{ name }}{% endblocktranslate %}</p>": [],
        "{% comment %}Needs: a page{% endcomment %}<p>3 &times; 4</p>": [],
        "<script>let label = 'not shown';</script><p>SHA-256</p>": [],
        "{% block bodyclass %}{{ block.super }} variant-lab{% endblock %}": [],
        "{% block content %}Shown text{% endblock %}": ["Shown text"],
        '<div class="stats-table" id="x">{{ value }}</div>': [],
    }
    probe = tmp_path / "probe.html"
    for source, expected in samples.items():
        probe.write_text(source, encoding="utf-8")
        assert untranslated_text(probe) == expected, source
