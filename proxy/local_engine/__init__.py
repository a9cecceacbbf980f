"""The local CPU inference engine: a small HF causal LM behind an SGLang-shaped token-in/token-out API."""

from proxy.local_engine.app import create_app
from proxy.local_engine.engine import EngineClosed, EngineError, LocalEngine

__all__ = ["EngineClosed", "EngineError", "LocalEngine", "create_app"]
