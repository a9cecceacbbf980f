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
