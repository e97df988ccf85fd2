from django.urls import path, re_path

from . import consumers

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    re_path(r"", consumers.NoSuchSocket.as_asgi()),  # last: anything else is refused
]
