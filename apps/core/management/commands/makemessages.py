"""Django's makemessages, also collecting the sentences the pure modules keep as data
(``N_("…")`` in apps.core.i18n, translated where they are shown)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
