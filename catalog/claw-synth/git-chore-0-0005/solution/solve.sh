#!/bin/bash
# Reference solution: untrack the file, ignore it, one commit.
set -euo pipefail
cd /app/src/shelfie
path=deploy/id_deploy
git rm -q --cached "$path"
printf '%s\n' deploy/id_deploy >> .gitignore
git add .gitignore
git commit -q -m 'Stop tracking deploy/id_deploy'
git status --short --ignored
git log --oneline -4
