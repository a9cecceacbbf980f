"""Find and remove leftover OpenForge objects on a cluster: the k8s crash watchdog and `forge-env gc
--backend k8s`.

python -m envs.k8s_reaper watch --namespace NS --parent NAME   # on EOF of stdin, deletes the parent
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from typing import Any

from kubernetes import client as k8s
from kubernetes.client.exceptions import ApiException
from urllib3.exceptions import HTTPError

from envs import labels
from envs.errors import ClusterError
from envs.k8s_manifests import label_value
from envs.k8s_run import DRIVER_LABEL, KubernetesSettings, api_client, call

WATCH_RETRY_SEC = 300.0


def remove_objects(
    config: KubernetesSettings, run: str | None = None, driver: str | None = None, include_all: bool = False
) -> dict[str, list[str]]:
    """Delete the run parents, pods and network policies labelled ours in the namespace: those of one
    training run (`openforge.run`), one driver, or all of them (`include_all`). Returns the names by kind."""
    if not (run or driver or include_all):
        raise ClusterError("say which objects to remove: a run, a driver, or all")
    selector = f"{labels.MANAGED}=true"
    if run:
        selector += f",{labels.RUN}={label_value(run)}"
    if driver:
        selector += f",{DRIVER_LABEL}={driver}"
    api = api_client(config)
    core, networking = k8s.CoreV1Api(api), k8s.NetworkingV1Api(api)
    ns = config.namespace
    removed: dict[str, list[str]] = {"pods": [], "networkpolicies": [], "configmaps": []}
    pods = call("list sandbox pods", lambda: core.list_namespaced_pod(ns, label_selector=selector))
    for name in _names(pods.items):
        if _delete(lambda name=name: core.delete_namespaced_pod(name, ns, grace_period_seconds=0)):
            removed["pods"].append(name)
    if run and not (driver or include_all):
        return removed  # parents and policies are per driver: another run's pods may share them
    policies = call(
        "list network policies",
        lambda: networking.list_namespaced_network_policy(ns, label_selector=selector),
    )
    for name in _names(policies.items):
        if _delete(lambda name=name: networking.delete_namespaced_network_policy(name, ns)):
            removed["networkpolicies"].append(name)
    parents = call(
        "list run parents",
        lambda: core.list_namespaced_config_map(ns, label_selector=selector + ",openforge.parent=true"),
    )
    for name in _names(parents.items):
        if _delete(
            lambda name=name: core.delete_namespaced_config_map(name, ns, propagation_policy="Background")
        ):
            removed["configmaps"].append(name)
    return removed


def _names(items: list[Any]) -> list[str]:
    return [item.metadata.name for item in items if item.metadata is not None and item.metadata.name]


def _delete(fn: object) -> bool:
    try:
        call("delete", fn)  # type: ignore[arg-type]
    except ClusterError as exc:
        if exc.status == 404:
            return False
        raise
    return True


def watch(config: KubernetesSettings, parent: str) -> int:
    """Block until stdin closes (our parent process ended), then delete `parent`, retrying a while."""
    with contextlib.suppress(OSError):
        while sys.stdin.buffer.read(65536):
            pass
    api = api_client(config)
    core = k8s.CoreV1Api(api)
    deadline = time.monotonic() + WATCH_RETRY_SEC
    while True:
        try:
            core.delete_namespaced_config_map(parent, config.namespace, propagation_policy="Background")
            return 0
        except ApiException as exc:
            if exc.status == 404:
                return 0
        except (OSError, HTTPError):  # the API server is away for now: tried again
            pass
        if time.monotonic() > deadline:
            return 1
        time.sleep(2.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m envs.k8s_reaper")
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("watch")
    w.add_argument("--namespace", required=True)
    w.add_argument("--parent", required=True)
    w.add_argument("--kubeconfig")
    w.add_argument("--context")
    args = parser.parse_args(argv)
    config = KubernetesSettings(
        namespace=args.namespace, kubeconfig=args.kubeconfig, context=args.context, watchdog=False
    )
    return watch(config, args.parent)


if __name__ == "__main__":
    sys.exit(main())
