# The two commands of the README: `make run` and `make test`. Everything else sets them up.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum requirements.txt | cut -d' ' -f1)

.PHONY: run test bench screenshots lint format e2e-deps gettext messages clean

$(STAMP): requirements.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Bunko Night needs Python 3.11 or newer.")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

run: $(STAMP)
	$(PY) manage.py serve

# The browser tests drive Debian's Chromium; install it when this machine lacks it.
e2e-deps:
	@test -x /usr/bin/chromium || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

# Django's makemessages and compilemessages, and the catalogue test, run GNU gettext's tools.
gettext:
	@command -v msgfmt >/dev/null && command -v xgettext >/dev/null || { \
	  echo "Installing Debian's gettext for the translation catalogues"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq gettext; }

# Two pytest-xdist workers each; the browser tests in a run of their own (Playwright's
# event loop must not outlive them in a process that then runs the async tests).
test: $(STAMP) e2e-deps gettext
	$(PY) -m pytest -n 2 --ignore=tests/e2e
	$(PY) -m pytest -n 2 tests/e2e

bench: $(STAMP)
	$(PY) -m pytest tests/bench -s -q -p no:cacheprovider --override-ini addopts=

# The pictures in docs/screenshots, taken by the browser tests (a test run never writes them).
screenshots: $(STAMP) e2e-deps
	BUNKO_SCREENSHOTS=$(CURDIR)/docs/screenshots $(PY) -m pytest tests/e2e -q

# The catalogues after a change of words: new sentences into locale/*/django.po (and each app's
# own locale/), then, once translated, the compiled .mo files the product reads.
messages: $(STAMP) gettext
	$(PY) manage.py makemessages -l nl -l de -i tests -i docs -i $(VENV) -i .data
	$(PY) manage.py compilemessages -i $(VENV)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) .data .pytest_cache
