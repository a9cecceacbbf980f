"""`forge-synth export`: a run's accepted tasks as a catalog `forge-train rl --catalog DIR` trains on."""

from __future__ import annotations

import shutil
from pathlib import Path

from envs.gate import VERIFIED_FILE
from synth.errors import RunDirError
from synth.run_dir import RunDir
from synth.status import run_status


def export_catalog(run: RunDir, dest: Path, replace: bool = False) -> list[str]:
    """Copy every accepted task (without the gate's verified.json, which is machine-specific) into
    `dest`, with a README naming the run; returns the task names. An existing task of the same name is
    an error unless `replace`."""
    status = run_status(run)
    if not status.accepted:
        raise RunDirError(f"{run.path}: no accepted task to export (forge-synth status {run.path})")
    dest.mkdir(parents=True, exist_ok=True)
    clash = [name for name in status.accepted if (dest / name).exists()]
    if clash and not replace:
        raise RunDirError(f"{dest}: already has {len(clash)} of these tasks ({clash[0]}, ...); use --replace")
    proposals = {p.id: p for p in run.proposals()}
    rows = []
    for name in sorted(status.accepted):
        target = dest / name
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(run.task_dir(name), target, ignore=shutil.ignore_patterns(VERIFIED_FILE))
        p = proposals[name]
        source = p.provenance.family or p.provenance.proposer
        rows.append(f"| [`{name}`]({name}/instruction.md) | {source} | {p.difficulty} | {p.title} |")
    settings = run.settings
    tests = run.tests()
    unattacked = sorted(name for name in status.accepted if name in tests and not tests[name].forgery_stage)
    forgeries = "every forgery 0" if not unattacked else (
        f"every forgery 0, but the forgery stage was skipped for {len(unattacked)} of them "
        f"(`--no-forgery`: {', '.join(unattacked)})"
    )  # fmt: skip
    (dest / "README.md").write_text(
        f"# {dest.name}\n\n"
        f"{len(rows)} tasks synthesized by `forge-synth` (domain {settings.domain}, proposer "
        f"{settings.proposer}, seed {settings.seed}), each accepted by the verification gate "
        f"(reference solution 1 every run, doing nothing 0, {forgeries}, no hidden file in the image) "
        "and checked against the evaluation catalogs for duplicates. Made again with: "
        f"`forge-synth run --domain {settings.domain} "
        f"{'--offline' if settings.proposer == 'offline' else '--model URL --model-name M'} "
        f"--seed {settings.seed} --n N --out RUN_DIR` and `forge-synth export RUN_DIR --catalog DIR`.\n\n"
        "| task | family | difficulty | what the agent must do |\n|---|---|---|---|\n"
        + "\n".join(rows)
        + "\n"
    )
    return sorted(status.accepted)
