"""The one writer of notifications: what a player is told, and its deliveries.

``do_notify`` is called by game actions inside their own transaction: it writes the
notification (once per ``key``), schedules its pushes and emails as due rows, and after
commit tells the player's pages (the bell). Nothing here talks to a push service or a
mail server: the deliveries run from the clock (``notify.loop``), so a failing push
service never delays or breaks a move.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation

from accounts.language import reader_language
from accounts.timezones import zone_for
from games.actions.base import group_send, user_group

from .models import (
    Channel,
    Delivery,
    DigestSetting,
    Notification,
    NotificationPreference,
    PushSubscription,
    TableMute,
)
from .preferences import DEFAULTS, channels_for, has_address, push_available

log = logging.getLogger(__name__)

EVENTS = ("your_turn", "last_call", "missed_turn", "bot_sat_in", "game_over", "invited",
          "table_started", "test")


def turn_delay() -> timedelta:
    """How long after a turn begins its "your turn" push waits (the player may be looking)."""
    return timedelta(seconds=getattr(settings, "NOTIFY_TURN_DELAY", 2.0))


def _count_key(user_id: int) -> str:
    return f"notify:unread:{user_id}"


def unread_count(user_id: int) -> int:
    """How many notifications the bell shows as unread (every page's header asks: kept
    in the cache until it changes, see ``announce``)."""
    try:
        count = cache.get(_count_key(user_id))
    except Exception:  # the cache is down: the database answers
        count = None
    if count is None:
        count = Notification.objects.filter(user_id=user_id, in_bell=True,
                                            read_at__isnull=True).count()
        with contextlib.suppress(Exception):
            cache.set(_count_key(user_id), count, 600)
    return count


def announce(user_id: int) -> None:
    """After commit: the bell's count is read again, and the player's pages show it.
    Every change of what is unread goes through here (the cached count is dropped now,
    and again after commit, in case a page read it in between)."""
    def forget():
        try:
            cache.delete(_count_key(user_id))
        except Exception:
            log.exception("could not forget the bell count of %s", user_id)

    def send():
        forget()
        group_send(user_group(user_id), {"type": "notify.changed",
                                         "unread": unread_count(user_id)})
    forget()
    transaction.on_commit(send)


def _wake_on_commit() -> None:
    from . import loop  # the loop imports these actions
    transaction.on_commit(loop.wake)


def do_notify(user, event: str, *, table=None, params: dict | None = None,
              key: str | None = None):
    """Tell ``user`` of ``event`` (see EVENTS). Called inside the caller's transaction.

    Idempotent per ``(user, key)``: a second call with a key already used does nothing and
    returns None. Respects the player's preferences and the table's mute. Returns the
    Notification, or None when nothing was written."""
    if event not in EVENTS:
        raise ValueError(f"unknown notification event {event!r}")
    if user is None or getattr(user, "pk", None) is None or getattr(user, "is_bot", False):
        return None
    table_id = getattr(table, "pk", table)
    if event != "test" and table_id and TableMute.objects.filter(
            user_id=user.pk, table_id=table_id).exists():
        return None
    key = (key or "")[:200]
    if key and Notification.objects.filter(user_id=user.pk, key=key).exists():
        return None
    channels = channels_for(user, event)
    if not channels:
        return None
    now = timezone.now()
    notification = Notification(user_id=user.pk, event=event, table_id=table_id,
                                params=dict(params or {}), key=key,
                                in_bell=Channel.SITE in channels, created_at=now,
                                read_at=None if Channel.SITE in channels else now)
    try:
        with transaction.atomic():  # a racing twin with the same key loses here
            notification.save(force_insert=True)
    except IntegrityError:
        if not key:
            raise
        return None
    due = now + (turn_delay() if event == "your_turn" else timedelta(0))
    deliveries = []
    if Channel.PUSH in channels and push_available():
        deliveries += [Delivery(user_id=user.pk, kind=Delivery.Kind.PUSH,
                                notification=notification, subscription_id=pk, due_at=due)
                       for pk in PushSubscription.objects.filter(user_id=user.pk)
                       .values_list("pk", flat=True)]
    if Channel.EMAIL in channels and user.email:
        deliveries.append(Delivery(user_id=user.pk, kind=Delivery.Kind.EMAIL,
                                   notification=notification, due_at=due))
    if deliveries:
        Delivery.objects.bulk_create(deliveries)
        _wake_on_commit()
    if notification.in_bell:
        announce(user.pk)
    return notification


def do_withdraw(user, key: str) -> None:
    """The thing is over (the player moved): undelivered pushes and emails for ``key`` are
    dropped and the notification is marked read."""
    user_id = getattr(user, "pk", user)
    if not key:
        return
    now = timezone.now()
    Delivery.objects.filter(user_id=user_id, notification__key=key, done_at__isnull=True).update(
        done_at=now, result="withdrawn")
    if Notification.objects.filter(user_id=user_id, key=key, read_at__isnull=True).update(
            read_at=now):
        announce(user_id)


def do_mark_read(user, ids=None) -> int:
    """Mark the player's notifications ``ids`` (all when None) read. Ids that are not the
    player's are ignored. Returns how many changed."""
    rows = Notification.objects.filter(user_id=user.pk, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    changed = rows.update(read_at=timezone.now())
    if changed:
        announce(user.pk)
    return changed


# -- preferences ---------------------------------------------------------------------------------


def do_save_preferences(user, grid: dict[str, dict[str, bool]], digest: bool | None = None,
                        digest_hour: int | None = None, time_zone: str | None = None) -> None:
    """Store the cells of ``grid`` that differ from the defaults, and the player's time
    zone when given ("": the site's) (the caller validated). A player with no address (a
    guest) keeps no email cell on and no daily email."""
    if not has_address(user):
        grid = {event: {channel: on and channel != Channel.EMAIL for channel, on in row.items()}
                for event, row in grid.items()}
        if digest is not None:
            digest = False
    with transaction.atomic():
        if time_zone is not None and time_zone != user.time_zone:
            get_user_model().objects.filter(pk=user.pk).update(time_zone=time_zone)
            user.time_zone = time_zone
        NotificationPreference.objects.filter(user_id=user.pk).delete()
        NotificationPreference.objects.bulk_create([
            NotificationPreference(user_id=user.pk, event=event, channel=channel, enabled=on)
            for event, row in grid.items() for channel, on in row.items()
            if DEFAULTS[event].get(channel) is not None and DEFAULTS[event][channel] != on])
        if digest is not None:
            setting, _ = DigestSetting.objects.get_or_create(user_id=user.pk)
            setting.enabled = digest
            if digest_hour is not None:
                setting.hour = digest_hour
            setting.save()


def do_mute_table(user, table_id: int, muted: bool) -> None:
    if muted:
        TableMute.objects.get_or_create(user_id=user.pk, table_id=table_id)
    else:
        TableMute.objects.filter(user_id=user.pk, table_id=table_id).delete()


def do_subscribe(user, endpoint: str, p256dh: str, auth: str, user_agent: str = "") -> None:
    """Keep the browser's push subscription (validated by the caller). An endpoint is one
    browser's: if another account had it, it is this player's now."""
    PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user_id": user.pk, "p256dh": p256dh, "auth": auth,
                                     "user_agent": user_agent[:200]})


