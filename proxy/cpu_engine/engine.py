"""The engine: one worker thread that owns the model, batches queued requests and swaps weights.

Every model touch (decode, reload) happens on that one thread, so a reload always lands between batches
and the asyncio server only ever waits on futures. Requests that arrive within `batch_wait_s` of each other
(up to `max_batch_size`) are decoded together.
"""

from __future__ import annotations

import base64
import binascii
import queue
import threading
import time
import uuid
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

import torch
from transformers import AutoTokenizer

from proxy.cpu_engine.decode import Row, generate, generate_one
from proxy.cpu_engine.schema import (
    FinishReason,
    GenerateRequest,
    GenerateResponse,
    MetaInfo,
    Metrics,
    ModelInfo,
    ReloadResponse,
)
from proxy.cpu_engine.weights import load_model, reload_weights
from proxy.vision_prompt import VisionPrompt, VisionPromptError


class EngineError(ValueError):
    """A request the engine will not serve; the message is for the client."""


class EngineClosed(RuntimeError):
    """The engine stopped before it could answer."""


@dataclass
class _Job:
    request: GenerateRequest
    future: Future[GenerateResponse] = field(default_factory=Future)
    arrived: float = field(default_factory=time.monotonic)


class _Stop:
    """Queued by `close`: the worker ends after what it is doing."""


@dataclass
class _Reload:
    path: Path | None
    version: int | None
    future: Future[ReloadResponse] = field(default_factory=Future)


