from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from accounts.language import remember_language_on_sign_in

        user_logged_in.connect(remember_language_on_sign_in,
                               dispatch_uid="accounts-remember-language-on-sign-in")
