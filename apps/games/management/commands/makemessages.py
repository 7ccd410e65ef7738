"""Django's makemessages, also reading ``N_("…")``: the pure modules (the games' rules) mark
sentences kept as data with it (apps.core.i18n.N_), and xgettext does not know that name."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
