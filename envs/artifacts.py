"""Carrying the agent's work product into a fresh verifier sandbox.

With `[verifier] sandbox = "fresh"` the hidden tests run in a new container from the task image, so
nothing the agent did to the userland (a replaced interpreter, a start-up hook, a daemon) exists there.
What the tests need of the agent's work are its `[verifier] artifacts` (default: the working directory).
Each is read through the engine from the agent's sandbox (alive or not: an agent that stopped its init
still has its files read), checked member by member (names stay under the artifact; no devices, fifos or
extended attributes such as file capabilities; hard links only inside the archive; at most
`artifacts_max_mb` and MAX_MEMBERS entries) and packed into one archive that, unpacked at `/` before the
fresh sandbox starts, *replaces* each path there (a placeholder file first, so the image's own copy of a
folder does not survive under the agent's). Owners, modes, times and symlinks are kept.
"""

from __future__ import annotations

import posixpath
import tarfile
import tempfile
from pathlib import Path

from pydantic import BaseModel, Field

from envs.errors import ArchiveTooLarge, ArtifactsInvalid, ArtifactsTooLarge, SandboxError, TaskLoadError
from envs.sandbox import Sandbox
from envs.task import TASK_TOML, Task

MAX_MEMBERS = 200_000
"""More entries than this in the artifacts is ArtifactsTooLarge (a fork-bomb of files)."""
_KEPT_TYPES = (tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.DIRTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE)


class PackedArtifacts(BaseModel):
    """What went into the verifier's sandbox."""

    paths: list[str] = Field(default_factory=list)
    """Artifacts found and carried."""
    missing: list[str] = Field(default_factory=list)
    """Artifacts the agent's sandbox does not have (removed from the verifier's too)."""
    skipped: list[str] = Field(default_factory=list)
    """Members left out: devices and fifos."""
    bytes: int = 0
    members: int = 0


def artifact_paths(task: Task, workdir: str) -> list[str]:
    """The task's artifacts; the working directory (`workdir`: the task's, else the image's) when none
    are listed. A working directory of `/` cannot be the default: it would carry the whole userland."""
    listed = task.config.verifier.artifacts
    if listed is not None:
        return [posixpath.normpath(p) for p in listed]
    folder = posixpath.normpath(workdir or "/")
    if folder == "/":
        raise TaskLoadError(
            task.name,
            TASK_TOML,
            "the working directory is /, which cannot be carried into a fresh verifier sandbox; list the "
            "paths the tests read (or set [environment] workdir)",
            field="[verifier].artifacts",
        )
    return [folder]


def _check_name(member: tarfile.TarInfo, root: str, path: str) -> str:
    name = posixpath.normpath(member.name)
    if name.startswith("/") or name == ".." or name.startswith("../"):
        raise ArtifactsInvalid(f"artifact {path}: the archive entry {member.name!r} leaves the artifact")
    if name != root and not name.startswith(root + "/"):
        raise ArtifactsInvalid(f"artifact {path}: the archive entry {member.name!r} is not under {root!r}")
    return name


def _repack(raw: tarfile.TarFile, out: tarfile.TarFile, path: str, packed: PackedArtifacts, room: int) -> int:
    """Copy the checked members of `raw` (the engine's archive of `path`) into `out` under `path`'s
    parent; returns the bytes copied."""
    parent = posixpath.dirname(path).lstrip("/")
    root = posixpath.basename(path)
    names: set[str] = set()
    copied = 0
    for member in raw:
        packed.members += 1
        if packed.members > MAX_MEMBERS:
            raise ArtifactsTooLarge(f"the artifacts hold more than {MAX_MEMBERS} files")
        name = _check_name(member, root, path)
        if member.type not in _KEPT_TYPES:
            packed.skipped.append(posixpath.join("/", parent, name))
            continue
        info = tarfile.TarInfo(posixpath.join(parent, name))
        info.type, info.mode, info.mtime = member.type, member.mode & 0o7777, member.mtime
        info.uid, info.gid, info.uname, info.gname = member.uid, member.gid, member.uname, member.gname
        if member.issym():
            info.linkname = member.linkname
        elif member.islnk():
            target = posixpath.normpath(member.linkname)
            if target not in names:
                raise ArtifactsInvalid(f"artifact {path}: hard link {member.name!r} points outside it")
            info.linkname = posixpath.join(parent, target)
        names.add(name)
        if member.isreg():
            copied += member.size
            if copied > room:
                raise ArtifactsTooLarge(f"the artifacts are more than {room} bytes")
            info.size = member.size
            out.addfile(info, raw.extractfile(member))
        else:
            out.addfile(info)
    return copied


def pack_artifacts(source: Sandbox, paths: list[str], max_bytes: int, dest: Path) -> PackedArtifacts:
    """Read `paths` out of `source` through the engine into one archive at `dest` (see the module)."""
    packed = PackedArtifacts()
    with tarfile.open(dest, "w", format=tarfile.GNU_FORMAT) as out:
        for path in paths:
            with tempfile.TemporaryFile() as buf:
                try:
                    present = source.export(path, buf, max_bytes - packed.bytes)
                except ArchiveTooLarge as exc:
                    raise ArtifactsTooLarge(
                        f"artifact {path} is more than the {max_bytes // (1024 * 1024)} MiB of "
                        "[verifier] artifacts_max_mb"
                    ) from exc
                except SandboxError as exc:
                    raise ArtifactsInvalid(f"artifact {path} cannot be read: {exc}") from exc
                if not present:
                    packed.missing.append(path)
                    continue
                placeholder = tarfile.TarInfo(path.lstrip("/"))  # replaces the image's copy of `path`
                out.addfile(placeholder)
                buf.seek(0)
                try:
                    with tarfile.open(fileobj=buf, mode="r|") as raw:
                        packed.bytes += _repack(raw, out, path, packed, max_bytes - packed.bytes)
                except tarfile.TarError as exc:
                    raise ArtifactsInvalid(f"artifact {path}: unreadable archive: {exc}") from exc
            packed.paths.append(path)
    return packed
