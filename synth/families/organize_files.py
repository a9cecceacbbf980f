"""organize-files: tidy a messy folder by exact rules (extension map, date in the name, size buckets,
content duplicates, name normalisation, flattening), losing nothing.

The family builds the folder itself (environment/setup.sh creates it at build time, so names may hold
spaces and hidden files), computes the tree the rules lead to, and the checker compares the whole
resulting tree (paths, content hashes, symlinks, folders) and any log file with it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from typing import Any, ClassVar

from faker import Faker

from synth.families.base import Draft, Family, render
from synth.pools import PoolItem, Pools

T = "organize-files"

CATEGORIES: dict[str, tuple[list[str], list[str]]] = {
    "images": (
        ["images", "Images", "pictures", "photos", "img"],
        ["jpg", "jpeg", "png", "gif", "webp", "heic", "svg", "bmp"],
    ),
    "documents": (
        ["documents", "docs", "Documents", "papers"],
        ["pdf", "doc", "docx", "txt", "md", "odt", "rtf"],
    ),
    "spreadsheets": (["spreadsheets", "sheets", "tables"], ["xls", "xlsx", "csv", "ods", "tsv"]),
    "archives": (["archives", "compressed", "zips"], ["zip", "tar", "gz", "tgz", "7z", "rar", "bz2", "xz"]),
    "audio": (["audio", "music", "sounds"], ["mp3", "wav", "flac", "m4a", "ogg", "aac"]),
    "video": (["video", "videos", "movies", "clips"], ["mp4", "mkv", "mov", "avi", "webm"]),
    "code": (["code", "src", "scripts"], ["py", "js", "sh", "html", "css", "json", "ts", "go", "rb"]),
    "slides": (["presentations", "slides", "decks"], ["ppt", "pptx", "key", "odp"]),
    "fonts": (["fonts", "typefaces"], ["ttf", "otf", "woff", "woff2"]),
    "ebooks": (["ebooks", "books", "reading"], ["epub", "mobi", "azw3", "djvu"]),
}
STRAY_EXTS = [
    "bin",
    "exe",
    "dat",
    "crdownload",
    "iso",
    "dmg",
    "log",
    "bak",
    "tmp",
    "part",
    "torrent",
    "ics",
    "vcf",
]
HIDDEN = [".DS_Store", ".localized", ".hidden-notes.txt", ".sync-state.json", ".thumbs.db", ".directory"]
FALLBACK_STEMS = [
    "report",
    "invoice",
    "photo",
    "notes",
    "budget",
    "slides",
    "backup",
    "scan",
    "draft",
    "letter",
    "summary",
    "plan",
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
]


def words(pools: Pools, name: str, used: list[PoolItem]) -> list[str]:
    """The lines of the pool's `words/<name>.txt` (recorded as used), or [] if the pools have none."""
    for item in pools.items("text"):
        if item.path.replace("\\", "/").endswith(f"words/{name}.txt"):
            if item not in used:
                used.append(item)
            return [line.strip() for line in item.read_text().splitlines() if line.strip()]
    return []


