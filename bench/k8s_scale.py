"""How the k8s backend's driver side scales: N sandbox pods created, run and deleted against an emulated
API server with injected latency, against a polling driver measured in the same run.

The API server is tests/envs/k8s_docker_api.py in `simulate` mode (pods go Running at once, no
containers), in its own process so that the driver's CPU is the driver's alone; every request waits
`--latency-ms` before it is answered, overlapping as on a real server. Two drivers, each over N pods with
`--workers` threads:

    baseline    the official client, create, then GET the pod every --poll-ms until it runs, delete
    backend     KubernetesSandbox.launch (bounded start-ups, one watch per pod, 429 back-pressure) and stop

Prints, for each: pods per second to running, API requests and bytes per pod (counted by the server), the
driver's CPU per pod, and the ratios. The execs of a real start and of the rollout itself depend on the
harness, not on the control plane: `--rollouts N` measures them apart, N oracle rollouts of forge-react on
catalog/claw's csv-sales-summary through `forge-train rollout`, on local Docker (the baseline) and with
`--backend k8s` against the same API server running real containers: seconds per rollout, and the API
requests and bytes per rollout by kind. Pods take
`--start-ms` to run once created (a kubelet's start of cached images). Run from the repository root:

    .venv/bin/python -m bench.k8s_scale [--pods 1000] [--latency-ms 20] [--start-ms 2000] [--workers 64]
    .venv/bin/python -m bench.k8s_scale --rollouts 8
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.connection
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kubernetes import client as k8s

NAMESPACE = "forge-bench"
IMAGE = "openforge/bench:0"


def _serve(
    latency_sec: float, start_sec: float, kubeconfig: str, conn: multiprocessing.connection.Connection
) -> None:
    """The emulated API server's process: up until told, then its request counts."""
    from tests.envs.k8s_docker_api import DockerKubeApi

    with DockerKubeApi(simulate=True, latency_sec=latency_sec, start_delay_sec=start_sec) as api:
        api.write_kubeconfig(Path(kubeconfig), NAMESPACE)
        conn.send("ready")
        while True:
            command = conn.recv()
            if command == "stats":
                conn.send({k: (v.count, v.bytes_in + v.bytes_out) for k, v in api.stats().items()})
                api.reset_stats()
            else:
                return


@dataclass
class Measured:
    name: str
    seconds_to_running: float
    total_seconds: float
    requests_per_pod: float
    bytes_per_pod: float
    cpu_ms_per_pod: float
    failures: int


def _measure(
    name: str,
    pods: int,
    workers: int,
    one: Callable[[int], None],
    server: multiprocessing.connection.Connection,
) -> Measured:
    running: list[float] = []
    failures = 0
    lock = threading.Lock()

    def work(i: int) -> None:
        nonlocal failures
        try:
            one(i)
        except Exception:
            with lock:
                failures += 1
            return
        with lock:
            running.append(time.perf_counter())

    server.send("stats")
    server.recv()  # resets the counts
    cpu = time.process_time()
    started = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(work, range(pods)))
    total = time.perf_counter() - started
    cpu = time.process_time() - cpu
    server.send("stats")
    stats: dict[str, tuple[int, int]] = server.recv()
    requests = sum(count for count, _ in stats.values())
    size = sum(b for _, b in stats.values())
    return Measured(
        name=name,
        seconds_to_running=(max(running) - started) if running else float("nan"),
        total_seconds=total,
        requests_per_pod=requests / pods,
        bytes_per_pod=size / pods,
        cpu_ms_per_pod=cpu * 1000 / pods,
        failures=failures,
    )


