"""The run curves and evaluation comparison PNGs: written, valid, and drawing what the records say."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from PIL import Image

from train.errors import ResultsFileInvalid
from train.evaluation import Evaluation, evaluate
from train.grpo_loop import BASE_VERSION, EvalRecord, GroupStats, StepRecord
from train.jsonl import read_jsonl
from train.plots import (
    evaluations_figure,
    plot_evaluations,
    plot_run,
    run_figure,
    wilson,
)
from train.rollout import RolloutResult

HARNESSES = ["claude-code", "codex", "opencode"]
TASKS = ["claw/fix-parser", "web/login-redirect", "data/groupby"]


def _stats(passed: int, scored: int) -> GroupStats:
    return GroupStats(pass_rate=passed / scored, reward_mean=passed / scored, scored=scored, passed=passed)


def _step(step: int, per_harness: dict[str, GroupStats]) -> StepRecord:
    scored = sum(s.scored for s in per_harness.values()) or 8
    passed = sum(s.passed for s in per_harness.values()) or step % 3
    return StepRecord(
        step=step,
        policy_version=step + 1,
        reward_mean=passed / scored,
        pass_rate=passed / scored,
        rollouts=scored,
        infra_errors=0,
        groups=3,
        skipped_groups=1,
        response_tokens_mean=120.0,
        calls_mean=3.0,
        timings={"rollout_sec": 10.0, "train_sec": 2.0},
        per_harness=per_harness,
    )


def _eval(version: int, per_task_harness: dict[str, dict[str, GroupStats]]) -> EvalRecord:
    per_harness = {
        h: _stats(
            sum(per_task_harness[t][h].passed for t in per_task_harness),
            sum(per_task_harness[t][h].scored for t in per_task_harness),
        )
        for h in HARNESSES
    }
    passed = sum(s.passed for s in per_harness.values())
    scored = sum(s.scored for s in per_harness.values())
    return EvalRecord(
        policy_version=version,
        pass_rate=passed / scored,
        reward_mean=passed / scored,
        rollouts=scored,
        per_task={
            t: sum(s.passed for s in hs.values()) / sum(s.scored for s in hs.values())
            for t, hs in per_task_harness.items()
        },
        seconds=30.0,
        scored=scored,
        per_harness=per_harness,
        per_task_harness=per_task_harness,
    )


STEPS = [_step(s, {h: _stats((s + i) % 5, 8) for i, h in enumerate(HARNESSES)}) for s in range(6)]
BEFORE = _eval(
    0, {t: {h: _stats((i + j) % 3, 4) for j, h in enumerate(HARNESSES)} for i, t in enumerate(TASKS)}
)
AFTER = _eval(
    6, {t: {h: _stats((i + j) % 3 + 1, 4) for j, h in enumerate(HARNESSES)} for i, t in enumerate(TASKS)}
)


def _panels(figure: Figure) -> dict[str, Axes]:
    """The figure's panels by the label run_figure gives them."""
    return {str(ax.get_label()): ax for ax in figure.axes}


def _ys(line: Line2D) -> list[float]:
    return [float(y) for y in np.asarray(line.get_ydata())]


