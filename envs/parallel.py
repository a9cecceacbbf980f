"""Run one function over many items on a thread pool, in a way Ctrl-C can interrupt.

`with ThreadPoolExecutor()` waits for running work on the way out, so a KeyboardInterrupt would sit
behind the slowest sandbox. Here an interrupt cancels what has not started and returns at once; the
caller then stops the live sandboxes (see envs.cleanup).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_parallel(
    fn: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    on_done: Callable[[R], None] = lambda result: None,
) -> list[R]:
    """fn over items with `jobs` threads; results in the order of `items`."""
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        futures = {pool.submit(fn, item): i for i, item in enumerate(items)}
        results: dict[int, R] = {}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            on_done(results[futures[future]])
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return [results[i] for i in range(len(items))]
