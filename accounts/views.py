import re
import secrets

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.hashers import make_password
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse, reverse_lazy
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.http import require_POST, require_safe
from django.views.generic import FormView, TemplateView, UpdateView

from accounts import holidays, mail_limits
from accounts.client_address import client_ip, limit_group
from accounts.forms import (
    EmailChangeForm,
    HolidayForm,
    LogInForm,
    ReaderLanguagePasswordResetForm,
    SignUpForm,
    TablePreferencesForm,
    check_username,
    email_taken,
)
from accounts.guests import GuestRefused, become_member, is_guest, start_guest
from accounts.language import reader_language, supported
from accounts.models import HOLIDAY_DAYS_A_YEAR, Holiday, User
from accounts.redirects import redirect_next
from games import ratelimit

# A sign-up waits this long for its address to be confirmed (in the cache: nothing
# is written to the database until then, so nobody can hold a name or an address
# they do not own).
SIGNUP_LINK_SECONDS = 2 * 24 * 3600


def _pending_key(token: str) -> str:
    return f"signup:{token}"


def _mail(template: str, to: str, context: dict, language: str | None = None) -> None:
    """Mail ``to`` in ``language`` (by default the language of whoever is asking)."""
    with translation.override(language or translation.get_language()):
        subject = render_to_string(f"accounts/{template}_subject.txt", context).strip()
        body = render_to_string(f"accounts/{template}_email.txt", context)
    send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [to])


class SignUpView(FormView):
    """Sign-up answers the same whether or not the address already has an account.

    A new address gets a link that creates the account; an address that has one
    gets a note saying so, with where to log in or reset the password. Either way
    the page says "check your email", and both ways hash the password and send
    one mail, so the answer and its timing tell a stranger nothing.
    """

    template_name = "accounts/signup.html"
    form_class = SignUpForm

    def dispatch(self, request, *args, **kwargs):
        # a guest signs up to keep their games: the link turns the guest into the account
        if request.user.is_authenticated and not is_guest(request.user):
            return redirect("/")
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "guest": is_guest(self.request.user)}

    def form_valid(self, form):
        if not mail_limits.may_ask_from(self.request):
            return mail_limits.refuse(self, form, _(
                "There have been too many sign-ups from your network in the last hour. "
                "Please try again later."))
        email = form.cleaned_data["email"]
        # past the address's limit nothing is sent, and the page says what it always says
        send = mail_limits.may_mail(email)
        password = make_password(form.cleaned_data["password1"])
        login_url = self.request.build_absolute_uri(reverse("login"))
        reset_url = self.request.build_absolute_uri(reverse("password_reset"))
        owner = User.objects.filter(email__iexact=email).only("email", "language").first()
        if owner is not None:
            # to the address on record, in its owner's language; nothing the stranger
            # typed goes into the mail
            if send:
                _mail("signup_taken", owner.email,
                      {"login_url": login_url, "reset_url": reset_url}, reader_language(owner))
        elif send:
            token = secrets.token_urlsafe(32)
            # the language these pages (and the mail below) are read in: the account's,
            # so its mails and pushes are written in it too (the switch changes it later)
            pending = {"username": form.cleaned_data["username"], "email": email,
                       "password": password,
                       "language": supported(translation.get_language()) or ""}
            if is_guest(self.request.user):
                pending["guest"] = self.request.user.pk
            cache.set(_pending_key(token), pending, SIGNUP_LINK_SECONDS)
            link = self.request.build_absolute_uri(reverse("accounts:signup_confirm",
                                                           args=[token]))
            _mail("signup_confirm", email, {"link": link, "login_url": login_url,
                                            "username": form.cleaned_data["username"],
                                            "days": SIGNUP_LINK_SECONDS // 86400})
        self.request.session["signup_email"] = email
        return redirect("accounts:signup_sent")


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset within the mail limits (``accounts.mail_limits``). Past
    the client's, nothing is sent and the form comes back saying so, as sign-up's does;
    past the address's, nothing is sent and the page is the one a sent mail gets (the
    form's ``send_mail``), so it tells nobody whether the address has an account."""

    form_class = ReaderLanguagePasswordResetForm

    def form_valid(self, form):
        if not mail_limits.may_ask_from(self.request):
            return mail_limits.refuse(self, form, _(
                "There have been too many password reset requests from your network in the "
                "last hour. Nothing was sent: please try again later."))
        return super().form_valid(form)


class SignUpSentView(TemplateView):
    template_name = "accounts/signup_sent.html"

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs),
                "email": self.request.session.get("signup_email", "")}


