"""config-edit: edit a service config (INI, TOML or flat `key = value` .conf) in place or into a new
file: set, rename, remove, add and comment out keys, enable a commented-out block, keeping every
comment and the order of sections and keys.

The base config is a pool item of `services/` (synth/pools/make_ops_pools.py); the family parses it
into lines, applies the drawn edits to get the expected file, and the checker gets what that file
parses to (sections and keys in order, typed for TOML) and its comment lines, in order, with how often
each may appear."""

from __future__ import annotations

import configparser
import hashlib
import random
import re
import tomllib
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from synth.families.base import Draft, Family, render
from synth.pools import PoolItem, Pools

FORMATS = {".ini": "ini", ".toml": "toml", ".conf": "conf"}
SECTION_NAMES = ["rate_limit", "server", "database", "logging", "queue", "storage", "auth", "smtp"]
OPTIONAL_NAMES = ["cache", "metrics", "tracing"]

RENAMES = {
    "request_timeout": "read_timeout",
    "max_body_kb": "max_request_kb",
    "workers": "worker_processes",
    "pool_size": "max_connections",
    "connect_timeout": "connect_timeout_s",
    "rotate_days": "retention_days",
    "prefetch": "prefetch_count",
    "retry_limit": "max_retries",
    "dead_letter": "dead_letter_queue",
    "max_size_gb": "quota_gb",
    "token_ttl": "token_lifetime",
    "allow_anonymous": "anonymous_access",
    "relay_host": "smarthost",
    "starttls": "require_tls",
    "requests_per_minute": "rpm",
    "burst": "burst_size",
    "debug": "debug_mode",
    "sslmode": "ssl_mode",
    "bucket": "bucket_name",
    "issuer": "oidc_issuer",
    "sender": "from_address",
}
STRING_VALUES = {
    "host": ["db.internal", "10.0.8.20", "primary.db.svc", "0.0.0.0", "127.0.0.1"],
    "level": ["warning", "error", "info", "debug"],
    "sslmode": ["verify-full", "require"],
    "backend": ["s3", "gcs", "memcached", "redis"],
    "by": ["token", "ip"],
    "broker": ["amqp://mq-prod.internal:5672/", "redis://queue.internal:6379/2"],
    "issuer": ["https://login.example.net", "https://auth.internal"],
    "relay_host": ["smtp-out.internal", "relay.example.net"],
    "sender": ["alerts@example.com", "no-reply@example.net"],
    "format": ["json", "logfmt"],
    "file": ["/var/log/{svc}/current.log", "/srv/logs/{svc}.log"],
    "path": ["/data/{svc}", "/mnt/{svc}/cache"],
    "bucket": ["{svc}-prod", "{svc}-archive"],
    "audience": ["{svc}-internal", "api://{svc}"],
    "name": ["{svc}_v2", "{svc}_main"],
    "user": ["{svc}_app", "{svc}_ro"],
    "dead_letter": ["{svc}.dead", "{svc}.failed"],
    "url": ["redis://cache.internal:6379/0", "redis://10.0.9.4:6380/1"],
    "endpoint": ["http://otel-collector:4317", "http://tracing.internal:4317"],
    "exporter": ["otlp", "jaeger"],
}
NEW_KEYS: dict[str, list[tuple[str, str, str | int | bool]]] = {
    "server": [
        ("keepalive_timeout", "int", 75),
        ("access_log", "bool", False),
        ("trusted_proxy", "str", "10.0.0.0/8"),
    ],
    "database": [("statement_timeout_ms", "int", 30000), ("replica_host", "str", "db-replica.internal")],
    "logging": [("color", "bool", False), ("max_file_mb", "int", 100)],
    "queue": [("visibility_timeout", "int", 300), ("exchange", "str", "{svc}.events")],
    "storage": [("region", "str", "eu-west-1"), ("retention_days", "int", 90)],
    "auth": [("leeway_seconds", "int", 30), ("jwks_url", "str", "https://sso.example.com/jwks.json")],
    "smtp": [("timeout", "int", 20), ("max_recipients", "int", 50)],
    "rate_limit": [("window_seconds", "int", 60), ("exempt_ip", "str", "127.0.0.1")],
}

