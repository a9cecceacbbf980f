"""ZeroClaw: a small Rust agent binary, OpenAI-compatible through `default_provider = "custom:<url>"`.

No registry reachable here ships it (upstream publishes crates, release binaries and images), so its
bundle is a binary the user supplies through $FORGE_ZEROCLAW_BIN; without one, `forge-env harness list`
says so and building its bundle fails with that message.
"""

from __future__ import annotations

from harnesses.harness import Harness, Launch, LaunchContext, base_env
from harnesses.installers import UserBinary

CONFIG_TEMPLATE = """\
default_provider = "custom:{base_url}/v1"
default_model = "{model}"
api_key = "{api_key}"
default_temperature = 0.7

[autonomy]
level = "full"
workspace_only = false

[observability]
backend = "none"

[gateway]
require_pairing = false
"""


class ZeroClaw(Harness):
    name = "zeroclaw"
    version = "user-supplied"
    wire_api = "chat.completions"
    tools = ("shell", "file_read", "file_write", "memory_store", "memory_recall")
    description = "ZeroClaw agent, `zeroclaw agent -m` (binary from $FORGE_ZEROCLAW_BIN)"
    installer = UserBinary(
        env_var="FORGE_ZEROCLAW_BIN",
        binary="zeroclaw",
        how_to_get="build it with `cargo build --release` from its source, or take a release binary",
    )
    collect = (".zeroclaw",)

    def launch(self, ctx: LaunchContext) -> Launch:
        config = CONFIG_TEMPLATE.format(base_url=ctx.base_url, model=ctx.model, api_key=ctx.api_key)
        argv = [f"{ctx.bundle}/bin/zeroclaw", "agent", "-m", ctx.instruction]
        env = base_env(ctx, [f"{ctx.bundle}/bin"]) | {"ZEROCLAW_WORKSPACE": ctx.workdir}
        return Launch(argv=argv, env=env, files={f"{ctx.home}/.zeroclaw/config.toml": config})
