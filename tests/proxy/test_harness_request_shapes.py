"""The exact first requests real harness CLIs sent (captured by the smoke test) parse into conversations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from proxy.records import WireApi
from proxy.wire import WIRE_ADAPTERS

FIXTURES = Path(__file__).parent / "fixtures" / "harness_requests"
CASES = {
    "codex": (WireApi.RESPONSES, "exec_command"),
    "claude": (WireApi.MESSAGES, "Bash"),
    "qwen": (WireApi.CHAT, "run_shell_command"),
}


@pytest.mark.parametrize("harness", sorted(CASES))
def test_captured_request_parses(harness: str) -> None:
    api, shell = CASES[harness]
    body = json.loads((FIXTURES / f"{harness}.json").read_text())["request"]["body"]
    request, _ = WIRE_ADAPTERS[api].parse(body, None)
    assert request.messages[0].role == "system"
    assert any(m.role == "user" for m in request.messages)
    assert shell in [t.name for t in request.tools]
