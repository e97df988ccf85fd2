"""The stats pages. Each reads a fixed number of rows through indexes.

Nothing here counts games or replays more than one game: the counting is done
once, when a game ends (:mod:`stats.recording`), so a page costs the same for a
player with one game as for one with ten thousand. The rating chart shows the
last :data:`CHART_GAMES` rated games; lists are paginated.
"""

from __future__ import annotations

from types import SimpleNamespace

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Exists, F, OuterRef, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from games.access import may_watch
from games.bot_names import shown_name
from games.engine.ranking import BRAG_CATEGORIES, COMMERCE_CATEGORIES
from games.event_text import category_label, place_label
from games.kinds import BRAG, kind_for
from games.models import Action, Game, GamePlayer, Variant, shown_table_name
from games.rules_text import translate_stored

from .brag_replay import brag_replay
from .charts import bar_chart, describe_counts, line_chart
from .models import BragResult, BragStats, PlayerGame, PlayerStats
from .rating import BOT_MU, DISPLAY_BASE
from .replay import replay

User = get_user_model()

RECENT_GAMES = 10
HISTORY_PAGE = 20
CHART_GAMES = 200
LEADERBOARD_MIN_GAMES = 5
LEADERBOARD_PAGE = 50
H2H_RECENT = 20

# Best first; Brag and Commerce share "flush" and "pair".
CATEGORY_KEYS = list(dict(BRAG_CATEGORIES + COMMERCE_CATEGORIES).items())


def _variants() -> list[Variant]:
    return list(Variant.objects.order_by("display_order", "name").only("pk", "name", "slug"))


def _selected_variant(request, variants: list[Variant]) -> Variant | None:
    slug = request.GET.get("variant") or ""
    if not slug:
        return None
    for variant in variants:
        if variant.slug == slug:
            return variant
    raise Http404(_("No such variant."))


def _result_rows(queryset, variants: list[Variant], limit: int | None = None) -> list[dict]:
    """Results as plain rows (game, place, rating change, everyone at the table).

    Two queries, and dicts rather than model instances: a list page renders a few
    hundred of these values, and building models for them was most of its cost.
    """
    names = {v.pk: v.name for v in variants}
    rows = list(queryset.values(
        "game_id", "finished_at", "place", "players", "left_early", "rated", "rating_before",
        "rating_after", "variant_id", table=F("game__table__name"),
        table_auto_name=F("game__table__auto_name"), pace=F("game__table__pace"))[:limit])
    seats: dict[int, list[dict]] = {row["game_id"]: [] for row in rows}
    players = (GamePlayer.objects.filter(game_id__in=list(seats)).order_by("game_id", "seat")
               .values_list("game_id", "name", "user__username", "place", "user_id",
                            "bot_level"))
    for game_id, name, username, place, user_id, bot_level in players:
        # a bot in the reader's language (the game recorded its name in one language)
        shown = username or shown_name(SimpleNamespace(name=name, user_id=user_id,
                                                       bot_level=bot_level))
        seats[game_id].append({"name": shown, "username": username, "place": place})
    for row in rows:
        # a name the site gave the table, in the reader's language
        row["table"] = str(shown_table_name(row["table"], row.pop("table_auto_name")))
        row["variant"] = names.get(row["variant_id"], "")
        row["seats"] = seats[row["game_id"]]
        before, after = row["rating_before"], row["rating_after"]
        row["rating_change"] = None if before is None or after is None else after - before
    return rows


def _seen_by(request, rows):
    """Only the results a viewer may know of: a private table's games are listed for
    the people who played at that table and those who hold its invite, as its replays
    are (``games.access.may_watch``); public tables' games for everyone."""
    seen = Q(game__table__private=False)
    invites = [code for code in request.session.get("invites", []) if isinstance(code, str)]
    if invites:
        seen |= Q(game__table__invite_code__in=invites)
    if request.user.is_authenticated:
        seen |= Q(Exists(GamePlayer.objects.filter(game__table=OuterRef("game__table"),
                                                   user=request.user)))
    return rows.filter(seen)


def _page_number(request) -> str:
    return request.GET.get("page") or "1"


# -- a player's page -----------------------------------------------------------------------------


@require_safe
def profile(request, username):
    player = get_object_or_404(User, username=username)
    return _profile(request, player)


@login_required
def mine(request):
    return _profile(request, request.user, mine=True)


