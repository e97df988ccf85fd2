"""After a change commits, the action that made it renders what changed, once, and sends
the pages ready fragments (``announce_table`` calls :func:`publish`).

One pass per change (passes of one table never overlap, in any process: a lock in the
cache, and a change committed while a pass runs makes that pass run once more):

1. the table is read once, and its revision named (``render.rev_of``);
2. the public board -- what a spectator sees -- is rendered once per language that
   pages at the table read (``games.presence.pages``), its regions compared once with
   those of the last pass (kept in the cache), and the changed ones sent to the
   table's public group of that language: spectators' pages listen there;
3. each seated player with a page open gets a frame on a group only their pages
   listen to (:func:`audience_group`): the public regions that look the same to them,
   and their own versions of the regions only they see differently (their hand, their
   controls, "your turn"...), rendered on their own (``render.own_regions``) only when
   their private part (what their seat's view shows beyond the spectator's) changed or
   the public region under it did. A private fragment is never sent to a group anyone
   else listens to.

Every frame names the revision it applies to and the one it brings the page to; a page
that does not show the first asks for a whole board (``games.consumers``). When the
board's outline changes (a game starts or ends) each audience is sent its whole board.

Who may hear the table is decided again on every pass: the roster (who sits, who
played, whether strangers may watch) goes to every page of the table, and a page no
longer allowed closes itself; a page whose audience changed (a spectator sat down, a
player left) asks for its board on its new group.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid

from django.core.cache import cache

from .. import presence, render
from ..engine.game import OVER, SHOWDOWN
from ..kinds import kind_for
from ..models import Table
from ..regions import PART
from . import base

log = logging.getLogger(__name__)

STATE_TTL = 6 * 3600
LOCK_TTL = 10  # seconds: a pass never takes this long; a killed process's lock expires
IN_FLIGHT = 5.0  # seconds a published revision's frames may take to reach a page
# regions a seated player always sees in their own way (hand, controls, seat; the tools
# and waiting panel name their seat and what they may do)
ALWAYS_OWN = frozenset({"me-seat", "hand", "controls", "tools", "waiting", "invite"})
LOG = "log"
KEPT = frozenset({"tools", "waiting", "invite"})  # what only the table's changes change
KEPT_PUBLIC = KEPT | {"spectators"}
_GROUP_SAFE = re.compile(r"[^a-zA-Z0-9_.-]")


def table_group(table_id: int) -> str:
    """Every page of the table: the roster, chat. Never a board."""
    return f"table-{table_id}"


def audience_group(table_id: int, user_id: int | None, language: str) -> str:
    """The public frames of one language (``user_id`` None), or one player's own."""
    who = "all" if user_id is None else f"u{user_id}"
    return f"t{table_id}.{who}.{_GROUP_SAFE.sub('_', language or 'x')}"


def rev_key(table_id: int) -> str:
    return f"loop-rev:{table_id}"


def want_key(table_id: int) -> str:
    return f"loop-want:{table_id}"


def rev_keys(table_id: int) -> list[str]:
    """What :func:`current_rev` reads (a ping reads it with its page's record)."""
    return [rev_key(table_id), want_key(table_id)]


def current_rev(table_id: int, found: dict | None = None) -> tuple[str | None, float, float]:
    """(the revision the table's pages were last brought to, when the pass that did it
    read the table, when a change last asked to be published): a ping compares its
    page's revision, and finds a change no pass has published (``publish_left_over``).
    ``found``: :func:`rev_keys` as read already."""
    if found is None:
        found = cache.get_many(rev_keys(table_id))
    rev, read_at = found.get(rev_key(table_id)) or (None, 0.0)
    return rev, read_at, found.get(want_key(table_id)) or 0.0


def left_over(read_at: float, wanted: float) -> bool:
    """Was a change asked to be published after the last pass read the table, longer ago
    than any pass may take? Then the process that held the table's pass died in it (or
    its frames could not be sent): nobody else will publish it."""
    return wanted > read_at and time.time() - wanted > LOCK_TTL


def publish_left_over(table_id: int) -> None:
    """From a page's ping: publish what was left unpublished (see :func:`left_over`), once
    the table's pass is free."""
    _rev, read_at, wanted = current_rev(table_id)
    if left_over(read_at, wanted):
        publish(table_id)


def is_private(data, user_id: int | None) -> bool:
    """Does ``user_id`` see the table in a way of their own (sitting at it)?"""
    return user_id is not None and any(s.user_id == user_id for s in data.seats)


