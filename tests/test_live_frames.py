"""The live loop's second design: a change is rendered once, where it happens
(``games.actions.publish``), and each audience is sent ready fragments.

Pages are played as a browser keeps them (``regions.apply``), fed what the pass sends
each page's group; every page, after every change, must equal the board it would be
sent whole, and no frame on a group may show a card its audience may not see.
"""

from __future__ import annotations

import difflib
import random
import re
from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import actions, consumers, presence, render
from games.actions import publish
from games.kinds import kind_for
from games.models import Game, Variant
from games.regions import FULL, PART, apply, frame_ids
from tests.factories import UserFactory, preset_variant
from tests.html_contract import cards_in

pytestmark = pytest.mark.django_db


class Groups:
    """What the pass sends, by group (``base.group_send_many`` stood in for)."""

    def __init__(self):
        self.sent: list[tuple[str, dict]] = []

    def __call__(self, messages):
        self.sent.extend(messages)
        return True

    def take(self) -> list[tuple[str, dict]]:
        sent, self.sent = self.sent, []
        return sent


class Page:
    """One open page: its viewer, language, group, the board it shows and its revision."""

    def __init__(self, table_id, user, language, channel):
        self.table_id, self.user, self.language, self.channel = table_id, user, language, channel
        presence.note_page(table_id, channel, user.pk, language)
        self.arrive()

    def arrive(self):
        data = render.table_data(self.table_id)
        self.private = publish.is_private(data, self.user.pk)
        self.group = publish.audience_group(self.table_id, self.user.pk if self.private
                                            else None, self.language)
        self.html = apply("", render.board(data, self.viewer(data), self.language).full)
        self.rev = render.rev_of(data)

    def viewer(self, data):
        return self.user if publish.is_private(data, self.user.pk) else None

    def hear(self, sent) -> list[str]:
        """Apply the frames sent to this page's group; the texts applied."""
        texts = []
        for group, message in sent:
            if group != self.group or message["type"] != "table.frame":
                continue
            text = message["text"]
            assert message["from"] == self.rev or text.startswith(FULL), (
                "a frame that does not follow the board shown")
            self.html = apply(self.html, text)
            self.rev = message["to"]
            texts.append(text)
        return texts

    def expected(self):
        data = render.table_data(self.table_id)
        return render.board(data, self.viewer(data), self.language)


def _table(variant, seats: int):
    people = [UserFactory() for _ in range(seats)]
    table = actions.do_create_table(people[0], name="F", variant=variant, seats=seats)
    for person in people[1:]:
        actions.do_join_table(table, person)  # the last one starts the game
    return table, people


def _step(game_id: int, rng: random.Random, kinds: set) -> bool:
    """One change, as the clock or a player would make it. False once the game is over."""
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.PLAYING:
        return False
    kind = kind_for(game)
    state = actions.state_of(game)
    if state.phase == "showdown":
        if rng.random() < 0.3:
            actions.do_ready(game.pk, rng.choice([p.seat for p in game.players.all()]))
            kinds.add("ready")
        else:
            actions.do_play(game.pk, None, kind.next_hand(), game.version, by="table")
            kinds.add("next_hand")
        return True
    bot = kind.make_bot(rng.choice(list(kind.bot_levels)), state.rules, rng)
    move = kind.to_action(bot.choose(kind.seat_view(state, state.turn)))
    actions.do_play(game.pk, state.turn, move, game.version)
    kinds.add(move.kind)
    return True


def _clockless(html: str) -> str:
    """A board without the seconds its clock showed when rendered (a whole board rendered
    a moment after the frame may show a second less; the page counts down itself)."""
    return re.sub(r'countdown__seconds">\d+<', 'countdown__seconds"><', html)


def _visible_cards(html: str) -> set:
    return set(cards_in(html)[0])


