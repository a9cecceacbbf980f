import re

import pytest

from envs.errors import RewardFileEmpty, RewardFileInvalid, RewardFileMissing
from envs.reward import parse_reward


def test_txt() -> None:
    assert parse_reward(None, "1\n").value == 1.0
    assert parse_reward(None, " 0.25 ").value == 0.25


def test_json_wins_over_txt_and_keeps_details() -> None:
    reward = parse_reward('{"reward": 0.5, "tests_passed": 3}', "1")
    assert reward.value == 0.5
    assert reward.details == {"reward": 0.5, "tests_passed": 3.0}
    assert reward.source.endswith("reward.json")


def test_json_with_one_number_needs_no_reward_key() -> None:
    assert parse_reward('{"score": 1}', None).value == 1.0


@pytest.mark.parametrize(
    ("json_text", "txt_text", "error"),
    [
        (None, None, RewardFileMissing),
        (None, "", RewardFileEmpty),
        (None, "  \n", RewardFileEmpty),
        ("", None, RewardFileEmpty),
        (None, "PASSED", RewardFileInvalid),
        (None, "nan", RewardFileInvalid),
        ("{not json", None, RewardFileInvalid),
        ('{"reward": "1"}', None, RewardFileInvalid),
        ('{"reward": true}', None, RewardFileInvalid),
        ('{"reward": {"x": 1}}', None, RewardFileInvalid),
        ('{"a": 1, "b": 0}', None, RewardFileInvalid),
        ("[1]", None, RewardFileInvalid),
    ],
)
def test_bad_rewards_are_distinct_errors(json_text: str | None, txt_text: str | None, error: type) -> None:
    with pytest.raises(error):
        parse_reward(json_text, txt_text)


@pytest.mark.parametrize(
    ("json_text", "txt_text", "words"),
    [
        ('{"reward": ' + "9" * 400 + "}", None, "not a finite number"),
        ("[" * 30_000 + "]" * 30_000, None, "nested too deeply"),
        ('{"reward": ' + "[" * 5_000 + "]" * 5_000 + "}", None, "nested too deeply"),
        (None, "1e308", "outside [verifier] reward_range = [0, 1]"),
        (None, "-1", "the reward -1 is outside"),
        (None, "1_0", "not a number"),
        (None, "\u0661", "not a number"),
        (None, "inf", "not a number"),
        (None, "0x1", "not a number"),
        ('{"reward": NaN}', None, "not a finite number"),
        ('{"reward": -Infinity}', None, "not a finite number"),
        ('{"reward": 1, "pad": "' + "x" * 70_000 + '"}', None, "too large"),
        (None, "1" + " " * 70_000, "too large"),
        (b"\xff\xfe", None, "not text"),
    ],
)
def test_reward_files_are_plain_bounded_numbers(
    json_text: str | bytes | None, txt_text: str | None, words: str
) -> None:
    with pytest.raises(RewardFileInvalid, match=re.escape(words)):
        parse_reward(json_text, txt_text)


def test_the_reward_range_is_the_tasks() -> None:
    assert parse_reward(None, "10", reward_range=(0.0, 10.0)).value == 10.0
    assert parse_reward('{"reward": -1}', None, reward_range=(-1.0, 1.0)).value == -1.0
    with pytest.raises(RewardFileInvalid, match=re.escape("[verifier] reward_range = [-1, 1]")):
        parse_reward(None, "1.5", reward_range=(-1.0, 1.0))
