"""A family's proposals depend on the run's seed alone, never on today's date: the same seed must give
the same task on any day (Faker's `date_this_year()`, `date_time_between()`'s defaults and the like are
relative to now)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from synth.families import FAMILIES, families
from synth.offline import make_proposal
from synth.pools import SHIPPED_POOLS, Pools, load_pools


@pytest.fixture(scope="module")
def pools() -> Pools:
    return load_pools([SHIPPED_POOLS / "claw"])


@pytest.mark.parametrize("name", sorted(FAMILIES["claw"]))
def test_a_proposal_is_the_same_on_another_day(name: str, pools: Pools) -> None:
    family = families("claw", [name])[0]
    today = [make_proposal(family, pools, 3, i, 1 + i % 3) for i in range(12)]
    with time_machine.travel(dt.datetime.now(dt.UTC) + dt.timedelta(days=400), tick=False):
        later = [make_proposal(family, pools, 3, i, 1 + i % 3) for i in range(12)]
    for a, b in zip(today, later, strict=True):
        assert a.files == b.files and a.instruction == b.instruction, a.id
