#!/usr/bin/env python3
"""Checks /app/answer.txt: the amount due on CloudHost's January 2026 invoice, 1,190.25 GBP (written with or
without the thousands comma, with GBP or a pound sign or no currency), and nothing else."""

import re
import sys
from pathlib import Path


def norm(text):
    text = " ".join(text.strip().casefold().split())
    return text[:-1].rstrip() if text.endswith(".") else text


try:
    answer = Path("/app/answer.txt").read_text(encoding="utf-8", errors="replace")
except OSError as exc:
    print(f"no answer: {exc}")
    sys.exit(1)
text = norm(answer)
text = re.sub(r"^(?:£|gbp)\s*", "", text)
text = re.sub(r"\s*(?:gbp|pounds)$", "", text)
if text.replace(",", "") != "1190.25" or not re.fullmatch(r"\d{1,3}(,?\d{3})*\.\d{2}", text):
    print(f"wrong answer: {answer!r}")
    sys.exit(1)
sys.exit(0)
