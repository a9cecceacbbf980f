#!/bin/sh
# killtree.sh PID: stop, then kill, PID and every process descended from it or sharing its process
# group or session. Used at an exec timeout so the command's whole tree dies and the sandbox lives on.
# POSIX sh and /proc only, so it works in any image.
root=$1
[ -n "$root" ] || exit 0
found=" $root "
kill -STOP "$root" 2>/dev/null
changed=1
while [ "$changed" = 1 ]; do
    changed=0
    for stat in /proc/[0-9]*/stat; do
        pid=${stat#/proc/}
        pid=${pid%/stat}
        case "$found" in *" $pid "*) continue ;; esac
        line=$(cat "$stat" 2>/dev/null) || continue
        rest=${line##*) }
        # shellcheck disable=SC2086
        set -- $rest
        ppid=$2 pgrp=$3 sid=$4
        case "$found" in
            *" $ppid "*) ;;
            *) [ "$pgrp" = "$root" ] || [ "$sid" = "$root" ] || continue ;;
        esac
        kill -STOP "$pid" 2>/dev/null
        found="$found$pid "
        changed=1
    done
done
# shellcheck disable=SC2086
kill -KILL $found 2>/dev/null
exit 0