def _profile(request, player, mine=False):
    variants = _variants()
    variant = _selected_variant(request, variants)
    rows = {r.variant_id: r for r in PlayerStats.objects.filter(user=player)}
    stats = rows.get(variant.pk if variant else None)
    played = [v for v in variants if v.pk in rows]

    history = PlayerGame.objects.filter(user=player, rated=True)
    if variant is not None:
        history = history.filter(variant=variant)
    rating_field = "variant_rating_after" if variant else "rating_after"
    points = list(history.order_by("-finished_at", "-id")
                  .values_list("finished_at", rating_field)[:CHART_GAMES])[::-1]

    recent = _seen_by(request, PlayerGame.objects.filter(user=player))
    if variant is not None:
        recent = recent.filter(variant=variant)
    recent = _result_rows(recent, variants, limit=RECENT_GAMES)

    scope = translate_stored(variant.name) if variant else _("all variants")
    # Brag is another game: its own numbers and its own ladder, beside these
    brag = BragStats.objects.filter(user=player, variant__isnull=True, games__gt=0).first()
    context = {
        "player": player,
        "mine": mine,
        "variants": played,
        "variant": variant,
        "scope": scope,
        "stats": stats,
        "recent": recent,
        "rating_chart": _rating_chart(player, scope, points),
        "places_chart": _places_chart(player, scope, stats),
        "categories_chart": _categories_chart(player, scope, stats),
        "chart_games": CHART_GAMES,
        "min_games": LEADERBOARD_MIN_GAMES,
        "bot_mu": BOT_MU,
        "rating_base": int(DISPLAY_BASE),
        "brag": brag,
        "brag_recent": _result_rows(_seen_by(request, BragResult.objects.filter(user=player)),
                                    variants, limit=RECENT_GAMES) if brag else [],
    }
    return render(request, "stats/profile.html", context)


def _rating_chart(player, scope, points):
    values = [rating for _, rating in points if rating is not None]
    if values:
        description = ngettext(
            "%(count)d rated game, from %(first).0f to %(last).0f; lowest %(low).0f, "
            "highest %(high).0f.",
            "%(count)d rated games, from %(first).0f to %(last).0f; lowest %(low).0f, "
            "highest %(high).0f.", len(values)) % {
            "count": len(values), "first": values[0], "last": values[-1],
            "low": min(values), "high": max(values)}
    else:
        description = _("No rated games yet.")
    return line_chart(
        "rating-chart", values,
        title=_("Rating of %(name)s over time, %(scope)s") % {"name": player.username,
                                                              "scope": scope},
        description=description,
        first_label=date_format(points[0][0], "DATE_FORMAT") if points else "",
        last_label=date_format(points[-1][0], "DATE_FORMAT") if points else "")


def _places_chart(player, scope, stats):
    counts = stats.place_counts if stats else {}
    bars = [(place_label(int(place)), n) for place, n in sorted(counts.items(),
                                                                   key=lambda kv: int(kv[0]))]
    return bar_chart("places-chart", bars,
                     title=_("Finishing places of %(name)s, %(scope)s") % {
                         "name": player.username, "scope": scope},
                     description=describe_counts(bars, "game"))


def _categories_chart(player, scope, stats):
    counts = stats.categories if stats else {}
    bars = [(category_label(key), counts[key]) for key, _label in CATEGORY_KEYS
            if counts.get(key)]
    return bar_chart("categories-chart", bars,
                     title=_("Showdown hands of %(name)s by kind, %(scope)s") % {
                         "name": player.username, "scope": scope},
                     description=describe_counts(bars, "hand"))


# -- lists ---------------------------------------------------------------------------------------


def _brag_only(request) -> bool:
    """``?game=brag``: the Brag ladder and Brag history, kept apart from Stop the Bus."""
    return request.GET.get("game") == BRAG.slug


@require_safe
def leaderboard(request):
    variants = _variants()
    if _brag_only(request):
        rows = (BragStats.objects.filter(rated_games__gte=LEADERBOARD_MIN_GAMES,
                                         variant__isnull=True, user__is_guest=False)
                .select_related("user").order_by("-rating", "user_id"))
        page = Paginator(rows, LEADERBOARD_PAGE).get_page(_page_number(request))
        return render(request, "stats/leaderboard_brag.html", {
            "page": page, "min_games": LEADERBOARD_MIN_GAMES})
    variant = _selected_variant(request, variants)
    # guests play unrated; they are left out by name too, should a row ever say otherwise
    rows = PlayerStats.objects.filter(rated_games__gte=LEADERBOARD_MIN_GAMES,
                                      user__is_guest=False)
    rows = rows.filter(variant=variant) if variant else rows.filter(variant__isnull=True)
    rows = rows.select_related("user").only(
        "user__username", "rating", "rated_games", "games", "wins", "place_total",
        "variant_id").order_by("-rating", "user_id")
    page = Paginator(rows, LEADERBOARD_PAGE).get_page(_page_number(request))
    return render(request, "stats/leaderboard.html", {
        "variants": variants, "variant": variant, "page": page,
        "min_games": LEADERBOARD_MIN_GAMES, "rating_base": int(DISPLAY_BASE),
        "bot_mu": BOT_MU,
    })


