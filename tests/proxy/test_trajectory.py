"""Chain building on hand-built sessions whose exact ids, masks and log-probs are known."""

from __future__ import annotations

from pathlib import Path

import pytest

from proxy.records import CallRecord, CallStatus, WireApi
from proxy.store import CallStore
from proxy.trajectory import Chain, build_chains, build_trajectories

SYS = [1, 2, 3]
"""A system prompt + first user message."""


def call(
    seq: int,
    prompt: list[int] | None,
    completion: list[int] | None,
    logprobs: list[float] | None = None,
    rollout_id: str = "r",
    **fields: object,
) -> CallRecord:
    """A served call; log-probs default to -seq.k for the k-th completion token (easy to read back)."""
    if logprobs is None and completion is not None:
        logprobs = [-(seq + (k + 1) / 10) for k in range(len(completion))]
    return CallRecord.model_validate(
        {
            "rollout_id": rollout_id,
            "seq": seq,
            "call_id": f"c{seq}",
            "wire_api": WireApi.CHAT,
            "prompt_ids": prompt,
            "completion_ids": completion,
            "logprobs": logprobs,
            **fields,
        }
    )


def test_clean_three_turn_session_is_one_exact_chain() -> None:
    calls = [
        call(0, SYS, [10, 11], [-0.1, -0.2]),
        call(1, [*SYS, 10, 11, 20, 21], [12, 13, 14], [-0.3, -0.4, -0.5]),
        call(2, [*SYS, 10, 11, 20, 21, 12, 13, 14, 22], [15], [-0.6]),
    ]
    trajectory = build_chains(calls)
    assert trajectory.rollout_id == "r"
    assert trajectory.diagnostics == []
    assert trajectory.chains == [
        Chain(
            rollout_id="r",
            chain_index=0,
            prompt_ids=[1, 2, 3],
            response_ids=[10, 11, 20, 21, 12, 13, 14, 22, 15],
            response_mask=[1, 1, 0, 0, 1, 1, 1, 0, 1],
            response_logprobs=[-0.1, -0.2, 0.0, 0.0, -0.3, -0.4, -0.5, 0.0, -0.6],
            call_seqs=[0, 1, 2],
            num_turns=6,
        )
    ]


def test_injected_messages_between_turns_are_mask_zero_spans() -> None:
    reminder = [90, 91, 92, 93]
    c0 = call(0, SYS, [10])
    c1 = call(1, [*SYS, 10, 20, *reminder], [11, 12])
    c2 = call(2, [*SYS, 10, 20, *reminder, 11, 12, *reminder, 30], [13])
    (chain,) = build_chains([c0, c1, c2]).chains
    assert chain.response_ids == [10, 20, 90, 91, 92, 93, 11, 12, 90, 91, 92, 93, 30, 13]
    assert chain.response_mask == [1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1]
    assert chain.response_logprobs == [-0.1, 0, 0, 0, 0, 0, -1.1, -1.2, 0, 0, 0, 0, 0, -2.1]


def test_length_cut_completion_still_extends_and_a_zero_gap_adds_no_turn() -> None:
    c0 = call(0, SYS, [10, 11], finish_reason="length")
    c1 = call(1, [*SYS, 10, 11], [12], finish_reason="stop")
    c2 = call(2, [*SYS, 10, 11, 12, 40], [13])
    trajectory = build_chains([c0, c1, c2])
    assert trajectory.diagnostics == []
    (chain,) = trajectory.chains
    assert chain.response_ids == [10, 11, 12, 40, 13]
    assert chain.response_mask == [1, 1, 1, 0, 1]
    assert chain.call_seqs == [0, 1, 2]
    assert chain.num_turns == 5


def test_compacted_context_starts_a_new_chain_with_a_diagnostic() -> None:
    c0 = call(0, SYS, [10, 11])
    c1 = call(1, [*SYS, 10, 11, 20], [12, 13])
    summary = [*SYS, 77, 78]
    c2 = call(2, summary, [14])
    c3 = call(3, [*summary, 14, 21], [15])
    trajectory = build_chains([c0, c1, c2, c3])
    assert trajectory.diagnostics == [
        "call 2 starts chain 1: its prompt (5 tokens) is shorter than chain 0 (8 tokens) and diverges from "
        "it at token 3: compacted or rewritten context, or a separate conversation"
    ]
    first, second = trajectory.chains
    assert (first.call_seqs, second.call_seqs) == ([0, 1], [2, 3])
    assert first.response_ids == [10, 11, 20, 12, 13]
    assert second.prompt_ids == [1, 2, 3, 77, 78]
    assert second.response_ids == [14, 21, 15]
    assert second.response_mask == [1, 0, 1]
    assert second.response_logprobs == [-2.1, 0.0, -3.1]
    assert second.chain_index == 1


