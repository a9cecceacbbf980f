"""Images in model calls: decoded once, checked against bounds, named by their content hash.

Every wire API's image part (a Chat Completions `image_url`, a Responses `input_image`, a Messages image
block) becomes an `ImagePart` here. Its bytes are decoded from base64 and opened with Pillow in full, so a
corrupt or truncated image, an unsupported format, one whose bytes are not the media type it claims, or
one over the size, pixel or count bounds is a 400 naming the part, never an engine's crash later. The
bytes ride along in memory (for engines that need pixels, or an upstream that needs them re-encoded); the
records keep only the `ImageRef` (hash, media type, size), and the bytes go to the blob store once.

Image URLs that are not data URIs are never fetched from a sandbox's request: they are a 400, unless the
proxy was configured to fetch them (`ImageLimits.fetch_urls`), and then they were inlined as data URIs
before the request is parsed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import re
import warnings
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from proxy.errors import BadRequest, ImageTooLarge

MEDIA_TYPES: dict[str, str] = {
    "image/png": "PNG",
    "image/jpeg": "JPEG",
    "image/gif": "GIF",
    "image/webp": "WEBP",
}
"""Media types accepted (those all three wire APIs document) -> Pillow's format name."""
EXTENSIONS: dict[str, str] = {
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
}
"""Media type -> the file extension an exported image gets."""
_ALIASES = {"image/jpg": "image/jpeg"}
BLOB_URI_PREFIX = "blob:sha256:"
"""How a recorded request names an image whose bytes are in the blob store."""
_DATA_URI = re.compile(r"data:(?P<type>[\w.+-]+/[\w.+-]+)?(?P<params>(;[^;,]*)*?);base64,", re.IGNORECASE)


class ImageLimits(BaseModel):
    """Bounds on the images of one request; each breach is a 4xx naming the part."""

    model_config = ConfigDict(extra="forbid")

    max_image_bytes: int = Field(default=10 * 1024 * 1024, gt=0)
    """Decoded bytes of one image (a 4K PNG screenshot is 2-8 MB)."""
    max_request_image_bytes: int = Field(default=24 * 1024 * 1024, gt=0)
    """Decoded bytes of all images of one request."""
    max_images: int = Field(default=32, gt=0)
    """Images in one request, across all its messages."""
    max_image_pixels: int = Field(default=40_000_000, gt=0)
    """Width x height of one image (8K is 33 M); checked before the pixels are decoded."""
    fetch_urls: bool = False
    """Fetch http(s) image URLs (bounded by the same limits). Off: a sandbox's request must not make
    the proxy reach an address; such a part is a 400."""


class ImageRef(BaseModel):
    """What a record keeps of an image: its content hash and what it is."""

    sha256: str
    media_type: str
    width: int
    height: int
    size: int
    """Bytes."""

    @property
    def uri(self) -> str:
        return BLOB_URI_PREFIX + self.sha256

    @property
    def filename(self) -> str:
        """`<sha256>.<ext>`: what an export names the image's file."""
        return self.sha256 + EXTENSIONS.get(self.media_type, "")


def media_type_of(pillow_format: str | None) -> str | None:
    """The media type of one of the formats we take (Pillow's name for it), else None."""
    return next((t for t, f in MEDIA_TYPES.items() if f == pillow_format), None)


class ImagePart(BaseModel):
    """One image of a message, at a character offset into the message's text (where it was sent)."""

    ref: ImageRef
    offset: int = 0
    where: str = ""
    """The request field it came from (messages[1].content[2]), for errors about it later."""
    source: str | None = Field(default=None, exclude=True, repr=False)
    """The string it was sent as (data URI or base64), to find it again in the request body."""
    _data: bytes = PrivateAttr(default=b"")

    @property
    def data(self) -> bytes:
        return self._data

    def data_uri(self) -> str:
        return f"data:{self.ref.media_type};base64,{base64.b64encode(self._data).decode('ascii')}"

    def base64(self) -> str:
        return base64.b64encode(self._data).decode("ascii")


def image_part(
    data: bytes, claimed: str | None, where: str, budget: ImageBudget, offset: int = 0
) -> ImagePart:
    """Check `data` (decoded bytes) as an image and name it; BadRequest says what is wrong."""
    media_type = _ALIASES.get((claimed or "").lower(), (claimed or "").lower()) or None
    if media_type is not None and media_type not in MEDIA_TYPES:
        raise BadRequest(
            f"{where}: media type {claimed!r} is not supported; send one of {', '.join(MEDIA_TYPES)}",
            param=where,
        )
    if len(data) > budget.limits.max_image_bytes:
        raise ImageTooLarge(
            f"{where}: the image is {len(data)} bytes; the limit is {budget.limits.max_image_bytes}",
            param=where,
        )
    budget.take(len(data), where)
    from PIL import Image  # a second or so to import; text-only calls never pay it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            # only the formats we take: no other Pillow decoder (TIFF, PSD, EPS...) is ever reached
            with Image.open(io.BytesIO(data), formats=list(MEDIA_TYPES.values())) as img:
                fmt, (width, height) = img.format, img.size
                if width * height > budget.limits.max_image_pixels:
                    raise ImageTooLarge(
                        f"{where}: the image is {width}x{height} pixels; the limit is "
                        f"{budget.limits.max_image_pixels} pixels",
                        param=where,
                    )
                img.load()  # decodes every pixel: a truncated or corrupt image fails here
    except BadRequest:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:  # far over the bound
        raise ImageTooLarge(
            f"{where}: {exc}; the limit is {budget.limits.max_image_pixels} pixels", param=where
        ) from None
    except Exception as exc:
        raise BadRequest(
            f"{where}: the image cannot be decoded: {type(exc).__name__}: {exc}", param=where
        ) from None
    actual = media_type_of(fmt)
    if actual is None:
        raise BadRequest(
            f"{where}: the image is {fmt}, which is not supported; send one of {', '.join(MEDIA_TYPES)}",
            param=where,
        )
    if media_type is not None and media_type != actual:
        raise BadRequest(
            f"{where}: the image says it is {media_type} but its bytes are {actual}", param=where
        )
    ref = ImageRef(
        sha256=hashlib.sha256(data).hexdigest(), media_type=actual, width=width, height=height, size=len(data)
    )
    part = ImagePart(ref=ref, offset=offset, where=where)
    part._data = data
    return part


