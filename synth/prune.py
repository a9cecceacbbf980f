"""The prune stage: which proposals go on to `build`, and why each other one stops here.

`prune(candidates, kept_before, blocklist)` decides for each candidate, in order, and the first check it
fails is its decision's `rule`:

1. quality rules (`QUALITY_RULES`, cheap, each with a name: `quality:<name>`);
2. `exact-duplicate`: the same content (`Proposal.content_sha256`) or the same normalised instruction as
   a proposal kept before;
3. the blocklist, the tasks of the catalogs the run must not copy (`blocklist_from_catalogs`; the
   default caller passes catalog/claw): `blocklist-near` (MinHash), then `blocklist-semantic`;
4. `near-duplicate`: estimated Jaccard of word 3-gram shingles >= `minhash_threshold`;
5. `semantic-duplicate`: cosine of the embeddings >= `semantic_threshold`.

"Kept before" is `kept_before` (the survivors of earlier batches, so a resumed or later batch dedups
against them) and the candidates this call has already kept. A proposal is never compared with its own
ancestors (`provenance.parent`, followed through the proposals given): a refined version replaces its
parent, it does not duplicate it. Decisions depend only on the inputs (no clock, no randomness, ties
go to the earliest proposal).
"""

from __future__ import annotations

import re
from collections.abc import Callable, MutableMapping, Sequence
from pathlib import Path

import numpy as np
from datasketch import MinHash
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from envs.errors import TaskLoadError
from envs.task import find_task_dirs, load_task
from synth.similarity import (
    MINHASH_THRESHOLD,
    Embedder,
    NearDuplicateIndex,
    SemanticIndex,
    TextEncoder,
    encode_cached,
    minhash,
    normalise,
)
from synth.spec import Proposal

SEMANTIC_THRESHOLD = 0.81
"""Cosine of all-MiniLM-L6-v2 embeddings (of the normalised instructions) at which two instructions
are one task.

Measured (tests/synth/test_prune.py, `PARAPHRASES` and `SAME_KIND`):

- 12 pairs of one claw task written twice (reworded, reordered, other formatting): 0.848 to 0.950
  (mean 0.884), and one outlier at 0.672 (a `.env` redaction said as "replace the value of every
  variable" and as "redact the secrets");
- 12 pairs of different tasks of one kind (one template, other operations, paths and data:
  "sum revenue per region of /app/sales.csv into JSON" and "count orders per customer of
  /app/orders.csv into CSV"): 0.165 to 0.776 (mean 0.499);
- the 16 tasks of catalog/claw between themselves (120 pairs): -0.022 to 0.611 (mean 0.200).

0.81 sits in the middle of the gap between the closest different tasks (0.776: verifying a SHA256SUMS
manifest and writing one) and the least alike paraphrases (0.848). Paraphrases as loose as the outlier
are kept: no threshold drops them without dropping different tasks of one kind too."""

SOLVE_SCRIPT = "solution/solve.sh"
TEST_SCRIPT = "tests/test.sh"
REWARD_PATH = "/logs/verifier/reward"
"""What a verifier must write (`reward.txt` or `reward.json` below /logs/verifier)."""


