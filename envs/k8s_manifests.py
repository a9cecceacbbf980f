"""The Kubernetes objects the k8s backend creates, rendered as plain manifests (dicts).

Kept apart from the code that sends them so every manifest can be checked against the official schemas
of a pinned Kubernetes version (tests/envs/test_k8s_manifests.py) without a cluster.

A sandbox is one pod of two containers sharing one PID namespace:

- `task`: the task image running our init (`envs/sandbox_files/init.sh`, given as the image's CMD so its
  ENTRYPOINT stays), where the agent, the solution and the tests run;
- `warden`: the same image again, with a read-only root filesystem and no way for the agent to exec into
  it. Everything that must hold against the agent is done from here: it kills the agent's processes
  (it sees them through the shared PID namespace), reads and writes the task container's files through
  `/proc/<init>/root` with its own untouched tools, and compares the task container's filesystem with
  its own pristine copy of the image. The agent's userland is never used for any of it.

Every object carries the `openforge.*` labels and is owned (ownerReference) by the run's parent
ConfigMap, so deleting the parent deletes the run.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from envs import labels

SANDBOX_LABEL = "openforge.sandbox"
"""The pod's own name, as a label (network policies and gc select by it)."""
TASK_CONTAINER = "task"
WARDEN_CONTAINER = "warden"
INIT_MARKER = "forge-init"
"""The last argument of the task container's init: how the warden finds its pid."""
PRELOAD_MARKER = "/run/forge-preload/done"
"""A sandbox with preloaded archives waits for this file before its init runs (the warden makes it once
the archives are unpacked)."""
INIT_SCRIPT = (Path(__file__).parent / "sandbox_files" / "init.sh").read_text()
TASK_CAPABILITIES = [
    "AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "NET_BIND_SERVICE", "SETFCAP",
    "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT",
]  # fmt: skip
"""Docker's default capabilities without NET_RAW and MKNOD, all within Pod Security's `baseline`."""
WARDEN_CAPABILITIES = [*TASK_CAPABILITIES, "MKNOD"]
"""The task's set and one more: the kernel lets the warden read `/proc/<pid>/root` of a task process only
when that process holds no capability the warden lacks, and lets a task process (root too) open the
warden's `/proc/<pid>/fd` only when the warden holds none that it lacks."""
WARDEN_RESOURCES = {"requests": {"cpu": "50m", "memory": "32Mi"}, "limits": {"cpu": "1", "memory": "256Mi"}}
_LABEL_VALUE = re.compile(r"[^A-Za-z0-9_.-]")
_NAME = re.compile(r"[^a-z0-9-]")


def label_value(value: str) -> str:
    """`value` made a valid label value: [A-Za-z0-9_.-], at most 63 characters, alphanumeric at both ends."""
    cleaned = _LABEL_VALUE.sub("-", value)[:63]
    return cleaned.strip("-_.")


def object_name(*parts: str, limit: int = 63) -> str:
    """A valid object name (RFC 1123 label) from `parts`."""
    name = _NAME.sub("-", "-".join(p for p in parts if p).lower())
    name = re.sub("-+", "-", name)[:limit].strip("-")
    return name or "forge"


def quantity_cpu(cpus: float) -> str:
    return f"{round(cpus * 1000)}m"


def parent_manifest(name: str, namespace: str, owner: str, run_labels: dict[str, str]) -> dict[str, Any]:
    """The run's parent object: every pod and policy of the run is owned by it."""
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "labels": {**run_labels, labels.MANAGED: "true", "openforge.parent": "true"},
            "annotations": {labels.OWNER: owner},
        },
        "data": {"owner": owner},
    }


def owner_reference(parent: dict[str, Any]) -> dict[str, Any]:
    meta = parent["metadata"]
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "name": meta["name"],
        "uid": meta["uid"],
        "blockOwnerDeletion": True,
    }


