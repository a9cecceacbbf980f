#!/usr/bin/env python3
"""The most frequent words of a text file.

Usage: python3 wordfreq.py FILE
"""
import re
import sys
from collections import Counter

TOP_N = 5
MIN_LENGTH = 2
STOPWORDS = ['for', 'from', 'that', 'this', 'was']
WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


def main(argv):
    with open(argv[1], encoding="utf-8") as fh:
        text = fh.read()
    words = WORD.findall(text)
    words = [w for w in words if len(w) >= MIN_LENGTH and w not in STOPWORDS]
    counts = Counter(words)
    ranked = counts.most_common()
    for word, n in ranked[:TOP_N]:
        print(f"{n:>5} {word}")
    print(f"{len(words)} distinct")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
