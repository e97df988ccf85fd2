from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from . import signals  # noqa: F401 -- connects the sign-in receivers
