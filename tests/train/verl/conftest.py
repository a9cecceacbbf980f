"""Fixtures of the veRL tests: a catalog of eight tasks, the recipe on it, the tiny model's tokenizer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from proxy.engines.tokens import load_tokenizer
from tests.conftest import write_task
from train.verl.config import VerlRecipe


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    root = tmp_path / "catalog"
    for i in range(8):
        write_task(root, f"task-{i}", instruction=f"Create the file /app/done-{i}.\n")
    return root


@pytest.fixture
def recipe(catalog: Path, tmp_path: Path) -> VerlRecipe:
    return VerlRecipe(catalog=catalog, run_dir=tmp_path / "run")


@pytest.fixture(scope="module")
def tokenizer(tiny_model_dir: Path) -> Any:
    return load_tokenizer(tiny_model_dir)
