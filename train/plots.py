"""PNG plots of a GRPO run's curves and of evaluations side by side, so a run can be judged at a glance
without TensorBoard.

`plot_run` draws a run directory's `metrics.jsonl` (training pass rate and reward per step, overall and
per harness) and `eval.jsonl` (the held evaluations with Wilson 95% intervals, and per task before vs
after). `plot_evaluations` draws pass@1, pass@k and pass^k per task for several runs (what
`forge-train eval ... --plot` writes). Figures are built with matplotlib's object-oriented API on the Agg
canvas: no display and no global pyplot state, so plotting is safe from any thread or test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from train.evaluation import Evaluation, GroupScore, TaskScore
from train.grpo_loop import BASE_VERSION, METRICS_FILE, EvalRecord, GroupStats, StepRecord, version_name
from train.jsonl import read_jsonl

EVAL_FILE = "eval.jsonl"
CURVES_FILE = "curves.png"
DPI = 100
Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""
LABEL_CHARS = 48
"""Longer task labels are cut (with an ellipsis) so the bars keep their room."""


def wilson(passed: int, scored: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a pass rate: unlike p ± z·se it stays inside [0, 1] and is not empty at
    0 or n passes, which small evaluations often give."""
    if scored <= 0:
        return (0.0, 1.0)
    p = passed / scored
    denom = 1 + z * z / scored
    centre = (p + z * z / (2 * scored)) / denom
    half = z * math.sqrt(p * (1 - p) / scored + z * z / (4 * scored * scored)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def read_run(run_dir: Path) -> tuple[list[StepRecord], list[EvalRecord]]:
    """A run directory's step records and held evaluations (either file may be missing, not both)."""
    metrics, evals = run_dir / METRICS_FILE, run_dir / EVAL_FILE
    if not metrics.is_file() and not evals.is_file():
        raise FileNotFoundError(
            f"{run_dir}: neither {METRICS_FILE} nor {EVAL_FILE}: not a GRPO run directory"
        )
    return read_jsonl(metrics, StepRecord), read_jsonl(evals, EvalRecord)


def eval_counts(record: EvalRecord) -> tuple[int, int]:
    """(passed, scored) of an evaluation overall. Records before `scored` existed have only `rollouts`
    (which then also counts dropped infrastructure failures) and the rate, so passed is rounded back."""
    scored = record.scored or record.rollouts
    return round(record.pass_rate * scored), scored


def plot_run(run_dir: Path) -> Path:
    """Write `run_dir/curves.png`: the training curves and held evaluations of a GRPO run."""
    run_dir = Path(run_dir)
    steps, evals = read_run(run_dir)
    out = run_dir / CURVES_FILE
    _save(run_figure(steps, evals, title=run_dir.name), out)
    return out


def plot_evaluations(named: Sequence[tuple[str, Evaluation]], out: Path) -> Path:
    """Write `out`: pass@1, pass@k and pass^k per task (and overall, per harness) of several runs."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    _save(evaluations_figure(named), out)
    return out


def _save(figure: Figure, out: Path) -> None:
    FigureCanvasAgg(figure)
    figure.savefig(out, dpi=DPI)


# --- a run's curves ------------------------------------------------------------------------------------


def run_figure(steps: Sequence[StepRecord], evals: Sequence[EvalRecord], title: str = "") -> Figure:
    """The run's four panels, keyed by Axes label: "train_pass", "train_reward", "eval", "per_task"."""
    tasks = _per_task_rows(evals)
    height = max(10.0, 2.0 + 0.32 * len(tasks))
    figure = Figure(figsize=(16, height), layout="constrained")
    axes = figure.subplot_mosaic(
        [["train_pass", "per_task"], ["train_reward", "per_task"], ["eval", "per_task"]],
        width_ratios=[1.35, 1],
    )
    harnesses = sorted({h for record in steps for h in record.per_harness})
    colours = {h: f"C{i % 9 + 1}" for i, h in enumerate(sorted({*harnesses, *_eval_harnesses(evals)}))}
    _training_panel(axes["train_pass"], steps, harnesses, colours, "pass_rate", "training pass rate")
    _training_panel(axes["train_reward"], steps, harnesses, colours, "reward_mean", "training reward mean")
    _eval_panel(axes["eval"], evals, colours)
    _per_task_panel(axes["per_task"], evals, tasks)
    last = steps[-1].step + 1 if steps else 0
    figure.suptitle(f"{title} · {last} steps · {len(evals)} held evaluations".lstrip(" ·"), fontsize=15)
    return figure


def _training_panel(
    ax: Axes,
    steps: Sequence[StepRecord],
    harnesses: Sequence[str],
    colours: dict[str, str],
    field: str,
    name: str,
) -> None:
    """One value per step, overall and (with several harnesses) per harness."""
    ax.set_title(name)
    ax.set_xlabel("step")
    ax.set_ylabel("pass rate" if field == "pass_rate" else "reward mean")
    ax.grid(alpha=0.3)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if field == "pass_rate":
        ax.set_ylim(-0.03, 1.03)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    if not steps:
        _note(ax, f"no training steps in {METRICS_FILE}")
        return
    marker = "o" if len(steps) <= 60 else None
    xs = [r.step for r in steps]
    ax.plot(xs, [getattr(r, field) for r in steps], color="black", lw=2.2, marker=marker, ms=4, label="all")
    if len(harnesses) > 1:
        for harness in harnesses:
            points = [
                (r.step, getattr(r.per_harness[harness], field)) for r in steps if harness in r.per_harness
            ]
            ax.plot(
                [x for x, _ in points], [y for _, y in points], color=colours[harness], lw=1.3,
                marker=marker, ms=3, alpha=0.85, label=harness,
            )  # fmt: skip
        _side_legend(ax)


def _eval_harnesses(evals: Sequence[EvalRecord]) -> list[str]:
    return sorted({h for record in evals for h in record.per_harness})


def _eval_panel(ax: Axes, evals: Sequence[EvalRecord], colours: dict[str, str]) -> None:
    """Each held evaluation's pass rate with its Wilson 95% interval, overall and per harness."""
    ax.set_title("held evaluation pass rate (95% Wilson interval)")
    ax.set_xlabel("policy version")
    ax.set_ylabel("pass rate")
    ax.set_ylim(-0.03, 1.03)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)
    if not evals:
        ax.set_xticks([])
        _note(ax, f"no held evaluation: no {EVAL_FILE}, or it is empty (eval_samples = 0)")
        return
    harnesses = _eval_harnesses(evals)
    series: list[tuple[str, str, list[tuple[int, int, int]]]] = [
        ("all", "black", [(r.policy_version, *eval_counts(r)) for r in evals])
    ]
    if len(harnesses) > 1:
        for harness in harnesses:
            stats = [(r.policy_version, r.per_harness[harness]) for r in evals if harness in r.per_harness]
            series.append((harness, colours[harness], [(v, s.passed, s.scored) for v, s in stats]))
    versions = sorted({r.policy_version for r in evals})
    span = max(versions[-1] - versions[0], 1)
    step = 0.025 * span
    # Harnesses sit just right of the overall point, so the intervals do not hide one another.
    for i, (label, colour, points) in enumerate(series):
        xs, ys, lows, highs = [], [], [], []
        for version, passed, scored in points:
            low, high = wilson(passed, scored)
            rate = passed / scored if scored else 0.0
            xs.append(version + i * step)
            ys.append(rate)
            lows.append(rate - low)
            highs.append(high - rate)
        ax.errorbar(
            xs, ys, yerr=[lows, highs], color=colour, lw=2.2 if label == "all" else 1.2, marker="o",
            ms=6 if label == "all" else 4, capsize=4, label=label,
        )  # fmt: skip
        if label == "all" and len(xs) <= 12:
            for x, y, (_, _, scored) in zip(xs, ys, points, strict=True):
                ax.annotate(
                    f"{y:.0%}\n(n={scored})", (x, y), xytext=(-9, 0), textcoords="offset points",
                    ha="right", va="center", fontsize=8, bbox={"fc": "white", "ec": "none", "alpha": 0.8},
                )  # fmt: skip
    ax.set_xlim(versions[0] - 0.22 * span, versions[-1] + 0.12 * span)
    if len(versions) <= 12:
        ax.set_xticks(versions, [_version_label(v) for v in versions])
    if len(series) > 1:
        _side_legend(ax)


