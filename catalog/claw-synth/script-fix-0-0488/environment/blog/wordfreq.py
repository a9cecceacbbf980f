#!/usr/bin/env python3
"""The most frequent words of a text file.

Usage: python3 wordfreq.py FILE
"""
import re
import sys
from collections import Counter

TOP_N = 8
MIN_LENGTH = 3
STOPWORDS = ['are', 'for', 'that', 'the', 'was']
WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


def main(argv):
    with open(argv[1], encoding="utf-8") as fh:
        text = fh.read()
    words = WORD.findall(text)
    words = [w for w in words if len(w) > MIN_LENGTH and w not in STOPWORDS]
    counts = Counter(words)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    for word, n in ranked[:TOP_N]:
        print(f"{n:>5} {word}")
    print(f"{len(counts)} distinct")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
