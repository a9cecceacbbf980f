#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/etc/auth.yaml': '# auth deployment values\nservice: auth\nserver:\n  port: 6058\n  workers: 15\ndatabase:\n  host: db7.newton.internal\n  user: mossdonna\n  password: "***REDACTED***"\n  passwordFile: "***REDACTED***"\ncache:\n  redis:\n    host: cache.internal\n    authToken: "***REDACTED***"\n    tokenTtl: 3600\nmail:\n  from: jeremy63@example.com\n  apiKey: "***REDACTED***"\n  # previous apiKey: 3zNMlzytKMaeajM4YQ\noauth:\n  clientId: blakecooper\n  clientSecret: "***REDACTED***"\n  secretRef: \'\'\nmetrics:\n  enabled: true\n  pushToken: "***REDACTED***"\n  endpoint: https://cummings.com/push\nbackup:\n  target: s3://return-backups\n  dbUrl: postgres://backup:***REDACTED***@db.internal:5432/app\n  passphrase: \'25433f82a87fc4b976b9af8f737d941f19c29625\'\n  keyTtl: 86400\n', '/app/etc/.env': "# gateway service environment (production)\n\nAPP_NAME=gateway\nAPI_KEY_ID=kid-1714\nSIGNING_KEY_FILE=/run/secrets/sure.pem\nAPP_ENV=development\nPORT=6045\nAUTH_PROVIDER_URL=https://aguilar.com/oauth\nLOG_LEVEL=warn\nAUDIT_DB=postgres://audit:***REDACTED***@audit.internal/audit\n\n# database\nDB_HOST=db2.vazquez.internal\nDB_USER=myersjohn\nEMPTY_SECRET=\nDB_PASSWORD_FILE=***REDACTED***\n\n# third parties\nexport PAYMENT_API_KEY=***REDACTED***\n# DEPLOY_PASSWORD=pFfK8Jjt9ZM0P5\nANALYTICS_TOKEN=***REDACTED***\nexport STORAGE_API_KEY=***REDACTED***\n\n# auth\nJWT_ISSUER=https://auth.schwartz.com\nPRIVATE_KEY_PATH=/etc/just/key.pem\nJWT_SIGNING_KEY=***REDACTED***\nPUBLIC_KEY_PATH=/etc/gateway/jwt.pub\nSMTP_PASSWORD=''\n# old: SESSION_SECRET=b0baaa72-13d1-4992-9817-097bc58f5c5e\nREDIS_URL=redis://:***REDACTED***@cache.internal:6379/0\nREDIS_PASSWORD=\nADMIN_EMAIL=chavezrandy@example.net\nFEATURE_FLAGS=lose,candidate,school\nEMPTY_SECRET=***REDACTED***\n"}
JSONS = {'/app/etc/auth.json': {'service': 'auth', 'version': '3.0.0', 'listen': {'host': '0.0.0.0', 'port': 9070}, 'database': {'host': 'db7.newton.internal', 'port': 5432, 'user': 'mossdonna', 'password': '***REDACTED***', 'replicas': [{'host': 'replica-1.internal', 'password': ''}]}, 'integrations': [{'name': 'payment', 'apiKey': '***REDACTED***', 'keyId': 'kid-2604', 'enabled': False}, {'name': 'analytics', 'apiKey': '***REDACTED***', 'keyId': 'kid-9097', 'enabled': False, 'webhookSecret': '***REDACTED***'}, {'name': 'maps', 'apiKey': '***REDACTED***', 'keyId': 'kid-9825', 'enabled': True}], 'auth': {'issuer': 'https://auth.wolf.com', 'accessTokenTtl': 3600, 'refreshToken': {'ttl': 1209600, 'signingKey': '***REDACTED***'}, 'passwordPolicy': {'minLength': 12, 'requireSymbols': False}}, 'notes': 'Ask Luke for the password; the token rotates monthly.', 'storage': {'bucket': 'year', 'credentials': {'accessKeyId': 'AK1026LPKY', 'secretAccessKey': '***REDACTED***'}, 'endpoint': 'https://tyler.com'}, 'cache': {'url': 'redis://:***REDACTED***@cache.internal:6379/0', 'tokenTtl': 3600, 'password': ''}, 'secrets': {'provider': 'vault', 'paths': ['kv/these', 'kv/option']}}}
UNTOUCHED = {}
REPORT = '/app/redactions.txt'
REPORT_TEXT = '.env:ANALYTICS_TOKEN\n.env:AUDIT_DB\n.env:DB_PASSWORD_FILE\n.env:EMPTY_SECRET\n.env:JWT_SIGNING_KEY\n.env:PAYMENT_API_KEY\n.env:REDIS_URL\n.env:STORAGE_API_KEY\nauth.json:auth.refreshToken.signingKey\nauth.json:cache.url\nauth.json:database.password\nauth.json:integrations.0.apiKey\nauth.json:integrations.1.apiKey\nauth.json:integrations.1.webhookSecret\nauth.json:integrations.2.apiKey\nauth.json:storage.credentials.secretAccessKey\nauth.yaml:backup.dbUrl\nauth.yaml:cache.redis.authToken\nauth.yaml:database.password\nauth.yaml:database.passwordFile\nauth.yaml:mail.apiKey\nauth.yaml:metrics.pushToken\nauth.yaml:oauth.clientSecret\n'
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
