"""Settings, driven by the environment.

With no environment at all the app runs as a party laptop needs it: SQLite in WAL mode,
the in-memory channel layer, static files served by the app itself, DEBUG off.
DATABASE_URL (PostgreSQL) and REDIS_URL (channels-redis) switch to the scale-out stack.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url

from apps.core.network import LaptopHosts

BASE_DIR = Path(__file__).resolve().parent.parent
# Every file the app writes (the database and its journal, the secret key, the collected
# static files) is readable by the laptop's own account only: the database holds the
# hands of the running games and everyone's seat tokens' secrets.
os.umask(0o077)
# Where the embedded database and the generated secret key live; git ignores it.
DATA_DIR = Path(os.environ.get("BUNKO_DATA_DIR", BASE_DIR / ".data"))
DATA_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)


def _private(path: Path, mode: int) -> None:
    """An install made before the umask above gets its modes put right."""
    try:
        if path.stat().st_mode & 0o077:
            path.chmod(mode)
    except OSError:
        pass  # not ours (a shared folder named by BUNKO_DATA_DIR): leave it as it is


_private(DATA_DIR, 0o700)
for _file in DATA_DIR.glob("bunko.sqlite3*"):
    _private(_file, 0o600)


def _env_flag(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def _secret_key() -> str:
    """A stable key per install, so seat tokens survive a restart of the laptop."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    path = DATA_DIR / "secret_key"
    try:
        # Created with its mode in one step: the key is never readable by others, not even
        # for a moment, and two processes starting together keep the first one's key.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        _private(path, 0o600)
        return path.read_text().strip()
    with os.fdopen(fd, "w") as file:
        file.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = _env_flag("DEBUG")
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
# The address phones use, when a proxy stands in front (otherwise the laptop's LAN address).
PUBLIC_URL = os.environ.get("PUBLIC_URL", "")
# Phones reach the laptop by whatever LAN address it has tonight: the laptop's own names
# and addresses are allowed as they are now (apps/core/network.py), plus the names the
# deployment lists (ALLOWED_HOSTS, and the hosts of PUBLIC_URL and SITE_URL). Any other Host
# is refused, so a web page cannot reach the laptop through a name of its own (DNS rebinding).
ALLOWED_HOSTS = LaptopHosts(
    [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    + [
        host
        for url in (PUBLIC_URL, os.environ.get("SITE_URL", ""))
        if (host := (urlsplit(url).hostname or "")) and url
    ]
)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "apps.core",
    "apps.parties",
    "apps.prizes",
    "apps.circles",
    "apps.games",
    "apps.games.mbogo",
    "apps.games.bonje",
    "apps.games.dschungel",
]

# The party games a room can hold: packages with a game.py (apps/games/<game>/). The test
# suite adds a toy game through BUNKO_EXTRA_GAMES.
GAMES = [
    "apps.games.mbogo",
    "apps.games.bonje",
    "apps.games.dschungel",
    *[p for p in os.environ.get("BUNKO_EXTRA_GAMES", "").split(",") if p],
]

MIDDLEWARE = [
    # First, so it closes what every later part of the request opened.
    "apps.core.connections.CloseConnectionsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "apps.core.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "apps.core.middleware.SpeakingMiddleware",
    "apps.core.middleware.StyledMethodNotAllowedMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After sign-in: a signed-in host is a browser the limits know (apps/core/limits.py).
    "apps.core.limits.GuessingMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
# The big screen shows a party game inside itself; no other site may frame a page.
X_FRAME_OPTIONS = "SAMEORIGIN"
SILENCED_SYSTEM_CHECKS = ["security.W019"]  # DENY would blank the game on the big screen

# HTTPS=1 behind an HTTPS reverse proxy (README, "Bigger events"): the proxy says the
# request came over HTTPS in X-Forwarded-Proto (it must set that header itself, replacing
# any a client sent), plain HTTP is sent over, and cookies travel over HTTPS only. Off on a
# party laptop, which phones reach over the venue's plain-HTTP Wi-Fi.
HTTPS = _env_flag("HTTPS")
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True  # the app's own cookies follow HTTPS (apps/core/cookies.py)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = _env_flag("SECURE_HSTS_PRELOAD", True)
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # {% partialdef %} everywhere, as Django 6 will have it built in.
            "builtins": [
                "template_partials.templatetags.partials",
                "apps.core.templatetags.live",
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# The most connections to PostgreSQL one server process holds. Four processes (the README's
# bigger events) hold at most 80 of PostgreSQL's default 100, leaving room for `manage.py`
# and a psql of the host's; a request beyond them waits for a free one (DATABASE_POOL_WAIT
# seconds at most) instead of failing.
DATABASE_POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "20"))
DATABASE_POOL_WAIT = float(os.environ.get("DATABASE_POOL_WAIT", "30"))

