#!/usr/bin/env python3
"""Verifier for fix-deploy-script: runs /app/deploy.sh against fresh directories (with spaces in their paths)."""
import os, shutil, subprocess, sys, tempfile

SCRIPT = "/app/deploy.sh"
fails = []


def expect(cond, msg):
    if not cond:
        fails.append(msg)
    return cond


def run(*args, cwd="/"):
    try:
        r = subprocess.run(["bash", SCRIPT] + list(args), cwd=cwd, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return 124, "", "timeout"
    return r.returncode, r.stdout, r.stderr


def snapshot(root):
    """Map of relative path -> ('file', bytes) | ('link', target) | ('dir',) for everything under root."""
    snap = {}
    if not os.path.lexists(root):
        return None
    for dp, dns, fns in os.walk(root):
        for n in dns + fns:
            p = os.path.join(dp, n)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                snap[rel] = ("link", os.readlink(p))
            elif os.path.isdir(p):
                snap[rel] = ("dir",)
            else:
                snap[rel] = ("file", open(p, "rb").read())
        dns[:] = [d for d in dns if not os.path.islink(os.path.join(dp, d))]
    return snap


def make_release(base, name, version_text, extra=""):
    d = os.path.join(base, name)
    os.makedirs(os.path.join(d, "static files", "img"), exist_ok=True)
    os.makedirs(os.path.join(d, ".config"), exist_ok=True)
    files = {
        "VERSION": version_text,
        "run.sh": "#!/bin/sh\necho running %s\n" % name,
        ".env.production": "LOG_LEVEL=warn\nRELEASE=%s\n" % name,
        ".config/settings.ini": "[app]\nname = demo %s\n" % extra,
        "static files/site.css": "body { color: #333 } /* %s */\n" % name,
        "static files/img/logo file.svg": "<svg><!-- %s --></svg>\n" % name,
        "-notes.txt": "odd file name\n",
    }
    for rel, text in files.items():
        with open(os.path.join(d, rel), "w") as fh:
            fh.write(text)
    return d


def tree(root):
    s = snapshot(root) or {}
    return {k: v for k, v in s.items()}


def main():
    if not expect(os.path.isfile(SCRIPT), "/app/deploy.sh is missing"):
        return report()
    base = tempfile.mkdtemp(prefix="deploy tests ")
    work = os.path.join(base, "cwd dir")
    os.makedirs(work)
    target = os.path.join(base, "prod target", "app root")

    # --- usage errors -------------------------------------------------------
    r1 = make_release(base, "release one", "1.0.0   \n", extra="one")
    for args in ([], [r1], [r1, target, "extra"]):
        code, _, _ = run(*args, cwd=work)
        expect(code == 2, "with %d argument(s) expected exit 2, got %d" % (len(args), code))
    expect(not os.path.lexists(os.path.dirname(target)), "usage error created files under the target")

    # --- bad VERSION ----------------------------------------------------------
    nover = os.path.join(base, "no version")
    os.makedirs(nover)
    open(os.path.join(nover, "app.txt"), "w").write("x\n")
    code, _, _ = run(nover, target, cwd=work)
    expect(code == 3, "missing VERSION: expected exit 3, got %d" % code)
    blank = make_release(base, "blank version", "  \t \n2.0.0\n")
    code, _, _ = run(blank, target, cwd=work)
    expect(code == 3, "blank first line of VERSION: expected exit 3, got %d" % code)
    expect(not os.path.lexists(os.path.dirname(target)), "a failed deploy (exit 3) created files under the target")

    # --- first deploy into a non-existent target -------------------------------
    src_before = snapshot(r1)
    code, out, err = run(r1, target, cwd=work)
    expect(code == 0, "first deploy: expected exit 0, got %d (stderr: %s)" % (code, err.strip()))
    expect(out.strip().splitlines()[-1:] == ["deployed 1.0.0"], "first deploy: stdout should end with 'deployed 1.0.0', got %r" % out)
    expect(snapshot(r1) == src_before, "the release directory was modified")
    rel_dir = os.path.join(target, "releases", "1.0.0")
    expect(tree(rel_dir) == src_before, "releases/1.0.0 is not an exact copy of the release directory "
           "(missing hidden files/subdirectories, or a version with untrimmed whitespace?). Found: %r"
           % sorted(os.listdir(os.path.join(target, "releases"))) if os.path.isdir(os.path.join(target, "releases")) else "releases/ missing")
    cur = os.path.join(target, "current")
    expect(os.path.islink(cur) and os.readlink(cur) == "releases/1.0.0",
           "current should be a symlink to 'releases/1.0.0', got %r" % (os.readlink(cur) if os.path.islink(cur) else None))
    log = os.path.join(target, "deploy.log")
    expect(os.path.isfile(log) and open(log).read() == "1.0.0\n", "deploy.log after first deploy is wrong")

    # --- second deploy: link must be replaced, not created inside the old release ---
    r2 = make_release(base, "release two", "1.1.0\n", extra="two")
    code, out, err = run(r2, target, cwd=work)
    expect(code == 0, "second deploy: expected exit 0, got %d (stderr: %s)" % (code, err.strip()))
    expect(os.path.islink(cur) and os.readlink(cur) == "releases/1.1.0",
           "after second deploy current should point to 'releases/1.1.0', got %r" % (os.readlink(cur) if os.path.islink(cur) else None))
    expect(tree(rel_dir) == src_before, "releases/1.0.0 was modified by the second deploy (stray symlink inside it?)")
    expect(tree(os.path.join(target, "releases", "1.1.0")) == snapshot(r2), "releases/1.1.0 is not an exact copy")

    # --- redeploying an existing version ---------------------------------------
    before = snapshot(target)
    r2b = make_release(base, "release two again", "1.1.0\n", extra="two-again")
    code, _, _ = run(r2b, target, cwd=work)
    expect(code == 4, "deploying an already deployed version: expected exit 4, got %d" % code)
    expect(snapshot(target) == before, "exit-4 deploy changed the target")

    # --- more deploys in quick succession: pruning follows deploy.log ----------
    r3 = make_release(base, "release three", "1.2.0\n", extra="three")
    r4 = make_release(base, "release four", "  1.3.0\r\n", extra="four")
    for src, ver in ((r3, "1.2.0"), (r4, "1.3.0")):
        code, out, err = run(src, target, cwd=work)
        expect(code == 0, "deploy %s: expected exit 0, got %d (stderr: %s)" % (ver, code, err.strip()))
        expect(out.strip().splitlines()[-1:] == ["deployed %s" % ver], "deploy %s: wrong stdout %r" % (ver, out))
    rels = sorted(os.listdir(os.path.join(target, "releases"))) if os.path.isdir(os.path.join(target, "releases")) else None
    expect(rels == ["1.1.0", "1.2.0", "1.3.0"], "after 4 deploys releases/ should hold 1.1.0 1.2.0 1.3.0, got %r" % rels)
    expect(os.path.islink(cur) and os.readlink(cur) == "releases/1.3.0", "current should point to releases/1.3.0")
    expect(os.path.isfile(log) and open(log).read() == "1.0.0\n1.1.0\n1.2.0\n1.3.0\n",
           "deploy.log should list all 4 versions, got %r" % (open(log).read() if os.path.isfile(log) else None))
    if os.path.isdir(os.path.join(target, "releases", "1.2.0")):
        expect(tree(os.path.join(target, "releases", "1.2.0")) == snapshot(r3), "releases/1.2.0 content wrong")

    # --- log order, not timestamps, decides what is kept ------------------------
    # touch an old release so it looks newest: it must still be pruned
    t2 = os.path.join(base, "second target")
    for i, ver in enumerate(["3.0.0", "3.0.1", "3.0.2"]):
        src = make_release(base, "r3-%d" % i, ver + "\n")
        code, _, err = run(src, t2, cwd=work)
        expect(code == 0, "deploy %s into second target failed (%d): %s" % (ver, code, err.strip()))
    old = os.path.join(t2, "releases", "3.0.0")
    if os.path.isdir(old):
        os.utime(old, (4102444800, 4102444800))  # year 2100
    os.makedirs(os.path.join(t2, "releases", "stray-dir"), exist_ok=True)
    src = make_release(base, "r3-3", "3.1.0\n")
    code, _, err = run(src, t2, cwd=work)
    expect(code == 0, "deploy 3.1.0 failed (%d): %s" % (code, err.strip()))
    rels = sorted(os.listdir(os.path.join(t2, "releases"))) if os.path.isdir(os.path.join(t2, "releases")) else None
    expect(rels == ["3.0.1", "3.0.2", "3.1.0"],
           "pruning must keep the last 3 versions in deploy.log and delete everything else, got %r" % rels)

    shutil.rmtree(base, ignore_errors=True)
    return report()


def report():
    for f in fails:
        print("FAIL:", f)
    print("PASS" if not fails else "FAILED")
    return 0 if not fails else 1


if __name__ == "__main__":
    sys.exit(main())
