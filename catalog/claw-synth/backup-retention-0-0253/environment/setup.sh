#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"fill": "backup vm-build-2025-06-28.qcow2", "m": 1649274376, "p": "vm-snapshots/vm-build-2025-06-28.qcow2", "size": 768}, {"fill": "backup vm-build-2025-07-08.qcow2", "m": 1618715786, "p": "vm-snapshots/vm-build-2025-07-08.qcow2", "size": 4352}, {"fill": "backup vm-build-2025-07-12.qcow2", "m": 1668875714, "p": "vm-snapshots/vm-build-2025-07-12.qcow2", "size": 640}, {"fill": "backup vm-build-2025-07-13.qcow2", "m": 1609337509, "p": "vm-snapshots/vm-build-2025-07-13.qcow2", "size": 768}, {"fill": "backup vm-build-2025-07-15.qcow2", "m": 1693151953, "p": "vm-snapshots/vm-build-2025-07-15.qcow2", "size": 4096}, {"fill": "backup vm-build-2025-07-18.qcow2", "m": 1673090815, "p": "vm-snapshots/vm-build-2025-07-18.qcow2", "size": 3072}, {"fill": "backup vm-build-2025-07-19.qcow2", "m": 1649691244, "p": "vm-snapshots/vm-build-2025-07-19.qcow2", "size": 1920}, {"fill": "backup vm-build-2025-07-20.qcow2", "m": 1664842682, "p": "vm-snapshots/vm-build-2025-07-20.qcow2", "size": 2048}, {"fill": "backup vm-build-2025-07-22.qcow2", "m": 1663323966, "p": "vm-snapshots/vm-build-2025-07-22.qcow2", "size": 896}, {"fill": "backup vm-build-2025-07-23.qcow2", "m": 1617324364, "p": "vm-snapshots/vm-build-2025-07-23.qcow2", "size": 2432}, {"fill": "backup vm-build-2025-07-27.qcow2", "m": 1618399557, "p": "vm-snapshots/vm-build-2025-07-27.qcow2", "size": 3200}, {"fill": "backup vm-build-2025-07-28.qcow2", "m": 1650501617, "p": "vm-snapshots/vm-build-2025-07-28.qcow2", "size": 3840}, {"fill": "backup vm-build-2025-07-29.qcow2", "m": 1678573205, "p": "vm-snapshots/vm-build-2025-07-29.qcow2", "size": 3456}, {"fill": "backup vm-build-2025-07-31.qcow2", "m": 1614421258, "p": "vm-snapshots/vm-build-2025-07-31.qcow2", "size": 3072}, {"fill": "backup vm-build-2025-08-02.qcow2", "m": 1672473924, "p": "vm-snapshots/vm-build-2025-08-02.qcow2", "size": 1280}, {"fill": "backup vm-build-2025-08-03.qcow2", "m": 1624319140, "p": "vm-snapshots/vm-build-2025-08-03.qcow2", "size": 3072}]""")
for e in ENTRIES:
    path = os.path.join("/app", e["p"])
    if e.get("dir"):
        os.makedirs(path, exist_ok=True)
        continue
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if "fill" in e:
        unit = (e["fill"] + "\n").encode()
        data = (unit * (e["size"] // len(unit) + 1))[: e["size"]]
    else:
        data = e["c"].encode()
    with open(path, "wb") as fh:
        fh.write(data)
    if "m" in e:
        os.utime(path, (e["m"], e["m"]))
PY
