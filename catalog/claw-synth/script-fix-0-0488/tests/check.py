"""Run the fixed script on texts generated here and compare with a reference implementation."""
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter

SCRIPT = '/app/blog/wordfreq.py'
TOP_N, MIN_LENGTH = 8, 3
STOPWORDS = ['are', 'for', 'that', 'the', 'was']
WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
VOCAB = ["data", "model", "queue", "worker", "Report", "report", "ship", "it's", "don't", "o'clock", "API", "api",
         "Cache", "go", "on", "ab", "abc", "abcd", "team's", "rock'n'roll", "x", "zebra", "alpha", "beta", "delta"]


def reference(text):
    words = [w.lower() for w in WORD.findall(text)]
    words = [w for w in words if len(w) >= MIN_LENGTH and w not in STOPWORDS]
    counts = Counter(words)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_N]
    return "".join(f"{n:>5} {w}\n" for w, n in ranked) + f"{len(counts)} distinct\n"


def make_text(rng, n):
    vocab = VOCAB + sorted(STOPWORDS) + [w.upper() for w in sorted(STOPWORDS)]
    parts = []
    for i in range(n):
        parts.append(rng.choice(vocab) + rng.choice([" ", " ", ", ", ". ", "\n", " -- ", "! "]))
    # a tie between two words whose first occurrences are in reverse alphabetical order
    parts += ["zephyr " * 40, "yonder " * 40, "Zephyr yonder "]
    return "".join(parts)


def main():
    rng = random.Random(616753142)
    cases = [make_text(rng, rng.randint(5, 300)) for _ in range(8)] + ["", "a b c it's IT'S its"]
    failed = 0
    for i, text in enumerate(cases):
        want = reference(text)
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as fh:
            fh.write(text)
        try:
            proc = subprocess.run([sys.executable, SCRIPT, fh.name], capture_output=True, text=True, timeout=30)
        finally:
            os.unlink(fh.name)
        if proc.stdout != want or proc.returncode != 0:
            failed += 1
            print(f"case {i}: FAILED (exit {proc.returncode})")
            print("--- input ---\n" + text[:1500])
            print("--- expected ---\n" + want + "--- got ---\n" + proc.stdout[:2000] + proc.stderr[-800:])
    if failed:
        print(f"FAIL: {failed}/{len(cases)} cases wrong")
        return 1
    print(f"PASS: {len(cases)} cases")
    return 0


sys.exit(main())
