#!/bin/bash
# Reference solution: parse every note (front matter, body, links, tasks) and produce what is asked.
set -euo pipefail
python3 - <<'PY'
import csv
import json
import os
import re

VAULT = '/app/Zettelkasten'
OUT = None
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


OLD, NEW, HASHTAGS, LOG = 'incidents', 'travel-area', False, '/app/changed-notes.txt'
changed = []
for n in notes:
    lines = n.text.split("\n")
    if n.tag_lines and OLD in [unquote(t).strip().lower() for t in n.raw_tags]:
        norm = [unquote(t).strip().lower() for t in n.raw_tags]
        has_new = NEW in norm
        kept = []
        for raw, t in zip(n.raw_tags, norm):
            if t == OLD:
                kept.append(None if has_new else NEW)
                has_new = True
            else:
                kept.append(raw)
        kind, first, last = n.tag_lines
        if kind == "inline":
            lines[first] = "tags: [" + ", ".join(unquote(t) for t in kept if t is not None) + "]"
        else:
            block = lines[first:last]
            new_block = []
            for line, t, k in zip(block, norm, kept):
                if t != OLD:
                    new_block.append(line)
                elif k is not None:
                    new_block.append(re.match(r"^\s*", line).group(0) + "- " + NEW)
            lines[first:last] = new_block
    if HASHTAGS:
        start = n.fm_end - (len(n.text.split("\n")) - len(lines)) if n.fm_end else 0
        pattern = re.compile(r"(?<!\S)#" + re.escape(OLD) + r"(?![\w-])", re.IGNORECASE)
        lines = lines[:start] + [pattern.sub("#" + NEW, line) for line in lines[start:]]
    text = "\n".join(lines)
    if text != n.text:
        write(os.path.join(VAULT, n.rel), text)
        changed.append(n.rel)
write(LOG, "".join(rel + "\n" for rel in sorted(changed, key=str.encode)))
PY
