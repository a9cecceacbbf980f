"""Reading the reward the hidden tests leave in /logs/verifier (Harbor's convention).

`reward.txt` holds one number; `reward.json` a flat map of numbers whose `reward` key is the reward.
When both exist the JSON wins. Both are read through the engine (never with the sandbox's own tools),
at most MAX_REWARD_FILE_BYTES, and held to plain ASCII numbers (`1_0`, other scripts' digits, `inf`
and `nan` are not numbers here) inside `[verifier] reward_range`. Anything else is a distinct
RewardError naming the file and the value, so a broken test is never a silent 0 and never an exception
that ends a rollout set.
"""

from __future__ import annotations

import json
import math
import re
from typing import NoReturn

from pydantic import BaseModel, Field

from envs.errors import RewardFileEmpty, RewardFileInvalid, RewardFileMissing, RewardFileTooLarge

VERIFIER_DIR = "/logs/verifier"
REWARD_TXT = f"{VERIFIER_DIR}/reward.txt"
REWARD_JSON = f"{VERIFIER_DIR}/reward.json"
MAX_REWARD_FILE_BYTES = 64 * 1024
"""A reward file bigger than this is refused as too large."""
DEFAULT_RANGE = (0.0, 1.0)
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class Reward(BaseModel):
    value: float
    details: dict[str, float] = Field(default_factory=dict)
    """Every number in reward.json (empty for reward.txt)."""
    source: str


def _shown(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:80] + "...")


def _number(text: str, where: str) -> float:
    """A plain ASCII decimal number that is finite."""
    if not _NUMBER.fullmatch(text):
        raise RewardFileInvalid(f"{where} is not a number: {_shown(text)}")
    value = float(text)
    if not math.isfinite(value):
        raise RewardFileInvalid(f"{where} is not a finite number: {_shown(text)}")
    return value


def _in_range(value: float, text: str, where: str, reward_range: tuple[float, float]) -> float:
    low, high = reward_range
    if not low <= value <= high:
        raise RewardFileInvalid(
            f"{where}: the reward {text} is outside [verifier] reward_range = [{low:g}, {high:g}]"
        )
    return value


def _text(data: bytes | str, where: str) -> str:
    if len(data) > MAX_REWARD_FILE_BYTES:
        raise RewardFileTooLarge(
            f"{where} is too large: {len(data)} bytes (a reward file holds at most {MAX_REWARD_FILE_BYTES})"
        )
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RewardFileInvalid(f"{where} is not text: {data[:40]!r}") from None


def _not_finite(name: str) -> NoReturn:
    raise RewardFileInvalid(f"{REWARD_JSON} holds {name}, which is not a finite number")


def _parse_json(text: str) -> object:
    def number(literal: str) -> float:
        value = float(literal)
        if not math.isfinite(value):
            raise RewardFileInvalid(f"{REWARD_JSON} holds {_shown(literal)}, which is not a finite number")
        return value

    try:
        return json.loads(text, parse_int=number, parse_float=number, parse_constant=_not_finite)
    except RecursionError:
        raise RewardFileInvalid(f"{REWARD_JSON} is nested too deeply to be a flat map of numbers") from None
    except json.JSONDecodeError as exc:
        raise RewardFileInvalid(f"{REWARD_JSON} is not valid JSON: {exc}") from None


def parse_reward(
    json_data: bytes | str | None,
    txt_data: bytes | str | None,
    reward_range: tuple[float, float] = DEFAULT_RANGE,
) -> Reward:
    """Parse the contents of reward.json / reward.txt (None = file absent)."""
    if json_data is not None:
        text = _text(json_data, REWARD_JSON)
        if not text.strip():
            raise RewardFileEmpty(f"{REWARD_JSON} is empty")
        data = _parse_json(text)
        if not isinstance(data, dict) or not data:
            raise RewardFileInvalid(f"{REWARD_JSON} must be a non-empty flat map of numbers")
        details: dict[str, float] = {}
        for key, value in data.items():
            if isinstance(value, bool) or not isinstance(value, float):
                raise RewardFileInvalid(f"{REWARD_JSON}: key {key!r} is not a number: {_shown(repr(value))}")
            details[key] = value
        if "reward" in details:
            key = "reward"
        elif len(details) == 1:
            key = next(iter(details))
        else:
            raise RewardFileInvalid(
                f"{REWARD_JSON} has several numbers and no 'reward' key: {sorted(details)[:20]}"
            )
        value = _in_range(details[key], f"{details[key]:g}", f"{REWARD_JSON} key {key!r}", reward_range)
        return Reward(value=value, details=details, source=REWARD_JSON)
    if txt_data is not None:
        text = _text(txt_data, REWARD_TXT).strip()
        if not text:
            raise RewardFileEmpty(f"{REWARD_TXT} is empty")
        value = _in_range(_number(text, REWARD_TXT), text, REWARD_TXT, reward_range)
        return Reward(value=value, source=REWARD_TXT)
    raise RewardFileMissing(f"the tests wrote neither {REWARD_JSON} nor {REWARD_TXT}")
