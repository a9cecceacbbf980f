"""Append-only JSONL records, the way every run directory keeps them: one pydantic record per line, a
torn last line (a crash mid-append, or a run still writing) skipped, any other bad line an error naming
file and line."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from train.errors import ResultsFileInvalid

_Record = TypeVar("_Record", bound=BaseModel)
_append_lock = threading.Lock()


def read_jsonl(path: Path, model: type[_Record]) -> list[_Record]:
    """Every line of a jsonl file as `model` (none if the file does not exist)."""
    if not path.is_file():
        return []
    text = path.read_text()
    lines = text.splitlines()
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(model.model_validate_json(line))
        except ValidationError as exc:
            if number == len(lines) and not text.endswith("\n"):
                continue
            raise ResultsFileInvalid(f"{path}:{number}: not a {model.__name__}: {exc}") from exc
    return records


def append_jsonl(path: Path, records: Iterable[BaseModel]) -> None:
    """Append records, one line each, flushed (threads of one process may append to the same file). A
    torn last line left by a crash (a record never finished) is cut off first."""
    with _append_lock:
        if path.is_file() and path.stat().st_size > 0:
            with path.open("rb+") as fh:
                fh.seek(-1, 2)
                if fh.read(1) != b"\n":
                    body = path.read_bytes()
                    fh.truncate(body.rfind(b"\n") + 1)
        with path.open("a", encoding="utf-8") as fh:
            for record in records:
                fh.write(record.model_dump_json() + "\n")
            fh.flush()
