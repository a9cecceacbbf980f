#!/bin/bash
# Runs in the verifier's own image (built from tests/), which holds these tests; /app/result.txt is
# the artifact carried from the agent's sandbox.
if [ "$(cat /app/result.txt 2>/dev/null)" = "$EXPECTED" ]; then echo 1; else echo 0; fi \
    > /logs/verifier/reward.txt