def _play_and_check(variant, seats, seed, steps=120, leave_at=None):
    rng = random.Random(seed)
    render.clear()
    groups = Groups()
    with mock.patch.object(actions.base, "group_send_many", groups):
        table, people = _table(variant, seats)
        watcher = UserFactory()
        publish.run_pass(table.pk)
        pages = [Page(table.pk, u, "en", f"c{u.pk}") for u in people]
        pages += [Page(table.pk, watcher, "en", "cw"), Page(table.pk, people[0], "ja", "cj"),
                  Page(table.pk, watcher, "ja", "cwj")]
        publish.run_pass(table.pk)
        groups.take()
        game_id = table.current_game().pk
        kinds, parts = set(), 0
        for step in range(steps):
            if step == leave_at:
                actions.do_leave_table(table, people[1])
                kinds.add("leave")
            elif not _step(game_id, rng, kinds):
                break
            publish.run_pass(table.pk)
            sent = groups.take()
            # no board passes the table's group; each frame names a group of one audience
            assert all(m["type"] != "table.frame" for g, m in sent
                       if g == publish.table_group(table.pk))
            for page in pages:
                new = page.expected()
                for text in page.hear(sent):
                    # nothing on this page's group shows a card its viewer may not see
                    assert _visible_cards(text) <= _visible_cards(new.html), text
                    parts += text.startswith(PART)
                    assert "<!--fragment" not in text
                if page.private != publish.is_private(render.table_data(table.pk),
                                                      page.user.pk):
                    page.arrive()  # the roster moved this page to its new audience
                    continue
                assert _clockless(page.html) == _clockless(new.html), (
                    step, page.user, page.language, "".join(difflib.unified_diff(
                        new.html.splitlines(True), page.html.splitlines(True), n=1)))
    return kinds, parts


@pytest.mark.timeout(900)
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@pytest.mark.parametrize("slug", ["classic", "commerce", "draw-and-discard",
                                  "three-card-brag"])
@given(seed=st.integers(0, 2**32), seats=st.integers(3, 4))
def test_the_last_board_and_the_frames_give_the_new_board_for_every_seat_and_a_spectator(
        seed, slug, seats):
    variant = Variant.objects.get(slug=slug) if slug == "three-card-brag" else (
        preset_variant(slug))
    kinds, parts = _play_and_check(variant, seats, seed)
    assert parts > 0


@pytest.mark.timeout(900)
def test_every_action_kind_of_both_games_reaches_only_its_audience():
    """Private fragments reach no other seat's or spectator's group, whatever the move
    (games played on until every kind of action of both games was seen)."""
    seen = set()
    for i, slug in enumerate(["classic", "commerce", "draw-and-discard", "three-card-brag"]):
        variant = Variant.objects.get(slug=slug) if slug == "three-card-brag" else (
            preset_variant(slug))
        kinds, _ = _play_and_check(variant, 3, 1000 + i, steps=90, leave_at=30)
        seen |= kinds
    stop_the_bus = {"swap", "stop", "pass", "draw", "discard", "take_discard",
                    "dealer_swap", "next_hand", "ready", "leave"}
    brag = {"bet", "fold", "see", "next_hand"}
    assert stop_the_bus <= seen or len(stop_the_bus & seen) >= 7, seen
    assert brag & seen, seen


def test_a_change_renders_the_public_board_once_per_language_and_own_regions_only_where_needed():
    render.clear()
    groups = Groups()
    with mock.patch.object(actions.base, "group_send_many", groups):
        table, people = _table(preset_variant("classic"), 4)
        watcher = UserFactory()
        for u in people:
            presence.note_page(table.pk, f"c{u.pk}", u.pk, "en")
        presence.note_page(table.pk, "cw", watcher.pk, "en")
        presence.note_page(table.pk, "cwj", watcher.pk, "ja")
        publish.run_pass(table.pk)
        game = table.current_game()
        state = actions.state_of(game)
        mover = state.turn
        move = next(a for a in kind_for(game).legal_actions(state, mover) if a.kind == "swap")
        publish.RENDERS = []
        try:
            actions.do_play(game.pk, mover, move, game.version)
            publish.run_pass(table.pk)
            renders = publish.RENDERS
        finally:
            publish.RENDERS = None
    after = actions.state_of(table.current_game())
    boards = [a for a, what in renders if what == "board"]
    assert sorted(boards) == [("public", "en"), ("public", "ja")]  # once per language
    seats_rendered = {a[1] for a, what in renders if a[0] == "seat"}
    by_seat = {u.pk: i for i, u in enumerate(people)}
    # only the mover (their hand, their controls) and the one to play next (their controls)
    assert {by_seat[u] for u in seats_rendered} <= {mover, after.turn}, renders
    assert mover in {by_seat[u] for u in seats_rendered}
    # the others' frames are the public regions, not renders of their own
    frames = {g: m["text"] for g, m in groups.sent if m["type"] == "table.frame"}
    for seat, user in enumerate(people):
        text = frames[publish.audience_group(table.pk, user.pk, "en")]
        assert text.startswith(PART)
        if seat not in (mover, after.turn):
            assert set(frame_ids(text)) <= {"status", "widow"}, frame_ids(text)
            assert len(text.encode()) < 1500


