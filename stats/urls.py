from django.urls import path

from . import views

app_name = "stats"

urlpatterns = [
    path("stats/", views.mine, name="mine"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("u/<str:username>/", views.profile, name="profile"),
    path("u/<str:username>/games/", views.history, name="history"),
    path("u/<str:a>/vs/<str:b>/", views.head_to_head, name="head_to_head"),
    path("games/<int:game_id>/replay/", views.game_replay, name="replay"),
]
