#!/usr/bin/env python3
"""Verifier for redact-env-secrets."""
import json, sys

MASK = "***REDACTED***"

EXPECTED_ENV_LINES = [
    '# ---------------------------------------------------------------',
    '# billing-api environment (staging)',
    '# NOTE: rotate DB_PASSWORD every 90 days (last: 2024-03-01)',
    '# ---------------------------------------------------------------',
    '',
    'APP_NAME=billing-api',
    'APP_ENV=staging',
    'APP_DEBUG=false',
    'PORT=8443',
    'LOG_LEVEL=info',
    '',
    '# Database',
    'DATABASE_URL=postgres://billing@db.internal:5432/billing',
    'DB_USER=billing',
    'DB_PASSWORD=***REDACTED***',
    'DB_PASSWORD_FILE=***REDACTED***',
    'DB_POOL_SIZE=20',
    '',
    '# Third-party APIs',
    'export STRIPE_API_KEY=***REDACTED***',
    'export STRIPE_PUBLISHABLE_KEY=***REDACTED***',
    'STRIPE_WEBHOOK_SECRET=***REDACTED***',
    'SENDGRID_ApiKey=***REDACTED***',
    'MAPS_KEY_ID=maps-prod-01',
    'PUBLIC_KEY_PATH=/etc/billing/jwt.pub',
    'JWT_SIGNING_KEY=***REDACTED***',
    'jwt_issuer=https://auth.example.com',
    '',
    '# Auth',
    'OAUTH_CLIENT_ID=billing-staging',
    'OAUTH_CLIENT_SECRET=***REDACTED***',
    'Github_Token=***REDACTED***',
    'SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T000/B000/XXXX',
    '# old value, do not use: SLACK_TOKEN=xoxb-old-value',
    '',
    '# Empty values are placeholders filled in by the orchestrator',
    'REDIS_PASSWORD=',
    'SENTRY_AUTH_TOKEN=""',
    'CACHE_TTL=300',
    'SESSION_SECRET=***REDACTED***',
    'SECRET_SALT=***REDACTED***',
    'PASSWORDLESS_LOGIN=***REDACTED***',
    'FEATURE_FLAGS=new-invoices,dark-mode',
    'SESSION_SECRET=***REDACTED***',
]

EXPECTED_SETTINGS_JSON = r"""
{
  "service": "billing-api",
  "version": "4.12.0",
  "listen": {
    "host": "0.0.0.0",
    "port": 8443,
    "tls": {
      "cert": "/etc/billing/tls.crt",
      "keyFile": "/etc/billing/tls.key",
      "keyPassword": "***REDACTED***"
    }
  },
  "database": {
    "host": "db.internal",
    "port": 5432,
    "user": "billing",
    "password": "***REDACTED***",
    "replicas": [
      {
        "host": "db-replica-1.internal",
        "password": "***REDACTED***"
      },
      {
        "host": "db-replica-2.internal",
        "password": ""
      }
    ]
  },
  "secrets": {
    "provider": "vault",
    "path": "kv/billing/staging"
  },
  "integrations": [
    {
      "name": "stripe",
      "apiKey": "***REDACTED***",
      "webhookSecret": "***REDACTED***",
      "publishableKey": "***REDACTED***",
      "keyId": "stripe-2024"
    },
    {
      "name": "sendgrid",
      "API_KEY": "***REDACTED***",
      "from": "billing@example.com",
      "enabled": true
    },
    {
      "name": "slack",
      "token": null,
      "channel": "#billing-alerts"
    }
  ],
  "auth": {
    "issuer": "https://auth.example.com",
    "accessTokenTtl": 900,
    "refreshToken": {
      "ttl": 1209600,
      "signingKey": "***REDACTED***"
    },
    "passwordPolicy": {
      "minLength": 12,
      "requireSymbols": true
    }
  },
  "notes": "Ask ops for the password; the token is rotated monthly. Größe: üblich.",
  "tags": [
    "billing",
    "token",
    "secret"
  ]
}
"""

EXPECTED_KEYS = {
    '.env:DB_PASSWORD',
    '.env:DB_PASSWORD_FILE',
    '.env:STRIPE_API_KEY',
    '.env:STRIPE_PUBLISHABLE_KEY',
    '.env:STRIPE_WEBHOOK_SECRET',
    '.env:SENDGRID_ApiKey',
    '.env:JWT_SIGNING_KEY',
    '.env:OAUTH_CLIENT_SECRET',
    '.env:Github_Token',
    '.env:SESSION_SECRET',
    '.env:SECRET_SALT',
    '.env:PASSWORDLESS_LOGIN',
    'settings.json:listen.tls.keyPassword',
    'settings.json:database.password',
    'settings.json:database.replicas.0.password',
    'settings.json:integrations.0.apiKey',
    'settings.json:integrations.0.webhookSecret',
    'settings.json:integrations.0.publishableKey',
    'settings.json:integrations.1.API_KEY',
    'settings.json:auth.refreshToken.signingKey',
}

def ordered(text):
    # canonical form that keeps member order and distinguishes true/1 and 1/1.0
    return json.dumps(json.loads(text), ensure_ascii=False)

def main():
    ok = True
    # .env
    try:
        env = open("/app/config/.env", encoding="utf-8", newline="").read()
    except (OSError, UnicodeDecodeError) as e:
        print("FAIL: cannot read .env:", e)
        return 1
    got = env.rstrip("\n").split("\n")
    if got != EXPECTED_ENV_LINES:
        ok = False
        print("FAIL: /app/config/.env is not as expected")
        for i in range(max(len(got), len(EXPECTED_ENV_LINES))):
            g = got[i] if i < len(got) else None
            w = EXPECTED_ENV_LINES[i] if i < len(EXPECTED_ENV_LINES) else None
            if g != w:
                print("  line %d: expected %r, got %r" % (i + 1, w, g))
    # settings.json
    try:
        got_js = ordered(open("/app/config/settings.json", encoding="utf-8").read())
    except (OSError, ValueError) as e:
        ok = False
        print("FAIL: settings.json unreadable or invalid JSON:", e)
    else:
        want_js = ordered(EXPECTED_SETTINGS_JSON)
        if got_js != want_js:
            ok = False
            print("FAIL: settings.json content (or member order) is not as expected")
            print("  got:", json.dumps(json.loads(open("/app/config/settings.json").read())))
    # redacted_keys.txt
    try:
        lines = open("/app/redacted_keys.txt", encoding="utf-8").read().split("\n")
    except OSError as e:
        ok = False
        print("FAIL: cannot read /app/redacted_keys.txt:", e)
    else:
        lines = [l.strip() for l in lines if l.strip()]
        if len(lines) != len(set(lines)):
            ok = False
            print("FAIL: duplicate lines in redacted_keys.txt")
        if set(lines) != EXPECTED_KEYS:
            ok = False
            print("FAIL: redacted_keys.txt is wrong")
            print("  missing:", sorted(EXPECTED_KEYS - set(lines)))
            print("  unexpected:", sorted(set(lines) - EXPECTED_KEYS))
    print("PASS" if ok else "FAILED")
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
