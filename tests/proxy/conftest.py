"""Fixtures shared by the proxy tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from proxy.model_init import init_model


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny `init-model` directory (vocab 2048, hidden 64, 2 layers, context 512), built once.

    Shared by the whole session: treat it as read-only and copy it before changing anything in it.
    """
    return init_model(
        tmp_path_factory.mktemp("tiny-model") / "model",
        vocab_size=2048,
        hidden_size=64,
        layers=2,
        max_position_embeddings=512,
    )
