"""Hidden-information audit: does any frame show a viewer a card it may not see?

The machinery of ``python -m benchmarks.audit`` (its command line and printed
figures are in benchmarks/audit.py) and of tests/test_audit.py. :func:`run` plays
games on the real stack (a fresh PostgreSQL database, channels-redis, two daphne
processes) with every seat played through its own websocket by a
:class:`tests.support.wsplayer.Player` that reads nothing but the HTML it is sent,
plus one spectator per table. In about one game in twenty a player leaves
mid-game (a bot takes the seat) and keeps watching: from then on it must get a
spectator's view. Every frame every client receives is recorded. When a game
ends its log is read back, the game is replayed with the engine (once), and
every frame is judged against the truth at the version it shows.

The benchmark's own database plays shorter games than the presets (2 lives, 3
points, 3 chips) and has no turn clock; see :func:`prepare_database`.

What a viewer may see at version V (``may_see``):

* its own hand -- except the dealer's during Commerce's unseen swap;
* the widow, the discard pile (the top is on show; the rest was face up when it
  was discarded), and every seat's ``known`` cards (seen by everybody going in);
* after the showdown, the hands shown at it.

Everything else -- other players' hands, the stock (its order, its next card),
the undealt stub -- is hidden, and so are the seed (always), and a hand's salt
and deck order until that hand's showdown.

The rules checked, per frame:

1. **data-card** -- every ``data-card`` must be a card the viewer may see at V,
   and every face-up card's ``aria-label`` must name the same card (in English or
   Japanese: the reader's language). Strict.
2. **The event log** -- the ``#log`` items must be exactly the game's last 40
   events up to V, each in the words meant for this viewer (``private`` text to
   its own seat only). A card code in an event's words is public history only
   if the viewer could see that card at some moment of the same hand, up to
   and including the moment of that event (so "alice swapped 7H for QS" is fine
   long after QS went into alice's hand unseen by anybody, and a cut card may
   be named by the cut event). Any item that is not the expected one is a
   violation, and its codes are judged by rule 3.
3. **Any other text** (outside face-up card markup, the log and revealed decks,
   including attribute values and notices): a card code (``QS``, ``10H``), a
   card name ("Queen of spades") or a rank with a suit symbol is a violation
   unless the viewer may see that card at V. A frame without a version (a
   notice, a chat line) is judged at the versions this client saw just
   before and just after it.
4. **Secrets** -- the seed's hex (either case) is a violation anywhere; a deck
   record's salt, or its first six cards in order, is a violation before that
   record is revealed (``fairness_reveals``); a "fair deal check" block must
   reveal only records that are revealed at V, with exactly their cards.

Per game, the log itself is checked: sequence numbers 0..N without gaps or
duplicates, the replay reproduces the stored events and the stored snapshot.

The judging functions (:func:`audit_record`) are pure: they need only the engine
and a plain record of the game and its frames, so tests use them too.
"""

from __future__ import annotations

import asyncio
import contextlib
import html as htmllib
import json
import multiprocessing
import random
import re
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from games.engine import HouseRules, apply, new_game
from games.engine.cards import CODES, NAMES, SUIT_SYMBOLS, parse_card
from games.engine.game import (
    DEALER_SWAP_PHASE,
    OVER,
    SHOWDOWN,
    Action,
    fairness_reveals,
)
from games.regions import PART
from tests.support.wsplayer import Board, Player, form_cards, stock_move

EVENTS_SHOWN = 40
MAX_VIOLATIONS_KEPT = 50

# -- reading a frame ------------------------------------------------------------------------------

VERSION = re.compile(r'id="status"[^>]*data-version="(\d*)"')
# a face-up card: its code and name (the stylesheet draws its face from the code)
FACE_UP = re.compile(
    r'<span class="card[^"]*" data-card="([^"]*)" aria-label="([^"]*)" role="img"></span>')
DATA_CARD = re.compile(r'data-card="([^"]*)"')
LOG_LIST = re.compile(r'<ol class="log__list"[^>]*>(.*?)</ol>', re.S)
LOG_ITEM = re.compile(r'<li class="log__item log__item--([a-z_]+)"[^>]*>(.*?)</li>', re.S)
REVEAL = re.compile(r'<details class="fairness">(.*?)</details>', re.S)
# its commitment, salt and cards, in that order (whatever the reader's language calls them)
REVEAL_PARTS = re.compile(
    r"<code>([^<]*)</code>.*?<code>([^<]*)</code>.*?<code>([^<]*)</code>", re.S)
