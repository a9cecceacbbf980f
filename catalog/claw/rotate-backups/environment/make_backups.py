#!/usr/bin/env python3
"""Build-time helper: populate /app/backups with dated dummy archives (deleted after the build)."""
import datetime, os, random

rng = random.Random(7)
root = "/app/backups"
os.makedirs(root, exist_ok=True)
start = datetime.date(2024, 1, 8)
end = datetime.date(2024, 4, 12)
# days on which the nightly job did not produce a backup
missing = {"2024-01-14", "2024-01-23", "2024-02-04", "2024-02-05", "2024-02-18", "2024-03-02",
           "2024-03-10", "2024-03-11", "2024-03-12", "2024-03-27", "2024-03-31", "2024-04-06",
           "2024-04-08", "2024-04-09"}
d = start
names = []
while d <= end:
    if d.isoformat() not in missing:
        names.append("db-%s.tar.gz" % d.isoformat())
    d += datetime.timedelta(days=1)
names += ["db-2024-02-30.tar.gz", "db-2024-4-11.tar.gz", "db-2024-04-10.tar.gz.partial",
          "app-2024-04-11.tar.gz", "DB-2024-04-12.tar.gz"]
for n in names:
    p = os.path.join(root, n)
    with open(p, "w") as fh:
        fh.write("dummy archive %s\n" % n)
    # modification times deliberately do not follow the dates in the names
    t = 1712900000 - rng.randrange(0, 90 * 86400)
    os.utime(p, (t, t))
with open(os.path.join(root, "README.txt"), "w") as fh:
    fh.write("Nightly database dumps. Managed by the rotation policy.\n")
