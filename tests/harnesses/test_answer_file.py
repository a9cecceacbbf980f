"""A text harness's answer on a browser task is its final message, written to `<workdir>/answer.txt` as the
agent after it stopped: a link or a FIFO the agent left there is replaced (not followed, not waited on),
and a path the agent cannot write is an error that names it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from envs.errors import SandboxError
from envs.sandbox import SandboxSpec, create_sandbox
from harnesses.headless import write_answer

pytestmark = pytest.mark.docker


def test_the_answer_replaces_what_the_agent_left_in_its_place(base_image: str, forge_home: Path) -> None:
    spec = SandboxSpec(image=base_image, task="answer-file", run="pytest", role="test", workdir="/tmp")
    with create_sandbox(spec) as sb:
        assert sb.exec(["/bin/sh", "-c", "mkdir /app && chown nobody /app"], 30, user="root").ok
        assert sb.exec(["ln", "-s", "/app/elsewhere", "/app/answer.txt"], 30, user="nobody").ok
        write_answer(sb, "1,190.25 GBP", "/app", "nobody")
        assert sb.exec(["test", "-L", "/app/answer.txt"], 30).exit_code == 1, "the link was replaced"
        assert sb.exec(["test", "-e", "/app/elsewhere"], 30).exit_code == 1, "its target was not written"
        assert sb.exec(["cat", "/app/answer.txt"], 30).stdout == "1,190.25 GBP\n"

        assert sb.exec(["/bin/sh", "-c", "rm /app/answer.txt; mkfifo /app/answer.txt"], 30, user="nobody").ok
        started = time.monotonic()
        write_answer(sb, "42", "/app", "nobody")
        assert time.monotonic() - started < 30, "a FIFO is not waited on"
        assert sb.exec(["cat", "/app/answer.txt"], 30).stdout == "42\n"

        assert sb.exec(["/bin/sh", "-c", "rm /app/answer.txt; mkdir /app/answer.txt"], 30, user="root").ok
        with pytest.raises(SandboxError, match=r"/app/answer\.txt"):
            write_answer(sb, "42", "/app", "nobody")
        leftover = sb.exec(["/bin/sh", "-c", "ls /tmp | grep -c forge-answer"], 30, user="root")
        assert leftover.stdout.strip() == "0", "the staged copy is removed"
