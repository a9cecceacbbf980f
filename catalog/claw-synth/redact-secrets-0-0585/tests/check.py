#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/outbox/app.env': '# auth service environment (staging)\n\nAPP_NAME=auth\nAPP_ENV=development\nLOG_LEVEL=warn\n\nexport SERVICE_TOKEN=********\n# database\nDATABASE_URL=postgres://mossdonna:4803f28d6b9e7cad068a11e3685b3094d1f20289@db7.newton.internal:5432/auth\nDB_HOST=db7.newton.internal\nMONKEY=********\nDB_USER=mossdonna\nDB_PASSWORD=********\nDB_PASSWORD_FILE=********\n\n# third parties\nAUDIT_DB=postgres://audit:cfb33a59ecc304887f94e45a8bfd5d56aaebba8e@audit.internal/audit\nPAYMENT_CLIENT_ID=udaniels-437\nPAYMENT_CLIENT_SECRET=********\nANALYTICS_WEBHOOK_URL=https://shaw-sharp.biz/hooks/ee343d40\nANALYTICS_WEBHOOK_SECRET=********\nMAPS_WEBHOOK_URL=https://taylor.com/hooks/40923773\nMAPS_WEBHOOK_SECRET=********\nSMS_URL=https://hernandez-miranda.org/v2\nSMS_AUTH=+@7sbMKS%cTkNhhq\n\n# auth\nJWT_ISSUER=https://auth.coleman.com\nJWT_SIGNING_KEY=********\nPUBLIC_KEY_PATH=/etc/auth/jwt.pub\nPRIVATE_KEY_PATH=/etc/floor/key.pem\n# old: SESSION_SECRET=key-598f356107ee75b877e5f4a040b9daad\nREDIS_URL=redis://:469W8bDlh40Dg1QWeWf96@cache.internal:6379/0\nREDIS_PASSWORD=""\nADMIN_EMAIL=lopezmelissa@example.net\nFEATURE_FLAGS=these,up,over\n'}
JSONS = {}
UNTOUCHED = {'/app/deploy/auth/app.env': '957ec824126d0c2f64d31f143be7627a5585e1302198fc68a9d9393e0e35e2d3'}
REPORT = '/app/redactions.txt'
REPORT_TEXT = 'app.env:ANALYTICS_WEBHOOK_SECRET\napp.env:DB_PASSWORD\napp.env:DB_PASSWORD_FILE\napp.env:JWT_SIGNING_KEY\napp.env:MAPS_WEBHOOK_SECRET\napp.env:MONKEY\napp.env:PAYMENT_CLIENT_SECRET\napp.env:SERVICE_TOKEN\n'
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
