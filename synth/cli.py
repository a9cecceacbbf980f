"""`forge-synth`: propose tasks from web data and asset pools, prune, hand survivors to envs/ (planned)."""

from envs.not_built import planned_app

app = planned_app("forge-synth", "Propose and prune tasks.", ["propose", "prune"])