class PruneConfig(BaseModel):
    """The prune stage's thresholds and bounds (recorded with the run: a resumed run must use the same)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    minhash_threshold: float = Field(default=MINHASH_THRESHOLD, gt=0.0, le=1.0)
    """Estimated Jaccard of word 3-gram shingles at or above which a proposal is a near-duplicate
    (`synth.similarity.MINHASH_THRESHOLD` says why 0.8)."""
    semantic: bool = True
    """Compare embeddings too (loads the embedder); off, only exact and near duplicates are found."""
    semantic_threshold: float = Field(default=SEMANTIC_THRESHOLD, gt=0.0, le=1.0)
    """Cosine at or above which a proposal is a semantic duplicate (`SEMANTIC_THRESHOLD` says why)."""
    min_instruction_chars: int = Field(default=60, ge=0)
    """Shorter, an instruction cannot name the files and the result a verifier checks ("Sort
    /app/names.txt into /app/sorted.txt, one name per line." is 55 characters)."""
    max_instruction_chars: int = Field(default=8000, ge=1)
    """Longer, it is a specification dump, not a user's request (catalog/claw's run 660 to 2,400)."""
    min_solution_chars: int = Field(default=12, ge=0)
    """Fewer characters of commands in solve.sh (comments, blank lines and `set -e` left out), the
    reference solution does nothing (`exit 0`, `true`, `echo done`)."""
    max_environment_bytes: int = Field(default=1_000_000, ge=0)
    """The budget for all files under environment/ together (UTF-8 bytes): the image's build context;
    data the task needs in bulk is generated in the Dockerfile, not carried in the proposal."""


QUALITY_RULE_NAMES = (
    "instruction-too-short",
    "instruction-too-long",
    "instruction-names-no-file",
    "instruction-mentions-hidden-dir",
    "solution-trivial",
    "tests-write-no-reward",
    "environment-too-large",
)
"""In the order they are checked; a decision's rule is `quality:<name>` of the first that fails."""
DUPLICATE_RULES = (
    "exact-duplicate",
    "near-duplicate",
    "semantic-duplicate",
    "blocklist-near",
    "blocklist-semantic",
)
RULES = (*DUPLICATE_RULES, *(f"quality:{name}" for name in QUALITY_RULE_NAMES))


class PruneDecision(BaseModel):
    """What prune decided for one proposal (a line of prune-report.jsonl)."""

    id: str
    kept: bool
    rule: str | None = None
    """None when kept; else one of `RULES`: the first check the proposal failed."""
    duplicate_of: str | None = None
    """The proposal id it duplicates, or `catalog:<catalog path>/<task name>` for the blocklist."""
    similarity: float | None = None
    """The duplicate's estimated Jaccard (exact, near, blocklist-near) or cosine (semantic)."""
    detail: str = ""
    """One line: why, with the measured value and the bound it crossed."""

    @field_validator("rule")
    @classmethod
    def _known_rule(cls, rule: str | None) -> str | None:
        if rule is not None and rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}; rules: {', '.join(RULES)}")
        return rule

    @model_validator(mode="after")
    def _consistent(self) -> PruneDecision:
        if self.kept != (self.rule is None):
            raise ValueError("a kept proposal has no rule, a dropped one has one")
        if self.duplicate_of is not None and self.rule not in DUPLICATE_RULES:
            raise ValueError("only a duplicate rule names what it duplicates")
        return self


class BlockItem(BaseModel):
    """A task the run must not reproduce: a catalog task's name and instruction."""

    model_config = ConfigDict(frozen=True)

    catalog: str
    """The catalog directory, as the caller gave it (`catalog/claw`)."""
    name: str
    instruction: str

    @property
    def ref(self) -> str:
        """How a decision names it: `catalog:<catalog>/<name>`."""
        return f"catalog:{self.catalog}/{self.name}"


def blocklist_from_catalogs(paths: Sequence[Path]) -> list[BlockItem]:
    """Every task below each catalog directory (name and instruction; a multi-step task's step
    instructions joined), catalogs in the order given, tasks sorted by directory.

    A path with no task below it raises TaskLoadError (a mistyped catalog would otherwise let copies of
    its tasks through), as does a task that does not load.
    """
    items: list[BlockItem] = []
    for path in paths:
        task_dirs = find_task_dirs(path)
        if not task_dirs:
            raise TaskLoadError(Path(path).name, str(path), "no task.toml here or in any folder below")
        for task_dir in task_dirs:
            task = load_task(task_dir)
            instruction = task.instruction or "\n\n".join(step.instruction for step in task.steps)
            if instruction.strip():
                items.append(
                    BlockItem(catalog=Path(path).as_posix(), name=task.name, instruction=instruction)
                )
    return items


# --- quality rules --------------------------------------------------------------------------------

