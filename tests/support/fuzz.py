"""Fuzz the table websocket (and the create-table form) with hostile input.

The machinery of ``python -m benchmarks.fuzz`` (its command line and printed
figures are in benchmarks/fuzz.py). On the real stack (a fresh PostgreSQL
database, channels-redis, two daphne processes) a handful of tables are set up
in every interesting state: a widow game a few moves in (so there are old
versions to replay), a stock game where the player to move has drawn and must
discard, a Commerce game waiting for the dealer's unseen swap, a hand at its
showdown, a finished game and a table still waiting for players. Each table gets
three lanes -- the player to move, a player waiting for their turn, and a
spectator -- and every lane sends hostile frames one at a time, waiting for
each one's answer:

invalid JSON, JSON that is no object, binary frames, frames over the 4096
character limit and over the server's 1 MiB message limit, wrong types for
every field, other seats' actions, replayed old versions, unknown and internal
action kinds, actions out of turn, markup and script in chat, unicode junk
(lone surrogates, NUL, bidi overrides), deeply nested JSON, negative, huge and
non-finite numbers, duplicate keys.

A frame counts as handled when the server answers it with an error notice
(``<div id="notice" class="notice notice--error"``), or -- chat -- with the
line escaped, or -- a frame over the server's message limit, or text that is
not UTF-8 -- by closing the socket. Before a player's frame is sent it is
parsed the way the server parses it and, if it happens to be a legal move,
given an old version instead, so no frame may change a game. At the end every
table's version, state JSON, log length and ready list must be what they were,
and the daphne logs must hold no traceback.

The create-table form gets hostile names and values over HTTP; every answer
must be a redirect or a 400 (never a 500) and every name shown escaped.

Frame generation (:func:`hostile_frame`) and the check of an answer
(:func:`judge`) are reused by ``tests/test_fuzz.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html as htmllib
import json
import random
import re
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field

NOTICE = 'class="notice notice--error"'
MAX_FRAME = 4096
SERVER_MAX = 1024 * 1024  # daphne's websocket_max_message_size

KINDS = ("swap", "stop", "pass", "draw", "take_discard", "discard", "dealer_swap")
UNKNOWN_KINDS = ["teleport", "next_hand", "NEXT_HAND", "Swap", "STOP", " stop", "stop ", "",
                 "start", "__proto__", "constructor", "chat\u0000", "sync\n", "deal",
                 "join", "leave", "admin", "\u202estop", "st\u200bop", "∞", "null"]
JUNK_TEXT = [
    "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "<b>bold</b>",
    "</ol><script>document.cookie</script>", "{{ secret }}", "{% csrf_token %}",
    "&lt;already&gt; &amp;", "<!--", "<svg/onload=alert(1)>", "javascript:alert(1)",
    "\u202eevil\u202c", "zero\u200bwidth", "Z̸̛̠a̷l̶g̴o̵", "😀🃏🂡", "\ufeffbom",
    "\u0000nul", "a\u0000b", "\ud800", "x\udfffy", "\U0010ffff", "\r\n\t", "' OR 1=1 --",
    "hx-on::load=alert(1)", "<div id=\"notice\">fake</div>", "QS KH AC",
]
WRONG_VALUES = [
    None, True, False, 0, -1, 1.5, -1e308, 1e308, float("inf"), float("-inf"), float("nan"),
    10 ** 30, -(10 ** 30), 2 ** 63, 2 ** 64, "", " ", "1", "-1", "1e9", "0x10", "NaN",
    "Infinity", [], [[]], [None], [1, 2, 3], ["QS"] * 5, {}, {"a": 1}, {"kind": "stop"},
    "QS", "ZZ", "10X", "QSQS", "☃", "\u0000", "\ud800", "A" * 300, [["QS"]], [{"code": "QS"}],
    [True], [1.5], [-1], [3], [99], ["0", "1", "2", "3"], [float("inf")], [10 ** 30],
]


@dataclass
class Lane:
    """One connection's point of view: who it is and what the table looks like."""

    role: str  # mover, waiting, spectator
    table: str  # the table's label
    seat: int | None
    version: int | None
    own: list[str] = field(default_factory=list)  # codes in this seat's hand (if a player)
    others: list[str] = field(default_factory=list)  # codes in other players' hands
    middle: list[str] = field(default_factory=list)  # widow or discard top: public
    showdown: bool = False


