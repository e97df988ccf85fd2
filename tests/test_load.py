"""The load benchmark, CI-sized: a few tables of four real websockets on the real stack.

Runs ``benchmarks.load`` as a newcomer would, in a process of its own (two daphne
processes on a fresh PostgreSQL database, a Redis of its own), first against the
card room and then against the bare Channels baseline, and checks what it wrote:
every move offered was made and seen by all four seats, nothing failed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.servers import ROOT

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.multiprocess]


def admin_url() -> str:
    """The PostgreSQL server of this run, at its maintenance database."""
    parts = urlsplit(os.environ.get("DATABASE_URL", ""))
    return urlunsplit((parts.scheme, parts.netloc, "/postgres", "", ""))


def test_tables_of_four_play_at_the_offered_pace_with_no_errors(tmp_path):
    out = tmp_path / "load.json"
    env = {**os.environ, "STACK_PG_URL": admin_url()}
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.load", "--tables", "8", "--rate", "8",
         "--duration", "8", "--database", "stopbus_load_ci", "--json", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert set(figures) == {"app", "baseline"}
    for mode, result in figures.items():
        assert result["connected"] == result["clients"] == 32, (mode, done.stdout[-2000:])
        assert result["errors"] == 0, (mode, result, done.stdout[-2000:])
        # every table moves at its pace: 8 moves/s for 8 s, less what the last
        # moment's rounding and a slow start leave out
        assert result["achieved"] >= 0.8 * result["offered"] * result["seconds"], (mode, result)
        assert result["p50_ms"] < 1000, (mode, result)
    assert "app / baseline, achieved moves/s" in done.stdout
