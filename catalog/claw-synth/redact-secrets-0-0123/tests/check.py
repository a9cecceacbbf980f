#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/deploy/search/search.env': '# search service environment (staging)\n\nAPP_NAME=search\nAPP_ENV=production\nLOG_LEVEL=info\n# DEPLOY_PASSWORD=tk-d78d9e4d89d2fadde46e\n\n# database\nDATABASE_URL=postgres://ecantrell:Z%WU_8amT5QubFPv@db3.arnold.internal:5432/search\nDB_HOST=db3.arnold.internal\nDB_USER=ecantrell\nDB_PASSWORD=secretref:SEARCH_ENV_DB_PASSWORD\nDB_PASSWORD_FILE=secretref:SEARCH_ENV_DB_PASSWORD_FILE\nMONKEY=secretref:SEARCH_ENV_MONKEY\nDB_POOL_SIZE=20\n\nEMPTY_SECRET=\n# third parties\nSEARCH_KEY_ID=key-9157-lIlv\nSEARCH_PRIVATE_KEY=secretref:SEARCH_ENV_SEARCH_PRIVATE_KEY\nPAYMENT_WEBHOOK_URL=https://barry-mendoza.org/hooks/e8608847\nPAYMENT_WEBHOOK_SECRET=secretref:SEARCH_ENV_PAYMENT_WEBHOOK_SECRET\nSTORAGE_TOKEN=secretref:SEARCH_ENV_STORAGE_TOKEN\nANALYTICS_KEY_ID=key-0699-UORv\nANALYTICS_PRIVATE_KEY=secretref:SEARCH_ENV_ANALYTICS_PRIVATE_KEY\nBACKUP_PASSWD="72ae51b8-de7b-4170-b83c-ec31fe80fd25"\n\n# auth\nSESSION_SECRET=secretref:SEARCH_ENV_SESSION_SECRET\nJWT_ISSUER=https://auth.rodriguez.com\nJWT_SIGNING_KEY=secretref:SEARCH_ENV_JWT_SIGNING_KEY\nPUBLIC_KEY_PATH=/etc/search/jwt.pub\n# old: SESSION_SECRET=&^NS!w+rMXiSZ0di\nADMIN_EMAIL=jennifermccarthy@example.net\nFEATURE_FLAGS=article,sense,trip\n', '/app/.secrets.env': 'SEARCH_ENV_DB_PASSWORD=e0cc8fa8a915218267548a3105bb613d4ec38c68\nSEARCH_ENV_DB_PASSWORD_FILE=/run/secrets/search_db\nSEARCH_ENV_MONKEY=Republican\nSEARCH_ENV_SEARCH_PRIVATE_KEY=tok_62067d7d4fa11ee809b4e595b6730316ab36f7f4\nSEARCH_ENV_PAYMENT_WEBHOOK_SECRET=33eabe5ac9970378bdff7f1c631bf7fc3708e3d5\nSEARCH_ENV_STORAGE_TOKEN=key-a6285bfc51065a4aff624d8293cf99e9\nSEARCH_ENV_ANALYTICS_PRIVATE_KEY=53d6b55c09955457f13844a0dcffe4783bc10c09\nSEARCH_ENV_SESSION_SECRET=tok_ec1e0ae97e1beaf9749141be62c12e7\nSEARCH_ENV_JWT_SIGNING_KEY=key-ea08c2441ed8e6fe4c92f346a2a3f5e4\n'}
JSONS = {}
UNTOUCHED = {}
REPORT = None
REPORT_TEXT = None
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
