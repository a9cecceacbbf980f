#!/bin/sh
# The sandbox's command (tini is PID 1 and reaps orphans; the image's ENTRYPOINT, if any, runs it, or it
# is started beside an entrypoint that never does). It prepares the Harbor log folders, starts the
# loopback forwarder to the model socket (network model-only), starts the image's own
# /etc/openforge/init.d/* hooks in the background, marks the sandbox ready and then waits forever. Run a
# second time, it only waits.
# Its own commands come from the system folders only: a verifier sandbox may hold artifacts under
# /usr/local (a task's choice); the hooks get the image's PATH.
image_path=$PATH
PATH=/usr/sbin:/usr/bin:/sbin:/bin
mkdir -p /logs/agent /logs/verifier /logs/artifacts /run/forge
if ! mkdir /run/forge/init 2>/dev/null; then
    exec sleep 2147483647
fi

if [ -n "${FORGE_MODEL_SOCKET:-}" ]; then
    if command -v python3 >/dev/null 2>&1; then
        python3 /opt/forge/sandbox/forward.py 127.0.0.1 "${FORGE_MODEL_PORT:-8000}" "$FORGE_MODEL_SOCKET" \
            >/run/forge/forward.log 2>&1 &
        i=0
        while [ ! -e /run/forge/forward.ready ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
        [ -e /run/forge/forward.ready ] || echo "the model forwarder did not start: $(cat /run/forge/forward.log)" >/run/forge/error
    else
        echo "network model-only needs python3 in the image for the loopback forwarder" >/run/forge/error
    fi
fi

if [ -d /etc/openforge/init.d ]; then
    for hook in /etc/openforge/init.d/*; do
        [ -f "$hook" ] && [ -x "$hook" ] || continue
        PATH=$image_path "$hook" >"/run/forge/init-$(basename "$hook").log" 2>&1 &
    done
fi

sleep 2147483647 &  # the wait starts before the sandbox is ready, so it is part of the baseline
touch /run/forge/ready
wait