CODE_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([CDHS])(?![0-9A-Za-z])")
SYMBOL_IN_TEXT = re.compile(r"(10|[2-9JQKA])([" + "".join(SUIT_SYMBOLS) + "])")
NAME_IN_TEXT = re.compile(
    r"\b(Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of "
    r"(clubs|diamonds|hearts|spades)\b")
# A face-up card's aria-label is its name in the reader's language: English (the engine's
# NAMES) or Japanese, written out here from docs/glossary.md so that the audit does not take
# the page's own words for the truth (tests/test_audit.py holds them to the catalogue).
JA_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10",
            "ジャック", "クイーン", "キング", "エース")
JA_SUITS = ("クラブ", "ダイヤ", "ハート", "スペード")
JA_NAMES = tuple(f"{JA_SUITS[c & 3]}の{JA_RANKS[c >> 2]}" for c in range(52))
LABELS = tuple(frozenset({en, ja}) for en, ja in zip(NAMES, JA_NAMES, strict=True))
JA_NAME_IN_TEXT = re.compile("(" + "|".join(JA_SUITS) + ")の(" + "|".join(JA_RANKS) + ")")
_CARD_BY_NAME = {name: card for card, name in enumerate(NAMES)}
_CARD_BY_NAME.update({name: card for card, name in enumerate(JA_NAMES)})


_SUIT_OF = dict(zip("CDHS", SUIT_SYMBOLS, strict=True))


def as_shown(text: str) -> str:
    """An event's words as the page's log shows them: cards as people write them
    ("QD" -> "Q\u2666"), everything else as the engine wrote it."""
    return CODE_IN_TEXT.sub(lambda m: m.group(1) + _SUIT_OF[m.group(2)], text)


def cards_named_in(text: str) -> set[int]:
    """Every card a text names: by code, by name, or by rank and suit symbol."""
    found = {parse_card(rank + suit) for rank, suit in CODE_IN_TEXT.findall(text)}
    found |= {parse_card(rank + suit) for rank, suit in SYMBOL_IN_TEXT.findall(text)}
    found |= {_CARD_BY_NAME[f"{rank} of {suit}"] for rank, suit in NAME_IN_TEXT.findall(text)}
    found |= {_CARD_BY_NAME[f"{suit}の{rank}"] for suit, rank in JA_NAME_IN_TEXT.findall(text)}
    return found


def frame_version(frame: str) -> int | None:
    match = VERSION.search(frame)
    return int(match.group(1)) if match and match.group(1) else None


# -- the truth ------------------------------------------------------------------------------------


def may_see(state, viewer: int | None) -> frozenset[int]:
    """The cards ``viewer`` (a seat, or None for a spectator) may see in ``state``."""
    cards = set(state.widow)
    cards.update(state.discard)
    for known in state.known:
        cards.update(known)
    if viewer is not None and 0 <= viewer < len(state.names) and not (
            state.phase == DEALER_SWAP_PHASE and viewer == state.dealer):
        cards.update(state.hands[viewer])
    if state.phase in (SHOWDOWN, OVER) and state.showdown:
        for codes in state.showdown["hands"].values():
            cards.update(parse_card(c) for c in codes)
    return frozenset(cards)


def whereabouts(state, card: int, viewer: int | None) -> str:
    """Where a card the viewer may not see is, in words (for the report)."""
    for seat, hand in enumerate(state.hands):
        if card in hand:
            if seat == viewer:
                return "the viewer's own hand, which it has not looked at (Commerce dealer)"
            return f"seat {seat}'s hand"
    if card in state.stock:
        depth = len(state.stock) - 1 - state.stock.index(card)
        return "the top of the stock (the next card)" if depth == 0 else \
            f"the stock, {depth} below the top"
    if card in state.stub:
        return "the undealt stub"
    return "nowhere visible"


@dataclass
class Violation:
    game: int
    client: str
    version: int | None
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"game {self.game} {self.client} v{self.version} [{self.rule}] {self.detail}"