def roster(data) -> dict:
    """Who may hear the table: those sitting, those who played its game, and anyone
    while strangers may watch (``games.access.may_watch``, without a query)."""
    table = data.table
    allowed = {s.user_id for s in data.seats if s.user_id}
    allowed |= {p.user_id for p in data.players if p.user_id}
    return {"open": bool(table.allow_spectators or table.status == Table.Status.WAITING),
            "spectators": bool(table.allow_spectators),
            "playing": table.status != Table.Status.WAITING,
            "allowed": sorted(allowed),
            "private": sorted(s.user_id for s in data.seats if s.user_id)}


# -- one pass at a time per table ----------------------------------------------------------------


def publish(table_id: int) -> None:
    """Bring every page of the table up to date with what is committed now.

    One pass at a time per table: the pass that holds the table's lock runs; a change
    that finds it held marks the table dirty, and the holder, once it has let the lock
    go, runs again while it finds the mark (five cache calls when nobody else is
    publishing the table)."""
    lock, dirty = f"loop-lock:{table_id}", f"loop-dirty:{table_id}"
    token = uuid.uuid4().hex
    # asked for, before anything else: if the process that runs the pass dies in it, the
    # table's pages find out at their next ping (``left_over``)
    cache.set(want_key(table_id), time.time(), STATE_TTL)
    if not cache.add(lock, token, LOCK_TTL):
        cache.set(dirty, 1, LOCK_TTL)
        # the holder may have let go (and looked for the mark) before it was set
        if not cache.add(lock, token, LOCK_TTL):
            return
        cache.delete(dirty)
    while True:
        try:
            run_pass(table_id)
        except Exception:  # a change committed must not be undone; pages resync at a ping
            log.exception("publishing table %s failed", table_id)
        finally:
            if cache.get(lock) == token:  # not another pass's, taken after ours expired
                cache.delete(lock)
        if not cache.delete(dirty) or not cache.add(lock, token, LOCK_TTL):
            return


RENDERS: list | None = None  # tests count renders here: (audience, region or "board")


def _count(audience, what) -> None:
    if RENDERS is not None:
        RENDERS.append((audience, what))