def do_unsubscribe(user, endpoint: str) -> int:
    return PushSubscription.objects.filter(user_id=user.pk, endpoint=endpoint).delete()[0]


# -- deliveries: claimed like the clock's jobs, run from notify.loop -----------------------------

def lease() -> timedelta:
    """How long a claim holds: longer than any one send may take (push timeout, SMTP)."""
    return timedelta(seconds=getattr(settings, "NOTIFY_LEASE_SECONDS", 60.0))

MAX_ATTEMPTS = 4


def backoff(attempt: int) -> timedelta:
    base = getattr(settings, "NOTIFY_RETRY_SECONDS", 10.0)
    return timedelta(seconds=base * 3 ** (attempt - 1))


def _claimable(now):
    """Deliveries not done and not held by a process under its lease at ``now``."""
    return Delivery.objects.filter(done_at__isnull=True).exclude(claimed_at__gt=now - lease())


def do_claim_due_deliveries(limit: int = 20, now=None, worker: str | None = None) -> list:
    """Take due deliveries for this process (rows another process holds are skipped; a
    process that dies loses its claim when the lease runs out)."""
    from games.actions import WORKER_ID

    worker = worker or WORKER_ID
    now = now or timezone.now()
    with transaction.atomic():
        due = (_claimable(now).select_for_update(skip_locked=True).filter(due_at__lte=now)
               .order_by("due_at"))
        ids = list(due.values_list("pk", flat=True)[:limit])
        if ids:
            Delivery.objects.filter(pk__in=ids).update(claimed_at=now, claimed_by=worker)
    if not ids:
        return []
    return list(Delivery.objects.filter(pk__in=ids, claimed_by=worker, claimed_at=now)
                .select_related("notification__table", "user", "subscription")
                .order_by("due_at"))