class SignUpConfirmView(View):
    """The link from the sign-up mail: a button (mail scanners open links, they don't
    press buttons) that creates the account and logs in."""

    def get(self, request, token):
        pending = cache.get(_pending_key(token))
        if pending is None:
            return render(request, "accounts/signup_confirm.html", {"expired": True}, status=404)
        return render(request, "accounts/signup_confirm.html", {"pending": pending})

    def post(self, request, token):
        pending = cache.get(_pending_key(token))
        if pending is None:
            return render(request, "accounts/signup_confirm.html", {"expired": True}, status=404)
        if pending.get("guest"):
            user = become_member(pending["guest"], username=pending["username"],
                                 email=pending["email"], password=pending["password"],
                                 language=pending.get("language") or "")
            if user is None and User.objects.filter(
                    pk=pending["guest"], is_guest=False,
                    username=pending["username"]).exists():
                # opened twice (or in two tabs at once): the first made the account
                cache.delete(_pending_key(token))
                messages.info(request, _("Your account is ready already. Log in with your "
                                         "name and password."))
                if request.user.is_authenticated and request.user.pk == pending["guest"]:
                    return redirect("/")
                return redirect("login")
            if user is None and not User.objects.filter(pk=pending["guest"]).exists():
                user = self._create(pending)  # the guest was cleaned up since: a new account
        else:
            user = self._create(pending)
        if user is None:
            return render(request, "accounts/signup_confirm.html",
                          {"pending": pending, "taken": True}, status=409)
        cache.delete(_pending_key(token))
        # The backend must be named because several are configured; the password was
        # set by its owner a moment ago, so there is nothing for axes to check.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        request.session["new_account"] = True  # the lobby greets them, not "welcome back"
        messages.success(request, _("Welcome aboard, %(username)s! Your account is ready.")
                         % {"username": user.username})
        return redirect("/")

    @staticmethod
    def _create(pending) -> User | None:
        """The account, unless its name or address was taken since the sign-up."""
        if email_taken(pending["email"]) or User.objects.filter(
                username__iexact=pending["username"]).exists():
            return None
        try:
            check_username(pending["username"])  # a look-alike may have signed up since
            with transaction.atomic():
                return User.objects.create(username=pending["username"], email=pending["email"],
                                           password=pending["password"],
                                           language=supported(pending.get("language")) or "")
        except (ValidationError, IntegrityError):  # IntegrityError: a sign-up at the same time
            return None


