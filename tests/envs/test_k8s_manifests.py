"""Every manifest the k8s backend renders is valid against the official schemas of a pinned Kubernetes
version (kubernetes-validate, strict: an unknown field fails), and says what the backend promises:
no service account token, no privilege escalation, dropped capabilities, a read-only warden, owners."""

from __future__ import annotations

from typing import Any

import kubernetes_validate
import pytest

from envs.k8s_manifests import (
    TASK_CAPABILITIES,
    deny_all_policy,
    label_value,
    object_name,
    owner_reference,
    parent_manifest,
    pod_manifest,
)

KUBERNETES_VERSION = "1.35.0"
"""The schemas checked against: image volumes are beta and on by default from 1.35."""
OWNER = "buildhost:4242:abcd1234"
RUN_LABELS = {"openforge.driver": "0123456789"}


def _parent() -> dict[str, Any]:
    parent = parent_manifest("forge-run-0123456789", "forge", OWNER, RUN_LABELS)
    parent["metadata"]["uid"] = "6b1d0e8e-0000-4000-8000-000000000001"
    return parent


def _pod(**overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = dict(
        name="forge-csv-sales-summary-0a1b2c3d4e",
        namespace="forge",
        image="registry.example/openforge/task-csv-sales-summary:0123456789abcdef",
        pod_labels={"openforge.managed": "true", "openforge.task": "csv-sales-summary", **RUN_LABELS},
        owner_ref=owner_reference(_parent()),
        env={"LANG": "C.UTF-8"},
        workdir="/app",
        cpus=1.5,
        memory_mb=2048,
        storage_mb=4096,
        deadline_sec=21600,
        preload=False,
    )
    values.update(overrides)
    return pod_manifest(**values)


def _valid(manifest: dict[str, Any]) -> None:
    kubernetes_validate.validate(manifest, KUBERNETES_VERSION, strict=True)


def test_every_manifest_is_valid() -> None:
    parent = _parent()
    ref = owner_reference(parent)
    _valid(parent)
    _valid(_pod())
    _valid(_pod(preload=True, runtime_class="gvisor", node_selector={"pool": "sandboxes"}))
    _valid(_pod(bundles=[("registry.example/openforge/bundle-codex:abc", "/opt/forge/harness")]))
    _valid(
        _pod(
            bundles=[("registry.example/openforge/bundle:codex-1", "/opt/forge/harness/codex")],
            image_volumes=True,
        )
    )
    _valid(_pod(cpus=None, memory_mb=None, storage_mb=None, workdir=None, env={}))
    _valid(deny_all_policy("forge-run-0123456789-deny", "forge", RUN_LABELS, ref))


def test_the_validator_catches_a_broken_manifest() -> None:
    """The check above can fail: a misspelt field and a wrong type are refused."""
    pod = _pod()
    pod["spec"]["containers"][0]["securityContext"]["allowPrivilegeEscalatio"] = False
    with pytest.raises(kubernetes_validate.ValidationError):
        _valid(pod)
    pod = _pod()
    pod["spec"]["activeDeadlineSeconds"] = "soon"
    with pytest.raises(kubernetes_validate.ValidationError):
        _valid(pod)


def test_pod_hardening() -> None:
    spec = _pod(runtime_class="kata")["spec"]
    assert spec["automountServiceAccountToken"] is False
    assert spec["enableServiceLinks"] is False
    assert spec["shareProcessNamespace"] is True
    assert spec["restartPolicy"] == "Never"
    assert spec["activeDeadlineSeconds"] == 21600
    assert spec["runtimeClassName"] == "kata"
    assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    task, warden = spec["containers"]
    for container in (task, warden):
        context = container["securityContext"]
        assert context["allowPrivilegeEscalation"] is False and context["privileged"] is False
        assert context["capabilities"]["drop"] == ["ALL"]
        assert (
            "NET_RAW" not in context["capabilities"]["add"]
            and "SYS_ADMIN" not in context["capabilities"]["add"]
        )
    assert warden["securityContext"]["readOnlyRootFilesystem"] is True
    assert warden["image"] == task["image"]  # the pristine copy the diff compares against
    assert task["resources"]["limits"] == {"cpu": "1500m", "memory": "2048Mi", "ephemeral-storage": "4096Mi"}
    assert task["resources"]["requests"] == task["resources"]["limits"]
    assert task["args"][-1] == "forge-init" and "command" not in task  # the image's ENTRYPOINT stays
    assert set(task["securityContext"]["capabilities"]["add"]) == set(TASK_CAPABILITIES)


def test_bundles_copied_or_mounted_as_images() -> None:
    bundle = ("registry.example/openforge/bundle:codex-1", "/opt/forge/harness/codex")
    copied = _pod(bundles=[bundle])["spec"]
    (init,) = copied["initContainers"]
    assert init["image"] == bundle[0] and copied["volumes"] == [{"name": "bundle-0", "emptyDir": {}}]
    assert copied["containers"][0]["volumeMounts"] == [
        {"name": "bundle-0", "mountPath": bundle[1], "readOnly": True}
    ]
    mounted = _pod(bundles=[bundle], image_volumes=True)["spec"]
    assert "initContainers" not in mounted
    assert mounted["volumes"] == [
        {"name": "bundle-0", "image": {"reference": bundle[0], "pullPolicy": "IfNotPresent"}}
    ]
    assert mounted["containers"][0]["volumeMounts"] == [
        {"name": "bundle-0", "mountPath": bundle[1], "subPath": "bundle", "readOnly": True}
    ]


def test_every_object_is_owned_by_the_run_parent() -> None:
    parent = _parent()
    ref = owner_reference(parent)
    assert ref["uid"] == parent["metadata"]["uid"] and ref["kind"] == "ConfigMap"
    assert _pod()["metadata"]["ownerReferences"] == [ref]
    assert deny_all_policy("d", "forge", RUN_LABELS, ref)["metadata"]["ownerReferences"] == [ref]


def test_the_run_has_no_network() -> None:
    ref = owner_reference(_parent())
    deny = deny_all_policy("d", "forge", RUN_LABELS, ref)["spec"]
    assert deny["policyTypes"] == ["Ingress", "Egress"] and deny["egress"] == [] and deny["ingress"] == []
    assert deny["podSelector"]["matchLabels"] == {"openforge.managed": "true", **RUN_LABELS}


def test_names_and_label_values() -> None:
    assert label_value(OWNER) == "buildhost-4242-abcd1234"
    assert len(label_value("x" * 100)) == 63
    assert label_value("-a_b.") == "a_b"
    assert object_name("forge", "Sales_Summary", "ABC") == "forge-sales-summary-abc"
    assert len(object_name("forge", "y" * 100)) <= 63
