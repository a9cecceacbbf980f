#!/bin/bash
# Reference solution: parse every note (front matter, body, links, tasks) and produce what is asked.
set -euo pipefail
python3 - <<'PY'
import csv
import json
import os
import re

VAULT = '/app/vault'
OUT = '/app/todo.tsv'
LINK = re.compile(r"\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]")
TASK = re.compile(r"^(\s*)[-*] \[( |x|X)\] (.*)$")


def unquote(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        s = s[1:-1]
    return s


class Note:
    def __init__(self, rel, text):
        self.rel, self.text = rel, text
        self.stem = os.path.basename(rel)[:-3]
        lines = text.split("\n")
        self.fm_end = 0  # number of front matter lines, both --- included
        if lines[0] == "---":
            for i in range(1, len(lines)):
                if lines[i] == "---":
                    self.fm_end = i + 1
                    break
        self.title, self.date, self.tags, self.tag_lines = None, None, [], None
        fm = lines[1 : self.fm_end - 1] if self.fm_end else []
        i = 0
        while i < len(fm):
            m = re.match(r"^([A-Za-z_][\w-]*):\s*(.*)$", fm[i])
            if m:
                key, val = m.group(1), m.group(2).strip()
                if key == "title":
                    self.title = unquote(val)
                elif key == "date":
                    self.date = val or None
                elif key == "tags":
                    start = i + 1
                    if val.startswith("["):
                        items = [t for t in val[1:-1].split(",")] if val[1:-1].strip() else []
                        self.tag_lines = ("inline", i + 1, None)
                    else:
                        items = []
                        while i + 1 < len(fm) and re.match(r"^\s+-", fm[i + 1]):
                            i += 1
                            items.append(re.sub(r"^\s+-\s*", "", fm[i]))
                        self.tag_lines = ("block", start + 1, i + 2)
                    self.raw_tags = items
                    for t in items:
                        t = unquote(t).strip().lower()
                        if t and t not in self.tags:
                            self.tags.append(t)
            i += 1
        if not self.title:
            self.title = self.stem
        self.body_lines = [(n + 1, line) for n, line in enumerate(lines) if n >= self.fm_end]

    def links(self):
        for n, line in self.body_lines:
            for m in LINK.finditer(line):
                yield n, m.group(1).strip(), m.group(2), m.group(0)

    def tasks(self):
        for n, line in self.body_lines:
            m = TASK.match(line)
            if m:
                yield n, m.group(2) != " ", m.group(3).strip(), line


notes = []
for dirpath, _, filenames in os.walk(VAULT):
    for f in filenames:
        full = os.path.join(dirpath, f)
        if not f.endswith(".md") or (OUT and os.path.abspath(full) == os.path.abspath(OUT)):
            continue
        with open(full, encoding="utf-8") as fh:
            notes.append(Note(os.path.relpath(full, VAULT), fh.read()))
notes.sort(key=lambda n: n.rel.encode())
by_stem = {n.stem.lower(): n for n in notes}


def write(path, text):
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


FMT, HEADER, WITH_LINE = 'tsv', 'title', False
WITH_DONE, OVERDUE, TODAY = True, False, '2024-03-08'
rows = [(n, line, text) for n in notes for line, done, text, _ in n.tasks() if not done]
if FMT == "md":
    out = ["# Open tasks"]
    for n in notes:
        mine = [r for r in rows if r[0] is n]
        if mine:
            out += ["", "## %s (%s)" % (n.title, n.rel) if HEADER == "title" else "## " + n.rel]
            out += ["- [ ] %s%s" % (text, " (line %d)" % line if WITH_LINE else "") for _, line, text in mine]
    write(OUT, "\n".join(out) + "\n")
elif FMT == "tsv" and WITH_DONE:
    every = [(n, line, "done" if done else "open", text) for n in notes for line, done, text, _ in n.tasks()]
    write(OUT, "path\tline\tstatus\ttask\n" + "".join("%s\t%d\t%s\t%s\n" % (n.rel, l, st, t) for n, l, st, t in every))
elif FMT == "tsv":
    write(OUT, "path\tline\ttask\n" + "".join("%s\t%d\t%s\n" % (n.rel, line, text) for n, line, text in rows))
else:
    due = re.compile(r"\s*@due\((\d{4}-\d{2}-\d{2})\)")
    found = []
    for n, line, text in rows:
        m = due.search(text)
        if m and (not OVERDUE or m.group(1) < TODAY):
            found.append((m.group(1), n.rel, line, (text[: m.start()] + text[m.end():]).strip()))
    found.sort(key=lambda r: (r[0], r[1].encode(), r[2]))
    write(OUT, "".join("%s %s:%d %s\n" % r for r in found))
PY