@dataclass
class Frame:
    category: str
    data: str | bytes
    expect: str = "notice"  # notice, chat, close, notice-or-close
    marker: str | None = None
    chat_text: str | None = None


def _dumps(value) -> str:
    return json.dumps(value, allow_nan=True)


def _card_pool(lane: Lane, rng: random.Random) -> str:
    pools = [lane.own, lane.others, lane.middle]
    pool = rng.choice([p for p in pools if p] or [["QS"]])
    return rng.choice(pool)


def _action(lane: Lane, rng: random.Random, kind: str | None = None) -> dict:
    kind = kind or rng.choice(KINDS)
    data: dict = {"kind": kind, "version": lane.version if lane.version is not None else 0}
    if kind in ("swap", "discard"):
        data["give"] = _card_pool(lane, rng)
    if kind in ("swap", "dealer_swap"):
        data["take"] = _card_pool(lane, rng)
    if kind == "dealer_swap" and rng.random() < 0.7:
        data["positions"] = [str(rng.randrange(3))]
    return data


def _nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def hostile_frame(rng: random.Random, lane: Lane, counter: int) -> Frame:  # noqa: C901
    """One hostile frame for ``lane``, from a category chosen at random."""
    version = lane.version if lane.version is not None else 0
    category = rng.choices(
        ["invalid-json", "not-an-object", "binary", "too-large", "wrong-types", "other-seat",
         "stale", "unknown-kind", "out-of-turn", "chat", "duplicate-keys", "deep-nesting",
         "numbers", "not-a-player", "unicode", "bad-cards", "extra-fields"],
        weights=[8, 5, 4, 3, 16, 6, 6, 6, 6, 10, 5, 4, 6, 3, 5, 6, 3])[0]
    if category == "invalid-json":
        return Frame(category, rng.choice([
            "{", "}", "{not json", '{"kind": "stop"', '{"kind": stop}', "{'kind': 'stop'}",
            '{"kind": "stop",}', "undefined", "NaN garbage", "\u0000", "", " ", "\n",
            '{"kind": "stop", "version": 01}', '{"kind": "stop" "version": 1}',
            '{"kind": "\\x41"}', '{"kind": "\\u12"}', "[1, 2", '"unterminated',
            "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(1, 200))),
        ]))
    if category == "not-an-object":
        return Frame(category, _dumps(rng.choice([
            [1, 2], [], [{"kind": "stop", "version": version}], "stop", 42, -1.5, None, True,
            False, [None], "{}", ["chat", "hello"]])))
    if category == "binary":
        payload = rng.choice([
            b"", b"\x00", _dumps({"kind": "stop", "version": version}).encode(),
            bytes(rng.randrange(256) for _ in range(rng.randrange(1, 512)))])
        return Frame(category, payload)
    if category == "too-large":
        if rng.random() < 0.08:  # past the server's own limit: it hangs up
            return Frame(category, "x" * (SERVER_MAX + rng.randrange(1, 4096)), "close")
        size = rng.choice([MAX_FRAME + 1, MAX_FRAME + 2, 5000, 20000, 65536, 500_000])
        filler = _dumps({"kind": "chat", "text": "y" * size})
        return Frame(category, filler if rng.random() < 0.5 else "z" * size)
    if category == "wrong-types":
        data = _action(lane, rng)
        key = rng.choice(["kind", "version", "give", "take", "positions", "stop"])
        data[key] = rng.choice(WRONG_VALUES)
        if key != "version" and rng.random() < 0.3:
            data["version"] = rng.choice(WRONG_VALUES)
        return Frame(category, _dumps(data))
    if category == "other-seat":
        data = _action(lane, rng)
        data["seat"] = rng.choice([0, 1, 2, -1, 99, "0", None, 1.0, True])
        if lane.others:
            data["give"] = rng.choice(lane.others)
        return Frame(category, _dumps(data))
    if category == "stale":
        data = _action(lane, rng)
        data["version"] = rng.choice([version - 1, version - 2, 0, -1, version + 1,
                                      version + 1000, str(version - 1)])
        return Frame(category, _dumps(data))
    if category == "unknown-kind":
        return Frame(category, _dumps({"kind": rng.choice(UNKNOWN_KINDS), "version": version,
                                       "give": "QS"}))
    if category == "out-of-turn":
        return Frame(category, _dumps(_action(lane, rng)))
    if category == "chat":
        marker = f"fz{counter:06d}q"
        text = rng.choice(JUNK_TEXT) + f" {marker} " + rng.choice(JUNK_TEXT)
        if rng.random() < 0.1:
            text = rng.choice(["", "   ", "\n\t", "x" * 301 + marker, 42, None, ["hi"],
                               {"t": "hi"}])
            return Frame(category, _dumps({"kind": "chat", "text": text}))
        return Frame(category, _dumps({"kind": "chat", "text": text}), "chat", marker, text)
    if category == "duplicate-keys":
        kind = rng.choice(KINDS)
        return Frame(category, rng.choice([
            f'{{"kind": "chat", "kind": "{kind}", "version": {version}, "version": "x"}}',
            f'{{"kind": "{kind}", "version": {version}, "version": {version - 1}}}',
            f'{{"kind": "{kind}", "give": "QS", "give": [], "give": {{}}, "version": -1}}',
            f'{{"kind": "{kind}", "kind": null, "version": {version}}}',
            f'{{"kind": "swap", "stop": true, "stop": "maybe", "version": {version}}}',
        ]))
    if category == "deep-nesting":
        depth = rng.choice([50, 200, 900, 999, 1000, 1001, 1500, 2000])
        inner = rng.choice(["1", '"QS"', "{}", '{"a": 1}'])
        nested = _nested(depth, inner)
        return Frame(category, rng.choice([
            nested,
            f'{{"kind": "swap", "version": {version}, "give": {nested}}}',
            f'{{"kind": {nested}}}',
            f'{{"kind": "chat", "text": {nested}}}',
            '{"a":' * depth + "1" + "}" * depth,
        ])[:MAX_FRAME])
    if category == "numbers":
        value = rng.choice(["1e400", "-1e400", "Infinity", "-Infinity", "NaN", "1" * 4000,
                            "-" + "9" * 3000, "1.0e-400", "-0", "0.5", "9" * 20, "1e2"])
        key = rng.choice(["version", "positions", "seat"])
        inner = f"[{value}]" if key == "positions" and rng.random() < 0.5 else value
        kind = rng.choice(["dealer_swap", "stop", "swap", "discard"])
        return Frame(category, f'{{"kind": "{kind}", "{key}": {inner}, "version": '
                               f'{version if key != "version" else value}}}'[:MAX_FRAME])
    if category == "not-a-player":
        return Frame(category, _dumps(rng.choice([
            {"kind": "ready"}, {"kind": "back"}, {"kind": "ready", "version": version},
            {"kind": "back", "seat": 0}])))
    if category == "unicode":
        junk = rng.choice(JUNK_TEXT)
        return Frame(category, _dumps(rng.choice([
            {"kind": junk, "version": version},
            {"kind": "swap", "give": junk, "take": junk, "version": version},
            {"kind": "discard", "give": [junk], "version": version},
            {"kind": "stop", "version": junk},
            {junk: "stop", "version": version},
        ])))
    if category == "bad-cards":
        data = _action(lane, rng, rng.choice(["swap", "discard", "dealer_swap"]))
        choice = rng.randrange(6)
        if choice == 0:
            data["give"] = [_card_pool(lane, rng) for _ in range(rng.randrange(2, 5))]
        elif choice == 1:
            data["take"] = ["QS", "QS"]
        elif choice == 2:
            data["give"] = rng.choice(lane.others or ["QS"])
        elif choice == 3:
            data["positions"] = rng.choice([["0", "0"], ["3"], ["-1"], ["0", "1", "2", "0"],
                                            ["a"], [" 1 "], ["1.5"]])
        elif choice == 4:
            data["give"] = rng.choice(["1S", "TS", "q♠", "10h", "AS ", " KD"])
        else:
            data["take"] = rng.choice(lane.others or ["2C"])
        return Frame(category, _dumps(data))
    data = _action(lane, rng)  # extra fields
    data.update({rng.choice(["HEADERS", "seat", "user", "by", "game", "table", "__class__"]):
                 rng.choice(WRONG_VALUES)})
    data["version"] = rng.choice([version - 1, "x", None])
    return Frame("extra-fields", _dumps(data))


