"""Resolving a registry's `module:Class` target, the one way every registry here does it.

Sandbox backends, harnesses, engines and trainers are named in registries of `module:Class` strings,
imported only when used, so an optional dependency (the kubernetes client, torch, veRL) is needed only by
the entry that uses it. A missing one is said as such, with the entry that needed it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from envs.errors import EnvsError


class PluginError(EnvsError):
    """A registry name or `module:Class` target that does not resolve."""


class PluginDependencyMissing(PluginError):
    """The entry's module needs a package that is not installed here."""

    def __init__(self, kind: str, name: str, target: str, missing: str) -> None:
        self.missing = missing
        super().__init__(
            f"{kind} {name!r} ({target}) needs the Python package {missing!r}, which is not installed "
            f"here (pip install {missing}, or the extra of OpenForge that brings it)"
        )


def load_plugin(name: str, registry: Mapping[str, str], kind: str) -> Any:
    """The object `registry[name]` names, or `name` itself read as `module:Class`.

    `kind` ("engine", "harness", ...) is how errors name what was asked for.
    """
    target = registry.get(name, name)
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        known = ", ".join(sorted(registry)) or "none"
        raise PluginError(f"unknown {kind} {name!r}; known: {known} (or give module:Class)")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing and missing != module_name.split(".")[0]:
            raise PluginDependencyMissing(kind, name, target, missing) from exc
        raise PluginError(f"{kind} {name!r}: no module {module_name!r} ({target})") from exc
    found = module
    for part in attr.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise PluginError(f"{kind} {name!r}: {module_name} has no {attr!r} ({target})") from None
    return found