def next_delivery_in(default: float) -> float:
    now = timezone.now()
    due = _claimable(now).order_by("due_at").values_list("due_at", flat=True).first()
    if due is None:
        return default
    return max(0.0, min(default, (due - now).total_seconds()))


def _finish(deliveries, result: str) -> None:
    Delivery.objects.filter(pk__in=[d.pk for d in deliveries]).update(
        done_at=timezone.now(), result=result[:200])


def _failed(deliveries, detail: str, retry: bool) -> str:
    """A send failed: try again later with a growing pause, or give up."""
    attempts = max(d.attempts for d in deliveries) + 1
    if retry and attempts < MAX_ATTEMPTS:
        Delivery.objects.filter(pk__in=[d.pk for d in deliveries]).update(
            attempts=attempts, claimed_at=None, claimed_by="",
            due_at=timezone.now() + backoff(attempts), result=f"retrying: {detail}"[:200])
        log.warning("delivery %s failed (%s); attempt %d of %d", deliveries[0].pk, detail,
                    attempts, MAX_ATTEMPTS)
        return "retrying"
    log.warning("delivery %s dropped after %d attempts: %s", deliveries[0].pk, attempts, detail)
    Delivery.objects.filter(pk__in=[d.pk for d in deliveries]).update(attempts=attempts)
    _finish(deliveries, f"dropped: {detail}")
    return "dropped"


def _turns_to_push(deliveries) -> list:
    """Of "your turn" pushes, those still to send: not read or withdrawn meanwhile, and not
    at a table the player has a visible page of (they are looking already)."""
    from games.presence import has_visible_page

    keep, looking, over = [], [], []
    for delivery in deliveries:
        note = delivery.notification
        if note.read_at is not None:
            over.append(delivery)
        elif note.table_id and has_visible_page(delivery.user_id, note.table_id):
            looking.append(delivery)
        else:
            keep.append(delivery)
    if over:
        _finish(over, "read before sending")
    if looking:
        _finish(looking, "page visible: not pushed")
    return keep


def _payload(notification, count: int = 1) -> tuple[dict, str]:
    """The push's JSON (what the service worker shows) and its topic (a later push with
    the same topic replaces one not yet delivered)."""
    from .texts import text_for

    if count > 1:
        params = {**notification.params, "count": count}
        shown = Notification(user=notification.user, event=notification.event, params=params)
        text = text_for(shown)
        url, tag = "/notifications/", "your-turn"
    else:
        text = text_for(notification)
        url = text.url
        tag = ("your-turn" if notification.event == "your_turn"
               else f"{notification.event}-{notification.pk}")
    table = notification.table.name if notification.table_id and notification.table else ""
    return ({"title": text.title, "body": text.body, "url": url, "tag": tag, "table": table,
             "id": notification.pk}, tag.replace("_", "-")[:32])


def _run_push(deliveries) -> str:
    from . import push

    subscription = deliveries[0].subscription
    notification = deliveries[0].notification
    count = 1
    if notification.event == "your_turn":
        deliveries = _turns_to_push(deliveries)
        if not deliveries:
            return "nothing to push"
        notification = deliveries[-1].notification
        # every table where it is the player's turn and that they were not told of as read
        count = (Notification.objects.filter(user_id=notification.user_id, event="your_turn",
                                             read_at__isnull=True)
                 .values("table_id").distinct().count()) or 1
    payload, topic = _payload(notification, count)
    sent = push.send(subscription.info(), payload, topic=topic)
    if sent.ok:
        _finish(deliveries, f"sent ({sent.status})" + (
            f", {len(deliveries)} collapsed into one" if len(deliveries) > 1 else ""))
        return "sent"
    if sent.gone:
        log.info("push subscription %s is gone (%s): removed", subscription.pk, sent.status)
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        return "subscription gone"
    if sent.refused:
        # never sent to, and never will be: it goes with its deliveries
        log.warning("push subscription %s is not on a browser's push service: removed",
                    subscription.pk)
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        return "subscription refused"
    return _failed(deliveries, f"{sent.status}: {sent.detail}", sent.retry)


