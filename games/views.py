"""Lobby, table pages and the table's HTTP actions (sitting down, bots, starting).

Moves in a game go over the table's websocket; everything here is a plain POST
that also works without JavaScript. Errors come back as a message: with htmx,
as an out-of-band notice; without, as a flash message and a redirect.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Case, Count, Prefetch, Q, Value, When
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.guests import GuestRefused, remember_kind, start_guest

from . import actions, ratelimit, turns
from .access import may_watch
from .board import board_for, load_table, recent_chat
from .bot_names import stand_in_name
from .engine import PRESETS, RulesError
from .engine.ranking import BRAG_CATEGORIES, COMMERCE_CATEGORIES
from .forms import BotForm, TableForm
from .hints import hints_on
from .kinds import DEFAULT_KIND, KINDS, UnknownKind, kind_for
from .models import Game, GamePlayer, Seat, Table, Variant
from .refusals import rules_problems_text
from .rules_text import fair_deal_recipe
from .turns import tables_waiting_for

LOBBY_LIMIT = 50


def lobby_tables(user):
    """Open tables: those waiting for players first, then the games being played that
    anyone may watch, newest activity first; and the user's own (private ones too) while
    they are waiting or playing. A finished table is open no more, the user's own
    included; a game whose table is closed to spectators is nobody else's to open."""
    live = Q(status=Table.Status.WAITING) | Q(status=Table.Status.PLAYING,
                                             allow_spectators=True)
    visible = Q(private=False) & live
    if getattr(user, "is_authenticated", False):
        # a subquery, not a join on the seats: a join filtered to the user's own seat
        # would leave the seat count below counting only that seat ("1/4" for three)
        mine = Seat.objects.filter(user=user).values("table_id")
        visible |= Q(pk__in=mine, status__in=[Table.Status.WAITING, Table.Status.PLAYING])
    waiting_first = Case(When(status=Table.Status.WAITING, then=Value(0)), default=Value(1))
    tables = list(Table.objects.filter(visible).select_related("variant", "host")
                  .annotate(taken=Count("seat_set"))
                  .prefetch_related(Prefetch("seat_set", to_attr="seated",
                                             queryset=Seat.objects.select_related("user")
                                             .order_by("position")))
                  .order_by(waiting_first, "-updated_at")[:LOBBY_LIMIT])
    name_seats(tables)
    return tables


def name_seats(tables) -> None:
    """Give each seat of the lobby's ``tables`` its ``lobby_name``, as the table's own page
    names it in the reader's language: a player's name, a bot's, and the bot that plays on
    for a player who left "Bot for bert" (not "Casual bot 2"). One query for the whole
    list: the leavers of the games being played."""
    playing = [t.pk for t in tables if t.status == Table.Status.PLAYING]
    left = {}
    if playing:
        left = {(table_id, seat): name for table_id, seat, name in GamePlayer.objects.filter(
            game__table_id__in=playing, game__status=Game.Status.PLAYING, left_early=True)
            .values_list("game__table_id", "seat", "name")}
    for table in tables:
        # while a game runs its seat rows stay put: the i-th by position is engine seat i
        for i, seat in enumerate(table.seated):
            leaver = left.get((table.pk, i)) if seat.is_bot else None
            seat.lobby_name = stand_in_name(leaver) if leaver else seat.display_name


def last_kind(request) -> str:
    """The game kind *Play now* dealt this visitor last (their account's, else their
    session's), or the default kind."""
    chosen = getattr(request.user, "last_kind", "") or request.session.get("last_kind", "")
    return chosen if chosen in KINDS else DEFAULT_KIND


def play_now_kinds(request) -> list[dict]:
    """The kinds *Play now* offers, the one chosen last first."""
    chosen = last_kind(request)
    kinds = [{"slug": kind.slug, "label": _(kind.label), "last": kind.slug == chosen}
             for kind in KINDS.values()]
    return sorted(kinds, key=lambda k: not k["last"])


