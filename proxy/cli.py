"""`forge-proxy`: the recording model proxy and its engines (issue #3; every command says it is not built)."""

from envs.not_built import planned_app

app = planned_app(
    "forge-proxy",
    "The recording model proxy and its engines.",
    ["serve", "engine", "init-model", "export"],
    3,
)
