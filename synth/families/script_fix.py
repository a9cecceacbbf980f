"""script-fix: a small Python or bash script with 1-3 injected bugs (off-by-one, wrong sort key, wrong
rounding, a wrong comparison, an unquoted variable, a wrong exit code, ...) and its specification. The
checker generates its own inputs (edge cases included: ties, exact half cents, names with spaces, empty
input) inside the container, runs the fixed script on them and compares with its own reference
implementation.

Each program is a script template whose bug sites are named snippets: the family renders the script
with the drawn bugs' buggy snippets; the reference solution replaces each buggy snippet by the correct
one, as a person fixing the script would."""

from __future__ import annotations

import random
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, ClassVar

from synth.families.base import Draft, Family, render
from synth.pools import Pools

# name -> (correct, buggy, what the bug is); the script templates use {{ S.<name> }}
SNIPPETS: dict[str, dict[str, tuple[str, str, str]]] = {
    "group-report": {
        "skip_last": (
            "    return rows\n",
            "    return rows[:-1]  # the last line is the trailing newline\n",
            "off-by-one: the last data row was dropped",
        ),
        "sort_key": (
            "kept.sort(key=lambda g: (-g[2], g[0]))",
            "kept.sort(key=lambda g: (g[0], -g[2]))",
            "wrong sort key: sorted by name instead of total",
        ),
        "rounding": (
            'avg = (total / count).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)',
            "avg = round(float(total) / count, 2)",
            "wrong rounding: float round() is not half-up",
        ),
        "threshold": (
            "if total >= MIN_TOTAL",
            "if total > MIN_TOTAL",
            "wrong comparison: groups exactly at the threshold were dropped",
        ),
        "exit_code": (
            "        return 1\n",
            "        return 0\n",
            "wrong exit code for an input without data rows",
        ),
    },
    "log-stats": {
        "case": (
            "level = m.group(2).upper()",
            "level = m.group(2)",
            "levels are case-insensitive but were compared as written",
        ),
        "top_k": ("ranked[:TOP_K]", "ranked[: TOP_K - 1]", "off-by-one in the top list"),
        "tie_break": (
            "key=lambda kv: (-kv[1], kv[0])",
            "key=lambda kv: -kv[1]",
            "ties were not broken by component name",
        ),
        "malformed": (
            "        if m is None:\n            skipped += 1\n            continue\n",
            "",
            "malformed lines crashed the script instead of being counted",
        ),
        "blank": (
            "        if not line.strip():\n            continue\n",
            "",
            "blank lines were counted as lines",
        ),
    },
    "invoice": {
        "bulk": ("qty >= BULK_QTY", "qty > BULK_QTY", "wrong comparison for the bulk discount"),
        "line_round": (
            'line = cents(Decimal(item["unit_price"]) * qty * factor)',
            'line = Decimal(item["unit_price"]) * qty * factor',
            "line totals were not rounded to cents before summing",
        ),
        "tax_base": (
            "tax = cents(subtotal * TAX_RATE)",
            "tax = cents(gross * TAX_RATE)",
            "tax was computed on the amount before discounts",
        ),
        "half_up": (
            "rounding=ROUND_HALF_UP",
            "rounding=ROUND_HALF_EVEN",
            "banker's rounding instead of half-up",
        ),
    },
    "prune-backups": {
        "quote": ('rm -- "$dir/$f"', "rm -- $dir/$f", "unquoted variable: names with spaces broke"),
        "off_by_one": (
            '"$count" -gt "$keep"',
            '"$count" -ge "$keep"',
            "off-by-one: one archive too many deleted",
        ),
        "exit_code": (
            "exit 2  # no such directory",
            "exit 0  # no such directory",
            "wrong exit code for a missing directory",
        ),
        "order": ("LC_ALL=C sort -r", "LC_ALL=C sort", "wrong sort order: the newest archives were deleted"),
    },
    "count-matches": {
        "quote": ('for f in "$@"; do', "for f in $@; do", 'unquoted "$@": file names with spaces broke'),
        "fixed": (
            'grep -cF -- "$pattern"',
            'grep -c "$pattern"',
            "pattern used as a regex (and not protected by --)",
        ),
        "grep_status": (
            " || true",
            "",
            "grep's exit status 1 (no match) killed the script under set -e",
        ),
        "exit_code": (
            '[ "$total" -gt 0 ] || exit 1\nexit 0',
            "exit 0",
            "wrong exit code when nothing matched",
        ),
    },
    "word-freq": {
        "apostrophe": (
            'WORD = re.compile(r"[A-Za-z]+(?:\'[A-Za-z]+)?")',
            'WORD = re.compile(r"[A-Za-z]+")',
            "words with an apostrophe were split in two",
        ),
        "case": (
            "words = [w.lower() for w in WORD.findall(text)]",
            "words = WORD.findall(text)",
            "words were not compared case-insensitively",
        ),
        "min_len": (
            "len(w) >= MIN_LENGTH",
            "len(w) > MIN_LENGTH",
            "off-by-one: words of exactly the minimum length were dropped",
        ),
        "ties": (
            "ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))",
            "ranked = counts.most_common()",
            "ties were ranked by first occurrence instead of alphabetically",
        ),
        "distinct": (
            'print(f"{len(counts)} distinct")',
            'print(f"{len(words)} distinct")',
            "the distinct count counted every word",
        ),
    },
    "date-buckets": {
        "status_case": (
            'if row["status"].lower() not in STATUSES:',
            'if row["status"] not in STATUSES:',
            "statuses were compared case-sensitively",
        ),
        "end_inclusive": (
            "start <= day <= end",
            "start <= day < end",
            "off-by-one: the END day was left out",
        ),
        "zero_fill": (
            "days = [start + timedelta(days=i) for i in range((end - start).days + 1)]",
            "days = sorted(counts)",
            "days without events were not printed",
        ),
        "busiest": (
            "n > counts[busiest]",
            "n >= counts[busiest]",
            "a tie for the busiest day went to the later day",
        ),
    },
    "dedupe-contacts": {
        "key": (
            'key = row["email"].strip().lower()',
            'key = row["email"].strip()',
            "e-mail addresses were compared case-sensitively",
        ),
        "first_wins": (
            "if key not in merged:",
            'if key not in merged or not merged[key]["phone"]:',
            "a later duplicate replaced the first record",
        ),
        "fill": (
            '        elif not merged[key]["phone"] and row["phone"].strip():\n'
            '            merged[key]["phone"] = row["phone"].strip()\n',
            "",
            "an empty phone was not completed from a later duplicate",
        ),
        "order": (
            "out = [merged[k] for k in sorted(merged)]",
            "out = list(merged.values())",
            "records were written in input order, not sorted by e-mail",
        ),
    },
    "disk-report": {
        "separator": ("awk -F'\\t'", "awk", "fields split on spaces: paths with spaces broke"),
        "lower": (
            "tolower(substr(name, RSTART + 1))",
            "substr(name, RSTART + 1)",
            "extensions were not lowercased",
        ),
        "round": (
            "kib = int((bytes[ext] + 1023) / 1024)",
            "kib = int(bytes[ext] / 1024)",
            "sizes were rounded down instead of up",
        ),
        "sort": (
            "LC_ALL=C sort -k3,3nr -k1,1",
            "LC_ALL=C sort -k3,3r -k1,1",
            "sizes were sorted as text, not as numbers",
        ),
        "exit_code": ("exit 2", "exit 0", "wrong exit code for a missing listing"),
    },
}

