"""What a browser rollout costs: sandbox start-up with its site and Chromium ready, and one oracle
rollout per browser harness, each against a claw baseline measured in the same run.

    .venv/bin/python bench/browser_rollout.py                  # 3 start-ups, 1 rollout per harness
    .venv/bin/python bench/browser_rollout.py --starts 5 --samples 2 --harness forge-web,browser-use

Start-up: a claw task's sandbox from start to ready (the baseline), a browser task's sandbox from start
to its site answering, and that plus Chromium launched by Playwright with the first screenshot taken,
as the user the agent runs as. Rollouts: the oracle through each browser harness on a browser task, and
through forge-react on a claw task (the baseline); every rollout must score 1. Medians; prints Markdown.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from envs.docker_client import docker_client  # noqa: E402
from envs.docker_sandbox import DockerSandbox  # noqa: E402
from envs.image_builder import build_image  # noqa: E402
from envs.sandbox import SandboxSpec  # noqa: E402
from envs.task import Task, load_task  # noqa: E402
from harnesses.bundle import build_bundle  # noqa: E402
from harnesses.registry import HARNESSES, get_harness  # noqa: E402
from proxy.engines.oracle import OracleEngine  # noqa: E402
from proxy.session import ProxySession  # noqa: E402
from train.rollout import run_rollout  # noqa: E402

CLAW_TASK = REPO / "catalog" / "claw" / "csv-sales-summary"
BROWSER_TASK = REPO / "catalog" / "browser" / "shop-express-skillets"
SITE_READY = "for i in $(seq 400); do forge-site-ready 2>/dev/null && exit 0; sleep 0.05; done; exit 1"
FIRST_SCREENSHOT = (
    "PYTHONPATH=/opt/forge/browser/site-packages:/opt/forge/browser python3 -c '"
    "import replay; from playwright.sync_api import sync_playwright\n"
    "with sync_playwright() as p:\n"
    "    b = p.chromium.launch(executable_path=replay.CHROMIUM, headless=True, args=replay.CHROMIUM_ARGS)\n"
    '    page = b.new_page(viewport=replay.VIEWPORT); page.goto("http://127.0.0.1:8080/")\n'
    '    page.screenshot(path="/tmp/first.png"); b.close()\''
)


def _start(task: Task, image: str, then: str | None) -> float:
    """Seconds from creating the sandbox until it is ready and `then` (if any) has succeeded."""
    spec = SandboxSpec(image=image, workdir=task.config.environment.workdir, task=task.name, role="bench")
    started = time.monotonic()
    with DockerSandbox(spec) as sandbox:
        if then is not None:
            done = sandbox.exec(then, user="agent")
            if not done.ok:
                raise SystemExit(f"{task.name}: {then[:40]}... failed: {done.stderr[-500:]}")
        return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--samples", type=int, default=1)
    parser.add_argument("--harness", default="", help="browser harnesses (default: every installable one)")
    args = parser.parse_args()
    client = docker_client()
    claw, browser = load_task(CLAW_TASK), load_task(BROWSER_TASK)
    images = {t.name: build_image(client, t).tag or "" for t in (claw, browser)}

    starts: dict[str, list[float]] = {
        "claw sandbox ready": [],
        "browser site ready": [],
        "+ first screenshot": [],
    }
    for _ in range(args.starts):  # interleaved: same conditions
        starts["claw sandbox ready"].append(_start(claw, images[claw.name], None))
        starts["browser site ready"].append(_start(browser, images[browser.name], SITE_READY))
        starts["+ first screenshot"].append(
            _start(browser, images[browser.name], f"({SITE_READY}) && {FIRST_SCREENSHOT}")
        )
    base = statistics.median(starts["claw sandbox ready"])
    print(f"Start-up, median of {args.starts} (2 cores):\n")
    print("| sandbox | seconds | / claw |\n|---|--:|--:|")
    for name, values in starts.items():
        print(f"| {name} | {statistics.median(values):.2f} | {statistics.median(values) / base:.2f}x |")

    wanted = [h for h in args.harness.split(",") if h] or [
        name for name in HARNESSES if "browser" in get_harness(name).domains
    ]
    runs: list[tuple[str, Task, str]] = [("forge-react", claw, "claw baseline")]
    for name in wanted:
        harness = get_harness(name)
        if (why := harness.unavailable_reason()) is not None:
            print(f"\n- {name}: not installable here ({why})")
            continue
        runs.append((name, browser, "browser"))
    rows: list[tuple[str, str, float, float]] = []
    failed: list[str] = []
    with (
        tempfile.TemporaryDirectory(prefix="bench-browser-") as tmp,
        ProxySession(OracleEngine([CLAW_TASK, BROWSER_TASK]), Path(tmp) / "proxy") as proxy,
    ):
        for name, task, kind in runs:
            harness = get_harness(name)
            bundle = build_bundle(harness)
            totals, harness_secs = [], []
            for sample in range(args.samples):
                result = run_rollout(
                    task, images[task.name], harness, bundle, proxy,
                    model="forge-policy", logs_root=Path(tmp) / "logs", sample=sample,
                )  # fmt: skip
                if result.reward != 1.0:
                    failed.append(
                        f"{name} on {task.name}: {result.status} {result.error_class} {result.error}"
                    )
                    continue
                totals.append(result.timings["total_sec"])
                harness_secs.append(result.timings.get("agent_sec", 0.0))
            if totals:
                rows.append((name, kind, statistics.median(totals), statistics.median(harness_secs)))
    print(f"\nOne oracle rollout ({task_names(claw, browser)}), median of {args.samples}:\n")
    print("| harness | task | total s | harness s | total / claw baseline |\n|---|---|--:|--:|--:|")
    baseline = next((total for name, kind, total, _ in rows if kind == "claw baseline"), None)
    for name, kind, total, harness_sec in rows:
        ratio = f"{total / baseline:.2f}x" if baseline else "-"
        print(f"| {name} | {kind} | {total:.1f} | {harness_sec:.1f} | {ratio} |")
    for line in failed:
        print(f"- not scored 1, left out: {line}")


def task_names(*tasks: Task) -> str:
    return ", ".join(t.name for t in tasks)


if __name__ == "__main__":
    main()