def check_opening_rate(user) -> None:
    """Refuse a table opened past ``STOPBUS_TABLES_PER_HOUR`` in the hour (each one opened
    and left is a row kept and a change told to every lobby)."""
    limit = getattr(settings, "STOPBUS_TABLES_PER_HOUR", 30)
    if limit and not ratelimit.allow(f"open:{user.pk}", limit, 3600):
        raise actions.Refused("rate", _("You have opened %(count)d tables this hour; wait a "
                                        "while before opening another.") % {"count": limit})


@require_safe
def lobby(request):
    form = TableForm()
    return render(request, "games/lobby.html", {
        "tables": lobby_tables(request.user),
        "form": form,
        "variants": Variant.objects.active(),
        "turn_rows": tables_waiting_for(request.user),
        "play_kinds": play_now_kinds(request),
        "how_to_play_seen": getattr(request.user, "how_to_play_seen", False),
        # the first lobby after an account is made (accounts.views) says welcome, not
        # "welcome back"
        "new_account": request.session.pop("new_account", False),
    })


@login_required
def turns_page(request):
    """Every post table of the player: theirs to move first, most urgent first."""
    return render(request, "games/turns.html", {"turn_rows": tables_waiting_for(request.user)})


@login_required
def next_table(request):
    """After a move at a post table: on to the next table where it is the player's turn
    (never the table the player is leaving, ``?from=``)."""
    leaving = request.GET.get("from", "")
    # ASCII digits only, and no more than a table's id can have: "²" is a digit to
    # isdigit() but not to int(), and int() refuses 4,300 digits and more (both were 500s)
    readable = leaving.isascii() and leaving.isdigit() and len(leaving) < 19
    from_id = int(leaving) if readable else None
    table = turns.next_table(request.user, from_id)
    if table is None:
        messages.info(request, _("No other table is waiting for your move."))
        return redirect("games:turns")
    return redirect(table)


@login_required
@require_POST
def create_table(request):
    form = TableForm(request.POST)
    if not form.is_valid():
        return render(request, "games/lobby.html", {
            "tables": lobby_tables(request.user), "form": form,
            "variants": Variant.objects.active(), "form_open": True,
            "play_kinds": play_now_kinds(request), "how_to_play_seen": True}, status=400)
    try:
        check_opening_rate(request.user)
        table = actions.do_create_table(request.user, **form.cleaned_data)
    except actions.Refused as exc:
        form.add_error(None, exc.message)
        return render(request, "games/lobby.html", {
            "tables": lobby_tables(request.user), "form": form,
            "variants": Variant.objects.active(), "form_open": True,
            "play_kinds": play_now_kinds(request), "how_to_play_seen": True}, status=400)
    if table.private:
        request.session["invites"] = [*request.session.get("invites", []), table.invite_code]
    messages.success(request, _("Your table “%(table)s” is open. Invite people or add bots.")
                     % {"table": table.name})
    return redirect(table)


# "Play now against bots": the quickest way to a game, with what most people play.
QUICK_SEATS = 3
QUICK_BOT = "greedy"
# A practice table: beginner bots, no clock, hints on.
PRACTICE_BOT = "random"


def quick_variant(kind) -> Variant | None:
    """The variant *Play now* deals for ``kind``: its first preset's, else its first."""
    offered = Variant.objects.active().filter(game=kind.slug)
    return (offered.filter(slug=next(iter(kind.presets))).first()
            or offered.order_by("display_order", "pk").first())