class Truth:
    """One game rebuilt from its log: every state, every event, every secret."""

    def __init__(self, record: dict):
        self.game_id = record["game"]
        self.seed_hex = record["seed"]
        rules = HouseRules.from_dict(record["rules"])
        seed = bytes.fromhex(record["seed"])
        state, start_events = new_game(rules, record["names"], seed)
        self.states = [state]
        self.problems: list[str] = []
        log = record["log"]  # [(seq, payload, events)], seq 0 is the start
        seqs = [seq for seq, _, _ in log]
        if seqs != list(range(len(seqs))):
            self.problems.append(f"the log's sequence numbers are not 0..N: {seqs[:20]}...")
        replayed = [[e.to_dict() for e in start_events]]
        for _, payload, _ in log[1:]:
            state, events = apply(state, Action.from_dict(payload))
            self.states.append(state)
            replayed.append([e.to_dict() for e in events])
        stored = [events for _, _, events in log]
        replayed = json.loads(json.dumps(replayed))
        if replayed != stored:
            first = next((i for i, (a, b) in enumerate(zip(replayed, stored, strict=False))
                          if a != b), min(len(replayed), len(stored)))
            self.problems.append(f"stored events differ from the replay at seq {first}")
        if record.get("state") is not None and record["state"] != json.loads(
                json.dumps(self.states[-1].to_dict())):
            self.problems.append("the stored snapshot differs from the replay of the log")
        if record.get("version") is not None and record["version"] != len(self.states) - 1:
            self.problems.append(f"stored version {record['version']} but the log has "
                                 f"{len(self.states) - 1} actions")
        # every event as (seq, kind, public text, seat, private text)
        self.events = [(seq, e["kind"], e["text"], e.get("seat"), e.get("private"))
                       for seq, _, events in log for e in events]
        self.events_upto = []  # per version: how many events exist up to it
        count = 0
        by_seq = Counter(seq for seq, *_ in self.events)
        for seq in range(len(self.states)):
            count += by_seq.get(seq, 0)
            self.events_upto.append(count)
        self.records = self.states[-1].fairness  # every shuffle the game made
        self.revealed = [frozenset(r["salt"] for r in fairness_reveals(s)) for s in self.states]
        self.cut = frozenset(self.states[0].cut)
        self.leavers = frozenset(record.get("leavers", ()))  # names of players who left
        self._seen: dict = {}
        self._hand_seen: dict = {}
        self._event_ok: dict = {}

    def seen(self, version: int, viewer: int | None) -> frozenset[int]:
        key = (version, viewer)
        if key not in self._seen:
            self._seen[key] = may_see(self.states[version], viewer)
        return self._seen[key]

    def seen_this_hand(self, version: int, viewer: int | None) -> frozenset[int]:
        """Every card ``viewer`` could see at some moment of this hand, up to ``version``."""
        key = (version, viewer)
        if key not in self._hand_seen:
            cards = self.seen(version, viewer)
            if version > 0 and self.states[version - 1].hand_no == self.states[version].hand_no:
                cards = cards | self.seen_this_hand(version - 1, viewer)
            self._hand_seen[key] = cards
        return self._hand_seen[key]

    def expected_log(self, version: int, viewer: int | None) -> list[tuple[str, str, int]]:
        """The log items a board at ``version`` shows ``viewer``: (kind, text, event index)."""
        upto = self.events_upto[version]
        items = []
        for index in range(max(0, upto - EVENTS_SHOWN), upto):
            seq, kind, text, seat, private = self.events[index]
            if private is not None and viewer is not None and viewer == seat:
                text = private
            items.append((kind, text, index))
        return items[::-1]

    def event_leaks(self, index: int, viewer: int | None, text: str) -> set[int]:
        """Cards an event's words name that were never visible to the viewer by then."""
        key = (index, viewer)
        if key not in self._event_ok:
            seq, kind = self.events[index][:2]
            allowed = self.seen_this_hand(seq, viewer)
            if kind == "cut":
                allowed = allowed | self.cut
            self._event_ok[key] = cards_named_in(text) - allowed
        return self._event_ok[key]


@dataclass
class ClientLog:
    """The frames one client received. ``viewer`` is the seat it plays (None: spectator).
    A leaver plays ``viewer`` until frame ``left_at``; boards after it at versions up
    to ``left_version`` (the game's version once the leave was done) may be either
    view; boards after that version must be a spectator's."""

    name: str
    viewer: int | None
    frames: list[str]
    left_at: int | None = None
    left_version: int | None = None


@dataclass
class GameAudit:
    game: int
    variant: str = ""
    frames: int = 0
    boards: int = 0
    checks: int = 0
    violations: list[Violation] = field(default_factory=list)
    violation_count: int = 0
    rules: Counter = field(default_factory=Counter)
    actions: int = 0
    seconds: float = 0.0

    def add(self, violation: Violation) -> None:
        self.violation_count += 1
        self.rules[violation.rule] += 1
        if len(self.violations) < MAX_VIOLATIONS_KEPT:
            self.violations.append(violation)


def _strip(html: str, pattern: re.Pattern) -> str:
    return pattern.sub(" ", html)


