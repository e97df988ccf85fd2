import secrets

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
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
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.http import require_POST
from django.views.generic import FormView, TemplateView, UpdateView

from accounts.forms import (
    EmailChangeForm,
    SignUpForm,
    TablePreferencesForm,
    check_username,
    email_taken,
)
from accounts.language import reader_language
from accounts.models import User

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
        if request.user.is_authenticated:
            return redirect("/")
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        password = make_password(form.cleaned_data["password1"])
        login_url = self.request.build_absolute_uri(reverse("login"))
        reset_url = self.request.build_absolute_uri(reverse("password_reset"))
        owner = User.objects.filter(email__iexact=email).only("email", "language").first()
        if owner is not None:
            # to the address on record, in its owner's language; nothing the stranger
            # typed goes into the mail
            _mail("signup_taken", owner.email, {"login_url": login_url, "reset_url": reset_url},
                  reader_language(owner))
        else:
            token = secrets.token_urlsafe(32)
            cache.set(_pending_key(token), {"username": form.cleaned_data["username"],
                                            "email": email, "password": password},
                      SIGNUP_LINK_SECONDS)
            link = self.request.build_absolute_uri(reverse("accounts:signup_confirm",
                                                           args=[token]))
            _mail("signup_confirm", email, {"link": link, "login_url": login_url,
                                            "username": form.cleaned_data["username"],
                                            "days": SIGNUP_LINK_SECONDS // 86400})
        self.request.session["signup_email"] = email
        return redirect("accounts:signup_sent")


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
        user = self._create(pending)
        if user is None:
            return render(request, "accounts/signup_confirm.html",
                          {"pending": pending, "taken": True}, status=409)
        cache.delete(_pending_key(token))
        # The backend must be named because several are configured; the password was
        # set by its owner a moment ago, so there is nothing for axes to check.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
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
                                           password=pending["password"])
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

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        if email.lower() == self.request.user.email.lower():
            messages.success(self.request, _("Your email address has been updated."))
            return super().form_valid(form)  # the same address in other letter case
        owner = (User.objects.filter(email__iexact=email).exclude(pk=self.request.user.pk)
                 .only("email", "language").first())
        if owner is not None:
            reset_url = self.request.build_absolute_uri(reverse("password_reset"))
            _mail("email_change_taken", owner.email, {"reset_url": reset_url},
                  reader_language(owner))
        else:
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


@login_required
@require_POST
def preferences(request):
    """The switches that follow a player from table to table: the profile's form sends
    both (``form=all``), the table's mute switch only ``sound``."""
    if request.POST.get("form") == "all":
        form = TablePreferencesForm(request.POST, instance=request.user)
        fields = list(form.fields)
    else:
        fields = [name for name in ("sound", "four_colour_deck") if name in request.POST]
        data = {name: request.POST[name] == "on" for name in fields}
        form = TablePreferencesForm({**{n: getattr(request.user, n) for n in
                                        ("sound", "four_colour_deck")}, **data},
                                    instance=request.user)
    if not fields or not form.is_valid():
        return HttpResponse(_("Send sound=on|off or four_colour_deck=on|off."), status=400)
    form.save()
    if request.htmx:
        return HttpResponse(status=204)
    messages.success(request, _("Your table settings are saved."))
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("games:lobby")