@require_safe
def history(request, username):
    player = get_object_or_404(User, username=username)
    variants = _variants()
    brag = _brag_only(request)
    variant = None if brag else _selected_variant(request, variants)
    model = BragResult if brag else PlayerGame  # the same columns: one list serves both
    rows = _seen_by(request, model.objects.filter(user=player))
    if variant is not None:
        rows = rows.filter(variant=variant)
    # Page through ids alone (an index-only scan, however deep the page), then load
    # the page's rows.
    page = Paginator(rows.values_list("id", flat=True), HISTORY_PAGE).get_page(
        _page_number(request))
    results = _result_rows(model.objects.filter(id__in=list(page)), variants)
    return render(request, "stats/history.html", {
        "player": player, "variants": variants, "variant": variant, "page": page,
        "results": results, "brag": brag,
    })


@require_safe
def head_to_head(request, a, b):
    if a == b:
        raise Http404(_("Pick two different players."))
    users = {u.username: u for u in User.objects.filter(username__in=[a, b])}
    if a not in users or b not in users:
        raise Http404(_("No such player."))
    one, other = users[a], users[b]
    # the games they played together that this viewer may know of: a private table's
    # are counted only for its players and those holding its invite (``_seen_by``)
    shared = _seen_by(request, PlayerGame.objects.filter(user=one, game__results__user=other))
    their_place = F("game__results__place")
    by_variant = list(
        shared.values("variant__name", "variant__slug")
        .annotate(games=Count("id"),
                  ahead=Count("id", filter=Q(place__lt=their_place)),
                  behind=Count("id", filter=Q(place__gt=their_place)),
                  level=Count("id", filter=Q(place=their_place)),
                  wins=Count("id", filter=Q(place=1)),
                  their_wins=Count("id", filter=Q(**{"game__results__place": 1})))
        .order_by("-games", "variant__name"))
    totals = {key: sum(row[key] for row in by_variant)
              for key in ("games", "ahead", "behind", "level", "wins", "their_wins")}
    recent = list(shared.annotate(their_place=their_place)
                  .select_related("variant").only(
                      "game", "finished_at", "place", "players", "variant__name")
                  [:H2H_RECENT])
    return render(request, "stats/head_to_head.html", {
        "one": one, "other": other, "by_variant": by_variant, "totals": totals,
        "recent": recent,
    })


# -- replays -------------------------------------------------------------------------------------


@require_safe
def game_replay(request, game_id):
    game = get_object_or_404(Game.objects.select_related("table", "variant"), pk=game_id)
    if game.status != Game.Status.FINISHED:
        # a game in play has secrets (hands, the stock, the seed): no replay until it ends
        raise Http404(_("Replays open when the game is over."))
    if game.table.private and not (
            request.user.is_authenticated
            and GamePlayer.objects.filter(game=game, user=request.user).exists()) and not (
            may_watch(game.table_id, request.user, request.session.get("invites", []))):
        # a private table's games are for its players and the people they invited
        raise Http404(_("This game was played at a private table."))
    try:
        step = int(request.GET.get("step", 0))
    except ValueError:
        step = 0
    players = list(GamePlayer.objects.filter(game=game).select_related("user").order_by("seat"))
    actions = list(Action.objects.filter(game=game).order_by("seq")
                   .only("seq", "seat", "payload", "events", "by"))
    if kind_for(game) is BRAG:  # each kind replays through its own engine
        view = brag_replay(game, players, actions, step)
        template = "stats/replay_brag.html"
    else:
        view = replay(game, players, actions, step)
        template = "stats/replay.html"
    return render(request, template, {
        "game": game, "replay": view,
        "hands": sorted(view.hand_starts.items()),
        "prev_step": view.step - 1 if view.step > 0 else None,
        "next_step": view.step + 1 if view.step < view.last_step else None,
    })
