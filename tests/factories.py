"""Model factories shared by the tests."""

import factory

from accounts.models import User

# Every factory-made user can log in with this password, unless the test passes
# its own: UserFactory(password="...").
PASSWORD = "correct-horse-battery-9"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")

    @factory.post_generation
    def password(user, create, extracted, **kwargs):
        user.set_password(extracted or PASSWORD)
        if create:
            user.save(update_fields=["password"])


# -- finished games, for the stats tests ---------------------------------------------------------


def preset_variant(slug="classic", **overrides):
    """The Variant row of one of the engine's presets, with ``overrides`` saved on it."""
    from games.engine import PRESETS
    from games.models import Variant

    preset = PRESETS[slug]
    variant, _ = Variant.objects.get_or_create(
        slug=slug, defaults={"name": preset.name, "description": preset.description,
                             **preset.rules.to_dict()})
    if overrides:
        for name, value in overrides.items():
            setattr(variant, name, value)
        variant.save()
    return variant


def play_out_game(game, choose=None, by_seat=None):
    """Play ``game`` to its end through ``games.actions`` and return it, refreshed.

    ``choose(state, seat)`` picks each move (default: the bot's choice for the
    seat's level, greedy for people); ``by_seat(seat)`` says who played it
    (default: "bot" for bot seats, "player" for people).
    """
    from games import actions, engine
    from games.models import Game

    levels = {p.seat: p.bot_level or "greedy" for p in game.players.all()}
    humans = {p.seat for p in game.players.all() if p.user_id}
    for _ in range(20_000):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            return game
        state = actions.state_of(game)
        try:
            if state.phase == "showdown":
                actions.do_play(game.pk, None, engine.next_hand(), game.version, by="table")
                continue
            seat = state.turn
            move = (choose(state, seat) if choose
                    else actions.bot_choice(game, state, seat, levels[seat]))
            by = by_seat(seat) if by_seat else ("player" if seat in humans else "bot")
            actions.do_play(game.pk, seat, move, game.version, by=by)
        except actions.Refused as exc:
            # a running server's clock (a browser test's site) may play a bot's move or
            # deal first: play on from the game as it is now
            if exc.code not in ("stale", "game_over"):
                raise
    raise AssertionError("the game did not end")


def start_table_game(users, bots=(), variant=None, name="Test table"):
    """A table with ``users`` (the first hosts) and then ``bots`` (levels), started."""
    from games import actions
    from games.models import Table

    variant = variant or preset_variant()
    table = actions.do_create_table(users[0], name=name, variant=variant,
                                 seats=len(users) + len(bots))
    for level in bots:
        actions.do_add_bot(table, users[0], level)
    for user in users[1:]:
        actions.do_join_table(table, user)  # the last one to sit down starts the game
    table.refresh_from_db()
    if table.status == Table.Status.WAITING:
        actions.do_start_game(table, users[0])
    return table.games.order_by("-number").first()


def finished_game(users, bots=(), variant=None, choose=None, by_seat=None):
    """A game at a new table, played to its end by bots' choices."""
    game = start_table_game(users, bots, variant)
    return play_out_game(game, choose=choose, by_seat=by_seat)
