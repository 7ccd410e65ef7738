from __future__ import annotations

from django.urls import path

from apps.circles.views import circle, me, months, people, season

app_name = "circles"

month = "<code:code>/months/<int:month_id>/"

urlpatterns = [
    path("", circle.circle_list, name="list"),
    path("new/", circle.new_circle, name="new"),
    path("sub/<str:token>/", months.substitute_answer, name="ask"),
    path("<code:code>/", circle.circle_page, name="circle"),
    path("<code:code>/plan/<int:season_id>/", circle.plan, name="plan"),
    path("<code:code>/seasons/new/", circle.new_season, name="new_season"),
    path("<code:code>/settings/", circle.settings_page, name="settings"),
    path("<code:code>/settings/prizes/", circle.prizes, name="prizes"),
    path("<code:code>/settings/calendar/", circle.new_feed, name="new_feed"),
    path("<code:code>/calendar/<str:token>.ics", season.calendar, name="calendar"),
    path("<code:code>/standings/", season.standings_page, name="standings"),
    path("<code:code>/standings/<int:member_id>/", season.history, name="history"),
    # people
    path("<code:code>/join/<str:token>/", people.join, name="join"),
    path("<code:code>/m/<str:token>/", people.member_link, name="member_link"),
    path("<code:code>/me/", me.me, name="me"),
    path("<code:code>/me/language/", me.language, name="language"),
    path("<code:code>/me/login/", me.signup, name="signup"),
    path("<code:code>/me/forget/", me.forget, name="forget"),
    path("<code:code>/members/", people.members, name="members"),
    path("<code:code>/members/add/", people.add_member, name="add_member"),
    path("<code:code>/members/move/", people.move_substitute, name="move_substitute"),
    path("<code:code>/members/kind/", people.set_kind, name="set_kind"),
    path("<code:code>/members/remove/", people.remove_member, name="remove_member"),
    path("<code:code>/members/invites/", people.new_invites, name="new_invites"),
    path("<code:code>/members/invites/mail/", people.mail_invites, name="mail_invites"),
    path("<code:code>/members/<int:member_id>/", people.member_page, name="member"),
    path("<code:code>/members/<int:member_id>/link/", people.reset_link, name="reset_link"),
    path("<code:code>/members/<int:member_id>/login/", people.admin_login, name="admin_login"),
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
    path("<code:code>/swaps/ask/", months.request_swap, name="request_swap"),
    path("<code:code>/swaps/answer/", months.answer_swap, name="answer_swap"),
    path("<code:code>/swaps/cancel/", months.cancel_swap, name="cancel_swap"),
]