DOMAINS = [
    ("region", "amount", "sales", "sales.csv"),
    ("employee", "hours", "timesheets", "timesheet.csv"),
    ("warehouse", "units", "stock", "movements.csv"),
    ("team", "points", "sprints", "stories.csv"),
    ("country", "revenue", "finance", "revenue.csv"),
    ("project", "cost", "budget", "expenses.csv"),
]
COMPONENTS = [
    "api",
    "auth",
    "billing",
    "cache",
    "db",
    "gateway",
    "mailer",
    "queue",
    "scheduler",
    "search",
    "worker",
]
PRODUCTS = ["bolt", "bracket", "cable", "clamp", "hinge", "nut", "panel", "pipe", "screw", "valve", "washer"]


def q2(x: Decimal) -> Decimal:
    return x.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


class ScriptFix(Family):
    name = "script-fix"
    category = "code"
    pool_kinds: ClassVar[tuple[str, ...]] = ()

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        program = rng.choice(sorted(SNIPPETS))
        bugs = sorted(rng.sample(sorted(SNIPPETS[program]), {1: 1, 2: 2, 3: 3}[difficulty]))
        return self.build(rng, program, bugs, difficulty)

    def build(self, rng: random.Random, program: str, bugs: list[str], difficulty: int) -> Draft:
        """The task for `program` with exactly these bugs (tests call it to check each bug is caught)."""
        n_bugs = len(bugs)
        names = sorted(SNIPPETS[program])
        params = getattr(self, "_" + program.replace("-", "_"))(rng)
        snippets = {n: SNIPPETS[program][n][1 if n in bugs else 0] for n in names}
        correct = {n: SNIPPETS[program][n][0] for n in names}
        script = render(f"script-fix/{program}.script.j2", S=snippets, **params)
        fixed = render(f"script-fix/{program}.script.j2", S=correct, **params)
        pairs = []
        for n in bugs:
            buggy, good = SNIPPETS[program][n][1], SNIPPETS[program][n][0]
            if buggy == "":  # a deleted block: anchor it on the line before it
                anchor = params["anchors"][n]
                pairs.append([anchor, anchor + good])
            else:
                pairs.append([buggy, good])
        # the fix must turn the shipped script into the correct one, snippet by snippet
        probe = script
        for old, new in pairs:
            if probe.count(old) != 1:
                raise ValueError(f"{program}: bug snippet {old!r} is not unique in the script")
            probe = probe.replace(old, new, 1)
        if probe != fixed:
            raise ValueError(f"{program}: the fix does not give the correct script")
        path = params["script_path"]
        files = {
            f"environment{path.removeprefix('/app')}": script,
            "tests/check.py": render(
                f"script-fix/{program}.check.py.j2", seed=rng.randrange(2**31), **params
            ),
            "solution/solve.sh": render(
                "script-fix/solve.sh.j2",
                path=path,
                pairs=pairs,
                notes=[SNIPPETS[program][n][2] for n in bugs],
                sample_cmd=params["sample_cmd"],
            ),
        }
        if params["sample"]:
            files[f"environment{params['sample_path'].removeprefix('/app')}"] = params["sample"]
        if params.get("setup"):
            files["environment/setup.sh"] = params["setup"]
        v = [rng.randrange(2) for _ in range(4)] + [rng.randrange(3), rng.randrange(3), rng.randrange(2)]
        spec = render(f"script-fix/{program}.spec.md.j2", v=v, **params)
        instruction = render(
            "script-fix/instruction.md.j2",
            spec=spec,
            v=v,
            n_bugs=n_bugs,
            say_count=difficulty < 3 and rng.random() < 0.6,
            intro=rng.randrange(3),
            lang="bash" if path.endswith(".sh") else "python",
            **params,
        )
        return Draft(
            title=(
                f"Fix {n_bugs} bug{'s' if n_bugs > 1 else ''} in {path.rsplit('/', 1)[1]} "
                "so it meets its specification"
            ),
            instruction=instruction,
            files=files,
            params={
                "program": program,
                "bugs": bugs,
                "script": path,
                **{
                    k: v
                    for k, v in params.items()
                    if k in ("key", "value", "min_total", "top_k", "keep_default")
                },
            },
            keywords=["debugging", "bash" if path.endswith(".sh") else "python", *bugs],
        )

    # ------------------------------------------------------------------ programs

    def _group_report(self, rng: random.Random) -> dict[str, Any]:
        key, value, folder, sample_name = rng.choice(DOMAINS)
        extra = rng.sample(["date", "note", "id", "source"], 2)
        columns = [key, value, *extra]
        rng.shuffle(columns)
        min_total = rng.choice([50, 100, 150, 200, 250])
        groups = rng.sample(["north", "south", "east", "west", "central", "coast", "hills", "delta"], 5)
        lines = [",".join(columns)]
        for i in range(14):
            row = {
                key: rng.choice(groups),
                value: f"{rng.randint(500, 9000) / 100:.2f}",
                "date": f"2024-05-{i + 1:02d}",
                "note": rng.choice(["ok", "late", "", "checked"]),
                "id": str(1000 + i),
                "source": rng.choice(["web", "shop"]),
            }
            if rng.random() < 0.1:
                row[value] = ""
            lines.append(",".join(row[c] for c in columns))
        script = rng.choice(
            [f"/app/{folder}/report.py", f"/app/{folder}/summarize.py", f"/app/tools/{folder}_report.py"]
        )
        sample = f"/app/{folder}/{sample_name}"
        return {
            "key": key,
            "value": value,
            "columns": columns,
            "min_total": min_total,
            "script_path": script,
            "sample_path": sample,
            "sample": "\n".join(lines) + "\n",
            "sample_cmd": f"python3 {script} {sample}",
            "anchors": {},
        }

    def _log_stats(self, rng: random.Random) -> dict[str, Any]:
        comps = rng.sample(COMPONENTS, 6)
        top_k = rng.choice([2, 3, 4])
        levels = ["DEBUG", "INFO", "WARN", "ERROR"]
        lines = []
        for i in range(30):
            lvl = rng.choice([*levels, "ERROR", "error", "Warn"])
            lines.append(
                f"2024-05-0{1 + i // 10}T{i % 24:02d}:{(i * 7) % 60:02d}:00Z {lvl} {rng.choice(comps)}: "
                f"request {i} done"
            )
            if rng.random() < 0.1:
                lines.append("")
        lines.insert(7, "--- log rotated ---")
        folder = rng.choice(["ops", "logs", "monitoring"])
        script = rng.choice(
            [
                f"/app/{folder}/logstats.py",
                f"/app/{folder}/errors_by_component.py",
                "/app/bin/log_summary.py",
            ]
        )
        sample = f"/app/{folder}/{rng.choice(['app.log', 'service.log', 'sample.log'])}"
        return {
            "top_k": top_k,
            "components": comps,
            "script_path": script,
            "sample_path": sample,
            "sample": "\n".join(lines) + "\n",
            "sample_cmd": f"python3 {script} {sample}",
            "anchors": {
                "malformed": "        m = PATTERN.match(line)\n",
                "blank": "    for line in lines:\n",
            },
        }

    def _invoice(self, rng: random.Random) -> dict[str, Any]:
        bulk = rng.choice([5, 10, 12, 20])
        discount = rng.choice([5, 10, 15])
        tax = rng.choice([7, 8, 19, 20, 21])
        items = []
        for sku in rng.sample(PRODUCTS, 5):
            items.append(
                {
                    "sku": f"{sku.upper()}-{rng.randint(10, 99)}",
                    "qty": rng.choice([1, 2, bulk, bulk + 3, 3]),
                    "unit_price": f"{rng.randint(100, 5000) / 100:.2f}",
                }
            )
        import json

        sample = json.dumps(
            {"customer": rng.choice(["ACME Ltd", "Globex", "Initech", "Umbrella"]), "lines": items}, indent=2
        )
        folder = rng.choice(["billing", "invoices", "shop"])
        script = rng.choice(
            [f"/app/{folder}/invoice.py", f"/app/{folder}/total.py", f"/app/{folder}/make_invoice.py"]
        )
        sample_path = f"/app/{folder}/{rng.choice(['order.json', 'sample_order.json', 'cart.json'])}"
        return {
            "bulk": bulk,
            "discount": discount,
            "tax": tax,
            "script_path": script,
            "sample_path": sample_path,
            "sample": sample + "\n",
            "sample_cmd": f"python3 {script} {sample_path}",
            "anchors": {},
        }

    def _prune_backups(self, rng: random.Random) -> dict[str, Any]:
        keep = rng.choice([2, 3, 4, 5])
        folder = rng.choice(["backups", "ops", "maintenance"])
        script = rng.choice(
            [f"/app/{folder}/prune.sh", f"/app/{folder}/rotate_archives.sh", "/app/bin/prune-backups.sh"]
        )
        sample_dir = f"/app/{folder}/archive"
        names = [
            f"2024-06-{d:02d}_{rng.choice(['db', 'site files', 'media', 'config'])}.tar.gz"
            for d in sorted(rng.sample(range(1, 29), 6))
        ]
        setup = (
            "#!/bin/bash\nset -euo pipefail\n"
            + f"mkdir -p {sample_dir}\n"
            + "".join(f"printf 'archive %s\\n' '{n}' > '{sample_dir}/{n}'\n" for n in names)
            + f"echo 'keep me' > '{sample_dir}/README.txt'\nchmod +x {script}\n"
        )
        return {
            "keep_default": keep,
            "script_path": script,
            "sample_path": f"{sample_dir}/.keep",
            "sample": "",
            "sample_dir": sample_dir,
            "sample_cmd": f"bash {script} {sample_dir} {keep}  # (it deletes files: try it on a copy)",
            "setup": setup,
            "anchors": {},
        }

    def _count_matches(self, rng: random.Random) -> dict[str, Any]:
        folder = rng.choice(["tools", "ops", "scripts"])
        script = rng.choice(
            [f"/app/{folder}/countmatch.sh", f"/app/{folder}/grepcount.sh", "/app/bin/count-matches.sh"]
        )
        sample_dir = f"/app/{folder}/samples"
        logs = {
            "web 1.log": "GET /a 200\nGET /b 500\nretry: a.b\n",
            "web-2.log": "GET /c 200\nPOST /d 201\n",
        }
        setup = (
            "#!/bin/bash\nset -euo pipefail\n"
            + f"mkdir -p {sample_dir}\n"
            + "".join(f"printf '%b' '{text}' > '{sample_dir}/{name}'\n" for name, text in logs.items())
            + f"chmod +x {script}\n"
        )
        return {
            "script_path": script,
            "sample_path": f"{sample_dir}/README.txt",
            "sample": "Example: countmatch.sh 'GET /' samples/*.log\n",
            "sample_dir": sample_dir,
            "sample_cmd": f"bash {script} 'GET /' {sample_dir}/*.log",
            "setup": setup,
            "anchors": {"grep_status": '"$pattern" "$f"'},
        }

    def _word_freq(self, rng: random.Random) -> dict[str, Any]:
        purpose, folder, sample = rng.choice(
            [
                ("tagging support tickets by topic", "support", "tickets.txt"),
                ("spotting recurring phrases in release notes", "docs", "release_notes.txt"),
                ("keyword suggestions for blog posts", "blog", "draft.txt"),
                ("analysing survey answers", "survey", "answers.txt"),
            ]
        )
        stop = sorted(
            rng.sample(["the", "and", "for", "with", "that", "this", "from", "are", "was", "but"], 5)
        )
        text = " ".join(
            rng.choice(["The", "data", "don't", "queue", "report", "and", "it's", "Report", "worker"])
            for _ in range(80)
        )
        script = rng.choice(
            [f"/app/{folder}/wordfreq.py", f"/app/{folder}/top_words.py", "/app/bin/keywords.py"]
        )
        return {
            "purpose": purpose,
            "top_n": rng.choice([5, 8, 10]),
            "min_len": rng.choice([2, 3, 4]),
            "stopwords": stop,
            "script_path": script,
            "sample_path": f"/app/{folder}/{sample}",
            "sample": text + "\n",
            "sample_cmd": f"python3 {script} /app/{folder}/{sample}",
            "anchors": {},
        }

    def _date_buckets(self, rng: random.Random) -> dict[str, Any]:
        event, team, statuses = rng.choice(
            [
                ("deployment", "release", ["success", "rolled_back"]),
                ("login", "security", ["failed", "locked"]),
                ("payment", "finance", ["settled"]),
                ("build", "CI", ["passed", "failed"]),
            ]
        )
        folder = rng.choice(["metrics", "reports", "ops"])
        script = rng.choice(
            [f"/app/{folder}/daily_counts.py", f"/app/{folder}/per_day.py", "/app/bin/event_days.py"]
        )
        rows = ["id,timestamp,status"] + [
            f"{i},2024-05-{rng.randint(1, 9):02d}T{rng.randint(0, 23):02d}:00:00Z,"
            f"{rng.choice([*statuses, 'skipped'])}"
            for i in range(20)
        ]
        sample = f"/app/{folder}/{event}s.csv"
        return {
            "event": event,
            "team": team,
            "statuses": statuses,
            "script_path": script,
            "sample_path": sample,
            "sample": "\n".join(rows) + "\n",
            "sample_cmd": f"python3 {script} {sample} 2024-05-01 2024-05-07",
            "anchors": {},
        }

    def _dedupe_contacts(self, rng: random.Random) -> dict[str, Any]:
        who, team = rng.choice(
            [
                ("contact", "marketing"),
                ("customer", "sales"),
                ("member", "the club"),
                ("subscriber", "the newsletter team"),
            ]
        )
        folder = rng.choice(["crm", "marketing", "data"])
        script = rng.choice(
            [f"/app/{folder}/dedupe.py", f"/app/{folder}/merge_{who}s.py", "/app/bin/dedupe_contacts.py"]
        )
        rows = [
            "id,name,email,phone",
            "1,Ann Lee,ann@example.com,",
            '2,"Lee, Ann",ANN@example.com ,+1 555 0100',
            "3,Bo Chen,bo@mail.test,+1 555 0101",
        ]
        sample = f"/app/{folder}/{who}s.csv"
        return {
            "who": who,
            "team": team,
            "script_path": script,
            "sample_path": sample,
            "sample": "\n".join(rows) + "\n",
            "sample_cmd": f"python3 {script} {sample} /tmp/{who}s.clean.csv",
            "anchors": {
                "fill": '            merged[key] = {"name": row["name"].strip(), "email": key, '
                '"phone": row["phone"].strip()}\n'
            },
        }

    def _disk_report(self, rng: random.Random) -> dict[str, Any]:
        what = rng.choice(
            ["shared drive", "build server's artefact folder", "media library", "home directories"]
        )
        folder = rng.choice(["storage", "ops", "tools"])
        script = rng.choice(
            [f"/app/{folder}/usage_by_ext.sh", f"/app/{folder}/diskreport.sh", "/app/bin/ext-usage.sh"]
        )
        lines = [
            f"{rng.randint(0, 5000000)}\t{rng.choice(['docs/', 'my photos/', ''])}"
            f"{rng.choice(['a.pdf', 'B.JPG', 'c.jpg', 'notes', 'd e.txt'])}"
            for _ in range(12)
        ]
        sample = f"/app/{folder}/listing.txt"
        return {
            "what": what,
            "script_path": script,
            "sample_path": sample,
            "sample": "\n".join(lines) + "\n",
            "sample_cmd": f"bash {script} {sample}",
            "setup": f"#!/bin/bash\nchmod +x {script}\n",
            "anchors": {},
        }
