from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("accounts.urls")),
    # login, logout, password_change(_done), password_reset(_done|_confirm|_complete)
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
