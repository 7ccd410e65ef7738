"""A Bunko circle: its members and substitutes, its seasons of twelve months, who hosts each
month, the RSVPs, the substitutes asked, the hosts' swaps, and the nights played."""

from __future__ import annotations

import secrets
import zoneinfo
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.db import models
from django.utils import dates, timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from apps.circles.dates import add_months
from apps.core.codes import new_code
from apps.parties.models import Party
from apps.prizes.rules.categories import DEFAULT


def _nonce() -> str:
    return secrets.token_urlsafe(8)


def _default_timezone() -> str:
    return settings.TIME_ZONE


def _default_categories() -> list[dict]:
    return [category.to_json() for category in DEFAULT]


# Day and month names in the viewer's language (Django's own translations).
WEEKDAYS = list(dates.WEEKDAYS.items())
WEEKS = [(1, _("First")), (2, _("Second")), (3, _("Third")), (4, _("Fourth")), (5, _("Last"))]
# The usual night as a whole phrase for each week, so each language bends its ordinal as it
# must ("am dritten Donnerstag", "op de laatste donderdag").
USUAL_NIGHTS = {
    1: _("on the first {weekday} at {time}"),
    2: _("on the second {weekday} at {time}"),
    3: _("on the third {weekday} at {time}"),
    4: _("on the fourth {weekday} at {time}"),
    5: _("on the last {weekday} at {time}"),
}
MONTH_NAMES = [dates.MONTHS[month] for month in range(1, 13)]
# How long a night lasts in the calendar, and when it counts as over.
NIGHT_LENGTH = timedelta(hours=4)


def month_name(first: date) -> str:
    """ "March 2027" in the language of the moment."""
    return f"{MONTH_NAMES[first.month - 1]} {first.year}"


def season_name(start: date) -> str:
    """ "2027", or "Mar 2027 – Feb 2028" for a season that does not start in January."""
    if start.month == 1:
        return str(start.year)
    short = "SHORT_MONTH_YEAR_FORMAT"
    return f"{date_format(start, short)} – {date_format(add_months(start, 11), short)}"


def usual_night(week: int, weekday: int, at: time) -> str:
    """ "on the third Thursday at 19:00" in the language of the moment."""
    return str(USUAL_NIGHTS[week]).format(weekday=dates.WEEKDAYS[weekday], time=f"{at:%H:%M}")


