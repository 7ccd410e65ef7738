"""The awards ceremony and the prize categories as pure rules (no Django imports): the
categories (categories.py), how each step settles a prize (steps.py) and the protocol around
them (settlement.py)."""