@require_POST
def play_now(request):
    """A table of one's own with bots in the other seats: full, so the game starts.

    ``kind``: which game (default: the one chosen last); ``practice=1``: a practice
    table (beginner bots, no clock, hints). A visitor without an account plays as a
    guest (``accounts.guests``)."""
    slug = request.POST.get("kind") or last_kind(request)
    kind = KINDS.get(slug)
    if kind is None:
        messages.error(request, _("Choose a game to play: %(games)s.") % {
            "games": ", ".join(_(k.label) for k in KINDS.values())})
        return redirect("games:lobby")
    practice = request.POST.get("practice") == "1"
    variant = quick_variant(kind)
    if variant is None:
        messages.error(request, _("No variant is offered right now."))
        return redirect("games:lobby")
    try:
        user = start_guest(request)
    except GuestRefused as exc:
        messages.error(request, exc.message)
        return redirect("games:lobby")
    remember_kind(request, user, kind.slug)
    rules = variant.rules
    seats = min(max(QUICK_SEATS, rules.min_players), rules.max_players)
    try:
        check_opening_rate(user)
        # named by the site: shown in each reader's language (Table.name)
        table = actions.do_create_table(user, name="",
                                        auto_name="practice" if practice else "v_bots",
                                        variant=variant, seats=seats, practice=practice)
        for _seat in range(seats - 1):
            actions.do_add_bot(table, user, PRACTICE_BOT if practice else QUICK_BOT)
    except actions.Refused as exc:
        messages.error(request, exc.message)
        return redirect("games:lobby")
    return redirect(table)


def _check_access(request, table_id: int):
    allowed = may_watch(table_id, request.user, request.session.get("invites", []))
    if allowed is None:
        raise Http404(_("No such table."))
    return allowed


@require_safe
def table_page(request, table_id: int):
    allowed = _check_access(request, table_id)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    if not allowed:
        return render(request, "games/private_table.html", status=403)
    data = load_table(table_id)
    context = board_for(data, request.user)
    context["chat"] = recent_chat(data.table)
    context["invite_url"] = request.build_absolute_uri(
        reverse("games:invite", args=[data.table.invite_code]))
    context["bot_form"] = BotForm()
    context["post_bar"] = turns.post_bar(data.table, request.user)
    context["hints_enabled"] = hints_on(data.table, request.user)
    context["guest_kept_from_chat"] = actions.guest_kept_out(request.user)
    return render(request, "games/table.html", context)


@require_safe
def invite(request, code: str):
    table = get_object_or_404(Table, invite_code=code)
    invites = request.session.get("invites", [])
    if code not in invites:
        request.session["invites"] = [*invites, code]
    return redirect(table)


def _done(request, table: Table, message: str | None = None):
    if request.htmx:
        response = HttpResponse(status=204)
        return response
    if message:
        messages.success(request, message)
    return redirect(table)


def _refused(request, table: Table, exc: actions.Refused):
    if request.htmx:
        html = render_to_string("games/_notice.html", {"message": exc.message,
                                                       "level": "error"})
        return HttpResponse(html, status=200)
    messages.error(request, exc.message)
    return redirect(table)


def _table_action(view):
    """POST-only, signed-in, and a Refused becomes a message instead of an error page."""
    @login_required
    @require_POST
    def wrapped(request, table_id: int, *args, **kwargs):
        table = get_object_or_404(Table, pk=table_id)
        if not _check_access(request, table_id):
            return render(request, "games/private_table.html", status=403)
        try:
            if not ratelimit.allow(f"http:{request.user.pk}", 60, 60):
                raise actions.Refused("rate", _("Too many requests; wait a moment."))
            return view(request, table, *args, **kwargs)
        except actions.Refused as exc:
            return _refused(request, table, exc)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


@_table_action
def join(request, table):
    actions.do_join_table(table, request.user)
    return _done(request, table, _("You sat down."))


@_table_action
def leave(request, table):
    actions.do_leave_table(table, request.user)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("games:lobby")
        return response
    messages.info(request, _("You left “%(table)s”.") % {"table": table.name})
    return redirect("games:lobby")


@_table_action
def add_bot(request, table):
    form = BotForm(request.POST)
    if not form.is_valid():
        raise actions.Refused("bot_level", _("Choose a bot level."))
    actions.do_add_bot(table, request.user, form.cleaned_data["level"])
    return _done(request, table)


