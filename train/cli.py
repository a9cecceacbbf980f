"""`forge-train`: rollouts, SFT, GRPO, pass@k / pass^k (issue #5; every command says it is not built)."""

from envs.not_built import planned_app

app = planned_app(
    "forge-train",
    "Rollouts, SFT, GRPO and pass@k / pass^k evaluation.",
    ["rollout", "eval", "sft-data", "sft", "rl"],
    5,
)
