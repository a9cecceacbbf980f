"""git-chore: a chore in a git repository built at image build time (environment/setup.sh: `git init`,
commits with fixed authors and dates, so the repository is the same on every build).

Chores: cut a release (branch, version bump in the project's version files, CHANGELOG, annotated
tag), revert one earlier commit, cherry-pick fixes onto a maintenance branch, merge a conflicting
branch by stated rules, edit files and commit them with an exact message and author, squash a
branch's work-in-progress commits, and stop tracking (or purge from history) a committed secret.

The repository's content comes from a project README of the pool (`projects/*.md`): its name,
language and maintainers; the family models every branch's files commit by commit, so the checker
embeds the exact expected contents and finds commits by their (unique) subjects."""

from __future__ import annotations

import random
import re
import shlex
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, ClassVar

from synth.families.base import Draft, Family, render
from synth.pools import PoolItem, Pools

VARIANTS = ["release", "revert", "cherry-pick", "merge", "rewrite", "squash", "untrack"]

MODULES = {
    "retry": ["MAX_RETRIES", "BASE_DELAY_MS", "MAX_DELAY_MS", "JITTER_PCT"],
    "storage": ["PAGE_SIZE", "CACHE_TTL_S", "MAX_ITEMS", "FLUSH_EVERY"],
    "server": ["PORT", "WORKERS", "TIMEOUT_S", "MAX_BODY_KB"],
    "report": ["TOP_N", "DECIMALS", "COLUMN_WIDTH", "MAX_ROWS"],
    "sync": ["BATCH_SIZE", "INTERVAL_S", "MAX_LAG_S", "CONCURRENCY"],
}
CONST_VALUES = [2, 3, 4, 5, 8, 10, 12, 16, 20, 25, 30, 45, 50, 60, 64, 80, 100, 120, 128, 250, 256, 500, 1000]
LIST_FILES = {
    "allowed_hosts.txt": [
        "api.example.com",
        "app.example.com",
        "cdn.example.net",
        "db.internal",
        "docs.example.com",
        "git.internal",
        "mail.example.com",
        "metrics.internal",
        "queue.internal",
        "search.internal",
        "status.example.com",
        "vault.internal",
        "www.example.com",
        "auth.example.com",
        "backup.internal",
        "ci.internal",
    ],
    "regions.txt": [
        "af-south-1",
        "ap-northeast-1",
        "ap-south-1",
        "ap-southeast-2",
        "ca-central-1",
        "eu-central-1",
        "eu-north-1",
        "eu-south-1",
        "eu-west-1",
        "eu-west-2",
        "eu-west-3",
        "me-south-1",
        "sa-east-1",
        "us-east-1",
        "us-east-2",
        "us-west-1",
        "us-west-2",
    ],
    "plugins.txt": [
        "audit",
        "auth-ldap",
        "auth-oidc",
        "cache-redis",
        "export-csv",
        "export-parquet",
        "geoip",
        "healthcheck",
        "i18n",
        "metrics",
        "notify-email",
        "notify-slack",
        "ratelimit",
        "search",
        "thumbnails",
        "webhooks",
    ],
}
CONFIG_KEYS: dict[str, list[tuple[str, list[str | int]]]] = {
    "core": [
        ("timeout", [15, 30, 45, 60, 90]),
        ("retries", [2, 3, 4, 5, 8]),
        ("log_level", ["info", "debug", "warning", "error"]),
    ],
    "cache": [("ttl", [60, 300, 600, 900]), ("size_mb", [128, 256, 512, 1024])],
    "health": [("interval", [5, 10, 15, 30]), ("unhealthy_threshold", [2, 3, 5])],
}
SECRET_FILES = [
    (".env", ".env", "DATABASE_URL=postgres://app:{pw}@db.internal:5432/app\nAPI_TOKEN={tok}\n"),
    (
        "config/credentials.ini",
        "config/credentials.ini",
        "[deploy]\nuser = deploy\npassword = {pw}\ntoken = {tok}\n",
    ),
    ("secrets/api_key.txt", "secrets/", "{tok}\n"),
    (
        "deploy/id_deploy",
        "deploy/id_deploy",
        "-----BEGIN OPENSSH PRIVATE KEY-----\n{tok}\n-----END OPENSSH PRIVATE KEY-----\n",
    ),
    ("config/local.env", "*.env", "SMTP_PASSWORD={pw}\nSENTRY_DSN=https://{tok}@sentry.example.com/4\n"),
]
DOC_TOPICS = [
    "installation",
    "troubleshooting",
    "faq",
    "architecture",
    "deployment",
    "upgrading",
    "security",
    "performance",
    "logging",
    "backups",
    "release-process",
    "glossary",
]


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.lower().split("_"))