_ABSOLUTE_PATH = re.compile(r"(?<![\w.~/:-])(?:~?/[\w.-]+)")
"""`/app/x`, `/var/log`, `~/notes`; not `and/or`, `24/7` or a URL's `//`."""
_FILE_NAME = re.compile(r"(?<![\w/])(?:[\w-]+\.[A-Za-z][A-Za-z0-9]{0,7}|\.[A-Za-z][\w.-]*)\b")
"""`report.py`, `SPEC.md`, `.env`, `config.ini`."""
_NOT_FILES = frozenset({"e.g", "i.e"})
_LOCAL_SITE = re.compile(r"https?://(?:127\.0\.0\.1|localhost)(?::\d+)?/")
"""A browser task's site, served in its own container."""
_HIDDEN_DIR = re.compile(r"(?<![\w.~/-])/(?:tests|solution)(?![\w-])(?!\.\w)")
"""The verifier's `/tests` and the reference solution's `/solution`, as absolute paths (not
`/app/tests`, not `/tests_old`): they are not in the agent's container, and an instruction that sends
the agent there, or tells it what the tests check there, leaks or breaks the task."""
_COMMENT_OR_BOILERPLATE = re.compile(r"^\s*(?:#.*|set\s+[-+][\w -]*|)$")


def _instruction_too_short(proposal: Proposal, config: PruneConfig) -> str | None:
    size = len(proposal.instruction.strip())
    if size < config.min_instruction_chars:
        return f"the instruction is {size} characters (minimum {config.min_instruction_chars})"
    return None


def _instruction_too_long(proposal: Proposal, config: PruneConfig) -> str | None:
    size = len(proposal.instruction.strip())
    if size > config.max_instruction_chars:
        return f"the instruction is {size} characters (maximum {config.max_instruction_chars})"
    return None


def _instruction_names_no_file(proposal: Proposal, config: PruneConfig) -> str | None:
    text = proposal.instruction
    if proposal.provenance.domain == "browser":  # the result is the site's state: it must name the site
        if _LOCAL_SITE.search(text):
            return None
        return "the instruction names no local site (http://127.0.0.1:PORT/): nothing says where to work"
    if _ABSOLUTE_PATH.search(text):
        return None
    if any(match.group(0).lower() not in _NOT_FILES for match in _FILE_NAME.finditer(text)):
        return None
    return "the instruction names no absolute path and no file: nothing says where the result must be"


def _instruction_mentions_hidden_dir(proposal: Proposal, config: PruneConfig) -> str | None:
    found = sorted({match.group(0) for match in _HIDDEN_DIR.finditer(proposal.instruction)})
    if found:
        return (
            f"the instruction mentions {', '.join(found)}: the hidden tests and solution are not in the "
            "agent's container"
        )
    return None


def _solution_trivial(proposal: Proposal, config: PruneConfig) -> str | None:
    if proposal.files is None:
        return None
    script = proposal.files.files.get(SOLVE_SCRIPT, "")
    commands = [line.strip() for line in script.splitlines() if not _COMMENT_OR_BOILERPLATE.match(line)]
    size = len(" ".join(commands))
    if size < config.min_solution_chars:
        shown = "; ".join(commands) or "nothing"
        return (
            f"{SOLVE_SCRIPT} has {size} characters of commands ({shown!r}; minimum "
            f"{config.min_solution_chars}): a reference solution must do the work"
        )
    return None


def _tests_write_no_reward(proposal: Proposal, config: PruneConfig) -> str | None:
    if proposal.files is None:
        return None
    if REWARD_PATH not in proposal.files.files.get(TEST_SCRIPT, ""):
        return f"{TEST_SCRIPT} never mentions {REWARD_PATH}(.txt|.json): the run would have no reward"
    return None


def _environment_too_large(proposal: Proposal, config: PruneConfig) -> str | None:
    if proposal.files is None:
        return None
    sizes = {
        path: len(content.encode())
        for path, content in proposal.files.files.items()
        if path.startswith("environment/")
    }
    total = sum(sizes.values())
    if total > config.max_environment_bytes:
        largest = max(sorted(sizes), key=lambda path: sizes[path])
        return (
            f"environment/ holds {total} bytes (budget {config.max_environment_bytes}); the largest is "
            f"{largest} ({sizes[largest]} bytes)"
        )
    return None


