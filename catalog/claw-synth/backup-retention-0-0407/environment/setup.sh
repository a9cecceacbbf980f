#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "dummy archive mysql-2024-03-02T08-10.pgdump\n", "m": 1677342013, "p": "backups/reports/mysql-2024-03-02T08-10.pgdump"}, {"c": "dummy archive mysql-2024-04-06T05-45.pgdump\n", "m": 1642755477, "p": "backups/reports/mysql-2024-04-06T05-45.pgdump"}, {"c": "dummy archive mysql-2024-04-06T15-55.pgdump\n", "m": 1619799589, "p": "backups/reports/mysql-2024-04-06T15-55.pgdump"}, {"c": "dummy archive mysql-2024-08-31T05-10.pgdump\n", "m": 1696643253, "p": "backups/reports/mysql-2024-08-31T05-10.pgdump"}, {"c": "dummy archive mysql-2024-08-31T07-50.pgdump\n", "m": 1658875350, "p": "backups/reports/mysql-2024-08-31T07-50.pgdump"}, {"c": "dummy archive mysql-2024-09-05T04-40.pgdump\n", "m": 1611760336, "p": "backups/reports/mysql-2024-09-05T04-40.pgdump"}, {"c": "dummy archive mysql-2024-09-06T20-40.pgdump\n", "m": 1627444751, "p": "backups/reports/mysql-2024-09-06T20-40.pgdump"}, {"c": "dummy archive mysql-2024-09-11T04-20.pgdump\n", "m": 1606780611, "p": "backups/reports/mysql-2024-09-11T04-20.pgdump"}, {"c": "dummy archive mysql-2024-09-18T10-10.pgdump\n", "m": 1600277618, "p": "backups/reports/mysql-2024-09-18T10-10.pgdump"}, {"c": "dummy archive mysql-2024-09-18T23-55.pgdump\n", "m": 1610559221, "p": "backups/reports/mysql-2024-09-18T23-55.pgdump"}, {"c": "dummy archive mysql-2024-09-25T10-00.pgdump\n", "m": 1642750516, "p": "backups/reports/mysql-2024-09-25T10-00.pgdump"}, {"c": "dummy archive mysql-2024-09-25T21-25.pgdump\n", "m": 1660798755, "p": "backups/reports/mysql-2024-09-25T21-25.pgdump"}, {"c": "dummy archive mysql-2024-10-08T03-55.pgdump\n", "m": 1643092271, "p": "backups/reports/mysql-2024-10-08T03-55.pgdump"}, {"c": "dummy archive mysql-2024-10-08T21-25.pgdump\n", "m": 1614611997, "p": "backups/reports/mysql-2024-10-08T21-25.pgdump"}, {"c": "dummy archive mysql-2024-10-19T17-10.pgdump\n", "m": 1677988095, "p": "backups/reports/mysql-2024-10-19T17-10.pgdump"}, {"c": "dummy archive mysql-2024-10-23T00-40.pgdump\n", "m": 1645113142, "p": "backups/reports/mysql-2024-10-23T00-40.pgdump"}, {"c": "dummy archive mysql-2024-10-23T19-55.pgdump\n", "m": 1601060513, "p": "backups/reports/mysql-2024-10-23T19-55.pgdump"}, {"c": "dummy archive mysql-2024-10-29T21-45.pgdump\n", "m": 1613537159, "p": "backups/reports/mysql-2024-10-29T21-45.pgdump"}, {"c": "dummy archive mysql-2024-11-08T03-00.pgdump\n", "m": 1666985863, "p": "backups/reports/mysql-2024-11-08T03-00.pgdump"}, {"c": "dummy archive mysql-2024-11-17T06-30.pgdump\n", "m": 1617070160, "p": "backups/reports/mysql-2024-11-17T06-30.pgdump"}, {"c": "dummy archive mysql-2024-11-24T03-10.pgdump\n", "m": 1630678443, "p": "backups/reports/mysql-2024-11-24T03-10.pgdump"}, {"c": "dummy archive mysql-2024-11-24T20-05.pgdump\n", "m": 1667834107, "p": "backups/reports/mysql-2024-11-24T20-05.pgdump"}, {"c": "dummy archive mysql-2024-11-28T17-35.pgdump\n", "m": 1629989309, "p": "backups/reports/mysql-2024-11-28T17-35.pgdump"}, {"c": "dummy archive mysql-2024-12-01T02-15.pgdump\n", "m": 1698239365, "p": "backups/reports/mysql-2024-12-01T02-15.pgdump"}, {"c": "dummy archive mysql-2024-12-05T19-55.pgdump\n", "m": 1631337809, "p": "backups/reports/mysql-2024-12-05T19-55.pgdump"}, {"c": "dummy archive mysql-2024-12-19T22-15.pgdump\n", "m": 1669776926, "p": "backups/reports/mysql-2024-12-19T22-15.pgdump"}, {"c": "dummy archive mysql-2025-01-07T19-10.pgdump\n", "m": 1698613643, "p": "backups/reports/mysql-2025-01-07T19-10.pgdump"}, {"c": "dummy archive mysql-2025-01-07T21-05.pgdump\n", "m": 1698478583, "p": "backups/reports/mysql-2025-01-07T21-05.pgdump"}, {"c": "dummy archive mysql-2025-02-02T11-15.pgdump\n", "m": 1607216901, "p": "backups/reports/mysql-2025-02-02T11-15.pgdump"}, {"c": "dummy archive mysql-2025-02-03T19-45.pgdump\n", "m": 1656154798, "p": "backups/reports/mysql-2025-02-03T19-45.pgdump"}, {"c": "dummy archive mysql-2025-02-04T20-45.pgdump\n", "m": 1625339571, "p": "backups/reports/mysql-2025-02-04T20-45.pgdump"}]""")
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