def test_rewritten_earlier_message_of_same_length_starts_a_new_chain() -> None:
    c0 = call(0, SYS, [10, 11])
    rewritten = [1, 2, 3, 10, 99, 20]  # token 4 was 11: same length, one token changed
    c1 = call(1, rewritten, [12])
    trajectory = build_chains([c0, c1])
    assert trajectory.diagnostics == [
        "call 1 starts chain 1: its prompt diverges from chain 0 at token 4 of 5: rewritten context, or a "
        "separate conversation"
    ]
    first, second = trajectory.chains
    assert first.response_ids == [10, 11]
    assert second.prompt_ids == rewritten
    assert second.response_ids == [12]
    assert second.response_mask == [1]


def test_rewound_prompt_is_named_as_such() -> None:
    trajectory = build_chains([call(0, SYS, [10, 11]), call(1, [1, 2], [5])])
    assert trajectory.diagnostics == [
        "call 1 starts chain 1: its prompt (2 tokens) is a prefix of chain 0 (5 tokens): the conversation "
        "was rewound or re-sampled"
    ]


def test_retried_duplicate_keeps_the_last_when_nothing_continues() -> None:
    calls = [call(0, SYS, [10]), call(1, SYS, [11]), call(2, SYS, [12])]
    trajectory = build_chains(calls)
    assert [c.call_seqs for c in trajectory.chains] == [[2]]
    assert trajectory.chains[0].response_ids == [12]
    assert trajectory.diagnostics == [
        "call 0 dropped as a retry: same prompt (3 tokens) as call 2, which was kept (the last)",
        "call 1 dropped as a retry: same prompt (3 tokens) as call 2, which was kept (the last)",
    ]


def test_retried_duplicate_keeps_the_one_the_conversation_continued_from() -> None:
    calls = [call(0, SYS, [10]), call(1, SYS, [11]), call(2, [*SYS, 10, 20], [12])]
    trajectory = build_chains(calls)
    (chain,) = trajectory.chains
    assert chain.call_seqs == [0, 2]
    assert chain.response_ids == [10, 20, 12]
    assert trajectory.diagnostics == [
        "call 1 dropped as a retry: same prompt (3 tokens) as call 0, which was kept (the one a later call "
        "continued from)"
    ]
    # the usual case: the client used the retry's answer
    calls = [call(0, SYS, [10]), call(1, SYS, [11]), call(2, [*SYS, 11, 20], [12])]
    (chain,) = build_chains(calls).chains
    assert chain.call_seqs == [1, 2]
    assert chain.response_mask == [1, 0, 1]


def test_identical_retries_with_identical_answers_make_one_chain() -> None:
    calls = [call(0, SYS, [10]), call(1, SYS, [10]), call(2, [*SYS, 10, 20], [12])]
    trajectory = build_chains(calls)
    assert [c.call_seqs for c in trajectory.chains] == [[1, 2]]
    assert len(trajectory.diagnostics) == 1


def test_failed_and_tokenless_calls_are_left_out_with_diagnostics() -> None:
    calls = [
        call(0, SYS, [10]),
        call(1, [*SYS, 10, 20], None, status=CallStatus.FAILED, http_status=502, error="upstream 503"),
        call(2, None, None, status=CallStatus.REJECTED, http_status=400),
        call(3, [*SYS, 10, 20], None),
        call(4, [*SYS, 10, 20], [11, 12], [-0.5]),
        call(5, [*SYS, 10, 20], [13]),
    ]
    trajectory = build_chains(calls)
    assert trajectory.diagnostics == [
        "call 1 left out: status failed (HTTP 502): upstream 503",
        "call 2 left out: status rejected (HTTP 400)",
        "call 3 left out: no token ids recorded (pass-through upstream?)",
        "call 4 left out: 1 log-probs for 2 completion ids",
    ]
    (chain,) = trajectory.chains
    assert chain.call_seqs == [0, 5]
    assert chain.response_ids == [10, 20, 13]