@pytest.mark.django_db(transaction=True)  # the page's board is read in another thread
def test_a_page_that_misses_a_version_recovers_to_the_exact_board():
    render.clear()
    groups = Groups()
    with mock.patch.object(actions.base, "group_send_many", groups):
        table, people = _table(preset_variant("classic"), 3)
        publish.run_pass(table.pk)
        page = Page(table.pk, people[0], "en", "c0")
        publish.run_pass(table.pk)
        groups.take()
        rng = random.Random(7)
        _step(table.current_game().pk, rng, set())
        publish.run_pass(table.pk)
        groups.take()  # this frame never reaches the page
        _step(table.current_game().pk, rng, set())
        publish.run_pass(table.pk)
        sent = groups.take()
    frame = next(m for g, m in sent if g == page.group)
    assert frame["from"] != page.rev  # it does not follow: the page asks for its board
    consumer = consumers.TableConsumer()
    consumer.table_id, consumer.user, consumer.language = table.pk, people[0], "en"
    consumer.rev, consumer.fetching, consumer.held = page.rev, None, []
    consumer.audience, consumer.private, consumer.waited = page.group, True, False
    consumer.closed = False
    consumer.group, consumer.game_id = publish.table_group(table.pk), None
    sent_texts = []

    async def send(text_data=None, **kwargs):
        sent_texts.append(text_data)

    consumer.send = send
    consumer.channel_name = "c0"
    consumer.channel_layer = mock.AsyncMock()

    async def hear():
        await consumer.table_frame(frame)
        if consumer.fetching is not None:
            await consumer.fetching

    async_to_sync(hear)()
    assert len(sent_texts) == 1 and sent_texts[0].startswith(FULL)
    assert _clockless(apply(page.html, sent_texts[0])) == _clockless(page.expected().html)
    assert consumer.rev == frame["to"]


def test_a_page_forwarding_a_change_makes_no_query_and_renders_nothing(
        django_assert_num_queries):
    consumer = consumers.TableConsumer()
    consumer.table_id, consumer.language, consumer.rev = 1, "en", "a"
    consumer.fetching, consumer.held, consumer.closed = None, [], False
    sent = []

    async def send(text_data=None, **kwargs):
        sent.append(text_data)

    consumer.send = send
    frame = {"type": "table.frame", "from": "a", "to": "b", "text": PART + '<p id="x"></p>',
             "at": None}
    with (mock.patch.object(consumers, "db", side_effect=AssertionError("a query")),
          mock.patch.object(render, "board", side_effect=AssertionError("a render")),
          django_assert_num_queries(0)):
        async_to_sync(consumer.table_frame)(frame)
        async_to_sync(consumer.chat_message)({"html": "<ol></ol>"})
    assert sent == [frame["text"], "<ol></ol>"] and consumer.rev == "b"


