"""The hidden-information audit, CI-sized: short games through in-process websockets.

Every seat is played through its own WebsocketCommunicator from the HTML alone
(``tests.support.audit.choose_move``), with a spectator at every table; every frame
is kept -- and now and then each viewer's table page, fetched over HTTP -- and judged
by ``tests.support.audit.audit_record`` against the replayed log.
The second half shows the auditor is not blind: leaks planted in real frames
are caught, each by the rule meant to catch it.
"""

import copy
import json
import random
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import translation

from games import actions
from games.engine.cards import CODES, NAMES, parse_card
from games.event_text import card_name
from games.regions import PART
from games.templatetags.cards import card as card_html
from stopbus_site.asgi import application
from tests.factories import UserFactory, preset_variant
from tests.support.audit import (
    FACE_UP,
    JA_NAMES,
    Truth,
    audit_record,
    choose_move,
    frame_version,
    leave,
    read_record,
)
from tests.support.wsplayer import Board, Page

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]

ORIGIN = (b"origin", b"http://localhost")
SHORT = {"starting_lives": 1, "target_points": 2, "starting_chips": 2, "turn_seconds": None}


def _cookie(user):
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def _set_up(slug, players):
    variant = preset_variant(slug, **SHORT)
    users = [UserFactory() for _ in range(players)]
    watcher = UserFactory()
    table = actions.do_create_table(users[0], name=f"Audit {slug}", variant=variant, seats=players)
    for user in users[1:]:
        actions.do_join_table(table, user)
    game = table.current_game()
    seats = dict(game.players.values_list("user_id", "seat"))
    return table.pk, game.pk, [(u, seats[u.pk]) for u in users], watcher


class Client_:
    def __init__(self, name, viewer, comm, user, table_id, game_id):
        self.name, self.viewer, self.comm = name, viewer, comm
        self.user, self.table_id, self.game_id = user, table_id, game_id
        self.frames: list[str] = []
        self.board: Board | None = None
        self.shown = Page()
        self.left_at = self.left_version = None

    def page(self):
        """The table page over HTTP, judged like a frame (it shows the same board)."""
        client = Client()
        client.force_login(self.user)
        response = client.get(f"/t/{self.table_id}/")
        assert response.status_code == 200
        self.frames.append(response.content.decode())

    async def until(self, version, timeout=5.0):
        """Frames until a board at ``version`` or later (or the final standings)."""
        while self.board is None or (self.board.version or 0) < version and not self.board.over:
            try:
                frame = await self.comm.receive_from(timeout=timeout)
            except TimeoutError:
                notices = [re.sub(r"<[^>]+>", "", f).strip() for f in self.frames
                           if "notice--error" in f]
                raise AssertionError(f"{self.name} never saw version {version}; "
                                     f"refusals: {notices[-3:]}") from None
            self.keep(frame)

    def keep(self, frame):
        self.frames.append(frame)
        board = self.shown.board(frame)
        if board is not None:
            self.board = board

    async def until_said(self, text, since, timeout=5.0):
        """Frames until one received from frame ``since`` on holds ``text``."""
        while not any(text in frame for frame in self.frames[since:]):
            self.keep(await self.comm.receive_from(timeout=timeout))

    def log(self):
        return {"name": self.name, "viewer": self.viewer, "frames": self.frames,
                "left_at": self.left_at, "left_version": self.left_version}

    def leave(self):
        """Leave the table mid-game (a bot plays the seat on) and watch on, as
        ``tests.support.audit`` does: boards from here on are judged as a spectator's once
        past the version the leave was done at."""
        self.left_at = len(self.frames)
        self.left_version = leave(self.table_id, self.user, self.game_id)


