#!/bin/bash
if [ "$(cat /app/notes.txt 2>/dev/null)" = "$(printf 'first\nsecond')" ]; then echo 1; else echo 0; fi \
    > /logs/verifier/reward.txt
