"""The season planner: who hosts which month (pure: no Django imports).

Ruling: 'A circle of members (usually 12) plans a year: each member hosts one month.' With
other numbers of members the planner spreads the hosting as evenly as it can, and a member
never hosts a month they said they cannot host. What it weighs, most important first:

1. every month that someone can host has a host;
2. every member who can host some month hosts at least once;
3. nobody hosts more often than needed (the counts as even as possible);
4. no month has more hosts than needed (more members than months: some months have
   co-hosts, as even as possible);
5. a member who hosts twice hosts months far apart;
6. otherwise at random (the rng), so no member is always given January.

1 to 4 are one min-cost flow (members -> months, with convex costs per extra hosting), so the
result is the best the blocked months allow, not a greedy guess. 5 is a local search that
only exchanges hosts between months, which leaves every count of 1 to 4 unchanged.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

# The weights of the rules above: each outweighs everything below it put together.
COVER_MONTH = 10**15
FIRST_HOSTING = 10**13
EXTRA_HOSTING = 10**9
EXTRA_COHOST = 10**4
TIE_BREAK = 10  # random costs 0..9 per member and month


@dataclass(frozen=True)
class Plan:
    """Month index -> its hosts in order (the first one's address is the place)."""

    hosts: dict[int, list[str]]

    def count(self, member: str) -> int:
        return sum(member in hosts for hosts in self.hosts.values())

    @property
    def unhosted(self) -> list[int]:
        return [index for index, hosts in self.hosts.items() if not hosts]


def plan_season(
    members: Sequence[str],
    months: Sequence[int],
    blocked: Mapping[str, Collection[int]],
    rng: random.Random,
    hosted: Mapping[str, int] | None = None,
) -> Plan:
    """Plan hosts for ``months`` (calendar months 1-12, in season order; the plan is keyed by
    their position). ``blocked`` names the calendar months each member cannot host;
    ``hosted`` counts what a member already hosted this season (when re-planning the months
    still to come), so their extra hosting weighs as it should."""
    members = list(dict.fromkeys(members))
    hosted = hosted or {}
    flow = _Flow()
    source, sink = flow.node(), flow.node()
    member_node = {m: flow.node() for m in members}
    month_node = [flow.node() for _ in months]
    most = len(months)
    for member in members:
        done = hosted.get(member, 0)
        for k in range(done + 1, done + most + 1):
            cost = -FIRST_HOSTING if k == 1 else EXTRA_HOSTING * (2 * k - 3)
            flow.edge(source, member_node[member], cost)
        for index, month in enumerate(months):
            if month not in blocked.get(member, ()):
                flow.edge(member_node[member], month_node[index], rng.randrange(TIE_BREAK))
    for index in range(len(months)):
        for k in range(1, len(members) + 1):
            cost = -COVER_MONTH if k == 1 else EXTRA_COHOST * (2 * k - 3)
            flow.edge(month_node[index], sink, cost)
    flow.run(source, sink)
    hosts: dict[int, list[str]] = {index: [] for index in range(len(months))}
    for member in members:
        for index in range(len(months)):
            if flow.used(member_node[member], month_node[index]):
                hosts[index].append(member)
    for names in hosts.values():
        rng.shuffle(names)
    _spread(hosts, months, blocked, rng)
    return Plan(hosts)


# --- rule 5: months of one host far apart --------------------------------------------------------


def _penalty(hosts: dict[int, list[str]], months: int) -> int:
    """How close together the months of members who host more than once are."""
    where: dict[str, list[int]] = {}
    for index, names in hosts.items():
        for name in names:
            where.setdefault(name, []).append(index)
    total = 0
    for indexes in where.values():
        if len(indexes) < 2:
            continue
        ideal = months // len(indexes)
        indexes.sort()
        for a, b in zip(indexes, indexes[1:], strict=False):
            total += max(0, ideal - (b - a)) ** 2
    return total


def _spread(
    hosts: dict[int, list[str]],
    months: Sequence[int],
    blocked: Mapping[str, Collection[int]],
    rng: random.Random,
) -> None:
    """Exchange hosts between two months while that brings one member's months further
    apart; an exchange keeps every count, so rules 1 to 4 still hold."""
    if _penalty(hosts, len(months)) == 0:
        return

    def can(name: str, index: int) -> bool:
        return months[index] not in blocked.get(name, ()) and name not in hosts[index]

    for _ in range(50):
        best = _penalty(hosts, len(months))
        if best == 0:
            return
        improved = False
        slots = [(i, j) for i, names in hosts.items() for j in range(len(names))]
        rng.shuffle(slots)
        for a, (i, x) in enumerate(slots):
            for k, y in slots[a + 1 :]:
                if i == k:
                    continue
                p, q = hosts[i][x], hosts[k][y]
                if p == q or not (can(p, k) and can(q, i)):
                    continue
                hosts[i][x], hosts[k][y] = q, p
                score = _penalty(hosts, len(months))
                if score < best:
                    best, improved = score, True
                else:
                    hosts[i][x], hosts[k][y] = p, q
        if not improved:
            return


# --- min-cost flow ------------------------------------------------------------------------------


class _Flow:
    """Successive shortest paths (SPFA) with unit capacities, stopping when the cheapest
    path no longer lowers the cost: the cheapest flow of any size."""

    def __init__(self) -> None:
        self.adj: list[list[int]] = []
        self.to: list[int] = []
        self.cap: list[int] = []
        self.cost: list[int] = []

    def node(self) -> int:
        self.adj.append([])
        return len(self.adj) - 1

    def edge(self, a: int, b: int, cost: int) -> None:
        for u, v, c, w in ((a, b, 1, cost), (b, a, 0, -cost)):
            self.adj[u].append(len(self.to))
            self.to.append(v)
            self.cap.append(c)
            self.cost.append(w)

    def used(self, a: int, b: int) -> bool:
        return any(self.to[e] == b and self.cap[e] == 0 for e in self.adj[a] if e % 2 == 0)

    def run(self, source: int, sink: int) -> None:
        n = len(self.adj)
        while True:
            dist = [None] * n
            via = [-1] * n
            dist[source] = 0
            queue, queued = deque([source]), [False] * n
            queued[source] = True
            while queue:
                u = queue.popleft()
                queued[u] = False
                for e in self.adj[u]:
                    if self.cap[e] <= 0:
                        continue
                    v, d = self.to[e], dist[u] + self.cost[e]
                    if dist[v] is None or d < dist[v]:
                        dist[v], via[v] = d, e
                        if not queued[v]:
                            queued[v] = True
                            queue.append(v)
            if dist[sink] is None or dist[sink] >= 0:
                return
            v = sink
            while v != source:
                e = via[v]
                self.cap[e] -= 1
                self.cap[e ^ 1] += 1
                v = self.to[e ^ 1]
