"""The LLM proposer: tasks written by a model behind an OpenAI-compatible chat-completions endpoint.

It has the offline proposer's interface (`propose`, `refine`) and one more call, `write_files`, that the
build stage makes: a proposal is first an idea (title, instruction, category, difficulty, keywords)
grounded in a few pool items chosen by the seed, and gets its files later. Every call is one chat
completion asking for a JSON object (`response_format={"type": "json_object"}`, dropped once and for
good if the server refuses it with a 400); the answer is parsed (also from a ```json fenced block) and
validated with pydantic. A model's bad answer never leaves `propose` or `refine` as an exception: it is
a `Rejected` carrying the call's usage. `write_files` raises ProposalInvalid, which the build stage
records. An endpoint that times out, refuses the connection, rate-limits or fails with a 5xx is retried
with exponential backoff; after `retries` more attempts the call raises ModelUnavailable.

Browser proposals (domain `browser`) are grounded in one site's seed from the web pool (the sites'
default seeds, or `<site>.json` files of the pools): the prompts show the site's reference
(synth/web_sites.py) and its data, the model names the site it proposes for, and writes the action
script, the checker and maybe the seed; synth/llm_browser.py writes the rest and checks them.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from synth import prompts
from synth.errors import ModelUnavailable, PoolError, ProposalInvalid
from synth.families.web import load_seed
from synth.llm_browser import HEALTHCHECK, MODEL_FILES, browser_task_files, seed_excerpt
from synth.pools import PoolItem, Pools
from synth.prompts import Site
from synth.spec import (
    DIFFICULTY_NAMES,
    Evidence,
    Proposal,
    ProposeRequest,
    Provenance,
    Rejected,
    TaskFiles,
    Usage,
    attempt_id,
    refined_difficulty,
)
from synth.web_sites import SITE_URL, SITES, reference

Messages = list[dict[str, str]]

EXCERPT_BYTES = 1536
"""A pool item's excerpt in a prompt is at most this long (UTF-8 bytes, with its truncation mark)."""
REFINE_FILE_BYTES = 6144
"""Each file of the old task is shown up to this many bytes in a refine prompt."""
DETAIL_BYTES = 4096
"""The tail of the evidence's detail (build log, checker output) a refine prompt shows."""
MAX_FILES_BYTES = 512 * 1024
"""A task's files, all together, may not be bigger than this."""
SEED_BYTES = 24 * 1024
"""A site's seed in a write_files prompt is shown whole up to this size (the shipped ones are 5-11 KB)."""
TRUNCATED = "\n[... truncated]"
RETRYABLE = (
    openai.APITimeoutError,
    openai.APIConnectionError,
    openai.RateLimitError,
    openai.InternalServerError,
)
"""What a retry can cure: a slow, unreachable, busy or failing server."""
DOCKERFILE_HEAD = re.compile(
    r"\AARG\s+FORGE_BASE(=\S+)?\s*\nFROM\s+(\$\{FORGE_BASE\}|\$FORGE_BASE)(\s+AS\s+\S+)?\s*(\n|\Z)",
    re.IGNORECASE,
)


class LLMConfig(BaseModel):
    """Where the model is and how it is called."""

    base_url: str
    """The OpenAI-compatible endpoint, e.g. `http://127.0.0.1:8000/v1`."""
    model: str
    api_key: str = Field(
        default_factory=lambda: os.environ.get("OPENAI_API_KEY", "none"), repr=False, exclude=True
    )
    """Never shown nor dumped (a run directory's settings do not hold it)."""
    timeout_sec: float = Field(default=120, gt=0)
    retries: int = Field(default=3, ge=0)
    """Attempts after the first one, for what a retry can cure (timeouts, connection errors, 429, 5xx)."""
    retry_wait_sec: float = Field(default=1.0, ge=0)
    """The first wait before a retry; each next one doubles, up to `retry_wait_max_sec`."""
    retry_wait_max_sec: float = Field(default=30.0, ge=0)
    temperature: float = Field(default=0.8, ge=0)
    max_tokens: int = Field(default=4096, ge=1)
    pool_items_shown: int = Field(default=3, ge=0)
    """How many pool items a propose prompt shows (chosen by the seed)."""


