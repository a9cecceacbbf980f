"""Reading the reward the hidden tests leave in /logs/verifier (Harbor's convention).

`reward.txt` holds one float; `reward.json` a flat map of numbers whose `reward` key is the reward. When
both exist the JSON wins. Anything else is a distinct RewardError, so a broken test is never a silent 0.
"""

from __future__ import annotations

import json
import math

from pydantic import BaseModel, Field

from envs.errors import RewardFileEmpty, RewardFileInvalid, RewardFileMissing

VERIFIER_DIR = "/logs/verifier"
REWARD_TXT = f"{VERIFIER_DIR}/reward.txt"
REWARD_JSON = f"{VERIFIER_DIR}/reward.json"


class Reward(BaseModel):
    value: float
    details: dict[str, float] = Field(default_factory=dict)
    """Every number in reward.json (empty for reward.txt)."""
    source: str


def _number(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise RewardFileInvalid(f"{where} is not a number: {text[:80]!r}") from None
    if not math.isfinite(value):
        raise RewardFileInvalid(f"{where} is not a finite number: {text[:80]!r}")
    return value


def parse_reward(json_text: str | None, txt_text: str | None) -> Reward:
    """Parse the contents of reward.json / reward.txt (None = file absent)."""
    if json_text is not None:
        if not json_text.strip():
            raise RewardFileEmpty(f"{REWARD_JSON} is empty")
        try:
            data = json.loads(json_text)
        except json.JSONDecodeError as exc:
            raise RewardFileInvalid(f"{REWARD_JSON} is not valid JSON: {exc}") from None
        if not isinstance(data, dict) or not data:
            raise RewardFileInvalid(f"{REWARD_JSON} must be a non-empty flat map of numbers")
        details: dict[str, float] = {}
        for key, value in data.items():
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise RewardFileInvalid(f"{REWARD_JSON}: key {key!r} is not a finite number: {value!r}")
            details[key] = float(value)
        if "reward" in details:
            value = details["reward"]
        elif len(details) == 1:
            value = next(iter(details.values()))
        else:
            raise RewardFileInvalid(
                f"{REWARD_JSON} has several numbers and no 'reward' key: {sorted(details)}"
            )
        return Reward(value=value, details=details, source=REWARD_JSON)
    if txt_text is not None:
        if not txt_text.strip():
            raise RewardFileEmpty(f"{REWARD_TXT} is empty")
        return Reward(value=_number(txt_text.strip(), REWARD_TXT), source=REWARD_TXT)
    raise RewardFileMissing(f"the tests wrote neither {REWARD_JSON} nor {REWARD_TXT}")