def would_change_the_game(data: str | bytes, lane: Lane, state) -> bool:
    """Would the server play this frame? (It must not: a fuzz frame may change nothing.)"""
    from games.engine import Action, is_legal
    from games.frames import parse

    if isinstance(data, bytes) or len(data) > MAX_FRAME or state is None:
        return False
    try:
        parsed = json.loads(data)
    except (ValueError, RecursionError):
        return False
    if not isinstance(parsed, dict):
        return False
    kind = parsed.get("kind")
    if not isinstance(kind, str):
        return False
    if kind == "ready":
        return lane.seat is not None and lane.showdown
    if kind in ("sync", "ping", "back"):
        return lane.seat is not None  # answered with a board (or by design not at all)
    if lane.seat is None or kind == "chat":
        return False
    try:
        frame = parse(data)
        action, version = frame.action, frame.version
        engine_action = Action.from_dict({**action, "seat": lane.seat})
    except Exception:  # noqa: BLE001 -- refused (or a crash, which the fuzz reports)
        return False
    return version == state.version and is_legal(state, engine_action)


def judge(frame: Frame, answers: list[str], closed: int | None) -> str:
    """How the server answered: "notice", "chat", "close", or a failure in words."""
    if frame.expect == "close":
        return "close" if closed is not None else "not closed"
    if closed is not None:
        return f"closed with {closed}"
    if frame.expect == "chat":
        line = next((a for a in answers if frame.marker and frame.marker in a), None)
        if line is None:
            return "notice" if any(NOTICE in a for a in answers) else "chat line not echoed"
        match = re.search(r"<li><strong>[^<]*</strong> (.*)</li></ol>", line, re.S)
        if match is None:
            return "chat line in an unexpected shape"
        if "<" in match.group(1) or ">" in match.group(1):
            return "chat markup not escaped"
        from games.actions import clean_chat  # the server removes bidirectional controls

        expected = clean_chat(frame.chat_text)
        if htmllib.unescape(match.group(1)) != expected:
            return "chat text changed"
        return "chat"
    if any(NOTICE in a for a in answers):
        return "notice"
    return "no answer"


