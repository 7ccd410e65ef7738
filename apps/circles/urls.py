from __future__ import annotations

from django.urls import path

from apps.circles.views import circle, months, people, season

app_name = "circles"

month = "<str:code>/months/<int:month_id>/"

urlpatterns = [
    path("", circle.circle_list, name="list"),
    path("new/", circle.new_circle, name="new"),
    path("sub/<str:token>/", months.substitute_answer, name="ask"),
    path("<str:code>/", circle.circle_page, name="circle"),
    path("<str:code>/plan/<int:season_id>/", circle.plan, name="plan"),
    path("<str:code>/seasons/new/", circle.new_season, name="new_season"),
    path("<str:code>/settings/", circle.settings_page, name="settings"),
    path("<str:code>/settings/prizes/", circle.prizes, name="prizes"),
    path("<str:code>/settings/calendar/", circle.new_feed, name="new_feed"),
    path("<str:code>/calendar/<str:token>.ics", season.calendar, name="calendar"),
    path("<str:code>/standings/", season.standings_page, name="standings"),
    path("<str:code>/standings/<int:member_id>/", season.history, name="history"),
    # people
    path("<str:code>/join/<str:token>/", people.join, name="join"),
    path("<str:code>/m/<str:token>/", people.member_link, name="member_link"),
    path("<str:code>/me/", people.me, name="me"),
    path("<str:code>/me/login/", people.signup, name="signup"),
    path("<str:code>/me/forget/", people.forget, name="forget"),
    path("<str:code>/members/", people.members, name="members"),
    path("<str:code>/members/add/", people.add_member, name="add_member"),
    path("<str:code>/members/move/", people.move_substitute, name="move_substitute"),
    path("<str:code>/members/kind/", people.set_kind, name="set_kind"),
    path("<str:code>/members/remove/", people.remove_member, name="remove_member"),
    path("<str:code>/members/invites/", people.new_invites, name="new_invites"),
    path("<str:code>/members/invites/mail/", people.mail_invites, name="mail_invites"),
    path("<str:code>/members/<int:member_id>/", people.member_page, name="member"),
    path("<str:code>/members/<int:member_id>/link/", people.reset_link, name="reset_link"),
    path("<str:code>/members/<int:member_id>/login/", people.admin_login, name="admin_login"),
    # a month's night
    path(month, months.month_page, name="month"),
    path(month + "edit/", months.edit_month, name="edit_month"),
    path(month + "rsvp/", months.rsvp, name="rsvp"),
    path(month + "checklist/", months.tick, name="tick"),
    path(month + "fill/", months.fill, name="fill"),
    path(month + "substitutes/", months.ask, name="ask_substitutes"),
    path(month + "start/", months.start, name="start"),
    path(month + "arrive/", months.arrive, name="arrive"),
    # swaps
    path("<str:code>/swaps/ask/", months.request_swap, name="request_swap"),
    path("<str:code>/swaps/answer/", months.answer_swap, name="answer_swap"),
    path("<str:code>/swaps/cancel/", months.cancel_swap, name="cancel_swap"),
]
