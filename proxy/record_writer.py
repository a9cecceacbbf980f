"""Group commit: one writer thread records calls for the whole proxy.

Every call still answers only after its record is committed (nothing finished is ever lost), but calls
that arrive while a transaction commits share the next one, and the event loop never waits on SQLite.
When a batch fails to commit, its records are retried one by one, so one bad record fails only its own
call and the others are recorded (and answered) as usual.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading

from proxy.records import CallRecord
from proxy.store import CallStore

_STOP = object()
_Item = tuple[CallRecord, "asyncio.Future[CallRecord]", asyncio.AbstractEventLoop]


class RecordWriter:
    def __init__(self, store: CallStore, max_batch: int = 256) -> None:
        self.store = store
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[_Item | object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="forge-record-writer", daemon=True)
        self._thread.start()

    async def write(self, record: CallRecord) -> CallRecord:
        """Record a call; returns once it is committed (with its seq)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[CallRecord] = loop.create_future()
        self._queue.put((record, future, loop))
        return await future

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            batch: list[_Item] = [item]  # type: ignore[list-item]
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    self._queue.put(_STOP)
                    break
                batch.append(more)  # type: ignore[arg-type]
            for (_, future, loop), (result, error) in zip(batch, self._commit(batch), strict=True):
                with contextlib.suppress(RuntimeError):  # that caller's loop is closed: nobody waits
                    loop.call_soon_threadsafe(_settle, future, result, error)

    def _commit(self, batch: list[_Item]) -> list[tuple[CallRecord | None, BaseException | None]]:
        """Each record's stored copy or error: the batch in one transaction, else one by one."""
        try:
            return [(stored, None) for stored in self.store.record_many([r for r, _, _ in batch])]
        except BaseException as exc:  # the callers get the error; the writer goes on
            if len(batch) == 1:
                return [(None, exc)]
        results: list[tuple[CallRecord | None, BaseException | None]] = []
        for record, _, _ in batch:
            try:
                results.append((self.store.record(record), None))
            except BaseException as exc:
                results.append((None, exc))
        return results

    def close(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(10)


def _settle(
    future: asyncio.Future[CallRecord], result: CallRecord | None, error: BaseException | None
) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)  # type: ignore[arg-type]