async def play_game(slug, players, seed, leave_after=None):
    """Play one game to its end through websockets; return the auditor's record.
    ``leave_after``: after that many moves the last seat's player leaves, and the
    clock plays their seat from then on."""
    table_id, game_id, seated, watcher = await sync_to_async(_set_up)(slug, players)
    clients = []
    for user, seat in [*seated, (watcher, None)]:
        comm = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=[
            ORIGIN, (b"cookie", await sync_to_async(_cookie)(user))])
        connected, _ = await comm.connect(timeout=5)
        assert connected
        clients.append(Client_(f"seat {seat}" if seat is not None else "spectator", seat, comm,
                               user, table_id, game_id))
    rng = random.Random(seed)
    for client in clients:
        await client.until(0)
    players_ = [c for c in clients if c.viewer is not None]
    moves_made = 0
    for step in range(3000):
        if all(c.board.over for c in clients):
            break
        if (leave_after is not None and moves_made >= leave_after and len(players_) == players
                and "data-my-turn" not in players_[-1].board.html):
            # not the leaver's turn, so the status stays as it is: every other page is sent
            # the regions the leave changed (their seat, the log's new row), and no version
            marks = [len(c.frames) for c in clients]
            leaver = players_.pop()
            await sync_to_async(leaver.leave)()
            for client, mark in zip(clients, marks, strict=True):
                if client is not leaver:
                    await client.until_said("log__item--left", mark)
        if step % 9 == 4:
            for client in clients:
                await sync_to_async(client.page)()
        version = max(c.board.version for c in clients)
        moves = [(c, choose_move(c.board, rng)) for c in players_ if c.board.version == version]
        moves = [(c, m) for c, m in moves if m is not None]
        if moves:
            client, move = moves[0]
            await client.comm.send_to(text_data=json.dumps({**move, "version": version}))
            moves_made += 1
        elif len(players_) < players and await sync_to_async(actions.do_run_due_jobs)():
            pass  # the clock played the leaver's seat
        else:
            for client in players_:
                if client.board.ready:
                    await client.comm.send_to(text_data=json.dumps({"kind": "ready"}))
        for client in clients:
            await client.until(version + 1)
    else:
        raise AssertionError(f"{slug} did not end")
    for client in clients:
        await client.comm.disconnect()
    return await sync_to_async(read_record)(game_id, [c.log() for c in clients], slug)


GAMES = [("classic", 2), ("draw-and-discard", 2), ("commerce", 3), ("thirty-one-blitz", 3),
         ("aces-high", 2), ("race-to-five", 2), ("double-or-nothing", 2)]


@pytest.fixture(autouse=True)
def _no_rate_limit(settings):
    """The clients play with no think time; the rate limit has tests of its own."""
    settings.STOPBUS_WS_RATE = 10_000
    settings.STOPBUS_WS_BURST = 10_000


async def test_every_frame_of_short_games_shows_only_what_its_viewer_may_see():
    frames = checks = 0
    for i, (slug, players) in enumerate(GAMES):
        record = await play_game(slug, players, seed=i)
        assert record["finished"], slug
        audit = await sync_to_async(audit_record)(record)
        assert audit.violation_count == 0, [str(v) for v in audit.violations]
        assert audit.boards > audit.actions  # every seat and the spectator saw the game
        frames += audit.frames
        checks += audit.checks
    assert frames > 200 and checks > frames * 10


@pytest.fixture
async def leave_record(transactional_db):
    return await play_game("classic", 3, seed=5, leave_after=2)


async def test_a_player_who_leaves_mid_game_sees_a_spectators_board_and_the_log_says_so(
        leave_record):
    record = leave_record
    assert record["finished"] and len(record["leavers"]) == 1
    audit = await sync_to_async(audit_record)(record)
    assert audit.violation_count == 0, [str(v) for v in audit.violations]
    frames = [f for client in record["clients"] for f in client["frames"]]
    assert any("log__item--left" in f for f in frames)  # the log says who left
    # the leave changes no version: the frames it causes are regions without the status
    assert any(f.startswith(PART) and frame_version(f) is None and "log__item" in f
               for f in frames)


# -- the auditor catches what it is meant to catch -----------------------------------------------


def _face_up(card):
    """A face-up card exactly as the page draws one."""
    return str(card_html(CODES[card]))


def _planted(record, client_name, index, frame):
    changed = copy.deepcopy(record)
    for client in changed["clients"]:
        if client["name"] == client_name:
            client["frames"][index] = frame
    return audit_record(changed)


def _a_frame(record, truth, want):
    """(client name, frame index, frame, version) of the first board matching ``want``."""
    for client in record["clients"]:
        for i, frame in enumerate(client["frames"]):
            version = frame_version(frame)
            if version is not None and want(client["viewer"], truth.states[version]):
                return client["name"], client["viewer"], i, frame, truth.states[version]
    raise AssertionError("no such frame")


@pytest.fixture
async def commerce_record(transactional_db):
    return await play_game("commerce", 3, seed=11)


@pytest.fixture
async def stock_record(transactional_db):
    return await play_game("draw-and-discard", 2, seed=12)


async def test_planted_leaks_in_a_stock_game_are_caught(stock_record):
    record = stock_record
    truth = await sync_to_async(Truth)(record)
    assert (await sync_to_async(audit_record)(record)).violation_count == 0
    name, viewer, i, frame, state = _a_frame(
        record, truth, lambda v, s: v is not None and s.phase == "play" and s.stock)
    other = 1 - viewer
    hidden = next(c for c in state.hands[other] if c not in state.known[other])
    cases = {
        "data-card": frame + _face_up(hidden),  # a frame may be a few regions: at its end
        "text": frame.replace("</section>", f"<p>{CODES[state.stock[-1]]}</p></section>", 1),
        "seed": frame + f"<!-- {record['seed']} -->",
        "salt": frame + f"<code>{state.fairness[-1]['salt']}</code>",
        "deck": frame + "<code>" + " ".join(state.fairness[-1]["cards"][:6]) + "</code>",
        "log": re.sub(r'(<li class="log__item log__item--[a-z_]+"[^>]*>)',
                      rf"\1You drew {CODES[hidden]} from the stock", frame, count=1),
    }
    for rule, planted in cases.items():
        audit = await sync_to_async(_planted)(record, name, i, planted)
        assert audit.rules[rule] >= 1, (rule, [str(v) for v in audit.violations])
    stock_top = await sync_to_async(_planted)(record, name, i, cases["text"])
    assert "the top of the stock" in str(stock_top.violations[0])