def _write_run(run_dir: Path, steps: list[StepRecord], evals: list[EvalRecord]) -> Path:
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "metrics.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in steps))
    if evals:
        (run_dir / "eval.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in evals))
    return run_dir


def _assert_png(path: Path, min_width: int = 1000, min_height: int = 600) -> None:
    assert path.is_file()
    with Image.open(path) as image:
        assert image.format == "PNG"
        width, height = image.size
        image.load()
    assert width >= min_width and height >= min_height


def _wilson_reference(passed: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The interval's closed form as usually printed: (2np + z² ± z√(z² + 4np(1-p))) / 2(n + z²)."""
    p = passed / n
    root = z * math.sqrt(z * z + 4 * n * p * (1 - p))
    return ((2 * n * p + z * z - root) / (2 * (n + z * z)), (2 * n * p + z * z + root) / (2 * (n + z * z)))


@pytest.mark.parametrize(("passed", "n"), [(7, 20), (0, 12), (12, 12), (1, 3)])
def test_wilson_matches_the_closed_form(passed: int, n: int) -> None:
    assert wilson(passed, n) == pytest.approx(_wilson_reference(passed, n), abs=1e-12)


def test_plot_run_writes_a_png(tmp_path: Path) -> None:
    out = plot_run(_write_run(tmp_path / "run", STEPS, [BEFORE, AFTER]))
    assert out == tmp_path / "run" / "curves.png"
    _assert_png(out, 1400, 900)


def test_training_panels_draw_overall_and_each_harness() -> None:
    axes = _panels(run_figure(STEPS, [BEFORE, AFTER]))
    for name, field in [("train_pass", "pass_rate"), ("train_reward", "reward_mean")]:
        lines = axes[name].get_lines()
        assert len(lines) == 1 + len(HARNESSES)
        assert [line.get_label() for line in lines] == ["all", *HARNESSES]
        assert _ys(lines[0]) == pytest.approx([getattr(r, field) for r in STEPS])
        assert _ys(lines[2]) == pytest.approx([getattr(r.per_harness["codex"], field) for r in STEPS])


def test_one_harness_draws_one_line() -> None:
    steps = [_step(s, {"codex": _stats(s, 8)}) for s in range(3)]
    old = [_step(s, {}) for s in range(3)]  # runs before per_harness existed
    for records in (steps, old):
        axes = _panels(run_figure(records, []))
        assert len(axes["train_pass"].get_lines()) == 1


def _errorbars(figure_axes: dict[str, Axes], name: str) -> dict[str, ErrorbarContainer]:
    return {str(c.get_label()): c for c in figure_axes[name].containers if isinstance(c, ErrorbarContainer)}


def test_eval_panel_intervals_are_wilson() -> None:
    axes = _panels(run_figure(STEPS, [BEFORE, AFTER]))
    bars = _errorbars(axes, "eval")
    assert set(bars) == {"all", *HARNESSES}
    counts = {"all": [(round(r.pass_rate * r.scored), r.scored) for r in (BEFORE, AFTER)]}
    for h in HARNESSES:
        counts[h] = [(r.per_harness[h].passed, r.per_harness[h].scored) for r in (BEFORE, AFTER)]
    expected = {
        label: [(c / n, *_wilson_reference(c, n)) for c, n in pairs] for label, pairs in counts.items()
    }
    for label, container in bars.items():
        line, _, (segments,) = container.lines
        assert _ys(line) == pytest.approx([rate for rate, _, _ in expected[label]])
        lows_highs = [y for seg in segments.get_segments() for y in (seg[0][1], seg[1][1])]
        assert lows_highs == pytest.approx([y for _, low, high in expected[label] for y in (low, high)])


def test_old_eval_records_use_rollouts_for_the_interval() -> None:
    """Records written before `scored` and the per-harness stats: counts come from `rollouts`."""
    old = EvalRecord(
        policy_version=0, pass_rate=0.25, reward_mean=0.3, rollouts=16, per_task={"a": 0.25}, seconds=1
    )
    axes = _panels(run_figure([], [old]))
    (container,) = _errorbars(axes, "eval").values()
    (segment,) = container.lines[2][0].get_segments()
    assert (segment[0][1], segment[1][1]) == pytest.approx(_wilson_reference(4, 16))


def test_per_task_panel_compares_first_and_last_evaluation() -> None:
    axes = _panels(run_figure(STEPS, [BEFORE, AFTER]))
    panel = axes["per_task"]
    first, last = (c for c in panel.containers if isinstance(c, BarContainer))
    rows = sorted(TASKS)
    assert [t.get_text() for t in panel.get_yticklabels()] == rows
    assert [bar.get_width() for bar in first] == pytest.approx([BEFORE.per_task[t] for t in rows])
    assert [bar.get_width() for bar in last] == pytest.approx([AFTER.per_task[t] for t in rows])
    legend = panel.get_legend()
    assert legend is not None
    assert [text.get_text() for text in legend.get_texts()] == ["v0 (first)", "v6 (last)"]


def test_without_evaluations_the_panels_say_so(tmp_path: Path) -> None:
    axes = _panels(run_figure(STEPS, []))
    assert any("no held evaluation" in t.get_text() for t in axes["eval"].texts)
    assert any("needs two held evaluations" in t.get_text() for t in axes["per_task"].texts)
    _assert_png(plot_run(_write_run(tmp_path / "run", STEPS, [])))


def test_a_malformed_line_names_file_and_line(tmp_path: Path) -> None:
    run_dir = _write_run(tmp_path / "run", STEPS[:2], [])
    metrics = run_dir / "metrics.jsonl"
    metrics.write_text(metrics.read_text() + '{"step": "x"}\n' + STEPS[2].model_dump_json() + "\n")
    with pytest.raises(ResultsFileInvalid, match=rf"{metrics}:3: not a StepRecord"):
        plot_run(run_dir)


def test_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    """A run still writing (or killed mid-append) leaves a last line without its newline."""
    path = tmp_path / "metrics.jsonl"
    path.write_text(STEPS[0].model_dump_json() + "\n" + STEPS[1].model_dump_json()[:40])
    assert read_jsonl(path, StepRecord) == [STEPS[0]]
    path.write_text(STEPS[0].model_dump_json() + "\n" + STEPS[1].model_dump_json()[:40] + "\n")
    with pytest.raises(ResultsFileInvalid, match=":2:"):
        read_jsonl(path, StepRecord)


def test_not_a_run_directory(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"metrics\.jsonl"):
        plot_run(tmp_path)


# --- evaluations side by side ---------------------------------------------------------------------------


def _result(task: str, harness: str, sample: int, reward: float) -> RolloutResult:
    return RolloutResult(
        rollout_id=f"{task}--{harness}-{sample}",
        task=task,
        domain=task.split("/")[0],
        harness=harness,
        harness_version="1",
        model="m",
        status="scored",
        sample=sample,
        reward=reward,
        logs_dir=Path("/tmp"),
    )


def _evaluation(tasks: list[str], harnesses: list[str], shift: int) -> Evaluation:
    results = [
        _result(t, h, k, 1.0 if (i + j + k + shift) % 3 == 0 else 0.0)
        for i, t in enumerate(tasks)
        for j, h in enumerate(harnesses)
        for k in range(4)
    ]
    return evaluate([results])


def _bars(ax: Axes) -> dict[str, list[float]]:
    return {
        str(c.get_label()): [b.get_width() for b in c] for c in ax.containers if isinstance(c, BarContainer)
    }


def test_plot_evaluations_compares_runs(tmp_path: Path) -> None:
    base = _evaluation(TASKS, ["codex"], 0)
    trained = _evaluation(TASKS[:2], ["codex"], 1)  # a task the other run did not evaluate
    named = [("base", base), ("trained", trained)]
    out = plot_evaluations(named, tmp_path / "plots" / "eval.png")
    _assert_png(out, 1000, 500)
    figure = evaluations_figure(named)
    pass1, pass4, hat4 = figure.axes[:3]
    assert [ax.get_title() for ax in (pass1, pass4, hat4)] == ["pass@1", "pass@4", "pass^4"]
    rows = [t.get_text() for t in pass1.get_yticklabels()]
    assert rows == ["overall", *sorted(TASKS)]  # one harness: no harness rows, no "· harness"
    bars = _bars(pass4)
    assert base.overall is not None and trained.overall is not None
    by_task = {t.task: t for t in base.tasks}
    assert bars["base"] == pytest.approx(
        [base.overall.pass_at[4].value, *(by_task[t].pass_at[4] for t in rows[1:])]
    )
    assert len(bars["trained"]) == 1 + 2  # the missing task has no bar...
    assert sum(t.get_text() == "n/a" for t in pass4.texts) == 1  # ...but says so
    errorbars = [c for c in pass1.containers if isinstance(c, ErrorbarContainer)]
    (segment, *_) = errorbars[0].lines[2][0].get_segments()  # the first run's overall row: its bootstrap
    interval = base.overall.pass_at[1]
    assert (segment[0][0], segment[1][0]) == pytest.approx((interval.low, interval.high))
    assert [t.get_text() for t in figure.legends[0].get_texts()] == ["base", "trained"]


def test_plot_evaluations_labels_task_and_harness(tmp_path: Path) -> None:
    one = _evaluation(TASKS, HARNESSES[:2], 0)
    figure = evaluations_figure([("only", one)])
    rows = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert rows[:3] == ["overall", "harness claude-code", "harness codex"]
    assert rows[3:] == [f"{t} · {h}" for t in sorted(TASKS) for h in HARNESSES[:2]]
    assert _bars(figure.axes[1])["only"][3:] == pytest.approx([t.pass_at[4] for t in one.tasks])
    _assert_png(plot_evaluations([("only", one)], tmp_path / "one.png"), 1000, 500)


def test_plot_evaluations_with_no_tasks(tmp_path: Path) -> None:
    _assert_png(plot_evaluations([("empty", evaluate([]))], tmp_path / "empty.png"), 600, 400)


def test_runs_without_a_common_k_show_each_their_largest() -> None:
    four = _evaluation(TASKS, ["codex"], 0)  # 4 trials: ks 1, 4
    two = evaluate([[_result(t, "codex", k, float(k == 0)) for t in TASKS for k in range(2)]])  # ks 1, 2
    figure = evaluations_figure([("four", four), ("two", two)])
    assert [ax.get_title() for ax in figure.axes[:3]] == ["pass@1", "pass@k (each run's largest k)", "pass^k"]
    assert figure.axes[1].get_xlabel() == "k: four 4, two 2"
    bars = _bars(figure.axes[2])
    assert bars["four"][1:] == pytest.approx([t.pass_hat[4] for t in four.tasks])
    assert bars["two"][1:] == pytest.approx([t.pass_hat[2] for t in two.tasks])


def test_one_trial_per_task_draws_pass_at_1_only() -> None:
    once = evaluate([[_result(t, "codex", 0, 1.0) for t in TASKS]])
    figure = evaluations_figure([("once", once)])
    assert [ax.get_title() for ax in figure.axes] == ["pass@1"]


def test_an_evaluation_of_the_model_before_its_warm_start_is_labelled_base() -> None:
    base = BEFORE.model_copy(update={"policy_version": BASE_VERSION})
    axes = _panels(run_figure(STEPS, [base, BEFORE, AFTER]))
    assert [t.get_text() for t in axes["eval"].get_xticklabels()] == ["base", "0", "6"]
    legend = axes["per_task"].get_legend()
    assert legend is not None
    assert [text.get_text() for text in legend.get_texts()] == ["base (first)", "v6 (last)"]
