"""notes-index: a vault of markdown notes with front matter (drawn from the markdown pool and re-written
with varied front-matter styles and edge cases); build a tag index, an open-task list, a backlink map, a
broken-link report (or unlink them), rename a tag across notes, or write a catalog of the notes.

The family knows what every note means (title, tags, links, tasks) because it writes them; the checker
compares the output files exactly and the notes byte for byte (unchanged, or changed exactly as asked).
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from faker import Faker

from synth.families.base import Draft, Family, render
from synth.families.organize_files import words
from synth.pools import PoolItem, Pools

T = "notes-index"
LINK = re.compile(r"\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]")
TASK = re.compile(r"^(\s*)[-*] \[( |x|X)\] (.*)$")


@dataclass
class Note:
    stem: str
    folder: str
    title: str | None
    date: str | None
    tags: list[str]
    body: str
    author: str | None = None
    has_fm: bool = True
    style: str = "inline"  # inline | block | empty | none (no tags key)
    quote_title: bool = False
    tight: bool = False
    indent: str = "  "
    quoted: set[int] = field(default_factory=set)
    fake_fm: bool = False

    @property
    def path(self) -> str:
        return f"{self.folder}/{self.stem}.md" if self.folder else f"{self.stem}.md"

    @property
    def eff_title(self) -> str:
        return self.title if self.title and self.has_fm else self.stem

    @property
    def eff_tags(self) -> list[str]:
        out: list[str] = []
        for t in self.tags:
            n = t.strip().lower()
            if n and n not in out:
                out.append(n)
        return out if self.has_fm and self.style in ("inline", "block") else []

    def front_lines(self) -> int:
        """How many lines the front matter takes (both `---` included)."""
        text = self.text()
        return text[: text.index("\n---\n", 3) + 5].count("\n") if self.has_fm else 0

    def item(self, i: int, t: str) -> str:
        return f'"{t}"' if i in self.quoted else t

    def text(self) -> str:
        lines: list[str] = []
        if self.has_fm:
            lines.append("---")
            if self.title is not None:
                shown = f'"{self.title}"' if self.quote_title or ":" in self.title else self.title
                lines.append(f"title: {shown}")
            if self.date:
                lines.append(f"date: {self.date}")
            if self.style == "inline":
                sep = "," if self.tight else ", "
                lines.append("tags: [" + sep.join(self.item(i, t) for i, t in enumerate(self.tags)) + "]")
            elif self.style == "block":
                lines.append("tags:")
                lines += [f"{self.indent}- {self.item(i, t)}" for i, t in enumerate(self.tags)]
            elif self.style == "empty":
                lines.append("tags: []")
            if self.author:
                lines.append(f"author: {self.author}")
            lines.append("---")
        body = self.body
        if self.fake_fm:
            body = body.rstrip("\n") + "\n\n---\ntags: [ignored, not-front-matter]\n---\n"
        return "\n".join(lines) + ("\n" if lines else "") + body


def parse_pool_note(stem: str, text: str) -> Note | None:
    """A pool note (front matter: title, date, tags inline or block, author) back into a Note."""
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 4)
    if end < 0:
        return None
    front, body = text[4:end].split("\n"), text[end + 5 :]
    title = date = author = None
    tags: list[str] = []
    i = 0
    while i < len(front):
        key, _, value = front[i].partition(":")
        value = value.strip()
        if key == "title":
            title = value[1:-1] if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"" else value
        elif key == "date":
            date = value
        elif key == "author":
            author = value
        elif key == "tags":
            if value.startswith("["):
                tags = [t.strip() for t in value[1:-1].split(",") if t.strip()]
            else:
                while i + 1 < len(front) and front[i + 1].startswith("  - "):
                    i += 1
                    tags.append(front[i][4:].strip())
        i += 1
    return Note(stem=stem, folder="", title=title, date=date, tags=tags, body=body, author=author)


CATALOG_FIELDS = ["title", "date", "folder", "tags", "tag_list", "open_tasks", "done_tasks", "links"]
FOLDER_RULES = [
    ("Meeting with", "meetings"),
    ("Retro", "meetings"),
    ("Reading:", "reading"),
    ("Trip to", "journal"),
    ("Incident", "ops/incidents"),
    ("architecture", "projects"),
    ("launch plan", "projects"),
    ("Ideas for", "ideas"),
]


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class NotesIndex(Family):
    name: ClassVar[str] = T
    category: ClassVar[str] = "notes"
    pool_kinds: ClassVar[tuple[str, ...]] = ("markdown",)

    VARIANTS = ("tag-index", "todo", "backlinks", "broken-links", "rename-tag", "catalog")

    @staticmethod
    def pool_notes(pools: Pools) -> list[tuple[PoolItem, Note]]:
        out = []
        for item in pools.items("markdown"):
            note = parse_pool_note(item.name.removesuffix(".md"), item.read_text())
            if note is not None and note.title:
                out.append((item, note))
        return out

    def usable(self, pools: Pools) -> bool:
        return len(self.pool_notes(pools)) >= 10

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        fake = Faker()
        fake.seed_instance(rng.randrange(2**31))
        used: list[PoolItem] = []
        people = words(pools, "people", used) or [fake.name()]
        vocab = words(pools, "tags", used) or ["ops", "ideas", "later", "reading"]
        available = self.pool_notes(pools)
        if len(available) < 8:
            raise ValueError(f"{T}: the pools hold fewer than 8 markdown notes with front matter")
        variant = rng.choice(self.VARIANTS)
        k = min(len(available), {1: 8, 2: 12, 3: 16}[difficulty])
        chosen = rng.sample(available, k)
        chosen.sort(key=lambda pair: pair[0].path)
        used += [item for item, _ in chosen]
        notes = [self._vary(rng, note, difficulty) for _, note in chosen]
        person = rng.choice(people)
        vault = rng.choice(
            [
                "/app/notes",
                "/app/vault",
                "/app/kb",
                "/app/wiki",
                f"/app/{person.split()[0].lower()}-notes",
                "/app/Zettelkasten",
                "/app/docs/notes",
            ]
        )
        ctx: dict[str, Any] = {
            "variant": variant,
            "vault": vault,
            "person": person.split()[0],
            "phrasing": rng.randrange(4),
            "difficulty": difficulty,
            "count": len(notes),
            "examples": [n.path for n in rng.sample(notes, 3)],
        }
        texts: dict[str, str] = {}
        jsons: dict[str, Any] = {}
        csvs: dict[str, list[list[str]]] = {}
        changed: dict[str, str] = {}
        out: str | None = None
        if variant == "tag-index":
            fmt = rng.choice(["md", "json", "csv"])
            out = {
                "md": f"{vault}/{rng.choice(['INDEX', 'TAGS', 'Tag Index'.replace(' ', '-')])}.md",
                "json": f"/app/{rng.choice(['tags', 'tag-index', 'tag_map'])}.json",
                "csv": f"/app/{rng.choice(['tags', 'tag-counts'])}.csv",
            }[fmt]
            index: dict[str, list[Note]] = {}
            for n in notes:
                for t in n.eff_tags:
                    index.setdefault(t, []).append(n)
            counts_in_heading = rng.random() < 0.4
            untagged = rng.random() < 0.6
            bullet = rng.choice(["md", "wiki"])
            values = rng.choice(["paths", "count"])
            csv_sort = rng.choice(["count", "tag"])
            bare = [n for n in notes if not n.eff_tags]
            if fmt == "md":
                lines = ["# Tag Index", ""]
                if bullet == "md":
                    key = lambda n: (n.eff_title.lower(), n.path)  # noqa: E731
                    show = lambda n: f"- [{n.eff_title}]({n.path})"  # noqa: E731
                else:
                    key = lambda n: (n.stem, n.path)  # noqa: E731
                    show = lambda n: f"- [[{n.stem}]]"  # noqa: E731
                for t in sorted(index, key=str.encode):
                    lines.append(f"## {t} ({len(index[t])})" if counts_in_heading else f"## {t}")
                    lines += [show(n) for n in sorted(index[t], key=key)]
                    lines.append("")
                if untagged:
                    lines.append(f"## (untagged) ({len(bare)})" if counts_in_heading else "## (untagged)")
                    lines += [show(n) for n in sorted(bare, key=key)]
                texts[out] = "\n".join(lines).rstrip("\n") + "\n"
            elif fmt == "json":
                if values == "paths":
                    jsons[out] = {t: sorted((n.path for n in ns), key=str.encode) for t, ns in index.items()}
                    if untagged:
                        jsons[out]["(untagged)"] = sorted((n.path for n in bare), key=str.encode)
                else:
                    jsons[out] = {t: len(ns) for t, ns in index.items()}
                    if untagged:
                        jsons[out]["(untagged)"] = len(bare)
            else:
                if csv_sort == "count":
                    order = sorted(index, key=lambda t: (-len(index[t]), t.encode()))
                else:
                    order = sorted(index, key=str.encode)
                csvs[out] = [["tag", "notes", "paths"]] + [
                    [t, str(len(index[t])), ";".join(sorted((n.path for n in index[t]), key=str.encode))]
                    for t in order
                ]
            ctx.update(
                fmt=fmt,
                out=out,
                counts_in_heading=counts_in_heading,
                untagged=untagged,
                bullet=bullet,
                values=values,
                csv_sort=csv_sort,
            )
        elif variant == "todo":
            fmt = rng.choice(["md", "tsv", "due"])
            star = difficulty >= 2
            out = {
                "md": f"{vault}/{rng.choice(['TODO', 'Open-Tasks', 'tasks'])}.md",
                "tsv": f"/app/{rng.choice(['todo', 'open_tasks'])}.tsv",
                "due": f"/app/{rng.choice(['due', 'deadlines', 'agenda'])}.txt",
            }[fmt]
            if star:
                self._starify(rng, notes)
            header = rng.choice(["title", "path"])
            with_line = rng.random() < 0.4
            with_done = rng.random() < 0.4
            overdue = rng.random() < 0.5
            today = f"{rng.choice([2024, 2025])}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            tasks: list[tuple[str, int, str, str]] = []  # path, line, text, title
            done_tasks: list[tuple[str, int, str, str]] = []
            for n in sorted(notes, key=lambda n: n.path.encode()):
                for i, line in enumerate(n.text().split("\n"), 1):
                    m = TASK.match(line)
                    if m and i > n.front_lines():
                        (tasks if m.group(2) == " " else done_tasks).append(
                            (n.path, i, m.group(3).strip(), n.eff_title)
                        )
            if not tasks:
                raise ValueError(f"{T}: no open task in the drawn notes")
            if fmt == "md":
                lines = ["# Open tasks", ""]
                for path in dict.fromkeys(t[0] for t in tasks):
                    mine = [t for t in tasks if t[0] == path]
                    lines.append(f"## {mine[0][3]} ({path})" if header == "title" else f"## {path}")
                    lines += [f"- [ ] {t[2]} (line {t[1]})" if with_line else f"- [ ] {t[2]}" for t in mine]
                    lines.append("")
                texts[out] = "\n".join(lines).rstrip("\n") + "\n"
            elif fmt == "tsv":
                if with_done:
                    every = sorted(
                        [(p, i, "open", x) for p, i, x, _ in tasks]
                        + [(p, i, "done", x) for p, i, x, _ in done_tasks],
                        key=lambda r: (r[0].encode(), r[1]),
                    )
                    texts[out] = "path\tline\tstatus\ttask\n" + "".join(
                        f"{p}\t{i}\t{st}\t{x}\n" for p, i, st, x in every
                    )
                else:
                    texts[out] = "path\tline\ttask\n" + "".join(f"{p}\t{i}\t{x}\n" for p, i, x, _ in tasks)
            else:
                due = re.compile(r"\s*@due\((\d{4}-\d{2}-\d{2})\)")
                rows = []
                for p, i, x, _ in tasks:
                    m = due.search(x)
                    if m and (not overdue or m.group(1) < today):
                        rows.append((m.group(1), p, i, (x[: m.start()] + x[m.end() :]).strip()))
                if not rows:
                    raise ValueError(f"{T}: no open task with a due date")
                rows.sort(key=lambda r: (r[0], r[1].encode(), r[2]))
                texts[out] = "".join(f"{d} {p}:{i} {x}\n" for d, p, i, x in rows)
            ctx.update(
                fmt=fmt,
                out=out,
                star=star,
                header=header,
                with_line=with_line,
                with_done=with_done,
                overdue=overdue,
                today=today,
            )
        elif variant in ("backlinks", "broken-links"):
            stems = {n.stem: n for n in notes}
            links: list[tuple[Note, int, str, str | None, str]] = []  # note, line, target, alias, raw
            for n in notes:
                body_start = n.front_lines()
                for i, line in enumerate(n.text().split("\n"), 1):
                    if i <= body_start:
                        continue
                    for m in LINK.finditer(line):
                        links.append((n, i, m.group(1).strip(), m.group(2), m.group(0)))
            if variant == "backlinks":
                fmt = rng.choice(["json", "append", "md"])
                out = {
                    "json": f"/app/{rng.choice(['backlinks', 'link-graph'])}.json",
                    "append": None,
                    "md": f"{vault}/{rng.choice(['BACKLINKS', 'Linked-From'])}.md",
                }[fmt]
                back: dict[str, set[str]] = {n.stem: set() for n in notes}
                for n, _, target, _, _ in links:
                    if target.lower() in back and target.lower() != n.stem:
                        back[target.lower()].add(n.stem)
                if not any(back.values()):
                    raise ValueError(f"{T}: no links between the drawn notes")
                values = rng.choice(["paths", "count"])
                skip_empty = rng.random() < 0.5
                bullet = rng.choice(["path", "wiki"])
                if fmt == "json":
                    assert out is not None
                    jsons[out] = {
                        stems[s].path: (
                            sorted((stems[x].path for x in src), key=str.encode)
                            if values == "paths"
                            else len(src)
                        )
                        for s, src in back.items()
                        if src or not skip_empty
                    }
                elif fmt == "md":
                    lines = ["# Backlinks", ""]
                    for n in sorted(notes, key=lambda n: n.path.encode()):
                        if back[n.stem]:
                            lines.append(f"## {n.path}")
                            lines += [
                                f"- {stems[x].path}" if bullet == "path" else f"- [[{x}]]"
                                for x in sorted(back[n.stem], key=lambda s: stems[s].path.encode())
                            ]
                            lines.append("")
                    assert out is not None
                    texts[out] = "\n".join(lines).rstrip("\n") + "\n"
                else:
                    heading = rng.choice(["## Backlinks", "## Linked from", "### Referenced by"])
                    ctx["heading"] = heading
                    for n in notes:
                        if back[n.stem]:
                            changed[n.path] = (
                                n.text()
                                + f"\n{heading}\n\n"
                                + "".join(f"- [[{x}]]\n" for x in sorted(back[n.stem], key=str.encode))
                            )
                ctx.update(fmt=fmt, out=out, values=values, skip_empty=skip_empty, bullet=bullet)
            else:
                fix = rng.random() < 0.5
                report = rng.choice(["lines", "by-target"])
                broken = [(n, i, t, a, raw) for n, i, t, a, raw in links if t.lower() not in stems]
                if not broken:
                    raise ValueError(f"{T}: no broken link in the drawn notes")
                broken.sort(key=lambda b: (b[0].path.encode(), b[1]))
                out = f"/app/{rng.choice(['broken-links', 'dangling', 'missing-notes'])}.txt"
                if report == "lines":
                    texts[out] = "".join(f"{n.path}:{i}: {t}\n" for n, i, t, _, _ in broken)
                else:
                    wanted: dict[str, list[str]] = {}
                    for n, _, t, _, _ in broken:
                        if n.path not in wanted.setdefault(t.lower(), []):
                            wanted[t.lower()].append(n.path)
                    texts[out] = "".join(
                        f"{t}: {', '.join(sorted(ps, key=str.encode))}\n"
                        for t, ps in sorted(wanted.items(), key=lambda kv: kv[0].encode())
                    )
                if fix:
                    for n in notes:
                        hits = [b for b in broken if b[0] is n]
                        if not hits:
                            continue
                        lines = n.text().split("\n")
                        for _, i, t, a, raw in hits:
                            lines[i - 1] = lines[i - 1].replace(raw, a if a is not None else t, 1)
                        changed[n.path] = "\n".join(lines)
                ctx.update(fix=fix, out=out, report=report)
        elif variant == "rename-tag":
            counts: dict[str, int] = {}
            for n in notes:
                for t in n.eff_tags:
                    counts[t] = counts.get(t, 0) + 1
            candidates = sorted(t for t, c in counts.items() if c >= 2) or sorted(counts)
            if not candidates:
                raise ValueError(f"{T}: the drawn notes have no tags")
            old = rng.choice(candidates)
            others = [t for t in counts if t != old]
            if difficulty >= 2 and others and rng.random() < 0.5:
                new = rng.choice(sorted(others))  # a merge: some notes may already have it
            else:
                new = rng.choice([t for t in vocab if t not in counts] or ["renamed"])
                if rng.random() < 0.4:
                    new = f"{new}-{rng.choice(['area', 'topic', 'team', '2024'])}"
            hashtags = difficulty == 3
            for n in notes:
                after = self._renamed(n, old, new, hashtags)
                if after != n.text():
                    changed[n.path] = after
            log = f"/app/{rng.choice(['renamed', 'retagged', 'changed-notes'])}.txt"
            texts[log] = "".join(f"{p}\n" for p in sorted(changed, key=str.encode))
            ctx.update(old=old, new=new, hashtags=hashtags, log=log)
        else:
            fmt = rng.choice(["csv", "json", "md"])
            out = f"/app/{rng.choice(['catalog', 'notes', 'inventory'])}.{fmt}"
            fields = ["path", *rng.sample(CATALOG_FIELDS, rng.randint(3, 5))]
            if "title" not in fields and rng.random() < 0.5:
                fields.insert(1, "title")
            sort_by = rng.choice(["date", "title", "open_tasks", "links"])
            records = [self._catalog_row(n) for n in notes]
            records.sort(key=lambda r: r["path"].encode())
            if sort_by == "date":
                records = sorted((r for r in records if r["date"]), key=lambda r: r["date"], reverse=True) + [
                    r for r in records if not r["date"]
                ]
            elif sort_by == "title":
                records.sort(key=lambda r: r["title"].lower())
            else:
                records.sort(key=lambda r: r[sort_by], reverse=True)
            table = [[self._cell(r[f]) for f in fields] for r in records]
            if fmt == "csv":
                csvs[out] = [fields, *table]
            elif fmt == "json":
                jsons[out] = [
                    {f: (r[f] if r[f] != "" or f != "date" else None) for f in fields} for r in records
                ]
            else:
                texts[out] = (
                    "\n".join(
                        ["| " + " | ".join(fields) + " |", "|" + "---|" * len(fields)]
                        + ["| " + " | ".join(row) + " |" for row in table]
                    )
                    + "\n"
                )
            ctx.update(fmt=fmt, out=out, fields=fields, order=sort_by)
        originals = {n.path: n.text() for n in notes}
        expected = {p: sha(changed.get(p, t)) for p, t in originals.items()}
        files: dict[str, str] = {
            f"environment/{vault.removeprefix('/app/')}/{p}": t for p, t in originals.items()
        }
        inside = [o for o in (ctx.get("out"),) if o and o.startswith(vault + "/")]
        files["tests/check.py"] = render(
            f"{T}/check.py.j2",
            vault=vault,
            notes=expected,
            texts=texts,
            jsons=jsons,
            csvs=csvs,
            extra=[o.removeprefix(vault + "/") for o in inside],
        )
        files["solution/solve.sh"] = render(f"{T}/solve.sh.j2", **ctx)
        titles = {
            "tag-index": [f"Build a tag index of the notes in {vault}", f"Index the notes in {vault} by tag"],
            "todo": [
                f"Collect the open tasks from the notes in {vault}",
                f"Gather every unchecked TODO in {vault}",
            ],
            "backlinks": [
                f"Compute the backlinks between the notes in {vault}",
                f"Map which notes link to which in {vault}",
            ],
            "broken-links": [
                f"Find the wikilinks in {vault} that point nowhere",
                f"Report dangling links in {vault}",
            ],
            "rename-tag": [f"Rename a tag across all notes in {vault}", f"Retag the notes in {vault}"],
            "catalog": [f"Write a catalog of the notes in {vault}", f"Summarise every note in {vault}"],
        }
        return Draft(
            title=rng.choice(titles[variant]),
            instruction=render(f"{T}/instruction.md.j2", **ctx).strip() + "\n",
            files=files,
            params={k: v for k, v in ctx.items() if v is not None} | {"notes": len(notes)},
            keywords=["notes", "markdown", "front-matter", variant],
            pool_items=used,
        )

    @staticmethod
    def _catalog_row(n: Note) -> dict[str, Any]:
        text = n.text()
        tasks = [m.group(2) for line in text.split("\n")[n.front_lines() :] if (m := TASK.match(line))]
        return {
            "path": n.path,
            "title": n.eff_title,
            "date": n.date if n.has_fm and n.date else "",
            "folder": n.folder,
            "tags": len(n.eff_tags),
            "tag_list": ";".join(sorted(n.eff_tags, key=str.encode)),
            "open_tasks": sum(1 for t in tasks if t == " "),
            "done_tasks": sum(1 for t in tasks if t != " "),
            "links": len(LINK.findall("\n".join(text.split("\n")[n.front_lines() :]))),
        }

    @staticmethod
    def _cell(value: Any) -> str:
        return str(value)

    # ---- how the notes are written ---------------------------------------------------------------

    def _vary(self, rng: random.Random, base: Note, difficulty: int) -> Note:
        note = Note(**{**base.__dict__, "quoted": set()})
        note.folder = next((f for key, f in FOLDER_RULES if key in (note.title or "")), "")
        if note.folder == "ideas" and rng.random() < 0.5:
            note.folder = "archive/ideas"
        note.style = rng.choice(["inline", "block"]) if note.tags else rng.choice(["empty", "none"])
        note.tight = note.style == "inline" and rng.random() < 0.3
        if difficulty >= 2:
            note.quote_title = rng.random() < 0.3
            note.indent = rng.choice(["  ", "  ", "    "])
            note.quoted = {i for i in range(len(note.tags)) if rng.random() < 0.2}
            if note.tags and rng.random() < 0.2:
                note.tags = [*note.tags, note.tags[0].title()]
        if difficulty >= 2 and rng.random() < 0.12:
            note.has_fm = False
        if difficulty == 3:
            if rng.random() < 0.1:
                note.title = ""
            note.fake_fm = rng.random() < 0.15
        return note

    @staticmethod
    def _starify(rng: random.Random, notes: list[Note]) -> None:
        """Some tasks written with `*` bullets, some nested under another item."""
        for n in notes:
            lines = n.body.split("\n")
            for i, line in enumerate(lines):
                if line.startswith("- [") and rng.random() < 0.3:
                    lines[i] = rng.choice(["* " + line[2:], "  " + line, "    * " + line[2:]])
            n.body = "\n".join(lines)

    @staticmethod
    def _renamed(n: Note, old: str, new: str, hashtags: bool) -> str:
        if not n.has_fm or n.style not in ("inline", "block"):
            text = n.text()
        else:
            norms = [t.strip().lower() for t in n.tags]
            if old not in norms:
                text = n.text()
            else:
                has_new = new in norms
                items: list[str | None] = []
                for t in n.tags:
                    if t.strip().lower() == old:
                        items.append(None if has_new else new)
                        has_new = True
                    else:
                        items.append(t)
                lines = n.text().split("\n")
                if n.style == "inline":
                    idx = next(i for i, line in enumerate(lines) if line.startswith("tags:"))
                    lines[idx] = (
                        "tags: [" + ", ".join(t.strip().strip("\"'") for t in items if t is not None) + "]"
                    )
                else:
                    idx = next(i for i, line in enumerate(lines) if line == "tags:")
                    block = []
                    for j, t in enumerate(n.tags):
                        if t.strip().lower() != old:
                            block.append(lines[idx + 1 + j])
                        elif items[j] is not None:
                            block.append(f"{n.indent}- {new}")
                    lines[idx + 1 : idx + 1 + len(n.tags)] = block
                text = "\n".join(lines)
        if hashtags:
            head, sep, body = text.partition("\n---\n") if n.has_fm else ("", "", text)
            body = re.sub(rf"(?<!\S)#{re.escape(old)}(?![\w-])", f"#{new}", body, flags=re.IGNORECASE)
            text = head + sep + body
        return text