# -- the run ---------------------------------------------------------------------------------------


@dataclass
class Tally:
    sent: int = 0
    by_category: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)
    failure_count: int = 0
    skipped_legal: int = 0
    reconnects: int = 0
    http: Counter = field(default_factory=Counter)
    http_failures: list = field(default_factory=list)
    state_changes: list = field(default_factory=list)
    observations: Counter = field(default_factory=Counter)
    failure_kinds: Counter = field(default_factory=Counter)
    unechoed: dict = field(default_factory=dict)

    def fail(self, what: str, kind: str = "") -> None:
        self.failure_count += 1
        self.failure_kinds[kind] += 1
        if self.failure_kinds[kind] <= 4:  # a few examples of every kind of failure
            self.failures.append(what)


class Connection:
    """A websocket that keeps every frame it receives and reconnects when closed."""

    def __init__(self, url: str, cookie: str, origin: str):
        self.url, self.cookie, self.origin = url, cookie, origin
        self.ws = None
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.closed: int | None = None
        self.reader = None
        self.late: list = []  # frames that came after their exchange was over

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.url, origin=self.origin,
                                additional_headers={"Cookie": self.cookie},
                                max_size=None, open_timeout=20, close_timeout=2)
        self.closed = None
        self.reader = asyncio.create_task(self._read(self.ws))
        await self.next_frame(10)  # the board sent on connect

    async def _read(self, ws) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for message in ws:
                await self.inbox.put(message)
        except ConnectionClosed:
            pass
        code = ws.close_code if ws.close_code is not None else 1006
        await self.inbox.put(("closed", code))

    async def next_frame(self, timeout: float):
        return await asyncio.wait_for(self.inbox.get(), timeout)

    def drain(self) -> None:
        while not self.inbox.empty():
            item = self.inbox.get_nowait()
            if isinstance(item, tuple):
                self.closed = item[1]
            else:
                self.late.append(item)

    async def exchange(self, frame: Frame, timeout: float = 10.0) -> tuple[list[str], int | None]:
        """Send one frame; collect frames until its answer comes (or the socket closes)."""
        self.drain()
        answers: list[str] = []
        with contextlib.suppress(Exception):  # it closed as we sent: the reader tells
            await self.ws.send(frame.data, text=not isinstance(frame.data, bytes))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return answers, None
            try:
                item = await self.next_frame(left)
            except TimeoutError:
                return answers, None
            if isinstance(item, tuple):
                return answers, item[1]
            answers.append(item if isinstance(item, str) else item.decode(errors="replace"))
            if frame.expect == "chat" and frame.marker and frame.marker in answers[-1]:
                return answers, None
            if NOTICE in answers[-1]:
                return answers, None

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def judge_unechoed(tally: Tally) -> None:
    """A chat line whose echo never came: handled if the server stored it, as typed."""
    from django.db import close_old_connections

    from games.models import ChatMessage

    try:
        for marker, (lane, frame) in tally.unechoed.items():
            stored = ChatMessage.objects.filter(text__contains=marker).first()
            if stored is not None and stored.text == " ".join(frame.chat_text.split()):
                tally.observations["a chat line was stored but its broadcast never came back "
                                   "(a group message lost by the channel layer)"] += 1
                continue
            tally.fail(f"{lane.table} / {lane.role}: chat {frame.data[:100]!r} -> neither "
                       "echoed nor stored", "chat line lost")
    finally:
        close_old_connections()