@_table_action
def remove_bot(request, table, position: int):
    actions.do_remove_bot(table, request.user, position)
    return _done(request, table)


@_table_action
def spectators(request, table):
    allow = request.POST.get("allow") == "on"
    actions.do_set_spectators(table, request.user, allow)
    return _done(request, table, _("Spectators may watch.") if allow
                 else _("Only the players can see this table now."))


INVITES_PER_HOUR = 30


@_table_action
def invite_player(request, table):
    """The host invites a registered player by name (``actions.do_invite``)."""
    if not ratelimit.allow(f"invite:{request.user.pk}", INVITES_PER_HOUR, 3600):
        raise actions.Refused("rate", _("You have sent many invitations this hour; wait a "
                                        "while before the next."))
    invitation = actions.do_invite(table, request.user, request.POST.get("player", "")[:150])
    message = _("%(name)s is invited: they are told, with the table's link.") % {
        "name": invitation.user.username}
    if request.htmx:
        response = HttpResponse(render_to_string("games/_notice.html", {
            "message": message, "level": "success"}))
        response["HX-Trigger"] = "stopbus:invited"  # the page empties the form
        return response
    messages.success(request, message)
    return redirect(table)


@_table_action
def withdraw_invite(request, table, user_id: int):
    """The host takes back an invitation (``actions.tables.do_withdraw_invite``)."""
    actions.do_withdraw_invite(table, request.user, user_id)
    return _done(request, table, _("The invitation is withdrawn."))


@_table_action
def start(request, table):
    actions.do_start_game(table, request.user)
    return _done(request, table)


@_table_action
def play_again(request, table):
    actions.do_play_again(table, request.user)
    return _done(request, table)


def variant_rules(variant: Variant) -> dict:
    """What the rules page shows of one variant: its kind, template and rules in words.

    A variant saved before a check it now fails is listed with what is wrong instead
    of breaking the page.
    """
    kind = kind_for(variant)
    try:
        summary, problem = variant.rules.summary(), ""
    except RulesError as exc:
        summary, problem = [], _("These rules cannot be played until an admin fixes them: "
                                 "%(problems)s") % {"problems": rules_problems_text(exc)}
    return {"variant": variant, "kind": kind, "template": kind.rules_template,
            "summary": summary, "problem": problem}


@require_safe
def rules_page(request):
    variants = list(Variant.objects.active())
    entries = []
    for variant in variants:
        try:
            entries.append(variant_rules(variant))
        except UnknownKind:
            continue  # a game this code does not know: nothing true can be said of it
    games = [{"kind": kind, "variants": [e for e in entries if e["kind"] is kind]}
             for kind in KINDS.values()]
    return render(request, "games/rules.html", {
        "variants": variants,
        "games": [game for game in games if game["variants"]],
        "presets": PRESETS,
        "brag_categories": BRAG_CATEGORIES,
        "commerce_categories": COMMERCE_CATEGORIES,
        "fair_deal_recipe": fair_deal_recipe(),
    })


@_table_action
def skip_table(request, table):
    actions.do_skip_table(request.user, table)
    messages.info(request, _("“%(table)s” waits behind your other tables for 12 hours.")
                  % {"table": table.name})
    following = turns.next_table(request.user, table.pk)
    to = following.get_absolute_url() if following is not None else reverse("games:turns")
    if request.htmx:  # the bar's form, as the table's socket sends it (games/_post_bar_next.html)
        response = HttpResponse(status=204)
        response["HX-Redirect"] = to
        return response
    return redirect(to)


@_table_action
def take_seat_back(request, table):
    game = table.current_game()
    if game is None:
        raise actions.Refused("no_game", _("No game is running at this table."))
    actions.do_take_seat_back(game, request.user)
    return _done(request, table, _("You play your own seat again."))
