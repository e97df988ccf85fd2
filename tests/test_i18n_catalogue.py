"""The Japanese catalogue: complete, consistent, compiled, and covering every message.

The compiled django.mo is committed (README, "Languages"), so these tests also hold
that it says exactly what django.po says: a .po edited without running
``python locale/compile.py`` fails here, not silently on the site.
"""

import ast
import os
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils.translation.template import templatize

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
JA_PO = LOCALE / "ja" / "LC_MESSAGES" / "django.po"
JA_MO = JA_PO.with_suffix(".mo")

PLACEHOLDER = re.compile(r"%\(\w+\)[-+ #0]*\d*(?:\.\d+)?[sdfi]")

# The files whose messages this catalogue must hold: the translated templates and
# every module of the project's own Python (a hand-kept list of modules missed the admin's
# messages, games/admin.py). Migrations only copy the models' words; tests and benchmarks
# say nothing to players.
SKIPPED_PYTHON = ("tests", "benchmarks", "migrations", ".venv", "staticfiles", "locale")


def translated_python():
    return sorted(p for p in ROOT.rglob("*.py")
                  if not set(p.relative_to(ROOT).parts) & set(SKIPPED_PYTHON))

GETTEXT_NAMES = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy",
                 "pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}


def translated_templates():
    from tests.test_i18n_templates import translated_templates as done

    return done()


@pytest.fixture(scope="module")
def catalogue():
    return polib.pofile(str(JA_PO))


def key(entry):
    return (entry.msgctxt or "", entry.msgid)


def message(entry):
    """(context, singular, plural): what makemessages matches a catalogue entry by; a
    reworded plural alone makes it fuzzy, and the next compile drops it."""
    return (entry.msgctxt or "", entry.msgid, entry.msgid_plural or "")


def test_every_language_has_a_catalogue():
    for code, _name in settings.LANGUAGES:
        if code.startswith("en"):
            continue  # the source language: messages are written in English
        assert (LOCALE / code / "LC_MESSAGES" / "django.po").exists(), code
        assert (LOCALE / code / "LC_MESSAGES" / "django.mo").exists(), code


def test_japanese_catalogue_is_fully_translated_and_nothing_is_fuzzy(catalogue):
    untranslated = [e.msgid for e in catalogue.untranslated_entries()]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    obsolete = [e.msgid for e in catalogue.obsolete_entries()]
    assert untranslated == [], f"untranslated: {untranslated}"
    assert fuzzy == [], f"fuzzy: {fuzzy}"
    assert obsolete == [], f"obsolete entries left in the catalogue: {obsolete}"
    assert catalogue.percent_translated() == 100
    assert "fuzzy" not in (catalogue.metadata_is_fuzzy or [])
    assert catalogue.metadata["Language"] == "ja"
    assert catalogue.metadata["Plural-Forms"].startswith("nplurals=1;")
    for entry in catalogue:
        if entry.msgid_plural:
            # Japanese has one form; a missing or empty form would show English.
            assert set(entry.msgstr_plural) == {0}, entry.msgid
            assert entry.msgstr_plural[0].strip(), entry.msgid


