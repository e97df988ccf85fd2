from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm

from accounts.forms import EMAIL_TAKEN, check_username, email_taken
from accounts.models import User


class AdminCreationFormWithEmail(AdminUserCreationForm):
    class Meta(AdminUserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self):
        username = super().clean_username()
        if username and not self.has_error("username"):  # an exact duplicate says so already
            check_username(username)
        return username

    def clean_email(self):
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if email_taken(email):
            raise forms.ValidationError(EMAIL_TAKEN, code="email_taken")
        return email


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    add_form = AdminCreationFormWithEmail
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("username", "email", "usable_password", "password1", "password2"),
            },
        ),
    )