def test_interleaved_side_conversation_forms_its_own_chain() -> None:
    title = [1, 50, 51]  # shares only the first (template) token with the agent's prompt
    calls = [
        call(0, SYS, [10, 11]),
        call(1, title, [60, 61]),
        call(2, [*SYS, 10, 11, 20], [12]),
        call(3, [*title, 60, 61, 52], [62]),
        call(4, [*SYS, 10, 11, 20, 12, 21], [13]),
    ]
    trajectory = build_chains(calls)
    agent, side = trajectory.chains
    assert agent.call_seqs == [0, 2, 4]
    assert agent.response_ids == [10, 11, 20, 12, 21, 13]
    assert agent.response_mask == [1, 1, 0, 1, 0, 1]
    assert agent.response_logprobs == [-0.1, -0.2, 0.0, -2.1, 0.0, -4.1]
    assert side.call_seqs == [1, 3]
    assert side.prompt_ids == title
    assert side.response_ids == [60, 61, 52, 62]
    assert side.response_mask == [1, 1, 0, 1]
    assert trajectory.diagnostics == [
        "call 1 starts chain 1: its prompt (3 tokens) is shorter than chain 0 (5 tokens) and diverges from "
        "it at token 1: compacted or rewritten context, or a separate conversation"
    ]


def test_a_call_extends_the_longest_matching_chain() -> None:
    calls = [
        call(0, SYS, [10, 11]),  # chain 0: 1 2 3 10 11
        call(1, [1, 2, 3, 10], [11, 12]),  # re-sampled from inside chain 0: chain 1: 1 2 3 10 11 12
        call(2, [1, 2, 3, 10, 11, 12, 30], [13]),  # fits both; only chain 1 saw token 12 sampled
    ]
    trajectory = build_chains(calls)
    assert [c.call_seqs for c in trajectory.chains] == [[0], [1, 2]]
    assert trajectory.chains[1].response_mask == [1, 1, 0, 1]


def test_missing_logprobs_make_the_chain_logprobs_none() -> None:
    c0 = call(0, SYS, [10])
    c1 = call(1, [*SYS, 10, 20], [11]).model_copy(update={"logprobs": None})
    trajectory = build_chains([c0, c1])
    assert trajectory.chains[0].response_logprobs is None
    assert trajectory.diagnostics == ["call 1 has no log-probs: chain 0 has no response_logprobs"]


def test_policy_version_change_inside_a_chain_is_reported() -> None:
    c0 = call(0, SYS, [10], policy_version=3)
    c1 = call(1, [*SYS, 10, 20], [11], policy_version=4)
    assert build_chains([c0, c1]).diagnostics == ["chain 0 spans policy versions 3..4"]


def test_calls_are_ordered_by_seq_and_must_share_one_rollout() -> None:
    c0 = call(0, SYS, [10])
    c1 = call(1, [*SYS, 10, 20], [11])
    assert build_chains([c1, c0]).chains[0].call_seqs == [0, 1]
    with pytest.raises(ValueError, match="exactly one rollout"):
        build_chains([c0, call(1, SYS, [10], rollout_id="other")])
    with pytest.raises(ValueError, match="exactly one rollout"):
        build_chains([])
    empty = build_chains([], rollout_id="quiet")
    assert (empty.rollout_id, empty.chains, empty.diagnostics) == ("quiet", [], [])


def test_chain_refuses_misaligned_fields() -> None:
    with pytest.raises(ValueError, match="response_mask has 1 entries for 2 response ids"):
        Chain(
            rollout_id="r",
            chain_index=0,
            prompt_ids=[1],
            response_ids=[2, 3],
            response_mask=[1],
            response_logprobs=None,
            call_seqs=[0],
            num_turns=2,
        )


def test_build_trajectories_reads_the_store(tmp_path: Path) -> None:
    with CallStore(tmp_path / "calls.sqlite") as store:
        for c in [call(0, SYS, [10], rollout_id="a"), call(0, [5], [6], rollout_id="b")]:
            store.record(c)
        store.record(call(9, [*SYS, 10, 20], [11], rollout_id="a"))
        store.attach_reward("c", 1.0)
        trajectories = build_trajectories(store)
        assert [t.rollout_id for t in trajectories] == ["a", "b", "c"]
        assert trajectories[0].chains[0].call_seqs == [0, 1]
        assert trajectories[0].chains[0].response_logprobs == [-0.1, 0.0, -9.1]
        assert trajectories[2].chains == []
        assert [t.rollout_id for t in build_trajectories(store, ["b"])] == ["b"]
