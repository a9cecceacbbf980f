#!/bin/bash
# Reference solution: parse every note (front matter, body, links, tasks) and produce what is asked.
set -euo pipefail
python3 - <<'PY'
import csv
import json
import os
import re

VAULT = '/app/wiki'
OUT = '/app/dangling.txt'
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


FIX, REPORT = False, 'lines'
broken = []
for n in notes:
    for line, target, alias, raw in n.links():
        if target.lower() not in by_stem:
            broken.append((n, line, target, alias, raw))
if REPORT == "lines":
    write(OUT, "".join("%s:%d: %s\n" % (n.rel, line, target) for n, line, target, _, _ in broken))
else:
    wanted = {}
    for n, _, target, _, _ in broken:
        wanted.setdefault(target.lower(), set()).add(n.rel)
    write(OUT, "".join("%s: %s\n" % (t, ", ".join(sorted(ps, key=str.encode)))
                       for t, ps in sorted(wanted.items(), key=lambda kv: kv[0].encode())))
if FIX:
    for n in notes:
        mine = [b for b in broken if b[0] is n]
        if not mine:
            continue
        lines = n.text.split("\n")
        for _, line, target, alias, raw in mine:
            lines[line - 1] = lines[line - 1].replace(raw, alias if alias is not None else target, 1)
        write(os.path.join(VAULT, n.rel), "\n".join(lines))
PY
