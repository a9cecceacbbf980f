"""Fixtures of the training tests beyond tests/conftest.py."""

from __future__ import annotations

from tests.shared_models import smollm2_dir as smollm2_dir  # a fixture: imported, pytest finds it here
