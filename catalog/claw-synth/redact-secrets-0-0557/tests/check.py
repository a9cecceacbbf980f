#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/etc/.env.production': '# billing service environment (production)\n\nAPP_NAME=billing\nAPP_ENV=development\nLOG_LEVEL=warn\n\n# database\nPRIVATE_KEY_PATH=/etc/when/key.pem\nexport SERVICE_TOKEN=sha256:ff260e9bdb13\nDATABASE_URL=postgres://laurenthomas:sha256:ac09c4fd7ec8@db9.anderson-mason.internal:5432/billing\nDB_HOST=db9.anderson-mason.internal\nDB_USER=laurenthomas\nDB_PASSWORD=sha256:1ce2ef56b7dd\nDB_PASSWORD_FILE=/run/secrets/billing_db\n\n# third parties\nMAILER_CLIENT_ID=vmoore-999\nMAILER_CLIENT_SECRET=sha256:c4075af3d9ce\nMAPS_CLIENT_ID=stephanieanthony-793\nMAPS_CLIENT_SECRET=sha256:8eef7750fedc\nSEARCH_URL=https://woodward.com/v2\nAPI_KEY_ID=kid-4218\nCHAT_WEBHOOK_SECRET=sha256:398f72ab5f9f\n\n# auth\nBACKUP_PASSWD="h6NiONAaxkUMnZ"\nSESSION_SECRET=sha256:6291fab0b2bb\nAUTH_PROVIDER_URL=https://farmer-jones.com/oauth\nJWT_ISSUER=https://auth.rios-griffin.com\nJWT_SIGNING_KEY=)%02t%vsxzkLf6V6\nSIGNING_KEY_FILE=/run/secrets/into.pem\n# old: SESSION_SECRET=77KVp0ox6KTvUoOtxXf\nREDIS_URL=redis://:sha256:40af4793c2c1@cache.internal:6379/0\nREDIS_PASSWORD=sha256:853c0a2dadcc\nEMPTY_SECRET=\nADMIN_EMAIL=larrywaters@example.org\nAUDIT_DB=postgres://audit:sha256:5ba2f0754026@audit.internal/audit\nFEATURE_FLAGS=another,fact,include\nMAILER_CLIENT_SECRET=sha256:39830a7244e0\n', '/app/etc/values.yaml': '# billing deployment values\nservice: billing\nserver:\n  port: 8543\n  workers: 5\ndatabase:\n  host: db9.anderson-mason.internal\n  user: laurenthomas\n  password: "sha256:e21c43c38f49"\n  passwordFile: "/run/secrets/billing"\ncache:\n  redis:\n    host: cache.internal\n    authToken: "sha256:5120d26ed01e"\n    tokenTtl: 3600\nmail:\n  from: daniellepayne@example.org\n  apiKey: a667a76f99a76329303ccb1fd7bfcabb05fbb635\n  # previous apiKey: 4d229077-c5cb-4b7e-b23a-513ec28bcdf2\noauth:\n  clientId: shahdonna\n  clientSecret: "sha256:3ab9ad80811e"\n  secretRef: \'\'\nmetrics:\n  enabled: true\n  pushToken: "sha256:728dcdb14ad6"\n  endpoint: https://bernard-stanton.net/push\nbackup:\n  target: s3://least-backups\n  dbUrl: postgres://backup:sha256:ca38eaae9ffd@db.internal:5432/app\n  passphrase: \'a724a343-5f5e-4422-9338-4d7db0955f0a\'\n  keyTtl: 86400\n'}
JSONS = {'/app/etc/billing.json': {'service': 'billing', 'version': '2.13.6', 'listen': {'host': '0.0.0.0', 'port': 3794}, 'database': {'host': 'db9.anderson-mason.internal', 'port': 5432, 'user': 'laurenthomas', 'password': 'sha256:7306593a9e9f', 'replicas': [{'host': 'replica-1.internal', 'password': 'sha256:9ed37cfa935c'}, {'host': 'replica-2.internal', 'password': 'sha256:c60a5f1101e7'}]}, 'integrations': [{'name': 'mailer', 'apiKey': '9JplUMwyIXB698Q', 'keyId': 'kid-5769', 'enabled': True, 'webhookSecret': 'sha256:7cd79c541839'}, {'name': 'maps', 'apiKey': 'key-8deedffc3b625cbb0488b8f86011cfde', 'keyId': 'kid-6184', 'enabled': True, 'token': None}], 'auth': {'issuer': 'https://auth.wilson.net', 'accessTokenTtl': 3600, 'refreshToken': {'ttl': 86400, 'signingKey': 'tok_8ab0366b8a8f8c70bf827e752e1dc89dd9351'}, 'passwordPolicy': {'minLength': 12, 'requireSymbols': False}}, 'owner': {'team': 'Fernandez, Wall and Powell', 'contact': 'danielleherrera@example.org'}, 'notes': 'Ask Carl for the password; the token rotates monthly.', 'storage': {'bucket': 'prepare', 'credentials': {'accessKeyId': 'AK1791WZVY', 'secretAccessKey': 'sha256:1210384e668c'}, 'endpoint': 'https://haynes-torres.com'}, 'cache': {'url': 'redis://:sha256:804a97b7b4de@cache.internal:6379/0', 'tokenTtl': 3600, 'password': ''}, 'secrets': {'provider': 'vault', 'paths': ['kv/wide', 'kv/specific']}}}
UNTOUCHED = {}
REPORT = '/app/redacted.json'
REPORT_TEXT = None
REPORT_JSON = {'.env.production': ['SERVICE_TOKEN', 'DATABASE_URL', 'DB_PASSWORD', 'MAILER_CLIENT_SECRET', 'MAPS_CLIENT_SECRET', 'CHAT_WEBHOOK_SECRET', 'SESSION_SECRET', 'REDIS_URL', 'REDIS_PASSWORD', 'AUDIT_DB'], 'values.yaml': ['database.password', 'cache.redis.authToken', 'oauth.clientSecret', 'metrics.pushToken', 'backup.dbUrl'], 'billing.json': ['database.password', 'database.replicas.0.password', 'database.replicas.1.password', 'integrations.0.webhookSecret', 'storage.credentials.secretAccessKey', 'cache.url']}


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
