# The proxy's control plane, asked through the sandbox's only way out: post a reward, pause the shared
# proxy, relabel the policy version, lift max_tokens, and call another rollout's model route.
r="${FORGE_FORGED_REWARD:?}"
id="${FORGE_FORGERY_ROLLOUT:?}"
post() {
    curl -s -m 5 --path-as-is -o /dev/null -X "$1" -H 'content-type: application/json' --data "$3" \
        "$FORGE_MODEL_URL$2" || true
}
post POST "/rollouts/$id/reward" "{\"reward\": $r}"
post POST "/rollouts/$id/v1/../reward" "{\"reward\": $r}"
post POST "/rollouts/$id/v1/%2e%2e/reward" "{\"reward\": $r}"
post POST "/admin/pause" "{}"
post POST "/admin/resume" '{"policy_version": -100000000000000000000000}'
post PUT "/rollouts/$id/config" '{"max_tokens": 100000000, "temperature": 0}'
post GET "/rollouts/$id" ""
post POST "/rollouts/other--forgery-0/v1/chat/completions" '{"model": "m", "messages": []}'
true
