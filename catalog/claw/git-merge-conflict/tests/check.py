#!/usr/bin/env python3
"""Verifier for git-merge-conflict: inspects the repository state after the merge."""
import configparser, os, subprocess, sys

REPO = "/app/repo"
MAIN_BEFORE = "67647161847aeb87b504b51445fa92e2b3d55b62"      # main tip before the merge
FEATURE_TIP = "7dbc1ed3c3022bcfe5d688b45e39f0b8926a7675"      # feature/more-regions tip

EXPECTED_REGIONS = [
    "af-south-1", "ap-northeast-1", "ap-southeast-2", "eu-central-1", "eu-north-1", "eu-south-1",
    "eu-west-1", "eu-west-2", "us-east-1", "us-east-2", "us-west-2",
]
EXPECTED_CONFIG = {
    "service": {"name": "edge-router", "listen": "0.0.0.0:8443", "timeout": "45", "retries": "5",
                "log_level": "info"},
    "cache": {"ttl": "600", "size_mb": "512"},
    "health": {"interval": "15", "unhealthy_threshold": "3"},
}

failures = []


def git(*args, check=True):
    r = subprocess.run(["git", "-C", REPO] + list(args), capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError("git %s failed: %s" % (" ".join(args), r.stderr.strip()))
    return r.stdout


def expect(cond, msg):
    if not cond:
        failures.append(msg)


def main():
    try:
        head_ref = git("symbolic-ref", "-q", "HEAD", check=False).strip()
        expect(head_ref == "refs/heads/main", "HEAD is not on branch main (got %r)" % head_ref)
        head = git("rev-parse", "HEAD").strip()
        main_sha = git("rev-parse", "refs/heads/main").strip()
        expect(head == main_sha, "HEAD != main")
        parents = git("rev-list", "--parents", "-n", "1", main_sha).split()[1:]
        expect(parents == [MAIN_BEFORE, FEATURE_TIP],
               "main is not a merge commit with parents [old main, feature tip]; parents=%r" % parents)
        feat = git("rev-parse", "refs/heads/feature/more-regions", check=False).strip()
        expect(feat == FEATURE_TIP, "feature/more-regions was changed or deleted (now %r)" % feat)
        expect(not os.path.exists(os.path.join(REPO, ".git", "MERGE_HEAD")), "a merge is still in progress")
        status = git("status", "--porcelain", "--untracked-files=all")
        expect(status.strip() == "", "working tree not clean:\n" + status)

        # content of the merge commit
        regions = git("show", "%s:regions.txt" % main_sha, check=False)
        expect(regions == "\n".join(EXPECTED_REGIONS) + "\n",
               "regions.txt wrong:\n%s\nexpected:\n%s" % (regions, "\n".join(EXPECTED_REGIONS)))
        cfg_text = git("show", "%s:config.ini" % main_sha, check=False)
        cp = configparser.ConfigParser(interpolation=None)
        try:
            cp.read_string(cfg_text)
            got = {s: dict(cp[s]) for s in cp.sections()}
        except configparser.Error as e:
            got = "unparseable: %s" % e
        expect(got == EXPECTED_CONFIG, "config.ini wrong: %r" % (got,))
        for path, ref in (("README.md", MAIN_BEFORE), ("docs/regions.md", FEATURE_TIP)):
            want = git("show", "%s:%s" % (ref, path), check=False)
            have = git("show", "%s:%s" % (main_sha, path), check=False)
            expect(have == want and want != "", "%s does not match the merged expectation" % path)
        files = git("ls-tree", "-r", "--name-only", main_sha).split("\n")
        expect(sorted(f for f in files if f) == ["README.md", "config.ini", "docs/regions.md", "regions.txt"],
               "unexpected set of tracked files: %r" % files)
        for f in files:
            if not f:
                continue
            body = git("show", "%s:%s" % (main_sha, f), check=False)
            for marker in ("<<<<<<<", ">>>>>>>", "|||||||"):
                expect(marker not in body, "conflict marker %r in %s" % (marker, f))
            expect("\n=======\n" not in "\n" + body, "conflict separator in %s" % f)
    except Exception as e:  # noqa: BLE001
        failures.append("error while checking: %s" % e)
    for f in failures:
        print("FAIL:", f)
    print("PASS" if not failures else "FAILED")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
