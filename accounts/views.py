from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.urls import reverse_lazy
from django.views.generic import FormView, UpdateView

from accounts.forms import EmailChangeForm, SignUpForm
from accounts.models import User


class SignUpView(FormView):
    template_name = "accounts/signup.html"
    form_class = SignUpForm
    success_url = "/"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            return redirect("/")
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        user = form.save()
        # The backend must be named because several are configured; the new
        # account's password was just set, so there is nothing for axes to check.
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(self.request, f"Welcome aboard, {user.username}! Your account is ready.")
        return super().form_valid(form)


class ProfileView(LoginRequiredMixin, UpdateView):
    """The player's own account page: who they are, and where their mail goes."""

    template_name = "accounts/profile.html"
    form_class = EmailChangeForm
    context_object_name = "account"
    success_url = reverse_lazy("accounts:profile")

    def get_object(self, queryset=None):
        # A copy, so a rejected edit never shows up as the signed-in user's details.
        return User.objects.get(pk=self.request.user.pk)

    def form_valid(self, form):
        messages.success(self.request, "Your email address has been updated.")
        return super().form_valid(form)
