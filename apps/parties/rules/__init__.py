"""Bunko's rules as pure Python: one table's game (the common protocol), seating and rotation,
attendance, a whole night, and a simulator. Nothing here imports Django."""

from __future__ import annotations

from apps.core.protocol import IllegalAction

from .table import (
    TableState,
    apply,
    ghost_action,
    legal_actions,
    outcome,
    setup,
    view,
)

__all__ = [
    "IllegalAction",
    "TableState",
    "apply",
    "ghost_action",
    "legal_actions",
    "outcome",
    "setup",
    "view",
]
