#!/bin/bash
# The verifier's own sandbox runs the image's entrypoint too, so its service answers here as well.
python3 - <<'PY'
import urllib.request
served = urllib.request.urlopen("http://api.internal:8080/answer.txt", timeout=5).read()
try:
    answer = open("/app/answer.txt", "rb").read().strip()
except OSError:
    answer = b""
ok = len(served) == 24 and answer == served
open("/logs/verifier/reward.txt", "w").write("1" if ok else "0")
PY
