from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from accounts import views as accounts_views
from accounts.language import set_language


class FaviconView(RedirectView):
    """Browsers ask for /favicon.ico whatever the page says."""

    permanent = True

    def get_redirect_url(self, *args, **kwargs):
        return static("favicon.svg")  # at request time: the manifest exists by then


urlpatterns = [
    path("", include("games.urls")),
    path("", include("stats.urls")),
    path("", include("notify.urls")),
    path("accounts/", include("accounts.urls")),
    # the table preferences' first address: pages loaded before they moved to accounts
    # still post there, and a redirect would lose the POST
    path("preferences/", accounts_views.preferences),
    # the reset mail in its reader's language, within the mail limits; the rest of the
    # reset is Django's own
    path("accounts/password_reset/", accounts_views.PasswordResetView.as_view(),
         name="password_reset"),
    # a failed log-in puts the cursor in the password field; a visitor who came for a
    # table is told which
    path("accounts/login/", accounts_views.LogInView.as_view(), name="login"),
    # logout, password_change(_done), password_reset(_done|_confirm|_complete)
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", set_language, name="set_language"),
    path("favicon.ico", FaviconView.as_view()),
]
