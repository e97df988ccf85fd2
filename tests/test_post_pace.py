"""Post tables: a pace per table, deadlines in hours or days, missed turns, a bot that sits
in, leaving after days of absence; never abandoned by the live presence logic."""

import re
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from games import actions
from games.engine.game import OVER, SHOWDOWN
from games.engine.rules import MAX_TARGET_POINTS
from games.forms import TableForm
from games.models import Game, GamePlayer, Job, Seat, Table, Variant
from games.pace import PACE_SECONDS, move_time, pace_words
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db


def old_user(name):
    user = UserFactory(username=name)
    user.date_joined = timezone.now() - timedelta(days=30)
    user.save(update_fields=["date_joined"])
    return user


def brag():
    return Variant.objects.get(slug="three-card-brag")


def post_game(user, variant=None, pace="1d", bots=("greedy", "greedy")):
    variant = variant or preset_variant()
    table = actions.do_create_table(user, name="By post", variant=variant,
                                    seats=1 + len(bots), pace=pace)
    for level in bots:
        actions.do_add_bot(table, user, level)
    table.refresh_from_db()
    return table.current_game()


def long_game():
    """Enough lives that a player missing every turn is still in after eight turns."""
    return preset_variant(scoring="points", target_points=MAX_TARGET_POINTS)


def pending(game, kind=None):
    jobs = Job.objects.filter(game=game, done_at__isnull=True)
    return jobs.filter(kind=kind) if kind else jobs


def until_persons_turn(game, seat=0, limit=200):
    """Run the jobs bots and deals need until ``seat`` (a person) is to move."""
    for _ in range(limit):
        game = Game.objects.select_related("table").get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            return game
        state = actions.state_of(game)
        if state.phase not in (OVER, SHOWDOWN) and state.turn == seat:
            return game
        job = pending(game).exclude(kind__in=[Job.Kind.TURN_TIMEOUT, Job.Kind.LAST_CALL]).first()
        assert job is not None, list(pending(game).values_list("kind", flat=True))
        actions.do_run_job(job)
    raise AssertionError("the person never came to move")


def test_pace_choices_and_words():
    assert list(PACE_SECONDS) == ["live", "1h", "4h", "12h", "1d", "2d", "3d", "7d"]
    assert pace_words("1d") == "1 day a move"
    assert pace_words("7d") == "7 days a move"
    assert pace_words("4h") == "4 hours a move"
    assert pace_words("live") == "live"


def test_the_variant_gives_the_pace_and_the_host_may_change_it(user):
    variant = preset_variant(pace="2d")
    table = actions.do_create_table(user, name="A", variant=variant, seats=3)
    assert table.pace == "2d" and table.is_post
    table = actions.do_create_table(user, name="B", variant=variant, seats=3, pace="live")
    assert table.pace == "live" and not table.is_post


@pytest.mark.parametrize("pace", ["2h", "forever", "LIVE", "1d; drop", 5])
def test_a_pace_outside_the_choices_is_refused(user, pace):
    with pytest.raises(actions.Refused) as exc:
        actions.do_create_table(user, name="A", variant=preset_variant(), seats=3, pace=pace)
    assert exc.value.code == "pace"
    assert not Table.objects.exists()


