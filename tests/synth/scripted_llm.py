"""A scripted OpenAI-compatible model server for the LLM proposer's tests, and realistic answers for it.

`scripted_llm(script)` serves a FastAPI app with uvicorn in a thread on a free loopback port and yields
its base URL (`http://127.0.0.1:<port>/v1`). It answers `POST /v1/chat/completions` as a model would:
it tells the kind of call from the marker line the proposer's system prompts start with (`TASK:
propose`, `TASK: write_files`, `TASK: refine`) and answers from the `Script`:

- per kind, a list of replies used in order; once a list is used up, the kind's entry in `defaults`,
  else the list again from its start (`after="cycle"`) or the automatic answer (`after="auto"`, the
  default); a kind without a list gets the automatic answer;
- a reply is a dict (a JSON answer, sent as the message's content), a str (raw content: invalid JSON,
  a ```json fenced block), a `ScriptedTask` (its answer for that kind of call), an int or `Status` (an
  HTTP error with an OpenAI-style error body), or a `Delay` (wait, then answer: long enough, the
  client times out);
- the automatic answer to propose is the next `claw_task(n)`; to write_files and refine, the files of
  the task whose title the prompt shows (a task given in the script or proposed automatically; a broken
  variant refines into the good task it was made from), else `claw_task(0)`'s;
- `reject_response_format=True` makes it refuse any request with `response_format` (400), as servers
  without JSON mode do.

Every request is recorded (`script.requests`, `script.count(kind)`, `script.prompts(kind)`), and every
answer carries a realistic `usage` (about four characters a token).

The builders make realistic answers: `claw_task(n)` is a small claw task that really works (a CSV
under environment/data/, an instruction to compute per-group figures into /app/out.json, tests/test.sh
and tests/check.py that check the result exactly and always write the reward, solution/solve.sh that
computes it); n picks its theme, operation and data, so different n give distinct tasks. Broken
variants for end-to-end tests: `broken_dockerfile` (RUN false, or a COPY of a file that is not there),
`crashing_checker` (check.py raises, test.sh then writes no reward), `zero_oracle` (solve.sh writes a
wrong answer) and `near_duplicate` (the same instruction with one word changed).
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import io
import json
import random
import re
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

Kind = Literal["propose", "write_files", "refine"]
KIND_MARKER = re.compile(r"^TASK: (propose|write_files|refine)\s*$")
TITLE_LINE = re.compile(r"^Title: (.+)$", re.MULTILINE)

# --- the builders ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Theme:
    name: str
    file: str
    id_column: str
    id_prefix: str
    group: str
    groups: tuple[str, ...]
    item: str
    items: tuple[str, ...]
    value: str
    low: int
    high: int
    rows: str
    """What one line of the file is, in the plural ("orders")."""
    context: str
    keywords: tuple[str, ...]


THEMES = (
    Theme(
        "orders", "orders", "order_id", "SO", "region", ("north", "south", "east", "west"),
        "product", ("Widget", "Gadget", "Sprocket", "Cable 2m", "Adapter"), "quantity", 1, 60, "sales orders",
        "I run the order desk of a small hardware wholesaler and our regional managers want numbers for "
        "their Monday meeting.",
        ("csv", "sales", "aggregation"),
    ),
    Theme(
        "loans", "loans", "loan_id", "LN", "branch", ("central", "riverside", "hillcrest"),
        "genre", ("novel", "biography", "travel", "cookery", "poetry"), "days_out", 1, 45, "book loans",
        "As the volunteer coordinator of our town library I am preparing the quarterly report on how long "
        "books stay out at each branch.",
        ("csv", "library", "report"),
    ),
    Theme(
        "readings", "sensor_readings", "reading_id", "RD", "site", ("greenhouse", "barn", "cellar", "shed"),
        "sensor", ("t-01", "t-02", "h-07", "h-09"), "humidity_pct", 20, 95, "sensor readings",
        "Our farm logs humidity from cheap sensors around the property, and I want to see which buildings "
        "are too damp before winter.",
        ("csv", "sensors", "monitoring"),
    ),
    Theme(
        "visits", "gym_visits", "visit_id", "GV", "club", ("harbour", "old-town", "uptown"),
        "member_tier", ("basic", "plus", "family"), "minutes", 10, 150, "gym visits",
        "I manage three fitness clubs; the owners asked how intensively members use each club.",
        ("csv", "fitness", "statistics"),
    ),
    Theme(
        "tickets", "support_tickets", "ticket", "TCK", "team", ("billing", "network", "accounts", "mobile"),
        "priority", ("low", "normal", "high"), "hours_open", 1, 96, "support tickets",
        "Our help desk lead wants to know which support team carries the slowest tickets this week.",
        ("csv", "support", "sla"),
    ),
    Theme(
        "parcels", "parcels", "parcel_id", "PX", "depot", ("leeds", "bristol", "derby"),
        "service", ("standard", "express", "economy"), "weight_g", 100, 9000, "parcels",
        "I dispatch parcels for an online shop and need per-depot weight figures to negotiate with couriers.",
        ("csv", "logistics", "shipping"),
    ),
    Theme(
        "cafe", "cafe_receipts", "receipt", "RC", "barista", ("ana", "bo", "chidi", "dara"),
        "drink", ("latte", "flat white", "mocha", "tea"), "cups", 1, 12, "café receipts",
        "I own a small café and want to thank the baristas with a bonus based on what they served.",
        ("csv", "retail", "summary"),
    ),
    Theme(
        "trips", "fleet_trips", "trip_id", "TR", "vehicle", ("van-1", "van-2", "truck-a", "car-7"),
        "driver", ("lee", "morgan", "sam", "kit"), "km", 3, 480, "fleet trips",
        "Our small delivery company has to file mileage per vehicle for the insurance renewal.",
        ("csv", "fleet", "mileage"),
    ),
)  # fmt: skip

Op = Literal["sum", "max", "count"]
OPS: tuple[Op, ...] = ("sum", "max", "count")

TEST_SH = """\
#!/bin/bash
# Hidden verifier: the checks live in check.py (it prints what failed); always write a reward.
mkdir -p /logs/verifier
if python3 /tests/check.py; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
"""

CHECK_PY = '''\
"""Check /app/out.json against the figures computed from the seeded {path}."""
import hashlib
import json
import sys

EXPECTED = {expected}
DATA = "/app/data/{file}"
DATA_SHA256 = "{data_sha256}"

errors = []
try:
    with open(DATA, "rb") as fh:
        if hashlib.sha256(fh.read()).hexdigest() != DATA_SHA256:
            errors.append(DATA + " was modified")
except OSError as exc:
    errors.append(f"cannot read {{DATA}}: {{exc}}")
try:
    with open("/app/out.json") as fh:
        got = json.load(fh)
except Exception as exc:  # noqa: BLE001
    print(f"FAIL: cannot read /app/out.json as JSON: {{exc}}")
    sys.exit(1)
if not isinstance(got, dict):
    errors.append(f"/app/out.json holds a {{type(got).__name__}}, not an object")
else:
    if set(got) != set(EXPECTED):
        errors.append(f"keys {{sorted(got)}} != expected {{sorted(EXPECTED)}}")
    for key, want in sorted(EXPECTED.items()):
        value = got.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value != want:
            errors.append(f"{{key}}: {{value!r}} != expected {{want}}")
if errors:
    print("FAIL")
    for error in errors:
        print(" -", error)
    sys.exit(1)
print("PASS")
'''

SOLVE_SH = """\
#!/bin/bash
# Reference solution: read the CSV and compute the figure per {group}.
set -euo pipefail
python3 - <<'PY'
import csv
import json

