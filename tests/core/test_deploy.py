"""The production environment the README documents passes Django's deployment checks."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys

from tests.servers import ROOT


def documented_environment() -> dict[str, str]:
    """The lines of ``bunko.env`` in the README's "Bigger events" (the key made as they say)."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"cat > bunko\.env <<EOF\n(.*?)\n\s*EOF", readme, re.S)
    assert block, "the README shows the production environment"
    env = {}
    for line in block.group(1).splitlines():
        name, _, value = line.strip().partition("=")
        env[name] = value
    assert env["SECRET_KEY"].startswith("$(python3 -c 'import secrets")
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    return env


def test_check_deploy_is_clean_with_the_documented_production_environment(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(documented_environment(), BUNKO_DATA_DIR=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_behind_the_https_proxy_the_forwarded_scheme_and_secure_cookies_are_set(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(documented_environment(), BUNKO_DATA_DIR=str(tmp_path))
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_PROXY_SSL_HEADER, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.LANGUAGE_COOKIE_SECURE, s.HTTPS, s.SECURE_HSTS_SECONDS > 0, "
        "s.TRUSTED_PROXY, s.DEBUG)"
    )
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.stdout.strip() == (
        "('HTTP_X_FORWARDED_PROTO', 'https') True True True True True True True False"
    ), out.stderr