def test_the_table_form_offers_the_paces():
    variant = preset_variant()
    form = TableForm({"name": "x", "variant": variant.pk, "seats": 3, "pace": "12h"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["pace"] == "12h"
    bad = TableForm({"name": "x", "variant": variant.pk, "seats": 3, "pace": "1y"})
    assert not bad.is_valid() and "pace" in bad.errors


def test_a_post_turn_has_the_whole_time_and_a_last_call_at_80_percent(user):
    game = until_persons_turn(post_game(user, pace="1d"))
    timeout = pending(game, Job.Kind.TURN_TIMEOUT).get()
    last_call = pending(game, Job.Kind.LAST_CALL).get()
    began = timeout.due_at - timedelta(days=1)
    assert abs((began - timezone.now()).total_seconds()) < 5
    assert last_call.due_at == began + timedelta(days=1) * 0.8
    assert game.deadline == timeout.due_at
    assert Seat.objects.get(table=game.table, user=user).turn_since is not None


def test_each_move_gives_the_next_turn_its_whole_time(user):
    other = old_user("olga")
    table = actions.do_create_table(user, name="Two", variant=preset_variant(), seats=2,
                                    pace="4h")
    actions.do_join_table(table, other)
    game = table.current_game()
    for _ in range(3):
        game = Game.objects.select_related("table").get(pk=game.pk)
        state = actions.state_of(game)
        if state.phase != "play":
            break
        before = timezone.now()
        actions.do_play(game.pk, state.turn, actions.bot_choice(game, state, state.turn,
                                                                "greedy"), game.version)
        game.refresh_from_db()
        state = actions.state_of(game)
        if state.phase == "play":
            assert game.deadline - before >= timedelta(hours=4) - timedelta(seconds=5)


@override_settings(STOPBUS_SHOWDOWN_PAUSE=60)
def test_post_pace_deals_the_next_hand_at_once(user):
    game = post_game(user, bots=("greedy", "greedy"))
    for _ in range(300):
        game = Game.objects.select_related("table").get(pk=game.pk)
        if actions.state_of(game).phase == SHOWDOWN:
            job = pending(game).get()
            assert job.kind == Job.Kind.NEXT_HAND
            assert job.due_at <= timezone.now()
            return
        state = actions.state_of(game)
        actions.do_play(game.pk, state.turn, actions.bot_choice(game, state, state.turn,
                                                                "greedy"), game.version)
    raise AssertionError("no showdown")


def miss(game):
    """The person's deadline comes: run it (and what bots do until the next one)."""
    game = until_persons_turn(game)
    if game.status != Game.Status.PLAYING:
        return game, None
    job = pending(game, Job.Kind.TURN_TIMEOUT).get()
    return game, actions.do_run_job(job)


def test_a_missed_turn_plays_the_timeout_move_and_two_bring_the_bot(user):
    game = post_game(user)
    game, result = miss(game)
    assert result.startswith("missed turn 1")
    seat = Seat.objects.get(table=game.table, user=user)
    assert seat.timeouts == 1 and not seat.away and seat.missed_since is not None
    assert game.actions.filter(by="clock", seat=0).exists()
    game, result = miss(game)
    assert "a bot sits in" in result
    seat.refresh_from_db()
    assert seat.away
    # the bot plays the seat at the deadline, not at once, and no last call is due
    game = until_persons_turn(game)
    assert pending(game, Job.Kind.TURN_TIMEOUT).exists()
    assert not pending(game, Job.Kind.BOT_MOVE).exists()
    assert not pending(game, Job.Kind.LAST_CALL).exists()
    actions.do_run_job(pending(game, Job.Kind.TURN_TIMEOUT).get())
    assert game.actions.filter(by="bot", seat=0).exists()


def test_one_click_takes_the_seat_back(user, client):
    game = post_game(user)
    for _ in range(2):
        game, _result = miss(game)
    client.force_login(user)
    page = client.get(game.table.get_absolute_url()).content.decode()
    assert "Take my seat back" in page
    response = client.post(f"/t/{game.table_id}/back/")
    assert response.status_code == 302
    seat = Seat.objects.get(table=game.table, user=user)
    assert not seat.away and seat.timeouts == 0 and seat.missed_since is None


# three scaled days are a quarter of a millisecond: gone by the seventh deadline however
# fast the machine runs the jobs
@override_settings(STOPBUS_POST_TIME_SCALE=1e-9)
def test_after_seven_deadlines_and_three_days_the_player_has_left(user):
    game = post_game(user, variant=long_game(), pace="1h")
    results = []
    for _ in range(12):
        game, result = miss(game)
        if result is None:
            break
        results.append(result)
        if "left the game" in result:
            break
    assert "left the game" in results[-1]
    assert len(results) == 7  # three scaled days are long gone: seven deadlines decide
    player = GamePlayer.objects.get(game=game, user=user)
    assert player.left_early and player.place is not None
    assert not Seat.objects.filter(table=game.table, user=user).exists()
    # the game goes on without them
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.PLAYING and pending(game).exists()


def test_days_count_too_seven_deadlines_are_not_enough_alone(user):
    """With a day's scale, seven quick deadlines in a row are not three days: still seated."""
    game = post_game(user, variant=long_game(), pace="1h")
    for _ in range(8):
        game, result = miss(game)
    assert "left" not in result
    assert Seat.objects.filter(table=game.table, user=user).exists()


def test_brag_post_timeout_folds(user):
    game = post_game(user, variant=brag())
    game, result = miss(game)
    assert result.startswith("missed turn 1")
    action = game.actions.filter(by="clock", seat=0).get()
    assert action.payload["kind"] == "fold"


@override_settings(STOPBUS_ABANDON_AFTER=0.0)
def test_post_tables_are_never_abandoned(user):
    game = post_game(user)
    assert not Job.objects.filter(table=game.table, kind=Job.Kind.ABANDON_CHECK,
                                  done_at__isnull=True).exists()
    assert actions.do_check_abandoned(game.table_id) == "a post table waits for its players"
    waiting = actions.do_create_table(user, name="Waiting", variant=preset_variant(), seats=3,
                                      pace="1d")
    assert actions.do_check_abandoned(waiting.pk) == "a post table waits for its players"
    waiting.refresh_from_db()
    assert waiting.status == Table.Status.WAITING
    assert not Seat.objects.filter(table=game.table, away=True).exists()


def test_a_live_table_keeps_its_turn_clock(user):
    variant = preset_variant(turn_seconds=30)
    table = actions.do_create_table(user, name="Live", variant=variant, seats=2)
    actions.do_add_bot(table, user, "greedy")
    game = until_persons_turn(table.current_game())
    job = pending(game, Job.Kind.TURN_TIMEOUT).get()
    assert job.seat == 0 and job.version == game.version
    assert (job.due_at - timezone.now()).total_seconds() < 31
    assert not pending(game, Job.Kind.LAST_CALL).exists()


def test_the_pace_is_shown_in_the_lobby_apart_and_in_the_header(user, client):
    post = post_game(user)
    live = actions.do_create_table(user, name="Live one", variant=preset_variant(), seats=3)
    client.force_login(user)
    page = client.get("/").content.decode()
    # the first block lists the player's post tables; the table list comes after it
    assert page.index('id="turns-block"') < page.index('id="lobby-tables"')
    lobby = page.split('id="lobby-tables"')[1]
    assert "Post tables: play at your own pace" in lobby
    assert lobby.index("Live one") < lobby.index("Post tables: play at your own pace")
    assert lobby.index("By post") > lobby.index("Post tables: play at your own pace")
    assert "post: 1 day a move" in lobby
    page = client.get(post.table.get_absolute_url()).content.decode()
    assert "post: 1 day a move" in page
    assert live.pace == "live"


def test_a_post_turns_clock_reads_in_hours_not_seconds(user, client):
    game = until_persons_turn(post_game(user))
    client.force_login(user)
    page = client.get(game.table.get_absolute_url()).content.decode()
    clock = re.search(r'<span class="countdown countdown--post"[^>]*>([^<]*)</span>', page)
    assert clock and re.fullmatch(r"23 h 5\d min left", clock.group(1)), clock
    assert "countdown__seconds" not in page
    brag_game = until_persons_turn(post_game(old_user("brig"), variant=brag(), bots=("greedy",)))
    client.force_login(brag_game.players.get(seat=0).user)
    page = client.get(brag_game.table.get_absolute_url()).content.decode()
    assert "countdown--post" in page and "countdown__seconds" not in page


def test_every_variant_plays_by_post():
    from games.engine import PRESETS

    user = old_user("vera")
    for slug in PRESETS:
        game = post_game(user, variant=preset_variant(slug), pace="1h")
        game, result = miss(game)
        assert result is None or result.startswith("missed turn 1"), (slug, result)
    game = post_game(user, variant=brag(), pace="1h")
    game, result = miss(game)
    assert result.startswith("missed turn 1")


def test_move_time_scales():
    with override_settings(STOPBUS_POST_TIME_SCALE=0.001):
        assert move_time("1d") == timedelta(seconds=86.4)


@pytest.mark.postgres
def test_missed_turns_and_the_bot_on_postgresql(user):
    """The seat's row lock names its own table (PostgreSQL refuses FOR UPDATE on the
    nullable side of the join to the user otherwise)."""
    game = post_game(user)
    for _ in range(2):
        game, result = miss(game)
    assert "a bot sits in" in result
    assert Seat.objects.get(table=game.table, user=user).away
