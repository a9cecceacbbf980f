"""Image URLs, fetched only when the proxy was configured to (`forge-proxy serve --fetch-image-urls`).

By default a request's http(s) image URL is a 400 (proxy/images.py): the request comes from a sandbox,
and the proxy must not reach an address the agent chose. An operator serving trusted clients (a teacher
run on a web dataset) may turn fetching on; then every image URL of the body is fetched here, before the
request is parsed, bounded by the same per-image size limit and a timeout, without following redirects,
and put in the body as a data URI (a base64 source for Messages). What was fetched is then checked and
stored exactly as an image sent inline.
"""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import httpx

from proxy.errors import BadRequest, ImageTooLarge
from proxy.images import ImageLimits, media_type_of

FETCH_TIMEOUT_SEC = 15.0


def _is_url(value: Any) -> bool:
    return isinstance(value, str) and value[:8].lower().startswith(("http://", "https://"))


def _url_slots(body: Any) -> list[tuple[dict[str, Any], str, str]]:
    """(holder, key, where) of every image URL in the body, in each wire API's shape."""
    found: list[tuple[dict[str, Any], str, str]] = []
    stack: list[tuple[Any, str]] = [(body, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, list):
            stack.extend((child, f"{where}[{i}]") for i, child in enumerate(node))
            continue
        if not isinstance(node, dict):
            continue
        kind = node.get("type")
        image_url = node.get("image_url")
        if kind == "image_url" and isinstance(image_url, dict) and _is_url(image_url.get("url")):
            found.append((image_url, "url", f"{where}.image_url.url"))
        elif kind in ("image_url", "input_image") and _is_url(image_url):
            found.append((node, "image_url", f"{where}.image_url"))
        elif kind == "url" and _is_url(node.get("url")) and "media_type" not in node:
            found.append((node, "url", f"{where}.url"))
        stack.extend((child, f"{where}.{key}" if where else key) for key, child in node.items())
    return found


async def _fetch(
    client: httpx.AsyncClient, url: str, where: str, limits: ImageLimits
) -> tuple[bytes, str | None]:
    try:
        async with client.stream("GET", url) as response:
            if response.status_code != 200:
                raise BadRequest(f"{where}: fetching {url} answered {response.status_code}", param=where)
            data = bytearray()
            async for chunk in response.aiter_bytes():
                data += chunk
                if len(data) > limits.max_image_bytes:
                    raise ImageTooLarge(
                        f"{where}: {url} is more than {limits.max_image_bytes} bytes; the limit is "
                        f"{limits.max_image_bytes}",
                        param=where,
                    )
            return bytes(data), _sniff(bytes(data))
    except httpx.HTTPError as exc:
        raise BadRequest(
            f"{where}: {url} could not be fetched: {type(exc).__name__}: {exc}", param=where
        ) from None


def _sniff(data: bytes) -> str | None:
    """The media type of fetched bytes by their content (a server's content-type is not trusted); None
    when they are not an image we take, which the image check then says."""
    import io

    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as img:
            fmt = img.format
    except Exception:
        return None
    return media_type_of(fmt)


async def inline_image_urls(body: Any, limits: ImageLimits) -> Any:
    """`body` with each http(s) image URL replaced by what it answered (fetched at once, at most
    `max_images` of them); the body is changed in place and returned."""
    slots = _url_slots(body)
    if not slots:
        return body
    if len(slots) > limits.max_images:
        raise ImageTooLarge(
            f"the request has more than {limits.max_images} images; the limit is {limits.max_images}",
            param=slots[limits.max_images][2],
        )
    timeout = httpx.Timeout(FETCH_TIMEOUT_SEC)
    async with httpx.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False) as client:
        fetches = asyncio.gather(
            *(_fetch(client, holder[key], where, limits) for holder, key, where in slots)
        )
        try:  # httpx's timeout is per read: a server trickling bytes is bounded here, as a whole
            fetched = await asyncio.wait_for(fetches, FETCH_TIMEOUT_SEC)
        except TimeoutError:
            raise BadRequest(
                f"fetching the request's image URLs took over {FETCH_TIMEOUT_SEC:.0f} s", param=slots[0][2]
            ) from None
    for (holder, key, _), (data, media_type) in zip(slots, fetched, strict=True):
        encoded = base64.b64encode(data).decode("ascii")
        if key == "url" and holder.get("type") == "url":  # a Messages source: becomes a base64 one
            holder.clear()
            holder.update(
                {"type": "base64", "media_type": media_type or "application/octet-stream", "data": encoded}
            )
        else:
            holder[key] = f"data:{media_type or ''};base64,{encoded}"
    return body
