"""Notifications: what a player is told, where (the site's bell, web push, email), and
the deliveries still to make. Written only by ``notify.actions``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

EVENT_CHOICES = [
    ("your_turn", _("Your turn")),
    ("last_call", _("Last call")),
    ("missed_turn", _("Missed turn")),
    ("bot_sat_in", _("A bot sat in")),
    ("game_over", _("Game over")),
    ("invited", _("Invited to a table")),
    ("table_started", _("Table started")),
    ("test", _("Test")),
]


class Channel(models.TextChoices):
    SITE = "site", _("On the site")
    PUSH = "push", _("Browser notification")
    EMAIL = "email", _("Email")


class Notification(models.Model):
    """One thing a player is told. Its words are rendered when shown, in the reader's
    language, from ``event`` and ``params``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="notifications")
    event = models.CharField(_("event"), max_length=20, choices=EVENT_CHOICES)
    table = models.ForeignKey("games.Table", verbose_name=_("table"), null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    # names the thing told of (a turn, say): one notification per player and key
    key = models.CharField(_("key"), max_length=200, blank=True, default="")
    in_bell = models.BooleanField(_("shown in the bell"), default=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], condition=~Q(key=""),
                                               name="notify_one_per_user_and_key")]
        indexes = [models.Index(fields=["user", "read_at"], name="notify_unread")]

    def __str__(self) -> str:
        return f"{self.event} for {self.user_id}"


class PushSubscription(models.Model):
    """A browser's push endpoint for one player (the Push API's subscription)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key"), max_length=100)
    auth = models.CharField(_("auth secret"), max_length=40)
    user_agent = models.CharField(_("browser"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"push for {self.user_id}"

    def info(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class NotificationPreference(models.Model):
    """One cell of the event × channel grid that differs from the default."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="notification_preferences")
    event = models.CharField(_("event"), max_length=20, choices=EVENT_CHOICES)
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    enabled = models.BooleanField(_("enabled"))

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")
        constraints = [models.UniqueConstraint(fields=["user", "event", "channel"],
                                               name="notify_one_preference_per_cell")]

    def __str__(self) -> str:
        return f"{self.event}/{self.channel}={self.enabled}"


class DigestSetting(models.Model):
    """The daily email of tables where it is the player's turn (off unless chosen)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                                on_delete=models.CASCADE, related_name="digest_setting")
    enabled = models.BooleanField(_("daily digest"), default=False)
    hour = models.PositiveSmallIntegerField(_("hour"), default=8)
    sent_on = models.DateField(_("last sent on"), null=True, blank=True)

    class Meta:
        verbose_name = _("digest setting")
        verbose_name_plural = _("digest settings")

    def __str__(self) -> str:
        return f"digest for {self.user_id}"


class TableMute(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="table_mutes")
    table = models.ForeignKey("games.Table", verbose_name=_("table"), on_delete=models.CASCADE,
                              related_name="+")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("muted table")
        verbose_name_plural = _("muted tables")
        constraints = [models.UniqueConstraint(fields=["user", "table"],
                                               name="notify_one_mute_per_table")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.table_id}"


class Delivery(models.Model):
    """A push or an email still to send (or sent): claimed by one process under a lease,
    like the clock's jobs."""

    class Kind(models.TextChoices):
        PUSH = "push", _("push")
        EMAIL = "email", _("email")
        DIGEST = "digest", _("digest")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    notification = models.ForeignKey(Notification, verbose_name=_("notification"), null=True,
                                     blank=True, on_delete=models.CASCADE,
                                     related_name="deliveries")
    subscription = models.ForeignKey(PushSubscription, verbose_name=_("push subscription"),
                                     null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="deliveries")
    due_at = models.DateTimeField(_("due at"))
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    claimed_by = models.CharField(_("claimed by"), max_length=100, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    done_at = models.DateTimeField(_("done at"), null=True, blank=True)
    result = models.CharField(_("result"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        indexes = [models.Index(fields=["done_at", "due_at"], name="notify_delivery_due")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id}"
