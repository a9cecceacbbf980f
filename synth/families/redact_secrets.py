"""redact-secrets: redact the secrets of a service's .env, JSON and YAML-ish configs under exact rules
(which keys are sensitive, exceptions, credentials inside URLs, the mask: fixed text, last four
characters, or a hash prefix), in place or into copies, and list what was redacted.

The configs come from the pool's `secrets/` samples, trimmed and salted with edge cases per task; the
family computes the redacted files itself and the checker compares them exactly (the JSON by value and
member order).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
import re
from typing import Any, ClassVar

from faker import Faker

from synth.families.base import Draft, Family, render
from synth.pools import PoolItem, Pools

T = "redact-secrets"
ENV_LINE = re.compile(r"^(export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
YAML_LINE = re.compile(r"^( *)([A-Za-z_][A-Za-z0-9_-]*):(.*)$")
URL_CRED = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:)([^\s@/]+)@")
PLAIN_SCALAR = re.compile(r"^(-?\d+(\.\d+)?|true|false|null|~)$")

ROTATED = (dt.date(2025, 1, 1), dt.date(2025, 12, 31))
"""When a secret says it was rotated: fixed, so a seed gives the same task on any day."""


class Rules:
    """Which keys are sensitive, and what a secret is replaced with."""

    def __init__(
        self,
        contains: list[str],
        suffixes: list[str],
        exceptions: list[str],
        mask: str,
        fixed: str,
        urls: bool,
    ) -> None:
        self.contains, self.suffixes, self.exceptions = contains, suffixes, exceptions
        self.mask_kind, self.fixed, self.urls = mask, fixed, urls
        self.collected: list[tuple[str, str]] = []
        """(reference name, secret) of every secret masked in `ref` mode, in order."""

    def sensitive(self, key: str) -> bool:
        k = key.lower()
        hit = any(w in k for w in self.contains) or any(k.endswith(s) for s in self.suffixes)
        return hit and not any(k.endswith(e) for e in self.exceptions)

    def mask(self, secret: str, name: str = "") -> str:
        if self.mask_kind == "ref":
            self.collected.append((name, secret))
            return f"secretref:{name}"
        if self.mask_kind == "fixed":
            return self.fixed
        if self.mask_kind == "last4":
            return "****" + secret[-4:] if len(secret) >= 8 else "****"
        return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()[:12]

    def urls_in(self, value: str) -> tuple[str, int]:
        if not self.urls:
            return value, 0
        return URL_CRED.subn(lambda m: m.group(1) + self.mask(m.group(2)) + "@", value)


def ref_name(file: str, key: str) -> str:
    """The name a secret gets in the secrets file: `<file>.<key path>` upper-cased, runs of other
    characters than A-Z and 0-9 made one `_`, no `_` at either end."""
    return re.sub(r"[^A-Z0-9]+", "_", f"{file}.{key}".upper()).strip("_")


def unquote(v: str) -> str:
    return v[1:-1] if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"" else v


def strip_comment(v: str) -> str:
    m = re.search(r"\s#", v)
    return v[: m.start()] if m else v


def redact_env(text: str, rules: Rules, file: str = "") -> tuple[str, list[str], int]:
    out, keys, count = [], [], 0
    for line in text.split("\n"):
        m = ENV_LINE.match(line)
        if m:
            value = m.group(3)
            secret = unquote(strip_comment(value).strip())
            if rules.sensitive(m.group(2)):
                if secret:
                    line = line[: line.index("=") + 1] + rules.mask(secret, ref_name(file, m.group(2)))
                    keys.append(m.group(2))
                    count += 1
            else:
                new, n = rules.urls_in(value)
                if n:
                    line = line[: line.index("=") + 1] + new
                    keys.append(m.group(2))
                    count += 1
        out.append(line)
    return "\n".join(out), list(dict.fromkeys(keys)), count


def redact_json(doc: Any, rules: Rules, file: str = "") -> tuple[Any, list[str]]:
    paths: list[str] = []

    def walk(node: Any, path: list[str]) -> Any:
        if isinstance(node, dict):
            out = {}
            for k, v in node.items():
                p = [*path, k]
                if isinstance(v, dict | list):
                    out[k] = walk(v, p)
                elif isinstance(v, str) and v and rules.sensitive(k):
                    out[k] = rules.mask(v, ref_name(file, ".".join(p)))
                    paths.append(".".join(p))
                elif isinstance(v, str) and not rules.sensitive(k) and rules.urls_in(v)[1]:
                    out[k] = rules.urls_in(v)[0]
                    paths.append(".".join(p))
                else:
                    out[k] = v
            return out
        if isinstance(node, list):
            return [walk(v, [*path, str(i)]) for i, v in enumerate(node)]
        return node

    return walk(doc, []), paths


def redact_yaml(text: str, rules: Rules, file: str = "") -> tuple[str, list[str]]:
    out, paths = [], []
    stack: list[tuple[int, str]] = []
    for line in text.split("\n"):
        m = YAML_LINE.match(line)
        if not m or line.lstrip().startswith("#"):
            out.append(line)
            continue
        indent, key, rest = len(m.group(1)), m.group(2), m.group(3)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = ".".join([k for _, k in stack] + [key])
        value = unquote(strip_comment(rest).strip())
        if not strip_comment(rest).strip():
            stack.append((indent, key))
        elif rules.sensitive(key):
            if value and not PLAIN_SCALAR.match(strip_comment(rest).strip()):
                line = f'{m.group(1)}{key}: "{rules.mask(value, ref_name(file, path))}"'
                paths.append(path)
        else:
            new, n = rules.urls_in(rest)
            if n:
                line = f"{m.group(1)}{key}:{new}"
                paths.append(path)
        out.append(line)
    return "\n".join(out), paths


class RedactSecrets(Family):
    name: ClassVar[str] = T
    category: ClassVar[str] = "config"
    pool_kinds: ClassVar[tuple[str, ...]] = ("config", "json")

    @staticmethod
    def samples(pools: Pools) -> dict[str, list[PoolItem]]:
        """The pool's secrets/ samples by suffix (env, json, yaml)."""
        out: dict[str, list[PoolItem]] = {"env": [], "json": [], "yaml": []}
        for item in pools.items("config", "json"):
            if "secrets/" not in item.path.replace("\\", "/"):
                continue
            suffix = item.name.rsplit(".", 1)[-1]
            suffix = "yaml" if suffix == "yml" else suffix
            if suffix in out:
                out[suffix].append(item)
        return out

    def usable(self, pools: Pools) -> bool:
        return all(self.samples(pools).values())

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        fake = Faker()
        fake.seed_instance(rng.randrange(2**31))
        samples = self.samples(pools)
        if not all(samples.values()):
            raise ValueError(f"{T}: the pools hold no secrets/ .env, .json and .yaml samples")
        kinds = rng.sample(["env", "json", "yaml"], difficulty)
        if difficulty == 1 and rng.random() < 0.5:
            kinds = ["env"]
        used: list[PoolItem] = []
        service_pick = rng.randrange(len(samples["env"]))
        sources: dict[str, str] = {}
        for kind in kinds:
            items = samples[kind]
            item = (
                items[service_pick % len(items)] if rng.random() < 0.7 else items[rng.randrange(len(items))]
            )
            used.append(item)
            sources[kind] = item.read_text()
        service = used[0].name.split("-", 1)[-1].rsplit(".", 1)[0]
        cfg = rng.choice(["/app/config", f"/app/{service}/config", f"/app/deploy/{service}", "/app/etc"])
        names = {
            "env": rng.choice([".env", f"{service}.env", ".env.production", "app.env"]),
            "json": rng.choice(["settings.json", "config.json", f"{service}.json", "appsettings.json"]),
            "yaml": rng.choice(["values.yaml", "config.yaml", "deploy.yml", f"{service}.yaml"]),
        }
        # ---- the rules ---------------------------------------------------------------------------------
        contains = sorted(
            {
                "secret",
                "password",
                "token",
                *rng.sample(["passwd", "pwd", "credential", "auth", "private"], rng.randint(0, 2)),
            }
        )
        suffixes = ["key"] if rng.random() < 0.75 else []
        exceptions = sorted(
            rng.sample(["id", "file", "path", "ttl", "url", "ref"], rng.randint(0, 2 + difficulty))
        )
        mode = rng.choice(["inplace", "copy", "externalize", "audit"])
        mask = rng.choice(["fixed", "fixed", "last4", "hash"]) if difficulty > 1 else "fixed"
        if mode == "externalize":
            mask = "ref"
        fixed = rng.choice(["***REDACTED***", "<redacted>", "REDACTED", "********", "[hidden]"])
        urls = difficulty >= 2 and rng.random() < 0.6 and mode != "externalize"
        rules = Rules(contains, suffixes, exceptions, mask, fixed, urls)
        secrets_file = rng.choice(
            [f"/app/secrets/{service}.env", "/app/.secrets.env", f"/app/vault/{service}.env"]
        )
        # ---- the files, varied -------------------------------------------------------------------------
        texts = {
            k: self._vary(rng, fake, k, v, difficulty, dup=mode != "externalize") for k, v in sources.items()
        }
        shared = rng.choice(["/app/shared", "/app/for-vendor", f"/app/{service}-redacted", "/app/outbox"])
        report_fmt = rng.choice(["lines", "json", "count"])
        report = f"/app/{rng.choice(['redacted', 'redactions', 'redaction-report'])}." + (
            "json" if report_fmt == "json" else "txt"
        )
        expected_text: dict[str, str] = {}
        expected_json: dict[str, Any] = {}
        listed: dict[str, list[str]] = {}
        counts: dict[str, int] = {}
        for kind, text in texts.items():
            name = names[kind]
            dest = f"{shared if mode == 'copy' else cfg}/{name}"
            if kind == "env":
                new, keys, n = redact_env(text, rules, name)
                expected_text[dest] = new
                listed[name], counts[name] = keys, n
            elif kind == "yaml":
                new, keys = redact_yaml(text, rules, name)
                expected_text[dest] = new
                listed[name], counts[name] = keys, len(keys)
            else:
                doc, keys = redact_json(json.loads(text), rules, name)
                expected_json[dest] = doc
                listed[name], counts[name] = keys, len(keys)
        if mode == "audit":
            expected_text, expected_json = {}, {}
        if mode == "externalize":
            expected_text[secrets_file] = "".join(f"{n}={v}\n" for n, v in rules.collected)
        if sum(counts.values()) == 0:
            raise ValueError(f"{T}: the drawn rules redact nothing")
        untouched = (
            {f"{cfg}/{names[k]}": hashlib.sha256(t.encode()).hexdigest() for k, t in texts.items()}
            if mode in ("copy", "audit")
            else {}
        )
        if mode == "externalize":
            report_text = report_json = None
        elif report_fmt == "lines":
            entries = sorted({f"{f}:{k}" for f, ks in listed.items() for k in ks}, key=str.encode)
            report_text = "".join(e + "\n" for e in entries)
            report_json = None
        elif report_fmt == "json":
            report_text = None
            report_json = {f: ks for f, ks in listed.items()}
        else:
            report_text = "".join(f"{f} {counts[f]}\n" for f in sorted(counts, key=str.encode))
            report_json = None
        files = {f"environment/{cfg.removeprefix('/app/')}/{names[k]}": t for k, t in texts.items()}
        ctx: dict[str, Any] = {
            "cfg": cfg,
            "files": [names[k] for k in kinds],
            "listing": self._listing([f"`{cfg}/{names[k]}`" for k in kinds]),
            "kinds": {names[k]: k for k in kinds},
            "contains": contains,
            "suffixes": suffixes,
            "exceptions": exceptions,
            "mask": mask,
            "fixed": fixed,
            "urls": urls,
            "mode": mode,
            "secrets_file": secrets_file,
            "shared": shared,
            "report_fmt": report_fmt,
            "report": report,
            "phrasing": rng.randrange(4),
            "service": service,
            "vendor": fake.company(),
            "difficulty": difficulty,
        }
        files["tests/check.py"] = render(
            f"{T}/check.py.j2",
            texts=expected_text,
            jsons=expected_json,
            untouched=untouched,
            report=report if mode != "externalize" else None,
            report_text=report_text,
            report_json=report_json,
        )
        files["solution/solve.sh"] = render(f"{T}/solve.sh.j2", **ctx)
        return Draft(
            title=rng.choice(
                {
                    "externalize": [
                        f"Move the {service} secrets into a separate secrets file",
                        f"Externalise the credentials of the {service} configs",
                    ],
                    "audit": [
                        f"Audit the {service} configuration for plaintext secrets",
                        f"List the credentials stored in clear text in {cfg}",
                    ],
                }.get(
                    mode,
                    [
                        f"Redact the secrets in the {service} configuration",
                        f"Scrub credentials from {cfg} before sharing it",
                        f"Mask sensitive values in the {service} config files",
                    ],
                )
            ),
            instruction=render(f"{T}/instruction.md.j2", **ctx).strip() + "\n",
            files=files,
            params={k: v for k, v in ctx.items() if k not in ("vendor",)},
            keywords=["config", "secrets", "redaction", *kinds],
            pool_items=used,
        )

    @staticmethod
    def _listing(items: list[str]) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    # ---- per-task variation of the samples ------------------------------------------------------------

    def _vary(self, rng: random.Random, fake: Faker, kind: str, text: str, difficulty: int, dup: bool) -> str:
        def token() -> str:
            choices = [fake.sha1(), "tk-" + fake.md5()[:20], fake.password(length=14, special_chars=False)]
            return rng.choice([*choices, fake.uuid4()])

        if kind == "env":
            lines = text.rstrip("\n").split("\n")
            lines = [ln for ln in lines if not ENV_LINE.match(ln) or rng.random() > 0.2]
            extra = [
                f"export SERVICE_TOKEN={token()}",
                f"# DEPLOY_PASSWORD={token()}",
                f'BACKUP_PASSWD="{token()}"',
                "EMPTY_SECRET=",
                "SMTP_PASSWORD=''",
                f"AUTH_PROVIDER_URL=https://{fake.domain_name()}/oauth",
                f"SIGNING_KEY_FILE=/run/secrets/{fake.word()}.pem",
                f"AUDIT_DB=postgres://audit:{token()}@audit.internal/audit",
                f"API_KEY_ID={fake.bothify('kid-####')}",
                f"Cache_Token={token()} # rotated {fake.date_between(*ROTATED)}",
                f"PRIVATE_KEY_PATH=/etc/{fake.word()}/key.pem",
                f"CREDENTIALS_REF=vault://{fake.word()}/{fake.word()}",
                f"MONKEY={fake.word()}",
            ]
            for line in rng.sample(extra, 2 + 2 * difficulty):
                lines.insert(rng.randint(1, len(lines)), line)
            if difficulty == 3 and dup:
                dup_line = next((ln for ln in lines if ENV_LINE.match(ln) and "SECRET" in ln), None)
                if dup_line:
                    lines.append(dup_line.split("=", 1)[0] + "=" + token())
            return "\n".join(lines) + "\n"
        if kind == "json":
            doc = json.loads(text)
            if rng.random() < 0.5:
                doc.pop("owner", None)
            if doc.get("integrations") and rng.random() < 0.5:
                doc["integrations"] = doc["integrations"][: rng.randint(1, len(doc["integrations"]))]
            if difficulty >= 2:
                doc["storage"] = {
                    "bucket": fake.word(),
                    "credentials": {
                        "accessKeyId": fake.bothify("AK####????").upper(),
                        "secretAccessKey": token(),
                    },
                    "endpoint": f"https://{fake.domain_name()}",
                }
                doc["cache"] = {
                    "url": f"redis://:{token()}@cache.internal:6379/0",
                    "tokenTtl": 3600,
                    "password": "",
                }
            if difficulty == 3:
                doc["secrets"] = {"provider": "vault", "paths": [f"kv/{fake.word()}", f"kv/{fake.word()}"]}
            return json.dumps(doc, indent=rng.choice([2, 4])) + "\n"
        lines = text.rstrip("\n").split("\n")
        if difficulty >= 2:
            lines += [
                "metrics:",
                "  enabled: true",
                f"  pushToken: {token()}",
                f"  endpoint: https://{fake.domain_name()}/push",
                "backup:",
                f"  target: s3://{fake.word()}-backups",
                f"  dbUrl: postgres://backup:{token()}@db.internal:5432/app",
                f"  passphrase: '{token()}'",
                "  keyTtl: 86400",
            ]
        return "\n".join(lines) + "\n"
