"""axe-core (the copy the axe-playwright-python package ships) in the browser tests: a page,
or a live fragment just swapped in, passes when it has no serious or critical violation."""

from __future__ import annotations

from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import Page

BLOCKING = {"serious", "critical"}
RUN = """async (within) => {
  const results = await axe.run(within || document, { resultTypes: ["violations"] });
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    where: v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; "),
  }));
}"""


def violations(page: Page, within: str | None = None) -> list[str]:
    """The serious and critical violations on the page (or inside the ``within`` selector)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)  # once per document, not once per check
    found = page.evaluate(RUN, within)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {v['where']}"
        for v in found
        if v["impact"] in BLOCKING
    ]


def assert_accessible(page: Page, within: str | None = None) -> None:
    found = violations(page, within)
    assert not found, f"axe on {page.url}:\n" + "\n".join(found)
