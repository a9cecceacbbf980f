#!/bin/bash
# Reference solution: rule-driven redaction of each file, then the report.
set -euo pipefail
python3 - <<'PY'
import hashlib
import json
import os
import re

CFG, MODE, SHARED = '/app/etc', 'inplace', '/app/billing-redacted'
FILES = {'.env.production': 'env', 'values.yaml': 'yaml', 'billing.json': 'json'}  # file name -> env / json / yaml
CONTAINS, SUFFIXES, EXCEPTIONS = ['password', 'private', 'secret', 'token'], [], ['file', 'path', 'ref', 'ttl', 'url']
MASK, FIXED, URLS = 'hash', '***REDACTED***', True
REPORT, REPORT_FMT = '/app/redacted.json', 'json'
SECRETS_FILE = '/app/.secrets.env'
moved = []  # (reference name, secret), in order (externalize)
URL_CRED = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:)([^\s@/]+)@")


def sensitive(key):
    k = key.lower()
    hit = any(w in k for w in CONTAINS) or any(k.endswith(s) for s in SUFFIXES)
    return hit and not any(k.endswith(e) for e in EXCEPTIONS)


def ref(file, key):
    return re.sub(r"[^A-Z0-9]+", "_", (file + "." + key).upper()).strip("_")


def mask(secret, name=""):
    if MODE == "externalize":
        moved.append((name, secret))
        return "secretref:" + name
    if MASK == "fixed":
        return FIXED
    if MASK == "last4":
        return "****" + secret[-4:] if len(secret) >= 8 else "****"
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()[:12]


def in_urls(value):
    if not URLS:
        return value, 0
    return URL_CRED.subn(lambda m: m.group(1) + mask(m.group(2)) + "@", value)


def unquote(v):
    return v[1:-1] if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"" else v


def no_comment(v):
    m = re.search(r"\s#", v)
    return v[: m.start()] if m else v


def do_env(text, file):
    out, keys, count = [], [], 0
    for line in text.split("\n"):
        m = re.match(r"^(export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$", line)
        if m:
            head = line[: line.index("=") + 1]
            secret = unquote(no_comment(m.group(3)).strip())
            if sensitive(m.group(2)):
                if secret:
                    line = head + mask(secret, ref(file, m.group(2)))
                    keys.append(m.group(2))
                    count += 1
            else:
                new, n = in_urls(m.group(3))
                if n:
                    line = head + new
                    keys.append(m.group(2))
                    count += 1
        out.append(line)
    return "\n".join(out), list(dict.fromkeys(keys)), count


def do_json(text, file):
    found = []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                p = path + [k]
                if isinstance(v, (dict, list)):
                    walk(v, p)
                elif isinstance(v, str) and v and sensitive(k):
                    node[k] = mask(v, ref(file, ".".join(p)))
                    found.append(".".join(p))
                elif isinstance(v, str) and not sensitive(k):
                    new, n = in_urls(v)
                    if n:
                        node[k] = new
                        found.append(".".join(p))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + [str(i)])

    doc = json.loads(text)
    walk(doc, [])
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n", found, len(found)


def do_yaml(text, file):
    out, found, stack = [], [], []
    for line in text.split("\n"):
        m = re.match(r"^( *)([A-Za-z_][A-Za-z0-9_-]*):(.*)$", line)
        if not m:
            out.append(line)
            continue
        indent, key, rest = len(m.group(1)), m.group(2), m.group(3)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = ".".join([k for _, k in stack] + [key])
        raw = no_comment(rest).strip()
        if not raw:
            stack.append((indent, key))
        elif sensitive(key):
            value = unquote(raw)
            if value and not re.fullmatch(r"-?\d+(\.\d+)?|true|false|null|~", raw):
                line = '%s%s: "%s"' % (m.group(1), key, mask(value, ref(file, path)))
                found.append(path)
        else:
            new, n = in_urls(rest)
            if n:
                line = "%s%s:%s" % (m.group(1), key, new)
                found.append(path)
        out.append(line)
    return "\n".join(out), found, len(found)


listed, counts = {}, {}
for name, kind in FILES.items():
    with open(os.path.join(CFG, name), encoding="utf-8", newline="") as fh:
        text = fh.read()
    new, keys, count = {"env": do_env, "json": do_json, "yaml": do_yaml}[kind](text, name)
    listed[name], counts[name] = keys, count
    if MODE == "audit":
        continue  # a read-only scan
    dest = os.path.join(SHARED if MODE == "copy" else CFG, name)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w", encoding="utf-8", newline="") as fh:
        fh.write(new)
if MODE == "externalize":
    os.makedirs(os.path.dirname(SECRETS_FILE), exist_ok=True)
    with open(SECRETS_FILE, "w", encoding="utf-8") as fh:
        fh.writelines("%s=%s\n" % pair for pair in moved)
    raise SystemExit(0)
with open(REPORT, "w", encoding="utf-8") as fh:
    if REPORT_FMT == "lines":
        entries = sorted({"%s:%s" % (f, k) for f, ks in listed.items() for k in ks}, key=lambda e: e.encode())
        fh.writelines(e + "\n" for e in entries)
    elif REPORT_FMT == "json":
        json.dump(listed, fh, indent=2)
        fh.write("\n")
    else:
        fh.writelines("%s %d\n" % (f, counts[f]) for f in sorted(counts, key=lambda f: f.encode()))
PY
