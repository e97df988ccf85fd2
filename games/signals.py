"""Signals other apps listen to, so that ``games`` needs to know none of them; and
what ``games`` hears from accounts: a user's sockets close when their sign-in ends."""

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.models import Session
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import Signal, receiver

from . import signins

# Sent by games.actions inside the transaction of a game's last action, after every
# player's place is set: listeners that write to the database (stats) commit or roll
# back with the game. Arguments: game (models.Game), state (engine.GameState).
game_finished = Signal()


@receiver(user_logged_out, dispatch_uid="games-close-sockets-on-logout")
def _logged_out(sender, request, user, **kwargs):
    if user is not None:
        from .actions import do_end_sessions

        do_end_sessions(user.pk)


@receiver(post_delete, sender=Session, dispatch_uid="games-forget-ended-session")
def _session_ended(sender, instance, **kwargs):
    """A session row deleted (logged out, a new key at sign-in, an admin's delete): a
    socket opened with it is refused at its next action."""
    signins.forget_session(instance.session_key)


@receiver(pre_save, dispatch_uid="games-note-sign-in-changes")
def _note_sign_in(sender, instance, update_fields=None, **kwargs):
    """Before a user is saved: will this save end their sign-ins (a new password, or
    deactivation)? Saves that touch neither field (last_login) cost no query."""
    if sender is not get_user_model() or instance.pk is None:
        return
    if update_fields is not None and not {"password", "is_active"} & set(update_fields):
        return
    before = (sender.objects.filter(pk=instance.pk).values_list("password", "is_active")
              .first())
    instance._ends_sessions = before is not None and (
        before[0] != instance.password or (before[1] and not instance.is_active))


@receiver(post_save, dispatch_uid="games-close-sockets-on-sign-in-change")
def _sign_in_changed(sender, instance, created, **kwargs):
    if getattr(instance, "_ends_sessions", False):
        instance._ends_sessions = False
        from .actions import do_end_sessions

        do_end_sessions(instance.pk)
