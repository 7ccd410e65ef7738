"""The season planner: every member hosts once where the count allows, as evenly as it can
otherwise, never in a month they cannot host."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.circles.planner import Plan, plan_season

SEASON = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2]  # March to February


def names(count: int) -> list[str]:
    return [f"m{i}" for i in range(count)]


def counts(plan: Plan, members) -> list[int]:
    return [plan.count(m) for m in members]


def test_twelve_members_host_one_month_each():
    members = names(12)
    plan = plan_season(members, SEASON, {}, random.Random(1))
    assert counts(plan, members) == [1] * 12
    assert all(len(hosts) == 1 for hosts in plan.hosts.values())


def test_eight_members_fill_twelve_months_four_of_them_twice():
    members = names(8)
    plan = plan_season(members, SEASON, {}, random.Random(2))
    assert sorted(counts(plan, members)) == [1, 1, 1, 1, 2, 2, 2, 2]
    assert all(len(hosts) == 1 for hosts in plan.hosts.values())


def test_a_member_who_hosts_twice_hosts_months_apart():
    members = names(6)
    plan = plan_season(members, SEASON, {}, random.Random(3))
    for member in members:
        months = [i for i, hosts in plan.hosts.items() if member in hosts]
        assert len(months) == 2 and months[1] - months[0] >= 4


def test_fifteen_members_all_host_once_with_three_months_cohosted():
    members = names(15)
    plan = plan_season(members, SEASON, {}, random.Random(4))
    assert counts(plan, members) == [1] * 15
    assert sorted(len(h) for h in plan.hosts.values()) == [1] * 9 + [2] * 3


def test_blocked_months_are_respected():
    members = names(12)
    blocked = {"m0": {12, 1, 2}, "m1": {7, 8}, "m2": set(range(1, 12))}  # m2: only December
    plan = plan_season(members, SEASON, blocked, random.Random(5))
    assert counts(plan, members) == [1] * 12
    assert [i for i, h in plan.hosts.items() if "m2" in h] == [SEASON.index(12)]
    for member, months in blocked.items():
        assert not any(member in plan.hosts[i] for i, m in enumerate(SEASON) if m in months)


def test_a_month_nobody_can_host_is_left_for_the_admin():
    members = names(12)
    blocked = {m: {12} for m in members}
    plan = plan_season(members, SEASON, blocked, random.Random(6))
    assert plan.unhosted == [SEASON.index(12)]
    assert sum(len(h) for h in plan.hosts.values()) == 12  # December's host hosts elsewhere


def test_a_month_only_one_member_can_host_goes_to_them_even_as_a_second_hosting():
    members = names(12)
    blocked = {m: {6} for m in members[1:]}
    blocked["m0"] = {m for m in SEASON if m != 6}  # m0 can only host June
    plan = plan_season(members, SEASON, blocked, random.Random(7))
    assert plan.hosts[SEASON.index(6)] == ["m0"]
    assert counts(plan, members) == [1] * 12


def test_months_already_hosted_count_when_the_rest_is_planned_again():
    members = names(4)
    # Re-planning the last 8 months: m0 and m1 hosted three times already, m2 and m3 once.
    plan = plan_season(
        members, SEASON[4:], {}, random.Random(8), hosted={"m0": 3, "m1": 3, "m2": 1, "m3": 1}
    )
    assert counts(plan, members) == [1, 1, 3, 3]  # 4 each in the end


def test_the_same_seed_plans_the_same_season():
    members = names(10)
    assert plan_season(members, SEASON, {}, random.Random(9)) == plan_season(
        members, SEASON, {}, random.Random(9)
    )


# --- properties ----------------------------------------------------------------------------------

blocked_months = st.sets(st.integers(1, 12), max_size=11)


@st.composite
def circles(draw, max_members: int = 30):
    count = draw(st.integers(1, max_members))
    members = names(count)
    blocked = {m: draw(blocked_months) for m in members if draw(st.booleans())}
    return members, blocked, draw(st.integers(0, 2**32))


@settings(max_examples=150, deadline=None)
@given(circles())
def test_any_circle_gets_a_plan_that_respects_every_rule(case):
    members, blocked, seed = case
    plan = plan_season(members, SEASON, blocked, random.Random(seed))
    hosting = {m: [i for i, h in plan.hosts.items() if m in h] for m in members}
    # Blocked months are never hosted by whoever blocked them.
    for member, months in hosting.items():
        assert not any(SEASON[i] in blocked.get(member, ()) for i in months)
    # Every month someone can host has a host; every member who can host some month does.
    for index, month in enumerate(SEASON):
        can = [m for m in members if month not in blocked.get(m, ())]
        assert bool(plan.hosts[index]) == bool(can)
    for member in members:
        assert bool(hosting[member]) == (len(blocked.get(member, ())) < 12)
    # Nobody hosts twice unless they are the only host of each of their months (no other
    # arrangement covers them), and a co-hosted month's hosts host nowhere else.
    for member, months in hosting.items():
        if len(months) > 1:
            assert all(plan.hosts[i] == [member] for i in months)
    for hosts in plan.hosts.values():
        if len(hosts) > 1:
            assert all(len(hosting[h]) == 1 for h in hosts)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 40), st.integers(0, 2**32))
def test_without_blocked_months_hosting_is_as_even_as_the_count_allows(count, seed):
    members = names(count)
    plan = plan_season(members, SEASON, {}, random.Random(seed))
    per_member = counts(plan, members)
    per_month = [len(h) for h in plan.hosts.values()]
    assert max(per_member) - min(per_member) <= 1
    assert max(per_month) - min(per_month) <= 1
    if count >= 12:
        assert per_member == [1] * count  # every member hosts exactly once
    else:
        assert per_month == [1] * 12  # every month has exactly one host


def _score(hosts: dict[int, list[str]], members, months) -> tuple:
    """The planner's objective, most important first (smaller is better)."""
    covered = sum(bool(h) for h in hosts.values())
    per_member = [sum(m in h for h in hosts.values()) for m in members]
    per_month = [len(h) for h in hosts.values()]
    return (
        -covered,
        -sum(c > 0 for c in per_member),
        sum(max(0, c - 1) ** 2 for c in per_member),
        sum(max(0, c - 1) ** 2 for c in per_month),
    )


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 3),
    st.integers(1, 4),
    st.lists(st.sets(st.integers(1, 4), max_size=3), min_size=3, max_size=3),
    st.integers(0, 2**32),
)
def test_small_circles_get_the_best_plan_a_search_of_every_plan_finds(
    count, month_count, blocks, seed
):
    members = names(count)
    months = [1, 2, 3, 4][:month_count]
    blocked = {m: blocks[i] for i, m in enumerate(members)}
    plan = plan_season(members, months, blocked, random.Random(seed))
    options = [
        [
            [m for m in members if month not in blocked[m] and (mask >> members.index(m)) & 1]
            for mask in range(2**count)
        ]
        for month in months
    ]
    best = min(
        _score(dict(enumerate(choice)), members, months) for choice in itertools.product(*options)
    )
    assert _score(plan.hosts, members, months) == best
