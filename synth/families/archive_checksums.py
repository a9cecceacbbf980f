"""archive-checksums: verify a folder against a checksum manifest (GNU `sha256sum`, BSD `--tag` or JSON
style; SHA-256, SHA-1 or MD5) and report, quarantine, repair from a mirror, or rebuild the manifest.

The family builds the archive (setup.sh), damages some files, deletes some, adds unlisted ones, and
computes the expected report and end state; the checker compares every tree and output exactly.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
from typing import Any, ClassVar

from faker import Faker

from synth.families.base import Draft, Family, render
from synth.families.organize_files import FALLBACK_STEMS, Tree, tree_spec, words
from synth.pools import PoolItem, Pools

T = "archive-checksums"
GENERATED = (dt.date(2021, 1, 1), dt.date(2025, 12, 31))
"""When a manifest says it was generated: fixed, so a seed gives the same task on any day."""
GENERATED_AT = (dt.datetime(2021, 1, 1), dt.datetime(2025, 12, 31))
ALGOS = {"sha256": ("SHA256", 64), "sha1": ("SHA1", 40), "md5": ("MD5", 32)}
MANIFEST_NAMES = {
    "sha256": ["SHA256SUMS", "checksums.sha256", "SHA256SUMS.txt", "manifest.sha256"],
    "sha1": ["SHA1SUMS", "checksums.sha1", "manifest.sha1"],
    "md5": ["MD5SUMS", "checksums.md5", "manifest.md5", "md5sums.txt"],
}
SUBDIRS = [
    "docs",
    "docs/legal",
    "data",
    "data/raw",
    "data/2024",
    "images",
    "images/press kit",
    "src",
    "reports/q1",
    "reports/q2",
    "contracts/2023",
    "audio",
    "misc",
    "finance/invoices",
    "finance/payroll",
]
EXTS = ["pdf", "csv", "json", "txt", "md", "png", "jpg", "gz", "sql", "xlsx", "docx", "mp3", "log"]


def digest(algo: str, data: bytes) -> str:
    return hashlib.new(algo, data).hexdigest()


class ArchiveChecksums(Family):
    name: ClassVar[str] = T
    category: ClassVar[str] = "files"
    pool_kinds: ClassVar[tuple[str, ...]] = ("text",)

    VARIANTS = ("report", "quarantine", "repair", "rebuild")

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        fake = Faker()
        fake.seed_instance(rng.randrange(2**31))
        used: list[PoolItem] = []
        stems = words(pools, "file_stems", used) or FALLBACK_STEMS
        projects = words(pools, "project_names", used) or ["atlas", "borealis", "cinder"]
        variant = rng.choice(self.VARIANTS)
        project = rng.choice(projects)
        kind = rng.choice(["archive", "release", "dataset", "delivery", "vault", "export", "handover"])
        root = rng.choice([f"/app/{kind}", f"/app/{project}-{kind}", f"/app/{kind}s/{project}"])
        algo = rng.choices(list(ALGOS), weights=[5, 2, 3])[0]
        tag, hexlen = ALGOS[algo]
        mformat = rng.choices(["gnu", "bsd", "json"], weights=[5, 2, 2])[0]
        if mformat == "json":
            mname = rng.choice(["manifest.json", "checksums.json", f"{project}.manifest.json"])
        else:
            mname = rng.choice(MANIFEST_NAMES[algo])
        inside = rng.random() < 0.7
        manifest = f"{root}/{mname}" if inside else f"/app/{project}.{mname.lower()}"
        # ---- the files ---------------------------------------------------------------------------
        n = {1: 10, 2: 18, 3: 26}[difficulty]
        dirs = rng.sample(SUBDIRS, {1: 3, 2: 5, 3: 7}[difficulty])
        paths: list[str] = []
        while len(paths) < n:
            stem = rng.choice(stems)
            if difficulty > 1 and rng.random() < 0.2:
                stem = stem.upper() if rng.random() < 0.5 else stem.title()
            d = rng.choice(["", *dirs])
            p = f"{d}/{stem}.{rng.choice(EXTS)}" if d else f"{stem}.{rng.choice(EXTS)}"
            if p.lower() not in {q.lower() for q in paths}:
                paths.append(p)
        good = {p: f"{p}\n{fake.sha1()}\n{fake.paragraph()}\n".encode() for p in paths}
        if difficulty >= 2:
            good[paths[-1]] = b""  # an empty file is a file like any other
        order = list(paths)
        rng.shuffle(order)
        n_bad = rng.randint(1, 2) + difficulty
        n_missing = rng.randint(1, 1 + difficulty // 2)
        bad = set(order[:n_bad])
        missing = set(order[n_bad : n_bad + n_missing])
        state = {p: "bad" if p in bad else "missing" if p in missing else "ok" for p in paths}
        actual: dict[str, bytes] = {}
        for p in paths:
            if state[p] == "ok":
                actual[p] = good[p]
            elif state[p] == "bad":
                data = good[p]
                how = rng.randrange(4 if difficulty == 3 else 3)
                if how == 0 and data:
                    i = rng.randrange(len(data))
                    actual[p] = (
                        data[:i] + bytes([data[i] ^ 0x20 if data[i] != 0x0A else 0x41]) + data[i + 1 :]
                    )
                elif how == 1:
                    actual[p] = data + b"\n"
                elif how == 2:
                    actual[p] = data[: len(data) // 2]
                else:
                    actual[p] = b"" if data else b"\0"
                if actual[p] == data:
                    actual[p] = data + b"\0"
        extras: dict[str, bytes] = {}
        for _ in range(rng.randint(1, 1 + difficulty)):
            d = rng.choice(["", *dirs])
            name = f"{rng.choice(stems)} {rng.choice(['copy', 'new', 'v2', 'tmp'])}.{rng.choice(EXTS)}"
            p = f"{d}/{name}" if d else name
            if p not in good:
                extras[p] = f"{p}\n{fake.sha1()}\n".encode()
        # ---- the manifest ------------------------------------------------------------------------
        written = {p: (f"./{p}" if difficulty >= 2 and rng.random() < 0.2 else p) for p in paths}
        upper = {p: difficulty >= 2 and rng.random() < 0.2 for p in paths}
        entries = [{"path": written[p], "digest": digest(algo, good[p])} for p in order]
        malformed: list[int] = []
        lines: list[str] = []
        if mformat != "json":
            if difficulty >= 2:
                lines.append(
                    f"# {tag} checksums for {project}, generated {fake.date_between(*GENERATED).isoformat()}"
                )
            for p in order:
                hx = digest(algo, good[p])
                hx = hx.upper() if upper[p] else hx
                if mformat == "gnu":
                    star = difficulty >= 2 and rng.random() < 0.25
                    lines.append(f"{hx} *{written[p]}" if star else f"{hx}  {written[p]}")
                else:
                    lines.append(f"{tag} ({written[p]}) = {hx}")
                if difficulty >= 2 and rng.random() < 0.08:
                    lines.append("")
            report_malformed = variant == "report"
            if difficulty == 3 and report_malformed:
                for _ in range(2):
                    junk = rng.choice(
                        [
                            f"{fake.sha1()[:20]}  {rng.choice(stems)}.txt",
                            f"{rng.choice(stems)}.txt",
                            f"SHA512 ({rng.choice(stems)}.bin) = {fake.sha1()}",
                            f"{'z' * hexlen}  {rng.choice(stems)}.dat",
                        ]
                    )
                    lines.insert(rng.randint(1, len(lines)), junk)
                malformed = [
                    i + 1 for i, line in enumerate(lines) if self._malformed(line, mformat, tag, hexlen)
                ]
            manifest_text = "\n".join(lines) + "\n"
        else:
            doc = {
                "algorithm": algo,
                "generated": fake.date_time_between(*GENERATED_AT).isoformat(timespec="seconds"),
                "files": [
                    {"path": e["path"], "size": len(good[p]), "digest": e["digest"]}
                    for e, p in zip(entries, order, strict=True)
                ],
            }
            manifest_text = json.dumps(doc, indent=2) + "\n"
        tree = Tree()
        for p in sorted(actual):
            tree.add(f"{root.removeprefix('/app/')}/{p}", actual[p])
        for p in sorted(extras):
            tree.add(f"{root.removeprefix('/app/')}/{p}", extras[p])
        tree.add(manifest.removeprefix("/app/"), manifest_text)
        # ---- the expected outcome ----------------------------------------------------------------
        ctx: dict[str, Any] = {
            "variant": variant,
            "root": root,
            "manifest": manifest,
            "mname": manifest.rsplit("/", 1)[1],
            "inside": inside,
            "algo": algo,
            "tag": tag,
            "hexlen": hexlen,
            "mformat": mformat,
            "phrasing": rng.randrange(3),
            "difficulty": difficulty,
            "has_malformed": bool(malformed),
            "project": project,
            "person": rng.choice(words(pools, "people", used) or [fake.name()]).split()[0],
        }
        mrel = mname if inside else None
        archive_now: dict[str, bytes | tuple[str, str]] = {**actual, **extras}
        if mrel:
            archive_now[mrel] = manifest_text.encode()
        trees: dict[str, Any] = {}
        texts: dict[str, str] = {}
        jsons: dict[str, Any] = {}
        statuses = {
            "bad": rng.choice(["CORRUPT", "BAD", "MISMATCH", "FAILED"]),
            "missing": rng.choice(["MISSING", "ABSENT"]),
            "extra": rng.choice(["EXTRA", "UNLISTED", "UNTRACKED"]),
            "ok": "OK",
        }
        ctx["statuses"] = statuses
        if variant == "report":
            fmt = rng.choice(
                ["lines", "csv", "json"] + (["check"] if mformat != "json" and not malformed else [])
            )
            include_ok = fmt == "lines" and rng.random() < 0.5
            report = (
                f"/app/{rng.choice(['verify_report', 'integrity', 'audit', 'check-results'])}."
                + {"lines": "txt", "csv": "csv", "json": "json", "check": "log"}[fmt]
            )
            rows = [(written[p], statuses[state[p]]) for p in paths]
            rows += [(p, statuses["extra"]) for p in extras]
            rows.sort(key=lambda r: r[0].encode())
            if fmt == "lines":
                texts[report] = "".join(f"{s} {p}\n" for p, s in rows if include_ok or s != "OK") + "".join(
                    f"MALFORMED line {n_}\n" for n_ in malformed
                )
            elif fmt == "csv":
                texts[report] = "path,status\n" + "".join(f"{p},{s}\n" for p, s in rows)
            elif fmt == "json":
                out: dict[str, Any] = {
                    key: sorted((p for p, s in rows if s == statuses[key]), key=str.encode)
                    for key in ("ok", "bad", "missing", "extra")
                }
                out = {{"bad": statuses["bad"].lower()}.get(k, k): v for k, v in out.items()}
                if malformed:
                    out["malformed"] = malformed
                jsons[report] = out
            else:
                texts[report] = "".join(
                    f"{written[p]}: "
                    + {"ok": "OK", "bad": "FAILED", "missing": "FAILED open or read"}[state[p]]
                    + "\n"
                    for p in order
                )
            trees[root] = tree_spec(archive_now, None)
            ctx.update(
                fmt=fmt,
                include_ok=include_ok,
                report=report,
                json_keys=["ok", statuses["bad"].lower(), "missing", "extra"],
            )
        elif variant == "quarantine":
            qdir = rng.choice(["/app/quarantine", f"/app/{project}-quarantine", "/app/corrupt"])
            udir = (
                rng.choice(["/app/unlisted", "/app/strays", "/app/not-in-manifest"])
                if (difficulty >= 2 and rng.random() < 0.5)
                else None
            )
            report = f"/app/{rng.choice(['verify_report', 'bad_files', 'damage'])}.txt"
            q: dict[str, bytes | tuple[str, str]] = {}
            u: dict[str, bytes | tuple[str, str]] = {}
            for p in paths:
                if state[p] == "bad":
                    q[p] = archive_now.pop(p)
            if udir:
                for p in extras:
                    u[p] = archive_now.pop(p)
            rows = [(written[p], statuses[state[p]]) for p in paths if state[p] != "ok"]
            if udir:
                rows += [(p, statuses["extra"]) for p in extras]
            rows.sort(key=lambda r: r[0].encode())
            texts[report] = "".join(f"{s} {p}\n" for p, s in rows)
            trees[root] = tree_spec(archive_now, None)
            trees[qdir] = tree_spec(q, None)
            if udir:
                trees[udir] = tree_spec(u, None)
            ctx.update(qdir=qdir, udir=udir, report=report)
        elif variant == "repair":
            mirror = rng.choice(
                ["/app/mirror", f"/app/backup/{project}", "/app/replica", f"/app/{project}-copy"]
            )
            broken = [p for p in paths if state[p] != "ok"]
            rng.shuffle(broken)
            mirror_files: dict[str, bytes] = {
                p: good[p] for p in paths if state[p] == "ok" and rng.random() < 0.7
            }
            restored, lost = [], []
            for i, p in enumerate(broken):
                fate = (
                    "good"
                    if i == 0
                    else "absent"
                    if (i == 1 and difficulty >= 2)
                    else (
                        "bad"
                        if (i == 2 and difficulty >= 2)
                        else rng.choice(["good", "good", "bad", "absent"])
                    )
                )
                if fate == "good":
                    mirror_files[p] = good[p]
                    restored.append(p)
                    archive_now[p] = good[p]
                else:
                    if fate == "bad":
                        mirror_files[p] = good[p] + b"(stale copy)\n"
                    lost.append(p)
            for p in list(extras)[:1]:
                mirror_files[p] = extras[p]
            for p in sorted(mirror_files):
                tree.add(f"{mirror.removeprefix('/app/')}/{p}", mirror_files[p])
            report = f"/app/{rng.choice(['repair_report', 'repair', 'restore-log'])}.txt"
            words_ = (
                rng.choice(["RESTORED", "REPAIRED", "FIXED"]),
                rng.choice(["UNRECOVERABLE", "LOST", "UNFIXABLE"]),
            )
            rows = [(written[p], words_[0]) for p in restored] + [(written[p], words_[1]) for p in lost]
            rows.sort(key=lambda r: r[0].encode())
            texts[report] = "".join(f"{s} {p}\n" for p, s in rows)
            trees[root] = tree_spec(archive_now, None)
            trees[mirror] = tree_spec(dict(mirror_files), None)
            ctx.update(mirror=mirror, report=report, rwords=list(words_))
        else:
            keep_old = difficulty >= 2 and rng.random() < 0.5
            old_suffix = rng.choice([".orig", ".old", ".bak"])
            log = f"/app/{rng.choice(['manifest-changes', 'changes', 'rebuild'])}.txt"
            current = {p: d for p, d in archive_now.items() if p != mrel and isinstance(d, bytes)}
            new_sorted = sorted(current, key=str.encode)
            if mformat == "json":
                jsons[manifest] = {
                    "algorithm": algo,
                    "files": [
                        {"path": p, "size": len(current[p]), "digest": digest(algo, current[p])}
                        for p in new_sorted
                    ],
                }
            elif mformat == "gnu":
                texts[manifest] = "".join(f"{digest(algo, current[p])}  {p}\n" for p in new_sorted)
            else:
                texts[manifest] = "".join(f"{tag} ({p}) = {digest(algo, current[p])}\n" for p in new_sorted)
            changes = [(p, "ADDED") for p in extras] + [
                (p, {"bad": "CHANGED", "missing": "REMOVED"}[state[p]]) for p in paths if state[p] != "ok"
            ]
            changes.sort(key=lambda r: r[0].encode())
            texts[log] = "".join(f"{s} {p}\n" for p, s in changes)
            spec = tree_spec({p: d for p, d in archive_now.items() if p != mrel}, None)
            if mrel:
                spec["skip"] = [mrel]
            if keep_old:
                old = f"{manifest}{old_suffix}"
                if inside:
                    spec["files"][f"{mrel}{old_suffix}"] = hashlib.sha256(manifest_text.encode()).hexdigest()
                else:
                    texts[old] = manifest_text
            trees[root] = spec
            ctx.update(keep_old=keep_old, old_suffix=old_suffix, log=log)
        files = {
            "environment/setup.sh": render(f"{T}/setup.sh.j2", entries=tree.entries),
            "tests/check.py": render(f"{T}/check.py.j2", trees=trees, texts=texts, jsons=jsons, absent=[]),
            "solution/solve.sh": render(f"{T}/solve.sh.j2", **ctx),
        }
        titles = {
            "report": [
                f"Audit {root} against its {tag} manifest",
                f"Report which files in {root} fail their checksums",
            ],
            "quarantine": [
                f"Quarantine the corrupted files of {root}",
                f"Verify {root} and isolate damaged files",
            ],
            "repair": [
                f"Repair {root} from a mirror using its checksum manifest",
                f"Restore damaged and missing files of {root}",
            ],
            "rebuild": [f"Rebuild the checksum manifest of {root}", f"Refresh {ctx['mname']} for {root}"],
        }
        params = {k: v for k, v in ctx.items() if v is not None}
        return Draft(
            title=rng.choice(titles[variant]),
            instruction=render(f"{T}/instruction.md.j2", **ctx).strip() + "\n",
            files=files,
            params=params,
            keywords=["files", "checksums", algo, variant],
            pool_items=used,
        )

    @staticmethod
    def _malformed(line: str, mformat: str, tag: str, hexlen: int) -> bool:
        import re

        if not line.strip() or line.startswith("#"):
            return False
        if mformat == "gnu":
            return re.fullmatch(r"[0-9a-fA-F]{" + str(hexlen) + r"}( \*| {2}).+", line) is None
        return re.fullmatch(tag + r" \((.+)\) = [0-9a-fA-F]{" + str(hexlen) + "}", line) is None
