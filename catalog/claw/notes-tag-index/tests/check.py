#!/usr/bin/env python3
"""Verifier for notes-tag-index: compares /app/notes/INDEX.md with the expected index."""
import difflib, hashlib, os, sys

EXPECTED = "\n".join([
    '# Tag Index',
    '',
    '## api',
    '- [API design review](api-design-review.md)',
    '- [API error codes](api-errors.md)',
    '',
    '## backend',
    '- [API design review](api-design-review.md)',
    '- [Billing migration](projects/billing-migration.md)',
    '- [caching strategy](cache-strategy.md)',
    '- [Incident: checkout latency spike](incident-2024-02-17.md)',
    '- [Postgres tuning notes](postgres-tuning.md)',
    '',
    '## books',
    '- [Reading list: 2024](reading-list.md)',
    '',
    '## database',
    '- [Billing migration](projects/billing-migration.md)',
    '- [Postgres tuning notes](postgres-tuning.md)',
    '',
    '## deprecated',
    '- [Old monitoring setup](projects/archive/old-monitoring.md)',
    '',
    '## design',
    '- [API design review](api-design-review.md)',
    '- [caching strategy](cache-strategy.md)',
    '- [Search rewrite](projects/search-rewrite.md)',
    '',
    '## incidents',
    '- [Incident: checkout latency spike](incident-2024-02-17.md)',
    '- [Terraform state surgery](terraform-state.md)',
    '',
    '## infra',
    '- [Kubernetes basics](kubernetes-basics.md)',
    '- [Old monitoring setup](projects/archive/old-monitoring.md)',
    '- [Terraform state surgery](terraform-state.md)',
    '',
    '## k8s',
    '- [Kubernetes basics](kubernetes-basics.md)',
    '',
    '## learning',
    '- [Kubernetes basics](kubernetes-basics.md)',
    '- [Onboarding checklist](onboarding.md)',
    '- [Reading list: 2024](reading-list.md)',
    '',
    '## meetings',
    '- [1:1 with Alex](1-on-1-alex.md)',
    '- [Sprint retro 2024-03-29](retro-2024-03-29.md)',
    '- [Team sync 2024-03-04](meeting-2024-03-04.md)',
    '',
    '## performance',
    '- [caching strategy](cache-strategy.md)',
    '- [Incident: checkout latency spike](incident-2024-02-17.md)',
    '- [Postgres tuning notes](postgres-tuning.md)',
    '',
    '## personal',
    '- [1:1 with Alex](1-on-1-alex.md)',
    '- [Berlin trip](travel-berlin.md)',
    '- [Groceries](grocery-list.md)',
    '- [Reading list: 2024](reading-list.md)',
    '',
    '## planning',
    '- [Billing migration](projects/billing-migration.md)',
    '- [Q1 OKRs](q1-okrs.md)',
    '- [Team sync 2024-03-04](meeting-2024-03-04.md)',
    '',
    '## process',
    '- [Onboarding checklist](onboarding.md)',
    '- [release-process](release-process.md)',
    '- [Sprint retro 2024-03-29](retro-2024-03-29.md)',
    '',
    '## q1',
    '- [Q1 OKRs](q1-okrs.md)',
    '- [Team sync 2024-03-04](meeting-2024-03-04.md)',
    '',
    '## reference',
    '- [API error codes](api-errors.md)',
    '',
    '## releases',
    '- [release-process](release-process.md)',
    '',
    '## search',
    '- [Search rewrite](projects/search-rewrite.md)',
    '',
    '## travel',
    '- [Berlin trip](travel-berlin.md)',
    '',
    '## (untagged)',
    '- [Empty tags example](empty-tags.md)',
    '- [ideas](ideas.md)',
    '- [Scratchpad](scratch.md)',
]) + "\n"

