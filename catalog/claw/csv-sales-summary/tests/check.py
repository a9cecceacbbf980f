"""Verify /app/summary.json against the expected per-region summary of the seeded sales.csv."""
import json
import sys

EXPECTED = {
    "regions": {
        "east": {"orders": 13, "units": 296, "revenue": 2873.41, "avg_order_value": 221.03,
                 "top_product": "Widget, large"},
        "north": {"orders": 22, "units": 559, "revenue": 10112.73, "avg_order_value": 459.67,
                  "top_product": 'Gizmo "Pro"'},
        "south": {"orders": 16, "units": 305, "revenue": 4405.13, "avg_order_value": 275.32,
                  "top_product": "Gadget"},
        "west": {"orders": 15, "units": 297, "revenue": 3204.09, "avg_order_value": 213.61,
                 "top_product": 'Gizmo "Pro"'},
    },
    "total": {"orders": 66, "units": 1457, "revenue": 20595.36},
    "skipped_rows": 12,
}

errors = []


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def cmp(path, want, got):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            errors.append(f"{path}: expected an object, got {got!r}")
            return
        if set(got) != set(want):
            errors.append(f"{path}: keys {sorted(got)} != expected {sorted(want)}")
        for k in want:
            if k in got:
                cmp(f"{path}.{k}", want[k], got[k])
    elif isinstance(want, str):
        if got != want:
            errors.append(f"{path}: {got!r} != expected {want!r}")
    elif isinstance(want, int):
        if not is_int(got) or got != want:
            errors.append(f"{path}: {got!r} != expected integer {want}")
    else:
        if not is_num(got) or abs(got - want) > 1e-6:
            errors.append(f"{path}: {got!r} != expected {want}")


try:
    with open("/app/summary.json") as fh:
        data = json.load(fh)
except Exception as exc:  # noqa: BLE001
    print(f"FAIL: cannot read /app/summary.json as JSON: {exc}")
    sys.exit(1)

cmp("summary", EXPECTED, data)

if errors:
    print("FAIL")
    for e in errors:
        print(" -", e)
    sys.exit(1)
print("PASS")