if database_url := os.environ.get("DATABASE_URL"):
    # Pooled, not persistent: under ASGI every request runs in a thread of its own, and a
    # connection kept per thread piles up until PostgreSQL refuses everyone (Django's docs
    # say to turn persistent connections off under ASGI and use the backend's pool). Every
    # request and every socket's database call hands its connection back when it is done.
    DATABASES = {
        "default": dj_database_url.parse(database_url, conn_max_age=0, conn_health_checks=True)
    }
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": DATABASE_POOL_SIZE,
        "timeout": DATABASE_POOL_WAIT,
        # Idle connections beyond min_size go back to PostgreSQL after five minutes.
        "max_idle": 300,
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "bunko.sqlite3",
            # Kept open: opening the file and setting WAL per tap is measurable at 100 tables.
            "CONN_MAX_AGE": 600,
            "OPTIONS": {
                # WAL lets the big screen read while a phone writes; IMMEDIATE takes the write
                # lock at BEGIN so two taps never deadlock on a lock upgrade.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }


# The fast path (apps/fastpath): a tap's SQL written out once and channel layers tuned for a
# big night. FAST_PATH=off runs the ORM and Channels' stock layers instead, as slow as they are.
FAST_PATH = os.environ.get("FAST_PATH", "on").strip().lower() not in {"off", "0", "false", "no"}


def redis_layer(url: str) -> dict:
    """The channel layer on Redis at ``url``, for several daphne processes."""
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff

    return {
        # Publish/subscribe between the processes (see apps/fastpath/redis_layer.py).
        "BACKEND": "apps.fastpath.redis_layer.ScaleOutChannelLayer"
        if FAST_PATH
        else "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            # Redis's publish/subscribe knows no database numbers: the number in the URL
            # goes into the names, so events on one Redis stay apart as their keys do.
            "prefix": f"bunko{urlsplit(url).path.strip('/') or '0'}:",
            "hosts": [
                {
                    "address": url,
                    # The subscriptions' reader polls every 0.1 s, so no read blocks for
                    # long; a Redis that stops answering fails a command after this.
                    "socket_timeout": 10,
                    "socket_connect_timeout": 5,
                    "socket_keepalive": True,
                    "health_check_interval": 15,
                    # redis-py refuses the 101st connection at once (its default cap):
                    # hundreds of phones leaving together each need one for a moment.
                    "max_connections": 1000,
                    # After Redis restarts, the connections kept from before are closed: a
                    # command that meets one tries again on a new one (redis-py's default is
                    # not to), instead of refusing the first phones that reconnect.
                    "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 3),
                }
            ],
        },
    }


if redis_url := os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {"default": redis_layer(redis_url)}
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "apps.fastpath.memory_layer.PartyChannelLayer"
            if FAST_PATH
            else "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 1000},
        }
    }

# The rate limits (apps/core/limits.py) count in this cache: shared by every server process
# on the scale-out stack, the process's own memory otherwise.
if redis_url:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "bunko",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# RATE_LIMITS=off turns the limits off (load benchmarks that play 400 phones from one address).
RATE_LIMITS_ON = os.environ.get("RATE_LIMITS", "on").strip().lower() != "off"
# On behind a reverse proxy that appends the client's address to X-Forwarded-For (the
# "Bigger events" setup): the limits then count that address, not the proxy's.
TRUSTED_PROXY = _env_flag("TRUSTED_PROXY")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# English, Dutch and German (two of the party games come from the Netherlands and Germany).
LANGUAGES = [("en", "English"), ("nl", "Nederlands"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Each language's way of writing a date, by name (apps/core/formats/<lang>/formats.py).
FORMAT_MODULE_PATH = ["apps.core.formats"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365  # a phone keeps its language
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "apps.core.storage.StaticStorage"},
}
# `make run` collects (and compresses) the static files first; until then the apps' own
# static folders serve.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

SESSION_COOKIE_AGE = 60 * 60 * 24 * 60  # a phone stays its player for the season
# Bots think for the time their level says, times this (0: bots move as soon as they may).
GAME_BOT_PACE = float(os.environ.get("GAME_BOT_PACE", "1"))
GAME_BOT_TAKEOVER = float(os.environ.get("GAME_BOT_TAKEOVER", "60"))  # gone this long: a bot plays
# A seat claimed by a phone that has not opened the room this long is free again.
SEAT_OPEN_TIMEOUT = float(os.environ.get("SEAT_OPEN_TIMEOUT", "45"))
# Every server process stamps the seats it has open sockets for this often (seconds), and
# looks for deadlines armed by other processes at least this often (SCHEDULER_POLL).
PRESENCE_HEARTBEAT = float(os.environ.get("PRESENCE_HEARTBEAT", "5"))
SCHEDULER_POLL = float(os.environ.get("SCHEDULER_POLL", "1"))
# A socket whose reader has this many bytes waiting (beyond what the network holds) is closed
# (apps/core/slow_readers.py): a big screen's whole page at a hundred tables is a tenth of it.
SOCKET_SEND_BACKLOG = int(os.environ.get("SOCKET_SEND_BACKLOG", str(1024 * 1024)))

# Mail (the circles' invitations, schedules, substitute requests and reminders): printed on
# the console unless EMAIL_HOST names an SMTP server.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_SSL = _env_flag("EMAIL_USE_SSL")
    EMAIL_USE_TLS = _env_flag("EMAIL_USE_TLS", not EMAIL_USE_SSL)
    EMAIL_TIMEOUT = 20
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Bunko Night <bunko@localhost>")
# Where the links in mails point ("https://bunko.example.org"); unset: the address the
# circle's admin last used.
SITE_URL = os.environ.get("SITE_URL", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
