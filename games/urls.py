from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rules/", views.rules_page, name="rules"),
    path("tables/new/", views.create_table, name="create_table"),
    path("tables/play-now/", views.play_now, name="play_now"),
    path("t/<int:table_id>/", views.table_page, name="table"),
    path("t/<int:table_id>/join/", views.join, name="join"),
    path("t/<int:table_id>/leave/", views.leave, name="leave"),
    path("t/<int:table_id>/bots/", views.add_bot, name="add_bot"),
    path("t/<int:table_id>/bots/<int:position>/remove/", views.remove_bot, name="remove_bot"),
    path("t/<int:table_id>/start/", views.start, name="start"),
    path("t/<int:table_id>/invite/", views.invite_player, name="invite_player"),
    path("t/<int:table_id>/invite/<int:user_id>/withdraw/", views.withdraw_invite,
         name="withdraw_invite"),
    path("t/<int:table_id>/spectators/", views.spectators, name="spectators"),
    path("t/<int:table_id>/again/", views.play_again, name="play_again"),
    path("invite/<slug:code>/", views.invite, name="invite"),  # token_urlsafe codes
    path("turns/", views.turns_page, name="turns"),
    path("turns/next/", views.next_table, name="next_table"),
    path("t/<int:table_id>/skip/", views.skip_table, name="skip_table"),
    path("t/<int:table_id>/back/", views.take_seat_back, name="take_seat_back"),
]