class _ProposeAnswer(BaseModel):
    """The JSON object a propose call asks for."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    id_hint: str = ""
    title: str = Field(min_length=3, max_length=200)
    instruction: str = Field(min_length=20)
    category: str = Field(min_length=1, max_length=40)
    difficulty: int = Field(default=2, ge=1, le=3)
    keywords: list[str] = Field(default_factory=list)
    site: str = ""
    """A browser proposal's site (empty: the site the prompt showed)."""

    @field_validator("title")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if "\n" in value:
            raise ValueError("must be one line")
        return value

    @field_validator("category")
    @classmethod
    def _category(cls, value: str) -> str:
        return value.lower()

    @field_validator("difficulty", mode="before")
    @classmethod
    def _difficulty(cls, value: Any) -> Any:
        names = {name: level for level, name in DIFFICULTY_NAMES.items()}
        return names.get(value.strip().lower(), value) if isinstance(value, str) else value

    @field_validator("keywords", mode="before")
    @classmethod
    def _keywords(cls, value: Any) -> Any:
        if isinstance(value, str):  # "csv, json, totals"
            value = value.split(",")
        if isinstance(value, list):
            return [str(k).strip().lower() for k in value if str(k).strip()]
        return value


class _RefineAnswer(BaseModel):
    """The JSON object a refine call asks for (files are checked on their own, merged onto the old ones)."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    title: str = Field(min_length=3, max_length=200)
    instruction: str = Field(min_length=20)
    difficulty: int | None = Field(default=None, ge=1, le=3)

    @field_validator("title")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if "\n" in value:
            raise ValueError("must be one line")
        return value


def messages_sha256(messages: Messages) -> str:
    """The hash of the exact messages sent (canonical JSON: sorted keys, no spaces, UTF-8)."""
    body = json.dumps(messages, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(body.encode()).hexdigest()


def clip(text: str, limit: int, *, tail: bool = False) -> str:
    """`text`, or its start (or end) within `limit` UTF-8 bytes, the truncation mark included."""
    data = text.encode()
    if len(data) <= limit:
        return text
    room = max(0, limit - len(TRUNCATED.encode()))
    if tail:
        cut = data[len(data) - room :].decode("utf-8", "ignore")
        newline = cut.find("\n")
        cut = cut[newline + 1 :] if 0 <= newline < len(cut) // 2 else cut
        return TRUNCATED.lstrip("\n") + "\n" + cut
    cut = data[:room].decode("utf-8", "ignore")
    newline = cut.rfind("\n")
    cut = cut[:newline] if newline > len(cut) // 2 else cut
    return cut + TRUNCATED


def excerpt(item: PoolItem, limit: int = EXCERPT_BYTES) -> str:
    """What a prompt shows of a pool item: its start for text kinds, the first rows for tables, the file
    list (and README) for a git repository."""
    try:
        if item.kind in ("sqlite", "records"):
            rows = item.records()[:40]
            text = "\n".join(json.dumps(row, default=str, ensure_ascii=False) for row in rows)
        elif item.kind == "git":
            names = sorted(
                str(p.relative_to(item.location))
                for p in item.location.rglob("*")
                if p.is_file() and ".git" not in p.relative_to(item.location).parts
            )
            text = "files:\n" + "\n".join(names[:60])
            readme = next(
                (item.location / n for n in ("README.md", "README") if (item.location / n).is_file()), None
            )
            if readme is not None:
                text += f"\n\n{readme.name}:\n" + readme.read_text(encoding="utf-8", errors="replace")
        else:
            text = item.read_text()
    except (OSError, ValueError) as exc:  # a pool item that cannot be read (a broken sqlite file, ...)
        text = f"(could not be read: {type(exc).__name__}: {exc})"
    return clip(text.strip("\n"), limit)


def shown(item: PoolItem) -> prompts.Shown:
    return prompts.Shown(
        name=item.name, kind=item.kind, pool=item.pool, path=item.path, excerpt=excerpt(item)
    )


def parse_json_object(text: str | None) -> dict[str, Any]:
    """The JSON object in a model's answer: the whole answer, else a ```json fenced block, else what lies
    between the outermost braces; ProposalInvalid if there is none (or the first JSON found is no object)."""
    if text is None or not text.strip():
        raise ProposalInvalid("the answer is empty")
    candidates = [text.strip()]
    candidates += [
        m.group(1) for m in re.finditer(r"```[ \t]*(?:json|JSON)?[ \t]*\n(.*?)```", text, re.DOTALL)
    ]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    error = ""
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError as exc:
            error = error or f"invalid JSON: {exc}"
            continue
        if isinstance(value, dict):
            return value
        error = f"the JSON is a {type(value).__name__}, not an object"
        break  # valid JSON, but not what was asked for: no object is dug out of it
    raise ProposalInvalid(f"the answer is not a JSON object ({error}): {clip(text.strip(), 200)!r}")


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"])
        parts.append(f"{where}: {error['msg']}" if where else error["msg"])
    return "; ".join(parts)


def _check_size(texts: dict[str, str]) -> None:
    size = sum(len(text.encode()) for text in texts.values())
    if size > MAX_FILES_BYTES:
        raise ProposalInvalid(f"the files are {size} bytes, more than {MAX_FILES_BYTES}")


def check_browser_files(
    site: str, files: dict[str, Any], instruction: str, seed: dict[str, Any]
) -> TaskFiles:
    """A browser task's files from the model's (see synth/llm_browser.py), within the size limit."""
    task_files = browser_task_files(site, files, instruction, seed)
    _check_size(task_files.files)
    return task_files


def check_files(files: dict[str, Any]) -> TaskFiles:
    """A task's files from a model's answer, held to the rules the prompt states; ProposalInvalid names
    what is wrong."""
    not_text = sorted(path for path, text in files.items() if not isinstance(text, str))
    if not_text:
        raise ProposalInvalid(f"these files are not text (a JSON string each): {', '.join(not_text)}")
    texts = {path: text for path, text in files.items() if path != "instruction.md"}
    try:
        task_files = TaskFiles(files=texts)
    except ValidationError as exc:
        raise ProposalInvalid(_validation_message(exc)) from None
    _check_size(texts)
    lines = [
        line.strip()
        for line in texts["environment/Dockerfile"].splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    if not DOCKERFILE_HEAD.match("\n".join(lines[:2])):
        raise ProposalInvalid(
            "environment/Dockerfile must begin with `ARG FORGE_BASE=openforge/base:latest` and "
            f"`FROM ${{FORGE_BASE}}`, not {' / '.join(lines[:2])!r}"
        )
    if "/logs/verifier/reward.txt" not in texts["tests/test.sh"]:
        raise ProposalInvalid("tests/test.sh never writes /logs/verifier/reward.txt")
    return task_files


def target_difficulty(proposal: Proposal, evidence: Evidence) -> tuple[int, str]:
    """The difficulty a refined version aims at, and what the prompt tells the model to do (as offline:
    harder if the policy always passed, easier if it never did, the same if the task was broken)."""
    target = refined_difficulty(proposal.difficulty, evidence)
    if evidence.side == "agent" and evidence.pass_rate is not None:
        advice = "harder" if evidence.pass_rate >= 1.0 else "easier"
        return target, prompts.ADVICE[advice].format(target=target)
    return target, prompts.ADVICE["task" if evidence.side == "task" else "none"]


class LLMProposer:
    """Proposals, their files and their refinements from a model (see the module's docstring)."""

    name = "llm"

    def __init__(
        self, domain: str, pools: Pools, config: LLMConfig, client: openai.OpenAI | None = None
    ) -> None:
        self.domain = domain
        self.pools = pools
        self.config = config
        self._own_client = client is None
        self.client = client or openai.OpenAI(
            base_url=config.base_url, api_key=config.api_key, timeout=config.timeout_sec, max_retries=0
        )
        self.json_mode = True
        """Whether calls ask for `response_format`; off for good once the server refused it."""
        self._by_ref = {item.ref: item for item in pools.all}
        if domain == "browser" and not any(
            i.name.removesuffix(".json") in SITES for i in pools.items("json")
        ):
            raise PoolError(
                f"the pools ({', '.join(pools.sources)}) hold no site seed "
                f"({', '.join(s + '.json' for s in SITES)}): browser proposals are grounded in one"
            )

    def close(self) -> None:
        """Close the HTTP client (if this proposer made it)."""
        if self._own_client:
            self.client.close()

    def __enter__(self) -> LLMProposer:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- the three calls -------------------------------------------------------------------------------

    def prompts(self, request: ProposeRequest) -> list[Messages]:
        """The exact messages `propose` would send for this request (for `--dry-run`); calls nothing."""
        return [self._propose_prompt(request, index)[0] for index in self._indices(request)]

    def propose(self, request: ProposeRequest) -> Iterator[tuple[Proposal | Rejected, Usage]]:
        for index in self._indices(request):
            messages, items, persona, api_seed = self._propose_prompt(request, index)
            proposal_id = attempt_id("llm", request.seed, index)
            usage = Usage()
            try:
                reply = self._complete(messages, api_seed)
                usage = reply.usage
                answer = _ProposeAnswer.model_validate(reply.json())
                params: dict[str, Any] = {"index": index, "id_hint": answer.id_hint, "api_seed": api_seed}
                keywords = answer.keywords
                if self.domain == "browser":
                    item = self._browser_site(answer, items[0])
                    items, params["site"] = [item], item.name.removesuffix(".json")
                    keywords = list(dict.fromkeys(["browser", params["site"], *keywords]))
                made: Proposal | Rejected = Proposal(
                    id=proposal_id,
                    title=answer.title,
                    instruction=answer.instruction,
                    category=answer.category,
                    difficulty=answer.difficulty,  # type: ignore[arg-type]
                    keywords=keywords,
                    healthcheck=HEALTHCHECK if self.domain == "browser" else None,
                    provenance=Provenance(
                        domain=self.domain,
                        proposer="llm",
                        model=self.config.model,
                        seed=request.seed,
                        params=params,
                        prompt_sha256=messages_sha256(messages),
                        pool_items=[item.ref for item in items],
                        persona=persona,
                    ),
                )
            except ValidationError as exc:
                made = self._rejected(proposal_id, "propose", _validation_message(exc), usage)
            except ProposalInvalid as exc:
                made = self._rejected(proposal_id, "propose", str(exc), usage)
            yield made, usage

    def write_files(self, proposal: Proposal) -> tuple[TaskFiles, Usage]:
        """The files of an LLM proposal (the build stage's call); ProposalInvalid if they are not a task."""
        messages = self.write_files_prompt(proposal)
        try:
            reply = self._complete(messages, self._api_seed(proposal.provenance.seed, proposal.id, "files"))
            files = reply.json().get("files")
            if not isinstance(files, dict) or not files:
                raise ProposalInvalid('the answer has no "files" object mapping paths to file contents')
            if self.domain == "browser":
                site, seed = self._grounding(proposal)
                return check_browser_files(site, files, proposal.instruction, seed), reply.usage
            return check_files(files), reply.usage
        except ProposalInvalid as exc:
            raise ProposalInvalid(f"{proposal.id}: the model's files are not a task: {exc}") from None

    def refine(
        self, proposal: Proposal, evidence: Evidence, run_seed: int
    ) -> tuple[Proposal | Rejected, Usage]:
        """A corrected version (`<base id>-v<version+1>`, `parent` the old id) from the old task (its
        `files`, if set) and the evidence against it."""
        version = proposal.provenance.version + 1
        base_id, new_id = proposal.base_id, proposal.next_id
        difficulty, _ = target_difficulty(proposal, evidence)
        try:
            messages = self.refine_prompt(proposal, evidence)
        except ProposalInvalid as exc:  # a browser proposal whose seed the pools no longer hold
            return self._rejected(base_id, "refine", str(exc), Usage()), Usage()
        api_seed = self._api_seed(run_seed, new_id, "refine")
        usage = Usage()
        try:
            reply = self._complete(messages, api_seed)
            usage = reply.usage
            raw = reply.json()
            answer = _RefineAnswer.model_validate(raw)
            changed = raw.get("files", {})
            if not isinstance(changed, dict):
                raise ProposalInvalid('"files" must be an object mapping paths to file contents')
            merged: dict[str, Any] = dict(proposal.files.files) if proposal.files else {}
            for path, content in changed.items():
                if content is None:
                    merged.pop(path, None)
                else:
                    merged[path] = content
            if self.domain == "browser":
                site, seed = self._grounding(proposal)
                files = check_browser_files(site, merged, answer.instruction, seed)
            else:
                files = check_files(merged)
            old = proposal.provenance
            made: Proposal | Rejected = proposal.model_copy(
                update={
                    "id": new_id,
                    "title": answer.title,
                    "instruction": answer.instruction,
                    "difficulty": answer.difficulty or difficulty,
                    "files": files,
                    "provenance": old.model_copy(
                        update={
                            "proposer": "llm",
                            "model": self.config.model,
                            "seed": run_seed,
                            "params": {**old.params, "api_seed": api_seed},
                            "prompt_sha256": messages_sha256(messages),
                            "parent": proposal.id,
                            "version": version,
                        }
                    ),
                }
            )
            made = Proposal.model_validate(made.model_dump())  # model_copy does not validate
        except ValidationError as exc:
            made = self._rejected(base_id, "refine", _validation_message(exc), usage)
        except ProposalInvalid as exc:
            made = self._rejected(base_id, "refine", str(exc), usage)
        return made, usage

    # --- prompts -----------------------------------------------------------------------------------------

    def write_files_prompt(self, proposal: Proposal) -> Messages:
        if self.domain == "browser":
            return prompts.browser_write_files_messages(
                title=proposal.title,
                instruction=proposal.instruction,
                category=proposal.category,
                difficulty=proposal.difficulty,
                site=self._site_shown(proposal, whole=True),
            )
        items = [self._by_ref[ref] for ref in proposal.provenance.pool_items if ref in self._by_ref]
        return prompts.write_files_messages(
            self.domain,
            title=proposal.title,
            instruction=proposal.instruction,
            category=proposal.category,
            difficulty=proposal.difficulty,
            items=[shown(item) for item in items],
        )

    def refine_prompt(self, proposal: Proposal, evidence: Evidence) -> Messages:
        _, advice = target_difficulty(proposal, evidence)
        files = proposal.files.files if proposal.files else None
        site = None
        if self.domain == "browser":
            site = self._site_shown(proposal, whole=False)
            files = {p: t for p, t in files.items() if p in MODEL_FILES} if files else None
        return prompts.refine_messages(
            self.domain,
            version=proposal.provenance.version,
            title=proposal.title,
            instruction=proposal.instruction,
            category=proposal.category,
            difficulty=proposal.difficulty,
            files={path: clip(text, REFINE_FILE_BYTES) for path, text in files.items()} if files else None,
            stage=evidence.stage,
            side=evidence.side,
            reason=evidence.reason,
            detail=clip(evidence.detail.strip("\n"), DETAIL_BYTES, tail=True),
            pass_rate=evidence.pass_rate,
            advice=advice,
            site=site,
        )

    @staticmethod
    def _indices(request: ProposeRequest) -> range:
        return range(request.start, request.start + request.n)

    @staticmethod
    def _api_seed(run_seed: int, *parts: object) -> int:
        return random.Random(":".join(str(p) for p in (run_seed, "llm", *parts))).randrange(2**31)

    def _propose_prompt(
        self, request: ProposeRequest, index: int
    ) -> tuple[Messages, list[PoolItem], str | None, int]:
        """The messages of proposal `index`, the pool items and persona they show, and the API seed (all
        chosen by the run's seed and the index, so a dry run shows what a real one sends)."""
        api_seed = self._api_seed(request.seed, index)
        rng = random.Random(api_seed)
        if self.domain == "browser":
            item = rng.choice(self._site_seeds())
            persona = rng.choice(request.personas) if request.personas else None
            site = self._site(item, seed_excerpt(load_seed(item)))
            messages = prompts.browser_propose_messages(index, site, persona, SITES)
            return messages, [item], persona, api_seed
        every = self.pools.all
        items = rng.sample(every, min(self.config.pool_items_shown, len(every)))
        persona = rng.choice(request.personas) if request.personas else None
        messages = prompts.propose_messages(self.domain, index, [shown(item) for item in items], persona)
        return messages, items, persona, api_seed

    # --- browser grounding -------------------------------------------------------------------------------

    def _site_seeds(self) -> list[PoolItem]:
        """The pools' site seeds (`<site>.json` of one of the five sites): the web pool."""
        seeds = [item for item in self.pools.items("json") if item.name.removesuffix(".json") in SITES]
        if not seeds:
            raise ProposalInvalid(f"the pools hold no site seed ({', '.join(s + '.json' for s in SITES)})")
        return seeds

    @staticmethod
    def _site(item: PoolItem, seed_text: str) -> Site:
        name = item.name.removesuffix(".json")
        return Site(name=name, reference=reference(name), seed_path=item.path, seed=seed_text)

    def _browser_site(self, answer: _ProposeAnswer, shown_item: PoolItem) -> PoolItem:
        """The seed a browser proposal is grounded in: its site's (the one shown, unless the model chose
        another the pools hold); ProposalInvalid for an unknown site or an instruction without the URL."""
        site = answer.site.lower() or shown_item.name.removesuffix(".json")
        if site not in SITES:
            raise ProposalInvalid(f"site: {site!r} is not one of the sites ({', '.join(SITES)})")
        if SITE_URL not in answer.instruction:
            raise ProposalInvalid(f"instruction: it never names the site's URL {SITE_URL}")
        if shown_item.name == f"{site}.json":
            return shown_item
        found = [item for item in self._site_seeds() if item.name == f"{site}.json"]
        if not found:
            raise ProposalInvalid(f"site: the pools hold no seed of the {site} site")
        return found[0]

    def _grounding(self, proposal: Proposal) -> tuple[str, dict[str, Any]]:
        """A browser proposal's site and the seed it was grounded in (a fresh copy)."""
        site = str(proposal.provenance.params.get("site", ""))
        item = next((self._by_ref[r] for r in proposal.provenance.pool_items if r in self._by_ref), None)
        if site not in SITES or item is None:
            raise ProposalInvalid(f"the proposal's site {site!r} or its seed is not in the pools")
        return site, load_seed(item)

    def _site_shown(self, proposal: Proposal, whole: bool) -> Site:
        site, seed = self._grounding(proposal)
        item = next(self._by_ref[r] for r in proposal.provenance.pool_items if r in self._by_ref)
        text = clip(item.read_text(), SEED_BYTES) if whole else seed_excerpt(seed)
        return Site(name=site, reference=reference(site), seed_path=item.path, seed=text)

    # --- the model call ----------------------------------------------------------------------------------

    def _rejected(self, proposal_id: str, stage: str, error: str, usage: Usage) -> Rejected:
        return Rejected(id=proposal_id, stage=stage, error_class="ProposalInvalid", error=error, usage=usage)

    def _unavailable(self, exc: BaseException, attempts: int) -> ModelUnavailable:
        tries = f" after {attempts} attempt{'s' if attempts > 1 else ''}" if attempts else ""
        return ModelUnavailable(
            f"model endpoint {self.config.base_url} (model {self.config.model!r}) is unavailable{tries}: "
            f"{type(exc).__name__}: {exc}"
        )

    def _create(self, messages: Messages, seed: int, json_mode: bool) -> ChatCompletion:
        """One completion, retried (with backoff) on what a retry can cure; ModelUnavailable after that and
        on any other refusal but a 400 (which the caller handles)."""
        attempts = self.config.retries + 1
        retrying = Retrying(
            retry=retry_if_exception_type(RETRYABLE),
            stop=stop_after_attempt(attempts),
            wait=wait_exponential(multiplier=self.config.retry_wait_sec, max=self.config.retry_wait_max_sec),
            reraise=True,
        )
        try:
            return retrying(
                self.client.chat.completions.create,
                model=self.config.model,
                messages=cast(list[ChatCompletionMessageParam], messages),
                temperature=self.config.temperature,
                max_tokens=self.config.max_tokens,
                seed=seed,
                response_format={"type": "json_object"} if json_mode else openai.omit,
            )
        except RETRYABLE as exc:
            raise self._unavailable(exc, attempts) from exc
        except openai.BadRequestError:
            raise
        except openai.APIError as exc:  # 401, 403, 404 (no such model), 422, an answer that is not JSON...
            raise self._unavailable(exc, 0) from exc

    def _complete(self, messages: Messages, seed: int) -> _Answer:
        """The answer's text and usage. A 400 to a JSON-mode request is retried once without
        `response_format` (and JSON mode stays off if that works); a 400 to a plain request is this
        prompt's fault (too long, say): ProposalInvalid."""
        try:
            response = self._create(messages, seed, self.json_mode)
        except openai.BadRequestError as exc:
            if not self.json_mode:
                raise ProposalInvalid(f"the model endpoint refused the request: {exc}") from None
            try:
                response = self._create(messages, seed, json_mode=False)
            except openai.BadRequestError as again:
                raise ProposalInvalid(f"the model endpoint refused the request: {again}") from None
            self.json_mode = False
        usage = Usage(calls=1)
        if response.usage is not None:
            usage = Usage(
                prompt_tokens=response.usage.prompt_tokens or 0,
                completion_tokens=response.usage.completion_tokens or 0,
                calls=1,
            )
        if not response.choices:
            return _Answer(None, usage, cut=False)
        choice = response.choices[0]
        return _Answer(choice.message.content, usage, cut=choice.finish_reason == "length")


@dataclass(frozen=True)
class _Answer:
    text: str | None
    usage: Usage
    cut: bool
    """The model stopped at max_tokens."""

    def json(self) -> dict[str, Any]:
        try:
            return parse_json_object(self.text)
        except ProposalInvalid as exc:
            if self.cut:
                raise ProposalInvalid(f"the answer was cut at max_tokens: {exc}") from None
            raise
