#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/config/deploy.yml': '# auth deployment values\nservice: auth\nserver:\n  port: 6058\n  workers: 15\ndatabase:\n  host: db7.newton.internal\n  user: mossdonna\n  password: "****76c2"\n  passwordFile: "****auth"\ncache:\n  redis:\n    host: cache.internal\n    authToken: "****Is4E"\n    tokenTtl: 3600\nmail:\n  from: jeremy63@example.com\n  apiKey: "****61bd"\n  # previous apiKey: 3zNMlzytKMaeajM4YQ\noauth:\n  clientId: blakecooper\n  clientSecret: "****e5b7"\n  secretRef: \'\'\nmetrics:\n  enabled: true\n  pushToken: "****44ef"\n  endpoint: https://floyd.com/push\nbackup:\n  target: s3://cut-backups\n  dbUrl: postgres://backup:****aa3d@db.internal:5432/app\n  passphrase: \'a3096bb6-de77-4b85-a1ea-b0fed156b35c\'\n  keyTtl: 86400\n', '/app/config/.env': '# reports service environment (staging)\n\nAPP_NAME=reports\nPORT=5414\n\n# database\nDATABASE_URL=postgres://shelley23:****7c18@db6.sanchez-paul.internal:5432/reports\nDB_USER=shelley23\nDB_PASSWORD=****m9Ve\nBACKUP_PASSWD="71ec39880dc0faa10e73b0a68e8b2cf5691d749f"\nDB_PASSWORD_FILE=****s_db\nDB_POOL_SIZE=20\n\n# third parties\nPRIVATE_KEY_PATH=/etc/third/key.pem\nSTORAGE_CLIENT_SECRET=****daba\nANALYTICS_KEY_ID=key-1050-zMCk\nexport SERVICE_TOKEN=****f907\nANALYTICS_PRIVATE_KEY=****e4e8\nCHAT_WEBHOOK_URL=https://rich.com/hooks/fae537c1\nCHAT_WEBHOOK_SECRET=****0fb8\nPAYMENT_URL=https://stevens.com/v2\nPAYMENT_AUTH=7da73936-26b0-41ad-9caa-ab5103555d23\nCREDENTIALS_REF=vault://can/order\nAUTH_PROVIDER_URL=https://wu.com/oauth\n\n# auth\nSESSION_SECRET=****62ae\nJWT_SIGNING_KEY=****42a1\n# old: SESSION_SECRET=28c6fd1b695eed808007a3729a18e191207ab739\nREDIS_URL=redis://:****py6h@cache.internal:6379/0\nADMIN_EMAIL=shelbyeaton@example.com\nFEATURE_FLAGS=ten,minute,goal\nAPI_KEY_ID=kid-5766\n'}
JSONS = {}
UNTOUCHED = {}
REPORT = '/app/redacted.txt'
REPORT_TEXT = '.env 10\ndeploy.yml 7\n'
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