def _regions_frame_of_the_leave(record, truth):
    """(client name, seat, frame index, frame, state shown) of the first frame a seat still
    playing was sent of the leave: regions without the status, so without a version."""
    for client in record["clients"]:
        if client["viewer"] is None or client["left_at"] is not None:
            continue
        shown = None
        for i, frame in enumerate(client["frames"]):
            if frame_version(frame) is not None:
                shown = frame_version(frame)
            elif frame.startswith(PART) and "log__item--left" in frame and shown is not None:
                return client["name"], client["viewer"], i, frame, truth.states[shown]
    raise AssertionError("no such frame")


async def test_planted_leaks_around_a_player_leaving_are_caught(leave_record):
    record = leave_record
    truth = await sync_to_async(Truth)(record)
    assert (await sync_to_async(audit_record)(record)).violation_count == 0
    # a seat still playing is sent the leave as regions without the status: judged at the
    # version the page shows
    name, viewer, i, frame, state = _regions_frame_of_the_leave(record, truth)
    hidden = next(c for seat, hand in enumerate(state.hands) if seat != viewer
                  for c in hand if c not in state.known[seat])
    audit = await sync_to_async(_planted)(record, name, i, frame + _face_up(hidden))
    assert audit.rules["data-card"] == 1, [str(v) for v in audit.violations]
    # the line saying who left names no card
    said = frame.replace("plays their seat.", f"plays their seat. {CODES[hidden]}", 1)
    assert said != frame
    audit = await sync_to_async(_planted)(record, name, i, said)
    assert audit.rules["text"] == 1, [str(v) for v in audit.violations]
    # and only a game somebody left says so
    nobody_left = {**record, "leavers": []}
    assert (await sync_to_async(audit_record)(nobody_left)).rules["log"] >= 1


async def test_the_commerce_dealer_may_not_see_their_own_hand_before_the_unseen_swap(
        commerce_record):
    record = commerce_record
    truth = await sync_to_async(Truth)(record)
    assert (await sync_to_async(audit_record)(record)).violation_count == 0
    name, viewer, i, frame, state = _a_frame(
        record, truth, lambda v, s: s.phase == "dealer_swap" and v == s.dealer)
    assert 'name="positions"' in frame  # the unseen-swap form: places, not cards
    own = state.hands[viewer][0]
    planted = frame + _face_up(own)
    audit = await sync_to_async(_planted)(record, name, i, planted)
    assert audit.rules["data-card"] == 1
    assert "own hand, which it has not looked at" in str(audit.violations[0])
    # the same card in a spectator's frame at the same moment is a leak too (the same
    # version: the dealer's page may have shown its first unseen swap in a later hand)
    name, _, i, frame, _ = _a_frame(record, truth, lambda v, s: v is None and s is state)
    audit = await sync_to_async(_planted)(
        record, name, i, frame + f"<p>{CODES[own]}</p>")
    assert audit.rules["text"] == 1


def test_the_audit_names_cards_as_the_catalogue_does_in_both_languages():
    with translation.override("ja"):
        assert list(JA_NAMES) == [card_name(c) for c in range(52)]
    with translation.override("en"):
        assert list(NAMES) == [card_name(c) for c in range(52)]
    assert JA_NAMES[parse_card("QS")] == "スペードのクイーン"


async def test_a_card_labelled_in_japanese_passes_and_a_misnamed_one_is_caught(stock_record):
    record = stock_record
    truth = await sync_to_async(Truth)(record)
    name, _, i, frame, _ = _a_frame(
        record, truth, lambda v, s: v is not None and s.phase == "play")
    code, label = FACE_UP.findall(frame)[0]
    card = parse_card(code)
    in_japanese = frame.replace(f'aria-label="{label}"', f'aria-label="{JA_NAMES[card]}"')
    assert in_japanese != frame
    assert (await sync_to_async(_planted)(record, name, i, in_japanese)).violation_count == 0
    wrong = frame.replace(f'aria-label="{label}"',
                          f'aria-label="{JA_NAMES[(card + 1) % 52]}"', 1)
    audit = await sync_to_async(_planted)(record, name, i, wrong)
    assert audit.rules["markup"] == 1, [str(v) for v in audit.violations]
