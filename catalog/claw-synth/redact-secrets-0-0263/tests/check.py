#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/etc/values.yaml': '# payments deployment values\nservice: payments\nserver:\n  port: 9659\n  workers: 14\ndatabase:\n  host: db2.lopez.internal\n  user: rhonda16\n  password: "********"\n  passwordFile: "********"\ncache:\n  redis:\n    host: cache.internal\n    authToken: "********"\n    tokenTtl: 3600\nmail:\n  from: joshuahoover@example.net\n  apiKey: "********"\n  # previous apiKey: key-b5ca9a438a92bf30a1d68f8dfcf36bf5\noauth:\n  clientId: hudsonmark\n  clientSecret: "********"\n  secretRef: \'\'\nmetrics:\n  enabled: true\n  pushToken: "********"\n  endpoint: https://clark.net/push\nbackup:\n  target: s3://involve-backups\n  dbUrl: postgres://backup:********@db.internal:5432/app\n  passphrase: \'Pl4stXeOxvO2js\'\n  keyTtl: 86400\n'}
JSONS = {'/app/etc/settings.json': {'service': 'auth', 'version': '3.0.0', 'listen': {'host': '0.0.0.0', 'port': 9070}, 'database': {'host': 'db7.newton.internal', 'port': 5432, 'user': 'mossdonna', 'password': '********', 'replicas': [{'host': 'replica-1.internal', 'password': ''}]}, 'integrations': [{'name': 'payment', 'apiKey': '********', 'keyId': 'kid-2604', 'enabled': False}], 'auth': {'issuer': 'https://auth.wolf.com', 'accessTokenTtl': 3600, 'refreshToken': {'ttl': 1209600, 'signingKey': '********'}, 'passwordPolicy': {'minLength': 12, 'requireSymbols': False}}, 'owner': {'team': 'Jones-Reed', 'contact': 'kristin51@example.org'}, 'notes': 'Ask Luke for the password; the token rotates monthly.', 'storage': {'bucket': 'consumer', 'credentials': {'accessKeyId': 'AK7100PEEX', 'secretAccessKey': '********'}, 'endpoint': 'https://mercer.org'}, 'cache': {'url': 'redis://:********@cache.internal:6379/0', 'tokenTtl': 3600, 'password': ''}}}
UNTOUCHED = {}
REPORT = '/app/redactions.txt'
REPORT_TEXT = 'settings.json 5\nvalues.yaml 7\n'
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
