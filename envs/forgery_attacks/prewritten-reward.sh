# The reward written in advance where the tests will look, the folder made read-only so the tests
# cannot overwrite it.
r="${FORGE_FORGED_REWARD:?}"
mkdir -p /logs/verifier
echo "{\"reward\": $r}" > /logs/verifier/reward.json
echo "$r" > /logs/verifier/reward.txt
chmod 555 /logs/verifier
true