@dataclass
class Lang:
    name: str
    module_path: str
    """format with {pkg} and {mod}"""

    def module(self, project: str, pkg: str, mod: str, consts: dict[str, int]) -> str:
        if self.name == "Python":
            body = "\n".join(f"{k} = {v}" for k, v in consts.items())
            return f'"""{project}: {mod} settings."""\n\n{body}\n'
        if self.name == "Go":
            body = "\n".join(f"\t{camel(k)} = {v}" for k, v in consts.items())
            return (
                f"// Package {mod} holds the {mod} settings of {project}.\n"
                f"package {mod}\n\nconst (\n{body}\n)\n"
            )
        if self.name == "Rust":
            body = "\n".join(f"pub const {k}: u32 = {v};" for k, v in consts.items())
            return f"//! {project}: {mod} settings.\n\n{body}\n"
        body = "\n".join(f"export const {k} = {v};" for k, v in consts.items())
        return f"// {project}: {mod} settings.\n\n{body}\n"

    def const_name(self, key: str) -> str:
        return camel(key) if self.name == "Go" else key

    def version_files(self, project: str, pkg: str, tagline: str, version: str) -> dict[str, str]:
        files = {"VERSION": f"{version}\n"}
        if self.name == "Python":
            files["pyproject.toml"] = (
                f'[project]\nname = "{project}"\nversion = "{version}"\ndescription = "{tagline}"\n'
                'requires-python = ">=3.9"\n'
            )
            files[f"src/{pkg}/__init__.py"] = f'"""{project}: {tagline}."""\n\n__version__ = "{version}"\n'
        elif self.name == "Go":
            files["go.mod"] = f"module example.com/{project}\n\ngo 1.21\n"
            files["version.go"] = (
                f"package main\n\n// Version is the released version of {project}.\n"
                f'const Version = "{version}"\n'
            )
        elif self.name == "Rust":
            files["Cargo.toml"] = (
                f'[package]\nname = "{project}"\nversion = "{version}"\nedition = "2021"\n'
                f'description = "{tagline}"\n'
            )
        else:
            files["package.json"] = (
                "{\n"
                f'  "name": "{project}",\n  "version": "{version}",\n  "description": "{tagline}",\n'
                '  "main": "src/index.js",\n  "license": "MIT"\n}\n'
            )
        return files

    def version_lines(self, pkg: str) -> list[tuple[str, str]]:
        """(path, line pattern with {v}) of every place the version is written."""
        if self.name == "Python":
            return [
                ("VERSION", "{v}"),
                ("pyproject.toml", 'version = "{v}"'),
                (f"src/{pkg}/__init__.py", '__version__ = "{v}"'),
            ]
        if self.name == "Go":
            return [("VERSION", "{v}"), ("version.go", 'const Version = "{v}"')]
        if self.name == "Rust":
            return [("VERSION", "{v}"), ("Cargo.toml", 'version = "{v}"')]
        return [("VERSION", "{v}"), ("package.json", '  "version": "{v}",')]


LANGS = {
    "Python": Lang("Python", "src/{pkg}/{mod}.py"),
    "Go": Lang("Go", "internal/{mod}/{mod}.go"),
    "Rust": Lang("Rust", "src/{mod}.rs"),
    "JavaScript": Lang("JavaScript", "src/{mod}.js"),
}


@dataclass
class Commit:
    subject: str
    message: str
    files: dict[str, str]
    date: str
    author: tuple[str, str]


@dataclass
class Repo:
    """The repository as the family models it: what setup.sh does, step by step, and every branch's
    commits with their full file snapshots."""

    clock: datetime
    committer: tuple[str, str]
    steps: list[dict[str, Any]] = field(default_factory=list)
    branches: dict[str, list[Commit]] = field(default_factory=lambda: {"main": []})
    head: str = "main"
    files: dict[str, str] = field(default_factory=dict)
    subjects: set[str] = field(default_factory=set)

    def write(self, path: str, text: str) -> None:
        if self.files.get(path) != text:
            self.files[path] = text
            self.steps.append({"op": "write", "path": path, "text": text})

    def delete(self, path: str) -> None:
        del self.files[path]
        self.steps.append({"op": "delete", "path": path})

    def tick(self, rng: random.Random) -> str:
        self.clock += timedelta(days=rng.randint(0, 3), hours=rng.randint(1, 9), minutes=rng.randint(0, 59))
        return self.clock.strftime("%Y-%m-%dT%H:%M:%S+00:00")

    def commit(self, rng: random.Random, message: str, author: tuple[str, str]) -> Commit:
        subject = message.split("\n", 1)[0]
        if subject in self.subjects:
            raise ValueError(f"duplicate subject {subject!r}")
        self.subjects.add(subject)
        parent = self.branches[self.head][-1].files if self.branches[self.head] else {}
        if parent == self.files:
            raise ValueError(f"empty commit {subject!r}")
        commit = Commit(subject, message, dict(self.files), self.tick(rng), author)
        self.branches[self.head].append(commit)
        self.steps.append({"op": "commit", "message": message, "date": commit.date, "author": list(author)})
        return commit

    def branch(self, name: str) -> None:
        self.branches[name] = list(self.branches[self.head])
        self.head = name
        self.steps.append({"op": "branch", "name": name})

    def checkout(self, name: str) -> None:
        self.head = name
        self.files = dict(self.branches[name][-1].files)
        self.steps.append({"op": "checkout", "name": name})

    def tip(self, name: str) -> Commit:
        return self.branches[name][-1]


def parse_project(text: str) -> dict[str, Any]:
    name = re.search(r"^# (.+)$", text, re.M)
    lang = re.search(r"\*\*Language:\*\* (\w+)", text)
    tagline = re.search(r"^_(.+)\._$", text, re.M)
    maint = re.search(r"## Maintainers\n\n((?:- .+\n)+)", text)
    if not (name and lang and tagline and maint) or lang.group(1) not in LANGS:
        raise ValueError("not a project README of the pool's layout")
    people = [line[2:].strip() for line in maint.group(1).splitlines()]
    return {
        "name": name.group(1).strip(),
        "lang": lang.group(1),
        "tagline": tagline.group(1),
        "people": people,
    }