class CpuEngine:
    """Serves one HF causal LM from a model directory on CPU, token ids in, token ids out."""

    def __init__(
        self,
        model_dir: Path,
        *,
        max_batch_size: int = 8,
        batch_wait_s: float = 0.005,
        threads: int | None = None,
    ) -> None:
        if threads is not None:
            torch.set_num_threads(threads)
        self.model_dir = model_dir.resolve()
        self.model = load_model(self.model_dir)
        self.tokenizer = AutoTokenizer.from_pretrained(self.model_dir)
        self.vision = VisionPrompt(self.model_dir) if VisionPrompt.found_in(self.model_dir) else None
        """A vision-language model's processor: its requests may carry `image_data` and run one at a time."""
        config = getattr(self.model.config, "text_config", None) or self.model.config
        self.vocab_size = int(config.vocab_size)
        self.max_context = int(config.max_position_embeddings)
        self.eos_ids = _eos_ids(config.eos_token_id, self.model.generation_config.eos_token_id)
        self.max_batch_size = max_batch_size
        self.batch_wait_s = batch_wait_s
        self._queue: queue.Queue[_Job | _Reload | _Stop] = queue.Queue()
        self._metrics = Metrics()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    # --- called from any thread -------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="local-engine", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the worker after the batch in flight; queued requests fail with `EngineClosed`."""
        if self._thread is not None:
            self._queue.put(_Stop())
            self._thread.join()
            self._thread = None

    def submit(self, request: GenerateRequest) -> Future[GenerateResponse]:
        """Queue a request (after checking it fits this model); the future holds the answer."""
        if self._thread is None:
            raise EngineClosed("the engine is not running")
        self._check(request)
        job = _Job(request)
        self._queue.put(job)
        return job.future

    def reload(self, path: Path | None = None, version: int | None = None) -> Future[ReloadResponse]:
        """Queue a weight reload from `path` (default: the current directory); it runs between batches."""
        if self._thread is None:
            raise EngineClosed("the engine is not running")
        job = _Reload(path.resolve() if path is not None else None, version)
        self._queue.put(job)
        return job.future

    def metrics(self) -> Metrics:
        with self._lock:
            return self._metrics.model_copy(update={"queued": self._queue.qsize()})

    def info(self) -> ModelInfo:
        with self._lock:
            return ModelInfo(
                model_path=str(self.model_dir),
                vocab_size=self.vocab_size,
                max_context_length=self.max_context,
                eos_token_ids=sorted(self.eos_ids),
                weight_version=self._metrics.weight_version,
                max_batch_size=self.max_batch_size,
            )

    def _check(self, request: GenerateRequest) -> None:
        ids = request.input_ids + request.sampling_params.stop_token_ids
        bad = sorted({i for i in ids if not 0 <= i < self.vocab_size})
        if bad:
            raise EngineError(f"token ids out of the vocabulary (size {self.vocab_size}): {bad[:10]}")
        if len(request.input_ids) > self.max_context:
            raise EngineError(
                f"prompt of {len(request.input_ids)} tokens exceeds the context of {self.max_context}"
            )
        if request.image_data and self.vision is None:
            raise EngineError(f"the model {self.model_dir.name} takes text only; the request has image_data")
        if (
            self.vision is not None
            and self.vision.image_token_id in request.input_ids
            and not request.image_data
        ):
            raise EngineError("the prompt holds image tokens but the request has no image_data")

    # --- the worker thread ------------------------------------------------------------------------

    def _run(self) -> None:
        interrupt: _Reload | _Stop | None = None
        while True:
            item = interrupt if interrupt is not None else self._queue.get()
            interrupt = None
            if isinstance(item, _Stop):
                return self._drain()
            if isinstance(item, _Reload):
                self._reload(item)
                continue
            batch, interrupt = self._collect(item)
            self._serve(batch)

    def _collect(self, first: _Job) -> tuple[list[_Job], _Reload | _Stop | None]:
        """Jobs that arrive within the wait window; a reload or a stop ends the window (and runs next)."""
        batch = [first]
        deadline = time.monotonic() + self.batch_wait_s
        while len(batch) < self.max_batch_size:
            try:
                item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if not isinstance(item, _Job):
                return batch, item
            batch.append(item)
        return batch, None

    def _serve(self, jobs: list[_Job]) -> None:
        jobs = [j for j in jobs if j.future.set_running_or_notify_cancel()]
        if self.vision is not None:  # its positions are per image grid: each request runs alone
            for job in jobs:
                self._serve_alone(job)
            return
        rows = [self._row(j.request) for j in jobs]
        try:
            generate(self.model, rows, self.max_context)
        except Exception as exc:  # the batch fails as a whole; the engine keeps serving
            for j in jobs:
                j.future.set_exception(exc)
            return
        self._answer(jobs, rows)

    def _serve_alone(self, job: _Job) -> None:
        """One request of a vision-language model: its images become pixel values here, with the processor
        the proxy expanded the prompt with, and the pad count must agree."""
        assert self.vision is not None
        row = self._row(job.request)
        try:
            ids = torch.tensor([job.request.input_ids], dtype=torch.long)
            inputs: dict[str, object] = {}
            found = None
            if job.request.image_data:
                images = [base64.b64decode(data, validate=True) for data in job.request.image_data]
                found = self.vision.inputs(images)
                self.vision.check(job.request.input_ids, found.pads)
                inputs = {"pixel_values": found.pixel_values, "image_grid_thw": found.image_grid_thw}
            positions, types, delta = self.vision.positions(self.model, ids, found)
            generate_one(
                self.model, row, self.max_context, positions, delta, mm_token_type_ids=types, **inputs
            )
        except (VisionPromptError, binascii.Error, ValueError) as exc:
            job.future.set_exception(EngineError(f"image_data: {exc}"))
            return
        except Exception as exc:
            job.future.set_exception(exc)
            return
        self._answer([job], [row])

    def _answer(self, jobs: list[_Job], rows: list[Row]) -> None:
        with self._lock:
            m = self._metrics
            m.requests += len(jobs)
            m.batches += 1
            m.max_batch_size_seen = max(m.max_batch_size_seen, len(jobs))
            m.prompt_tokens += sum(len(r.prompt) for r in rows)
            m.generated_tokens += sum(len(r.output) for r in rows)
            version = m.weight_version
        for job, row in zip(jobs, rows, strict=True):
            if row.finish is None:  # generate() ends every row with a reason; this one is a decode bug
                job.future.set_exception(
                    RuntimeError("the decode loop returned a row without a finish reason")
                )
            else:
                job.future.set_result(self._response(job, row, row.finish, version))

    def _row(self, request: GenerateRequest) -> Row:
        params = request.sampling_params
        stops = set(params.stop_token_ids) | (set() if params.ignore_eos else self.eos_ids)
        return Row(prompt=request.input_ids, params=params, stop_ids=frozenset(stops))

    def _response(self, job: _Job, row: Row, finish: FinishReason, version: int) -> GenerateResponse:
        request = job.request
        logprobs = (
            [(lp, t, None) for lp, t in zip(row.logprobs, row.output, strict=True)]
            if request.return_logprob
            else None
        )
        params = request.sampling_params
        shown = row.output[:-1] if finish.type == "stop" and not params.no_stop_trim else row.output
        text = str(self.tokenizer.decode(shown, skip_special_tokens=params.skip_special_tokens))
        return GenerateResponse(
            text=text,
            output_ids=row.output,
            meta_info=MetaInfo(
                id=request.rid or uuid.uuid4().hex,
                finish_reason=finish,
                prompt_tokens=len(row.prompt),
                completion_tokens=len(row.output),
                output_token_logprobs=logprobs,
                weight_version=version,
                e2e_latency=round(time.monotonic() - job.arrived, 6),
            ),
        )

    def _reload(self, job: _Reload) -> None:
        if not job.future.set_running_or_notify_cancel():
            return
        started = time.monotonic()
        path = job.path or self.model_dir
        try:
            reload_weights(self.model, path)
        except Exception as exc:
            job.future.set_exception(exc)
            return
        with self._lock:
            self.model_dir = path
            m = self._metrics
            m.weight_version = job.version if job.version is not None else m.weight_version + 1
            m.reloads += 1
            version = m.weight_version
        job.future.set_result(
            ReloadResponse(
                weight_version=version, path=str(path), seconds=round(time.monotonic() - started, 4)
            )
        )

    def _drain(self) -> None:
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if not isinstance(item, _Stop) and item.future.set_running_or_notify_cancel():
                item.future.set_exception(EngineClosed("the engine stopped"))


def _eos_ids(*values: int | list[int] | None) -> set[int]:
    ids: set[int] = set()
    for v in values:
        if isinstance(v, int):
            ids.add(v)
        elif v:
            ids.update(v)
    return ids