class Circle(models.Model):
    """A group of friends who play Bunko once a month, each member hosting in turn."""

    code = models.CharField(max_length=8, unique=True, default=new_code)
    name = models.CharField(max_length=60)
    admin = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="circles_run"
    )
    # A new nonce makes every invite link given out before stale (a new calendar feed link).
    invite_nonce = models.CharField(max_length=16, default=_nonce)
    feed_nonce = models.CharField(max_length=16, default=_nonce)
    timezone = models.CharField(max_length=60, default=_default_timezone)
    # The circle's usual night ("on the third Thursday at 19:00"): each month's date to start with.
    week = models.PositiveSmallIntegerField(choices=WEEKS, default=3)
    weekday = models.PositiveSmallIntegerField(choices=WEEKDAYS, default=3)
    time = models.TimeField(default=time(19, 0))
    reminder_days = models.PositiveSmallIntegerField(default=3)
    answer_hours = models.PositiveSmallIntegerField(default=24)
    # The nights' options.
    rounds = models.PositiveSmallIntegerField(default=6)
    dice_mode = models.CharField(
        max_length=10, choices=Party.DiceMode.choices, default=Party.DiceMode.VIRTUAL
    )
    prize_categories = models.JSONField(default=_default_categories, blank=True)
    # Where the links in mails point (SITE_URL, else the address the admin last used).
    site_url = models.CharField(max_length=200, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.timezone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    def today(self):
        return timezone.now().astimezone(self.tz).date()

    @property
    def usual_night(self) -> str:
        return usual_night(self.week, self.weekday, self.time)

    @property
    def cookie_name(self) -> str:
        return f"circle_{self.code}"


class Member(models.Model):
    """A member of the circle (hosts a month, RSVPs) or a substitute (asked in order when a
    night is short of a multiple of 4). A phone knows its member by a signed link; a member
    may also have a login (to run their night on the laptop)."""

    class Kind(models.TextChoices):
        MEMBER = "member", _("Member")
        SUBSTITUTE = "substitute", _("Substitute")

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(max_length=30)
    email = models.EmailField(blank=True, default="")
    phone = models.CharField(max_length=30, blank=True, default="")
    address = models.CharField(
        max_length=200,
        blank=True,
        default="",
        help_text=_("Where the nights this member hosts are"),
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.MEMBER)
    position = models.PositiveIntegerField(default=0, help_text=_("The order of substitutes"))
    # Calendar months (1-12) this member cannot host.
    cannot_host = models.JSONField(default=list, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="circle_memberships",
    )
    # The language of this member's mails (en/nl/de): what their own pages speak, kept from
    # their phone, or the admin's when the admin added them. Empty: the product's default.
    language = models.CharField(max_length=8, blank=True, default="")
    # The language is the admin's guess (they added the member): the member's own browser
    # replaces it on their first visit; a language the member picks or their phone speaks
    # is never guessed.
    language_guessed = models.BooleanField(default=False)
    # A new nonce signs out every phone holding this member's link.
    nonce = models.CharField(max_length=16, default=_nonce)
    active = models.BooleanField(
        default=True, help_text=_("Off: left the circle (kept for the past)")
    )
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kind", "position", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["circle", "user"],
                condition=models.Q(user__isnull=False),
                name="one_member_per_user_and_circle",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_substitute(self) -> bool:
        return self.kind == self.Kind.SUBSTITUTE

    @property
    def blocked_names(self) -> list[str]:
        return [MONTH_NAMES[m - 1] for m in sorted(self.cannot_host)]


class Season(models.Model):
    """Twelve months of a circle, from the first of ``start``."""

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="seasons")
    start = models.DateField()
    planned_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start"]
        constraints = [
            models.UniqueConstraint(fields=["circle", "start"], name="unique_season_start"),
        ]

    def __str__(self) -> str:
        return f"{self.circle}: {self.name}"

    @property
    def name(self) -> str:
        return season_name(self.start)

    @property
    def end(self):
        month = self.start.month + 10
        return self.start.replace(year=self.start.year + month // 12, month=month % 12 + 1)


class Month(models.Model):
    """One month of a season: its night's date, time and place, its hosts, the host's
    checklist, and once started, its party night."""

    class Fill(models.TextChoices):
        SUBSTITUTES = "substitutes", _("Substitutes from the circle's list")
        GHOSTS = "ghosts", _("Ghost seats (the app rolls for them)")
        SITOUTS = "sitouts", _("Sit-outs (players rest a round in turn)")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="months")
    index = models.PositiveSmallIntegerField()  # 0-11 within the season
    first = models.DateField(help_text=_("The first day of the calendar month"))
    date = models.DateField()
    time = models.TimeField()
    # Empty: the first host's address.
    place = models.CharField(max_length=200, blank=True, default="")
    host_note = models.CharField(max_length=300, blank=True, default="")
    hosts = models.ManyToManyField(Member, through="Hosting", related_name="months_hosted")
    # The host's checklist (the rules: 'Providing a place to play (with tables). Dinner /
    # snacks / beverages. Providing prizes. Finding substitutes.'); substitutes is counted.
    place_ready = models.BooleanField(default=False)
    food_ready = models.BooleanField(default=False)
    prizes_ready = models.BooleanField(default=False)
    fill = models.CharField(max_length=12, choices=Fill.choices, default=Fill.SUBSTITUTES)
    party = models.OneToOneField(
        "parties.Party",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="circle_month",
    )
    revision = models.PositiveIntegerField(default=0)  # the calendar's SEQUENCE
    reminded_at = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["season", "index"]
        constraints = [
            models.UniqueConstraint(fields=["season", "index"], name="unique_month_index"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.season.circle})"

    @property
    def name(self) -> str:
        return month_name(self.first)

    @property
    def short_name(self) -> str:
        return date_format(self.first, "SHORT_MONTH_FORMAT")

    @property
    def starts_at(self) -> datetime:
        return datetime.combine(self.date, self.time, tzinfo=self.season.circle.tz)

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + NIGHT_LENGTH

    @property
    def started(self) -> bool:
        return self.party_id is not None

    def is_past(self, now: datetime | None = None) -> bool:
        """The night's evening is over (played or not)."""
        return (now or timezone.now()) >= self.ends_at


