from django.contrib import admin

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
