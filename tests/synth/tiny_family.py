"""A family small enough for pipeline tests: sum the integers of a file. `WrongOracle` is the same task
with a reference solution that is off by one (the gate must catch it: task-side)."""

from __future__ import annotations

import random

from synth.families.base import Draft, Family
from synth.pools import Pools

STEMS = ["nums", "values", "readings", "amounts", "counts", "scores", "weights", "totals"]
OUTS = ["sum.txt", "total.txt", "answer.txt", "result.txt"]


class SumNumbers(Family):
    name = "sum-numbers"
    category = "files"
    off_by = 0

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        numbers = [rng.randint(1, 999) for _ in range(4 + 4 * difficulty)]
        source = f"{rng.choice(STEMS)}-{rng.randrange(10_000)}.txt"
        out = rng.choice(OUTS)
        want = sum(numbers)
        awk = "awk '{s+=$1} END {print s + " + str(self.off_by) + "}'"
        return Draft(
            title=f"Sum the integers of /app/{source}",
            instruction=(
                f"`/app/{source}` holds one integer per line. Write their sum to `/app/{out}` as a "
                "single line holding only the number."
            ),
            files={
                f"environment/{source}": "\n".join(map(str, numbers)) + "\n",
                "tests/check.py": (
                    "import sys\n"
                    f"want = {want!r}\n"
                    "try:\n"
                    f"    got = open('/app/{out}').read().strip()\n"
                    "except OSError as exc:\n"
                    "    print('FAIL: no output', exc); sys.exit(1)\n"
                    "print('got', got, 'want', want)\n"
                    "sys.exit(0 if got == str(want) else 1)\n"
                ),
                "solution/solve.sh": f"#!/bin/bash\nset -e\n{awk} /app/{source} > /app/{out}\n",
            },
            params={"source": source, "out": out, "count": len(numbers)},
        )


class WrongOracle(SumNumbers):
    name = "wrong-oracle"
    off_by = 1