def email_of(person: str, project: str) -> str:
    first, *rest = person.lower().replace(".", "").split()
    return f"{first}.{rest[-1] if rest else 'dev'}@{project.replace('-', '')}.dev"


def changelog(
    project: str, unreleased: list[tuple[str, str]], history: list[tuple[str, str, list[str]]]
) -> str:
    """Keep a Changelog text; unreleased: (section, entry); history: (version, date, fixed entries)."""
    out = [
        "# Changelog",
        "",
        f"All notable changes to {project} are documented in this file.",
        "The format follows Keep a Changelog; versions follow Semantic Versioning.",
        "",
        "## [Unreleased]",
        "",
    ]
    for section in ("Added", "Changed", "Removed", "Fixed"):
        entries = [e for s, e in unreleased if s == section]
        if entries:
            out += [f"### {section}", *[f"- {e}" for e in entries], ""]
    for version, date, entries in history:
        out += [f"## [{version}] - {date}", "", "### Fixed", *[f"- {e}" for e in entries], ""]
    return "\n".join(out).rstrip("\n") + "\n"


class GitChore(Family):
    name = "git-chore"
    category = "git"
    pool_kinds: ClassVar[tuple[str, ...]] = ("markdown",)

    @staticmethod
    def _items(pools: Pools) -> list[PoolItem]:
        return [i for i in pools.items("markdown", "text") if i.path.startswith("projects/")]

    def usable(self, pools: Pools) -> bool:
        return bool(self._items(pools))

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        items = self._items(pools)
        if not items:
            raise ValueError("git-chore needs project READMEs (projects/*.md) in the pools")
        item = items[rng.randrange(len(items))]
        readme = item.read_text()
        project = parse_project(readme)
        variant = rng.choice(VARIANTS)
        builder = Builder(rng, project, readme, difficulty)
        made = getattr(builder, variant.replace("-", "_"))()
        repo = builder.repo
        files = {
            "environment/setup.sh": render(
                "git-chore/setup.sh.j2",
                repo_path=builder.path,
                committer=repo.committer,
                steps=repo.steps,
                untracked=builder.untracked,
                q=shlex.quote,
            ),
            "tests/check.py": render(
                f"git-chore/check-{variant}.py.j2", repo_path=builder.path, data=made["check"]
            ),
            "solution/solve.sh": render(
                f"git-chore/solve-{variant}.sh.j2", repo_path=builder.path, q=shlex.quote, **made["solve"]
            ),
        }
        instruction = render(
            f"git-chore/instruction-{variant}.md.j2",
            repo_path=builder.path,
            project=project["name"],
            intro=rng.randrange(3),
            **made["ctx"],
        )
        return Draft(
            title=made["title"],
            instruction=instruction,
            files=files,
            params={"variant": variant, "project": project["name"], "repo": builder.path, **made["params"]},
            keywords=["git", variant, *made.get("keywords", [])],
            pool_items=[item],
            workdir=builder.path,
        )