class ProfileView(LoginRequiredMixin, UpdateView):
    """The player's own account page: who they are, and where their mail goes.

    A new address is only taken on once its owner opens a link sent to it; if it
    belongs to another account, its owner is told instead. The page says the same
    either way.
    """

    template_name = "accounts/profile.html"
    form_class = EmailChangeForm
    context_object_name = "account"
    success_url = reverse_lazy("accounts:profile")

    def get_object(self, queryset=None):
        # A copy, so a rejected edit never shows up as the signed-in user's details.
        return User.objects.get(pk=self.request.user.pk)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(holiday_context(self.request.user))
        return context

    def form_valid(self, form):
        if is_guest(self.request.user):
            # a guest has no address of their own: signing up gives them one
            messages.error(self.request, _("Guests have no email address. Sign up to keep "
                                           "your games and set one."))
            return redirect("accounts:signup")
        email = form.cleaned_data["email"]
        if email.lower() == self.request.user.email.lower():
            messages.success(self.request, _("Your email address has been updated."))
            return super().form_valid(form)  # the same address in other letter case
        if not mail_limits.may_change_email(self.request.user):
            return mail_limits.refuse(self, form, _(
                "You have asked to change your address too many times in the last hour. "
                "Please try again later."), field="email")
        # past the address's limit nothing is sent, and the page says what it always says
        send = mail_limits.may_mail(email)
        owner = (User.objects.filter(email__iexact=email).exclude(pk=self.request.user.pk)
                 .only("email", "language").first())
        if owner is not None:
            if send:
                reset_url = self.request.build_absolute_uri(reverse("password_reset"))
                _mail("email_change_taken", owner.email, {"reset_url": reset_url},
                      reader_language(owner))
        elif send:
            token = secrets.token_urlsafe(32)
            cache.set(_email_key(token), {"user": self.request.user.pk, "email": email},
                      SIGNUP_LINK_SECONDS)
            link = self.request.build_absolute_uri(reverse("accounts:email_confirm",
                                                           args=[token]))
            _mail("email_change_confirm", email, {"link": link,
                                                  "username": self.request.user.username,
                                                  "days": SIGNUP_LINK_SECONDS // 86400})
        messages.info(self.request, _("We have sent a link to %(email)s. Your address changes "
                                      "when you open it.") % {"email": email})
        return redirect(self.success_url)


def _email_key(token: str) -> str:
    return f"email-change:{token}"


class EmailConfirmView(LoginRequiredMixin, View):
    """The link from the email-change mail: a button that moves the account to the
    address, for the account that asked (mail scanners open links, they don't press
    buttons)."""

    def _pending(self, request, token):
        pending = cache.get(_email_key(token))
        return pending if pending and pending["user"] == request.user.pk else None

    def get(self, request, token):
        pending = self._pending(request, token)
        return render(request, "accounts/email_confirm.html",
                      {"pending": pending, "expired": pending is None},
                      status=200 if pending else 404)

    def post(self, request, token):
        pending = self._pending(request, token)
        if pending is None:
            return render(request, "accounts/email_confirm.html", {"expired": True}, status=404)
        try:
            with transaction.atomic():
                if email_taken(pending["email"], exclude_pk=request.user.pk):
                    raise IntegrityError("taken since")
                User.objects.filter(pk=request.user.pk).update(email=pending["email"])
        except IntegrityError:  # another account took the address since the link was sent
            return render(request, "accounts/email_confirm.html",
                          {"pending": pending, "taken": True}, status=409)
        cache.delete(_email_key(token))
        messages.success(request, _("Your email address has been updated."))
        return redirect("accounts:profile")


@require_POST
def play_as_guest(request):
    """Sit down without an account: a guest is made and logged in (unless someone is
    signed in already), then sent on to ``next`` (a table, or the lobby)."""
    try:
        user = start_guest(request)
    except GuestRefused as exc:
        messages.error(request, exc.message)
        return redirect("games:lobby")
    if is_guest(user):
        messages.info(request, _("You are playing as %(name)s. Sign up any time to keep your "
                                 "games.") % {"name": user.username})
    return redirect_next(request, "games:lobby")


@login_required
@require_safe
def guest_leave(request):
    """A guest's "Log out": asked first, as a guest cannot log in again (their name, seats
    and games are gone for them), with the way to keep them. A member has nothing to
    confirm: they log out from the header."""
    if not is_guest(request.user):
        return redirect("games:lobby")
    return render(request, "accounts/guest_leave.html")


@login_required
@require_POST
def preferences(request):
    """The switches that follow a player from table to table: the profile's form sends
    them all (``form=all``), the table's mute switch only ``sound``, its bell only
    ``turn_alerts``; the hints switch and "how to play seen" are saved on their own."""
    switches = ("sound", "four_colour_deck", "turn_alerts")
    own = _own_preferences(request)
    if own is None:
        return HttpResponse(_("Send hints=on|off|default or how_to_play_seen=on."), status=400)
    if own and not ({"form", *switches} & set(request.POST)):
        return _preferences_saved(request)
    if request.POST.get("form") == "all":
        form = TablePreferencesForm(request.POST, instance=request.user)
        fields = list(form.fields)
    else:
        fields = [name for name in switches if name in request.POST]
        if any(request.POST[name] not in ("on", "off") for name in fields):
            fields = []
        data = {name: request.POST[name] == "on" for name in fields}
        form = TablePreferencesForm({**{n: getattr(request.user, n) for n in switches}, **data},
                                    instance=request.user)
    if not fields or not form.is_valid():
        return HttpResponse(_("Send sound, four_colour_deck or turn_alerts, each on or off."),
                            status=400)
    form.save()
    return _preferences_saved(request)


HINTS = {"on": True, "off": False, "default": None, "": None}


def _own_preferences(request) -> list[str] | None:
    """Save the hints setting and "how to play seen" if the form sends them: the names
    saved, or None if a value is not one of theirs."""
    changes = {}
    if "hints" in request.POST:
        if request.POST["hints"] not in HINTS:
            return None
        changes["hints"] = HINTS[request.POST["hints"]]
    if "how_to_play_seen" in request.POST:
        changes["how_to_play_seen"] = request.POST["how_to_play_seen"] == "on"
    if changes:
        User.objects.filter(pk=request.user.pk).update(**changes)
        for name, value in changes.items():  # so that a form saved after keeps them
            setattr(request.user, name, value)
    return list(changes)


def _preferences_saved(request):
    if request.htmx:
        return HttpResponse(status=204)
    messages.success(request, _("Your table settings are saved."))
    return redirect_next(request, "games:lobby")


def holiday_context(user, form=None) -> dict:
    """The profile's holidays: this year's days used and left, the ones to come, a form."""
    year = holidays.today().year
    return {
        "holiday_form": form or HolidayForm(initial={"start": holidays.today()}),
        "holiday_days_used": holidays.days_used(user, year),
        "holiday_days_left": holidays.days_left(user, year),
        "holiday_days_a_year": HOLIDAY_DAYS_A_YEAR,
        "holiday_year": year,
        "holidays": Holiday.objects.filter(user=user, end__gte=holidays.today()),
    }


@login_required
@require_POST
def take_holiday(request):
    """A holiday from post tables, from the profile: bots sit in for the player meanwhile."""
    from games.actions import Refused, do_take_holiday

    form = HolidayForm(request.POST)
    if form.is_valid():
        try:
            holiday = do_take_holiday(request.user, form.cleaned_data["start"],
                                      form.cleaned_data["days"])
        except Refused as exc:
            if exc.code == "holiday_guest":  # a guest's profile has no holidays to show it
                messages.error(request, exc.message)
                return redirect("accounts:profile")
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Enjoy your holiday: from %(start)s to %(end)s a bot "
                                        "plays your turns at post tables.") % {
                "start": date_format(holiday.start), "end": date_format(holiday.end)})
            return redirect("accounts:profile")
    account = User.objects.get(pk=request.user.pk)
    return render(request, "accounts/profile.html", {
        "form": EmailChangeForm(instance=account), "account": account,
        **holiday_context(request.user, form)}, status=400)