def snapshot(game_ids) -> dict:
    from django.db import close_old_connections

    from games.models import Action, Game

    try:
        return {pk: (g.version, json.dumps(g.state, sort_keys=True), list(g.ready), g.status,
                     Action.objects.filter(game_id=pk).count())
                for pk, g in Game.objects.in_bulk(game_ids).items()}
    finally:
        close_old_connections()


def set_up_tables(stack) -> list[dict]:
    """The tables the fuzz plays against, each in a different state."""
    from games import actions, engine
    from games.engine.cards import CODES
    from games.engine.game import SHOWDOWN
    from games.models import Table, Variant

    Variant.objects.update(turn_seconds=None)
    people = stack.make_people(24, "fuzz")
    users = iter(people)
    tables = []

    def make(label, slug, seats, moves=0, until=None):
        group = [next(users) for _ in range(seats)]
        watcher = next(users)
        (table, _), = stack.make_tables(group, per_table=seats, variant=slug)
        game = table.current_game()
        for _ in range(10_000):
            state = actions.state_of(type(game).objects.get(pk=game.pk))
            if until is not None and until(state):
                break
            if until is None and state.version >= moves:
                break
            if state.phase == SHOWDOWN:
                actions.do_play(game.pk, None, engine.next_hand(), state.version, by="table")
                continue
            action = engine.GreedyBot(state.rules, random.Random(state.version)).choose(
                engine.seat_view(state, state.turn))
            actions.do_play(game.pk, state.turn, action, state.version)
        tables.append({"label": label, "table": table.pk, "game": game.pk, "people": group,
                       "watcher": watcher})

    make("widow, a few moves in", "classic", 2, moves=3)
    make("stock, must discard", "draw-and-discard", 2,
         until=lambda s: s.pending is not None and s.version >= 2)
    make("commerce, dealer's unseen swap", "commerce", 3,
         until=lambda s: s.phase == "dealer_swap")
    make("showdown", "classic", 2, until=lambda s: s.phase == SHOWDOWN)
    make("finished", "race-to-five", 2, until=lambda s: s.phase == "over")
    host, watcher = next(users), next(users)
    waiting = actions.do_create_table(host[0], name="Waiting table",
                                   variant=Variant.objects.get(slug="classic"), seats=3)
    tables.append({"label": "waiting", "table": waiting.pk, "game": None, "people": [host],
                   "watcher": watcher})
    for entry in tables:
        game_id = entry["game"]
        entry["state"] = (actions.state_of(Table.objects.get(pk=entry["table"]).current_game())
                          if game_id else None)
        state = entry["state"]
        entry["codes"] = ([[CODES[c] for c in hand] for hand in state.hands] if state else [])
    return tables


