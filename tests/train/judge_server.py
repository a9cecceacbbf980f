"""A judge model for tests: an OpenAI-compatible endpoint (our proxy's app on loopback) whose answers are
decided from what each of the judge's requests holds, so a test sees the judge's protocol (key points,
one screenshot at a time, then the verdict with the kept screenshots) and can make the verdict either."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from proxy.app import create_apps
from proxy.config import ProxyConfig
from proxy.conversation import Generation, GenerationRequest
from proxy.engines.oracle import PolicyEngine
from proxy.serving import BackgroundServer
from proxy.store import CallStore
from train.judge import JudgeConfig

KEY_POINTS = "1. Find the CloudHost invoice for January 2026.\n2. Report the amount due."
RED, GREEN, GREY = (220, 30, 30), (30, 200, 60), (128, 128, 128)


def png(color: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 40), color).save(out, format="PNG")
    return out.getvalue()


@dataclass
class JudgePolicy:
    """Key points; a screenshot scored by its corner's colour (red 5, green 4, grey 2, a real page 3); the
    verdict is `success` when the answer block holds `expect` and at least one screenshot came with it
    (always `failure` when `expect` is None)."""

    expect: str | None = "1,190.25 GBP"
    verdicts: list[GenerationRequest] = field(default_factory=list)

    def next_turn(self, request: GenerationRequest) -> Generation:
        system = request.messages[0].content
        user = request.messages[-1]
        if "key points" in system and "screenshot" not in system:
            return Generation(text=f"**Key Points**\n{KEY_POINTS}")
        if "one screenshot" in system:
            (image,) = user.images
            pixel = Image.open(io.BytesIO(image.data)).convert("RGB").getpixel((5, 5))
            score = {RED: 5, GREEN: 4, GREY: 2}.get(pixel, 3)  # type: ignore[arg-type]
            return Generation(text=f"The page shows the invoice list.\nScore: {score}")
        self.verdicts.append(request)
        answer = re.search(r"final answer:\n<untrusted>\n(.*?)\n</untrusted>", user.content, re.DOTALL)
        said = answer.group(1) if answer else ""
        ok = self.expect is not None and self.expect in said and bool(user.images)
        # as judges do, it quotes the agent before its own verdict: only its last Status line counts
        verdict = "success" if ok else "failure"
        return Generation(text=f"The agent answered: {said}\nThe evidence was weighed.\nStatus: {verdict}")


@contextmanager
def judge_endpoint(tmp_path: Path, policy: JudgePolicy) -> Iterator[tuple[JudgeConfig, CallStore]]:
    """The judge served on loopback; its config and the store that records every call made to it."""
    store = CallStore.for_run(tmp_path / "judge")
    apps = create_apps(PolicyEngine(policy), store, ProxyConfig(models=["judge-vlm"]))
    with BackgroundServer(apps.model) as server:
        yield JudgeConfig(base_url=f"{server.url}/v1", model="judge-vlm"), store
    store.close()
