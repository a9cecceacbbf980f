#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/shared/search.yaml': '# search deployment values\nservice: search\nserver:\n  port: 6766\n  workers: 10\ndatabase:\n  host: db3.arnold.internal\n  user: ecantrell\n  password: "[hidden]"\n  passwordFile: "[hidden]"\ncache:\n  redis:\n    host: cache.internal\n    authToken: "[hidden]"\n    tokenTtl: 3600\nmail:\n  from: timothy26@example.com\n  apiKey: "[hidden]"\n  # previous apiKey: 5561c07b-592c-4514-aeee-5b98b7832da9\noauth:\n  clientId: jlambert\n  clientSecret: "[hidden]"\n  secretRef: \'\'\nmetrics:\n  enabled: true\n  pushToken: "[hidden]"\n  endpoint: https://johnson-gibson.com/push\nbackup:\n  target: s3://significant-backups\n  dbUrl: postgres://backup:[hidden]@db.internal:5432/app\n  passphrase: \'tk-ab458d00f0c9c23a73ba\'\n  keyTtl: 86400\n'}
JSONS = {'/app/shared/appsettings.json': {'service': 'search', 'version': '5.15.1', 'listen': {'host': '0.0.0.0', 'port': 4269}, 'database': {'host': 'db3.arnold.internal', 'port': 5432, 'user': 'ecantrell', 'password': '[hidden]', 'replicas': [{'host': 'replica-1.internal', 'password': ''}, {'host': 'replica-2.internal', 'password': ''}]}, 'integrations': [{'name': 'search', 'apiKey': '[hidden]', 'keyId': 'kid-5924', 'enabled': False}, {'name': 'payment', 'apiKey': '[hidden]', 'keyId': 'kid-9477', 'enabled': False}, {'name': 'storage', 'apiKey': '[hidden]', 'keyId': 'kid-8849', 'enabled': True, 'webhookSecret': '[hidden]'}], 'auth': {'issuer': 'https://auth.aguilar.com', 'accessTokenTtl': 900, 'refreshToken': {'ttl': 86400, 'signingKey': '[hidden]'}, 'passwordPolicy': {'minLength': 10, 'requireSymbols': False}}, 'owner': {'team': 'Aguirre-Kelly', 'contact': 'evanskevin@example.net'}, 'notes': 'Ask Sandra for the password; the token rotates monthly.', 'storage': {'bucket': 'up', 'credentials': {'accessKeyId': 'AK6338RZSC', 'secretAccessKey': '[hidden]'}, 'endpoint': 'https://duncan-manning.com'}, 'cache': {'url': 'redis://:[hidden]@cache.internal:6379/0', 'tokenTtl': 3600, 'password': ''}}}
UNTOUCHED = {'/app/deploy/search/search.yaml': '5e2316eca7a64d8b5a5cb87040cff9df9eb91257b89c6310fac5bfaffb1e3565', '/app/deploy/search/appsettings.json': 'e49e47f74cc9edd9b542be6c016aff2779ad3f41acea78276d28428498ae4ffd'}
REPORT = '/app/redactions.txt'
REPORT_TEXT = 'appsettings.json:auth.refreshToken.signingKey\nappsettings.json:cache.url\nappsettings.json:database.password\nappsettings.json:integrations.0.apiKey\nappsettings.json:integrations.1.apiKey\nappsettings.json:integrations.2.apiKey\nappsettings.json:integrations.2.webhookSecret\nappsettings.json:storage.credentials.secretAccessKey\nsearch.yaml:backup.dbUrl\nsearch.yaml:cache.redis.authToken\nsearch.yaml:database.password\nsearch.yaml:database.passwordFile\nsearch.yaml:mail.apiKey\nsearch.yaml:metrics.pushToken\nsearch.yaml:oauth.clientSecret\n'
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