def _run_email(delivery) -> str:
    from . import mail

    try:
        if delivery.kind == Delivery.Kind.DIGEST:
            from games.turns import tables_waiting_for

            # the rows say what to do in words: in the reader's language, as the mail
            with translation.override(reader_language(delivery.user)):
                rows = [row for row in tables_waiting_for(delivery.user) if row.my_turn]
            if not rows:
                _finish([delivery], "no tables waiting: skipped")
                return "skipped"
            mail.send_digest(delivery.user, rows)
        else:
            if delivery.notification.read_at is not None and delivery.notification.in_bell:
                _finish([delivery], "read before sending")
                return "read"
            mail.send_notification_mail(delivery.notification)
    except Exception as exc:  # an SMTP error, a refused connection: retried, then dropped
        return _failed([delivery], f"{type(exc).__name__}: {exc}", retry=True)
    _finish([delivery], "sent")
    return "sent"


def do_run_deliveries(deliveries) -> dict[str, int]:
    """Send what was claimed: pushes grouped per browser (several pending turns become
    one "Your turn at 3 tables"), emails one by one. Returns counts of outcomes."""
    outcomes: dict[str, int] = {}
    pushes: dict[tuple, list] = {}
    for delivery in deliveries:
        if delivery.kind == Delivery.Kind.PUSH:
            if delivery.subscription is None or delivery.notification is None:
                _finish([delivery], "nothing to send")
                continue
            event = delivery.notification.event
            group = (delivery.subscription_id, "turn" if event == "your_turn" else delivery.pk)
            pushes.setdefault(group, []).append(delivery)
        else:
            result = _run_email(delivery)
            outcomes[result] = outcomes.get(result, 0) + 1
    for group in pushes.values():
        try:
            result = _run_push(group)
        except Exception:
            log.exception("push delivery %s failed", group[0].pk)
            result = _failed(group, "error", retry=True)
        outcomes[result] = outcomes.get(result, 0) + 1
    return outcomes


def do_run_due_deliveries(limit: int = 20) -> int:
    """Claim and send what is due now. Returns how many deliveries were claimed."""
    deliveries = do_claim_due_deliveries(limit)
    if deliveries:
        do_run_deliveries(deliveries)
    return len(deliveries)


def do_schedule_digests(now=None) -> int:
    """Queue today's digest for every player whose chosen hour has come on their own
    clock (their time zone, else the site's, DST included) and who has not had it yet
    on their own day (once: the setting row is locked and stamped in the same
    transaction with the player's local date; an hour skipped by a clock change counts
    as come, and an hour that happens twice sends once)."""
    now = now or timezone.now()
    # a guest has no address of their own (``preferences.has_address``): never mailed
    enabled = DigestSetting.objects.filter(enabled=True, user__is_guest=False)
    names = set(enabled.values_list("user__time_zone", flat=True).distinct())
    count = 0
    for name in sorted(names):
        local = now.astimezone(zone_for(name))
        today = local.date()
        with transaction.atomic():
            due = list(enabled.select_for_update(skip_locked=True, of=("self",))
                       .filter(user__time_zone=name, hour__lte=local.hour)
                       .filter(Q(sent_on__isnull=True) | Q(sent_on__lt=today))
                       .values_list("pk", "user_id"))
            if not due:
                continue
            DigestSetting.objects.filter(pk__in=[pk for pk, _ in due]).update(sent_on=today)
            Delivery.objects.bulk_create([Delivery(user_id=user_id, kind=Delivery.Kind.DIGEST,
                                                   due_at=now) for _, user_id in due])
        count += len(due)
    return count
