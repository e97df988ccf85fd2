"""A post turn's time left in words carries what the page needs to word it again as time
passes (static/js/time-left.js): its deadline and the words' formats in the reader's
language, on the table's board (both kinds of game) and on the rows of /turns and the
lobby's first block; a live table's seconds carry no words."""

import html
import json
import re
from datetime import datetime

import pytest
from django.utils import timezone, translation

from games import actions
from games.pace import time_left_words
from games.templatetags.turns import time_left_formats
from tests.factories import preset_variant
from tests.test_post_pace import brag, post_game, until_persons_turn

pytestmark = pytest.mark.django_db

WORDED = re.compile(r'<span class="([^"]*)" data-deadline="([^"]+)" data-words="([^"]+)"'
                    r'[^>]*>([^<]*)</span>')

ENGLISH = {"less": "less than a minute left", "minutes": "%(minutes)d min left",
           "hours": "%(hours)d h %(minutes)d min left",
           "days": {"one": "%(days)d day %(hours)d h left",
                    "other": "%(days)d days %(hours)d h left"}}
JAPANESE = {"less": "残り1分未満", "minutes": "残り%(minutes)d分",
            "hours": "残り%(hours)d時間%(minutes)d分",
            "days": {"one": "残り%(days)d日%(hours)d時間",
                     "other": "残り%(days)d日%(hours)d時間"}}


def worded(page: str) -> list[tuple[str, datetime, dict, str]]:
    """Every element of the page that words a time left: (class, deadline, formats,
    words)."""
    return [(cls, datetime.fromisoformat(html.unescape(deadline)),
             json.loads(html.unescape(words)), html.unescape(text))
            for cls, deadline, words, text in WORDED.findall(page)]


def words_like_the_page(formats: dict, seconds: float) -> str:
    """What static/js/time-left.js does with the formats (English plural rules)."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return formats["less"]
    days, rest = divmod(seconds, 86400)
    hours, minutes = rest // 3600, rest % 3600 // 60
    if days:
        form = formats["days"]["one" if days == 1 else "other"]
        return form % {"days": days, "hours": hours}
    if hours:
        return formats["hours"] % {"hours": hours, "minutes": minutes}
    return formats["minutes"] % {"minutes": minutes}


@pytest.fixture(params=["en", "ja"])
def reader(request, user):
    user.language = request.param
    user.save(update_fields=["language"])
    return user


def expected_formats(user):
    return ENGLISH if user.language == "en" else JAPANESE


@pytest.mark.parametrize("kind", ["stb", "brag"])
def test_a_post_tables_board_carries_its_deadline_and_words(reader, client, kind):
    game = until_persons_turn(post_game(reader, variant=brag() if kind == "brag" else None))
    client.force_login(reader)
    page = client.get(game.table.get_absolute_url()).content.decode()
    [(cls, deadline, formats, text)] = worded(page)
    assert "countdown--post" in cls
    assert formats == expected_formats(reader)
    game.refresh_from_db()
    assert abs((deadline - game.deadline).total_seconds()) < 1
    with translation.override(reader.language):
        assert text == time_left_words((game.deadline - timezone.now()).total_seconds()) \
            or text == time_left_words((game.deadline - timezone.now()).total_seconds() + 1)


@pytest.mark.parametrize("where", ["/turns/", "/"])
def test_a_turn_row_carries_its_deadline_and_words(reader, client, where):
    game = until_persons_turn(post_game(reader, pace="2d"))
    client.force_login(reader)
    page = client.get(where).content.decode()
    block = page.split('id="turns-block"')[1]
    [(cls, deadline, formats, text)] = worded(block)
    assert cls == "turn-row__left"
    assert formats == expected_formats(reader)
    game.refresh_from_db()
    assert deadline == game.deadline.replace(microsecond=game.deadline.microsecond // 1000 * 1000)
    # the words the page starts with are the ones it would work out itself
    seconds = (deadline - timezone.now()).total_seconds()
    assert text in (words_like_the_page(formats, seconds),
                    words_like_the_page(formats, seconds + 1))


def test_a_live_tables_seconds_carry_no_words(user, client):
    table = actions.do_create_table(user, name="Live", variant=preset_variant(turn_seconds=30),
                                    seats=2)
    actions.do_add_bot(table, user, "greedy")
    game = until_persons_turn(table.current_game())
    client.force_login(user)
    page = client.get(game.table.get_absolute_url()).content.decode()
    assert 'class="countdown" data-deadline="' in page
    assert "data-words" not in page


def test_the_formats_word_every_time_as_the_server_does():
    for language in ("en", "ja"):
        with translation.override(language):
            formats = json.loads(time_left_formats())
            for seconds in (0, 59.9, 60, 61, 3599, 3600, 3661, 86399, 86400, 90061,
                            2 * 86400 + 4 * 3600 + 59, 7 * 86400):
                assert words_like_the_page(formats, seconds) == time_left_words(seconds), \
                    (language, seconds)


def test_the_formats_are_made_once_per_language():
    with translation.override("ja"):
        first = time_left_formats()
        assert time_left_formats() is first
    with translation.override("en"):
        assert time_left_formats() != first


@pytest.mark.parametrize("where", ["/turns/", "/"])
def test_a_time_left_is_not_read_out_again_each_minute(user, client, where):
    """The keyboard and screen-reader probe: the list of your post tables is a polite live
    region, and its times left change every minute, which read the row out again each
    time. A time left is aria-live="off"; the lobby's list of tables is no live region (a
    change re-read the whole list)."""
    until_persons_turn(post_game(user, pace="2d"))
    client.force_login(user)
    page = client.get(where).content.decode()
    spans = re.findall(r"<span [^>]*data-deadline=[^>]*>", page)
    assert spans and all('aria-live="off"' in span for span in spans), spans
    if where == "/":
        assert re.search(r'<div id="lobby-tables"(?![^>]*aria-live)[^>]*>', page)
