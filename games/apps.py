from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = pgettext_lazy("app", "Games")

    def ready(self):
        from . import signals  # noqa: F401 -- connects the sign-in receivers