KV = re.compile(r"([A-Za-z0-9_.-]+)\s*=\s*(.*)")
HEADER = re.compile(r"\[([^\]]+)\]")
COMMENTED_HEADER = re.compile(r"[#;] \[([A-Za-z0-9_]+)\]")
COMMENTED_KV = re.compile(r"[#;] ([A-Za-z0-9_]+) = (.*)")

GOALS = [
    "We are promoting {svc} to production",
    "Ops ticket: harden the {svc} configuration before the audit",
    "The {svc} team is migrating to the new key names of release 2",
    "Prepare the {svc} config for the staging rollout",
    "{svc} is moving to the new cluster",
    "Clean up the {svc} configuration after last week's incident",
    "Apply the reviewed change request for {svc}",
    "Tidy and update the {svc} settings for the next deploy",
]
PATHS = [
    "/app/config/{svc}.{ext}",
    "/app/etc/{svc}/{svc}.{ext}",
    "/app/{svc}/conf/{svc}.{ext}",
    "/app/deploy/{svc}.{ext}",
    "/app/services/{svc}/settings.{ext}",
]


@dataclass(frozen=True)
class Line:
    kind: str
    """blank, comment, section, kv, chead (commented header), ckv (commented key)."""
    text: str
    section: str | None = None
    key: str = ""
    value: str = ""
    block: str | None = None
    """For chead/ckv: the commented-out block's name."""


def parse(text: str, fmt: str) -> list[Line]:
    lines: list[Line] = []
    section: str | None = None
    block: str | None = None
    for raw in text.splitlines():
        s = raw.strip()
        if not s:
            lines.append(Line("blank", raw, section))
            block = None
            continue
        if fmt != "conf" and (m := HEADER.fullmatch(s)):
            section = m.group(1)
            lines.append(Line("section", raw, section))
            continue
        if fmt != "conf" and (m := COMMENTED_HEADER.fullmatch(s)):
            block = m.group(1)
            lines.append(Line("chead", raw, section, block=block))
            continue
        if s.startswith(("#", ";")):
            if fmt == "conf" and "Uncomment to enable" in s:
                block = s.split()[2]
                lines.append(Line("comment", raw, section))
                continue
            m = COMMENTED_KV.fullmatch(s)
            if m and block is not None:
                lines.append(Line("ckv", raw, section, m.group(1), m.group(2), block=block))
            else:
                lines.append(Line("comment", raw, section))
            continue
        m = KV.fullmatch(s)
        if not m:
            raise ValueError(f"unparseable config line {raw!r}")
        lines.append(Line("kv", raw, section, m.group(1), m.group(2)))
    return lines


def emit(lines: list[Line]) -> str:
    return "\n".join(line.text for line in lines).rstrip("\n") + "\n"


def base_key(key: str) -> str:
    for prefix in [*SECTION_NAMES, *OPTIONAL_NAMES]:
        if key.startswith(prefix + "_"):
            return key[len(prefix) + 1 :]
    return key


def section_of(line: Line, fmt: str) -> str:
    """The section a key belongs to (for .conf, the prefix of its name)."""
    if fmt != "conf":
        return line.section or ""
    for prefix in [*SECTION_NAMES, *OPTIONAL_NAMES]:
        if line.key.startswith(prefix + "_"):
            return prefix
    return ""


def literal(kind: str, value: Any, fmt: str) -> str:
    """How a value is written in the file."""
    if kind == "bool":
        if fmt == "conf":
            return "yes" if value else "no"
        return "true" if value else "false"
    if kind == "str":
        return f'"{value}"' if fmt == "toml" else str(value)
    return str(value)