def lanes_for(entry: dict) -> list[tuple[Lane, str]]:
    """(lane, session cookie) for the player to move, a waiting player, a spectator."""
    state = entry["state"]
    from games.engine.cards import CODES

    lanes = []
    if state is None:
        host = entry["people"][0]
        lanes.append((Lane("waiting", entry["label"], None, None), host[1]))
    else:
        middle = [CODES[c] for c in state.widow] + [CODES[c] for c in state.discard[-1:]]
        mover = state.turn if state.turn is not None else 0
        waiting = next(s for s in range(len(state.names)) if s != mover)
        for role, seat in (("mover", mover), ("waiting", waiting)):
            own = entry["codes"][seat]
            others = [c for s, hand in enumerate(entry["codes"]) if s != seat for c in hand]
            lanes.append((Lane(role, entry["label"], seat, state.version, own, others, middle,
                               state.phase in ("showdown",)), entry["people"][seat][1]))
    lanes.append((Lane("spectator", entry["label"], None,
                       state.version if state else None,
                       others=[c for hand in entry["codes"] for c in hand]),
                  entry["watcher"][1]))
    return lanes


async def run_lane(url: str, origin: str, lane: Lane, cookie: str, state, frames: int,
                   rng: random.Random, tally: Tally, start: int) -> None:
    conn = Connection(url, cookie, origin)
    await conn.open()
    unechoed: set[str] = set()
    try:
        if lane.seat is not None:
            # not hostile, but worth knowing: "I'm back" from a player who never left
            answers, closed = await conn.exchange(Frame("back", '{"kind": "back"}'), 3.0)
            tally.observations[f"'back' from a seated player who is not away: "
                               f"{judge(Frame('back', ''), answers, closed)}"] += 1
        for i in range(frames):
            frame = hostile_frame(rng, lane, start + i)
            while would_change_the_game(frame.data, lane, state):
                tally.skipped_legal += 1  # a legal move (or a plain "ready"): draw again
                frame = hostile_frame(rng, lane, start + i)
            tally.sent += 1
            tally.by_category[frame.category] += 1
            answers, closed = await conn.exchange(frame)
            for marker in list(unechoed):
                if any(marker in str(late) for late in conn.late + answers):
                    unechoed.discard(marker)
                    tally.observations["a chat line echoed after its 10 s wait"] += 1
            conn.late.clear()
            outcome = judge(frame, answers, closed)
            if outcome == "chat line not echoed":
                unechoed.add(frame.marker)
                tally.unechoed[frame.marker] = (lane, frame)  # judged after the run
            tally.outcomes[outcome] += 1
            if outcome not in ("notice", "chat", "close", "chat line not echoed"):
                shown = frame.data[:120] if isinstance(frame.data, str) else frame.data[:40]
                tally.fail(f"{lane.table} / {lane.role}: {frame.category} frame {shown!r} "
                           f"-> {outcome}", f"{frame.category} {outcome}")
            if closed is not None:
                tally.reconnects += 1
                await conn.open()
    finally:
        await conn.close()


