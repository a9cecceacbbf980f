"""Reading the reward the hidden tests leave in /logs/verifier (Harbor's convention).

`reward.txt` holds one number. `reward.json` is a map: its numeric values (plain JSON numbers, finite;
booleans and strings are not numbers) are the details; its other fields (strings, booleans, null, lists,
objects) are ignored, kept out of the details rather than refused, as Harbor's consumers skip what they
cannot score. If reward.txt also exists and the JSON has no `reward` key, reward.txt's number is merged
in as `reward`; a JSON with a `reward` key ignores reward.txt. The reward (the scalar) is `reward` if
present, else the first numeric key in file order (Harbor's consumers' rule: `rewards["reward"]`, else
the first value); a `reward` key that is not a number is refused, never passed over for another number.
A map with no number at all (after merging) is refused.

Both files are read through the engine (never with the sandbox's own tools), at most
MAX_REWARD_FILE_BYTES, and held to plain ASCII numbers (`1_0`, other scripts' digits, `inf` and `nan`
are not numbers here; neither are NaN, Infinity or an overflowing literal anywhere in the JSON). The
scalar must be inside `[verifier] reward_range`; the other details need only be finite. Anything else is
a distinct RewardError naming the file and the value, so a broken test is never a silent 0 and never an
exception that ends a rollout set.
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
REWARD_KEY = "reward"
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class Reward(BaseModel):
    value: float
    details: dict[str, float] = Field(default_factory=dict)
    """Every number in reward.json, with reward.txt's merged in as `reward` (empty for reward.txt alone)."""
    source: str
    """The file the scalar came from."""


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
        raise RewardFileInvalid(f"{REWARD_JSON} is nested too deeply to be a map of numbers") from None
    except json.JSONDecodeError as exc:
        raise RewardFileInvalid(f"{REWARD_JSON} is not valid JSON: {exc}") from None


def _txt_number(txt_data: bytes | str, reward_range: tuple[float, float] | None) -> float:
    """reward.txt's one number; range-checked when it is the scalar (`reward_range` given)."""
    text = _text(txt_data, REWARD_TXT).strip()
    if not text:
        raise RewardFileEmpty(f"{REWARD_TXT} is empty")
    value = _number(text, REWARD_TXT)
    return value if reward_range is None else _in_range(value, text, REWARD_TXT, reward_range)


def _json_numbers(json_data: bytes | str) -> dict[str, float]:
    """The numeric fields of reward.json in file order; the rest is dropped (a non-number `reward` is
    refused: it is the one field whose meaning is known)."""
    text = _text(json_data, REWARD_JSON)
    if not text.strip():
        raise RewardFileEmpty(f"{REWARD_JSON} is empty")
    data = _parse_json(text)
    if not isinstance(data, dict):
        raise RewardFileInvalid(f"{REWARD_JSON} must be a map of numbers, not {type(data).__name__}")
    if REWARD_KEY in data and not isinstance(data[REWARD_KEY], float):
        raise RewardFileInvalid(
            f"{REWARD_JSON}: key {REWARD_KEY!r} is not a number: {_shown(repr(data[REWARD_KEY]))}"
        )
    # json floats only come from the number hook; bool, str, None, list and dict are not float
    return {key: value for key, value in data.items() if isinstance(value, float)}


def parse_reward(
    json_data: bytes | str | None,
    txt_data: bytes | str | None,
    reward_range: tuple[float, float] = DEFAULT_RANGE,
) -> Reward:
    """Parse the contents of reward.json / reward.txt (None = file absent) by the module's rule."""
    if json_data is None:
        if txt_data is None:
            raise RewardFileMissing(f"the tests wrote neither {REWARD_JSON} nor {REWARD_TXT}")
        return Reward(value=_txt_number(txt_data, reward_range), source=REWARD_TXT)
    details = _json_numbers(json_data)
    if txt_data is not None and REWARD_KEY not in details:
        value = _txt_number(txt_data, reward_range)
        return Reward(value=value, details={REWARD_KEY: value, **details}, source=REWARD_TXT)
    if not details:
        raise RewardFileInvalid(f"{REWARD_JSON} holds no number (and there is no {REWARD_TXT})")
    key = REWARD_KEY if REWARD_KEY in details else next(iter(details))
    value = _in_range(details[key], f"{details[key]:g}", f"{REWARD_JSON} key {key!r}", reward_range)
    return Reward(value=value, details=details, source=REWARD_JSON)
