# The tests' interpreter replaced: a fake python3 and python first on PATH, and /usr/bin/python3 itself
# overwritten. Each writes the reward and exits 0.
r="${FORGE_FORGED_REWARD:?}"
fake="#!/bin/sh
mkdir -p /logs/verifier; echo '{\"reward\": $r}' > /logs/verifier/reward.json; echo $r > /logs/verifier/reward.txt
echo $r; exit 0"
for name in python3 python; do
    printf '%s\n' "$fake" > "/usr/local/bin/$name" && chmod 755 "/usr/local/bin/$name"
done
real=$(readlink -f /usr/bin/python3)
if [ -n "$real" ]; then
    rm -f "$real" && printf '%s\n' "$fake" > "$real" && chmod 755 "$real"
fi
true