QualityRule = Callable[[Proposal, PruneConfig], str | None]
QUALITY_RULES: tuple[tuple[str, QualityRule], ...] = tuple(
    zip(
        QUALITY_RULE_NAMES,
        (
            _instruction_too_short,
            _instruction_too_long,
            _instruction_names_no_file,
            _instruction_mentions_hidden_dir,
            _solution_trivial,
            _tests_write_no_reward,
            _environment_too_large,
        ),
        strict=True,
    )
)
"""(name, check): a check returns why the proposal fails it, or None. The file rules pass a proposal
without files (an LLM's, whose files come in build)."""


def quality_failures(proposal: Proposal, config: PruneConfig) -> list[tuple[str, str]]:
    """(rule name, why) of every quality rule the proposal fails, in `QUALITY_RULE_NAMES` order."""
    failures = []
    for name, check in QUALITY_RULES:
        why = check(proposal, config)
        if why is not None:
            failures.append((name, why))
    return failures


# --- the stage ------------------------------------------------------------------------------------


def _ancestors(proposal: Proposal, parents: dict[str, str | None]) -> frozenset[str]:
    """The ids of the proposals this one refines, through the parents known (a cycle ends the walk)."""
    found: list[str] = []
    parent = proposal.provenance.parent
    while parent is not None and parent not in found and parent != proposal.id:
        found.append(parent)
        parent = parents.get(parent)
    return frozenset(found)


def _check_ids(candidates: Sequence[Proposal], kept_before: Sequence[Proposal]) -> None:
    seen: set[str] = set()
    for proposal in [*kept_before, *candidates]:
        if proposal.id in seen:
            raise ValueError(
                f"proposal id {proposal.id!r} appears twice among the candidates and kept_before (a "
                "batch's own proposals must not be passed as kept before it)"
            )
        seen.add(proposal.id)


def _drop(
    proposal: Proposal,
    rule: str,
    detail: str,
    duplicate_of: str | None = None,
    similarity: float | None = None,
) -> PruneDecision:
    return PruneDecision(
        id=proposal.id,
        kept=False,
        rule=rule,
        duplicate_of=duplicate_of,
        similarity=None if similarity is None else round(similarity, 4),
        detail=detail,
    )


class _Pruner:
    """The state of one `prune` call: the blocklist's indexes and those of what is kept so far."""

    def __init__(self, blocklist: Sequence[BlockItem], config: PruneConfig) -> None:
        self.config = config
        self.block_text = {normalise(item.instruction): item.ref for item in reversed(blocklist)}
        self.block_near = NearDuplicateIndex(config.minhash_threshold)
        for item in blocklist:
            self.block_near.add(item.ref, minhash(item.instruction))
        self.block_semantic = SemanticIndex()
        self.kept_sha: dict[str, str] = {}
        self.kept_text: dict[str, str] = {}
        self.kept_near = NearDuplicateIndex(config.minhash_threshold)
        self.kept_semantic = SemanticIndex()

    def keep(self, proposal: Proposal, text: str, signature: MinHash, vector: np.ndarray | None) -> None:
        self.kept_sha.setdefault(proposal.content_sha256, proposal.id)
        self.kept_text.setdefault(text, proposal.id)
        self.kept_near.add(proposal.id, signature)
        if vector is not None:
            self.kept_semantic.add(proposal.id, vector)

    def duplicate(
        self,
        proposal: Proposal,
        ancestors: frozenset[str],
        text: str,
        signature: MinHash,
        vector: np.ndarray | None,
    ) -> PruneDecision | None:
        """The decision dropping a proposal that passed the quality rules, or None to keep it."""
        near_bound = f"(threshold {self.config.minhash_threshold})"
        semantic_bound = f"(threshold {self.config.semantic_threshold})"

        same = self.kept_sha.get(proposal.content_sha256)
        if same is not None and same not in ancestors:
            return _drop(
                proposal, "exact-duplicate", "the same instruction and files (content_sha256)", same, 1.0
            )
        same = self.kept_text.get(text)
        if same is not None and same not in ancestors:
            return _drop(proposal, "exact-duplicate", "the same instruction once normalised", same, 1.0)

        if text in self.block_text:
            detail = "the catalog task's instruction, once normalised"
            return _drop(proposal, "blocklist-near", detail, self.block_text[text], 1.0)
        match = self.block_near.best(signature)
        if match is not None:
            detail = (
                f"estimated Jaccard {match.similarity:.3f} of word 3-grams with a catalog task {near_bound}"
            )
            return _drop(proposal, "blocklist-near", detail, match.label, match.similarity)
        if vector is not None:
            match = self.block_semantic.nearest(vector)
            if match is not None and match.similarity >= self.config.semantic_threshold:
                detail = f"cosine {match.similarity:.3f} with a catalog task's embedding {semantic_bound}"
                return _drop(proposal, "blocklist-semantic", detail, match.label, match.similarity)

        match = self.kept_near.best(signature, exclude=ancestors)
        if match is not None:
            detail = f"estimated Jaccard {match.similarity:.3f} of word 3-grams {near_bound}"
            return _drop(proposal, "near-duplicate", detail, match.label, match.similarity)
        if vector is not None:
            match = self.kept_semantic.nearest(vector, exclude=ancestors)
            if match is not None and match.similarity >= self.config.semantic_threshold:
                detail = f"cosine {match.similarity:.3f} of the embeddings {semantic_bound}"
                return _drop(proposal, "semantic-duplicate", detail, match.label, match.similarity)
        return None