_TABLE_PATH = re.compile(r"^/t/(\d{1,9})/$")


class LogInView(auth_views.LoginView):
    """Django's log-in, which says what it stands in front of when a visitor without an
    account came for a table (a game under "Being played", an invite link): the table's
    name and whether they would sit down or watch, so the page is not a bare wall. A
    private table is named only to a visitor who came with its link."""

    form_class = LogInForm

    # django-axes pauses one username from one address after five wrong passwords; this
    # pauses an address that tries many usernames (a password sprayed across accounts):
    # STOPBUS_LOGIN_FAILURES_PER_ADDRESS failed log-ins in 15 minutes, then none for a while
    FAILURES_WINDOW = 15 * 60

    def _failures_key(self) -> str:
        return f"login-failed:{limit_group(client_ip(self.request))}"

    def _failures_limit(self) -> int:
        return int(getattr(settings, "STOPBUS_LOGIN_FAILURES_PER_ADDRESS", 20))

    def post(self, request, *args, **kwargs):
        if ratelimit.used(self._failures_key(), self.FAILURES_WINDOW) >= self._failures_limit():
            return render(request, "accounts/lockout.html", status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        if self.request.POST.get("password"):  # a password tried, and refused
            ratelimit.allow(self._failures_key(), self._failures_limit(), self.FAILURES_WINDOW)
        return super().form_invalid(form)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["wanted_table"] = self._wanted_table()
        return context

    def _wanted_table(self):
        from games.models import Table

        match = _TABLE_PATH.match(self.get_redirect_url() or "")
        if match is None:
            return None
        table = Table.objects.filter(pk=int(match.group(1))).first()
        if table is None or table.status == Table.Status.CLOSED:
            return None
        named = not table.private or table.invite_code in self.request.session.get("invites", [])
        return {"table": table if named else None,
                "waiting": table.status == Table.Status.WAITING,
                "watchable": table.allow_spectators}