OP = "{op}"
THRESHOLD = {threshold}
out = {{}}
with open("/app/data/{file}", newline="") as fh:
    for row in csv.DictReader(fh):
        key, value = row["{group}"], int(row["{value}"])
        if OP == "sum":
            out[key] = out.get(key, 0) + value
        elif OP == "max":
            out[key] = max(out.get(key, value), value)
        else:
            out[key] = out.get(key, 0) + (1 if value >= THRESHOLD else 0)
{tamper}with open("/app/out.json", "w") as fh:
    json.dump(out, fh, indent=2, sort_keys=True)
    fh.write("\\n")
PY
"""


@dataclass(frozen=True)
class ScriptedTask:
    """A task as a model would answer it: the proposal's fields and the task's files."""

    n: int
    id_hint: str
    title: str
    instruction: str
    category: str
    difficulty: int
    keywords: list[str]
    files: dict[str, str]
    expected: dict[str, int]
    """What /app/out.json must hold."""
    fixed: ScriptedTask | None = None
    """What refine turns it into (a broken variant: the good task it was made from; None: itself)."""
    variant: str = "good"

    def proposal_answer(self) -> dict[str, Any]:
        return {
            "id_hint": self.id_hint,
            "title": self.title,
            "instruction": self.instruction,
            "category": self.category,
            "difficulty": self.difficulty,
            "keywords": list(self.keywords),
        }

    def files_answer(self) -> dict[str, Any]:
        return {"files": dict(self.files)}

    def refine_answer(self) -> dict[str, Any]:
        """The corrected task, kept under this task's title (so later calls still find it)."""
        good = self.fixed or self
        return {
            "title": self.title,
            "instruction": good.instruction,
            "difficulty": good.difficulty,
            "files": dict(good.files),
        }

    def answer(self, kind: Kind) -> dict[str, Any]:
        if kind == "propose":
            return self.proposal_answer()
        if kind == "write_files":
            return self.files_answer()
        return self.refine_answer()


