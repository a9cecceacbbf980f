#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {}
JSONS = {}
UNTOUCHED = {'/app/deploy/gateway/gateway.env': '654fd0f746e8a7d815c0b4aa14e771a2673828247a1636551a0346950a2122e7'}
REPORT = '/app/redacted.json'
REPORT_TEXT = None
REPORT_JSON = {'gateway.env': ['DB_PASSWORD', 'DB_PASSWORD_FILE', 'SMS_API_KEY', 'PAYMENT_API_KEY', 'ANALYTICS_TOKEN', 'STORAGE_API_KEY', 'SESSION_SECRET']}


def ordered(value):
    """A canonical form that keeps member order and tells true from 1 and 1 from 1.0."""
    return json.dumps(value, ensure_ascii=False)


def read(path, fails):
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        fails.append("cannot read %s: %s" % (path, exc))
        return None


def main():
    fails = []
    for path, want in sorted(TEXTS.items()):
        got = read(path, fails)
        if got is None:
            continue
        want_l, got_l = want.rstrip("\n").split("\n"), got.rstrip("\n").split("\n")
        if want_l != got_l:
            fails.append("%s is not as expected" % path)
            for i in range(max(len(want_l), len(got_l))):
                w = want_l[i] if i < len(want_l) else None
                g = got_l[i] if i < len(got_l) else None
                if w != g:
                    fails.append("  line %d: expected %r, got %r" % (i + 1, w, g))
    for path, want in sorted(JSONS.items()):
        got = read(path, fails)
        if got is None:
            continue
        try:
            value = json.loads(got)
        except ValueError as exc:
            fails.append("%s is not valid JSON: %s" % (path, exc))
            continue
        if ordered(value) != ordered(want):
            fails.append("%s is not as expected (values or member order):\n  expected %s\n  got      %s"
                         % (path, ordered(want), ordered(value)))
    for path, digest in sorted(UNTOUCHED.items()):
        if not os.path.isfile(path):
            fails.append("%s is gone; it must stay as it was" % path)
        else:
            with open(path, "rb") as fh:
                if hashlib.sha256(fh.read()).hexdigest() != digest:
                    fails.append("%s was modified; it must stay as it was" % path)
    got = read(REPORT, fails) if REPORT is not None else None
    if got is not None:
        if REPORT_JSON is not None:
            try:
                value = json.loads(got)
            except ValueError as exc:
                fails.append("%s is not valid JSON: %s" % (REPORT, exc))
            else:
                if value != REPORT_JSON:
                    fails.append("%s is wrong:\n  expected %s\n  got      %s"
                                 % (REPORT, json.dumps(REPORT_JSON), json.dumps(value)))
        else:
            want_l = [l.rstrip() for l in REPORT_TEXT.rstrip("\n").split("\n")]
            got_l = [l.rstrip() for l in got.replace("\r\n", "\n").rstrip("\n").split("\n")]
            if want_l != got_l:
                fails.append("%s is wrong:\n  expected %r\n  got      %r" % (REPORT, want_l, got_l))
    for f in fails:
        print("FAIL:", f)
    print("PASS" if not fails else "FAILED (%d problems)" % len(fails))
    return 0 if not fails else 1


if __name__ == "__main__":
    sys.exit(main())
