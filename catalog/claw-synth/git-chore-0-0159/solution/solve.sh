#!/bin/bash
# Reference solution: untrack the file, ignore it, one commit.
set -euo pipefail
cd /app/work/netpulse
path=secrets/api_key.txt
git rm -q --cached "$path"
printf '%s\n' secrets/ >> .gitignore
git add .gitignore
git commit -q -m 'Untrack secrets/api_key.txt and ignore it'
git status --short --ignored
git log --oneline -4
