from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User

EMAIL_TAKEN = "An account with this email address already exists."


def email_taken(email, *, exclude_pk=None):
    """True if another account already uses this address, in any letter case."""
    others = User.objects.filter(email__iexact=email)
    if exclude_pk is not None:
        others = others.exclude(pk=exclude_pk)
    return others.exists()


class SignUpForm(UserCreationForm):
    """Username, email and a password typed twice.

    UserCreationForm already refuses usernames that differ only in case and runs
    every validator in AUTH_PASSWORD_VALIDATORS.
    """

    email = forms.EmailField(
        label="Email address",
        max_length=254,
        help_text="Only used to reset your password. Never shown to other players.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self):
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if email_taken(email):
            raise forms.ValidationError(EMAIL_TAKEN, code="email_taken")
        return email


class EmailChangeForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("email",)
        labels = {"email": "Email address"}
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email"})}

    def clean_email(self):
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if email_taken(email, exclude_pk=self.instance.pk):
            raise forms.ValidationError(EMAIL_TAKEN, code="email_taken")
        return email


class TablePreferencesForm(forms.ModelForm):
    """How the table looks and sounds to a player (the profile's "At the table")."""

    class Meta:
        model = User
        fields = ("four_colour_deck", "sound")
