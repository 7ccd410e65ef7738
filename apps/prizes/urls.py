from __future__ import annotations

from django.urls import path

from apps.prizes import views

urlpatterns = [
    path("p/<code:code>/host/prizes/", views.night_prizes, name="night_prizes"),
    path("p/<code:code>/host/awards/", views.awards_step, name="awards_step"),
]