def run_pass(table_id: int) -> None:
    key = f"loop:{table_id}"
    # the languages read at the table, and what the last pass kept: one cache read
    read, _, kept = presence.present_and(table_id, (), also=[key])
    if not read:
        # No page of the table is open (a post table's usual state; one cache read): there
        # is nobody to render for or to tell. What was kept for the pages is dropped, so
        # that a page that arrives reads its own board (noted before it reads: a pass after
        # that finds it) and the next pass starts its audiences afresh from there.
        cache.delete_many([key, rev_key(table_id), want_key(table_id)])
        return
    read_at = time.time()
    data = render.table_data(table_id)  # the one read
    rev = render.rev_of(data)
    old = kept.get(key) or {}
    prev_rev = old.get("rev")
    game = data.game
    at = time.time()
    sends = []
    new = {"rev": rev, "game": game.pk if game else None,
           "version": data.state.version if data.state else None,
           "public": {}, "own": {}, "keys": {}, "roster": roster(data)}
    if new["roster"] != old.get("roster"):
        sends.append((table_group(table_id), {"type": "table.roster", "rev": rev,
                                              **new["roster"]}))
    # the languages read at the table, and the seated players with a page open
    read, readers = presence.present(table_id, new["roster"]["private"], read)
    languages = sorted(read)
    # nothing changed; but a page that arrived since has its audience's regions kept
    # now, so that the next change is sent to it as the regions it changed
    if prev_rev == rev and set(languages) <= set(old.get("public", {})) and all(
            f"{u}:{lang}" in old.get("own", {}) for u, langs in readers.items()
            for lang in langs):
        cache.set(rev_key(table_id), (rev, read_at), STATE_TTL)  # published, as it was
        return
    same_game = old.get("game") == new["game"]
    new_events = _new_events(data, old.get("version") if same_game else None)
    views = _Views(data)
    outline_key = [new["game"], data.state.phase == OVER if data.state else None,
                   repr(data.kept_key)]
    for language in languages:
        before = old.get("public", {}).get(language)
        if before is not None and same_game and before["key"] == outline_key:
            # the same regions as last time, the kept ones unchanged: each region that
            # may have changed is rendered on its own
            outline = before["outline"]
            names = [n for n in outline if not n.startswith("seat-") and n not in KEPT_PUBLIC]
            public = {n: before["regions"][n] for n in outline if n in KEPT_PUBLIC}
            public.update(render.own_regions(
                data, None, language, names,
                seats={int(n[5:]) for n in outline if n.startswith("seat-")}))
            _count(("public", language), "board")
            public = {n: public[n] for n in outline if n in public}
        else:
            board = render.board(data, None, language)
            _count(("public", language), "board")
            names = render.region_names(_template(data))
            seat_ids = [f"seat-{p.seat}" for p in data.players] if game else []
            public = render.regions_of(board.html, (*names, *seat_ids))
        outline = list(public)
        whole = before is None or not same_game or before["outline"] != outline
        new["public"][language] = {"outline": outline, "regions": public,
                                   "key": outline_key}
        changed = {} if whole else _changed(before["regions"], public)
        text = (render.board(data, None, language).full if whole
                else (PART + "".join(changed.values()) if changed else ""))
        group = audience_group(table_id, None, language)
        sends.append((group, {"type": "table.frame", "from": prev_rev, "to": rev, "text": text,
                              "game": new["game"], "at": at, "audience": group}))
        for user_id, langs in readers.items():
            if language not in langs:
                continue
            own_key = f"{user_id}:{language}"
            text, own = _own_frame(data, user_id, language, whole, public, changed,
                                   before["regions"] if before else {},
                                   old.get("own", {}).get(own_key), old.get("keys", {}).get(
                                       str(user_id)), views, new_events)
            new["own"][own_key] = own
            group = audience_group(table_id, user_id, language)
            sends.append((group, {"type": "table.frame", "from": prev_rev, "to": rev,
                                  "text": text, "game": new["game"], "at": at,
                                  "audience": group}))
    for user_id in readers:
        new["keys"][str(user_id)] = views.key(user_id)
    if prev_rev == rev:
        sends = [(g, m) for g, m in sends if m["type"] != "table.frame"]  # shown already
    # kept only once sent: a pass whose frames were lost (Redis down) is sent again,
    # from the revision the pages still show, by the table's next pass
    # who may hear the table first: a page no longer allowed is gone before the frames
    rosters = [(g, m) for g, m in sends if m["type"] == "table.roster"]
    frames = [(g, m) for g, m in sends if m["type"] != "table.roster"]
    if (not rosters or base.group_send_many(rosters)) and (
            not frames or base.group_send_many(frames)):
        cache.set_many({key: new, rev_key(table_id): (rev, read_at)}, STATE_TTL)


def _template(data) -> str:
    return kind_for(data.game or data.table.variant).board_template


def _changed(before: dict, now: dict) -> dict:
    """{region: what to send of it} for each region whose HTML changed: a list's new rows
    when that is all, a seat's badges when nothing else of it changed."""
    out = {}
    for name, html in now.items():
        old = before.get(name)
        if old == html:
            continue
        out[name] = _part(name, old, html)
    return out


def _part(name: str, old: str | None, html: str) -> str:
    if old is not None and name == LOG:
        rows = render.newest_rows(name, old, html)
        if rows:
            return rows
    if old is not None and name.startswith("seat-"):
        badges = f"badges-{name[5:]}"
        was, now = render.regions_of(old, [badges]), render.regions_of(html, [badges])
        if (badges in was and badges in now and was[badges] != now[badges]
                and old.replace(was[badges], "") == html.replace(now[badges], "")):
            return now[badges]
    return html


def _new_events(data, version: int | None) -> list:
    """The events of the log this pass adds (all shown ones for a new game)."""
    if data.state is None:
        return []
    return [e for seq, e in data.events
            if version is None or seq > version or (seq == version and e.kind == "left")]