class Hosting(models.Model):
    """A member hosting a month; with more members than months some months have two."""

    month = models.ForeignKey(Month, on_delete=models.CASCADE, related_name="hostings")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="hostings")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["month", "member"], name="unique_hosting"),
        ]

    def __str__(self) -> str:
        return f"{self.member} hosts {self.month.name}"


class Rsvp(models.Model):
    class Answer(models.TextChoices):
        YES = "yes", _("Coming")
        NO = "no", _("Not coming")
        MAYBE = "maybe", _("Maybe")

    month = models.ForeignKey(Month, on_delete=models.CASCADE, related_name="rsvps")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rsvps")
    answer = models.CharField(max_length=5, choices=Answer.choices)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["member__name"]
        constraints = [
            models.UniqueConstraint(fields=["month", "member"], name="unique_rsvp"),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.get_answer_display()} ({self.month.name})"


class SubstituteAsk(models.Model):
    """A substitute asked to fill a seat of a month's night, with a link to accept or
    decline by ``due_at``; when they decline or the time runs out, the next one is asked."""

    class Status(models.TextChoices):
        ASKED = "asked", _("Asked, no answer yet")
        ACCEPTED = "accepted", _("Coming")
        DECLINED = "declined", _("Can't come")
        EXPIRED = "expired", _("Did not answer in time")
        WITHDRAWN = "withdrawn", _("No longer needed")

    month = models.ForeignKey(Month, on_delete=models.CASCADE, related_name="asks")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="asks")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ASKED)
    nonce = models.CharField(max_length=16, default=_nonce)
    asked_at = models.DateTimeField(default=timezone.now)
    due_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["asked_at", "id"]

    def __str__(self) -> str:
        return f"{self.member} for {self.month.name}: {self.get_status_display()}"

    @property
    def open(self) -> bool:
        return self.status == self.Status.ASKED

    @property
    def short_status(self) -> str:
        """The status in a few words, for a badge beside the name."""
        return {
            self.Status.ASKED: pgettext("a substitute's answer", "asked"),
            self.Status.ACCEPTED: pgettext("a substitute's answer", "coming"),
            self.Status.DECLINED: pgettext("a substitute's answer", "can't come"),
            self.Status.EXPIRED: pgettext("a substitute's answer", "no answer in time"),
            self.Status.WITHDRAWN: pgettext("a substitute's answer", "not needed"),
        }[self.status]


class SwapRequest(models.Model):
    """A host asks another host to exchange months; the other accepts on their phone."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Swapped")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Taken back")
        VOID = "void", _("No longer possible")

    from_month = models.ForeignKey(Month, on_delete=models.CASCADE, related_name="swaps_out")
    from_member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="swaps_asked")
    to_month = models.ForeignKey(Month, on_delete=models.CASCADE, related_name="swaps_in")
    to_member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="swaps_received")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return (
            f"{self.from_member} ({self.from_month.name}) <-> "
            f"{self.to_member} ({self.to_month.name}): {self.status}"
        )


class NightSeat(models.Model):
    """Which player of a month's party night a member is, so the night's results go to the
    right person whatever name they end up with at the party."""

    month = models.ForeignKey(Month, on_delete=models.CASCADE, related_name="seats")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="seats")
    player = models.OneToOneField(
        "parties.Player", on_delete=models.CASCADE, related_name="circle_seat"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["month", "member"], name="unique_night_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.member} is {self.player} at {self.month.name}"


class Activity(models.Model):
    """What changed in the circle, newest first, for the admin (swaps, removals, answers):
    what happened (``kind``) and to whom and when (``data``: names as typed, months by their
    first day), told in the reader's language when shown (apps.circles.activity). Lines kept
    before that have no kind, only their English ``text``."""

    circle = models.ForeignKey(Circle, on_delete=models.CASCADE, related_name="activities")
    month = models.ForeignKey(Month, null=True, blank=True, on_delete=models.SET_NULL)
    kind = models.CharField(max_length=30, blank=True, default="")
    data = models.JSONField(default=dict, blank=True)
    text = models.CharField(max_length=300, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "activities"

    def __str__(self) -> str:
        from apps.circles.activity import line  # (it reads the models)

        return line(self)
