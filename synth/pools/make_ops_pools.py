"""Generate the ops pools of the claw domain: `claw/services/` (service configs: INI, TOML, flat
key = value .conf) and `claw/projects/` (README-like markdown of made-up software projects, the content
of the git repositories the git-chore family builds). Our own generated data, seeded: running this again
writes the same bytes.

    .venv/bin/python synth/pools/make_ops_pools.py

The files follow a small, regular dialect that the config-edit and git-chore families parse:

- services: `# comment` / `; comment` lines, `[section]` headers (not in .conf), `key = value` lines,
  and one commented-out block (`# [section]` + `# key = value` lines, or `# key = value` lines in a .conf)
  introduced by a comment saying how to enable it.
- projects: `# name`, a one-line tagline in italics, a `**Language:** X · **License:** Y` line, then
  sections (`## Features`, `## Usage`, `## Configuration`, `## Maintainers`, ...).
"""

from __future__ import annotations

import random
from pathlib import Path

from faker import Faker

HERE = Path(__file__).parent / "claw"
SEED = 20240611

# --------------------------------------------------------------------------------------------- services

SERVICES = [
    ("orderd", "ini", "order intake and fulfilment API"),
    ("ledgerd", "toml", "double-entry ledger service"),
    ("mailrelay", "conf", "outbound mail relay"),
    ("thumbnailer", "ini", "image thumbnail worker"),
    ("search-indexer", "toml", "full-text search indexer"),
    ("geofence", "conf", "geofencing event processor"),
    ("billing-gw", "ini", "payment gateway adapter"),
    ("feedsync", "toml", "partner feed synchroniser"),
    ("auditlog", "conf", "append-only audit log collector"),
]

# section -> [(key, kind, candidates, comment or None)]
SECTIONS: dict[str, list[tuple[str, str, list[object], str | None]]] = {
    "server": [
        ("host", "str", ["0.0.0.0", "127.0.0.1", "::"], "Address to bind; 0.0.0.0 listens on all interfaces"),
        ("port", "int", [8080, 8000, 8443, 9000, 5000], None),
        ("workers", "int", [2, 4, 6], "One worker per CPU core is a good default"),
        ("debug", "bool", [True, False], "debug must be off in production"),
        ("request_timeout", "int", [15, 30, 60], "seconds"),
        ("max_body_kb", "int", [512, 1024, 4096], None),
    ],
    "database": [
        ("host", "str", ["localhost", "db-primary", "10.0.3.12"], "Primary database (read/write)"),
        ("port", "int", [5432, 3306], None),
        ("name", "str", ["@svc", "@svc_prod"], None),
        ("user", "str", ["@svc", "svc_rw"], "the password comes from the environment"),
        ("pool_size", "int", [5, 10, 16], None),
        ("connect_timeout", "int", [3, 5, 10], None),
        ("sslmode", "str", ["prefer", "require", "disable"], None),
    ],
    "logging": [
        ("level", "str", ["info", "debug", "warning"], None),
        ("file", "str", ["/var/log/@svc/@svc.log"], "rotated daily by logrotate"),
        ("format", "str", ["%(asctime)s %(levelname)s %(message)s", "json"], None),
        ("rotate_days", "int", [7, 14, 30], None),
    ],
    "queue": [
        ("broker", "str", ["amqp://mq.internal:5672/", "redis://localhost:6379/1"], "Message broker URL"),
        ("prefetch", "int", [1, 8, 32], None),
        ("retry_limit", "int", [3, 5, 10], "give up after this many attempts"),
        ("dead_letter", "str", ["@svc.dlq", "dlq"], None),
    ],
    "storage": [
        ("backend", "str", ["s3", "local", "gcs"], None),
        ("bucket", "str", ["@svc-artifacts", "@svc-data"], None),
        ("path", "str", ["/srv/@svc/data", "/var/lib/@svc"], "local cache directory"),
        ("max_size_gb", "int", [20, 50, 200], None),
    ],
    "auth": [
        ("issuer", "str", ["https://sso.example.com", "https://id.example.org"], None),
        ("audience", "str", ["@svc-api", "@svc"], None),
        ("token_ttl", "int", [900, 3600], "seconds a token stays valid"),
        ("allow_anonymous", "bool", [False, True], None),
    ],
    "smtp": [
        ("relay_host", "str", ["smtp.example.net", "mx1.internal"], None),
        ("relay_port", "int", [25, 587], None),
        ("starttls", "bool", [True, False], "require STARTTLS to the relay"),
        ("sender", "str", ["noreply@example.com", "ops@example.org"], None),
    ],
    "rate_limit": [
        ("requests_per_minute", "int", [60, 120, 600], None),
        ("burst", "int", [10, 20, 50], None),
        ("by", "str", ["ip", "token"], "what a limit is counted per"),
    ],
}
OPTIONAL: dict[str, list[tuple[str, str, list[object]]]] = {
    "cache": [
        ("backend", "str", ["redis"]),
        ("url", "str", ["redis://localhost:6379/0"]),
        ("ttl", "int", [300]),
    ],
    "metrics": [("enabled", "bool", [True]), ("port", "int", [9102]), ("path", "str", ["/metrics"])],
    "tracing": [
        ("exporter", "str", ["otlp"]),
        ("endpoint", "str", ["http://localhost:4317"]),
        ("sample_ratio", "float", [0.1]),
    ],
}


def _value(kind: str, raw: object, svc: str, fmt: str) -> str:
    if kind == "str":
        text = str(raw).replace("@svc", svc.replace("-", "_") if "_" in str(raw) else svc)
        return f'"{text}"' if fmt == "toml" else text
    if kind == "bool":
        return ("true" if raw else "false") if fmt != "conf" else ("yes" if raw else "no")
    return str(raw)