def prune(
    candidates: Sequence[Proposal],
    kept_before: Sequence[Proposal] = (),
    blocklist: Sequence[BlockItem] = (),
    config: PruneConfig = PruneConfig(),
    embedder: TextEncoder | None = None,
    cache: MutableMapping[str, np.ndarray] | None = None,
) -> list[PruneDecision]:
    """One decision per candidate, in their order (the module's docstring lists the checks).

    `embedder` embeds the normalised instructions when `config.semantic` (default: an `Embedder`,
    whose model loads once per process). `cache`: vectors by `synth.similarity.text_key` of the
    normalised instruction, read and filled: an `EmbeddingCache` (which the run directory persists)
    or a plain dict. Raises ValueError when an id appears twice among the candidates and `kept_before`.
    """
    _check_ids(candidates, kept_before)
    failures = {p.id: quality_failures(p, config) for p in candidates}
    compared = [*kept_before, *(p for p in candidates if not failures[p.id])]
    parents = {p.id: p.provenance.parent for p in [*kept_before, *candidates]}
    texts = {p.id: normalise(p.instruction) for p in compared}
    signatures = {p.id: minhash(p.instruction) for p in compared}

    pruner = _Pruner(blocklist, config)
    vectors: dict[str, np.ndarray] = {}
    if config.semantic:
        encoder = embedder if embedder is not None else Embedder()
        block_texts = [normalise(item.instruction) for item in blocklist]
        matrix = encode_cached(encoder, [*block_texts, *(texts[p.id] for p in compared)], cache)
        for item, vector in zip(blocklist, matrix[: len(blocklist)], strict=True):
            pruner.block_semantic.add(item.ref, vector)
        vectors = dict(zip((p.id for p in compared), matrix[len(blocklist) :], strict=True))

    for proposal in kept_before:
        pruner.keep(proposal, texts[proposal.id], signatures[proposal.id], vectors.get(proposal.id))

    decisions = []
    for proposal in candidates:
        if failures[proposal.id]:
            (name, why), *others = failures[proposal.id]
            also = f" (also fails: {', '.join(other for other, _ in others)})" if others else ""
            decisions.append(_drop(proposal, f"quality:{name}", why + also))
            continue
        pid = proposal.id
        ancestors = _ancestors(proposal, parents)
        dropped = pruner.duplicate(proposal, ancestors, texts[pid], signatures[pid], vectors.get(pid))
        if dropped is None:
            pruner.keep(proposal, texts[pid], signatures[pid], vectors.get(pid))
            decisions.append(PruneDecision(id=pid, kept=True))
        else:
            decisions.append(dropped)
    return decisions
