"""Every change to a circle: one function per action, each in one transaction.

Changes to who is in the circle and who hosts what lock the circle's row; changes to one
month's night (RSVPs, substitutes, the checklist, starting it) lock the month's row. A refused
change raises ``Refused`` with the sentence the person reads, and nothing changes.
"""

from __future__ import annotations

from apps.core.errors import Refused

from .circle import (
    create_circle,
    invite_circle,
    new_feed_link,
    new_invite_links,
    new_season,
    send_invitations,
    update_circle,
)
from .common import clean_name, day_name, remember_site
from .members import (
    add_member,
    give_login,
    join_circle,
    move_substitute,
    remove_member,
    reset_member_link,
    set_kind,
    set_member_language,
    update_member,
)
from .nights import (
    answer_ask,
    arrive,
    ask_of,
    ask_substitutes,
    may_start,
    set_checklist,
    set_fill,
    set_rsvp,
    start_night,
)
from .season import answer_swap, cancel_swap, edit_month, plan_season, request_swap
from .timed import fire_deadline

__all__ = [
    "Refused",
    "add_member",
    "answer_ask",
    "answer_swap",
    "arrive",
    "ask_of",
    "ask_substitutes",
    "cancel_swap",
    "clean_name",
    "create_circle",
    "day_name",
    "edit_month",
    "fire_deadline",
    "give_login",
    "invite_circle",
    "join_circle",
    "may_start",
    "move_substitute",
    "new_feed_link",
    "new_invite_links",
    "new_season",
    "plan_season",
    "remember_site",
    "remove_member",
    "request_swap",
    "reset_member_link",
    "send_invitations",
    "set_checklist",
    "set_fill",
    "set_kind",
    "set_member_language",
    "set_rsvp",
    "start_night",
    "update_circle",
    "update_member",
]