def kind_of(raw: str, fmt: str) -> tuple[str, Any]:
    """The type and value of a written value."""
    if fmt == "toml" and raw.startswith('"'):
        return "str", raw[1:-1]
    if raw in ("true", "false") or (fmt == "conf" and raw in ("yes", "no")):
        return "bool", raw in ("true", "yes")
    if re.fullmatch(r"-?\d+", raw):
        return "int", int(raw)
    if re.fullmatch(r"-?\d+\.\d+", raw):
        return "float", float(raw)
    return "str", raw


def new_value(rng: random.Random, key: str, raw: str, fmt: str, svc: str) -> str:
    kind, value = kind_of(raw, fmt)
    if kind == "bool":
        return literal("bool", not value, fmt)
    if kind == "int":
        if "port" in key:
            choices = [8081, 9090, 8443, 7000, 6543, 5433, 3307, 2525]
        else:
            choices = [value * 2, value * 3, value + 5, max(1, value // 2), value * 10]
        return literal("int", rng.choice([c for c in choices if c != value]), fmt)
    if kind == "float":
        return literal("float", rng.choice([x for x in (0.25, 0.5, 1.0, 0.05) if x != value]), fmt)
    bank = [v.format(svc=svc) for v in STRING_VALUES.get(base_key(key), [f"{value}-v2", f"{value}.new"])]
    return literal("str", rng.choice([v for v in bank if v != value] or [f"{value}-v2"]), fmt)


def shown(raw: str, fmt: str) -> str:
    """A value as the instruction shows it."""
    return f"`{raw}`"


@dataclass
class Edit:
    op: str
    section: str
    key: str
    value: str = ""
    new_key: str = ""
    after: str = ""
    comments: tuple[str, ...] = ()
    block: str = ""
    values: tuple[tuple[str, str], ...] = ()


def attached_comments(lines: list[Line], index: int) -> list[int]:
    """The indexes of the comment lines directly above line `index` (not conf banners)."""
    found: list[int] = []
    i = index - 1
    while i >= 0 and lines[i].kind == "comment" and not lines[i].text.startswith("# ----"):
        found.insert(0, i)
        i -= 1
    return found


def apply_edits(lines: list[Line], edits: list[Edit], fmt: str) -> list[Line]:
    """The expected file: the edits applied, line by line."""
    out = list(lines)

    def find(section: str, key: str) -> int:
        for i, line in enumerate(out):
            if line.kind == "kv" and line.key == key and (fmt == "conf" or line.section == section):
                return i
        raise KeyError(f"{section}.{key}")

    for edit in edits:
        if edit.op == "set":
            i = find(edit.section, edit.key)
            out[i] = replace(out[i], text=f"{edit.key} = {edit.value}", value=edit.value)
        elif edit.op == "rename":
            i = find(edit.section, edit.key)
            out[i] = replace(out[i], text=f"{edit.new_key} = {out[i].value}", key=edit.new_key)
        elif edit.op == "remove":
            i = find(edit.section, edit.key)
            drop = {i, *attached_comments(out, i)}
            out = [line for j, line in enumerate(out) if j not in drop]
        elif edit.op == "disable":
            i = find(edit.section, edit.key)
            out[i] = Line("comment", f"# {edit.key} = {out[i].value}", out[i].section)
        elif edit.op == "add":
            i = find(edit.section, edit.after)
            out.insert(i + 1, Line("kv", f"{edit.key} = {edit.value}", out[i].section, edit.key, edit.value))
        elif edit.op == "enable":
            values = dict(edit.values)
            for i, line in enumerate(out):
                if line.block != edit.block:
                    continue
                if line.kind == "chead":
                    out[i] = Line("section", f"[{edit.block}]", edit.block)
                elif line.kind == "ckv":
                    value = values[line.key]
                    section = edit.block if fmt != "conf" else line.section
                    out[i] = Line("kv", f"{line.key} = {value}", section, line.key, value)
            # the keys of an enabled INI/TOML block belong to it, and so do the lines below it up to
            # the next header (blank lines only, in the pool's layout)
        else:
            raise ValueError(edit.op)
    return out


def expected_state(text: str, fmt: str) -> dict[str, Any]:
    """What the checker compares with: sections with their keys in order, and the comments."""
    if fmt == "ini":
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(text)
        sections = [[s, [[k, v] for k, v in parser.items(s)]] for s in parser.sections()]
    elif fmt == "toml":
        data = tomllib.loads(text)
        sections = [[s, [[k, v] for k, v in table.items()]] for s, table in data.items()]
    else:
        pairs = []
        for raw in text.splitlines():
            s = raw.strip()
            if s and not s.startswith("#"):
                k, _, v = s.partition("=")
                pairs.append([k.strip(), v.strip()])
        sections = [["", pairs]]
    comments: list[list[Any]] = []
    section = ""
    for raw in text.splitlines():
        s = raw.strip()
        if fmt != "conf" and HEADER.fullmatch(s):
            section = s[1:-1].strip()
        elif s.startswith(("#", ";")):
            comments.append([section, s])
    counts: dict[str, int] = {}
    for _, c in comments:
        counts[c] = counts.get(c, 0) + 1
    return {"sections": sections, "comments": comments, "counts": counts}


class ConfigEdit(Family):
    name = "config-edit"
    category = "config"
    pool_kinds: ClassVar[tuple[str, ...]] = ("config",)

    @staticmethod
    def _items(pools: Pools) -> list[PoolItem]:
        return [
            item
            for item in pools.items("config")
            if item.path.startswith("services/") and any(item.path.endswith(ext) for ext in FORMATS)
        ]

    def usable(self, pools: Pools) -> bool:
        return bool(self._items(pools))

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        items = self._items(pools)
        if not items:
            raise ValueError("config-edit needs service configs (services/*.ini|toml|conf) in the pools")
        item = items[rng.randrange(len(items))]
        ext = item.path.rsplit(".", 1)[1]
        fmt = FORMATS["." + ext]
        svc = item.name.rsplit(".", 1)[0]
        original = item.read_text()
        lines = parse(original, fmt)
        edits = self._draw_edits(rng, lines, fmt, svc, difficulty)
        result = emit(apply_edits(lines, edits, fmt))
        state = expected_state(result, fmt)
        if state == expected_state(original, fmt):
            raise ValueError("the drawn edits change nothing")

        path = rng.choice(PATHS).format(svc=svc, ext=ext)
        mode = rng.choices(
            ["inplace", "newfile", "backup"], weights=[3, 2, 2] if difficulty > 1 else [3, 1, 1]
        )[0]
        out_path = path
        backup_path = ""
        if mode == "newfile":
            stem, _, e = path.rpartition(".")
            out_path = rng.choice(
                [f"{stem}.prod.{e}", f"{stem}.new.{e}", path.replace(svc, svc + "-next", 1)]
            )
            if out_path == path:
                out_path = f"{stem}.next.{e}"
        elif mode == "backup":
            backup_path = rng.choice([path + ".bak", path + ".orig", path + ".before-change"])

        style = rng.choice(["numbered", "table", "grouped"])
        goal = rng.choice(GOALS).format(svc=f"`{svc}`")
        descriptions = [self._describe(rng, e, fmt) for e in edits]
        fmt_name = {"ini": "INI", "toml": "TOML", "conf": "flat `key = value`"}[fmt]
        loader = {
            "ini": "Python's `configparser.ConfigParser(interpolation=None)`",
            "toml": "Python's `tomllib`",
            "conf": "a line-by-line `key = value` reader (no sections, `#` starts a comment line)",
        }[fmt]
        ctx = {
            "svc": svc,
            "fmt": fmt,
            "fmt_name": fmt_name,
            "loader": loader,
            "path": path,
            "out_path": out_path,
            "backup_path": backup_path,
            "mode": mode,
            "style": style,
            "goal": goal,
            "edits": [
                {"section": e.section, "op": e.op, "text": d}
                for e, d in zip(edits, descriptions, strict=True)
            ],
            "has_enable": any(e.op == "enable" for e in edits),
            "has_remove": any(e.op == "remove" and e.comments for e in edits),
            "toml_note": fmt == "toml",
            "closing": rng.randrange(3),
        }
        check = {
            "fmt": fmt,
            "out_path": out_path,
            "path": path,
            "mode": mode,
            "backup_path": backup_path,
            "original_sha256": hashlib.sha256(original.encode()).hexdigest(),
            "original_comments": sorted({c for _, c in expected_state(original, fmt)["comments"]}),
            **state,
        }
        ops = [
            {k: v for k, v in vars(e).items() if v not in ("", ())} | {"values": [list(p) for p in e.values]}
            for e in edits
        ]
        files = {
            f"environment{path.removeprefix('/app')}": original,
            "tests/check.py": render("config-edit/check.py.j2", data=check),
            "solution/solve.sh": render(
                "config-edit/solve.sh.j2",
                ops=ops,
                fmt=fmt,
                path=path,
                out_path=out_path,
                backup_path=backup_path,
            ),
        }
        instruction = render("config-edit/instruction.md.j2", **ctx)
        title = {
            "inplace": f"Edit the {svc} {fmt_name} config in place: {len(edits)} changes, comments kept",
            "newfile": f"Write an edited copy of the {svc} {fmt_name} config, keeping the original",
            "backup": f"Back up and edit the {svc} {fmt_name} config, preserving comments and order",
        }[mode]
        return Draft(
            title=title.replace("`", ""),
            instruction=instruction,
            files=files,
            params={
                "service": svc,
                "format": fmt,
                "path": path,
                "out_path": out_path,
                "mode": mode,
                "style": style,
                "ops": [e.op for e in edits],
            },
            keywords=["config", fmt, "edit", "comments"],
            pool_items=[item],
        )

    def _draw_edits(
        self, rng: random.Random, lines: list[Line], fmt: str, svc: str, difficulty: int
    ) -> list[Edit]:
        [line for line in lines if line.kind == "kv"]
        blocks = sorted({line.block for line in lines if line.block})
        n = {1: 3, 2: 5, 3: 7}[difficulty] + rng.randint(0, 1)
        pool_ops = ["set", "set", "rename", "remove", "add", "disable"]
        if difficulty == 1:
            pool_ops = ["set", "set", "set", "rename", "remove", "add"]
        want_enable = bool(blocks) and (difficulty >= 2 or rng.random() < 0.4)
        ops = [rng.choice(pool_ops) for _ in range(n - int(want_enable))]
        if "set" not in ops:
            ops[0] = "set"
        if difficulty == 3:  # every kind of edit at least once
            for i, must in enumerate(["rename", "remove", "add", "disable"]):
                if must not in ops:
                    ops[(i + 1) % len(ops)] = must
        touched: set[tuple[str, str]] = set()
        edits: list[Edit] = []
        current = list(lines)
        for op in ops:
            free = [
                line
                for line in current
                if line.kind == "kv" and (section_of(line, fmt), line.key) not in touched
            ]
            if op == "rename":
                free = [line for line in free if base_key(line.key) in RENAMES]
            if op == "add":
                free = [line for line in free if section_of(line, fmt) in NEW_KEYS]
            if not free:
                continue
            line = rng.choice(free)
            section = section_of(line, fmt)
            touched.add((section, line.key))
            prefix = line.key[: len(line.key) - len(base_key(line.key))]
            if op == "set":
                edit = Edit("set", section, line.key, value=new_value(rng, line.key, line.value, fmt, svc))
            elif op == "rename":
                new_key = prefix + RENAMES[base_key(line.key)]
                if any(
                    x.kind == "kv" and x.key == new_key and section_of(x, fmt) == section for x in current
                ):
                    continue
                edit = Edit("rename", section, line.key, new_key=new_key)
                touched.add((section, new_key))
            elif op == "remove":
                index = current.index(line)
                comments = tuple(current[i].text.strip() for i in attached_comments(current, index))
                if any(COMMENTED_KV.fullmatch(c) for c in comments):
                    continue
                edit = Edit("remove", section, line.key, comments=comments)
            elif op == "disable":
                edit = Edit("disable", section, line.key, value=line.value)
            else:
                existing = {x.key for x in current if x.kind == "kv"}
                choices = [c for c in NEW_KEYS[section] if prefix + c[0] not in existing]
                if not choices:
                    continue
                key, kind, value = rng.choice(choices)
                value = value.format(svc=svc) if isinstance(value, str) else value
                edit = Edit("add", section, prefix + key, value=literal(kind, value, fmt), after=line.key)
                touched.add((section, prefix + key))
            edits.append(edit)
            current = apply_edits(current, [edit], fmt)
        if want_enable:
            block = rng.choice(blocks)
            ckvs = [line for line in lines if line.kind == "ckv" and line.block == block]
            values = []
            for line in ckvs:
                value = line.value
                if rng.random() < 0.5:
                    value = new_value(rng, line.key, line.value, fmt, svc)
                values.append((line.key, value))
            edits.insert(
                rng.randint(0, len(edits)), Edit("enable", block, "", block=block, values=tuple(values))
            )
        if len([e for e in edits if e.op != "enable"]) < 2:
            raise ValueError("too few applicable edits")
        return edits

    @staticmethod
    def _describe(rng: random.Random, e: Edit, fmt: str) -> str:
        where = f" in `[{e.section}]`" if fmt != "conf" else ""
        if e.op == "set":
            return rng.choice(
                [
                    f"set `{e.key}`{where} to {shown(e.value, fmt)}",
                    f"change the value of `{e.key}`{where} to {shown(e.value, fmt)}",
                    f"`{e.key}`{where} must become {shown(e.value, fmt)}",
                ]
            )
        if e.op == "rename":
            return rng.choice(
                [
                    f"rename the key `{e.key}`{where} to `{e.new_key}`, keeping its value and its position",
                    f"`{e.key}`{where} is now called `{e.new_key}`: rename it in place "
                    "(same value, same line)",
                ]
            )
        if e.op == "remove":
            extra = (
                " together with the comment line"
                + ("s" if len(e.comments) > 1 else "")
                + " directly above it ("
                + ", ".join(f"`{c}`" for c in e.comments)
                + ")"
                if e.comments
                else " (it has no comment of its own; leave the surrounding comments alone)"
            )
            return rng.choice([f"delete the key `{e.key}`{where}{extra}", f"remove `{e.key}`{where}{extra}"])
        if e.op == "disable":
            return rng.choice(
                [
                    f"comment out `{e.key}`{where}: the line must become exactly `# {e.key} = {e.value}`, "
                    "at the same place",
                    f"disable `{e.key}`{where} by turning its line into the comment `# {e.key} = {e.value}` "
                    "(same position)",
                ]
            )
        if e.op == "add":
            return rng.choice(
                [
                    f"add a new key `{e.key}` with the value {shown(e.value, fmt)}{where}, "
                    f"on the line directly after `{e.after}`",
                    f"insert `{e.key} = {e.value}`{where} right below the `{e.after}` line",
                ]
            )
        values = ", ".join(f"`{k} = {v}`" for k, v in e.values)
        head = (
            f"the commented-out `[{e.block}]` section "
            f"(the `# [{e.block}]` line and the `# key = value` lines under it)"
            if fmt != "conf"
            else f"the commented-out `{e.block}_*` settings (the `# {e.block}_... = ...` lines)"
        )
        return rng.choice(
            [
                f"enable {head}: uncomment {'it' if fmt != 'conf' else 'them'} at the same position, "
                f"with exactly these settings: {values}",
                f"turn {head} into live settings where they stand, with the values {values}",
            ]
        )
