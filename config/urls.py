from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from apps.core.signin import signin

urlpatterns = [
    path("", include("apps.core.urls")),
    path("", include("apps.games.urls")),
    path("", include("apps.prizes.urls")),
    path("", include("apps.parties.urls")),
    path("c/", include("apps.circles.urls")),
    path("signin/", signin, name="login"),
    path("signout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]
