from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games import event_text

from .models import PlayerGame, PlayerStats


@admin.register(PlayerStats)
class PlayerStatsAdmin(admin.ModelAdmin):
    """Read-only: the rows are written when games end (or by ``rebuild_stats``)."""

    list_display = ("user", "variant", "games", "wins", "rating", "rated_games",
                    "last_played_at")
    list_filter = ("variant",)
    search_fields = ("user__username",)
    list_select_related = ("user", "variant")
    raw_id_fields = ("user", "best_hand_game")
    # The best hand in the reader's words (as the profile says it), not as recorded.
    exclude = ("best_hand_description", "best_hand_category")
    readonly_fields = ("best_hand_in_words",)

    @admin.display(description=_("best hand"))
    def best_hand_in_words(self, stats):
        if not stats.best_hand_category:
            return stats.best_hand_description or None
        ranking = stats.variant.ranking if stats.variant_id else "brag"
        return event_text.hand_words(stats.best_hand_category, stats.best_hand, ranking)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(PlayerGame)
class PlayerGameAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "variant", "place", "players", "rated", "rating_after",
                    "finished_at")
    list_filter = ("variant", "rated")
    search_fields = ("user__username",)
    list_select_related = ("user", "variant", "game__table")
    raw_id_fields = ("user", "game")
    date_hierarchy = "finished_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
