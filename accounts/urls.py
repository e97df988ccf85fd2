from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.SignUpView.as_view(), name="signup"),
    path("signup/sent/", views.SignUpSentView.as_view(), name="signup_sent"),
    # secrets.token_urlsafe tokens
    path("signup/confirm/<slug:token>/", views.SignUpConfirmView.as_view(),
         name="signup_confirm"),
    path("guest/", views.play_as_guest, name="guest"),
    path("guest/leave/", views.guest_leave, name="guest_leave"),
    path("profile/", views.ProfileView.as_view(), name="profile"),
    path("preferences/", views.preferences, name="preferences"),
    path("holiday/", views.take_holiday, name="holiday"),
    path("email/confirm/<slug:token>/", views.EmailConfirmView.as_view(), name="email_confirm"),
]