def decode_base64(text: str, where: str, budget: ImageBudget) -> bytes:
    """Strict base64 (whitespace allowed), refused before decoding when it would be over the limit."""
    most = budget.limits.max_image_bytes
    if len(text) * 3 // 4 > most + 3:
        raise ImageTooLarge(
            f"{where}: the image is about {len(text) * 3 // 4} bytes; the limit is {most}", param=where
        )
    try:
        compact = "".join(text.split()) if any(c in text for c in " \n\r\t") else text
        return base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise BadRequest(f"{where}: the image data is not valid base64: {exc}", param=where) from None


def from_data_uri(uri: str, where: str, budget: ImageBudget, offset: int = 0) -> ImagePart:
    """An image sent as `data:image/png;base64,...`."""
    match = _DATA_URI.match(uri)
    if match is None:
        raise BadRequest(f"{where}: a data URI must be data:<media type>;base64,<data>", param=where)
    data = decode_base64(uri[match.end() :], where, budget)
    part = image_part(data, match.group("type"), where, budget, offset)
    part.source = uri
    return part


def from_base64(
    text: str, media_type: str | None, where: str, budget: ImageBudget, offset: int = 0
) -> ImagePart:
    """An image sent as bare base64 with its media type beside it (Messages' `source`)."""
    if not media_type:
        raise BadRequest(f"{where}: source.media_type is required", param=f"{where}.source.media_type")
    part = image_part(decode_base64(text, where, budget), media_type, where, budget, offset)
    part.source = text
    return part


def from_url(url: Any, where: str, budget: ImageBudget, offset: int = 0) -> ImagePart:
    """An image given by URL. Only data URIs are taken here: http(s) URLs were already fetched and
    inlined when the proxy is configured to fetch them (`ImageLimits.fetch_urls`), else are a 400."""
    if not isinstance(url, str) or not url:
        raise BadRequest(f"{where}: the image URL is missing", param=where)
    if url[:5].lower() == "data:":
        return from_data_uri(url, where, budget, offset)
    raise BadRequest(
        f"{where}: image URLs are not fetched by this proxy; send the image as a data URI "
        "(data:image/png;base64,...)",
        param=where,
    )


class ImageBudget:
    """One request's bounds while it is parsed: each image is counted, and its bytes added, before it is
    decoded, so a request of a million tiny images stops at the limit instead of decoding them all."""

    def __init__(self, limits: ImageLimits | None = None) -> None:
        self.limits = limits or ImageLimits()
        self.images = 0
        self.bytes = 0

    def take(self, size: int, where: str) -> None:
        self.images += 1
        self.bytes += size
        most = self.limits.max_images
        if self.images > most:
            raise ImageTooLarge(
                f"the request has more than {most} images; the limit is {most} a request", param=where
            )
        if self.bytes > self.limits.max_request_image_bytes:
            raise ImageTooLarge(
                f"the request's images are more than {self.limits.max_request_image_bytes} bytes together; "
                f"the limit is {self.limits.max_request_image_bytes} (at {where})",
                param=where,
            )


def redact_images(body: Any, parts: list[ImagePart]) -> Any:
    """`body` with every image's data replaced by its blob URI (and any other large data URI or base64
    image payload by a note), so records never hold image bytes. The body is not changed in place."""
    known = {p.source: p.ref.uri for p in parts if p.source}

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            if node in known:
                return known[node]
            if node[:5].lower() == "data:" and len(node) > 256:
                return f"<data URI of {len(node)} characters, not kept>"
            return node
        if isinstance(node, list):
            return [walk(v) for v in node]
        if isinstance(node, dict):
            out = {k: walk(v) for k, v in node.items()}
            if (
                node.get("type") == "base64"
                and isinstance(node.get("data"), str)
                and node["data"] not in known
            ):
                out["data"] = f"<base64 of {len(node['data'])} characters, not kept>"
            return out
        return node

    return walk(body)


def restore_images(body: Any, refs: list[ImageRef], read: Callable[[str], bytes]) -> Any:
    """The inverse of `redact_images`: a recorded request with each of its images' blob URIs (where an
    image was: an image URL, or a base64 source's data) replaced by the bytes `read(sha256)` gives, as
    the request was sent. Only the call's own recorded images are restored."""
    media = {ref.uri: ref.media_type for ref in refs}

    def walk(node: Any, key: str | None) -> Any:
        if isinstance(node, str):
            if node in media and key in ("url", "image_url", "data"):
                data = base64.b64encode(read(node[len(BLOB_URI_PREFIX) :])).decode("ascii")
                return data if key == "data" else f"data:{media[node]};base64,{data}"
            return node
        if isinstance(node, list):
            return [walk(v, key) for v in node]
        if isinstance(node, dict):
            return {k: walk(v, k) for k, v in node.items()}
        return node

    return walk(body, None)
