#!/bin/bash
# As every Terminal-Bench 2 test.sh does: install the test runner at verify time.
apt-get update -qq
apt-get install -y -qq --no-install-recommends bc >/dev/null
if [ "$(echo "$(cat /app/answer.txt 2>/dev/null || echo 0) == 6 * 7" | bc)" = 1 ]; then echo 1; else echo 0; fi \
    > /logs/verifier/reward.txt
