#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/for-vendor/.env.production': '# auth service environment (staging)\nAPI_KEY_ID=kid-5354\n\nAPP_NAME=auth\nAPP_ENV=development\nPORT=6012\n\n# database\nDB_HOST=db7.newton.internal\nDB_USER=mossdonna\nDB_PASSWORD=********\nDB_PASSWORD_FILE=********\nDB_POOL_SIZE=5\nEMPTY_SECRET=\n\n# third parties\nPAYMENT_CLIENT_ID=udaniels-437\nPAYMENT_CLIENT_SECRET=********\nSMTP_PASSWORD=\'\'\nANALYTICS_WEBHOOK_SECRET=********\nMAPS_WEBHOOK_SECRET=********\nBACKUP_PASSWD="9rA6sKdcPMbLkb"\nSMS_URL=https://hernandez-miranda.org/v2\nSMS_AUTH=+@7sbMKS%cTkNhhq\n\nCache_Token=********\n# auth\nSESSION_SECRET=********\nJWT_ISSUER=https://auth.coleman.com\nJWT_SIGNING_KEY=********\nPUBLIC_KEY_PATH=/etc/auth/jwt.pub\n# old: SESSION_SECRET=key-598f356107ee75b877e5f4a040b9daad\nREDIS_URL=redis://:469W8bDlh40Dg1QWeWf96@cache.internal:6379/0\nREDIS_PASSWORD=""\nFEATURE_FLAGS=these,up,over\nexport SERVICE_TOKEN=********\n', '/app/for-vendor/auth.yaml': '# inventory deployment values\nservice: inventory\nserver:\n  port: 9961\n  workers: 2\ndatabase:\n  host: db7.thompson.internal\n  user: uwiley\n  password: "********"\n  passwordFile: "********"\ncache:\n  redis:\n    host: cache.internal\n    authToken: "********"\n    tokenTtl: 3600\nmail:\n  from: vickiejordan@example.net\n  apiKey: "********"\n  # previous apiKey: 7x5aPfq73x3jGk31x\noauth:\n  clientId: pattersondavid\n  clientSecret: "********"\n  secretRef: \'\'\nmetrics:\n  enabled: true\n  pushToken: "********"\n  endpoint: https://schmidt-monroe.net/push\nbackup:\n  target: s3://public-backups\n  dbUrl: postgres://backup:tk-53239bace1a95f6a1c58@db.internal:5432/app\n  passphrase: \'1TfsSs6zXwulR9\'\n  keyTtl: 86400\n'}
JSONS = {}
UNTOUCHED = {'/app/auth/config/.env.production': 'efa266f901c9444f2ed6e1946132e49bdc41174c836757c71f784d7cb387380d', '/app/auth/config/auth.yaml': '6308e25c6b8974dfa269e5f5cb762f82c464095d55d8899ebc7032dcbf816612'}
REPORT = '/app/redactions.txt'
REPORT_TEXT = '.env.production 9\nauth.yaml 6\n'
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
