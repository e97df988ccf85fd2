from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.forms.utils import ErrorList
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from accounts import mail_limits
from accounts.language import reader_language
from accounts.models import HOLIDAY_DAYS_A_YEAR, User
from accounts.names import reads_as_guest, validate_username

EMAIL_TAKEN = _("An account with this email address already exists.")


class AlertingErrorList(ErrorList):
    """Django's error lists, except that a form's own errors (not a field's: a refused
    log-in, too many sign-ups or resets from one network) are a list in a ``role="alert"`` box,
    so a screen reader says at once why the form came back."""

    def render(self, template_name=None, context=None, renderer=None):
        if (self.data and "nonfield" in self.error_class.split()
                and template_name in (None, self.template_name, self.template_name_ul)):
            # the alert is a box round the list: a list with a role is no list any more
            return format_html('<div class="errorlist-alert" role="alert">'
                               '<ul class="{}">{}</ul></div>', self.error_class,
                               format_html_join("", "<li>{}</li>", ((e,) for e in self)))
        return super().render(template_name, context, renderer)

    __str__ = __html__ = render  # the mixin binds its own render to these


class AlertingErrors:
    """A form whose own errors are said at once (:class:`AlertingErrorList`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("error_class", AlertingErrorList)
        super().__init__(*args, **kwargs)


def check_username(username, *, exclude_pk=None):
    """Refuse a username that reads as the room's own words or as someone else's name.

    Compares against every existing name: sign-up is rare next to play, and a
    look-alike can only be found by comparing skeletons.
    """
    validate_username(username, _usernames(exclude_pk))


def _usernames(exclude_pk=None, batch=2000):
    """Every username, read in pages by primary key (no server-side cursor is left open
    when the caller stops at the first look-alike)."""
    after = 0
    while True:
        rows = User.objects.filter(pk__gt=after).order_by("pk")
        if exclude_pk is not None:
            rows = rows.exclude(pk=exclude_pk)
        page = list(rows.values_list("pk", "username")[:batch])
        yield from (name for _pk, name in page)
        if len(page) < batch:
            return
        after = page[-1][0]


def email_taken(email, *, exclude_pk=None):
    """True if another account already uses this address, in any letter case."""
    others = User.objects.filter(email__iexact=email)
    if exclude_pk is not None:
        others = others.exclude(pk=exclude_pk)
    return others.exists()


class SignUpForm(AlertingErrors, UserCreationForm):
    """Username, email and a password typed twice.

    UserCreationForm already refuses usernames that differ only in case and runs
    every validator in AUTH_PASSWORD_VALIDATORS; :func:`check_username` adds
    look-alikes and reserved names.
    """

    email = forms.EmailField(
        label=_("Email address"),
        max_length=254,
        help_text=_("Only used to reset your password. Never shown to other players."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self):
        username = super().clean_username()
        if username and not self.has_error("username"):  # an exact duplicate says so already
            if reads_as_guest(username):
                raise forms.ValidationError(
                    _("Names like “Guest 4821” are given to guests. Pick another name."),
                    code="guest_name")
            check_username(username)
        return username

    def clean_email(self):
        # A taken address is no error here: saying so would tell anyone which addresses
        # have accounts. The view mails the address's owner instead.
        return User.objects.normalize_email(self.cleaned_data["email"])

    def _get_validation_exclusions(self):
        # ...and the model's unique constraint on the address would say it all the same.
        return {*super()._get_validation_exclusions(), "email"}


class EmailChangeForm(AlertingErrors, forms.ModelForm):
    """A new address for the signed-in player. Whether another account has it is not
    said here (that would tell which addresses have accounts): the view mails the
    address instead, and only a link sent to it moves the account there."""

    class Meta:
        model = User
        fields = ("email",)
        labels = {"email": _("Email address")}
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email"})}

    def clean_email(self):
        return User.objects.normalize_email(self.cleaned_data["email"])

    def _get_validation_exclusions(self):
        # the unique constraint on the address would say it all the same
        return {*super()._get_validation_exclusions(), "email"}


class HolidayForm(AlertingErrors, forms.Form):
    """A holiday from post tables: its first day and how many days (the rules on days a
    year and overlaps are the action's, ``games.actions.post.do_take_holiday``)."""

    # a date input reads and shows ISO dates whatever the language ("27/11/2026" would
    # leave it blank)
    start = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"},
                                                                    format="%Y-%m-%d"),
                            help_text=_("The first day of your holiday."))
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=HOLIDAY_DAYS_A_YEAR,
                              initial=7, help_text=_("How many days, that one included."))


class TablePreferencesForm(forms.ModelForm):
    """How the table looks and sounds to a player (the profile's "At the table")."""

    class Meta:
        model = User
        fields = ("four_colour_deck", "sound", "turn_alerts")


class ReaderLanguagePasswordResetForm(AlertingErrors, PasswordResetForm):
    """Django's password reset, each mail in its account's saved language (else in the
    language of the page it was asked from), within the address's mail limit
    (``accounts.mail_limits``): past it, nothing is sent and the page is the same. (The
    limit on the client's requests is the view's: ``accounts.views.PasswordResetView``.)"""

    def send_mail(self, subject_template_name, email_template_name, context, from_email,
                  to_email, html_email_template_name=None):
        if not mail_limits.may_mail(to_email):
            return
        with translation.override(reader_language(context.get("user"))):
            super().send_mail(subject_template_name, email_template_name, context,
                              from_email, to_email,
                              html_email_template_name=html_email_template_name)


class LogInForm(AlertingErrors, AuthenticationForm):
    """Django's log-in form; after a failed try the name is kept, so the cursor goes to
    the password, the field to type in again."""

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        if self.is_bound and self.data.get("username"):
            self.fields["username"].widget.attrs.pop("autofocus", None)
            self.fields["password"].widget.attrs["autofocus"] = True
