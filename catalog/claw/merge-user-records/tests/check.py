"""Verify /app/merged_users.json: field-level merge by real instant, normalised emails/timestamps."""
import json
import sys

EXPECTED = [
    {"country": "CZ", "email": "ben.farouk@example.com", "id": 102, "name": "Ben", "phone": "+1-555-7227", "sources": ["crm"], "updated_at": "2024-03-04T23:30:00Z"},
    {"country": "BG", "email": "kofi.adeyemi@example.com", "id": 103, "name": "Kofi Adeyemi", "phone": "+1-555-4499", "plan": "enterprise", "sources": ["billing", "support"], "updated_at": "2024-03-29T01:16:00Z"},
    {"country": "NG", "email": "uma.haddad@example.com", "id": 104, "name": "Uma Haddad", "phone": "+1-555-3145", "plan": "enterprise", "sources": ["billing", "crm"], "updated_at": "2024-03-30T08:24:00Z"},
    {"email": "omar.silva@example.com", "id": 106, "name": "Omar Silva", "phone": "+1-555-1364", "plan": "team", "sources": ["support"], "updated_at": "2024-03-12T20:34:00Z"},
    {"country": "ES", "email": "hana.moreno@example.com", "id": 108, "name": "Hana Moreno", "phone": "+1-555-2762", "sources": ["crm"], "updated_at": "2024-03-26T09:54:00Z"},
    {"country": "PT", "email": "vik.berg@example.com", "id": 111, "name": "Vik Berg", "phone": "+1-555-9176", "plan": "free", "sources": ["billing", "support"], "updated_at": "2024-03-14T02:31:00Z"},
    {"country": "DE", "email": "dara.kim@example.com", "id": 119, "name": "Dara Kim", "phone": "+1-555-5951", "plan": "free", "sources": ["crm", "support"], "updated_at": "2024-03-24T09:20:00Z"},
    {"country": "JP", "email": "quinn.okafor@example.com", "id": 121, "name": "Quinn Okafor", "phone": "+1-555-9996", "plan": "team", "sources": ["billing", "crm", "support"], "updated_at": "2024-03-13T14:32:00Z"},
    {"country": "LB", "email": "jo.petrov@example.com", "id": 124, "name": "Jo", "plan": "pro", "sources": ["billing", "support"], "updated_at": "2024-03-19T15:31:00Z"},
    {"country": "DE", "email": "eli.farouk@example.com", "id": 127, "name": "Eli", "plan": "team", "sources": ["billing", "support"], "updated_at": "2024-04-02T18:13:00Z"},
    {"country": "BG", "email": "marco.li@example.com", "id": 128, "name": "Marco Li", "phone": "+1-555-5342", "plan": "enterprise", "sources": ["billing", "crm", "support"], "updated_at": "2024-04-06T06:53:00Z"},
    {"country": "IT", "email": "hana.petrov@example.com", "id": 132, "name": "Hana Petrov", "phone": "+1-555-4860", "sources": ["crm"], "updated_at": "2024-03-25T15:21:00Z"},
    {"country": "ES", "email": "dara.silva@example.com", "id": 137, "name": "Dara Silva", "phone": "+1-555-9747", "plan": "free", "sources": ["billing", "crm", "support"], "updated_at": "2024-03-22T14:33:00Z"},
    {"country": "BG", "email": "ana.silva@example.com", "id": 139, "name": "Ana Silva", "phone": "+1-555-2477", "plan": "team", "sources": ["billing", "crm", "support"], "updated_at": "2024-04-04T13:22:00Z"},
    {"country": "CN", "email": "hana.farouk@example.com", "id": 141, "name": "Hana Farouk", "phone": "+1-555-7807", "plan": "enterprise", "sources": ["billing", "crm", "support"], "updated_at": "2024-04-10T07:05:00Z"},
    {"country": "BG", "email": "uma.mensah@example.com", "id": 145, "name": "Uma Mensah", "phone": "+1-555-9881", "plan": "team", "sources": ["billing", "crm", "support"], "updated_at": "2024-04-07T10:32:00Z"},
    {"country": "KR", "email": "gus.rossi@example.com", "id": 146, "name": "Gus Rossi", "phone": "+1-555-2254", "plan": "free", "sources": ["billing", "support"], "updated_at": "2024-04-05T16:26:00Z"},
    {"country": "IT", "email": "gus.berg@example.com", "id": 147, "name": "Gus", "phone": "+1-555-7264", "plan": "pro", "sources": ["billing", "crm", "support"], "updated_at": "2024-04-05T12:07:00Z"},
    {"email": "uma.moreno@example.com", "id": 149, "name": "Uma Moreno", "phone": "+1-555-2930", "plan": "enterprise", "sources": ["support"], "updated_at": "2024-04-07T10:53:00Z"},
    {"country": "IT", "email": "yara.rossi@example.com", "id": 151, "name": "Yara Rossi", "phone": "+1-555-1622", "plan": "team", "sources": ["billing", "support"], "updated_at": "2024-03-30T17:57:00Z"},
    {"country": "KR", "email": "lena.adeyemi@example.com", "id": 153, "plan": "pro", "sources": ["billing"], "updated_at": "2024-04-06T03:00:00Z"},
    {"country": "SE", "email": "wen.haddad@example.com", "id": 154, "name": "Wen Haddad", "phone": "+1-555-9060", "plan": "enterprise", "sources": ["billing", "crm", "support"], "updated_at": "2024-04-08T22:52:00Z"},
    {"country": "CN", "email": "marco.haddad@example.com", "id": 155, "name": "Marco Haddad", "phone": "+1-555-2148", "plan": "pro", "sources": ["crm", "support"], "updated_at": "2024-04-09T11:13:00Z"},
    {"country": "PT", "email": "dara.farouk@example.com", "id": 156, "name": "Dara Farouk", "phone": "+1-555-2922", "plan": "pro", "sources": ["billing", "crm", "support"], "updated_at": "2024-03-19T12:48:00Z"},
    {"country": "SE", "email": "ana.fischer@example.com", "id": 157, "name": "Ana Fischer", "phone": "+1-555-5011", "plan": "pro", "sources": ["crm", "support"], "updated_at": "2024-03-30T01:12:00Z"},
    {"country": "ES", "email": "chen.novak@example.com", "id": 159, "name": "Chen Novak", "phone": "+1-555-7640", "plan": "pro", "sources": ["billing", "crm", "support"], "updated_at": "2024-04-02T10:24:00Z"},
    {"country": "FR", "email": "nadia.roy@example.com", "id": 160, "name": "Nadia Roy", "phone": "+1-555-0160", "plan": "team", "sources": ["billing", "crm", "support"], "updated_at": "2024-04-10T14:00:00Z"},
    {"country": "KR", "email": "leo.park@example.com", "id": 161, "name": "Leo Park", "phone": "+1-555-0161", "plan": "enterprise", "sources": ["billing", "support"], "updated_at": "2024-03-20T09:00:00Z"},
    {"country": "PT", "email": "ines.d@example.com", "id": 162, "name": "Ines Duarte", "phone": "+1-555-0162", "sources": ["crm"], "updated_at": "2024-03-05T08:00:00Z"},
]

try:
    with open("/app/merged_users.json", encoding="utf-8") as fh:
        data = json.load(fh)
except Exception as exc:  # noqa: BLE001
    print(f"FAIL: cannot read /app/merged_users.json as JSON: {exc}")
    sys.exit(1)

errors = []
if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
    print("FAIL: top level must be a JSON array of objects")
    sys.exit(1)

ids = [r.get("id") for r in data]
if ids != [r["id"] for r in EXPECTED]:
    errors.append(f"ids (in output order) {ids} != expected {[r['id'] for r in EXPECTED]}")

got_by_id = {r.get("id"): r for r in data}
for want in EXPECTED:
    got = got_by_id.get(want["id"])
    if got is None:
        continue
    if set(got) != set(want):
        errors.append(f"id {want['id']}: keys {sorted(got)} != expected {sorted(want)}")
    for key, value in want.items():
        if key in got and got[key] != value:
            errors.append(f"id {want['id']}: {key} = {got[key]!r}, expected {value!r}")

if errors:
    print("FAIL")
    for e in errors:
        print(" -", e)
    sys.exit(1)
print(f"PASS: {len(EXPECTED)} merged users")