def check_http(base: str, cookie: str, tally: Tally, rng: random.Random, rounds: int) -> None:
    """The create-table form (and a few table URLs) with hostile input, over HTTP."""
    import http.client

    parts = urllib.parse.urlsplit(base)

    def request(method, path, body=None, headers=None):
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read().decode(errors="replace")
        conn.close()
        headers = {k.lower(): v for k, v in response.getheaders()}
        headers["set-cookie"] = "; ".join(response.msg.get_all("Set-Cookie") or [])
        return response.status, headers, data

    status, headers, page = request("GET", "/", headers={"Cookie": cookie})
    token = re.search(r"csrftoken=([A-Za-z0-9]+)", headers.get("set-cookie", ""))
    if token is None:
        tally.http_failures.append("no CSRF cookie from the lobby")
        return
    token = token.group(1)
    cookies = f"{cookie}; csrftoken={token}"
    variant = re.search(r'<option value="(\d+)"', page)
    variant_id = variant.group(1) if variant else "1"
    names = JUNK_TEXT + ["x" * 61, "x" * 5000, "", " ", "Friday <b>night</b> bus"]
    for i in range(rounds):
        name = names[i % len(names)] if i < len(names) else rng.choice(names) + str(i)
        fields = {"name": name, "variant": variant_id, "seats": "3",
                  "allow_spectators": "on", "csrfmiddlewaretoken": token}
        if i >= len(names):
            key = rng.choice(["seats", "variant", "private", "name"])
            fields[key] = rng.choice(["-1", "0", "1e9", "abc", "99999999999999999999", "",
                                      "\u0000", "3.5", "<script>", "on", "off"])
        body = urllib.parse.urlencode(fields, errors="surrogatepass")
        status, headers, page = request("POST", "/tables/new/", body, {
            "Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"})
        tally.http[status] += 1
        if status >= 500:
            tally.http_failures.append(f"create table {fields!r:.120} -> {status}")
            continue
        if status == 302:
            status, _, page = request("GET", headers.get("location", "/"),
                                      headers={"Cookie": cookies})
            tally.http[status] += 1
            if status >= 500:
                tally.http_failures.append(f"the new table's page -> {status}")
        shown = " ".join(str(fields["name"]).split())
        if ("<" in shown or ">" in shown) and shown in page:
            tally.http_failures.append(f"table name {shown!r} shown unescaped")
    for path, method in [("/t/99999999999999999999/", "GET"),
                         ("/t/99999999999999999999/join/", "POST"),
                         ("/t/1/bots/99999999999999999999/remove/", "POST"),
                         ("/t/-1/", "GET"), ("/invite/%00/", "GET"),
                         ("/invite/" + "x" * 3000 + "/", "GET"),
                         ("/u/%3Cscript%3E/", "GET"), ("/games/99999999999999999999/replay/",
                                                        "GET")]:
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token}) if method == "POST" else None
        status, _, _ = request(method, path, body, {
            "Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"})
        tally.http[status] += 1
        if status >= 500:
            tally.http_failures.append(f"{method} {path[:60]} -> {status}")


