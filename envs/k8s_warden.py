"""What the k8s backend runs in a sandbox's warden container (see envs.k8s_manifests), as /bin/sh scripts.

The warden shares the pod's PID namespace and holds a read-only copy of the image, so its tools are the
image's own, untouched by the agent. A process is the task container's when its cgroup is not the
warden's (the agent cannot move itself out of its cgroup); it is named by pid and start time, so a
recycled pid is never mistaken for a spared one. The task container's files are reached through
`/proc/<init>/root`, where <init> is the task container's init, found once at start (before any agent
ran) by the marker its command line ends with.

Every script takes its inputs as positional arguments (never spliced into the script text) and answers
on stdout; the sweeps that kill read /proc with the shell's own `read` (no process per entry, so a sweep
keeps up with a fork bomb).
"""

from __future__ import annotations

from envs.k8s_manifests import INIT_MARKER

SH = "/bin/sh"

PROCESSES = r"""
read -r me < /proc/self/cgroup
read -r up _ < /proc/uptime
echo "uptime $up"
echo "clk_tck $(getconf CLK_TCK 2>/dev/null || echo 100)"
for d in /proc/[0-9]*; do
    p=${d#/proc/}
    read -r cg < "$d/cgroup" 2>/dev/null || continue
    [ "$cg" = "$me" ] && continue
    read -r stat < "$d/stat" 2>/dev/null || continue
    rest=${stat##*) }
    set -- $rest
    case "$1" in Z|X) continue ;; esac
    last=$(tr '\0' '\n' < "$d/cmdline" 2>/dev/null | tail -n 1)
    echo "proc $p ${20} $last"
done
"""
"""Lists the task container's processes as `proc <pid> <start ticks> <last argv word>`, and the pod's
uptime and clock tick rate (to turn a moment on our clock into start ticks)."""

KILL = r"""
spare=" $1 "
since=$2
read -r me < /proc/self/cgroup
sweep() {  # $1 <pid> <state> for every task-container process alive, not spared, started since $since
    action=$1
    found=0
    for d in /proc/[0-9]*; do
        p=${d#/proc/}
        read -r cg < "$d/cgroup" 2>/dev/null || continue
        [ "$cg" = "$me" ] && continue
        read -r stat < "$d/stat" 2>/dev/null || continue
        rest=${stat##*) }
        set -- $rest
        case "$1" in Z|X) continue ;; esac
        case "$spare" in *" $p:${20} "*) continue ;; esac
        [ "${20}" -lt "$since" ] && continue
        "$action" "$p" "$1"
    done
}
stopped=" "
stop_it() {
    # stopped already: T, t (a traced process stops in a tracing stop), or D (in the kernel, where the
    # pending STOP is taken before it runs another instruction of its own)
    case "$stopped" in *" $1 "*) case "$2" in T|t|D) return ;; esac ;; esac
    if kill -STOP "$1" 2>/dev/null; then
        case "$stopped" in *" $1 "*) ;; *) stopped="$stopped$1 " ;; esac
        found=1
    fi
}
n=0
kill_it() {
    kill -KILL "$1" 2>/dev/null && { n=$((n + 1)); found=1; }
}
pace() {  # sweeps are fast: past 50, each waits a little, so a busy host's scheduler delivers the signals
    round=$((round + 1))
    [ "$round" -gt 50 ] && sleep 0.05
    [ "$round" -lt 1000 ]
}
round=0
while sweep stop_it; [ "$found" = 1 ]; do
    pace || { echo "processes still starting after $round sweeps" >&2; exit 9; }
done
for p in $stopped; do kill -KILL "$p" 2>/dev/null && n=$((n + 1)); done
round=0
while sweep kill_it; [ "$found" = 1 ]; do
    pace || { echo "processes still alive after $round kill sweeps" >&2; exit 9; }
done
echo "$n"
"""
"""Stops (SIGSTOP, sweep after sweep, until a sweep finds nothing new: a stopped process forks no more)
then SIGKILLs every task-container process that is not spared ($1: `pid:start` words) and started at or
after $2 (start ticks; 0 for all), and goes on killing until a sweep finds none alive (one continued by
another between two sweeps, and its children, included). Prints how many were killed; fails when they
keep coming for 1,000 sweeps (about 50 s: past the 50th, each waits 50 ms)."""

