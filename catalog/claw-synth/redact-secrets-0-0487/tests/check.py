#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/for-vendor/.env.production': '# auth service environment (staging)\n\nPRIVATE_KEY_PATH=/etc/product/key.pem\nAPP_NAME=auth\nAPP_ENV=development\nLOG_LEVEL=warn\n\n# database\nBACKUP_PASSWD="tk-a34c3aecdc31863af701"\nDB_HOST=db7.newton.internal\nCache_Token=sha256:8551ae251217\nDB_PASSWORD=sha256:261f5c05ea1e\nSIGNING_KEY_FILE=/run/secrets/brother.pem\nDB_PASSWORD_FILE=/run/secrets/auth_db\nDB_POOL_SIZE=5\n\n# third parties\nSMTP_PASSWORD=\'\'\nPAYMENT_CLIENT_ID=udaniels-437\nPAYMENT_CLIENT_SECRET=sha256:8875278e0437\nANALYTICS_WEBHOOK_URL=https://shaw-sharp.biz/hooks/ee343d40\nEMPTY_SECRET=\nANALYTICS_WEBHOOK_SECRET=sha256:58bc4d60ccaa\nMAPS_WEBHOOK_URL=https://taylor.com/hooks/40923773\nMAPS_WEBHOOK_SECRET=sha256:0764c9fa9954\nSMS_URL=https://hernandez-miranda.org/v2\nSMS_AUTH=+@7sbMKS%cTkNhhq\n\n# auth\n# DEPLOY_PASSWORD=cfdc7ddb12acdf1393777d06ca04723a54ebf33c\nSESSION_SECRET=sha256:dda4c2295f47\nJWT_ISSUER=https://auth.coleman.com\nJWT_SIGNING_KEY=sha256:f4f9e423a920\nPUBLIC_KEY_PATH=/etc/auth/jwt.pub\n# old: SESSION_SECRET=key-598f356107ee75b877e5f4a040b9daad\nAUTH_PROVIDER_URL=https://perez.com/oauth\nREDIS_URL=redis://:469W8bDlh40Dg1QWeWf96@cache.internal:6379/0\nREDIS_PASSWORD=""\nADMIN_EMAIL=lopezmelissa@example.net\nPAYMENT_CLIENT_SECRET=sha256:4ee1965726d5\n', '/app/for-vendor/gateway.yaml': '# auth deployment values\nservice: auth\nserver:\n  port: 6058\n  workers: 15\ndatabase:\n  host: db7.newton.internal\n  user: mossdonna\n  password: "sha256:6725924ec308"\n  passwordFile: "/run/secrets/auth"\ncache:\n  redis:\n    host: cache.internal\n    authToken: "sha256:618fdca52269"\n    tokenTtl: 3600\nmail:\n  from: jeremy63@example.com\n  apiKey: "sha256:e9ca956a449a"\n  # previous apiKey: 3zNMlzytKMaeajM4YQ\noauth:\n  clientId: blakecooper\n  clientSecret: "sha256:6b3582338390"\n  secretRef: \'\'\nmetrics:\n  enabled: true\n  pushToken: "sha256:d9203bc13cc8"\n  endpoint: https://townsend.com/push\nbackup:\n  target: s3://range-backups\n  dbUrl: postgres://backup:lq6MeiZIfbNnOf@db.internal:5432/app\n  passphrase: \'a250e05e-adb4-472f-acd4-e74c53decc8b\'\n  keyTtl: 86400\n'}
JSONS = {'/app/for-vendor/config.json': {'service': 'gateway', 'version': '2.9.3', 'listen': {'host': '0.0.0.0', 'port': 9126}, 'database': {'host': 'db2.vazquez.internal', 'port': 5432, 'user': 'myersjohn', 'password': 'sha256:5e8fc4e88a81', 'replicas': [{'host': 'replica-1.internal', 'password': 'sha256:43bf4c5663cd'}]}, 'integrations': [{'name': 'sms', 'apiKey': 'sha256:0c7049a17b79', 'keyId': 'kid-3469', 'enabled': True}, {'name': 'payment', 'apiKey': 'sha256:23973af626e0', 'keyId': 'kid-3965', 'enabled': False}, {'name': 'analytics', 'apiKey': 'sha256:e69c47aa9369', 'keyId': 'kid-4450', 'enabled': True, 'webhookSecret': 'sha256:f78c8d3f7e12'}], 'auth': {'issuer': 'https://auth.moore.org', 'accessTokenTtl': 900, 'refreshToken': {'ttl': 1209600, 'signingKey': 'sha256:5e3f1db5cc5b'}, 'passwordPolicy': {'minLength': 12, 'requireSymbols': True}}, 'notes': 'Ask Patricia for the password; the token rotates monthly.', 'storage': {'bucket': 'remain', 'credentials': {'accessKeyId': 'AK4316YYVN', 'secretAccessKey': 'sha256:0cb3c927c437'}, 'endpoint': 'https://miller.net'}, 'cache': {'url': 'redis://:d1004a1c0ad34967698fc62de55d5fa565ca7ac7@cache.internal:6379/0', 'tokenTtl': 3600, 'password': ''}, 'secrets': {'provider': 'vault', 'paths': ['kv/boy', 'kv/avoid']}}}
UNTOUCHED = {'/app/deploy/gateway/config.json': '7ef1fe22d0a671b2193e23150a2fbe4d69bbf68b0513c8b736f688c96b19c00b', '/app/deploy/gateway/.env.production': '52cfab8695decd1837ee66f84570446d3896bc82dde8b329fa714336750c2a01', '/app/deploy/gateway/gateway.yaml': '559dfa32aa99f512e8ffc835a51e3cec40baa5c3d632f77b72d18536890742b4'}
REPORT = '/app/redaction-report.json'
REPORT_TEXT = None
REPORT_JSON = {'config.json': ['database.password', 'database.replicas.0.password', 'integrations.0.apiKey', 'integrations.1.apiKey', 'integrations.2.apiKey', 'integrations.2.webhookSecret', 'auth.refreshToken.signingKey', 'storage.credentials.secretAccessKey'], '.env.production': ['Cache_Token', 'DB_PASSWORD', 'PAYMENT_CLIENT_SECRET', 'ANALYTICS_WEBHOOK_SECRET', 'MAPS_WEBHOOK_SECRET', 'SESSION_SECRET', 'JWT_SIGNING_KEY'], 'gateway.yaml': ['database.password', 'cache.redis.authToken', 'mail.apiKey', 'oauth.clientSecret', 'metrics.pushToken']}


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