def test_a_frame_heard_on_the_pages_old_audience_is_dropped():
    """A spectator sits down as the game begins: the start's frame for spectators may reach
    the page after it fetched its own board (it was held meanwhile); it must not replace it."""
    consumer = consumers.TableConsumer()
    consumer.table_id, consumer.language, consumer.rev = 1, "en", "b"
    consumer.fetching, consumer.held, consumer.closed = None, [], False
    consumer.audience = "t1.u7.en"
    sent = []

    async def send(text_data=None, **kwargs):
        sent.append(text_data)

    consumer.send = send
    theirs = {"type": "table.frame", "from": "a", "to": "b", "text": FULL + "<p>watching</p>",
              "at": None, "audience": "t1.all.en"}
    mine = {"type": "table.frame", "from": "b", "to": "c", "text": PART + "<p>mine</p>",
            "at": None, "audience": "t1.u7.en"}
    async_to_sync(consumer.table_frame)(theirs)
    assert sent == [] and consumer.rev == "b"
    async_to_sync(consumer.table_frame)(mine)
    assert sent == [mine["text"]] and consumer.rev == "c"


def test_has_visible_page_follows_what_pages_say():
    presence.note_page(5, "ca", 11, "en", visible=False)
    assert not presence.has_visible_page(11, 5)
    presence.note_page(5, "cb", 11, "ja", visible=True)
    assert presence.has_visible_page(11, 5)
    assert not presence.has_visible_page(12, 5)
    presence.forget_page(5, "cb", 11)
    assert not presence.has_visible_page(11, 5)


def test_a_leavers_log_row_keeps_the_ids_of_the_rows_already_shown():
    table, people = _table(preset_variant("classic"), 3)
    data = render.table_data(table.pk)
    before = render.board(data, None, "en").html
    actions.do_leave_table(table, people[1])
    after = render.board(render.table_data(table.pk), None, "en").html
    from games.regions import ITEM
    old_ids = ITEM.findall(render.regions_of(before, ["log"])["log"])
    new_ids = ITEM.findall(render.regions_of(after, ["log"])["log"])
    assert new_ids[len(new_ids) - len(old_ids):] == old_ids  # one new row on top
    assert len(new_ids) == len(old_ids) + 1


def test_a_change_published_while_another_pass_runs_is_published_by_that_pass(db):
    """One pass at a time per table: a change that finds the table's pass running marks
    the table, and the running pass runs once more, so the change is sent, once."""
    from django.core.cache import cache

    table, _ = _table(preset_variant("classic"), 2)
    passes = []
    real = publish.run_pass

    def run_pass(table_id):
        passes.append(table_id)
        if len(passes) == 1:
            # a second change commits while the first pass runs: it finds the lock held
            publish.publish(table_id)
            assert len(passes) == 1, "a second pass ran beside the first"
        real(table_id)

    with mock.patch.object(publish, "run_pass", run_pass):
        publish.publish(table.pk)
    assert passes == [table.pk, table.pk]
    # nothing left behind: the next change is published at once
    assert cache.get(f"loop-lock:{table.pk}") is None
    assert cache.get(f"loop-dirty:{table.pk}") is None
    with mock.patch.object(publish, "run_pass", run_pass):
        publish.publish(table.pk)
    assert passes == [table.pk] * 3


def test_a_table_nobody_has_open_is_neither_read_nor_rendered_and_a_page_that_comes_keeps_up(db):
    """A post table's usual state: no page open. A change there costs its pass one cache
    read (no read of the table, no render, nothing sent); a page that comes later reads
    its own board, and the changes after it reach it as frames that follow that board."""
    render.clear()
    groups = Groups()
    rng = random.Random(7)
    with mock.patch.object(actions.base, "group_send_many", groups):
        table, people = _table(preset_variant("classic"), 3)
        game_id = table.current_game().pk
        publish.RENDERS = []
        try:
            with mock.patch.object(render, "table_data", wraps=render.table_data) as read:
                for _ in range(3):
                    _step(game_id, rng, set())
                    publish.run_pass(table.pk)
                assert read.call_count == 0 and publish.RENDERS == []
            assert groups.take() == []
            page = Page(table.pk, people[0], "en", "c0")
            watcher = Page(table.pk, UserFactory(), "ja", "cw")
            for _ in range(4):
                _step(game_id, rng, set())
                publish.run_pass(table.pk)
                sent = groups.take()
                for each in (page, watcher):
                    assert each.hear(sent), "every change reaches the pages that came"
                    assert _clockless(each.html) == _clockless(each.expected().html)
        finally:
            publish.RENDERS = None