def test_no_leftover_of_a_fuzzy_match_and_gnu_gettext_can_read_the_catalogue(catalogue):
    """An entry once matched fuzzily keeps its old English as "#|" lines: its translation
    was written for other words, and with the "fuzzy" flag taken off by hand nothing else
    says so (GNU msgfmt and msgmerge even refuse the file: such lines on an entry with no
    plural are a syntax error)."""
    text = JA_PO.read_text(encoding="utf-8")
    leftovers = [line for line in text.splitlines() if line.startswith("#|")]
    assert leftovers == []
    assert not [e.msgid for e in catalogue if e.previous_msgid or e.previous_msgid_plural]
    # every plural entry has exactly the forms the catalogue's plural rule counts
    forms = int(re.search(r"nplurals=(\d+)", catalogue.metadata["Plural-Forms"]).group(1))
    wrong = [(e.msgid, sorted(e.msgstr_plural)) for e in catalogue if e.msgid_plural
             and sorted(int(k) for k in e.msgstr_plural) != list(range(forms))]
    assert wrong == []
    msgfmt = shutil.which("msgfmt")
    if msgfmt:  # a developer tool: checked where it is installed
        checked = subprocess.run([msgfmt, "--check", "-o", os.devnull, str(JA_PO)],
                                 capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stderr


def test_every_message_with_placeholders_is_marked_python_format(catalogue):
    """makemessages marks them; an entry added by hand without the flag escapes the
    placeholder checks of msgfmt --check."""
    unmarked = [e.msgid for e in catalogue
                if PLACEHOLDER.search(e.msgid + (e.msgid_plural or ""))
                and "python-format" not in e.flags]
    assert unmarked == []


def test_the_site_says_every_entry_in_japanese(catalogue):
    """What the site looks up, not what the file holds: each message through Django's
    gettext in Japanese (for plurals, with several counts) comes back translated."""
    from django.utils import translation

    english = []
    with translation.override("ja"):
        for entry in catalogue:
            if not entry.msgid:
                continue
            if entry.msgid_plural:
                for n in (0, 1, 2, 5):
                    said = (translation.npgettext(entry.msgctxt, entry.msgid,
                                                  entry.msgid_plural, n)
                            if entry.msgctxt else
                            translation.ngettext(entry.msgid, entry.msgid_plural, n))
                    if said != entry.msgstr_plural[0]:
                        english.append((n, entry.msgid))
            else:
                said = (translation.pgettext(entry.msgctxt, entry.msgid) if entry.msgctxt
                        else translation.gettext(entry.msgid))
                if said != entry.msgstr:
                    english.append(entry.msgid)
    assert english == []


def test_translations_keep_every_placeholder(catalogue):
    """A lost %(name)s drops a player's name; an extra one raises at render time."""
    for entry in catalogue:
        source = entry.msgid_plural or entry.msgid  # the plural names every value
        translated = entry.msgstr_plural.get(0) if entry.msgid_plural else entry.msgstr
        assert set(PLACEHOLDER.findall(translated)) == set(PLACEHOLDER.findall(source)), (
            f"{entry.msgid!r} -> {translated!r}")


def test_japanese_uses_the_glossary_terms(catalogue):
    """The seed's words for the game's terms, one word per term everywhere."""
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    by_english = {key(e): (e.msgstr_plural.get(0) if e.msgid_plural else e.msgstr)
                  for e in catalogue}
    for term in ("プライアル", "ランニング・フラッシュ", "ラン", "フラッシュ", "ペア", "ライフ",
                 "バスを止め"):
        assert term in glossary, term
    assert by_english[("", "Prial")] == "プライアル"
    assert by_english[("", "Running flush")] == "ランニング・フラッシュ"
    assert by_english[("", "Run")] == "ラン"
    assert by_english[("", "Flush")] == "フラッシュ"
    assert by_english[("", "Pair")] == "ペア"
    assert by_english[("", "Lives")] == "ライフ"
    assert "バスを止めました" in by_english[("", "%(name)s stopped the bus")]
    # words the glossary rules out: one Japanese word per English term
    for entry in catalogue:
        text = entry.msgstr_plural.get(0) if entry.msgid_plural else entry.msgstr
        for wrong in ("命", "ストック", "ウィドウ", "ディスカード", "ラウンド"):
            assert wrong not in text, f"{wrong} in {text!r}: see docs/glossary.md"


def test_committed_mo_matches_the_po(catalogue):
    """Run ``python locale/compile.py`` after editing the .po."""
    compiled = polib.mofile(str(JA_MO))
    assert {key(e): (e.msgstr, e.msgstr_plural) for e in compiled if e.msgid} == {
        key(e): (e.msgstr, {int(k): v for k, v in e.msgstr_plural.items()})
        for e in catalogue if e.msgid}
    assert compiled.metadata.get("Plural-Forms") == catalogue.metadata["Plural-Forms"]


def test_the_source_language_catalogue_says_every_message_as_written(catalogue):
    """locale/en_GB's django.mo (written by locale/compile.py) lists every message of the
    Japanese catalogue in its own words, so that English lookups stop at the first
    catalogue; it changes nothing an English reader sees."""
    from django.utils import translation

    source = polib.mofile(str(LOCALE / "en_GB" / "LC_MESSAGES" / "django.mo"))
    said = {key(e): (e.msgstr, e.msgstr_plural) for e in source if e.msgid}
    assert said == {key(e): ("", {0: e.msgid, 1: e.msgid_plural}) if e.msgid_plural
                    else (e.msgid, {}) for e in catalogue if e.msgid}
    with translation.override("en-gb"):
        for entry in list(catalogue)[:200]:
            if entry.msgid and not entry.msgid_plural and not entry.msgctxt:
                assert translation.gettext(entry.msgid) == entry.msgid
    with translation.override("ja"):
        assert translation.gettext("Game over") == "ゲーム終了"


def _template_messages(path: Path):
    """(context, msgid) of every translate/blocktranslate tag, as makemessages sees them."""
    code = templatize(path.read_text(encoding="utf-8"), origin=str(path))
    for match in re.finditer(r"\b(n?p?gettext)\(", code):
        start = match.start()
        for end in range(match.end(), len(code) + 1):
            if code[end - 1:end] != ")":
                continue
            try:
                call = ast.parse(code[start:end], mode="eval").body
            except SyntaxError:
                continue
            yield _message_of(call)
            break


def _message_of(call: ast.Call):
    """(context, singular, plural) of a gettext call; "" for no context or no plural."""
    name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr
    args = [a.value if isinstance(a, ast.Constant) else None for a in call.args]
    if name.startswith("npgettext"):
        return args[0], args[1], args[2] if len(args) > 2 else None
    if name.startswith("pgettext"):
        return args[0], args[1], ""
    if name.startswith("ngettext"):
        return "", args[0], args[1] if len(args) > 1 else None
    return "", args[0], ""


def _python_messages(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in GETTEXT_NAMES or not node.args:
            continue
        msg = _message_of(node)
        if all(isinstance(part, str) for part in msg):
            yield msg


def test_every_message_of_the_translated_files_is_in_the_catalogue(catalogue):
    """A new or reworded message must reach the catalogue (run makemessages, translate),
    its plural too: makemessages would make an entry whose plural no longer matches fuzzy,
    and the translation would be gone from the site."""
    known = {message(e) for e in catalogue}
    missing = []
    for path in translated_templates():
        missing += [(path.name, m) for m in _template_messages(path) if m not in known]
    for path in translated_python():
        name = str(path.relative_to(ROOT))
        missing += [(name, m) for m in _python_messages(path) if m not in known]
    assert missing == []


def test_the_checks_above_find_what_they_look_for():
    """The extraction sees the messages it must, so an empty result means something."""
    found = set(_template_messages(ROOT / "templates" / "stats" / "_pagination.html"))
    assert ("", "Page %(number)s of %(pages)s", "") in found
    assert ("", "Previous", "") in found
    found = set(_python_messages(ROOT / "games" / "event_text.py"))
    assert ("card name", "%(rank)s of %(suit)s", "") in found
    assert ("", "%(name)s stopped the bus", "") in found
    # plurals are read whole, from every module (the admin's too)
    assert ("", "The stock ran out: the discard pile but its top card was shuffled into a "
            "new stock of %(count)d card, sealed as SHA-256 %(commitment)s.",
            "The stock ran out: the discard pile but its top card was shuffled into a "
            "new stock of %(count)d cards, sealed as SHA-256 %(commitment)s.") in found
    assert ROOT / "games" / "admin.py" in translated_python()
    assert not [p for p in translated_python() if "migrations" in p.parts]
    found = set(_python_messages(ROOT / "games" / "admin.py"))
    assert any(m[1].startswith("Made %(count)d copy") and m[2].startswith(
        "Made %(count)d copies") for m in found)
    found = set(_template_messages(ROOT / "templates" / "games" / "_board.html"))
    assert ("", "lost %(count)s life", "lost %(count)s lives") in found