def audit_frame(truth: Truth, audit: GameAudit, client: str, viewer: int | None,
                frame: str, version: int | None, around: tuple[int, ...] = ()) -> None:
    """Judge one frame. ``version`` is the version it shows; ``around`` are the versions
    to judge a frame without one (a notice) by."""
    def flag(rule, detail):
        audit.add(Violation(truth.game_id, client, version, rule, detail))

    versions = (version,) if version is not None else tuple(v for v in around if v is not None)
    if not versions:
        versions = (0,)
    if any(v >= len(truth.states) for v in versions):
        flag("version", f"a frame shows version {versions} but the log ends at "
                        f"{len(truth.states) - 1}")
        return
    allowed = frozenset().union(*(truth.seen(v, viewer) for v in versions))
    state = truth.states[versions[0]]

    # 4. secrets
    audit.checks += 1
    if truth.seed_hex in frame or truth.seed_hex.upper() in frame:
        flag("seed", "the game's secret seed appears in the frame")
    revealed = frozenset().union(*(truth.revealed[v] for v in versions))
    for record in truth.records:
        if record["salt"] in revealed:
            continue
        audit.checks += 2
        if record["salt"] in frame:
            flag("salt", f"the salt of {record['label']} appears before its showdown")
        if " ".join(record["cards"][:6]) in frame:
            flag("deck", f"the deck order of {record['label']} appears before its showdown")

    # 1. face-up cards
    rest = frame
    for code, label in FACE_UP.findall(frame):
        audit.checks += 1
        try:
            card = parse_card(code)
        except ValueError:
            flag("markup", f"data-card={code!r} is not a card")
            continue
        if CODES[card] != code or label not in LABELS[card]:
            flag("markup", f"face-up {code} is named {label!r}")
        if card not in allowed:
            flag("data-card", f"{code} shown face up; it is in {whereabouts(state, card, viewer)}")
    rest = _strip(rest, FACE_UP)
    for code in DATA_CARD.findall(rest):  # data-card outside the card markup contract
        audit.checks += 1
        flag("markup", f"data-card={code!r} outside a face-up card span")
        try:
            if parse_card(code) not in allowed:
                flag("data-card", f"{code} in a stray data-card; it is in "
                                  f"{whereabouts(state, parse_card(code), viewer)}")
        except ValueError:
            pass

    # 4b. revealed decks
    for block in REVEAL.findall(rest):
        audit.checks += 1
        parts = REVEAL_PARTS.search(block)
        if parts is None:
            flag("reveal", "a fair deal check block without commitment, salt and cards")
            continue
        commitment, salt, cards = parts.groups()
        record = next((r for r in truth.records if r["salt"] == salt), None)
        if record is None:
            flag("reveal", f"a fair deal check shows an unknown salt {salt[:8]}...")
        elif salt not in revealed:
            flag("reveal", f"{record['label']} is revealed before its showdown")
        elif cards.split() != record["cards"] or commitment != record["commitment"]:
            flag("reveal", f"{record['label']} is revealed with the wrong cards or commitment")
    rest = _strip(rest, REVEAL)

    # 2. the event log
    listing = LOG_LIST.search(rest)
    if listing is not None:
        items = [(kind, htmllib.unescape(text)) for kind, text in LOG_ITEM.findall(
            listing.group(1))]
        # a player leaving is said in the log (games.actions.presence) but is no action of
        # the game: such a row is judged on its own -- it names a player who did leave,
        # and no card -- and takes one of the log's EVENTS_SHOWN rows from the game's events
        leaving = [text for kind, text in items if kind == "left"]
        items = [(kind, text) for kind, text in items if kind != "left"]
        for text in leaving:
            audit.checks += 1
            if not any(name in text for name in truth.leavers):
                flag("log", f"the log says {text!r}, but nobody left this game")
            for card in cards_named_in(text):
                flag("text", f"{CODES[card]} named in a line saying who left")
        expected = truth.expected_log(versions[-1], viewer) if version is not None else []
        expected = expected[:EVENTS_SHOWN - len(leaving)]
        # only the newest rows, to go on top of the log the page shows (games.render)
        newest_only = 'hx-swap-oob="afterbegin' in listing.group(0)
        for position, (kind, text) in enumerate(items):
            audit.checks += 1
            if position < len(expected) and (expected[position][0],
                                             as_shown(expected[position][1])) == (kind, text):
                leaked = truth.event_leaks(expected[position][2], viewer, text)
                for card in leaked:
                    flag("log", f"the event {text!r} names {CODES[card]}, which the viewer never "
                                "saw that hand")
                continue
            meant = as_shown(expected[position][1]) if position < len(expected) else None
            flag("log", f"log item {position} is {text!r}, not the game's event {meant!r}")
            for card in cards_named_in(text) - allowed:
                flag("text", f"{CODES[card]} named in a log item; it is in "
                             f"{whereabouts(state, card, viewer)}")
        if version is not None and not newest_only and len(items) != len(expected):
            flag("log", f"the log shows {len(items)} items, the game has {len(expected)}")
        rest = rest[:listing.start()] + rest[listing.end():]

    # 3. any other text
    for card in cards_named_in(rest):
        audit.checks += 1
        if card not in allowed:
            where = whereabouts(state, card, viewer)
            flag("text", f"{CODES[card]} named in the frame; it is in {where}")