def _pod(name: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": NAMESPACE, "labels": {"openforge.managed": "true"}},
        "spec": {
            "restartPolicy": "Never",
            "containers": [{"name": "task", "image": IMAGE}, {"name": "warden", "image": IMAGE}],
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pods", type=int, default=1000)
    parser.add_argument("--latency-ms", type=float, default=20.0, help="per API request (default 20)")
    parser.add_argument("--workers", type=int, default=64, help="driver threads (default 64)")
    parser.add_argument(
        "--start-ms", type=float, default=2000.0, help="what a pod takes to run once created (default 2000)"
    )
    parser.add_argument(
        "--poll-ms", type=float, default=500.0, help="the baseline's GET interval (default 500)"
    )
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--rollouts", type=int, default=0, help="measure N real rollouts instead (see above)")
    args = parser.parse_args(argv)
    if args.rollouts:
        return _rollouts(args.rollouts)

    from envs.k8s_run import KubernetesRun, KubernetesSettings
    from envs.k8s_sandbox import KubernetesSandbox
    from envs.sandbox import SandboxSpec

    kubeconfig = Path(tempfile.mkdtemp(prefix="forge-bench-")) / "config"
    ours, theirs = multiprocessing.get_context("spawn").Pipe()
    server = multiprocessing.get_context("spawn").Process(
        target=_serve,
        args=(args.latency_ms / 1000, args.start_ms / 1000, str(kubeconfig), theirs),
        daemon=True,
    )
    server.start()
    if ours.recv() != "ready":
        raise SystemExit("the emulated API server did not start")
    try:
        settings = KubernetesSettings(
            namespace=NAMESPACE, kubeconfig=str(kubeconfig), watchdog=False, max_inflight=args.workers
        )
        run = KubernetesRun(settings)
        run.owner_ref()  # the run's parent and policy, once, before either driver is timed
        core = k8s.CoreV1Api(run.api)
        poll = args.poll_ms / 1000

        def baseline(i: int) -> None:
            name = f"poll-{i}-{uuid.uuid4().hex[:6]}"
            core.create_namespaced_pod(NAMESPACE, _pod(name))  # type: ignore[arg-type]
            while True:
                pod = core.read_namespaced_pod(name, NAMESPACE)
                if pod.status is not None and pod.status.phase == "Running":
                    break
                time.sleep(poll)
            core.delete_namespaced_pod(name, NAMESPACE, grace_period_seconds=0)

        def backend(i: int) -> None:
            box = KubernetesSandbox(SandboxSpec(image=IMAGE, task=f"bench-{i}"), run=run)
            try:
                box.launch(box.manifest())
            finally:
                box.stop()

        results = [
            _measure("baseline (create, poll, delete)", args.pods, args.workers, baseline, ours),
            _measure("backend (create, watch, delete)", args.pods, args.workers, backend, ours),
        ]
        run.close()
    finally:
        ours.send("stop")
        server.join(30)

    base = results[0]
    header = (
        "driver",
        "pods/s to running",
        "s to all running",
        "API requests/pod",
        "KB/pod",
        "driver CPU ms/pod",
    )
    rows = [
        (
            r.name + (f" ({r.failures} failed)" if r.failures else ""),
            f"{args.pods / r.seconds_to_running:.0f} ({base.seconds_to_running / r.seconds_to_running:.2f}x)",
            f"{r.seconds_to_running:.1f}",
            f"{r.requests_per_pod:.2f} ({r.requests_per_pod / base.requests_per_pod:.2f}x)",
            f"{r.bytes_per_pod / 1024:.1f} ({r.bytes_per_pod / base.bytes_per_pod:.2f}x)",
            f"{r.cpu_ms_per_pod:.1f} ({r.cpu_ms_per_pod / base.cpu_ms_per_pod:.2f}x)",
        )
        for r in results
    ]
    print(
        f"{args.pods} pods, {args.latency_ms:g} ms per API request, {args.start_ms:g} ms for a pod to run, "
        f"{args.workers} driver threads, baseline polls every {args.poll_ms:g} ms"
    )
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
        print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
        for row in rows:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    return 0


def _rollouts(n: int) -> int:
    import os
    import subprocess
    import sys

    from tests.envs.k8s_docker_api import DockerKubeApi

    forge_train = str(Path(sys.executable).with_name("forge-train"))
    base = ["rollout", "--task", "csv-sales-summary", "-n", str(n), "--concurrency", "2"]
    env = {**os.environ, "COLUMNS": "200"}
    work = Path(tempfile.mkdtemp(prefix="forge-bench-"))

    def timed(*extra: str) -> float:
        run_dir = work / f"run-{uuid.uuid4().hex[:6]}"
        started = time.perf_counter()
        done = subprocess.run(
            [forge_train, *base, "--run-dir", str(run_dir), *extra], capture_output=True, text=True, env=env
        )
        if done.returncode != 0:
            raise SystemExit(
                f"forge-train rollout {' '.join(extra)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
            )
        lines = (run_dir / "results.jsonl").read_text().splitlines()
        rewards = [json.loads(line)["reward"] for line in lines]
        if rewards != [1.0] * n:
            raise SystemExit(f"not every rollout scored 1: {rewards}")
        return time.perf_counter() - started

    timed()  # images and bundles built, and the bundle image made, outside the timing
    docker_sec = timed()
    with DockerKubeApi() as api:
        kubeconfig = api.write_kubeconfig(work / "kubeconfig", NAMESPACE)
        k8s_args = ("--backend", "k8s", "--kubeconfig", str(kubeconfig), "--namespace", NAMESPACE)
        timed(*k8s_args)  # the bundle image, made once
        api.reset_stats()
        k8s_sec = timed(*k8s_args)
        stats = api.stats()
    print(f"{n} oracle rollouts of forge-react on csv-sales-summary, 2 at a time")
    print(f"local Docker: {docker_sec / n:.2f} s per rollout (1.00x)")
    print(f"k8s (pods as real containers): {k8s_sec / n:.2f} s per rollout ({k8s_sec / docker_sec:.2f}x)")
    print("API requests and KB per rollout, by kind:")
    for kind, stat in sorted(stats.items()):
        print(f"  {kind:24} {stat.count / n:6.1f}  {(stat.bytes_in + stat.bytes_out) / 1024 / n:8.1f} KB")
    total = sum(stat.count for stat in stats.values())
    size = sum(stat.bytes_in + stat.bytes_out for stat in stats.values())
    print(f"  {'all':24} {total / n:6.1f}  {size / 1024 / n:8.1f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