def _version_label(version: int) -> str:
    """The tick of a policy version: `base` is the model before its warm start."""
    return "base" if version == BASE_VERSION else str(version)


def _side_legend(ax: Axes) -> None:
    """Outside the axes, on the right: the curves fill the panel, so no corner is free."""
    ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


def _per_task_rows(evals: Sequence[EvalRecord]) -> list[str]:
    if len(evals) < 2:
        return []
    return sorted({*evals[0].per_task, *evals[-1].per_task})


def _task_counts(record: EvalRecord, task: str) -> tuple[int, int] | None:
    """(passed, scored) of a task over its harnesses, when the record has them (newer records)."""
    stats: dict[str, GroupStats] = record.per_task_harness.get(task, {})
    if not stats:
        return None
    return sum(s.passed for s in stats.values()), sum(s.scored for s in stats.values())


def _per_task_panel(ax: Axes, evals: Sequence[EvalRecord], tasks: Sequence[str]) -> None:
    """Each task's held pass rate in the first evaluation against the last: where training helped."""
    ax.set_title("held pass rate per task: first vs last evaluation")
    if len(evals) < 2:
        ax.set_axis_off()
        _note(ax, f"per-task comparison needs two held evaluations ({len(evals)} in {EVAL_FILE})")
        return
    first, last = evals[0], evals[-1]
    height = 0.4
    for i, (record, colour, label) in enumerate(
        [
            (first, "C7", f"{version_name(first.policy_version)} (first)"),
            (last, "C0", f"{version_name(last.policy_version)} (last)"),
        ]
    ):
        ys, widths, lows, highs = [], [], [], []
        for row, task in enumerate(tasks):
            if task not in record.per_task:
                continue
            rate = record.per_task[task]
            counts = _task_counts(record, task)
            low, high = wilson(*counts) if counts else (rate, rate)
            ys.append(row + (i - 0.5) * height)
            widths.append(rate)
            lows.append(max(0.0, rate - low))
            highs.append(max(0.0, high - rate))
        ax.barh(
            ys, widths, height=height, color=colour, label=label,
            xerr=[lows, highs] if any(lows) or any(highs) else None,
            error_kw={"ecolor": "0.35", "capsize": 2, "lw": 0.8},
        )  # fmt: skip
    ax.set_yticks(range(len(tasks)), [_short(t) for t in tasks], fontsize=8 if len(tasks) > 30 else 9)
    ax.set_ylim(max(len(tasks), 10) - 0.5, -0.5)  # a few tasks: bars of the usual thickness, not slabs
    ax.set_xlim(0, 1.02)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("pass rate (95% Wilson interval where the record has counts)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=9, loc="lower right")


# --- evaluations side by side --------------------------------------------------------------------------


def _largest_k(named: Sequence[tuple[str, Evaluation]]) -> int | None:
    """The largest k above 1 that every evaluation has, so their bars compare alike; 1 when none goes
    past 1, None when they share none above 1 (each run then shows its own largest)."""
    sets = [set(e.ks) for _, e in named if e.ks]
    if all(max(ks) == 1 for ks in sets):
        return 1
    common = set.intersection(*sets)
    return max(common) if max(common, default=1) > 1 else None


def evaluations_figure(named: Sequence[tuple[str, Evaluation]]) -> Figure:
    """pass@1, pass@k and pass^k (k the largest every run has) per row: overall with its bootstrap
    interval, each harness's average when there are several, then each task; one bar per run."""
    k = _largest_k(named)
    metrics: list[tuple[str, str, int | None]] = [("pass_at", "pass@1", 1)]
    if k is None:
        metrics += [("pass_at", "pass@k (each run's largest k)", None), ("pass_hat", "pass^k", None)]
    elif k > 1:
        metrics += [("pass_at", f"pass@{k}", k), ("pass_hat", f"pass^{k}", k)]
    harnesses = sorted({t.harness for _, e in named for t in e.tasks})
    rows = _evaluation_rows(named, harnesses)
    bars = max(1, len(named))
    height = min(300.0, max(6.0, 2.2 + len(rows) * (0.16 * bars + 0.14)))
    figure = Figure(figsize=(6 + 4.2 * len(metrics), height), layout="constrained")
    axes = figure.subplots(1, len(metrics), sharey=True, squeeze=False)[0]
    for ax, (field, name, which) in zip(axes, metrics, strict=True):
        _evaluation_panel(ax, named, rows, field, name, which)
    ax0 = axes[0]
    ax0.set_yticks(range(len(rows)), [label for label, _, _ in rows], fontsize=8 if len(rows) > 40 else 9)
    for tick, (_, kind, _) in zip(ax0.get_yticklabels(), rows, strict=True):
        if kind != "task":
            tick.set_fontweight("bold")
    if rows:
        ax0.set_ylim(len(rows) - 0.5, -0.5)
    else:
        _note(ax0, "no scored tasks in any evaluation")
    if named:
        handles, labels = ax0.get_legend_handles_labels()
        figure.legend(handles, labels, loc="outside lower center", ncols=min(len(named), 5), fontsize=10)
    infra = sorted({e.infra for _, e in named})
    trials = sorted({t.trials for _, e in named for t in e.tasks})
    span = f"{trials[0]}-{trials[-1]}" if len(trials) > 1 else (str(trials[0]) if trials else "0")
    runs = " vs ".join(n for n, _ in named) if len(named) <= 4 else f"{len(named)} runs"
    figure.suptitle(
        f"{runs} · {span} trials per task · infra errors: {'/'.join(infra)}"
        " · intervals: bootstrap 95% over tasks",
        fontsize=13,
    )
    return figure


_Row = tuple[str, str, str]
"""(label, kind: "overall" | "harness" | "task", key): the key finds the row in each evaluation."""


def _evaluation_rows(named: Sequence[tuple[str, Evaluation]], harnesses: Sequence[str]) -> list[_Row]:
    rows: list[_Row] = [("overall", "overall", "all")]
    if len(harnesses) > 1:
        rows += [(f"harness {h}", "harness", f"harness {h}") for h in harnesses]
    pairs = sorted({(t.task, t.harness) for _, e in named for t in e.tasks})
    if not pairs:
        return []
    for task, harness in pairs:
        label = f"{_short(task)} · {harness}" if len(harnesses) > 1 else _short(task)
        rows.append((label, "task", f"{task}\0{harness}"))
    return rows


def _row_value(evaluation: Evaluation, row: _Row, field: str, k: int) -> tuple[float, float, float] | None:
    """(value, low, high) of a row in one evaluation: None where the run lacks it."""
    _, kind, key = row
    if kind == "task":
        task, harness = key.split("\0")
        score: TaskScore | None = next(
            (t for t in evaluation.tasks if (t.task, t.harness) == (task, harness)), None
        )
        if score is None or k not in getattr(score, field):
            return None
        value = getattr(score, field)[k]
        return (value, value, value)
    groups: list[GroupScore] = [evaluation.overall] if evaluation.overall else []
    group = next((g for g in [*groups, *evaluation.by_harness] if g.group == key), None)
    if group is None or k not in getattr(group, field):
        return None
    interval = getattr(group, field)[k]
    return (interval.value, interval.low, interval.high)


def _evaluation_panel(
    ax: Axes,
    named: Sequence[tuple[str, Evaluation]],
    rows: Sequence[_Row],
    field: str,
    name: str,
    k: int | None,
) -> None:
    ax.set_title(name, fontsize=13)
    ax.set_xlim(0, 1.1)
    ax.set_xticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel(name.split(" ")[0])
    n = max(1, len(named))
    height = 0.8 / n
    for i, (run, evaluation) in enumerate(named):
        which = k if k is not None else max(evaluation.ks, default=1)
        ys, widths, lows, highs, missing, labelled = [], [], [], [], [], []
        for r, row in enumerate(rows):
            y = r + (i - (n - 1) / 2) * height
            value = _row_value(evaluation, row, field, which)
            if value is None:
                missing.append(y)
                continue
            ys.append(y)
            labelled.append(row[1] != "task")
            widths.append(value[0])
            lows.append(max(0.0, value[0] - value[1]))
            highs.append(max(0.0, value[2] - value[0]))
        ax.barh(ys, widths, height=height * 0.92, color=f"C{i % 10}", label=run)
        spread = [(y, w, lo, hi) for y, w, lo, hi in zip(ys, widths, lows, highs, strict=True) if lo or hi]
        if spread:
            ax.errorbar(
                [w for _, w, _, _ in spread], [y for y, _, _, _ in spread],
                xerr=[[lo for *_, lo, _ in spread], [hi for *_, hi in spread]],
                fmt="none", ecolor="0.2", capsize=2, lw=0.9,
            )  # fmt: skip
        for y in missing:
            ax.text(0.01, y, "n/a", va="center", fontsize=7, color="0.45")
        for y, w, hi, value_shown in zip(ys, widths, highs, labelled, strict=True):
            if value_shown:  # the averaged rows: their value matters more than any one task's
                ax.text(w + hi + 0.01, y, f"{w:.0%}", va="center", fontsize=8)
    for r, (_, kind, _) in enumerate(rows):
        if kind != "task" and r + 1 < len(rows) and rows[r + 1][1] == "task":
            ax.axhline(r + 0.5, color="0.5", lw=0.8)
    if k is None and name != "pass@1":
        ax.set_xlabel("k: " + ", ".join(f"{run} {max(e.ks, default=1)}" for run, e in named))


def _short(label: str) -> str:
    return label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"


def _note(ax: Axes, text: str) -> None:
    ax.text(
        0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=11, color="0.35", wrap=True
    )