def _passes_as_spectator(truth: Truth, client: str, frame: str, version: int) -> bool:
    scratch = GameAudit(game=truth.game_id)
    audit_frame(truth, scratch, client, None, frame, version)
    return scratch.violation_count == 0


def audit_record(record: dict) -> GameAudit:
    """Judge every frame of one game. ``record``: the game's log and its clients' frames."""
    started = time.perf_counter()
    truth = Truth(record)
    audit = GameAudit(game=record["game"], variant=record.get("variant", ""),
                      actions=len(truth.states) - 1)
    for problem in truth.problems:
        audit.checks += 1
        audit.add(Violation(truth.game_id, "log", None, "log-integrity", problem))
    audit.checks += 4  # sequence, events, snapshot, version
    for raw in record["clients"]:
        client = ClientLog(**raw)
        versions = [frame_version(f) for f in client.frames]
        last_seen = None
        for i, frame in enumerate(client.frames):
            audit.frames += 1
            version = versions[i]
            if version is None and last_seen is not None and frame.startswith(PART):
                # some regions of the board, the status not among them: the status shows
                # the version (data-version), so this frame's is the page's last one
                version = last_seen
            viewer = client.viewer
            if client.left_at is not None and i >= client.left_at:
                if version is None or version > client.left_version:
                    viewer = None  # the leaver watches now
                elif _passes_as_spectator(truth, client.name, frame, version):
                    # rendered around the moment of leaving: a spectator's board is fine
                    audit.frames += 1
                    audit.boards += 1
                    audit.checks += 1
                    last_seen = version
                    continue
            if version is not None:
                audit.boards += 1
                last_seen = version
                audit_frame(truth, audit, client.name, viewer, frame, version)
            else:
                following = next((v for v in versions[i + 1:] if v is not None), None)
                audit_frame(truth, audit, client.name, viewer, frame, None,
                            around=(last_seen, following))
    audit.seconds = time.perf_counter() - started
    return audit


# -- playing from the HTML -------------------------------------------------------------------------

SWAP_LIMIT = re.compile(r"Pick 1 to (\d) of your cards")
STOP_CHANCE = 0.4  # stop the bus often: short hands, many deals and showdowns


def choose_move(board: Board, rng: random.Random,
                stop_chance: float = STOP_CHANCE) -> dict | None:
    """A legal move read off the board's forms (like htmx would send it), or None."""
    html, forms = board.html, board.forms
    if "dealer-form" in forms:
        take = form_cards(html, "take", "dealer-form")
        if rng.random() < 0.4 or not take:
            return {"kind": "dealer_swap"}
        k = rng.randint(1, min(3, len(take)))
        return {"kind": "dealer_swap", "positions": [str(p) for p in rng.sample(range(3), k)],
                "take": rng.sample(take, k)}
    if "discard-form" in forms:
        return {"kind": "discard", "give": rng.choice(form_cards(html, "give", "discard-form"))}
    if "stop-form" in forms and rng.random() < stop_chance:
        return {"kind": "stop"}
    if "swap-form" in forms:
        give = form_cards(html, "give", "swap-form")
        take = form_cards(html, "take", "swap-form")
        limit = SWAP_LIMIT.search(html)
        k = 1
        if limit is not None and rng.random() < 0.4:
            k = rng.randint(1, min(int(limit.group(1)), len(give), len(take)))
        move = {"kind": "swap", "give": rng.sample(give, k), "take": rng.sample(take, k)}
        if 'name="stop" value="1"' in html and rng.random() < 0.2:
            move["stop"] = "1"
        return move
    return stock_move(forms, rng)


