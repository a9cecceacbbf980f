#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/for-vendor/inventory.env': '# inventory service environment (dev)\n\nAPP_NAME=inventory\nAPP_ENV=development\nPORT=3593\nLOG_LEVEL=debug\n\n# database\nDATABASE_URL=postgres://uwiley:ad428b7ec323443ee65c33645beb6d06efb82f25@db7.thompson.internal:5432/inventory\nDB_HOST=db7.thompson.internal\nEMPTY_SECRET=\nDB_USER=uwiley\nDB_PASSWORD=[hidden]\nDB_PASSWORD_FILE=[hidden]\nDB_POOL_SIZE=40\n\n# third parties\nSEARCH_TOKEN=[hidden]\nMAPS_URL=https://walls.com/v1\nMAPS_AUTH=pioE47KEzGXC!21u\nPAYMENT_TOKEN=[hidden]\nAPI_KEY_ID=kid-3874\n# DEPLOY_PASSWORD=57acc488-ee2a-4106-8243-5e6e00800a4a\nexport SERVICE_TOKEN=[hidden]\nSMS_KEY_ID=key-3921-BJAA\nSMS_PRIVATE_KEY=2e2Bpwtf49YVfd  # rotated 2026-01-11\n\n# auth\nSESSION_SECRET=[hidden]\nJWT_ISSUER=https://auth.wyatt-anderson.com\nJWT_SIGNING_KEY=tok_49d64f1a3bb1d5958a2bd48dae9e05dd4d\nPUBLIC_KEY_PATH=/etc/inventory/jwt.pub\n# old: SESSION_SECRET=e6c77b5c44a67f8d42a5d42709e86d58c1fcb7bd\nREDIS_PASSWORD=[hidden]\nADMIN_EMAIL=tylerlong@example.net\nFEATURE_FLAGS=eye,themselves,feel\n'}
JSONS = {}
UNTOUCHED = {'/app/deploy/inventory/inventory.env': '8fbb9f0c4fe3d27f15b4d3580901a504dc37df3fe335bdf28ff8205607d88be9'}
REPORT = '/app/redaction-report.txt'
REPORT_TEXT = 'inventory.env 7\n'
REPORT_JSON = None


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
