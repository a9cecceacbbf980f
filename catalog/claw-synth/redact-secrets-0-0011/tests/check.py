#!/usr/bin/env python3
"""Hidden verifier: the redacted files (text line by line, JSON by value and member order), the originals
where they must stay untouched, and the redaction report."""
import hashlib
import json
import os
import sys

TEXTS = {'/app/config/values.yaml': '# billing deployment values\nservice: billing\nserver:\n  port: 8543\n  workers: 5\ndatabase:\n  host: db9.anderson-mason.internal\n  user: laurenthomas\n  password: "secretref:VALUES_YAML_DATABASE_PASSWORD"\n  passwordFile: "/run/secrets/billing"\ncache:\n  redis:\n    host: cache.internal\n    authToken: "secretref:VALUES_YAML_CACHE_REDIS_AUTHTOKEN"\n    tokenTtl: 3600\nmail:\n  from: daniellepayne@example.org\n  apiKey: "secretref:VALUES_YAML_MAIL_APIKEY"\n  # previous apiKey: 4d229077-c5cb-4b7e-b23a-513ec28bcdf2\noauth:\n  clientId: shahdonna\n  clientSecret: "secretref:VALUES_YAML_OAUTH_CLIENTSECRET"\n  secretRef: \'\'\nmetrics:\n  enabled: true\n  pushToken: "secretref:VALUES_YAML_METRICS_PUSHTOKEN"\n  endpoint: https://walker.info/push\nbackup:\n  target: s3://however-backups\n  dbUrl: postgres://backup:T5GY9YmtkRXWPp@db.internal:5432/app\n  passphrase: \'0IeGJDhYwmSeNB\'\n  keyTtl: 86400\n', '/app/.secrets.env': 'SETTINGS_JSON_DATABASE_PASSWORD=f67f2443a5f351b713cb27c38a8ea679f0783902\nSETTINGS_JSON_DATABASE_REPLICAS_0_PASSWORD=e36xT1DjJ@Rxyuhj\nSETTINGS_JSON_DATABASE_REPLICAS_1_PASSWORD=a74ab927-c880-484f-9e42-f0dffb9d3d4f\nSETTINGS_JSON_INTEGRATIONS_0_APIKEY=9JplUMwyIXB698Q\nSETTINGS_JSON_INTEGRATIONS_0_WEBHOOKSECRET=+7c7UF7v)6$(v_tD\nSETTINGS_JSON_INTEGRATIONS_1_APIKEY=key-8deedffc3b625cbb0488b8f86011cfde\nSETTINGS_JSON_AUTH_REFRESHTOKEN_SIGNINGKEY=tok_8ab0366b8a8f8c70bf827e752e1dc89dd9351\nSETTINGS_JSON_STORAGE_CREDENTIALS_SECRETACCESSKEY=220fe704-8ee2-4c1d-868c-0b4b28e2d40c\nVALUES_YAML_DATABASE_PASSWORD=key-06a5674faf9c9e332ccdcfe4e60cf386\nVALUES_YAML_CACHE_REDIS_AUTHTOKEN=5b36ac84d787ddb418ec45049f4362b31a794a33\nVALUES_YAML_MAIL_APIKEY=a667a76f99a76329303ccb1fd7bfcabb05fbb635\nVALUES_YAML_OAUTH_CLIENTSECRET=b1e0be4d414ce1191d268de8844b6a8d27a0fd51\nVALUES_YAML_METRICS_PUSHTOKEN=f11362293c7de20f1b708af38413d61c722b4f33\n'}
JSONS = {'/app/config/settings.json': {'service': 'billing', 'version': '2.13.6', 'listen': {'host': '0.0.0.0', 'port': 3794}, 'database': {'host': 'db9.anderson-mason.internal', 'port': 5432, 'user': 'laurenthomas', 'password': 'secretref:SETTINGS_JSON_DATABASE_PASSWORD', 'replicas': [{'host': 'replica-1.internal', 'password': 'secretref:SETTINGS_JSON_DATABASE_REPLICAS_0_PASSWORD'}, {'host': 'replica-2.internal', 'password': 'secretref:SETTINGS_JSON_DATABASE_REPLICAS_1_PASSWORD'}]}, 'integrations': [{'name': 'mailer', 'apiKey': 'secretref:SETTINGS_JSON_INTEGRATIONS_0_APIKEY', 'keyId': 'kid-5769', 'enabled': True, 'webhookSecret': 'secretref:SETTINGS_JSON_INTEGRATIONS_0_WEBHOOKSECRET'}, {'name': 'maps', 'apiKey': 'secretref:SETTINGS_JSON_INTEGRATIONS_1_APIKEY', 'keyId': 'kid-6184', 'enabled': True, 'token': None}], 'auth': {'issuer': 'https://auth.wilson.net', 'accessTokenTtl': 3600, 'refreshToken': {'ttl': 86400, 'signingKey': 'secretref:SETTINGS_JSON_AUTH_REFRESHTOKEN_SIGNINGKEY'}, 'passwordPolicy': {'minLength': 12, 'requireSymbols': False}}, 'notes': 'Ask Carl for the password; the token rotates monthly.', 'storage': {'bucket': 'government', 'credentials': {'accessKeyId': 'AK5234NXXF', 'secretAccessKey': 'secretref:SETTINGS_JSON_STORAGE_CREDENTIALS_SECRETACCESSKEY'}, 'endpoint': 'https://cunningham-wright.com'}, 'cache': {'url': 'redis://:86fcf5a9-08be-4e32-8fb5-efcfe2cd9160@cache.internal:6379/0', 'tokenTtl': 3600, 'password': ''}}}
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
