#!/bin/bash
# Reference solution: merge, resolve the two rule-governed files explicitly, commit.
set -uo pipefail
cd /app/repos/cronguard
git merge --no-edit feature/more-hosts || true   # expected to stop with conflicts
set -e
base=$(git merge-base HEAD feature/more-hosts)
python3 - "$base" <<'PY'
import configparser, io, subprocess, sys
base = sys.argv[1]
feature = 'feature/more-hosts'
winners = {'core.timeout': 'feature', 'cache.size_mb': 'feature'}


def show(rev, path):
    return subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True).stdout


# the list file: union of both sides, minus what either side deleted since the common ancestor
lists = {r: set(show(r, 'plugins.txt').split()) for r in (base, "HEAD", feature)}
entries = lists["HEAD"] | lists[feature]
entries -= (lists[base] - lists["HEAD"]) | (lists[base] - lists[feature])
open('plugins.txt', "w").write("".join(e + "\n" for e in sorted(entries)))

# the config: three-way per key, the stated side winning where both changed it
def load(rev):
    cp = configparser.ConfigParser(interpolation=None)
    cp.read_string(show(rev, "config/defaults.ini"))
    return cp
b, ours, theirs = load(base), load("HEAD"), load(feature)
out = []
for line in show(base, "config/defaults.ini").splitlines():
    s = line.strip()
    if s.startswith("["):
        section = s[1:-1]
    elif "=" in s and not s.startswith(("#", ";")):
        key = s.split("=", 1)[0].strip()
        vb, vo, vt = b[section][key], ours[section][key], theirs[section][key]
        if vo == vb:
            value = vt
        elif vt == vb:
            value = vo
        else:
            value = vo if winners[f"{section}.{key}"] == "main" else vt
        line = f"{key} = {value}"
    out.append(line)
open("config/defaults.ini", "w").write("\n".join(out) + "\n")
PY
git add plugins.txt config/defaults.ini
git -c core.editor=true commit -q -m 'Merge branch '"'"'feature/more-hosts'"'"' into main'
git status --short
git log --oneline --graph -6
