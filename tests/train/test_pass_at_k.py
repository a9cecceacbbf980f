"""pass@k and pass^k against hand-computed values; the bootstrap interval contains the mean."""

from __future__ import annotations

import pytest

from train.pass_at_k import PASS_REWARD, bootstrap, pass_at_k, pass_hat_k, passed


def test_pass_at_k_by_hand() -> None:
    assert pass_at_k(5, 0, 1) == 0.0
    assert pass_at_k(5, 5, 3) == 1.0
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25)
    assert pass_at_k(4, 1, 2) == pytest.approx(1 - 3 / 6)  # C(3,2)/C(4,2): both draws miss the success
    assert pass_at_k(10, 3, 5) == pytest.approx(1 - 21 / 252)
    assert pass_at_k(3, 1, 3) == 1.0  # n - c < k: every draw of 3 includes the success


def test_pass_hat_k_by_hand() -> None:
    assert pass_hat_k(4, 2, 1) == pytest.approx(0.5)
    assert pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)
    assert pass_hat_k(8, 8, 8) == 1.0
    assert pass_hat_k(8, 7, 8) == 0.0
    assert pass_hat_k(10, 3, 5) == 0.0


def test_k_of_one_is_the_success_rate_for_both() -> None:
    for c in range(7):
        assert pass_at_k(6, c, 1) == pytest.approx(c / 6) == pass_hat_k(6, c, 1)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 4, 1), (3, -1, 1), (3, 1, 0), (3, 1, 4)])
def test_impossible_counts_are_refused(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_bootstrap_interval_brackets_the_mean_and_is_reproducible() -> None:
    values = [0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0]
    first = bootstrap(values)
    assert first.value == pytest.approx(5 / 8)
    assert 0.0 <= first.low < first.value < first.high <= 1.0
    assert bootstrap(values) == first
    constant = bootstrap([1.0] * 5)
    assert (constant.low, constant.value, constant.high) == (1.0, 1.0, 1.0)


def test_a_trial_passes_at_a_reward_of_one() -> None:
    """The one threshold every pass rate uses: partial rewards fail, rewards above 1 (a wider
    `reward_range`) pass, no reward fails."""
    assert passed(1.0) and passed(10.0)
    assert not passed(0.999) and not passed(0.0) and not passed(-1.0)
    assert not passed(None)
    assert PASS_REWARD == 1.0
