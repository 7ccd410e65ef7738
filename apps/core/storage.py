"""Static files as the laptop serves them: compressed, and named by their content so that
browsers may keep them for a year (``make run`` collects them before serving)."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def stored_name(self, name: str) -> str:
        # A file not collected yet (tests, a developer's first page) is served by its plain
        # name from the app's own static folder.
        try:
            return super().stored_name(name)
        except ValueError:
            return name
