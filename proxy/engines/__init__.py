"""Engines answer `GenerationRequest`s: token-in/token-out backends, pass-through upstreams, scripts."""