_ROOT = r"""
init=$1
shift
root=/proc/$init/root
[ -d "$root/" ] || { echo "the sandbox's init ($init) is gone" >&2; exit 70; }
no_linked_parent() {
    set -f
    parent=$(dirname -- "$1")
    at=$root
    oldifs=$IFS
    IFS=/
    for part in $parent; do
        [ -n "$part" ] || continue
        at=$at/$part
        if [ -L "$at" ]; then IFS=$oldifs; echo "$1: $at is a symbolic link" >&2; exit 5; fi
    done
    IFS=$oldifs
}
"""
"""Every script's start: $1 is the init's pid; the task container's root is $root. A path's parent
folders must not be links: through /proc/<init>/root an absolute link would lead into the warden's own
filesystem (exit 5)."""

EXPORT = (
    _ROOT
    + r"""
path=$1
no_linked_parent "$path"
[ -e "$root$path" ] || [ -L "$root$path" ] || exit 3
dir=$(dirname -- "$path")
base=$(basename -- "$path")
tar -C "$root$dir" -cf - --numeric-owner -- "$base"
code=$?
[ "$code" = 1 ] && exit 0
exit "$code"
"""
)
"""Writes a tar archive of $2 (in the task container) to stdout, symlinks kept as links; exit 3 when
there is no such path."""

MAKE_DIR = (
    _ROOT
    + r"""
path=$1
no_linked_parent "$path"
rm -rf -- "$root$path" && mkdir -p -- "$root$path" && chown "$2:$3" "$root$path" && chmod "$4" "$root$path"
"""
)
"""Makes $2 an empty folder owned by $3:$4 with mode $5, replacing whatever was there."""

UNPACK = (
    _ROOT
    + r"""
listed=$1
cd "$root/" || exit 70
dd bs=1 count="$listed" 2>/dev/null | while IFS= read -r name; do
    if [ -d "./$name" ] && [ ! -L "./$name" ]; then rm -rf -- "./$name"; fi
done
tar -xf - --same-owner --same-permissions
"""
)
"""Unpacks a tar archive at the task container's `/` as the Docker engine does: a file, link or folder
replaces whatever is at its path, except that a folder merges into a folder. Stdin is first $2 bytes of
the archive's non-folder entry names, one per line (each folder at such a path is removed first: GNU tar
would refuse it, or with --recursive-unlink also empty every folder that merges), then the archive."""

MARK_PRELOADED = (
    _ROOT
    + r"""
mkdir -p -- "$root$(dirname -- "$1")" && : > "$root$1"
"""
)

WAIT_READY = (
    _ROOT
    + r"""
i=0
while [ ! -e "$root/run/forge/ready" ]; do
    if [ -s "$root/run/forge/error" ]; then cat "$root/run/forge/error" >&2; exit 4; fi
    [ -d "$root/" ] || { echo "the sandbox's init exited" >&2; exit 5; }
    i=$((i + 1))
    [ "$i" -ge "$1" ] && { echo "not ready after $1 checks" >&2; exit 6; }
    sleep 0.1
done
if [ -s "$root/run/forge/error" ]; then cat "$root/run/forge/error" >&2; exit 4; fi
"""
)
"""Waits (at most $2 checks, 0.1 s apart) for the init's ready marker."""

DEFAULTS = (
    _ROOT
    + r"""
echo "cwd $(readlink "/proc/$init/cwd")"
tr '\0' '\n' < "/proc/$init/environ"
"""
)
"""The init's working directory and environment (the image's WORKDIR and ENV with the pod's on top)."""

LISTING = r"""
find "$1" -xdev -mindepth 1 -printf '%y %m %U %G %s %T@ %C@\0%P\0%l\0'
"""
"""Three NUL-ended fields per entry below $1 (a name or a link target may hold any byte but NUL): type,
mode, owner, size, mtime, ctime; the path relative to $1; the link target.
Run on the warden's own `/` (the image as built) and on the task container's root: the difference is
the task container's change to its image (a file the agent wrote is copied up: its ctime, which no
caller of utime can set, moves)."""


def init_pid(processes: list[tuple[int, int, str]]) -> int | None:
    """The task container's init among `processes` (pid, start ticks, last argv word)."""
    found = [pid for pid, _, last in processes if last == INIT_MARKER]
    return min(found) if found else None
