#!/bin/sh
# Services of the task start here, as in many Harbor images: a host name and a small HTTP server.
echo "127.0.0.1 api.internal" >> /etc/hosts
python3 -m http.server 8080 --bind 127.0.0.1 --directory /srv/api >/tmp/api.log 2>&1 &
exec "$@"
