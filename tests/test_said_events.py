"""The game log's sentences are said once per event, language and side (the seat an
event is private to, or everyone else) and kept (``games.board.SAID``): what every
viewer reads after every move must be exactly what saying each event afresh gives."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import actions, render
from games.board import SAID, said_events
from games.event_text import brag_event_text, event_text
from games.kinds import kind_for
from games.models import Game
from tests.factories import UserFactory
from tests.test_i18n_table import _moves, known_decks, variant_of  # noqa: F401

pytestmark = pytest.mark.django_db


def _started(slug: str, seats: int = 3):
    people = [UserFactory() for _ in range(seats)]
    table = actions.do_create_table(people[0], name="Said", variant=variant_of(slug),
                                    seats=seats)
    for person in people[1:]:
        actions.do_join_table(table, person)
    return Game.objects.get(table=table), people


def _afresh(data, me):
    """Each event said now, with nothing kept."""
    game = data.game
    if kind_for(game).slug == "brag":
        return [(seq, brag_event_text(e, data.state.names, me), e.kind)
                for seq, e in data.events]
    ranking = actions.state_of(game).rules.ranking
    return [(seq, event_text(e, data.state.names, me, ranking=ranking), e.kind)
            for seq, e in data.events]


def _kept(data, me):
    game = data.game
    if kind_for(game).slug == "brag":
        return said_events(data, me, brag_event_text)
    ranking = actions.state_of(game).rules.ranking
    return said_events(data, me, event_text, ranking=ranking)


@pytest.mark.parametrize(("slug", "has_private"), [
    ("classic", False), ("draw-and-discard", True), ("three-card-brag", None)])
def test_every_viewer_reads_each_event_as_if_said_afresh(slug, has_private):
    render.clear()
    game, people = _started(slug)
    seats = [None, *range(len(people))]  # a spectator and every seat
    checked = private = 0
    for moves, _ in enumerate(_moves(game)):
        if moves > 150:
            break
        data = render.table_data(game.table_id)
        for language in ("en", "ja"):
            with translation.override(language):
                for me in seats:
                    kept, afresh = _kept(data, me), _afresh(data, me)
                    assert kept == afresh
                    checked += len(kept)
                    private += sum(1 for (_, e) in data.events
                                   if me is not None and e.seat == me and e.private)
    assert checked > 1000
    if has_private:
        assert private > 0  # events private to a seat were read by that seat, too
    # each event was said once per language and side, not once per board
    assert len(SAID.items) < checked / 10


def test_one_event_reads_differently_for_its_own_seat_and_in_each_language():
    render.clear()
    game, people = _started("draw-and-discard")
    for now in _moves(game):
        data = render.table_data(now.table_id)
        drawn = [(seq, e) for seq, e in data.events if e.kind == "draw" and e.private]
        if drawn:
            break
    seq, event = drawn[-1]
    others = next(s for s in range(len(people)) if s != event.seat)
    with translation.override("en"):
        own = {s: t for s, t, _ in said_events(data, event.seat, event_text)}[seq]
        theirs = {s: t for s, t, _ in said_events(data, others, event_text)}[seq]
    with translation.override("ja"):
        japanese = {s: t for s, t, _ in said_events(data, others, event_text)}[seq]
    assert own != theirs  # the drawer reads which card; nobody else does
    assert japanese != theirs
    assert own == event_text(event, data.state.names, event.seat)