class AuditPlayer(Player):
    """A wsplayer Player that keeps every frame, replays a stale move now and then,
    asks for a fresh board after a refusal, and may leave the table mid-game."""

    def __init__(self, *args, name: str, stale_chance: float = 0.02,
                 leave_after: int | None = None, on_leave=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.name = name
        self.frames: list[str] = []
        self.stale_chance = stale_chance
        self.leave_after = leave_after
        self.on_leave = on_leave
        self.left_at: int | None = None
        self.left_version: int | None = None
        self.last_frame = time.monotonic()
        self.ws = None
        self.syncs = 0

    async def _frame(self, ws, frame: str) -> None:
        self.ws = ws
        self.last_frame = time.monotonic()
        self.frames.append(frame)
        self.stats.frames += 1
        self.stats.bytes += len(frame)
        if 'id="notice"' in frame and "notice--error" in frame:
            self.stats.refusals.append(re.sub(r"<[^>]+>", "", frame).strip()[:160])
            if self._sent_for is not None and "out-of-date" not in frame:
                self._sent_for = None
                await ws.send(json.dumps({"kind": "sync"}))  # look again
            return
        board = self.page.board(frame)
        if board is None:
            return
        self.board = board
        if board.over:
            self.over = True
            return
        if board.ready and self.ready and self._sent_for != ("ready", board.version):
            self._sent_for = ("ready", board.version)
            await ws.send(json.dumps({"kind": "ready"}))
            return
        if not self.play or board.version is None or self._sent_for == board.version:
            return
        if self.leave_after is not None and self.stats.moves >= self.leave_after:
            await self._leave(board.version)
            return
        move = choose_move(board, self.rng, self.stop_chance)
        if move is None:
            return
        self._sent_for = board.version
        message = json.dumps({**move, "version": board.version})
        await ws.send(message)
        self.stats.moves += 1
        if self.rng.random() < self.stale_chance:
            await ws.send(message)  # the same move again: now out of date

    async def _leave(self, version: int) -> None:
        self.play = False
        self.ready = False
        self.left_at = len(self.frames)
        self.left_version = version  # until the leave is done; then the version after it
        if self.on_leave is not None:
            await self.on_leave(self)

    async def watchdog(self, idle: float = 6.0) -> None:
        """A board that never came (a lost group message) must not stall the game."""
        while not self.over and not self.stop.is_set():
            await asyncio.sleep(1.0)
            if self.ws is not None and time.monotonic() - self.last_frame > idle:
                self.last_frame = time.monotonic()
                self.syncs += 1
                with contextlib.suppress(Exception):  # closed: run() reconnects
                    await self.ws.send(json.dumps({"kind": "sync"}))

    def log(self, viewer: int | None) -> dict:
        return {"name": self.name, "viewer": viewer, "frames": self.frames,
                "left_at": self.left_at, "left_version": self.left_version}


# -- the run ---------------------------------------------------------------------------------------

VARIANT_WEIGHTS = {
    "classic": 20, "draw-and-discard": 18, "thirty-one-blitz": 14, "commerce": 14,
    "aces-high": 11, "race-to-five": 11, "double-or-nothing": 12,
}
SEAT_WEIGHTS = {2: 5, 3: 4, 4: 2, 5: 1}
# house rules set on the benchmark's own database (see prepare_database)
COMMERCE_CHIPS = 3
SHORT_LIVES = 2
SHORT_POINTS = 3


def plan_games(games: int, seed: int, variants=None,
               leave_chance: float = 0.05) -> list[tuple[str, int, bool]]:
    """(variant, seats, someone leaves) for each game, reproducibly."""
    from games.engine import PRESETS

    rng = random.Random(seed)
    plans = []
    slugs = list(variants or VARIANT_WEIGHTS)
    for _ in range(games):
        slug = rng.choices(slugs, weights=[VARIANT_WEIGHTS.get(s, 1) for s in slugs])[0]
        rules = PRESETS[slug].rules
        options = [n for n in SEAT_WEIGHTS if rules.min_players <= n <= rules.max_players]
        n = rng.choices(options, weights=[SEAT_WEIGHTS[o] for o in options])[0]
        plans.append((slug, n, rng.random() < leave_chance))
    return plans


def read_record(game_id: int, clients: list[dict], variant: str) -> dict:
    """The game's log and snapshot from the database, as plain data for the auditor."""
    from django.db import close_old_connections

    from games.models import Action as LogRow
    from games.models import Game

    try:
        game = Game.objects.get(pk=game_id)
        log = list(LogRow.objects.filter(game=game).order_by("seq")
                   .values_list("seq", "payload", "events"))
        return {"game": game.pk, "variant": variant, "seed": game.seed, "rules": game.rules,
                "names": game.state["names"], "state": game.state, "version": game.version,
                "log": [list(row) for row in log], "clients": clients,
                "leavers": list(game.players.filter(left_early=True)
                                .values_list("name", flat=True)),
                "finished": game.status == Game.Status.FINISHED}
    finally:
        close_old_connections()


def stall_report(game_id: int, clients: list) -> str:
    """Why a game did not finish, as far as the database and its clients say: the game's
    phase and turn, who plays each seat, the clock's jobs still to run, and each client's
    last board and what it last sent for."""
    from django.db import close_old_connections
    from django.utils import timezone

    from games.models import Action as LogRow
    from games.models import Game, Job

    try:
        game = Game.objects.get(pk=game_id)
        state = game.state or {}
        last = LogRow.objects.filter(game=game).order_by("-seq").values_list(
            "created_at", flat=True).first()
        # a game still moving when its time ran out (a long one) against one standing still
        idle = f"{(timezone.now() - last).total_seconds():.0f} s" if last else "-"
        seats = [(p.seat, p.user_id is not None, p.bot_level or "-", p.left_early)
                 for p in game.players.order_by("seat")]
        jobs = [(j.kind, j.version, j.seat, j.due_at.isoformat(timespec="seconds"),
                 bool(j.claimed_at), j.claimed_by)
                for j in Job.objects.filter(game=game, done_at__isnull=True)]
        seen = [(c.name, c.board.version if c.board else None,
                 sorted(c.board.forms) if c.board else None, c.board.ready if c.board else None,
                 c._sent_for, c.play, c.over, c.syncs) for c in clients]
        return (f"game {game_id}: {game.status} v{game.version}, last action {idle} ago, "
                f"phase={state.get('phase')} "
                f"turn={state.get('turn')} ready={game.ready} seats={seats} "
                f"jobs={jobs} clients={seen}")
    finally:
        close_old_connections()


def set_up_table(stack, group, slug: str) -> tuple[int, int, dict[int, int]]:
    """A started table for ``group``: (table id, game id, {user id: seat})."""
    from django.db import close_old_connections

    try:
        (table, _), = stack.make_tables(group, per_table=len(group), variant=slug)
        game = table.current_game()
        seats = dict(game.players.values_list("user_id", "seat"))
        return table.pk, game.pk, seats
    finally:
        close_old_connections()


def leave(table_id: int, user, game_id: int) -> int:
    """Leave the table (a bot takes the seat); returns the game's version once it is done,
    after which every board this client gets is a spectator's."""
    from django.db import close_old_connections

    from games import actions
    from games.models import Game, Table

    try:
        actions.do_leave_table(Table.objects.get(pk=table_id), user)
        return Game.objects.values_list("version", flat=True).get(pk=game_id)
    finally:
        close_old_connections()


@dataclass
class Totals:
    games: int = 0
    finished: int = 0
    frames: int = 0
    boards: int = 0
    checks: int = 0
    actions: int = 0
    clients: int = 0
    leavers: int = 0
    stale_replays: int = 0
    refusals: int = 0
    syncs: int = 0
    violation_count: int = 0
    audit_seconds: float = 0.0
    violations: list = field(default_factory=list)
    rules: Counter = field(default_factory=Counter)
    by_variant: Counter = field(default_factory=Counter)
    refusal_kinds: Counter = field(default_factory=Counter)
    by_seats: Counter = field(default_factory=Counter)
    unfinished: list = field(default_factory=list)
    stalls: list = field(default_factory=list)  # stall_report of each unfinished game

    def absorb(self, audit: GameAudit) -> None:
        self.games += 1
        self.frames += audit.frames
        self.boards += audit.boards
        self.checks += audit.checks
        self.actions += audit.actions
        self.violation_count += audit.violation_count
        self.rules.update(audit.rules)
        self.violations.extend(audit.violations[:MAX_VIOLATIONS_KEPT - len(self.violations)])


async def play_one(stack, index: int, plan, people, watcher, db, pool, totals: Totals,
                   timeout: float) -> None:
    slug, n, leaves = plan
    loop = asyncio.get_running_loop()
    group = people[:n]
    table_id, game_id, seats = await loop.run_in_executor(db, set_up_table, stack, group, slug)
    rng = random.Random(index)
    ports = [server.port for server in stack.servers]
    leaver = rng.randrange(n) if leaves else None

    async def on_leave(player):
        player.left_version = await loop.run_in_executor(db, leave, table_id, player.user,
                                                         game_id)
        totals.leavers += 1

    players = []
    for j, (user, cookie) in enumerate(group):
        port = ports[(index + j) % len(ports)]
        player = AuditPlayer(f"ws://127.0.0.1:{port}", table_id, cookie,
                             f"http://127.0.0.1:{port}", seed=index * 100 + j, think=0.0,
                             stop_chance=STOP_CHANCE,
                             name=f"seat {seats[user.pk]} ({user.username})",
                             leave_after=rng.randint(1, 6) if j == leaver else None,
                             on_leave=on_leave, retry_for=30)
        player.user = user
        player.viewer = seats[user.pk]
        players.append(player)
    port = ports[(index + n) % len(ports)]
    spectator = AuditPlayer(f"ws://127.0.0.1:{port}", table_id, watcher[1],
                            f"http://127.0.0.1:{port}", seed=index, play=False, ready=False,
                            name=f"spectator ({watcher[0].username})", retry_for=30)
    spectator.viewer = None
    everyone = [*players, spectator]
    dogs = [asyncio.create_task(p.watchdog()) for p in everyone]
    try:
        await asyncio.wait_for(asyncio.gather(*(p.run() for p in everyone)), timeout)
    except TimeoutError:
        for p in everyone:
            p.stop.set()
    finally:
        for dog in dogs:
            dog.cancel()
    clients = [p.log(p.viewer) for p in everyone]
    for p in everyone:
        totals.refusals += len(p.stats.refusals)
        totals.refusal_kinds.update(r.split(";")[0].split("(")[0][:60] for r in p.stats.refusals)
        totals.stale_replays += sum("out-of-date" in r for r in p.stats.refusals)
        totals.syncs += p.syncs
    totals.clients += len(everyone)
    record = await loop.run_in_executor(db, read_record, game_id, clients, slug)
    totals.by_variant[slug] += 1
    totals.by_seats[n] += 1
    if record["finished"]:
        totals.finished += 1
    else:
        totals.unfinished.append(game_id)
        report = await loop.run_in_executor(db, stall_report, game_id, everyone)
        dump = await loop.run_in_executor(
            db, stack.dump_threads, Path(stack.log_dir) / f"stall-{game_id}.txt")
        totals.stalls.append(f"{report} threads: {dump}" if dump else report)
    audit = await loop.run_in_executor(pool, audit_record, record)
    totals.absorb(audit)
    totals.audit_seconds += audit.seconds


def prepare_database(stack) -> None:
    """On this benchmark's own database: no turn clock (nobody thinks), and shorter games
    (fewer lives, points or chips), so that a thousand games fit in an hour on two cores.
    What a viewer may see does not depend on how long a game lasts; every hand still has
    its deal, its turns and its showdown."""
    from games.models import Variant

    Variant.objects.update(turn_seconds=None)
    Variant.objects.filter(scoring="lives").update(starting_lives=SHORT_LIVES)
    Variant.objects.filter(scoring="points").update(target_points=SHORT_POINTS)
    Variant.objects.filter(scoring="pot").update(starting_chips=COMMERCE_CHIPS)


async def run(stack, games: int, concurrency: int, seed: int, timeout: float,
              progress: bool = True, variants=None, leave_chance: float = 0.05) -> Totals:
    loop = asyncio.get_running_loop()
    totals = Totals()
    plans = plan_games(games, seed, variants, leave_chance)
    db = ThreadPoolExecutor(max_workers=4, thread_name_prefix="django")
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    slots = max(1, min(concurrency, games))
    people = await loop.run_in_executor(db, stack.make_people, slots * 5, "auditp")
    watchers = await loop.run_in_executor(db, stack.make_people, slots, "auditw")
    queue: asyncio.Queue = asyncio.Queue()
    for item in enumerate(plans):
        queue.put_nowait(item)
    started = time.monotonic()

    async def worker(slot: int):
        mine = people[slot * 5:(slot + 1) * 5]
        while not queue.empty():
            index, plan = queue.get_nowait()
            try:
                await play_one(stack, index, plan, mine, watchers[slot], db, pool, totals,
                               timeout)
            except Exception as exc:  # a broken game is reported, the run goes on
                totals.unfinished.append(f"game #{index}: {exc!r}")
            if progress and totals.games and totals.games % 25 == 0:
                print(f"  {totals.games} games, {totals.frames} frames, {totals.checks} "
                      f"checks, {totals.violation_count} violations, "
                      f"{time.monotonic() - started:.0f} s", flush=True)

    try:
        await asyncio.gather(*(worker(slot) for slot in range(slots)))
    finally:
        pool.shutdown()
        db.shutdown()
    return totals


def server_tracebacks(stack) -> int:
    count = 0
    for path in (server.log_path for server in stack.servers):
        text = path.read_text(errors="replace")
        count += text.count("Traceback") + text.count("Exception inside application")
    return count
