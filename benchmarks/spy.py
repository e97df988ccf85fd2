"""Where server processes spend their CPU: py-spy samples, summarised.

Used by ``benchmarks.load --py-spy``: while a step is measured, ``py-spy record
--gil`` samples every daphne process (only the thread holding the GIL, so a
sample is Python work being done, not a thread waiting), and the samples are
summed into what the work was for: rendering boards, applying moves, the clock,
pings, and the rest of Channels, daphne and the Redis layer. On its own:

    .venv/bin/python -m benchmarks.spy /tmp/stopbus-load/spy-*.txt
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.support.stack import py_spy

# (label, function names, any of which on the stack puts a sample under the label);
# the first that matches wins, so the order matters.
CATEGORIES = [
    ("applying a move (actions.do_play, incl. its queries)", ("TableConsumer._act",)),
    ("the clock (claims, bot moves, next deals)", ("_tick",)),
    ("pings (presence, missed changes)", ("TableConsumer._ping",)),
    ("reading a changed table (once per process and change)", ("table_data",)),
    ("rendering a view (once per distinct view) and its regions", ("TableConsumer._update",)),
    ("our consumers' other work (frames in and out, connects, chat)",
     ("TableConsumer.", "LobbyConsumer.")),
    ("channels-redis (receive, group send)", ("RedisChannelLayer.",)),
    ("daphne / websocket frames", ("WebSocketProtocol.", "WebSocketServerFactory.",
                                   "dataReceived")),
    ("asgiref thread hand-offs", ("SyncToAsync.", "AsyncToSync.")),
]


def start(pids: list[int], seconds: float, out_dir: Path) -> list[tuple[subprocess.Popen, Path]]:
    exe = py_spy()
    if exe is None:
        raise SystemExit("--py-spy needs py-spy (pip install -r requirements-dev.txt)")
    runs = []
    for pid in pids:
        out = out_dir / f"spy-{pid}.txt"
        process = subprocess.Popen(
            [exe, "record", "--pid", str(pid), "--duration", str(max(1, round(seconds))),
             "--rate", "100", "--gil", "--format", "raw", "--output", str(out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        runs.append((process, out))
    return runs


def finish(runs, timeout: float = 60) -> list[Path]:
    done = []
    for process, out in runs:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
        if out.exists():
            done.append(out)
    return done


def _name(frame: str) -> str:
    return frame.split(" (", 1)[0]


def summarise(paths: list[Path], top: int = 12) -> str:
    by_category: Counter = Counter()
    by_function: Counter = Counter()
    total = 0
    for path in paths:
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            n = int(count)
            total += n
            frames = stack.split(";")
            names = [_name(f) for f in frames]
            label = next((label for label, needles in CATEGORIES
                          if any(name.startswith(x) or name == x
                                 for name in names for x in needles)),
                         "other (event loop, twisted, the rest)")
            by_category[label] += n
            ours = {_name(f) for f in frames  # (middleware is on every consumer's stack)
                    if any(f"({d}/" in f for d in ("games", "stats", "accounts"))
                    and not _name(f).endswith(".__call__")}
            for name in ours:
                by_function[name] += n
    if not total:
        return "  (py-spy recorded no samples)"
    lines = [f"  py-spy: {total} samples with the GIL held, by what they were for:"]
    lines += [f"    {100 * n / total:5.1f}%  {label}" for label, n in by_category.most_common()]
    lines.append("  our functions on the stack (inclusive):")
    lines += [f"    {100 * n / total:5.1f}%  {name}" for name, n in by_function.most_common(top)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summarise([Path(p) for p in sys.argv[1:]]))