async def hostile_urls(ws_base: str, origin: str, cookie: str, tally: Tally) -> None:
    """Sockets to tables that do not exist, with hostile ids: refused, not crashed."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    for path in ("/ws/table/99999999999999999999999/", "/ws/table/0/", "/ws/table/-1/",
                 "/ws/table/abc/", "/ws/table/1%00/", "/ws/nothing/"):
        tally.sent += 1
        tally.by_category["hostile-url"] += 1
        try:
            async with connect(ws_base + path, origin=origin,
                               additional_headers={"Cookie": cookie}, open_timeout=10) as ws:
                await asyncio.wait_for(ws.recv(), 5)
                tally.fail(f"{path} accepted a socket")
        except (ConnectionClosed, InvalidStatus):
            tally.outcomes["close"] += 1
        except Exception as exc:  # noqa: BLE001
            tally.fail(f"{path}: {exc!r}")


def server_logs(stack) -> list:
    return [server.log_path for server in stack.servers if server.log_path]


def server_problems(stack) -> list[str]:
    found = []
    for path in server_logs(stack):
        text = path.read_text(errors="replace")
        for marker in ("Traceback", "Exception inside application", "over capacity"):
            if text.count(marker):
                found.append(f"{path.name}: {text.count(marker)} x {marker!r}")
    return found


def first_tracebacks(stack, limit: int = 16) -> list[str]:
    """The last line of each distinct traceback in the servers' logs."""
    seen = Counter()
    for path in server_logs(stack):
        lines = path.read_text(errors="replace").splitlines()
        for i, line in enumerate(lines):
            if line.startswith("Traceback"):
                j = i + 1
                while j < len(lines) and (lines[j].startswith(" ") or not lines[j].strip()):
                    j += 1
                if j < len(lines):
                    seen[lines[j][:160]] += 1
    return [f"{count} x {line}" for line, count in seen.most_common(limit)]


async def fuzz(stack, frames: int, seed: int, http_rounds: int) -> tuple[Tally, dict, dict]:
    loop = asyncio.get_running_loop()
    tables = await loop.run_in_executor(None, set_up_tables, stack)
    game_ids = [t["game"] for t in tables if t["game"]]
    before = await loop.run_in_executor(None, snapshot, game_ids)
    tally = Tally()
    ports = [s.port for s in stack.servers]
    jobs = []
    lanes = [(entry, lane, cookie) for entry in tables for lane, cookie in lanes_for(entry)]
    per_lane = -(-frames // len(lanes))
    for i, (entry, lane, cookie) in enumerate(lanes):
        port = ports[i % len(ports)]
        jobs.append(run_lane(f"ws://127.0.0.1:{port}/ws/table/{entry['table']}/",
                             f"http://127.0.0.1:{port}", lane, cookie, entry["state"],
                             per_lane, random.Random(seed * 1000 + i), tally, i * per_lane))
    results = await asyncio.gather(*jobs, return_exceptions=True)
    for result in results:
        if isinstance(result, Exception):
            tally.fail(f"a lane stopped: {result!r}")
    await hostile_urls(f"ws://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[0]}",
                       tables[0]["watcher"][1], tally)
    await loop.run_in_executor(None, check_http, f"http://127.0.0.1:{ports[1]}",
                               tables[0]["watcher"][1], tally, random.Random(seed), http_rounds)
    await loop.run_in_executor(None, judge_unechoed, tally)
    after = await loop.run_in_executor(None, snapshot, game_ids)
    for entry in tables:
        if entry["game"] and before[entry["game"]] != after[entry["game"]]:
            old, new = before[entry["game"]], after[entry["game"]]
            tally.state_changes.append(f"{entry['label']}: version {old[0]} -> {new[0]}, "
                                       f"log {old[4]} -> {new[4]}, ready {old[2]} -> {new[2]}")
    return tally, before, after
