"""Generate the files/notes/config pools of the claw domain: `claw/words/`, `claw/notes/`, `claw/secrets/`.

Run once (`python synth/pools/make_files_pools.py`); its output is committed. Everything is generated
here, from a fixed seed, with Faker and the short vocabularies below: no outside data. The secrets are fake
and deliberately use no real provider's token format (so no scanner mistakes them for leaked credentials).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import shutil
from pathlib import Path

from faker import Faker

SEED = 1515
OUT = Path(__file__).parent / "claw"

ADJECTIVES = [
    "amber",
    "azure",
    "bold",
    "brisk",
    "calm",
    "cedar",
    "cobalt",
    "copper",
    "coral",
    "crimson",
    "dusty",
    "ember",
    "fast",
    "golden",
    "granite",
    "hidden",
    "iron",
    "ivory",
    "jade",
    "lunar",
    "maple",
    "misty",
    "noble",
    "onyx",
    "pale",
    "quiet",
    "rapid",
    "rusty",
    "sable",
    "silver",
    "solar",
    "steady",
    "stone",
    "swift",
    "teal",
    "tidal",
    "umber",
    "velvet",
    "vivid",
    "wild",
    "winter",
]
NOUNS = [
    "anchor",
    "badger",
    "beacon",
    "bison",
    "canyon",
    "comet",
    "condor",
    "delta",
    "falcon",
    "fjord",
    "harbor",
    "heron",
    "horizon",
    "island",
    "kestrel",
    "lantern",
    "lynx",
    "meadow",
    "mesa",
    "orbit",
    "otter",
    "pebble",
    "pine",
    "prairie",
    "quartz",
    "raven",
    "reef",
    "ridge",
    "river",
    "sparrow",
    "summit",
    "tundra",
    "vale",
    "willow",
    "yak",
    "zephyr",
]
DOC_STEMS = [
    "invoice",
    "receipt",
    "statement",
    "contract",
    "proposal",
    "report",
    "summary",
    "minutes",
    "agenda",
    "notes",
    "budget",
    "forecast",
    "roadmap",
    "timeline",
    "checklist",
    "handbook",
    "manual",
    "guide",
    "brochure",
    "flyer",
    "poster",
    "resume",
    "letter",
    "memo",
    "quote",
    "estimate",
    "order",
    "ledger",
    "payroll",
    "timesheet",
    "schedule",
    "itinerary",
    "ticket",
    "boarding-pass",
    "warranty",
    "manifest",
    "inventory",
    "catalog",
    "pricelist",
    "survey",
    "feedback",
    "transcript",
    "slides",
    "deck",
    "diagram",
    "mockup",
    "wireframe",
    "sketch",
    "screenshot",
    "photo",
    "scan",
    "selfie",
    "portrait",
    "panorama",
    "recording",
    "podcast",
    "interview",
    "lecture",
    "demo",
    "tutorial",
    "backup",
    "export",
    "dump",
    "snapshot",
    "archive",
    "dataset",
    "sample",
    "template",
    "draft",
]
FOLDERS = [
    "downloads",
    "inbox",
    "Desktop",
    "dropzone",
    "incoming",
    "scans",
    "uploads",
    "exports",
    "shared",
    "unsorted",
    "misc",
    "transfer",
    "staging",
    "camera_roll",
    "mail_attachments",
    "old_laptop",
    "phone_dump",
    "workspace",
    "sync",
    "intake",
]
TAGS = [
    "api",
    "backend",
    "frontend",
    "infra",
    "database",
    "security",
    "performance",
    "design",
    "planning",
    "meetings",
    "research",
    "reading",
    "personal",
    "travel",
    "finance",
    "hiring",
    "onboarding",
    "process",
    "releases",
    "incidents",
    "ops",
    "monitoring",
    "testing",
    "docs",
    "ideas",
    "q1",
    "q2",
    "q3",
    "q4",
    "kafka",
    "postgres",
    "kubernetes",
    "terraform",
    "mobile",
    "ux",
    "data",
    "ml",
    "billing",
    "search",
    "support",
    "legal",
    "health",
    "cooking",
]
SERVICES = [
    "billing",
    "payments",
    "search",
    "auth",
    "gateway",
    "inventory",
    "notify",
    "reports",
    "ledger",
    "catalog",
]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def make_words(rng: random.Random, fake: Faker) -> dict[str, list[str]]:
    projects = sorted({f"{rng.choice(ADJECTIVES)}-{rng.choice(NOUNS)}" for _ in range(120)})[:90]
    stems: set[str] = set()
    while len(stems) < 160:
        base = rng.choice(DOC_STEMS)
        form = rng.randrange(5)
        if form == 0:
            stems.add(base)
        elif form == 1:
            stems.add(f"{base}-{fake.word()}")
        elif form == 2:
            stems.add(f"{fake.word()}_{base}")
        elif form == 3:
            stems.add(f"{base} {fake.word()}")
        else:
            stems.add(f"{rng.choice(NOUNS)}-{base}")
    people = sorted({fake.name() for _ in range(80)})[:60]
    words = {
        "project_names": projects,
        "file_stems": sorted(stems),
        "folder_names": sorted(FOLDERS),
        "people": people,
        "tags": sorted(TAGS),
        "services": sorted(SERVICES),
        "companies": sorted({fake.company() for _ in range(50)})[:40],
    }
    for name, lines in words.items():
        _write(OUT / "words" / f"{name}.txt", "\n".join(lines) + "\n")
    return words


def _title(rng: random.Random, fake: Faker, words: dict[str, list[str]]) -> str:
    project = rng.choice(words["project_names"]).replace("-", " ").title()
    forms = [
        lambda: f"{project} launch plan",
        lambda: f"Meeting with {rng.choice(words['people']).split()[0]}",
        lambda: f"Retro {fake.date_between(dt.date(2023, 1, 1), dt.date(2024, 12, 31)).isoformat()}",
        lambda: f"Reading: {fake.catch_phrase()}",
        lambda: f"{rng.choice(TAGS).title()} notes",
        lambda: f"Trip to {fake.city()}",
        lambda: f"{project} architecture",
        lambda: f"Incident {fake.date_between(dt.date(2023, 1, 1), dt.date(2024, 12, 31)).isoformat()}",
        lambda: f"{fake.bs().capitalize()}",
        lambda: f"Ideas for {project}",
        lambda: f"How we {fake.bs()}",
    ]
    return rng.choice(forms)()


def _stem(title: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in title)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")[:48].strip("-")


def make_notes(rng: random.Random, fake: Faker, words: dict[str, list[str]]) -> None:
    titles: list[str] = []
    stems: list[str] = []
    while len(titles) < 30:
        title = _title(rng, fake, words)
        stem = _stem(title)
        if stem and stem not in stems:
            titles.append(title)
            stems.append(stem)
    ghosts = [_stem(_title(rng, fake, words)) + "-draft" for _ in range(6)]
    for title, stem in zip(titles, stems, strict=True):
        tags = rng.sample(TAGS, rng.randint(0, 4))
        if tags and rng.random() < 0.2:
            tags.append(tags[0].upper())
        date = fake.date_between(dt.date(2023, 1, 1), dt.date(2024, 12, 31)).isoformat()
        if not tags:
            tag_line = "tags: []" if rng.random() < 0.5 else None
        elif rng.random() < 0.5:
            tag_line = "tags: [" + ", ".join(tags) + "]"
        else:
            tag_line = "tags:\n" + "".join(f"  - {t}\n" for t in tags).rstrip("\n")
        front = ["---", f"title: {title!r}" if ":" in title else f"title: {title}", f"date: {date}"]
        if tag_line:
            front.append(tag_line)
        if rng.random() < 0.3:
            front.append(f"author: {rng.choice(words['people'])}")
        front.append("---")
        body = [f"# {title}", ""]
        others = [s for s in stems if s != stem]
        for _ in range(rng.randint(1, 3)):
            sentence = fake.paragraph(nb_sentences=rng.randint(2, 4))
            kind = rng.random()
            if kind < 0.35:
                sentence += f" See [[{rng.choice(others)}]]."
            elif kind < 0.55:
                target = rng.choice(others)
                sentence += f" Related: [[{target}|{fake.word()} {fake.word()}]]."
            elif kind < 0.65:
                sentence += f" Background in [[{rng.choice(others)}#{fake.word().title()}]]."
            elif kind < 0.75:
                sentence += f" Still to write: [[{rng.choice(ghosts)}]]."
            elif kind < 0.85:
                sentence += f" #{rng.choice(TAGS)}"
            body += [sentence, ""]
        todos = rng.randint(0, 5)
        if todos:
            body += ["## Tasks", ""]
            for _ in range(todos):
                done = "x" if rng.random() < 0.35 else " "
                text = fake.sentence(nb_words=rng.randint(3, 7)).rstrip(".")
                if rng.random() < 0.3:
                    text += (
                        f" @due({fake.date_between(dt.date(2024, 1, 1), dt.date(2025, 6, 30)).isoformat()})"
                    )
                body.append(f"- [{done}] {text}")
            body.append("")
        if rng.random() < 0.3:
            body += ["Links: " + ", ".join(f"[[{s}]]" for s in rng.sample(others, 2)), ""]
        _write(OUT / "notes" / f"{stem}.md", "\n".join(front + body).rstrip("\n") + "\n")


def _token(rng: random.Random, fake: Faker) -> str:
    forms = [
        lambda: fake.sha1(),
        lambda: fake.password(length=rng.randint(12, 24), special_chars=False),
        lambda: "tok_" + fake.sha256()[: rng.randint(24, 40)],
        lambda: "key-" + fake.md5(),
        lambda: fake.uuid4(),
        lambda: fake.password(length=16, special_chars=True).replace("#", "%").replace('"', "."),
    ]
    return rng.choice(forms)()


def make_secrets(rng: random.Random, fake: Faker, words: dict[str, list[str]]) -> None:
    for n, service in enumerate(SERVICES[:8]):
        env = [f"# {service} service environment ({rng.choice(['staging', 'production', 'dev'])})", ""]
        env += [
            f"APP_NAME={service}",
            f"APP_ENV={rng.choice(['staging', 'production', 'development'])}",
            f"PORT={rng.randint(3000, 9999)}",
            f"LOG_LEVEL={rng.choice(['info', 'debug', 'warn'])}",
            "",
            "# database",
        ]
        user = fake.user_name()
        db_pw = _token(rng, fake)
        host = f"db{rng.randint(1, 9)}.{fake.domain_word()}.internal"
        env += [
            f"DATABASE_URL=postgres://{user}:{db_pw}@{host}:5432/{service}",
            f"DB_HOST={host}",
            f"DB_USER={user}",
            f"DB_PASSWORD={_token(rng, fake)}",
            f"DB_PASSWORD_FILE=/run/secrets/{service}_db",
            f"DB_POOL_SIZE={rng.choice([5, 10, 20, 40])}",
            "",
            "# third parties",
        ]
        vendors = rng.sample(
            ["MAILER", "MAPS", "SMS", "STORAGE", "PAYMENT", "CHAT", "ANALYTICS", "SEARCH"], 4
        )
        for vendor in vendors:
            choice = rng.randrange(6)
            if choice == 0:
                env.append(f"export {vendor}_API_KEY={_token(rng, fake)}")
            elif choice == 1:
                env.append(f'{vendor}_TOKEN="{_token(rng, fake)}"')
            elif choice == 2:
                env.append(f"{vendor}_CLIENT_ID={fake.user_name()}-{rng.randint(100, 999)}")
                env.append(f"{vendor}_CLIENT_SECRET='{_token(rng, fake)}'")
            elif choice == 3:
                env.append(f"{vendor}_KEY_ID={fake.bothify('key-####-????')}")
                key = _token(rng, fake)
                rotated = fake.date_between(dt.date(2025, 1, 1), dt.date(2025, 12, 31))
                env.append(f"{vendor}_PRIVATE_KEY={key}  # rotated {rotated.isoformat()}")
            elif choice == 4:
                env.append(f"{vendor}_URL=https://{fake.domain_name()}/v{rng.randint(1, 3)}")
                env.append(f"{vendor}_AUTH={_token(rng, fake)}")
            else:
                env.append(f"{vendor}_WEBHOOK_URL=https://{fake.domain_name()}/hooks/{fake.uuid4()[:8]}")
                env.append(f"{vendor}_WEBHOOK_SECRET={_token(rng, fake)}")
        env += [
            "",
            "# auth",
            f"SESSION_SECRET={_token(rng, fake)}",
            f"JWT_ISSUER=https://auth.{fake.domain_name()}",
            f"JWT_SIGNING_KEY={_token(rng, fake)}",
            f"PUBLIC_KEY_PATH=/etc/{service}/jwt.pub",
            f"# old: SESSION_SECRET={_token(rng, fake)}",
            f"REDIS_URL=redis://:{_token(rng, fake)}@cache.internal:6379/0",
            "REDIS_PASSWORD=" + rng.choice(["", '""', _token(rng, fake)]),
            f"ADMIN_EMAIL={fake.email()}",
            f"FEATURE_FLAGS={','.join(fake.words(3))}",
        ]
        _write(OUT / "secrets" / f"{n + 1:02d}-{service}.env", "\n".join(env) + "\n")

        doc = {
            "service": service,
            "version": f"{rng.randint(1, 5)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
            "listen": {"host": "0.0.0.0", "port": rng.randint(3000, 9999)},
            "database": {
                "host": host,
                "port": 5432,
                "user": user,
                "password": _token(rng, fake),
                "replicas": [
                    {"host": f"replica-{i}.internal", "password": rng.choice(["", _token(rng, fake)])}
                    for i in range(1, rng.randint(2, 4))
                ],
            },
            "integrations": [
                {
                    "name": vendor.lower(),
                    "apiKey": _token(rng, fake),
                    "keyId": fake.bothify("kid-####"),
                    "enabled": rng.random() < 0.7,
                    **({"webhookSecret": _token(rng, fake)} if rng.random() < 0.5 else {}),
                    **({"token": None} if rng.random() < 0.3 else {}),
                }
                for vendor in vendors[:3]
            ],
            "auth": {
                "issuer": f"https://auth.{fake.domain_name()}",
                "accessTokenTtl": rng.choice([300, 900, 3600]),
                "refreshToken": {"ttl": rng.choice([86400, 1209600]), "signingKey": _token(rng, fake)},
                "passwordPolicy": {
                    "minLength": rng.choice([8, 10, 12]),
                    "requireSymbols": rng.random() < 0.5,
                },
            },
            "owner": {"team": fake.company(), "contact": fake.email()},
            "notes": f"Ask {fake.first_name()} for the password; the token rotates monthly.",
        }
        _write(OUT / "secrets" / f"{n + 1:02d}-{service}.json", json.dumps(doc, indent=2) + "\n")

        yaml = [
            f"# {service} deployment values",
            f"service: {service}",
            "server:",
            f"  port: {rng.randint(3000, 9999)}",
            f"  workers: {rng.randint(1, 16)}",
            "database:",
            f"  host: {host}",
            f"  user: {user}",
            f"  password: {_token(rng, fake)}",
            f'  passwordFile: "/run/secrets/{service}"',
            "cache:",
            "  redis:",
            "    host: cache.internal",
            f"    authToken: '{_token(rng, fake)}'",
            "    tokenTtl: 3600",
            "mail:",
            f"  from: {fake.email()}",
            f"  apiKey: {_token(rng, fake)}",
            f"  # previous apiKey: {_token(rng, fake)}",
            "oauth:",
            f"  clientId: {fake.user_name()}",
            f"  clientSecret: {_token(rng, fake)}",
            "  secretRef: ''",
        ]
        _write(OUT / "secrets" / f"{n + 1:02d}-{service}.yaml", "\n".join(yaml) + "\n")


def main() -> None:
    rng = random.Random(SEED)
    fake = Faker("en_US")
    fake.seed_instance(SEED)
    for sub in ("words", "notes", "secrets"):
        shutil.rmtree(OUT / sub, ignore_errors=True)
    words = make_words(rng, fake)
    make_notes(rng, fake, words)
    make_secrets(rng, fake, words)


if __name__ == "__main__":
    main()
