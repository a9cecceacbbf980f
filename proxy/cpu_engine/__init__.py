"""The local CPU inference engine: a small HF causal LM behind an SGLang-shaped token-in/token-out API."""

from proxy.cpu_engine.app import create_app
from proxy.cpu_engine.engine import CpuEngine, EngineClosed, EngineError

__all__ = ["CpuEngine", "EngineClosed", "EngineError", "create_app"]
