#!/bin/bash
# Reference solution: untrack the file, ignore it, one commit.
set -euo pipefail
cd /app/src/palette-kit
path=config/local.env
git rm -q --cached "$path"
printf '%s\n' '*.env' >> .gitignore
git add .gitignore
git commit -q -m 'Remove config/local.env from the repository'
git status --short --ignored
git log --oneline -4