def _expected(op: Op, rows: list[dict[str, Any]], theme: Theme, threshold: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in rows:
        key, value = row[theme.group], int(row[theme.value])
        if op == "sum":
            out[key] = out.get(key, 0) + value
        elif op == "max":
            out[key] = max(out.get(key, value), value)
        else:
            out[key] = out.get(key, 0) + (1 if value >= threshold else 0)
    return out


def claw_task(n: int = 0, *, theme: str | None = None, op: Op | None = None) -> ScriptedTask:
    """A small claw task that works, distinct for each n (its theme, operation, file name and data)."""
    chosen = next(t for t in THEMES if t.name == theme) if theme else THEMES[n % len(THEMES)]
    operation: Op = op or OPS[(n // len(THEMES)) % len(OPS)]
    rng = random.Random(f"scripted-claw:{n}")
    file = f"{chosen.file}_{n}.csv"
    header = [chosen.id_column, chosen.group, chosen.item, chosen.value]
    rows: list[dict[str, Any]] = [
        {
            chosen.id_column: f"{chosen.id_prefix}-{1000 + 7 * i + n}",
            chosen.group: rng.choice(chosen.groups),
            chosen.item: rng.choice(chosen.items),
            chosen.value: rng.randint(chosen.low, chosen.high),
        }
        for i in range(12 + n % 7)
    ]
    values = sorted(int(row[chosen.value]) for row in rows)
    threshold = values[len(values) // 2]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    data = buffer.getvalue()
    expected = _expected(operation, rows, chosen, threshold)

    what = {
        "sum": f"the sum of the `{chosen.value}` column over its rows",
        "max": f"the largest single `{chosen.value}` among its rows",
        "count": f"the number of its rows whose `{chosen.value}` is at least {threshold}",
    }[operation]
    title = {
        "sum": f"Total {chosen.value} per {chosen.group} from {file}",
        "max": f"Largest {chosen.value} per {chosen.group} in {file}",
        "count": f"Count {chosen.rows} with {chosen.value} of at least {threshold} per {chosen.group}",
    }[operation]
    zero_note = " (0 when none of its rows qualifies)" if operation == "count" else ""
    instruction = (
        f"{chosen.context}\n\n"
        f"The file `/app/data/{file}` lists {chosen.rows}, one per line, with the header "
        f"`{','.join(header)}`; `{chosen.value}` is a whole number.\n\n"
        f"Write `/app/out.json` holding one JSON object that maps each {chosen.group} appearing in the file "
        f"(written exactly as in the file) to {what}{zero_note}, as a JSON integer. Every {chosen.group} "
        f"of the file is a key, and nothing else is. Do not modify `/app/data/{file}`."
    )
    files = {
        "environment/Dockerfile": (
            "ARG FORGE_BASE=openforge/base:latest\nFROM ${FORGE_BASE}\nWORKDIR /app\n"
            f"COPY data/{file} /app/data/{file}\n"
        ),
        f"environment/data/{file}": data,
        "tests/test.sh": TEST_SH,
        "tests/check.py": CHECK_PY.format(
            path=file,
            file=file,
            expected=json.dumps(expected, sort_keys=True),
            data_sha256=hashlib.sha256(data.encode()).hexdigest(),
        ),
        "solution/solve.sh": SOLVE_SH.format(
            op=operation, threshold=threshold, file=file, group=chosen.group, value=chosen.value, tamper=""
        ),
    }
    return ScriptedTask(
        n=n,
        id_hint=f"{chosen.name}-{operation}-{n}",
        title=title,
        instruction=instruction,
        category="data",
        difficulty=1 + n % 3,
        keywords=[*chosen.keywords, operation],
        files=files,
        expected=expected,
    )


def broken_dockerfile(
    task: ScriptedTask, how: Literal["run_false", "missing_copy"] = "run_false"
) -> ScriptedTask:
    """The task with a Dockerfile that does not build: a `RUN false`, or a COPY of a file not there."""
    dockerfile = task.files["environment/Dockerfile"]
    if how == "run_false":
        dockerfile += "RUN false\n"
    else:
        dockerfile += f"COPY data/lookup_{task.n}.csv /app/data/lookup_{task.n}.csv\n"
    files = {**task.files, "environment/Dockerfile": dockerfile}
    return replace(task, files=files, fixed=task.fixed or task, variant=f"broken_dockerfile:{how}")


def crashing_checker(task: ScriptedTask) -> ScriptedTask:
    """The task with a checker that raises (a NameError) and a test.sh that then writes no reward."""
    check = task.files["tests/check.py"].replace(
        "    for key, want in sorted(EXPECTED.items()):", "    for key, want in sorted(EXPECTD.items()):"
    )
    test_sh = (
        "#!/bin/bash\n# Hidden verifier: reward 1 when check.py passes.\nmkdir -p /logs/verifier\n"
        "python3 /tests/check.py && echo 1 > /logs/verifier/reward.txt\n"
    )
    files = {**task.files, "tests/check.py": check, "tests/test.sh": test_sh}
    return replace(task, files=files, fixed=task.fixed or task, variant="crashing_checker")


def zero_oracle(task: ScriptedTask) -> ScriptedTask:
    """The task with a reference solution that writes a wrong answer (every figure one too high)."""
    solve = task.files["solution/solve.sh"].replace(
        'with open("/app/out.json", "w")',
        'out = {k: v + 1 for k, v in out.items()}\nwith open("/app/out.json", "w")',
    )
    files = {**task.files, "solution/solve.sh": solve}
    return replace(task, files=files, fixed=task.fixed or task, variant="zero_oracle")


def near_duplicate(task: ScriptedTask) -> ScriptedTask:
    """The same task with one word of its instruction changed ("lists" → "contains") and its title
    reworded a little (so the two can be told apart), the same files."""
    return replace(
        task,
        title=task.title.replace(" per ", " for each ", 1),
        instruction=task.instruction.replace(" lists ", " contains ", 1),
        variant="near_duplicate",
    )


def fenced(answer: dict[str, Any], prose: str = "Here is the task.") -> str:
    """An answer as chat models often write it: prose and a ```json fenced block."""
    return f"{prose}\n\n```json\n{json.dumps(answer, indent=2)}\n```\n"


# --- the script -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Status:
    """An HTTP error answer (429, 500, 400, ...)."""

    code: int
    message: str = ""


@dataclass(frozen=True)
class Delay:
    """Wait `seconds`, then answer `then` (None: the automatic answer)."""

    seconds: float
    then: Reply | None = None


Reply = dict[str, Any] | str | int | Status | Delay | ScriptedTask


@dataclass
class Received:
    """A request the server got, and what it answered."""

    kind: Kind | None
    body: dict[str, Any]
    status: int
    content: str | None = None

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = self.body.get("messages", [])
        return messages

    @property
    def prompt(self) -> str:
        """All the messages' contents, joined."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


@dataclass
class Script:
    """What the server answers, per kind of call, and what it received."""

    propose: Sequence[Reply] = ()
    write_files: Sequence[Reply] = ()
    refine: Sequence[Reply] = ()
    defaults: dict[str, Reply] = field(default_factory=dict)
    after: Literal["auto", "cycle"] = "auto"
    reject_response_format: bool = False
    auto_start: int = 0
    """The n of the first automatically proposed `claw_task`."""
    requests: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._used: dict[str, int] = {}
        self._auto_n = self.auto_start
        self._by_title: dict[str, ScriptedTask] = {}
        for reply in [*self.propose, *self.write_files, *self.refine, *self.defaults.values()]:
            self._remember(reply)

    def count(self, kind: Kind | None = None) -> int:
        """Requests received (of one kind)."""
        return sum(1 for r in self.requests if kind is None or r.kind == kind)

    def prompts(self, kind: Kind) -> list[str]:
        return [r.prompt for r in self.requests if r.kind == kind]

    def _remember(self, reply: Reply | None) -> None:
        while isinstance(reply, Delay):
            reply = reply.then
        if isinstance(reply, ScriptedTask):
            self._by_title.setdefault(reply.title, reply)

    def next_reply(self, kind: Kind) -> Reply | None:
        """The reply for the next call of this kind (None: the automatic answer)."""
        with self._lock:
            replies: Sequence[Reply] = getattr(self, kind)
            used = self._used.get(kind, 0)
            self._used[kind] = used + 1
            if used < len(replies):
                return replies[used]
            if kind in self.defaults:
                return self.defaults[kind]
            if replies and self.after == "cycle":
                return replies[used % len(replies)]
            return None

    def auto_answer(self, kind: Kind, prompt: str) -> dict[str, Any]:
        with self._lock:
            if kind == "propose":
                task = claw_task(self._auto_n)
                self._auto_n += 1
                self._by_title.setdefault(task.title, task)
                return task.proposal_answer()
            found = TITLE_LINE.search(prompt)
            known = self._by_title.get(found.group(1).strip()) if found else None
            return (known or claw_task(0)).answer(kind)

    def content(self, kind: Kind, reply: Reply | None, prompt: str) -> str:
        if reply is None:
            return json.dumps(self.auto_answer(kind, prompt), indent=1)
        if isinstance(reply, ScriptedTask):
            with self._lock:
                self._by_title.setdefault(reply.title, reply)
            return json.dumps(reply.answer(kind), indent=1)
        if isinstance(reply, dict):
            return json.dumps(reply, indent=1)
        assert isinstance(reply, str), reply
        return reply


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


def _error(code: int, message: str, param: str | None = None) -> JSONResponse:
    kinds = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error"}
    kinds |= {429: "rate_limit_exceeded"}
    body = {
        "error": {"message": message, "type": kinds.get(code, "server_error"), "param": param, "code": None}
    }
    return JSONResponse(body, status_code=code)


def create_app(script: Script) -> FastAPI:
    app = FastAPI()
    serial = iter(range(1, 10**9))

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        return {"object": "list", "data": [{"id": "scripted", "object": "model", "owned_by": "tests"}]}

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> JSONResponse:
        body: dict[str, Any] = await request.json()
        messages = body.get("messages") or []
        first = next((str(m.get("content", "")) for m in messages if m.get("role") == "system"), "")
        found = KIND_MARKER.match(first.split("\n", 1)[0])
        kind: Kind | None = found.group(1) if found else None  # type: ignore[assignment]
        received = Received(kind, body, 200)
        script.requests.append(received)
        if kind is None:
            received.status = 400
            return _error(400, "scripted model: no `TASK: <kind>` marker in the system prompt")
        if script.reject_response_format and "response_format" in body:
            received.status = 400
            return _error(400, "response_format is not supported by this model", "response_format")
        reply = script.next_reply(kind)
        while isinstance(reply, Delay):
            await asyncio.sleep(reply.seconds)
            reply = reply.then
        if isinstance(reply, int):
            reply = Status(reply)
        if isinstance(reply, Status):
            received.status = reply.code
            return _error(reply.code, reply.message or f"scripted error {reply.code}")
        received.content = content = script.content(kind, reply, received.prompt)
        prompt_tokens = sum(_tokens(str(m.get("content", ""))) + 4 for m in messages)
        completion_tokens = _tokens(content)
        return JSONResponse(
            {
                "id": f"chatcmpl-scripted-{next(serial)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "scripted"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                        "logprobs": None,
                    }
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            }
        )

    return app


@contextmanager
def scripted_llm(script: Script | None = None) -> Iterator[str]:
    """Serve `script` on a free loopback port; yields the base URL (`http://127.0.0.1:<port>/v1`)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    config = uvicorn.Config(
        create_app(script or Script()),
        log_level="warning",
        lifespan="off",
        ws="none",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            assert thread.is_alive(), "the scripted model server did not start"
            time.sleep(0.01)
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()
