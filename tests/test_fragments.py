"""A page that applies the regions it is sent to its last full board always shows
exactly the full board of the new version -- for every seat and a spectator, over
random bot games -- and a move sends only the regions it changed."""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import actions, render
from games.board import board_for
from games.kinds import kind_for
from games.models import Game, Variant
from games.regions import FULL, PART, apply, frame_ids, newest_in
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _table(slug: str, seats: int):
    variant = Variant.objects.get(slug=slug)
    people = [UserFactory() for _ in range(seats)]
    table = actions.do_create_table(people[0], name="F", variant=variant, seats=seats)
    for person in people[1:]:
        actions.do_join_table(table, person)  # the last one starts the game
    return table, people, UserFactory()


def _step(game_id: int, rng: random.Random) -> bool:
    """One change, as the clock or a player would make it (a bot of the game's kind, at a
    random level, plays whoever is to play). False once the game is over."""
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.PLAYING:
        return False
    kind = kind_for(game)
    state = actions.state_of(game)
    if state.phase == "showdown":  # someone is ready for the next hand, or the clock deals
        if rng.random() < 0.3:
            ready = [p.seat for p in game.players.all()]
            actions.do_ready(game.pk, rng.choice(ready))
        else:
            actions.do_play(game.pk, None, kind.next_hand(), game.version, by="table")
        return True
    bot = kind.make_bot(rng.choice(list(kind.bot_levels)), state.rules, rng)
    move = kind.to_action(bot.choose(kind.seat_view(state, state.turn)))
    actions.do_play(game.pk, state.turn, move, game.version)
    return True


def _rendered_whole(data, viewer) -> str:
    """``viewer``'s board of ``data`` rendered whole, every region (kept ones too) anew."""
    with translation.override(render.view_key(data, viewer)[0] or None):
        context = board_for(data, viewer)
        return render._as_sent(render_to_string(context["board_template"], context))


@pytest.mark.parametrize("slug", ["classic", "three-card-brag"])
def test_kept_regions_follow_the_seats_the_watchers_and_the_game(slug):
    """The regions kept between moves (``{% fragment NAME kept %}``: the seats before the
    game, the leave button, who watches, the invitation) are rendered again when what
    they show changes: each board equals the same board rendered whole, after moves, a
    spectator arriving and leaving, a player leaving (a bot takes the seat) and the
    game's end."""
    table, people, watcher = _table(slug, 3)
    table.private = True
    table.save(update_fields=["private", "updated_at"])
    viewers = [*people, watcher]
    game_id = table.current_game().pk
    rng = random.Random(7)

    def check(stamp):
        data = render.table_data(table.pk, stamp)
        for viewer in viewers:
            assert render.board(data, viewer).html == _rendered_whole(data, viewer), stamp
        return data

    first = check("start")
    assert "leave-confirm" in render.board(first, people[1]).html
    _step(game_id, rng)
    check("move")
    actions.do_arrive(table.pk, watcher, "watcher-page")
    watched = check("watcher came")
    assert watcher.username in render.board(watched, people[0]).html
    actions.do_depart(table.pk, "watcher-page")
    check("watcher went")
    actions.do_leave_table(table, people[1])
    left = check("a player left")
    assert "leave-confirm" not in render.board(left, people[1]).html
    actions.do_set_spectators(table, people[0], False)
    check("closed to spectators")
    for change in range(5000):  # to the game's end, looked at every few changes
        if not _step(game_id, rng):
            break
        if change % 7 == 0:
            check(f"change {change}")
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    check("over")


class _TopLevel(HTMLParser):
    """The elements at the top of a board, as htmx's websocket extension swaps them."""

    VOID = {"br", "img", "input", "hr", "meta", "link"}

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.top = []

    def handle_starttag(self, tag, attrs):
        if self.depth == 0:
            self.top.append((tag, dict(attrs).get("id")))
        if tag not in self.VOID:
            self.depth += 1

    def handle_endtag(self, tag):
        self.depth -= 1


@pytest.mark.parametrize("slug", ["classic", "three-card-brag"])
def test_every_element_at_the_top_of_a_board_has_an_id_to_be_swapped_by(slug):
    """A whole board is sent as its top-level elements, each swapped in by its id (an
    element without one is an htmx "oobErrorNoTarget" and stays stale on the page)."""
    table, people, watcher = _table(slug, 3)
    data = render.table_data(table.pk)
    for viewer in [*people, watcher]:
        parser = _TopLevel()
        parser.feed(render.board(data, viewer).html)
        assert parser.top and all(element_id for _, element_id in parser.top), parser.top


def test_a_client_swaps_each_element_by_id_wherever_it_is():
    from games.regions import elements

    page = ('<div id="a"><div id="b"><span>x</span><input type="radio"></div>'
            '<svg><use href="#i"/></svg></div><ol id="log-list"><li id="r1">1</li></ol>'
            '<section id="c"><p>c</p></section>')
    assert elements(page) == ['<div id="a"><div id="b"><span>x</span><input type="radio">'
                              '</div><svg><use href="#i"/></svg></div>',
                              '<ol id="log-list"><li id="r1">1</li></ol>',
                              '<section id="c"><p>c</p></section>']
    # a region inside a region, a region after it; a notice leaves the page as it was
    message = PART + '<div id="b"><em>y</em></div><section id="c"><p>d</p></section>'
    after = apply(page, message)
    assert after == page.replace("<span>x</span><input type=\"radio\">", "<em>y</em>").replace(
        "<p>c</p>", "<p>d</p>")
    assert apply(after, '<div id="notice">hi</div>') == after
    assert apply(after, FULL + "<p>new</p>") == "<p>new</p>"
    # new rows on top of a list, an old row dropped
    log = '<div id="log"><ol class="l">\n<li id="r2">2</li><li id="r1">1</li>\n</ol></div>'
    rows = (PART + '<ol class="l" hx-swap-oob="afterbegin:#log ol"><li id="r3">3</li></ol>'
            '<li id="r1" hx-swap-oob="delete"></li>')
    assert apply(log, rows) == ('<div id="log"><ol class="l">\n<li id="r3">3</li>'
                                '<li id="r2">2</li>\n</ol></div>')
    assert newest_in(rows) == {"log": '<li id="r3">3</li>'} and frame_ids(rows) == []
    with pytest.raises(ValueError):
        apply(page, PART + '<div id="nowhere"></div>')
