"""The bell's list, the preferences, push subscriptions, per-table mutes, and the
installable app's manifest, service worker and offline page."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from accounts.redirects import redirect_next
from accounts.timezones import site_zone_name, time_zone_groups, zone_name
from games.access import may_watch

from . import actions
from .forms import CHANNEL_LABELS, DigestForm, Invalid, parse_grid, parse_ids, parse_subscription
from .models import EVENT_CHOICES, DigestSetting, Notification, TableMute
from .preferences import GRID_EVENTS, grid_for, has_address, push_available
from .texts import text_for

PAGE = 50


def _refuse(request, message: str, status: int = 400):
    if request.htmx or request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"error": message}, status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


@login_required
@require_GET
def notification_list(request):
    notes = list(Notification.objects.filter(user=request.user, in_bell=True)
                 .select_related("table", "user")[:PAGE])
    rows = [(note, text_for(note, request.LANGUAGE_CODE)) for note in notes]
    template = "notify/_bell_list.html" if request.htmx else "notify/list.html"
    return render(request, template,
                  {"rows": rows, "unread": actions.unread_count(request.user.pk)})


@login_required
@require_POST
def mark_read(request):
    try:
        ids = parse_ids(request.POST.getlist("id"))
    except Invalid as exc:
        return _refuse(request, exc.message)
    if ids is not None and Notification.objects.filter(
            user=request.user, pk__in=ids).count() != len(set(ids)):
        return _refuse(request, _("There is no such notification."), 404)
    actions.do_mark_read(request.user, ids)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect("notify:list")


@login_required
def preferences(request):
    from .models import Channel

    setting = DigestSetting.objects.filter(user=request.user).first()
    if request.method == "POST":
        form = DigestForm(request.POST)
        try:
            grid = parse_grid(request.POST)
        except Invalid as exc:
            return _refuse(request, exc.message)
        if not form.is_valid():
            if form.has_error("time_zone"):
                return _refuse(request, _("Choose a time zone from the list."))
            return _refuse(request, _("Choose an hour from the list."))
        actions.do_save_preferences(
            request.user, grid, digest="digest" in request.POST,
            digest_hour=form.cleaned_data["digest_hour"],
            time_zone=form.cleaned_data["time_zone"] if "time_zone" in request.POST else None)
        messages.success(request, _("Your notification settings are saved."))
        return redirect("notify:preferences")
    grid = grid_for(request.user)
    labels = dict(EVENT_CHOICES)
    push = push_available()
    # without browser notifications on the site, no column for them (the panel says why)
    # and without an address (a guest), no email column nor daily email (the form says why)
    mail = has_address(request.user)
    channels = [(channel, label) for channel, label in CHANNEL_LABELS.items()
                if (push or channel != Channel.PUSH) and (mail or channel != Channel.EMAIL)]
    rows = [(event, labels[event],
             [(channel, CHANNEL_LABELS[channel], grid[event][channel])
              for channel, _label in channels if channel in grid[event]])
            for event in GRID_EVENTS]
    mutes = TableMute.objects.filter(user=request.user).select_related("table")
    zone_singles, zone_groups = time_zone_groups()
    return render(request, "notify/preferences.html", {
        "rows": rows, "channels": channels,
        "digest": setting.enabled if setting else False,
        "digest_hour": setting.hour if setting else 8, "hours": range(24),
        "time_zone": request.user.time_zone, "zone_name": zone_name(request.user),
        "site_zone": site_zone_name(), "zone_singles": zone_singles, "zone_groups": zone_groups,
        "push_available": push, "mutes": mutes, "has_address": mail,
        "vapid_public_key": getattr(settings, "VAPID_PUBLIC_KEY", ""),
    })


@login_required
@require_POST
def send_test(request):
    actions.do_notify(request.user, "test")
    messages.success(request, _("A test notification is on its way."))
    return redirect("notify:preferences")


@login_required
@require_POST
def subscribe(request):
    if not push_available():
        return JsonResponse({"error": _("Browser notifications are not set up on this site.")},
                            status=404)
    try:
        sub = parse_subscription(request.body)
    except Invalid as exc:
        return JsonResponse({"error": exc.message}, status=400)
    actions.do_subscribe(request.user, sub["endpoint"], sub["p256dh"], sub["auth"],
                         request.headers.get("User-Agent", ""))
    return JsonResponse({"ok": True})


@login_required
@require_POST
def unsubscribe(request):
    try:
        sub = parse_subscription(request.body, to_send=False)
    except Invalid as exc:
        return JsonResponse({"error": exc.message}, status=400)
    actions.do_unsubscribe(request.user, sub["endpoint"])
    return JsonResponse({"ok": True})


@login_required
@require_POST
def mute(request, table_id: int):
    # a table they may open, or one they muted before (to turn it on again): any other
    # is "no such table", so that a private table's name never reaches the settings page
    # of someone who may not see it. (The table is looked up by its key, ``table__pk``,
    # where Django finds no row for an id past the database's integers.)
    if not (may_watch(table_id, request.user, request.session.get("invites", []))
            or TableMute.objects.filter(user=request.user, table__pk=table_id).exists()):
        return _refuse(request, _("There is no such table."), 404)
    value = request.POST.get("muted")
    if value not in ("on", "off"):
        return _refuse(request, _("Send muted=on or muted=off."))
    actions.do_mute_table(request.user, table_id, value == "on")
    if request.htmx:
        return HttpResponse(status=204)
    messages.success(request, _("Notifications from this table are muted.") if value == "on"
                     else _("Notifications from this table are on again."))
    return redirect_next(request, "notify:preferences")


# -- the installable app -------------------------------------------------------------------------


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    data = {
        "name": _("Stop the Bus"),
        "short_name": _("Stop the Bus"),
        "description": _("An online card room for Stop the Bus and Three Card Brag."),
        "id": "/",
        "start_url": "/?source=app",
        "scope": "/",
        "display": "standalone",
        "background_color": "#124a2b",
        "theme_color": "#1d6b40",
        "lang": request.LANGUAGE_CODE,
        "icons": [
            {"src": static("img/app/icon-192.png"), "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": static("img/app/icon-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
            {"src": static("img/app/maskable-192.png"), "sizes": "192x192",
             "type": "image/png", "purpose": "maskable"},
            {"src": static("img/app/maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
        ],
    }
    return HttpResponse(json.dumps(data, ensure_ascii=False),
                        content_type="application/manifest+json; charset=utf-8")


@require_GET
def service_worker(request):
    """The service worker, from the site root so that its scope is the whole site."""
    path = settings.BASE_DIR / "static" / "js" / "sw.js"
    response = HttpResponse(path.read_text(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request):
    return render(request, "notify/offline.html")


def bell(request):
    """Context processor: the unread count for the bell in the site header."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"notify_unread": actions.unread_count(user.pk),
            "notify_list_url": reverse("notify:list")}