def fill(seed: str, size: int) -> bytes:
    """A file's content of exactly `size` bytes (setup.sh makes the same bytes)."""
    unit = (seed + "\n").encode()
    return (unit * (size // len(unit) + 1))[:size]


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def ext_of(name: str) -> str:
    """Lowercased text after the last dot ('' if none, or if the only dot starts the name)."""
    dot = name.rfind(".")
    return name[dot + 1 :].lower() if dot > 0 else ""


def tree_spec(files: dict[str, bytes | tuple[str, str]], dirs: list[str] | None) -> dict[str, Any]:
    """What the checker expects of one folder: {rel: sha256} of its files, {rel: target} of its symlinks,
    and its exact set of sub-folders (None: not checked)."""
    return {
        "files": {p: sha(d) for p, d in sorted(files.items()) if isinstance(d, bytes)},
        "links": {p: d[1] for p, d in sorted(files.items()) if isinstance(d, tuple)},
        "dirs": dirs,
    }


class Tree:
    """What setup.sh creates: files (content or fill), symlinks, empty folders, all under /app."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.data: dict[str, bytes] = {}

    def add(self, path: str, content: bytes | str, mtime: int | None = None) -> bytes:
        data = content.encode() if isinstance(content, str) else content
        entry: dict[str, Any] = {"p": path, "c": data.decode()}
        if len(data) > 600 and data == fill(data.split(b"\n", 1)[0].decode(), len(data)):
            entry = {"p": path, "fill": data.split(b"\n", 1)[0].decode(), "size": len(data)}
        if mtime is not None:
            entry["m"] = mtime
        self.entries.append(entry)
        self.data[path] = data
        return data


class OrganizeFiles(Family):
    name: ClassVar[str] = T
    category: ClassVar[str] = "files"
    pool_kinds: ClassVar[tuple[str, ...]] = ("text",)

    VARIANTS = ("extension", "date", "size", "dedupe", "rename", "flatten")

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        fake = Faker()
        fake.seed_instance(rng.randrange(2**31))
        used: list[PoolItem] = []
        stems = words(pools, "file_stems", used) or FALLBACK_STEMS
        folders = words(pools, "folder_names", used) or FOLDERS
        people = words(pools, "people", used) or [fake.name() for _ in range(10)]
        variant = rng.choice(self.VARIANTS)
        person = rng.choice(people)
        folder = rng.choice(folders)
        base = f"/app/{folder}" if rng.random() < 0.6 else f"/app/{person.split()[0].lower()}/{folder}"
        ctx: dict[str, Any] = {
            "variant": variant,
            "root": base,
            "person": person,
            "phrasing": rng.randrange(3),
            "difficulty": difficulty,
        }
        maker = getattr(self, f"_{variant}")
        out = maker(rng, fake, stems, difficulty, ctx)
        tree: Tree = out["tree"]
        expected = out["expected"]
        params = {k: v for k, v in ctx.items() if isinstance(v, str | int | float | bool | list | dict)}
        params = {k: v for k, v in params.items() if k not in ("intro",)}
        trees = {base: tree_spec(expected["files"], expected.get("dirs"))}
        if expected.get("outside_root"):
            trees[expected["outside_root"]] = tree_spec(
                {p.removeprefix(expected["outside_root"] + "/"): d for p, d in expected["outside"].items()},
                None,
            )
        check = {
            "trees": trees,
            "texts": expected.get("texts", {}),
            "jsons": expected.get("jsons", {}),
            "absent": [],
        }
        files = {
            "environment/setup.sh": render(f"{T}/setup.sh.j2", entries=tree.entries),
            "tests/check.py": render(f"{T}/check.py.j2", **check),
            "solution/solve.sh": render(f"{T}/solve.sh.j2", **ctx),
        }
        instruction = render(f"{T}/instruction.md.j2", **ctx).strip() + "\n"
        return Draft(
            title=out["title"],
            instruction=instruction,
            files=files,
            params=params,
            keywords=["files", "organize", variant, *out.get("keywords", [])],
            pool_items=used,
        )

    # ---- helpers -------------------------------------------------------------------------------

    @staticmethod
    def _stem(rng: random.Random, stems: list[str], taken: set[str], style: int = 0) -> str:
        while True:
            stem = rng.choice(stems)
            if style and rng.random() < 0.4:
                stem = stem.replace(" ", "_") if rng.random() < 0.5 else stem.title()
            if rng.random() < 0.25:
                stem = (
                    f"{stem} ({rng.randint(1, 9)})" if rng.random() < 0.5 else f"{stem}-v{rng.randint(2, 5)}"
                )
            if stem.lower() not in taken:
                taken.add(stem.lower())
                return stem

    @staticmethod
    def _content(fake: Faker, name: str) -> bytes:
        return f"{name}\n{fake.sha1()}\n{fake.sentence()}\n".encode()

    @staticmethod
    def _mtime(rng: random.Random) -> int:
        return 1_600_000_000 + rng.randrange(120_000_000)

    def _hidden(self, rng: random.Random, fake: Faker, tree: Tree, rel: str, n: int) -> dict[str, bytes]:
        out = {}
        for name in rng.sample(HIDDEN, n):
            out[name] = tree.add(f"{rel}/{name}", self._content(fake, name), self._mtime(rng))
        return out

    # ---- variants --------------------------------------------------------------------------------

    def _extension(
        self, rng: random.Random, fake: Faker, stems: list[str], difficulty: int, ctx: dict[str, Any]
    ) -> dict[str, Any]:
        root = ctx["root"]
        rel = root.removeprefix("/app/")
        ncat = {1: 4, 2: rng.randint(5, 6), 3: rng.randint(6, 8)}[difficulty]
        cats = rng.sample(sorted(CATEGORIES), ncat)
        mapping: list[dict[str, Any]] = []
        ext_to_folder: dict[str, str] = {}
        for cat in cats:
            names, exts = CATEGORIES[cat]
            chosen = sorted(rng.sample(exts, rng.randint(3, min(6, len(exts)))))
            folder = rng.choice(names)
            mapping.append({"folder": folder, "exts": chosen})
            for e in chosen:
                ext_to_folder[e] = folder
        fallback = rng.choice(["other", "misc", "unsorted", "_other", "everything-else"])
        unmapped = sorted({e for c in CATEGORIES.values() for e in c[1]} - set(ext_to_folder)) + STRAY_EXTS
        lower_ext = difficulty >= 2 and rng.random() < 0.5
        log = rng.choice([None, "tsv", "arrow"]) if difficulty >= 2 else rng.choice([None, "arrow"])
        log_path = {
            None: None,
            "tsv": "/app/moves.tsv",
            "arrow": f"/app/{rng.choice(['moved', 'sorted'])}.log",
        }[log]
        tree = Tree()
        taken: set[str] = set()
        n = {1: 12, 2: 20, 3: 28}[difficulty]
        top: list[str] = []
        mapped = sorted(ext_to_folder)
        for i in range(n):
            stem = self._stem(rng, stems, taken, difficulty - 1)
            r = rng.random()
            if r < 0.68 or i < 3:
                e = rng.choice(mapped)
            elif r < 0.88:
                e = rng.choice(unmapped)
            else:
                e = ""
            if e and difficulty >= 2 and rng.random() < 0.3:
                e = e.upper()
            name = f"{stem}.{e}" if e else stem
            if difficulty == 3 and rng.random() < 0.12:
                inner, outer = (
                    rng.choice(["tar", "pdf", "txt", "csv"]),
                    rng.choice(["gz", "bak", "old", "zip"]),
                )
                name = f"{stem}.{inner}.{outer}"
            if name.lower() in {t.lower() for t in top}:
                continue
            top.append(name)
        if difficulty >= 2:
            top.append("README")  # no extension
        final: dict[str, bytes | tuple[str, str]] = {}
        for name in top:
            final[name] = tree.add(f"{rel}/{name}", self._content(fake, name), self._mtime(rng))
        hidden = self._hidden(rng, fake, tree, rel, {1: 1, 2: 2, 3: 3}[difficulty])
        expected: dict[str, bytes | tuple[str, str]] = dict(hidden)
        # a category folder that already exists and holds a file, and an unrelated folder
        existing = rng.choice(mapping)["folder"]
        pre = f"{self._stem(rng, stems, taken)}.{rng.choice(mapping[0]['exts'])}"
        expected[f"{existing}/{pre}"] = tree.add(f"{rel}/{existing}/{pre}", self._content(fake, pre))
        other_dir = rng.choice(["projects", "keep", "old stuff", "archive-2019"])
        for _ in range(2 if difficulty >= 2 else 1):
            nm = f"{self._stem(rng, stems, taken)}.{rng.choice(mapped)}"
            expected[f"{other_dir}/{nm}"] = tree.add(f"{rel}/{other_dir}/{nm}", self._content(fake, nm))
        moves: list[tuple[str, str]] = []
        for name in sorted(top):
            e = ext_of(name)
            dest = ext_to_folder.get(e, fallback)
            new = name
            if lower_ext and e:
                new = name[: len(name) - len(e)] + e
            expected[f"{dest}/{new}"] = final[name]
            moves.append((name, f"{dest}/{new}"))
        dirs = sorted({p.rsplit("/", 1)[0] for p in expected if "/" in p})
        texts = {}
        if log_path:
            sep = "\t" if log == "tsv" else " -> "
            texts[log_path] = "".join(f"{a}{sep}{b}\n" for a, b in moves)
        ctx.update(
            mapping=mapping,
            fallback=fallback,
            lower_ext=lower_ext,
            log=log,
            log_path=log_path,
            other_dir=other_dir,
            existing=existing,
            example=(example := rng.choice([n for n in top if ext_of(n) and n != n.lower()] or top)),
            example_ext=ext_of(example),
            log_line={
                None: "",
                "tsv": "`<original name>`, a tab, then `<folder>/<new name>`",
                "arrow": "`<original name> -> <folder>/<new name>` (a space, `->`, a space)",
            }[log],
        )
        return {
            "tree": tree,
            "expected": {"files": expected, "dirs": dirs, "texts": texts},
            "title": rng.choice(
                [
                    f"Sort {root} into folders by file extension",
                    f"Tidy up {root} using an extension-to-folder map",
                    f"File the loose files of {root} by type",
                ]
            ),
            "keywords": ["extensions", "mv"],
        }

    def _date(
        self, rng: random.Random, fake: Faker, stems: list[str], difficulty: int, ctx: dict[str, Any]
    ) -> dict[str, Any]:
        root = ctx["root"]
        rel = root.removeprefix("/app/")
        layout = rng.choice(["Y/M", "Y-M", "Y/Y-M-D", "Y/Q"])
        undated = rng.choice(["undated", "no-date", "_undated", "unknown-date"])
        prefix = difficulty >= 2 and rng.random() < 0.4
        log = rng.choice([None, "csv"]) if difficulty >= 2 else None
        log_path = f"/app/{rng.choice(['date-sort', 'filed', 'moves'])}.csv" if log else None
        tree = Tree()
        taken: set[str] = set()
        n = {1: 12, 2: 20, 3: 26}[difficulty]
        names: list[str] = []
        exts = ["jpg", "png", "pdf", "docx", "mp4", "txt", "xlsx", "heic", "mov", "csv"]
        while len(names) < n:
            day = dt.date(2019, 1, 1) + dt.timedelta(days=rng.randrange(6 * 365))
            stem = self._stem(rng, stems, taken)
            e = rng.choice(exts)
            r = rng.random()
            if r < 0.2:
                clock = f"{rng.randint(0, 23):02d}{rng.randint(0, 59):02d}{rng.randint(0, 59):02d}"
                name = f"IMG_{day:%Y%m%d}_{clock}.{e}"
            elif r < 0.4:
                name = f"{stem} {day:%Y-%m-%d}.{e}"
            elif r < 0.55:
                name = f"{day:%Y_%m_%d}_{stem.replace(' ', '_')}.{e}"
            elif r < 0.7:
                name = f"{stem}-{day:%Y%m%d}.{e}"
            elif r < 0.82:
                name = f"{day:%Y-%m-%d} {stem}.{e}"
            else:
                name = f"{stem}.{e}"  # undated
            if difficulty == 3 and rng.random() < 0.25:
                trap = rng.randrange(4)
                if trap == 0:
                    name = f"{stem} {day.year}-02-{rng.randint(30, 31)}.{e}"  # impossible date
                elif trap == 1:
                    name = f"call_{day:%Y%m%d}{rng.randint(1000, 9999)}.m4a"  # longer digit run
                elif trap == 2:
                    name = f"{stem} {day:%Y-%m_%d}.{e}"  # mixed separators: not a date
                else:
                    d2 = day + dt.timedelta(days=rng.randint(40, 400))
                    name = f"{stem} {day:%Y%m%d} to {d2:%Y-%m-%d}.{e}"  # two dates: the first counts
            if difficulty >= 2 and rng.random() < 0.15:
                name = f"{day.year}{rng.randint(13, 19):02d}01-{stem}.{e}"  # month 13+: undated
            if name.lower() in {x.lower() for x in names}:
                continue
            names.append(name)
        mt = {n_: self._mtime(rng) for n_ in names}
        data = {n_: tree.add(f"{rel}/{n_}", self._content(fake, n_), mt[n_]) for n_ in names}
        expected: dict[str, bytes | tuple[str, str]] = dict(self._hidden(rng, fake, tree, rel, difficulty))
        # a year folder that already exists: it is not sorted, new files land next to its content
        pre_year = str(rng.randint(2019, 2024))
        pre_dir = {
            "Y/M": f"{pre_year}/03",
            "Y-M": f"{pre_year}-03",
            "Y/Y-M-D": f"{pre_year}/{pre_year}-03-01",
            "Y/Q": f"{pre_year}/Q1",
        }[layout]
        pre = f"old {self._stem(rng, stems, taken)}.txt"
        expected[f"{pre_dir}/{pre}"] = tree.add(f"{rel}/{pre_dir}/{pre}", self._content(fake, pre))
        pat = re.compile(r"(?<!\d)(\d{4})([-_]?)(\d{2})\2(\d{2})(?!\d)")
        rows = []
        for name in sorted(names):
            m = pat.search(name)
            day_: dt.date | None = None
            if m:
                try:
                    day_ = dt.date(int(m.group(1)), int(m.group(3)), int(m.group(4)))
                except ValueError:
                    day_ = None
            if day_ is None:
                dest, new = undated, name
            else:
                dest = {
                    "Y/M": f"{day_:%Y}/{day_:%m}",
                    "Y-M": f"{day_:%Y-%m}",
                    "Y/Y-M-D": f"{day_:%Y}/{day_:%Y-%m-%d}",
                    "Y/Q": f"{day_:%Y}/Q{(day_.month - 1) // 3 + 1}",
                }[layout]
                new = name
                if prefix and not name.startswith(day_.isoformat()):
                    new = f"{day_.isoformat()}_{name}"
            expected[f"{dest}/{new}"] = data[name]
            rows.append((name, f"{dest}/{new}", day_.isoformat() if day_ else ""))
        dirs = sorted({"/".join(p.split("/")[:i]) for p in expected for i in range(1, p.count("/") + 1)})
        texts = {}
        if log_path:
            texts[log_path] = "file,destination,date\n" + "".join(f"{a},{b},{c}\n" for a, b, c in rows)
        ctx.update(layout=layout, undated=undated, prefix=prefix, log=log, log_path=log_path, pre_dir=pre_dir)
        return {
            "tree": tree,
            "expected": {"files": expected, "dirs": dirs, "texts": texts},
            "title": rng.choice(
                [
                    f"File the contents of {root} into dated folders from the dates in their names",
                    f"Sort {root} chronologically using the date embedded in each file name",
                ]
            ),
            "keywords": ["dates", "regex"],
        }

    def _size(
        self, rng: random.Random, fake: Faker, stems: list[str], difficulty: int, ctx: dict[str, Any]
    ) -> dict[str, Any]:
        root = ctx["root"]
        rel = root.removeprefix("/app/")
        nthr = difficulty
        unit = rng.choice(["bytes", "KiB", "kB"])
        mult = {"bytes": 1, "KiB": 1024, "kB": 1000}[unit]
        if unit == "bytes":
            vals = sorted(rng.sample(range(200, 6000, 50), nthr))
        else:
            vals = sorted(rng.sample(range(1, 7), nthr))
        thresholds = [v * mult for v in vals]
        names_set = rng.choice(
            [
                ["small", "medium", "large", "huge"],
                ["tiny", "small", "big", "huge"],
                ["S", "M", "L", "XL"],
                ["light", "regular", "heavy", "giant"],
            ]
        )
        buckets = names_set[: nthr + 1]
        if nthr == 1:
            buckets = [names_set[0], names_set[2]]
        empty_dir = rng.choice(["empty", "zero-bytes"]) if difficulty == 3 else None
        report = rng.random() < (0.4 + 0.2 * difficulty)
        report_path = f"/app/{rng.choice(['size_report', 'buckets', 'sizes'])}.csv" if report else None
        tree = Tree()
        taken: set[str] = set()
        sizes: list[int] = []
        for t in thresholds:
            sizes += [t - 1, t]
            if rng.random() < 0.5:
                sizes.append(t + 1)
        n = {1: 10, 2: 16, 3: 22}[difficulty]
        hi = thresholds[-1] * 2
        while len(sizes) < n:
            sizes.append(rng.randint(1, hi))
        if empty_dir:
            sizes += [0, 0]
        rng.shuffle(sizes)
        expected: dict[str, bytes | tuple[str, str]] = dict(
            self._hidden(rng, fake, tree, rel, 1 + (difficulty > 1))
        )
        counts = {b: [0, 0] for b in buckets}
        exts = ["bin", "dat", "pdf", "jpg", "log", "csv", "txt", "zip", "mp3", "json"]
        for size in sizes:
            name = f"{self._stem(rng, stems, taken, 1)}.{rng.choice(exts)}"
            data = tree.add(f"{rel}/{name}", fill(f"{name} {fake.sha1()[:10]}", size), self._mtime(rng))
            if size == 0 and empty_dir:
                bucket = empty_dir
            else:
                bucket = buckets[sum(1 for t in thresholds if size >= t)]
                counts[bucket][0] += 1
                counts[bucket][1] += size
            expected[f"{bucket}/{name}"] = data
        other_dir = rng.choice(["keep", "projects", "do-not-touch"])
        nm = f"{self._stem(rng, stems, taken)}.txt"
        expected[f"{other_dir}/{nm}"] = tree.add(f"{rel}/{other_dir}/{nm}", self._content(fake, nm))
        dirs = sorted({p.split("/")[0] for p in expected if "/" in p})
        texts = {}
        if report_path:
            texts[report_path] = "bucket,files,bytes\n" + "".join(
                f"{b},{c[0]},{c[1]}\n" for b, c in counts.items()
            )

        def amount(v: int) -> str:
            return f"{v} bytes" if mult == 1 else f"{v} {unit} ({v * mult} bytes)"

        bounds = []
        for i, b in enumerate(buckets):
            if i == 0:
                text = f"smaller than {amount(vals[0])}"
            elif i == len(vals):
                text = f"{amount(vals[-1])} or more"
            else:
                text = f"at least {amount(vals[i - 1])} and smaller than {amount(vals[i])}"
            bounds.append({"name": b, "text": text})
        ctx.update(
            unit=unit,
            bounds=bounds,
            thresholds=thresholds,
            buckets=buckets,
            empty_dir=empty_dir,
            report_path=report_path,
            other_dir=other_dir,
            mult=mult,
        )
        return {
            "tree": tree,
            "expected": {"files": expected, "dirs": dirs, "texts": texts},
            "title": rng.choice([f"Bucket the files of {root} by size", f"Split {root} into size classes"]),
            "keywords": ["sizes", "stat"],
        }

    def _dedupe(
        self, rng: random.Random, fake: Faker, stems: list[str], difficulty: int, ctx: dict[str, Any]
    ) -> dict[str, Any]:
        root = ctx["root"]
        rel = root.removeprefix("/app/")
        keep = rng.choice(["bytes", "shallow"])
        action = rng.choice(["delete", "move", "link"])
        dup_root = (
            f"/app/{rng.choice(['duplicates', 'dupes', 'trash/dupes', 'removed'])}"
            if action == "move"
            else None
        )
        empty_rule = rng.choice(["ignore", "normal"]) if difficulty == 3 else None
        report_fmt = rng.choice(["tsv", "json", "csv"])
        report_path = f"/app/{rng.choice(['duplicates', 'dedupe_report', 'dupes'])}.{report_fmt}"
        subdirs = [
            "",
            *rng.sample(
                [
                    "2023",
                    "backup",
                    "phone",
                    "old/laptop",
                    "shared",
                    "Camera",
                    "misc/tmp",
                    "exports",
                    "work/q3",
                ],
                2 + difficulty,
            ),
        ]
        tree = Tree()
        taken: set[str] = set()
        files: dict[str, bytes] = {}

        def place(name: str) -> str:
            for _ in range(50):
                d = rng.choice(subdirs)
                path = f"{d}/{name}" if d else name
                if path not in files:
                    return path
            raise ValueError("no free path")

        exts = ["jpg", "pdf", "txt", "docx", "png", "mp3", "csv"]
        groups = {1: 2, 2: 3, 3: 5}[difficulty]
        for _ in range(groups):
            stem = self._stem(rng, stems, taken)
            e = rng.choice(exts)
            data = self._content(fake, stem)
            for k in range(rng.randint(2, 3 if difficulty < 3 else 4)):
                name = rng.choice(
                    [f"{stem}.{e}", f"{stem} copy.{e}", f"{stem} ({k + 1}).{e}", f"Copy of {stem}.{e}"]
                )
                files[place(name)] = data
        singles = {1: 6, 2: 10, 3: 14}[difficulty]
        for _ in range(singles):
            stem = self._stem(rng, stems, taken)
            name = f"{stem}.{rng.choice(exts)}"
            files[place(name)] = self._content(fake, stem)
        if difficulty >= 2:
            # same name, different content, in two folders: not duplicates
            stem = self._stem(rng, stems, taken)
            files[f"{subdirs[1]}/{stem}.txt"] = self._content(fake, stem)
            files[f"{subdirs[2]}/{stem}.txt"] = self._content(fake, stem + " v2")
            # same size, different content
            files[place(f"{stem}-a.bin")] = fill(f"{stem}-a", 300)
            files[place(f"{stem}-b.bin")] = fill(f"{stem}-b", 300)
        if empty_rule:
            for k in range(2):
                files[place(f"empty-{k + 1}.txt")] = b""
        files[place(rng.choice(HIDDEN))] = self._content(fake, "hidden")
        for p, d in files.items():
            tree.add(f"{rel}/{p}", d, self._mtime(rng))
        by_content: dict[bytes, list[str]] = {}
        for p in sorted(files):
            if files[p] == b"" and empty_rule == "ignore":
                continue
            by_content.setdefault(files[p], []).append(p)

        def keeper_key(p: str) -> tuple[int, bytes]:
            return (p.count("/") if keep == "shallow" else 0, p.encode())

        expected: dict[str, bytes | tuple[str, str]] = dict(files)
        outside: dict[str, bytes] = {}
        pairs: list[tuple[str, str]] = []
        for paths in by_content.values():
            if len(paths) < 2:
                continue
            kept = min(paths, key=keeper_key)
            for p in paths:
                if p == kept:
                    continue
                pairs.append((p, kept))
                if action == "delete":
                    del expected[p]
                elif action == "move":
                    del expected[p]
                    outside[f"{dup_root}/{p}"] = files[p]
                else:
                    expected[p] = ("link", f"{root}/{kept}")
        pairs.sort(key=lambda x: x[0].encode())
        text: str | None
        jsons: dict[str, Any] = {}
        if report_fmt == "tsv":
            text = "".join(f"{a}\t{b}\n" for a, b in pairs)
        elif report_fmt == "csv":
            text = "duplicate,kept\n" + "".join(f"{a},{b}\n" for a, b in pairs)
        else:
            groups_out: dict[str, list[str]] = {}
            for a, b in pairs:
                groups_out.setdefault(b, []).append(a)
            text = None
            jsons = {report_path: {k: sorted(v, key=str.encode) for k, v in sorted(groups_out.items())}}
        ctx.update(
            keep=keep,
            action=action,
            dup_root=dup_root,
            empty_rule=empty_rule,
            report_fmt=report_fmt,
            report_path=report_path,
            n_groups=groups,
        )
        return {
            "tree": tree,
            "expected": {
                "files": expected,
                "dirs": None,
                "texts": {report_path: text} if text is not None else {},
                "jsons": jsons,
                "outside_root": dup_root,
                "outside": outside,
            },
            "title": rng.choice(
                [f"Remove duplicate files (by content) from {root}", f"Deduplicate {root} by file content"]
            ),
            "keywords": ["dedupe", "sha256"],
        }

    def _rename(
        self, rng: random.Random, fake: Faker, stems: list[str], difficulty: int, ctx: dict[str, Any]
    ) -> dict[str, Any]:
        root = ctx["root"]
        rel = root.removeprefix("/app/")
        sep = rng.choice(["-", "_"])
        log_fmt = rng.choice(["csv", "arrow"])
        log_name = rng.choice(["renames", "renamed", "name-changes"])
        log_path = f"/app/{log_name}.{'csv' if log_fmt == 'csv' else 'txt'}"
        tree = Tree()
        taken: set[str] = set()
        names: list[str] = []
        n = {1: 10, 2: 16, 3: 22}[difficulty]
        exts = ["PDF", "jpg", "JPG", "docx", "Png", "txt", "MP3", "xlsx", "csv"]
        accents = ["é", "ü", "ñ", "ø", "&", "+", "!", "'", "#"]
        while len(names) < n:
            stem = self._stem(rng, stems, taken, 1)
            r = rng.random()
            if r < 0.2:
                stem = stem.upper()
            elif r < 0.35:
                stem = "  " + stem + " "
            elif r < 0.5 and difficulty >= 2:
                stem = stem.replace("e", rng.choice(accents[:4]), 1)
            elif r < 0.65:
                stem = f"{stem} {rng.choice(accents[4:])} {fake.word()}"
            elif r < 0.75:
                stem = stem.replace(" ", "__")
            e = rng.choice(exts)
            name = f"{stem}.{e}"
            if difficulty >= 2 and rng.random() < 0.1:
                name = stem  # no extension
            if name in names or "/" in name:
                continue
            names.append(name)
        if difficulty >= 2:
            names.append(rng.choice(["!!!.txt", "(1).PDF", "---.jpg"]))  # stem normalises to nothing
            # collisions: two names that normalise to the same result
            s = self._stem(rng, stems, taken)
            names += [f"{s}.pdf", f"{s.upper()}.PDF"]
            if difficulty == 3:
                names.append(f" {s}  .Pdf")
        names.append(f"{self._norm(self._stem(rng, stems, taken), sep)}.txt")  # already clean
        names = list(dict.fromkeys(names))
        data = {n_: tree.add(f"{rel}/{n_}", self._content(fake, n_), self._mtime(rng)) for n_ in names}
        expected: dict[str, bytes | tuple[str, str]] = dict(self._hidden(rng, fake, tree, rel, 1))
        other_dir = rng.choice(["Keep Me", "Old Files", "Projects 2022"])
        nm = f"{self._stem(rng, stems, taken)} FINAL.txt"
        expected[f"{other_dir}/{nm}"] = tree.add(f"{rel}/{other_dir}/{nm}", self._content(fake, nm))
        used: set[str] = set()
        changes = []
        for name in sorted(names, key=str.encode):
            dot = name.rfind(".")
            stem, e = (name[:dot], name[dot + 1 :]) if dot > 0 else (name, "")
            base = self._norm(stem, sep) or "file"
            e = re.sub(r"[^a-z0-9]", "", e.lower())
            new = f"{base}.{e}" if e else base
            k = 2
            while new in used:
                new = f"{base}{sep}{k}.{e}" if e else f"{base}{sep}{k}"
                k += 1
            used.add(new)
            expected[new] = data[name]
            if new != name:
                changes.append((name, new))
        if log_fmt == "csv":
            text = "old,new\n" + "".join(f"{a},{b}\n" for a, b in changes)
        else:
            text = "".join(f"{a} => {b}\n" for a, b in changes)
        ctx.update(sep=sep, log_fmt=log_fmt, log_path=log_path, other_dir=other_dir)
        return {
            "tree": tree,
            "expected": {"files": expected, "dirs": [other_dir], "texts": {log_path: text}},
            "title": rng.choice(
                [f"Normalise the file names in {root}", f"Give every file in {root} a clean, lowercase name"]
            ),
            "keywords": ["rename", "slug"],
        }

    @staticmethod
    def _norm(stem: str, sep: str) -> str:
        return re.sub(r"[^a-z0-9]+", sep, stem.lower()).strip(sep)

    def _flatten(
        self, rng: random.Random, fake: Faker, stems: list[str], difficulty: int, ctx: dict[str, Any]
    ) -> dict[str, Any]:
        root = ctx["root"]
        rel = root.removeprefix("/app/")
        joiner = rng.choice(["__", "--", "_", "+"])
        skip_hidden = difficulty >= 2
        manifest = rng.random() < 0.6
        manifest_path = f"/app/{rng.choice(['flattened', 'flatten-map', 'moves'])}.tsv" if manifest else None
        tree = Tree()
        taken: set[str] = set()
        dirs = [
            "photos",
            "photos/2022",
            "work",
            "work/reports",
            "work/reports/q1",
            "music",
            "misc",
            "taxes/2021",
            "taxes/2022",
            "notes",
        ]
        chosen_dirs = rng.sample(dirs, {1: 4, 2: 6, 3: 8}[difficulty])
        chosen_dirs = sorted(
            {"/".join(d.split("/")[:i]) for d in chosen_dirs for i in range(1, d.count("/") + 2)}
        )
        files: dict[str, bytes] = {}
        n = {1: 10, 2: 16, 3: 24}[difficulty]
        exts = ["jpg", "pdf", "txt", "md", "mp3", "csv", "docx"]
        while len(files) < n:
            d = rng.choice(["", *chosen_dirs])
            name = f"{self._stem(rng, stems, taken)}.{rng.choice(exts)}"
            path = f"{d}/{name}" if d else name
            files[path] = self._content(fake, path)
        if difficulty >= 2:
            # the same file name in two folders: flattening keeps them apart
            nm = f"{self._stem(rng, stems, taken)}.txt"
            a, b = rng.sample(chosen_dirs, 2)
            files[f"{a}/{nm}"] = self._content(fake, a + nm)
            files[f"{b}/{nm}"] = self._content(fake, b + nm)
        hidden_dir = rng.choice([".git", ".cache", ".trash"]) if skip_hidden else None
        extra: dict[str, bytes] = {}
        if hidden_dir:
            for k in range(2):
                extra[f"{hidden_dir}/obj{k}"] = self._content(fake, f"{hidden_dir}{k}")
            extra[f"{chosen_dirs[0]}/.keep"] = self._content(fake, ".keep")
        empty = rng.choice(chosen_dirs) + "/empty-folder" if difficulty == 3 else None
        entries = {**files, **extra}
        for p, data in entries.items():
            tree.add(f"{rel}/{p}", data, self._mtime(rng))
        if empty:
            tree.entries.append({"p": f"{rel}/{empty}", "dir": True})
        expected: dict[str, bytes | tuple[str, str]] = {}
        moves = []
        for p in sorted(files, key=str.encode):
            flat = p.replace("/", joiner)
            expected[flat] = files[p]
            if flat != p:
                moves.append((p, flat))
        keep_dirs: set[str] = set()
        for p, data in extra.items():
            expected[p] = data
            parts = p.split("/")
            keep_dirs |= {"/".join(parts[:i]) for i in range(1, len(parts))}
        texts = {}
        if manifest_path:
            texts[manifest_path] = "".join(f"{a}\t{b}\n" for a, b in moves)
        ctx.update(
            joiner=joiner,
            skip_hidden=skip_hidden,
            hidden_dir=hidden_dir,
            manifest_path=manifest_path,
            example=max(files, key=lambda x: x.count("/")),
        )
        return {
            "tree": tree,
            "expected": {"files": expected, "dirs": sorted(keep_dirs), "texts": texts},
            "title": rng.choice(
                [f"Flatten the nested folders of {root}", f"Pull every file of {root} up to one level"]
            ),
            "keywords": ["flatten", "find"],
        }
