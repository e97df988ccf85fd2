"""Compile every locale/*/LC_MESSAGES/django.po into the django.mo beside it, and write
the source language's catalogue.

Pure Python (polib, a development requirement), so no GNU gettext is needed:
    python locale/compile.py
The compiled .mo files are committed, so running and testing the site needs no
compile step at all; tests/test_i18n_catalogue.py fails when a .mo no longer
matches its .po, which says to run this.

The source language (English, ``settings.LANGUAGE_CODE``) gets a catalogue too,
``locale/en_GB/LC_MESSAGES/django.mo``, made here from the translated catalogue's
messages, each said as written. It changes no word: a message English has no
catalogue entry for is looked up through every catalogue Django could not merge
(Django's own apps' English files, which carry no plural rule) before it comes back
as written, and a table's view says some hundred messages, so an English page cost
twice the time of a Japanese one (benchmarks.profile_board, README "Languages").
"""

from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent
SOURCE = "en_GB"  # settings.LANGUAGE_CODE, as a locale name
SOURCE_FROM = "ja"  # whose messages the source catalogue lists
ENGLISH_PLURALS = "nplurals=2; plural=(n != 1);"


def source_catalogue(translated: polib.POFile) -> polib.POFile:
    """Every message of ``translated``, said in the words it is written in."""
    source = polib.POFile()
    source.metadata = {"Content-Type": "text/plain; charset=UTF-8",
                       "Language": SOURCE, "Plural-Forms": ENGLISH_PLURALS}
    for entry in translated:
        if not entry.msgid or entry.obsolete:
            continue
        same = polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid)
        if entry.msgid_plural:
            same.msgid_plural = entry.msgid_plural
            same.msgstr_plural = {0: entry.msgid, 1: entry.msgid_plural}
        else:
            same.msgstr = entry.msgid
        source.append(same)
    return source


def compile_all() -> list[Path]:
    written = []
    for po_path in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        catalogue = polib.pofile(str(po_path))
        catalogue.save_as_mofile(str(mo_path))
        written.append(mo_path)
        if po_path.parent.parent.name == SOURCE_FROM:
            source_mo = LOCALE / SOURCE / "LC_MESSAGES" / mo_path.name
            source_mo.parent.mkdir(parents=True, exist_ok=True)
            source_catalogue(catalogue).save_as_mofile(str(source_mo))
            written.append(source_mo)
    return written


if __name__ == "__main__":
    for path in compile_all():
        print(f"wrote {path.relative_to(LOCALE.parent)}")
