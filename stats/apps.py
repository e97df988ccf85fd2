from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = "Statistics"

    def ready(self):
        from games.signals import game_finished

        from .recording import record_finished_game

        def record(sender, game, state, **kwargs):
            record_finished_game(game, state)

        # strong reference kept on the config: the receiver lives as long as the app
        self._record = record
        game_finished.connect(record, dispatch_uid="stats.record_finished_game")
