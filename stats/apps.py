from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = _("Statistics")

    def ready(self):
        from games.kinds import kind_for
        from games.signals import game_finished

        def record(sender, game, state, **kwargs):
            # each game kind names its own recorder: Brag is counted apart from Stop the Bus
            kind_for(game).hook("stats_recorder")(game, state)

        # strong reference kept on the config: the receiver lives as long as the app
        self._record = record
        game_finished.connect(record, dispatch_uid="stats.record_finished_game")