class _Views:
    """Each seated player's private part: what their seat's engine view shows beyond the
    spectator's, with their seat's own state (ready, away) -- worked out once a pass."""

    def __init__(self, data):
        self.data = data
        self.public = None
        self.keys = {}

    def seat(self, user_id: int) -> int | None:
        return next((p.seat for p in self.data.players
                     if p.user_id == user_id and not p.left_early), None)

    def view(self, seat):
        return self.data.view(seat)

    def key(self, user_id: int) -> list[str]:
        """[what of the table is theirs (seat, away, host, who is invited), what of the game
        is theirs]."""
        if user_id not in self.keys:
            data = self.data
            row = next((s for s in data.seats if s.user_id == user_id), None)
            # who plays each seat shows in their own regions too (Brag's "See <name>"
            # names an opponent, who becomes "Bot for <name>" on leaving)
            table = [row.position if row else None, row.away if row else None,
                     data.table.host_id == user_id,
                     [(p.seat, p.user_id, p.left_early) for p in data.players],
                     # a waiting table's invited players show in its seated players' panel
                     [user for _pk, user, _name in data.invited]]
            game = []
            seat = self.seat(user_id)
            if data.state is not None and seat is not None:
                if self.public is None:
                    self.public = self.view(None)
                mine = self.view(seat)
                # their own seat as everyone sees it, the phase and whether it is their
                # turn show in their own regions too ("You folded this hand")
                seats = mine.get("seats") or []
                game = [seat, seat in (data.game.ready or []), _beyond(mine, self.public),
                        seats[seat] if seat < len(seats) else None, mine.get("phase"),
                        mine.get("hand_no"), mine.get("turn") == seat, data.state.phase]
            self.keys[user_id] = [json.dumps(part, sort_keys=True, default=str)
                                  for part in (table, game)]
        return self.keys[user_id]


def _beyond(mine: dict, public: dict) -> dict:
    """What a seat's view shows that the spectator's does not (of a list, such as the
    seats, the entries that differ)."""
    out = {}
    for k, v in mine.items():
        p = public.get(k)
        if p == v:
            continue
        if isinstance(v, list) and isinstance(p, list) and len(v) == len(p):
            out[k] = [(i, x) for i, (x, y) in enumerate(zip(v, p, strict=True)) if x != y]
        else:
            out[k] = v
    return out


def _own_names(views: _Views, user_id: int, present) -> set[str]:
    """The regions ``user_id`` sees in their own way now (the rest: as the public)."""
    data = views.data
    names = set(ALWAYS_OWN)
    seat = views.seat(user_id)
    if data.state is not None and seat is not None:
        state = data.state
        names.add(f"seat-{seat}")  # their seat is in their own box, not with the others
        mine = views.view(seat)
        if mine.get("turn") == seat:
            names.add("status")
        if mine.get("stopper") == seat:
            names.add("bus")
        if mine.get("legal"):
            names |= {"widow", "stock", "discard", "piles"}
        if state.phase in (SHOWDOWN, OVER):
            names |= {"showdown", "standings"}
        if any(e.seat == seat for _, e in data.events):
            names.add(LOG)
    return names & set(present)


def _own_frame(data, user_id, language, whole, public, changed, old_public, before, old_key,
               views, new_events):
    """(text, own regions) of one seated player's frame."""
    user = next(s.user for s in data.seats if s.user_id == user_id)
    if whole:
        board = render.board(data, user, language)
        _count(("seat", user_id, language), "board")
        names = _own_names(views, user_id, public)
        return board.full, {n: html for n in names
                            if (html := render.regions_of(board.html, [n]).get(n))}
    before = before or {}
    names = _own_names(views, user_id, public)
    key = views.key(user_id)
    old_key = old_key or [None, None]
    seat = views.seat(user_id)
    wanted = []
    for name in sorted(names):
        if name == f"seat-{seat}":
            continue  # shown in "me-seat"
        if name not in before:
            wanted.append(name)
        elif name == LOG:
            # new rows: their own only if one of them is theirs, or the log is sent whole
            if name in changed and (changed[name] == public[name]
                                    or any(e.seat == seat for e in new_events)):
                wanted.append(name)
        elif name in KEPT:
            if name in changed or key[0] != old_key[0]:
                wanted.append(name)
        elif (name in changed or key != old_key
              or (name == "me-seat" and f"seat-{seat}" in changed)):
            wanted.append(name)
    fresh = render.own_regions(data, user, language, wanted) if wanted else {}
    for name in wanted:
        _count(("seat", user_id, language), name)
    own = {n: before[n] for n in names if n in before}
    parts = []
    for name, html in changed.items():
        if name not in names:
            parts.append(html)
        elif name == LOG and name not in wanted:
            parts.append(html)  # the public new rows, which are theirs too
            own[LOG] = render.apply(before[LOG], PART + html)
    for name in before:
        if name not in names and name not in changed and name in public:
            parts.append(public[name])  # theirs until now, the public one from now on
    for name, html in fresh.items():
        shown = before.get(name, old_public.get(name))  # what their page shows now
        if shown != html:
            parts.append(_part(name, shown, html) if name == LOG else html)
        own[name] = html
    return (PART + "".join(parts) if parts else ""), own
