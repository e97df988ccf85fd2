"""Compile every locale/*/LC_MESSAGES/django.po into the django.mo beside it.

Pure Python (polib, a development requirement), so no GNU gettext is needed:
    python locale/compile.py
The compiled .mo files are committed, so running and testing the site needs no
compile step at all; tests/test_i18n_catalogue.py fails when a .mo no longer
matches its .po, which says to run this.
"""

from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent


def compile_all() -> list[Path]:
    written = []
    for po_path in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in compile_all():
        print(f"wrote {path.relative_to(LOCALE.parent)}")