def service_config(rng: random.Random, svc: str, fmt: str, blurb: str) -> str:
    lines = [
        f"# {svc}: {blurb}",
        "# Managed by the platform team -- keep the comments, they document the settings.",
    ]
    if fmt == "toml":
        lines.append("# Format: TOML. Strings are quoted, numbers and booleans are not.")
    lines.append("")
    names = ["server", *rng.sample([s for s in SECTIONS if s != "server"], 3 if fmt == "conf" else 4)]
    optional = rng.choice(sorted(OPTIONAL))
    insert_at = rng.randint(1, len(names) - 1)
    for index, section in enumerate(names):
        if index == insert_at:
            lines.append(f"# Optional {optional} settings. Uncomment to enable.")
            if fmt != "conf":
                lines.append(f"# [{optional}]")
            for key, kind, candidates in OPTIONAL[optional]:
                name = key if fmt != "conf" else f"{optional}_{key}"
                lines.append(f"# {name} = {_value(kind, candidates[0], svc, fmt)}")
            lines.append("")
        comment_char = ";" if fmt == "ini" and rng.random() < 0.4 else "#"
        if fmt == "conf":
            lines.append(f"# ---- {section} ----")
        else:
            lines.append(f"[{section}]")
        keys = SECTIONS[section]
        chosen = [k for k in keys if rng.random() < 0.85] or keys[:2]
        for key, kind, candidates, comment in chosen:
            if comment and rng.random() < 0.6:
                lines.append(f"{comment_char} {comment}")
            name = key if fmt != "conf" else f"{section}_{key}"
            lines.append(f"{name} = {_value(kind, rng.choice(candidates), svc, fmt)}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# --------------------------------------------------------------------------------------------- projects

PROJECTS = [
    (
        "tinyq",
        "Python",
        "A tiny persistent job queue",
        ["durable FIFO queues on local disk", "retry with backoff"],
    ),
    ("pgsnap", "Go", "Point-in-time snapshots for PostgreSQL", ["incremental snapshots", "S3 upload"]),
    ("lintel", "Python", "A pluggable linter for YAML pipelines", ["custom rule packs", "SARIF output"]),
    ("quillmark", "Rust", "Markdown to PDF without LaTeX", ["themes", "table of contents"]),
    ("netpulse", "Go", "Synthetic uptime probes", ["HTTP, TCP and DNS probes", "Prometheus metrics"]),
    ("shelfie", "JavaScript", "A self-hosted reading list", ["ISBN lookup", "reading stats"]),
    ("dataweir", "Python", "Schema checks for CSV drops", ["column type inference", "drift reports"]),
    ("cronguard", "Rust", "A watchdog for scheduled jobs", ["missed-run alerts", "run history"]),
    ("palette-kit", "JavaScript", "Accessible colour palettes", ["contrast checks", "CSS variable export"]),
    ("brewlog", "Python", "Homebrew batch tracker", ["recipe scaling", "fermentation timeline"]),
]
LICENSES = ["MIT", "Apache-2.0", "BSD-3-Clause", "MPL-2.0"]
EXTRA_FEATURES = [
    "a small CLI",
    "structured JSON logs",
    "zero runtime dependencies",
    "configuration via environment variables",
    "a plugin API",
    "shell completions",
    "offline mode",
    "dry-run mode",
]
USAGE = {
    "Python": "pip install {name}\n{name} --help",
    "Go": "go install example.com/{name}@latest\n{name} version",
    "Rust": "cargo install {name}\n{name} --help",
    "JavaScript": "npm install -g {name}\n{name} --help",
}


def project_readme(
    rng: random.Random, fake: Faker, name: str, lang: str, tagline: str, feats: list[str]
) -> str:
    features = [*feats, *rng.sample(EXTRA_FEATURES, 3)]
    maintainers = [fake.name() for _ in range(rng.randint(2, 4))]
    env_prefix = name.upper().replace("-", "_")
    settings = rng.sample(["LOG_LEVEL", "DATA_DIR", "TIMEOUT", "WORKERS", "CACHE_TTL", "COLOR"], 3)
    lines = [
        f"# {name}",
        "",
        f"_{tagline}._",
        "",
        f"**Language:** {lang} · **License:** {rng.choice(LICENSES)}",
        "",
        f"{name} is maintained by a small team at {fake.company()}. "
        f"It started as an internal tool in {rng.randint(2016, 2022)} and is now used by a few teams.",
        "",
        "## Features",
        "",
        *[f"- {f[0].upper()}{f[1:]}" for f in features],
        "",
        "## Usage",
        "",
        "```",
        USAGE[lang].format(name=name),
        "```",
        "",
        "## Configuration",
        "",
        f"Settings are read from environment variables prefixed with `{env_prefix}_`:",
        "",
        *[f"- `{env_prefix}_{s}`" for s in settings],
        "",
        "## Maintainers",
        "",
        *[f"- {m}" for m in maintainers],
        "",
        "## Contributing",
        "",
        "Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    rng = random.Random(SEED)
    fake = Faker()
    fake.seed_instance(SEED)
    services = HERE / "services"
    projects = HERE / "projects"
    services.mkdir(parents=True, exist_ok=True)
    projects.mkdir(parents=True, exist_ok=True)
    for svc, fmt, blurb in SERVICES:
        (services / f"{svc}.{fmt}").write_text(service_config(rng, svc, fmt, blurb), encoding="utf-8")
    for name, lang, tagline, feats in PROJECTS:
        text = project_readme(rng, fake, name, lang, tagline, feats)
        (projects / f"{name}.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