NOTE_HASHES = {
    "1-on-1-alex.md": "62ab044a2c74da0a7c662f1bb4483ec2939d13cb74f43d638a85aa34c06c95dc",
    "api-design-review.md": "b366ae6c8adc14adde9ddacf7db4c1b809a5a8c7d0d176c9724e16a605052549",
    "api-errors.md": "cc07f8a7ac740aec68c37da5839a7a0bea452b3c4d463d7f0bf94a5670808b6b",
    "cache-strategy.md": "192882d584439bda7e2e0c80b74f47d6c3f00c25abdc2884f497924c3081e97b",
    "empty-tags.md": "dab6e2d67d26e576346fffeda133ce96234d19ca63a6c8c89edb3cc8a6dfca02",
    "grocery-list.md": "78c06de3e249b241925425f4703e5eff26eaf80ebf0c4e80d11db8166135abfd",
    "ideas.md": "58deae4f1e3567cc67fe64e02858ffa5a673fced38d81c2679b8849e96c92721",
    "incident-2024-02-17.md": "ccf31a85da49fb5aa4378dfc94126ed5043933024b92ab0db414c9b293e019af",
    "kubernetes-basics.md": "c8a7f9c61f77d323dad39a202fe1cdc94e6d699f97ab134e71db11707b9b7b4d",
    "meeting-2024-03-04.md": "ef91d2fb41b5e624d61a7537748b85fd32e235c038a73f188dfc6337ea961639",
    "onboarding.md": "c0fcc11964f45bf919c77dd493a4046e68b9901150ab9d4ad309b001f5dfc44a",
    "postgres-tuning.md": "83f9b7071fa7a85fe46543c6b379d2e8c2d85c769a693de1023ae6c03187dee8",
    "projects/archive/old-monitoring.md": "fca5e30d7d147c7c81229a4ee3176e84f6f7b8c16e40ec585a4f3bf27fd986a5",
    "projects/billing-migration.md": "6d2ce0ce31cb87f0904ac799c4fbfce4d1b60309c11402593a5ae95e94decc9c",
    "projects/search-rewrite.md": "d71d6fa94cf294bf586ef33e1168dab0ae94e048b4ebbfe60bfd2e0b8bf1b49b",
    "q1-okrs.md": "fcc3a650f127d8cb81d8e8a2cbf25ef392bdcd77fac8b34178e3c16b992a4707",
    "reading-list.md": "2f6d2be0a61a7bd17f5408ff03260897e3360fc45ebfb8c4d028ea46451d554a",
    "release-process.md": "2ca5c7dd237181e6ed322c5c128767eb8387b947f4568b723edb63693a308f3e",
    "retro-2024-03-29.md": "1091547a31a8f645ce618d12e3a980e7d97b2c4c27053f08a9f2bffc30c6df8b",
    "scratch.md": "d8638a745b17f5d22cee8e3c57315c7ad695e8c0077b17df2b7160771fa31b83",
    "terraform-state.md": "26030ce6bde5cff16770256f7d7c79fedde74de758b1087fa502f9e2bf48d2b4",
    "travel-berlin.md": "e2940d195fe656bcd99b7126bab33d5af9f55a98cb849a63d580f14c3e773731"
}

def main():
    ok = True
    path = "/app/notes/INDEX.md"
    if not os.path.isfile(path):
        print("FAIL: /app/notes/INDEX.md does not exist")
        return 1
    got = open(path, encoding="utf-8", errors="replace").read()
    if got != EXPECTED:
        # tolerate only trailing whitespace at line ends / a missing final newline
        norm = lambda s: [l.rstrip() for l in s.rstrip("\n").split("\n")]
        if norm(got) != norm(EXPECTED):
            ok = False
            print("FAIL: INDEX.md differs from expected:")
            sys.stdout.writelines(difflib.unified_diff(
                EXPECTED.splitlines(True), got.splitlines(True), "expected", "INDEX.md"))
            print()
    for rel, h in NOTE_HASHES.items():
        p = os.path.join("/app/notes", rel)
        if not os.path.isfile(p):
            ok = False
            print("FAIL: note missing:", rel)
        elif hashlib.sha256(open(p, "rb").read()).hexdigest() != h:
            ok = False
            print("FAIL: note was modified:", rel)
    print("PASS" if ok else "FAILED")
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