class Builder:
    """Builds one repository history and the chore on top of it."""

    def __init__(self, rng: random.Random, project: dict[str, Any], readme: str, difficulty: int) -> None:
        self.rng = rng
        self.p = project
        self.readme = readme
        self.difficulty = difficulty
        self.name = project["name"]
        self.pkg = self.name.replace("-", "_")
        self.lang = LANGS[project["lang"]]
        self.path = rng.choice(
            [
                f"/app/{self.name}",
                f"/app/src/{self.name}",
                f"/app/repos/{self.name}",
                f"/app/work/{self.name}",
            ]
        )
        people = list(project["people"])
        rng.shuffle(people)
        self.people = [(p, email_of(p, self.name)) for p in people]
        start = datetime(2024, rng.randint(1, 9), rng.randint(1, 28), rng.randint(8, 11), 0)
        self.repo = Repo(clock=start, committer=self.people[0])
        self.untracked: dict[str, str] = {}
        major, minor, patch = rng.randint(0, 3), rng.randint(1, 9), rng.randint(0, 6)
        self.version = f"{major}.{minor}.{patch}"
        self.consts: dict[str, dict[str, int]] = {}
        self.modules = rng.sample(sorted(MODULES), 3)
        self.list_file = rng.choice(sorted(LIST_FILES))
        self.list_entries = sorted(rng.sample(LIST_FILES[self.list_file], 6))
        self.config: dict[str, dict[str, Any]] = {
            s: {k: rng.choice(vals) for k, vals in keys} for s, keys in CONFIG_KEYS.items()
        }
        self.history = self._history()

    # ------------------------------------------------------------------ content

    def author(self) -> tuple[str, str]:
        return self.rng.choice(self.people)

    def module_path(self, mod: str) -> str:
        return self.lang.module_path.format(pkg=self.pkg, mod=mod)

    def module_text(self, mod: str) -> str:
        return self.lang.module(self.name, self.pkg, mod, self.consts[mod])

    def config_text(self) -> str:
        lines = [f"# {self.name} defaults (overridden by environment variables)", ""]
        for section, keys in self.config.items():
            lines.append(f"[{section}]")
            lines += [f"{k} = {v}" for k, v in keys.items()]
            lines.append("")
        return "\n".join(lines).rstrip("\n") + "\n"

    def list_text(self, entries: list[str]) -> str:
        return "".join(f"{e}\n" for e in entries)

    def _history(self) -> list[tuple[str, str, list[str]]]:
        out = []
        major, minor, patch = (int(x) for x in self.version.split("."))
        day = self.repo.clock - timedelta(days=20)
        for i in range(2):
            v = f"{major}.{minor}.{patch - i}" if patch - i >= 0 else f"{major}.{minor - 1}.{5 - i}"
            fixes = self.rng.sample(
                [
                    "Crash when the config file is empty.",
                    "Wrong exit code on `--help`.",
                    "Timezone handling of `--since`.",
                    "Memory leak in the watcher.",
                    "Retry delay ignored the configured maximum.",
                    "Unicode file names in reports.",
                ],
                2,
            )
            out.append((v, (day - timedelta(days=30 * i)).strftime("%Y-%m-%d"), fixes))
        return out

    def initial(self, unreleased: list[tuple[str, str]] | None = None) -> None:
        repo = self.repo
        repo.write("README.md", self.readme)
        for path, text in self.lang.version_files(
            self.name, self.pkg, self.p["tagline"], self.version
        ).items():
            repo.write(path, text)
        for mod in self.modules:
            self.consts[mod] = {k: self.rng.choice(CONST_VALUES) for k in MODULES[mod]}
            repo.write(self.module_path(mod), self.module_text(mod))
        repo.write("config/defaults.ini", self.config_text())
        repo.write(self.list_file, self.list_text(self.list_entries))
        repo.write("CHANGELOG.md", changelog(self.name, unreleased or [], self.history))
        repo.write(
            ".gitignore",
            "__pycache__/\n*.log\n/build/\n" if self.lang.name == "Python" else "*.log\n/build/\n/dist/\n",
        )
        repo.commit(self.rng, f"Initial import of {self.name} {self.version}", self.people[0])

    def tweak(self, mod: str | None = None, commit: bool = True) -> tuple[str, str]:
        """Change one constant of a module (and commit it): returns (path, subject)."""
        rng = self.rng
        mod = mod or rng.choice(self.modules)
        for _ in range(20):
            key = rng.choice(MODULES[mod])
            old = self.consts[mod][key]
            new = rng.choice([v for v in CONST_VALUES if v != old])
            shown = self.lang.const_name(key)
            verb = "Raise" if new > old else "Lower"
            subjects = [
                f"{verb} {shown} to {new} in {mod}",
                f"{mod}: {verb.lower()} {shown} from {old} to {new}",
                f"Tune {mod} {shown} ({old} -> {new})",
            ]
            subjects = [x for x in subjects if x not in self.repo.subjects]
            if subjects:
                break
        subject = rng.choice(subjects)
        self.consts[mod][key] = new
        path = self.module_path(mod)
        self.repo.write(path, self.module_text(mod))
        if commit:
            self.repo.commit(rng, subject, self.author())
        return path, subject

    def add_doc(self) -> tuple[str, str]:
        rng = self.rng
        choices = []
        for topic in DOC_TOPICS:
            if f"docs/{topic}.md" in self.repo.files:
                continue
            subjects = [f"Add {topic} guide", f"docs: add {topic} page", f"Document {topic}"]
            subjects = [x for x in subjects if x not in self.repo.subjects]
            if subjects:
                choices.append((topic, subjects))
        if not choices:
            return self.tweak()
        topic, subjects = rng.choice(choices)
        path = f"docs/{topic}.md"
        steps = rng.sample(
            [
                f"Check the installed version with `{self.name} --version`.",
                "Read the CHANGELOG before upgrading across a minor version.",
                "Keep `config/defaults.ini` under version control.",
                "Run with `LOG_LEVEL=debug` to see every request.",
                "Back up the data directory before a major upgrade.",
                f"Report bugs with the output of `{self.name} doctor`.",
                "Pin the version in production deployments.",
                "Rotate the log files daily.",
            ],
            3,
        )
        title = topic.replace("-", " ").capitalize()
        text = f"# {title}\n\n" + "".join(f"{i}. {step}\n" for i, step in enumerate(steps, 1))
        self.repo.write(path, text)
        self.repo.commit(rng, rng.choice(subjects), self.author())
        return path, self.repo.tip(self.repo.head).subject

    def set_config(self, section: str, key: str, value: Any, subject: str | None = None) -> str:
        self.config[section][key] = value
        self.repo.write("config/defaults.ini", self.config_text())
        subject = subject or f"Set {section}.{key} to {value}"
        self.repo.commit(self.rng, subject, self.author())
        return subject

    def noise(self, n: int, avoid: Collection[str] = ()) -> list[str]:
        """n ordinary commits touching files not in `avoid`."""
        subjects = []
        for _ in range(n):
            mods = [m for m in self.modules if self.module_path(m) not in avoid]
            if mods and self.rng.random() < 0.6:
                subjects.append(self.tweak(self.rng.choice(mods))[1])
            else:
                subjects.append(self.add_doc()[1])
        return subjects

    # ------------------------------------------------------------------ chores

    def release(self) -> dict[str, Any]:
        rng = self.rng
        kinds = ["patch", "minor", "major"]
        entries_by = {
            "Added": [
                f"`{self.name} export` command.",
                "Support for a config file next to the binary.",
                "A `--json` output mode.",
            ],
            "Changed": ["Default log level is now `info`.", "Faster start-up on large data directories."],
            "Removed": ["The deprecated `--legacy` flag."],
            "Fixed": [
                "Crash on an empty input file.",
                "Wrong totals when a row is repeated.",
                "Lock file left behind on SIGTERM.",
            ],
        }
        if self.difficulty == 3:
            bump = rng.choice(kinds)
            sections = {
                "patch": ["Fixed"],
                "minor": ["Added", "Fixed"],
                "major": ["Removed", "Added", "Fixed"],
            }[bump]
        else:
            bump = rng.choice(kinds)
            sections = rng.sample(["Added", "Changed", "Fixed"], 2)
        unreleased = [
            (s, e)
            for s in sections
            for e in rng.sample(entries_by[s], min(len(entries_by[s]), rng.randint(1, 2)))
        ]
        self.initial()
        notes = list(unreleased)
        rng.shuffle(notes)
        for section, entry in notes:
            self.noise(1)
            current = [*self._unreleased(self.repo.files["CHANGELOG.md"]), (section, entry)]
            self.repo.write("CHANGELOG.md", changelog(self.name, current, self.history))
            self.repo.commit(rng, f"CHANGELOG: note {entry.rstrip('.').lower()[:40]}", self.author())
        self.noise(rng.randint(0, 1))
        major, minor, patch = (int(x) for x in self.version.split("."))
        new = {
            "patch": f"{major}.{minor}.{patch + 1}",
            "minor": f"{major}.{minor + 1}.0",
            "major": f"{major + 1}.0.0",
        }[bump]
        date = (self.repo.clock + timedelta(days=1)).strftime("%Y-%m-%d")
        branch = rng.choice([f"release/{new}", f"release-{new}", f"rel/v{new}"])
        tag = rng.choice([f"v{new}", new])
        message = rng.choice([f"Release {new}", f"Bump version to {new}", f"{self.name} {new}"])
        tag_message = rng.choice([f"{self.name} {new}", f"Release {new}", f"Version {new}"])
        use_branch = self.difficulty >= 2 or rng.random() < 0.5
        main_tip = self.repo.tip("main")
        expected = dict(main_tip.files)
        version_lines = self.lang.version_lines(self.pkg)
        for path, pattern in version_lines:
            old_line, new_line = pattern.format(v=self.version), pattern.format(v=new)
            assert old_line + "\n" in expected[path]
            expected[path] = expected[path].replace(old_line + "\n", new_line + "\n", 1)
        expected["CHANGELOG.md"] = expected["CHANGELOG.md"].replace(
            "## [Unreleased]\n", f"## [Unreleased]\n\n## [{new}] - {date}\n", 1
        )
        changed = sorted(p for p in expected if expected[p] != main_tip.files[p])
        if rng.random() < 0.5:
            self.untracked["NOTES.txt"] = (
                f"TODO before {new}:\n- ask {self.people[-1][0]} about the announcement\n"
            )
        return {
            "title": f"Cut the {self.name} {new} release: version bump, CHANGELOG, commit and annotated tag",
            "ctx": {
                "version": self.version,
                "new": new if self.difficulty == 1 else None,
                "infer": self.difficulty == 3,
                "new_version": new,
                "bump": bump,
                "date": date,
                "branch": branch if use_branch else None,
                "tag": tag,
                "message": message,
                "tag_message": tag_message,
                "version_files": [
                    {"path": p, "line": pat.format(v=self.version)} for p, pat in version_lines
                ],
                "untracked": sorted(self.untracked),
            },
            "check": {
                "main_subjects": [c.subject for c in reversed(self.repo.branches["main"])],
                "branch": branch if use_branch else None,
                "tag": tag,
                "message": message,
                "tag_message": tag_message,
                "expected": {p: expected[p] for p in changed},
                "changed": changed,
                "untracked": self.untracked,
            },
            "solve": {
                "branch": branch if use_branch else None,
                "new_version": new,
                "infer": self.difficulty == 3,
                "old": self.version,
                "bump": bump,
                "date": date,
                "tag": tag,
                "message": message,
                "tag_message": tag_message,
                "version_files": [{"path": p, "pattern": pat} for p, pat in version_lines],
            },
            "params": {"bump": bump, "from": self.version, "to": new, "branch": use_branch},
            "keywords": ["release", "tag", "changelog"],
        }

    @staticmethod
    def _unreleased(text: str) -> list[tuple[str, str]]:
        body = text.split("## [Unreleased]\n", 1)[1].split("\n## [", 1)[0]
        out, section = [], ""
        for line in body.splitlines():
            if line.startswith("### "):
                section = line[4:]
            elif line.startswith("- "):
                out.append((section, line[2:]))
        return out

    def revert(self) -> dict[str, Any]:
        rng = self.rng
        self.initial()
        before = self.noise(rng.randint(1, 2))
        # the commit to revert: one or two files no later commit touches
        kind = rng.choice(["tweak", "config", "doc"])
        parent_files = dict(self.repo.files)
        if kind == "tweak":
            path, subject = self.tweak()
            touched = {path}
        elif kind == "config":
            section = rng.choice(sorted(self.config))
            key = rng.choice(sorted(self.config[section]))
            old = self.config[section][key]
            vals = dict(CONFIG_KEYS[section])[key]
            new = rng.choice([v for v in vals if v != old])
            subject = self.set_config(
                section,
                key,
                new,
                rng.choice([f"Change default {key} to {new}", f"config: {section}.{key} = {new}"]),
            )
            touched = {"config/defaults.ini"}
        else:
            path, subject = self.add_doc()
            touched = {path}
        self.repo.tip("main")
        after = self.noise(rng.randint(1, 1 + self.difficulty), avoid=touched)
        expected = dict(self.repo.files)
        for path in touched:
            if path in parent_files:
                expected[path] = parent_files[path]
            else:
                expected.pop(path)
        style = rng.choice(["default", "custom"])
        message = (
            f'Revert "{subject}"'
            if style == "default"
            else rng.choice([f"Back out: {subject}", f"Undo {subject[0].lower()}{subject[1:]}"])
        )
        return {
            "title": f"Revert one earlier commit of {self.name} without rewriting history",
            "ctx": {
                "subject": subject,
                "style": style,
                "message": message,
                "n_after": len(after),
                "branch": "main",
            },
            "check": {
                "main_subjects": [c.subject for c in reversed(self.repo.branches["main"])],
                "target": subject,
                "style": style,
                "message": message,
                "expected": expected,
            },
            "solve": {"subject": subject, "style": style, "message": message},
            "params": {"target_kind": kind, "style": style, "later": len(after), "earlier": len(before)},
            "keywords": ["revert"],
        }

    def cherry_pick(self) -> dict[str, Any]:
        rng = self.rng
        self.initial()
        self.noise(1)
        maint = rng.choice(
            [
                f"maint/{self.version.rsplit('.', 1)[0]}.x",
                f"release/{self.version.rsplit('.', 1)[0]}",
                "stable",
            ]
        )
        fork = self.repo.tip("main")
        n_fix = {1: 1, 2: rng.randint(1, 2), 3: 2}[self.difficulty]
        fix_mods = rng.sample(self.modules, n_fix)
        others = [m for m in self.modules if m not in fix_mods]
        # the maintenance branch gets a commit of its own (a doc), so its tip is not main's history
        self.repo.branch(maint)
        doc_path, _maint_subject = self.add_doc()
        self.repo.checkout("main")
        fixes = []
        for mod in fix_mods:
            self.noise(1, avoid={self.module_path(m) for m in fix_mods} | {doc_path})
            path, subject = self.tweak(mod)
            fixes.append({"subject": subject, "path": path, "content": self.repo.files[path]})
        if others and rng.random() < 0.7:
            self.noise(1, avoid={f["path"] for f in fixes} | {doc_path})
        with_x = rng.random() < 0.5
        expected = dict(self.repo.tip(maint).files)
        for fix in fixes:
            expected[fix["path"]] = fix["content"]
        return {
            "title": (
                f"Backport {len(fixes)} fix{'es' if len(fixes) > 1 else ''} of {self.name} to {maint} "
                "by cherry-picking"
            ),
            "ctx": {"maint": maint, "fixes": [f["subject"] for f in fixes], "with_x": with_x},
            "check": {
                "main_subjects": [c.subject for c in reversed(self.repo.branches["main"])],
                "maint": maint,
                "maint_subjects": [c.subject for c in reversed(self.repo.branches[maint])],
                "fixes": [f["subject"] for f in fixes],
                "with_x": with_x,
                "expected": expected,
            },
            "solve": {"maint": maint, "fixes": [f["subject"] for f in fixes], "with_x": with_x},
            "params": {"fixes": len(fixes), "with_x": with_x, "branch": maint, "fork": fork.subject},
            "keywords": ["cherry-pick", "backport"],
        }

    def merge(self) -> dict[str, Any]:
        rng = self.rng
        self.initial()
        self.noise(1)
        feature = rng.choice(["feature/more-hosts", "feature/tuning", "topic/rollout", "feature/next"])
        base_list = list(self.list_entries)
        base_config = {s: dict(v) for s, v in self.config.items()}
        pool = [e for e in LIST_FILES[self.list_file] if e not in base_list]
        rng.shuffle(pool)
        feat_add, main_add = pool[:3], pool[3:5]
        both = rng.sample(pool[5:], 1) if len(pool) > 5 else []
        feat_drop = rng.sample(base_list, 1) if self.difficulty == 3 else []
        # config: keys both branches change (conflicts), and keys only one changes
        all_keys = [(s, k) for s, keys in CONFIG_KEYS.items() for k, _ in keys]
        rng.shuffle(all_keys)
        n_conflict = {1: 1, 2: 2, 3: 2}[self.difficulty]
        conflict, only_feat, only_main = (
            all_keys[:n_conflict],
            all_keys[n_conflict : n_conflict + 2],
            all_keys[n_conflict + 2 : n_conflict + 3],
        )

        def other(section: str, key: str, *avoid: Any) -> Any:
            return rng.choice([v for v in dict(CONFIG_KEYS[section])[key] if v not in avoid])

        feat_cfg = {sk: other(*sk, base_config[sk[0]][sk[1]]) for sk in conflict + only_feat}
        main_cfg = {
            sk: other(*sk, base_config[sk[0]][sk[1]], feat_cfg.get(sk)) for sk in conflict + only_main
        }
        winner_rule = rng.choice(["main", "feature", "per-key"])
        winners = {
            sk: (winner_rule if winner_rule != "per-key" else rng.choice(["main", "feature"]))
            for sk in conflict
        }

        fork = self.repo.tip("main")
        self.repo.branch(feature)
        entries = sorted(set(base_list) - set(feat_drop) | set(feat_add) | set(both))
        self.repo.write(self.list_file, self.list_text(entries))
        self.repo.commit(rng, f"Add {', '.join(feat_add[:2])} and more to {self.list_file}", self.author())
        for (s, k), v in feat_cfg.items():
            self.config[s][k] = v
        self.repo.write("config/defaults.ini", self.config_text())
        self.repo.commit(
            rng,
            rng.choice(["Tune defaults for the rollout", "Adjust defaults for the new hosts"]),
            self.author(),
        )
        self.add_doc()
        self.tweak(self.modules[0])
        self.repo.checkout("main")
        self.config = {s: dict(v) for s, v in base_config.items()}
        entries_main = sorted(set(base_list) | set(main_add) | set(both))
        self.repo.write(self.list_file, self.list_text(entries_main))
        self.repo.commit(rng, f"Enable {' and '.join(main_add)}", self.author())
        for (s, k), v in main_cfg.items():
            self.config[s][k] = v
        self.repo.write("config/defaults.ini", self.config_text())
        readme = (
            self.repo.files["README.md"]
            + f"\nOwned by the {rng.choice(['platform', 'core', 'infra'])} team.\n"
        )
        self.repo.write("README.md", readme)
        self.repo.commit(
            rng,
            rng.choice(["Raise defaults after load test", "Update defaults and ownership note"]),
            self.author(),
        )
        main_tip, feat_tip = self.repo.tip("main"), self.repo.tip(feature)

        expected = dict(main_tip.files)
        for path, text in feat_tip.files.items():
            if path not in expected:
                expected[path] = text
            elif path not in (self.list_file, "config/defaults.ini") and text != expected[path]:
                if text == fork.files.get(path):
                    continue
                if expected[path] != fork.files.get(path):
                    raise ValueError(f"{path} changed on both branches")
                expected[path] = text
        union = sorted((set(entries) | set(entries_main)) - set(feat_drop))
        expected[self.list_file] = self.list_text(union)
        final = {s: dict(v) for s, v in base_config.items()}
        for sk in only_feat:
            final[sk[0]][sk[1]] = feat_cfg[sk]
        for sk in only_main:
            final[sk[0]][sk[1]] = main_cfg[sk]
        for sk in conflict:
            final[sk[0]][sk[1]] = main_cfg[sk] if winners[sk] == "main" else feat_cfg[sk]
        expected_config = {s: {k: str(v) for k, v in keys.items()} for s, keys in final.items()}
        del expected["config/defaults.ini"]
        message = rng.choice([None, f"Merge {feature}", f"Merge branch '{feature}' into main"])
        return {
            "title": f"Merge {feature} into main in {self.name}, resolving conflicts by the stated rules",
            "ctx": {
                "feature": feature,
                "list_file": self.list_file,
                "drop": self.difficulty == 3 and bool(feat_drop),
                "winner_rule": winner_rule,
                "winners": [{"section": s, "key": k, "side": winners[(s, k)]} for s, k in conflict],
                "message": message,
            },
            "check": {
                "main_before": main_tip.subject,
                "feature": feature,
                "feature_tip": feat_tip.subject,
                "expected": expected,
                "config": expected_config,
                "message": message,
            },
            "solve": {
                "feature": feature,
                "list_file": self.list_file,
                "drop": self.difficulty == 3 and bool(feat_drop),
                "winners": {f"{s}.{k}": winners[(s, k)] for s, k in conflict},
                "message": message or f"Merge branch '{feature}'",
            },
            "params": {
                "feature": feature,
                "rule": winner_rule,
                "conflicts": len(conflict),
                "drop": bool(feat_drop) and self.difficulty == 3,
            },
            "keywords": ["merge", "conflict"],
        }

    def rewrite(self) -> dict[str, Any]:
        rng = self.rng
        self.initial()
        self.noise(rng.randint(1, 3))
        edits: list[dict[str, Any]] = []
        expected = dict(self.repo.files)
        kinds = rng.sample(["list", "config", "readme", "changelog"], {1: 1, 2: 2, 3: 3}[self.difficulty])
        for kind in kinds:
            if kind == "list":
                pool = [e for e in LIST_FILES[self.list_file] if e not in self.list_entries]
                add = sorted(rng.sample(pool, 2))
                drop = rng.choice(self.list_entries)
                entries = sorted((set(self.list_entries) | set(add)) - {drop})
                expected[self.list_file] = self.list_text(entries)
                edits.append({"kind": "list", "path": self.list_file, "add": add, "drop": drop})
            elif kind == "config":
                section = rng.choice(sorted(self.config))
                key = rng.choice(sorted(self.config[section]))
                value = rng.choice(
                    [v for v in dict(CONFIG_KEYS[section])[key] if v != self.config[section][key]]
                )
                cfg = {s: dict(v) for s, v in self.config.items()}
                cfg[section][key] = value
                saved, self.config = self.config, cfg
                expected["config/defaults.ini"] = self.config_text()
                self.config = saved
                edits.append(
                    {
                        "kind": "config",
                        "path": "config/defaults.ini",
                        "section": section,
                        "key": key,
                        "value": str(value),
                    }
                )
            elif kind == "readme":
                old = f"{self.name.upper().replace('-', '_')}_"
                new = rng.choice([f"{old}V2_", f"APP_{old}", old.replace("_", "_CFG_", 1)])
                if old not in self.readme:
                    continue
                expected["README.md"] = expected["README.md"].replace(old, new)
                edits.append({"kind": "readme", "path": "README.md", "old": old, "new": new})
            else:
                entry = rng.choice(
                    [
                        "Document the doctor command.",
                        "Clarify the upgrade notes.",
                        "Fix a typo in the usage section.",
                    ]
                )
                text = expected["CHANGELOG.md"].replace(
                    "## [Unreleased]\n\n", f"## [Unreleased]\n\n### Changed\n- {entry}\n\n", 1
                )
                expected["CHANGELOG.md"] = text
                edits.append({"kind": "changelog", "path": "CHANGELOG.md", "entry": entry})
        if not edits:
            raise ValueError("no applicable edit")
        subject = rng.choice(
            [
                f"Update {', '.join(sorted({e['path'] for e in edits}))}",
                "Housekeeping before the next release",
                "Apply review feedback on defaults and docs",
            ]
        )
        body = rng.choice(
            [
                "",
                f"Requested in the weekly sync by {self.people[-1][0]}.",
                "No functional change to the code.\nSee the ops handbook for details.",
            ]
        )
        message = subject + (f"\n\n{body}" if body else "")
        author = rng.choice(self.people[1:] or self.people)
        branch = rng.choice([None, f"chore/{rng.choice(['housekeeping', 'docs-refresh', 'defaults'])}"])
        changed = sorted(p for p in expected if expected[p] != self.repo.files.get(p))
        return {
            "title": (
                f"Edit {len(changed)} file(s) of {self.name} and commit them with an exact message and author"
            ),
            "ctx": {
                "edits": edits,
                "message": message,
                "author": author,
                "branch": branch,
                "list_file": self.list_file,
            },
            "check": {
                "main_subjects": [c.subject for c in reversed(self.repo.branches["main"])],
                "branch": branch,
                "message": message,
                "author": list(author),
                "expected": {p: expected[p] for p in changed},
                "changed": changed,
            },
            "solve": {"edits": edits, "message": message, "author": author, "branch": branch},
            "params": {"edits": [e["kind"] for e in edits], "branch": bool(branch), "body": bool(body)},
            "keywords": ["commit", "author"],
        }

    def squash(self) -> dict[str, Any]:
        rng = self.rng
        self.initial()
        self.noise(1)
        branch = rng.choice(["feature/export", "wip/report-tuning", "topic/faster-sync", "feature/docs-pass"])
        self.repo.branch(branch)
        n = {1: 2, 2: 3, 3: 4}[self.difficulty] + rng.randint(0, 1)
        wip = []
        for _i in range(n):
            _path, subject = self.tweak() if rng.random() < 0.6 else self.add_doc()
            wip.append(subject)
        wip_subjects = [c.subject for c in self.repo.branches[branch][-n:]]
        self.repo.checkout("main")
        if rng.random() < 0.5:
            self.noise(1)
        base = self.repo.branches[branch][-n - 1]
        subject = rng.choice(
            [f"{branch.split('/', 1)[1].replace('-', ' ').capitalize()}", f"Squashed work from {branch}"]
        )
        body_lines = [f"- {s}" for s in wip_subjects] if rng.random() < 0.5 else []
        message = subject + ("\n\n" + "\n".join(body_lines) if body_lines else "")
        return {
            "title": f"Squash the {n} work-in-progress commits of {branch} into one",
            "ctx": {"branch": branch, "n": n, "message": message, "base": base.subject, "wip": wip_subjects},
            "check": {
                "main_subjects": [c.subject for c in reversed(self.repo.branches["main"])],
                "branch": branch,
                "base": base.subject,
                "message": message,
                "expected": self.repo.tip(branch).files,
                "wip": wip_subjects,
            },
            "solve": {"branch": branch, "base": base.subject, "message": message},
            "params": {"commits": n, "body": bool(body_lines)},
            "keywords": ["squash", "rebase"],
        }

    def untrack(self) -> dict[str, Any]:
        rng = self.rng
        self.initial()
        self.noise(1)
        path, pattern, template = rng.choice(SECRET_FILES)
        secret = template.format(
            pw="".join(rng.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(14)),
            tok="".join(
                rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789") for _ in range(32)
            ),
        )
        self.repo.write(path, secret)
        # the secret comes in with real changes, so purging it leaves no commit empty
        self.tweak(commit=False)
        leak_subject = rng.choice(
            ["Wire up deployment settings", "Add deploy configuration", "Local setup for the demo"]
        )
        self.repo.commit(rng, leak_subject, self.author())
        self.noise(rng.randint(1, 2))
        purge = self.difficulty == 3 or (self.difficulty == 2 and rng.random() < 0.3)
        message = rng.choice(
            [f"Stop tracking {path}", f"Remove {path} from the repository", f"Untrack {path} and ignore it"]
        )
        gitignore = self.repo.files[".gitignore"] + f"{pattern}\n"
        expected = dict(self.repo.files)
        del expected[path]
        expected[".gitignore"] = gitignore
        return {
            "title": (
                f"{'Purge' if purge else 'Untrack'} the committed secret {path} in {self.name} and ignore it"
            ),
            "ctx": {
                "path": path,
                "pattern": pattern,
                "message": message,
                "purge": purge,
                "leak": leak_subject,
            },
            "check": {
                "main_subjects": [c.subject for c in reversed(self.repo.branches["main"])],
                "path": path,
                "pattern": pattern,
                "secret": secret,
                "message": message,
                "purge": purge,
                "expected": expected,
                "history": [
                    [c.subject, f"{c.author[0]} <{c.author[1]}>", c.date, c.files]
                    for c in reversed(self.repo.branches["main"])
                ]
                if purge
                else [],
            },
            "solve": {"path": path, "pattern": pattern, "message": message, "purge": purge},
            "params": {"path": path, "purge": purge},
            "keywords": ["gitignore", "secret"],
        }
