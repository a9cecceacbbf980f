"""`forge-proxy init-model`: a small Qwen3-architecture model built entirely on this machine.

No weights can be downloaded here, yet the proxy, the engines and training need a real HF model directory
with a real tokenizer and chat template. This builds one: a byte-level BPE tokenizer trained on a local,
deterministic corpus, a Qwen3-style chat template, and a randomly initialised `Qwen3ForCausalLM`.

The template differs from Qwen3's in one deliberate way: the think block of *every* assistant turn stays in
the history. With that, and with a tokenizer whose merges never cross a special token or a newline, the
prompt of turn k+1 extends the prompt of turn k plus its completion token for token, so calls chain into
one trajectory.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import torch
from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import GenerationConfig, PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM

ENDOFTEXT = "<|endoftext|>"
IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
SPECIAL_TOKENS = (
    ENDOFTEXT,
    IM_START,
    IM_END,
    "<think>",
    "</think>",
    "<tool_call>",
    "</tool_call>",
    "<tool_response>",
    "</tool_response>",
)

# Qwen2/3's pre-tokenizer regex (digits one by one, contractions, words with one leading symbol).
_QWEN_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)

# Qwen3's template, except that think blocks of earlier turns are kept (see the module docstring).
# An assistant turn renders `<think>\n{reasoning}\n</think>\n\n` whenever it has `reasoning_content`
# (even "") or its content holds `</think>`; `enable_thinking=false` prefills the empty think block, which
# is what a turn with `reasoning_content: ""` renders, so that case chains too.
CHAT_TEMPLATE = r"""
{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0].role == 'system' %}
        {{- messages[0].content + '\n\n' }}
    {%- endif %}
    {{- "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" }}
    {{- "You are provided with function signatures within <tools></tools> XML tags:\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments " }}
    {{- "within <tool_call></tool_call> XML tags:\n<tool_call>\n" }}
    {{- '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n' }}
{%- elif messages[0].role == 'system' %}
    {{- '<|im_start|>system\n' + messages[0].content + '<|im_end|>\n' }}
{%- endif %}
{%- for message in messages %}
    {%- if message.content is string %}
        {%- set content = message.content %}
    {%- else %}
        {%- set content = '' %}
    {%- endif %}
    {%- if message.role == 'user' or (message.role == 'system' and not loop.first) %}
        {{- '<|im_start|>' + message.role + '\n' + content + '<|im_end|>\n' }}
    {%- elif message.role == 'assistant' %}
        {%- set think = message.reasoning_content is string %}
        {%- set reasoning = message.reasoning_content if think else '' %}
        {%- if not think and '</think>' in content %}
            {%- set think = true %}
            {%- set reasoning = content.split('</think>')[0].rstrip('\n').split('<think>')[-1].lstrip('\n') %}
            {%- set content = content.split('</think>')[-1].lstrip('\n') %}
        {%- endif %}
        {{- '<|im_start|>assistant\n' }}
        {%- if think %}
            {{- '<think>\n' + reasoning.strip('\n') + '\n</think>\n\n' }}
        {%- endif %}
        {{- content }}
        {%- for tool_call in message.tool_calls or [] %}
            {%- if content or not loop.first %}
                {{- '\n' }}
            {%- endif %}
            {%- if tool_call.function %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '<tool_call>\n{"name": "' + tool_call.name + '", "arguments": ' }}
            {%- if tool_call.arguments is string %}
                {{- tool_call.arguments }}
            {%- else %}
                {{- tool_call.arguments | tojson }}
            {%- endif %}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- elif message.role == 'tool' %}
        {%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' + content + '\n</tool_response>' }}
        {%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
    {%- if enable_thinking is defined and enable_thinking is false %}
        {{- '<think>\n\n</think>\n\n' }}
    {%- endif %}
{%- endif %}
""".strip()

_REPO = Path(__file__).resolve().parents[2]
_CORPUS_SUFFIXES = (".md", ".sh", ".py")
_SPECIAL_RE = re.compile("|".join(re.escape(t) for t in SPECIAL_TOKENS))


def init_model(
    out_dir: Path,
    *,
    seed: int = 0,
    vocab_size: int = 4096,
    hidden_size: int = 128,
    layers: int = 2,
    heads: int = 4,
    kv_heads: int = 2,
    intermediate_size: int | None = None,
    max_position_embeddings: int = 32768,
    init_std: float = 0.02,
    corpus_dirs: Sequence[Path] | None = None,
) -> Path:
    """Build tokenizer and random model into `out_dir` (created if needed); return `out_dir`.

    `vocab_size` is the tokenizer's target size including the special tokens; the model's embedding is
    exactly the trained tokenizer's size, so every id the model can sample decodes. `corpus_dirs` defaults
    to the repository's `catalog/` (when present) in addition to generated text.
    """
    if hidden_size % heads or heads % kv_heads:
        raise ValueError("hidden_size must divide by heads, and heads by kv_heads")
    out_dir.mkdir(parents=True, exist_ok=True)
    dirs = list(corpus_dirs) if corpus_dirs is not None else [d for d in [_REPO / "catalog"] if d.is_dir()]
    tokenizer = build_tokenizer(corpus(seed, dirs), vocab_size)
    vocab = tokenizer.get_vocab()
    ids = {t: vocab[t] for t in (ENDOFTEXT, IM_END)}
    config = Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=intermediate_size or 3 * hidden_size,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        head_dim=hidden_size // heads,
        max_position_embeddings=max_position_embeddings,
        initializer_range=init_std,
        tie_word_embeddings=True,
        bos_token_id=ids[ENDOFTEXT],
        eos_token_id=ids[IM_END],
        pad_token_id=ids[ENDOFTEXT],
        rope_parameters={"rope_type": "default", "rope_theta": 1_000_000.0},
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Qwen3ForCausalLM(config)
    model.generation_config = GenerationConfig(
        bos_token_id=ids[ENDOFTEXT],
        eos_token_id=[ids[IM_END], ids[ENDOFTEXT]],
        pad_token_id=ids[ENDOFTEXT],
    )
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return out_dir


def build_tokenizer(
    texts: Iterator[str],
    vocab_size: int,
    special_tokens: Sequence[str] = SPECIAL_TOKENS,
    chat_template: str = CHAT_TEMPLATE,
) -> PreTrainedTokenizerFast:
    """Train a byte-level BPE on `texts` and wrap it with the special tokens and the chat template.

    Pre-tokens end at every newline, and special tokens are split out before BPE, so text that ends in a
    newline or a special token is a hard token boundary: encode(a + b) == encode(a) + encode(b) for such an
    `a`. The chat template's prefix property rests on this.
    """
    if vocab_size <= 256 + len(special_tokens):
        raise ValueError(f"vocab_size must exceed {256 + len(special_tokens)} (bytes + special tokens)")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(r"\n"), behavior="merged_with_previous"),
            pre_tokenizers.Split(Regex(_QWEN_SPLIT), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size - len(special_tokens),
        min_frequency=2,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer)
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in special_tokens])
    wrapped = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        eos_token=IM_END,
        pad_token=ENDOFTEXT,
        clean_up_tokenization_spaces=False,
        model_max_length=1 << 30,
    )
    wrapped.chat_template = chat_template
    return wrapped


def corpus(seed: int, dirs: Sequence[Path]) -> Iterator[str]:
    """Training text: the files under `dirs` (sorted) and generated text, with special tokens cut out."""
    for d in dirs:
        for path in sorted(p for p in d.rglob("*") if p.suffix in _CORPUS_SUFFIXES and p.is_file()):
            yield from _plain(path.read_text(errors="replace"))
    rng = random.Random(seed)
    makers = (_english, _shell, _json_doc, _python, _markdown, _chat)
    for i in range(12_000):
        yield from _plain(makers[i % len(makers)](rng))


def _plain(text: str) -> list[str]:
    return [part for part in _SPECIAL_RE.split(text) if part]


_WORDS_TEXT = (
    "the a an this that these file files directory line lines value values test tests task tasks run "
    "runs error errors output input result results number numbers name names user users data table query "
    "server request response model agent tool tools call calls step steps first last next new old read "
    "write check find list create update delete open close start stop build install fix add remove "
    "return print count sort filter parse save load copy move make is are was were be has have had will "
    "can should must may not no yes and or but if then else when while for with without from to in on at "
    "by of about after before into over under again because so it its we you they I he she them our your "
    "config log logs path paths script scripts command commands shell python json csv report summary "
    "total sum average time date today week month year small large quick simple correct wrong good bad "
    "here there now later please thanks sure done ok let me see look need want use using used work works"
)
_WORDS = tuple(_WORDS_TEXT.split())
_PATHS = ("/app", "/tmp", "/var/log", "/etc", "data", "src", "tests", "/app/out", "notes", "~/.config")
_FILES = ("main.py", "app.log", "data.csv", "config.json", "README.md", "notes.txt", "run.sh", "db.sqlite")


_SYLLABLES_TEXT = (
    "a e i o u ba be bi bo ca co da de di do fa fe fi ga ge go ha he hi ho ka ke ki ko la le li lo lu ma "
    "me mi mo mu na ne ni no pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va ve vi wa we ya "
    "ab ac ad al am an ar as at ed el em en er es et id il im in ir is it ob ol om on or os ot ul um un ur "
    "us ing tion ment ness able ly er est ed pre con dis ex pro str tr sh ch th ph qu st sp sk bl cl fl gr"
)
_SYLLABLES = tuple(_SYLLABLES_TEXT.split())


def _word(rng: random.Random) -> str:
    """A real word most of the time, otherwise a pronounceable made-up one (the vocabulary needs variety)."""
    if rng.random() < 0.7:
        return rng.choice(_WORDS)
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 4)))


def _sentence(rng: random.Random, lo: int = 5, hi: int = 16) -> str:
    words = [_word(rng) for _ in range(rng.randint(lo, hi))]
    if rng.random() < 0.3:
        words.insert(rng.randrange(len(words)), str(rng.randint(0, 10_000)))
    return " ".join(words).capitalize() + rng.choice(".....?!:")


def _english(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(1, 5))) + "\n"


def _shell(rng: random.Random) -> str:
    f, p, w = rng.choice(_FILES), rng.choice(_PATHS), _word(rng)
    commands = (
        f"ls -la {p}",
        f"cat {p}/{f} | head -n {rng.randint(1, 50)}",
        f"grep -rn '{w}' {p} | wc -l",
        f"cd {p} && python3 {f}",
        f"find {p} -name '*.{f.split('.')[-1]}' -type f",
        f"sed -i 's/{w}/{_word(rng)}/g' {p}/{f}",
        f'echo "{_sentence(rng, 2, 5)}" >> {p}/{f}',
        f"curl -s http://127.0.0.1:{rng.randint(1024, 9999)}/api/{w} | jq .",
        f"sqlite3 {p}/db.sqlite 'SELECT {w}, COUNT(*) FROM {_word(rng)} GROUP BY {w};'",
        "git status && git diff --stat",
        f"mkdir -p {p}/{w} && cp {f} {p}/{w}/",
        "python3 -m pytest -q",
    )
    lines = [rng.choice(commands) for _ in range(rng.randint(1, 4))]
    return ("$ " if rng.random() < 0.5 else "") + "\n".join(lines) + "\n"


def _json_value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(6 if depth < 2 else 4)
    if kind == 0:
        return rng.randint(-100, 100_000)
    if kind == 1:
        return round(rng.uniform(0, 1000), rng.randint(1, 3))
    if kind == 2:
        return " ".join(_word(rng) for _ in range(rng.randint(1, 4)))
    if kind == 3:
        return rng.choice([True, False, None])
    if kind == 4:
        return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {_word(rng): _json_value(rng, depth + 1) for _ in range(rng.randint(1, 4))}


def _json_doc(rng: random.Random) -> str:
    if rng.random() < 0.4:
        doc: object = {"name": _word(rng), "arguments": _json_value(rng, 1)}
    else:
        doc = _json_value(rng, 0)
    return json.dumps(doc, indent=rng.choice([None, 2])) + "\n"


def _python(rng: random.Random) -> str:
    name, arg, other = _word(rng), _word(rng), _word(rng)
    return (
        f"def {name}_{other}({arg}: list[str]) -> int:\n"
        f'    """{_sentence(rng, 3, 8)}"""\n'
        f"    total = 0\n"
        f"    for item in {arg}:\n"
        f"        if item.startswith({other!r}):\n"
        f"            total += len(item)\n"
        f"    return total\n\n\n"
        f"print({name}_{other}([{rng.randint(0, 99)!r}, {rng.choice(_FILES)!r}]))\n"
    )


def _markdown(rng: random.Random) -> str:
    items = "\n".join(f"- {_sentence(rng, 2, 6)}" for _ in range(rng.randint(1, 4)))
    code = _shell(rng)
    return f"## {_sentence(rng, 2, 5)}\n\n{_english(rng)}\n{items}\n\n```bash\n{code}```\n"


def _chat(rng: random.Random) -> str:
    w = _word(rng)
    return (
        f"system\nYou are a helpful assistant.\nuser\n{_sentence(rng)}\nassistant\n"
        f"\n{_sentence(rng)}\n\n\n"
        f'{{"name": "{w}", "arguments": {json.dumps(_json_value(rng, 1))}}}\n\n'
        f"user\n\n{_json_doc(rng)}\n"
    )
