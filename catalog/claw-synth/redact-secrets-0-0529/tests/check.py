#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/outbox/reports.env': '# reports service environment (staging)\n\nAPP_NAME=reports\nAPP_ENV=production\nPORT=5414\nAPI_KEY_ID=kid-4604\nLOG_LEVEL=debug\n\n# database\nDATABASE_URL=postgres://shelley23:tok_6ed63176cc95002fad64003d7c18@db6.sanchez-paul.internal:5432/reports\nDB_HOST=db6.sanchez-paul.internal\nDB_USER=shelley23\nDB_POOL_SIZE=20\n\n# third parties\nSTORAGE_CLIENT_ID=qmiller-879\nSTORAGE_CLIENT_SECRET=REDACTED\nMONKEY=REDACTED\nANALYTICS_KEY_ID=key-1050-zMCk\nANALYTICS_PRIVATE_KEY=REDACTED\nCHAT_WEBHOOK_URL=https://rich.com/hooks/fae537c1\n# DEPLOY_PASSWORD=7130690760f4031fa8c5560587c865ab9a775dd8\nCHAT_WEBHOOK_SECRET=REDACTED\nPAYMENT_URL=https://stevens.com/v2\nPAYMENT_AUTH=7da73936-26b0-41ad-9caa-ab5103555d23\n\n# auth\nJWT_ISSUER=https://auth.bailey.net\nJWT_SIGNING_KEY=REDACTED\nPUBLIC_KEY_PATH=/etc/reports/jwt.pub\n# old: SESSION_SECRET=28c6fd1b695eed808007a3729a18e191207ab739\nREDIS_URL=redis://:fAzZ21QIHf0xu6kpy6h@cache.internal:6379/0\nREDIS_PASSWORD=REDACTED\nADMIN_EMAIL=shelbyeaton@example.com\nCREDENTIALS_REF=vault://when/draw\nFEATURE_FLAGS=ten,minute,goal\n'}
JSONS = {}
UNTOUCHED = {'/app/deploy/reports/reports.env': 'b713c117dd11bce346f7c3710350913a351390fec0871ee0f2f88a4dc545267b'}
REPORT = '/app/redaction-report.txt'
REPORT_TEXT = 'reports.env:ANALYTICS_PRIVATE_KEY\nreports.env:CHAT_WEBHOOK_SECRET\nreports.env:JWT_SIGNING_KEY\nreports.env:MONKEY\nreports.env:REDIS_PASSWORD\nreports.env:STORAGE_CLIENT_SECRET\n'
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
