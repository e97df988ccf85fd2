from django.urls import path

from . import views

app_name = "notify"

urlpatterns = [
    path("notifications/", views.notification_list, name="list"),
    path("notifications/read/", views.mark_read, name="read"),
    path("notifications/preferences/", views.preferences, name="preferences"),
    path("notifications/test/", views.send_test, name="test"),
    path("notifications/push/subscribe/", views.subscribe, name="subscribe"),
    path("notifications/push/unsubscribe/", views.unsubscribe, name="unsubscribe"),
    path("notifications/mute/<int:table_id>/", views.mute, name="mute"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
]
