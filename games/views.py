"""Lobby, table pages and the table's HTTP actions (sitting down, bots, starting).

Moves in a game go over the table's websocket; everything here is a plain POST
that also works without JavaScript. Errors come back as a message: with htmx,
as an out-of-band notice; without, as a flash message and a redirect.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import actions, ratelimit
from .access import may_watch
from .board import board_for, load_table, recent_chat
from .engine import PRESETS, RulesError
from .engine.ranking import BRAG_CATEGORIES, COMMERCE_CATEGORIES
from .forms import BotForm, TableForm
from .kinds import KINDS, UnknownKind, kind_for
from .models import Seat, Table, Variant
from .refusals import rules_problems_text
from .rules_text import fair_deal_recipe

LOBBY_LIMIT = 50


def lobby_tables(user):
    """Open public tables, and every table the user sits at, newest activity first."""
    visible = Q(private=False, status__in=[Table.Status.WAITING, Table.Status.PLAYING])
    if getattr(user, "is_authenticated", False):
        # a subquery, not a join on the seats: a join filtered to the user's own seat
        # would leave the seat count below counting only that seat ("1/4" for three)
        mine = Seat.objects.filter(user=user).values("table_id")
        visible |= Q(pk__in=mine) & ~Q(status=Table.Status.CLOSED)
    return (Table.objects.filter(visible).select_related("variant", "host")
            .annotate(taken=Count("seat_set"))
            .prefetch_related(Prefetch("seat_set", to_attr="seated",
                                       queryset=Seat.objects.select_related("user")))
            .order_by("status", "-updated_at")[:LOBBY_LIMIT])


def lobby(request):
    form = TableForm()
    return render(request, "games/lobby.html", {
        "tables": lobby_tables(request.user),
        "form": form,
        "variants": Variant.objects.active(),
    })


@login_required
@require_POST
def create_table(request):
    form = TableForm(request.POST)
    if not form.is_valid():
        return render(request, "games/lobby.html", {
            "tables": lobby_tables(request.user), "form": form,
            "variants": Variant.objects.active(), "form_open": True}, status=400)
    try:
        table = actions.do_create_table(request.user, **form.cleaned_data)
    except actions.Refused as exc:
        form.add_error(None, exc.message)
        return render(request, "games/lobby.html", {
            "tables": lobby_tables(request.user), "form": form,
            "variants": Variant.objects.active(), "form_open": True}, status=400)
    if table.private:
        request.session["invites"] = [*request.session.get("invites", []), table.invite_code]
    messages.success(request, _("Your table “%(table)s” is open. Invite people or add bots.")
                     % {"table": table.name})
    return redirect(table)


# "Play now against bots": the quickest way to a game, with what most people play.
QUICK_SEATS = 3
QUICK_BOT = "greedy"


@login_required
@require_POST
def play_now(request):
    """A table of one's own with bots in the other seats: full, so the game starts."""
    variant = (Variant.objects.active().filter(slug="classic").first()
               or Variant.objects.active().order_by("pk").first())
    if variant is None:
        messages.error(request, _("No variant is offered right now."))
        return redirect("games:lobby")
    rules = variant.rules
    seats = min(max(QUICK_SEATS, rules.min_players), rules.max_players)
    try:
        # a stored name, in the words of the player who made the table
        name = _("%(player)s v bots") % {"player": request.user.username}
        table = actions.do_create_table(request.user, name=name[:60], variant=variant,
                                        seats=seats)
        for _seat in range(seats - 1):
            actions.do_add_bot(table, request.user, QUICK_BOT)
    except actions.Refused as exc:
        messages.error(request, exc.message)
        return redirect("games:lobby")
    return redirect(table)


def _check_access(request, table_id: int):
    allowed = may_watch(table_id, request.user, request.session.get("invites", []))
    if allowed is None:
        raise Http404(_("No such table."))
    return allowed


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
    return render(request, "games/table.html", context)


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
