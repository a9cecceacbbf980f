#!/bin/bash
# Reference solution: parse front matter of every note and write /app/notes/INDEX.md
set -euo pipefail
python3 - <<'PY'
import os, re

ROOT = "/app/notes"

def unquote(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        s = s[1:-1]
    return s

def parse(text):
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r") != "---":
        return None, []
    end = None
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r") == "---":
            end = i
            break
    if end is None:
        return None, []
    fm = lines[1:end]
    title, tags = None, []
    i = 0
    while i < len(fm):
        m = re.match(r"^([A-Za-z_][\w-]*):\s*(.*)$", fm[i])
        if m:
            key, val = m.group(1), m.group(2).strip()
            if key == "title":
                title = unquote(val)
            elif key == "tags":
                if val.startswith("["):
                    items = val.strip()[1:-1].split(",")
                else:
                    items = []
                    while i + 1 < len(fm) and re.match(r"^\s+-", fm[i + 1]):
                        i += 1
                        items.append(re.sub(r"^\s+-\s*", "", fm[i]))
                for t in items:
                    t = unquote(t.strip()).strip().lower()
                    if t and t not in tags:
                        tags.append(t)
        i += 1
    return title, tags

index, untagged = {}, []
for dirpath, _, files in os.walk(ROOT):
    for f in files:
        if not f.endswith(".md"):
            continue
        full = os.path.join(dirpath, f)
        rel = os.path.relpath(full, ROOT).replace(os.sep, "/")
        if rel == "INDEX.md":
            continue
        with open(full, encoding="utf-8") as fh:
            title, tags = parse(fh.read())
        if not title:
            title = f[:-3]
        if not tags:
            untagged.append((title, rel))
        for t in tags:
            index.setdefault(t, []).append((title, rel))

key = lambda e: (e[0].lower(), e[1])
out = ["# Tag Index", ""]
for tag in sorted(index):
    out.append("## " + tag)
    out += ["- [%s](%s)" % e for e in sorted(index[tag], key=key)]
    out.append("")
out.append("## (untagged)")
out += ["- [%s](%s)" % e for e in sorted(untagged, key=key)]
with open(os.path.join(ROOT, "INDEX.md"), "w", encoding="utf-8") as fh:
    fh.write("\n".join(out) + "\n")
PY
