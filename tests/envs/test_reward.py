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


def test_without_a_reward_key_the_first_number_in_file_order_is_the_reward() -> None:
    reward = parse_reward('{"b": 0.25, "a": 0.75}', None)
    assert reward.value == 0.25
    assert list(reward.details) == ["b", "a"]
    assert reward.source.endswith("reward.json")


def test_the_reward_key_wins_wherever_it_stands() -> None:
    reward = parse_reward('{"a": 0.1, "reward": 0.9, "b": 0.2}', None)
    assert reward.value == 0.9
    assert reward.details == {"a": 0.1, "reward": 0.9, "b": 0.2}


def test_non_numbers_are_left_out_of_the_details_not_refused() -> None:
    text = (
        '{"note": "hi", "ok": true, "none": null, "list": [1], "obj": {"x": 2}, "half": "0.5", "score": 0.5}'
    )
    reward = parse_reward(text, None)
    assert reward.value == 0.5, "true and '0.5' come first but are not numbers"
    assert reward.details == {"score": 0.5}


def test_other_numbers_are_not_range_checked() -> None:
    reward = parse_reward('{"reward": 1, "tests_passed": 42, "delta": -5}', None)
    assert reward.value == 1.0
    assert reward.details == {"reward": 1.0, "tests_passed": 42.0, "delta": -5.0}


def test_reward_txt_is_merged_as_reward_when_the_json_has_none() -> None:
    reward = parse_reward('{"tests_passed": 3}', "0.5\n")
    assert reward.value == 0.5
    assert reward.details == {"reward": 0.5, "tests_passed": 3.0}
    assert reward.source.endswith("reward.txt")
    only_text = parse_reward('{"note": "ran"}', "1")
    assert (only_text.value, only_text.details) == (1.0, {"reward": 1.0})
    assert parse_reward("{}", "0.25").details == {"reward": 0.25}


def test_a_json_reward_key_ignores_reward_txt() -> None:
    reward = parse_reward('{"reward": 0.5, "n": 2}', "PASSED")
    assert (reward.value, reward.details) == (0.5, {"reward": 0.5, "n": 2.0})


@pytest.mark.parametrize(
    ("json_text", "txt_text", "words"),
    [
        ('{"a": 0.5}', "nan", "reward.txt is not a number: 'nan'"),
        ('{"a": 0.5}', "2", "reward.txt: the reward 2 is outside [verifier] reward_range = [0, 1]"),
    ],
)
def test_a_merged_reward_txt_is_held_to_the_same_rules(json_text: str, txt_text: str, words: str) -> None:
    with pytest.raises(RewardFileInvalid, match=re.escape(words)):
        parse_reward(json_text, txt_text)
    with pytest.raises(RewardFileEmpty, match=re.escape("reward.txt is empty")):
        parse_reward(json_text, " \n")


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
        ("[1]", None, RewardFileInvalid),
        ('{"tests_passed": 3}', "", RewardFileEmpty),
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
        ('{"reward": 1, "other": NaN}', None, "holds NaN, which is not a finite number"),
        ('{"reward": 1, "other": 1e999}', None, "holds '1e999', which is not a finite number"),
        ('{"reward": 1, "meta": {"ignored": [Infinity]}}', None, "holds Infinity"),
        ('{"reward": true, "partial": 0.5}', None, "key 'reward' is not a number: 'True'"),
        ('{"reward": null}', "1", "key 'reward' is not a number: 'None'"),
        ('{"tests_passed": 3, "fraction": 0.5}', None, "key 'tests_passed': the reward 3 is outside"),
        ("{}", None, "holds no number"),
        ('{"note": "x", "ok": true, "list": [1]}', None, "holds no number"),
        ("[1]", None, "must be a map of numbers, not list"),
        ("0.5", None, "must be a map of numbers, not float"),
        ("null", None, "must be a map of numbers, not NoneType"),
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