def pod_manifest(
    *,
    name: str,
    namespace: str,
    image: str,
    pod_labels: dict[str, str],
    owner_ref: dict[str, Any] | None,
    env: dict[str, str],
    workdir: str | None,
    cpus: float | None,
    memory_mb: int | None,
    storage_mb: int | None,
    deadline_sec: int,
    preload: bool,
    bundles: list[tuple[str, str]] | None = None,
    image_volumes: bool = False,
    runtime_class: str | None = None,
    image_pull_policy: str = "IfNotPresent",
    annotations: dict[str, str] | None = None,
    node_selector: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One sandbox's pod. `bundles` are (bundle image, mount path) pairs: each is copied by an init
    container into an emptyDir the task container mounts read-only, or with `image_volumes` mounted as
    an image volume (its /bundle, by subPath: beta and on by default from Kubernetes 1.35)."""
    resources: dict[str, dict[str, str]] = {"requests": {}, "limits": {}}
    if cpus:
        resources["requests"]["cpu"] = resources["limits"]["cpu"] = quantity_cpu(cpus)
    if memory_mb:
        resources["requests"]["memory"] = resources["limits"]["memory"] = f"{memory_mb}Mi"
    if storage_mb:
        resources["requests"]["ephemeral-storage"] = f"{storage_mb}Mi"
        resources["limits"]["ephemeral-storage"] = f"{storage_mb}Mi"
    init_command = INIT_SCRIPT
    if preload:
        init_command = (
            f"while [ ! -e {PRELOAD_MARKER} ]; do sleep 0.1; done\n" + INIT_SCRIPT
        )  # the warden unpacks the archives first, as an engine would before the start
    task_container: dict[str, Any] = {
        "name": TASK_CONTAINER,
        "image": image,
        "imagePullPolicy": image_pull_policy,
        "args": ["/bin/sh", "-c", init_command, INIT_MARKER],
        "env": [{"name": k, "value": v} for k, v in sorted(env.items())],
        "resources": {k: v for k, v in resources.items() if v},
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "privileged": False,
            "capabilities": {"drop": ["ALL"], "add": list(TASK_CAPABILITIES)},
        },
    }
    if workdir:
        task_container["workingDir"] = workdir
    warden: dict[str, Any] = {
        "name": WARDEN_CONTAINER,
        "image": image,
        "imagePullPolicy": image_pull_policy,
        "command": ["/bin/sh", "-c", "exec sleep 2147483647"],
        "resources": WARDEN_RESOURCES,
        "securityContext": {
            "readOnlyRootFilesystem": True,
            "allowPrivilegeEscalation": False,
            "privileged": False,
            "runAsUser": 0,
            "runAsGroup": 0,
            "capabilities": {"drop": ["ALL"], "add": list(WARDEN_CAPABILITIES)},
        },
    }
    volumes: list[dict[str, Any]] = []
    init_containers: list[dict[str, Any]] = []
    mounts: list[dict[str, Any]] = []
    for index, (bundle_image, target) in enumerate(bundles or []):
        volume = f"bundle-{index}"
        if image_volumes:  # the kubelet mounts the image itself: no copy, no init container
            volumes.append(
                {"name": volume, "image": {"reference": bundle_image, "pullPolicy": image_pull_policy}}
            )
            mounts.append({"name": volume, "mountPath": target, "subPath": "bundle", "readOnly": True})
            continue
        volumes.append({"name": volume, "emptyDir": {}})
        init_containers.append(
            {
                "name": f"bundle-{index}",
                "image": bundle_image,
                "imagePullPolicy": image_pull_policy,
                "command": ["/bin/sh", "-c", "cp -a /bundle/. /mnt/bundle/"],
                "volumeMounts": [{"name": volume, "mountPath": "/mnt/bundle"}],
                "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}},
            }
        )
        mounts.append({"name": volume, "mountPath": target, "readOnly": True})
    if mounts:
        task_container["volumeMounts"] = mounts
    spec: dict[str, Any] = {
        "restartPolicy": "Never",
        "shareProcessNamespace": True,
        "automountServiceAccountToken": False,
        "enableServiceLinks": False,
        "activeDeadlineSeconds": deadline_sec,
        "terminationGracePeriodSeconds": 0,
        "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
        "containers": [task_container, warden],
    }
    if init_containers:
        spec["initContainers"] = init_containers
    if volumes:
        spec["volumes"] = volumes
    if runtime_class:
        spec["runtimeClassName"] = runtime_class
    if node_selector:
        spec["nodeSelector"] = dict(node_selector)
    metadata: dict[str, Any] = {"name": name, "namespace": namespace, "labels": pod_labels}
    if annotations:
        metadata["annotations"] = annotations
    if owner_ref is not None:
        metadata["ownerReferences"] = [owner_ref]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec}


def deny_all_policy(
    name: str, namespace: str, run_labels: dict[str, str], owner_ref: dict[str, Any] | None
) -> dict[str, Any]:
    """No ingress and no egress for every pod of the run, whatever it does (its way to the model is the
    tunnel over the API, envs.k8s_tunnel, never the pod network)."""
    metadata: dict[str, Any] = {
        "name": name,
        "namespace": namespace,
        "labels": {**run_labels, labels.MANAGED: "true"},
    }
    if owner_ref is not None:
        metadata["ownerReferences"] = [owner_ref]
    spec: dict[str, Any] = {
        "podSelector": {"matchLabels": {labels.MANAGED: "true", **run_labels}},
        "policyTypes": ["Ingress", "Egress"],
        "ingress": [],
        "egress": [],
    }
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": metadata, "spec": spec}
