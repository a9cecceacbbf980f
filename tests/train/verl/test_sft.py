"""The veRL SFT config on CPU, as far as veRL allows: its Hydra config and config dataclasses take the
recipe, its own loader finds our dataset class, its collator batches our rows and its SFT loss on them
equals our local trainer's (the mask lands on the teacher's tokens only), and its multi-turn dataset
reads the chat form. veRL's SFT trainer itself needs CUDA (it has no CPU platform)."""

from __future__ import annotations

import json
import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import torch
from omegaconf import OmegaConf
from transformers import AutoTokenizer
from typer.testing import CliRunner
from verl.utils.dataset.dataset_utils import SFTTensorCollator
from verl.utils.import_utils import load_extern_object

from train.local_trainer import LocalTrainer, LocalTrainerConfig
from train.sft import save_dataset
from train.trainer import TrainingSample
from train.verl.backend import app
from train.verl.config import VerlConfigError
from train.verl.sft import VerlSFTRecipe, check_sft_config, prepare_sft
from train.verl.sft_data import SFTDataError, TokenSFTDataset, sft_rows

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Run a shell command.",
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read",
            "description": "Read a file.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "lines": {"type": "integer"}},
            },
        },
    },
]


def _conversation(i: int) -> list[dict[str, Any]]:
    call = {"id": f"c{i}", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}
    return [
        {"role": "user", "content": f"Create the file /app/done-{i}."},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": f"c{i}", "content": "notes.txt"},
        {"role": "assistant", "content": f"touch /app/done-{i} worked."},
    ]


@pytest.fixture
def dataset(tmp_path: Path, tokenizer: Any) -> Path:
    """A `forge-train sft-data` dataset of 6 rollouts; rollout 0 has two chains (tool result in the middle
    of the response, mask 0 there)."""
    samples, chats = [], {}
    for i in range(6):
        prompt = tokenizer.encode(f"<|im_start|>user\nCreate the file /app/done-{i}.<|im_end|>\n")
        first = tokenizer.encode("<|im_start|>assistant\nls /app<|im_end|>\n")
        tool = tokenizer.encode("<|im_start|>user\nnotes.txt<|im_end|>\n")
        second = tokenizer.encode(f"touch /app/done-{i}<|im_end|>")
        response = first + tool + second
        mask = [1] * len(first) + [0] * len(tool) + [1] * len(second)
        samples.append(
            TrainingSample(rollout_id=f"r{i}", prompt_ids=prompt, response_ids=response, response_mask=mask)
        )
        chats[f"r{i}"] = json.dumps({"messages": _conversation(i), "tools": TOOLS})
    extra = tokenizer.encode("again")
    samples.append(
        TrainingSample(
            rollout_id="r0",
            prompt_ids=samples[0].prompt_ids,
            response_ids=extra,
            response_mask=[1] * len(extra),
        )
    )
    return save_dataset(samples, chats, tmp_path / "sft-data" / "dataset")


def _recipe(dataset: Path, tmp_path: Path, model: Path, **fields: Any) -> VerlSFTRecipe:
    values: dict[str, Any] = {"n_gpus_per_node": 2, "batch_size": 4, "max_length": 256, "num_workers": 0}
    return VerlSFTRecipe(
        dataset=dataset, run_dir=tmp_path / "run", model_path=str(model), **(values | fields)
    )


def test_the_recipe_composes_veRLs_sft_config(dataset: Path, tmp_path: Path, tiny_model_dir: Path) -> None:
    recipe = _recipe(dataset, tmp_path, tiny_model_dir, lr=2e-5, epochs=2)
    path, config = prepare_sft(recipe, ["trainer.seed=7"])
    assert path == tmp_path.resolve() / "run" / "openforge_sft.yaml"
    saved = OmegaConf.load(path)
    assert saved.data.train_files == str(recipe.parquet_path)
    assert (saved.data.custom_cls.path, saved.data.custom_cls.name) == (
        "pkg://train.verl.sft_data",
        "TokenSFTDataset",
    )
    assert saved.model.path == str(tiny_model_dir)
    assert (saved.optim.lr, saved.trainer.total_epochs, saved.trainer.seed) == (2e-5, 2, 7)
    assert (saved.trainer.n_gpus_per_node, saved.data.train_batch_size, saved.data.max_length) == (2, 4, 256)
    assert saved.engine.param_offload is True and saved.data.pad_mode == "no_padding"
    assert "hf_model" in saved.checkpoint.save_contents  # the SFT model GRPO starts from
    assert saved.trainer.default_local_dir == str(tmp_path.resolve() / "run" / "checkpoints")
    # veRL's own config dataclasses (the model one loads our tiny model's config and tokenizer)
    check_sft_config(saved, rows=7)
    assert len(pd.read_parquet(recipe.parquet_path)) == 7  # one row per chain
    assert recipe.command(path) == (
        "torchrun --standalone --nproc-per-node 2 -m verl.trainer.sft_trainer "
        f"--config-path {path.parent} --config-name openforge_sft hydra.run.dir={path.parent}/hydra"
    )
    assert config.data.truncation == "error"


def test_veRLs_sft_loss_on_our_rows_is_our_local_trainers(
    dataset: Path, tmp_path: Path, tiny_model_dir: Path, tokenizer: Any
) -> None:
    """The mask lands where our local trainer's does: veRL's `sft_loss` (which shifts the mask onto the
    predicting position) over a batch from its loader and collator equals `LocalTrainer.sft_step`'s loss."""
    from tensordict import TensorDict
    from verl.utils import tensordict_utils as tu
    from verl.workers.utils.losses import sft_loss

    _, config = prepare_sft(_recipe(dataset, tmp_path, tiny_model_dir))
    cls = load_extern_object(config.data.custom_cls.path, config.data.custom_cls.name)
    data = cls(parquet_files=str(config.data.train_files), tokenizer=tokenizer, config=config.data)
    rows = pd.read_parquet(config.data.train_files)
    assert len(data) == len(rows) == 7
    first = data[0]
    assert first["input_ids"].tolist() == list(rows.prompt_ids[0]) + list(rows.response_ids[0])
    assert first["loss_mask"].tolist() == [0] * len(rows.prompt_ids[0]) + list(rows.response_mask[0])
    assert set(first) == {"input_ids", "position_ids", "loss_mask"}

    batch = SFTTensorCollator(config.data.pad_mode)([data[i] for i in range(4)])
    trainer = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=1e-3))
    # log-probs as veRL's engine gives them without padding: position t scores the next token of the
    # flattened batch (input_ids rolled by one)
    ids = batch["input_ids"].values()
    with torch.no_grad():
        logits = torch.cat(
            [trainer.model(input_ids=seq[None]).logits[0] for seq in batch["input_ids"].unbind()]
        )
        logp = torch.log_softmax(logits.float(), -1).gather(-1, torch.roll(ids, -1)[:, None])[:, 0]
    log_probs = torch.nested.nested_tensor_from_jagged(logp, offsets=batch["input_ids"].offsets())
    td = TensorDict(
        {
            "loss_mask": batch["loss_mask"],
            "dp_size": torch.tensor(1),
            "batch_num_tokens": batch["loss_mask"].values().sum(),
        },
        batch_size=[],
    )
    tu.assign_non_tensor(td, pad_mode="no_padding")
    veRL_loss, _ = sft_loss(None, {"log_probs": log_probs}, td)

    samples = [
        TrainingSample(
            rollout_id=r.rollout_id,
            prompt_ids=list(r.prompt_ids),
            response_ids=list(r.response_ids),
            response_mask=list(r.response_mask),
        )
        for r in rows.iloc[:4].itertuples()
    ]
    ours = trainer.sft_step(samples)
    assert ours.trained_tokens == int(batch["loss_mask"].values().sum())
    assert float(veRL_loss) == pytest.approx(ours.loss, rel=1e-4)


def test_right_padding_and_truncation(dataset: Path, tmp_path: Path, tokenizer: Any) -> None:
    rows = sft_rows(dataset, "tokens")
    parquet = tmp_path / "rows.parquet"
    pd.DataFrame(rows).to_parquet(parquet)
    length = len(rows[0]["prompt_ids"]) + len(rows[0]["response_ids"])
    padded = TokenSFTDataset(str(parquet), tokenizer, {"pad_mode": "right", "max_length": length + 5})[0]
    assert {k: v.shape[0] for k, v in padded.items()} == dict.fromkeys(padded, length + 5)
    assert padded["attention_mask"].sum() == length and padded["loss_mask"][length:].sum() == 0
    assert padded["input_ids"][length:].tolist() == [tokenizer.pad_token_id] * 5

    left = TokenSFTDataset(str(parquet), tokenizer, {"max_length": 6, "truncation": "left"})[0]
    assert left["loss_mask"].tolist() == ([0] * len(rows[0]["prompt_ids"]) + rows[0]["response_mask"])[-6:]
    with pytest.raises(SFTDataError, match=r"rollout r0: .* longer than data\.max_length=6"):
        TokenSFTDataset(str(parquet), tokenizer, {"max_length": 6})


def test_bad_datasets_and_configs_are_refused_before_the_GPUs(
    dataset: Path, tmp_path: Path, tiny_model_dir: Path
) -> None:
    with pytest.raises(VerlConfigError, match=r"dataset has 7 rows and data\.train_batch_size is 8"):
        prepare_sft(_recipe(dataset, tmp_path, tiny_model_dir, batch_size=8))
    with pytest.raises(VerlConfigError, match=r"train_batch_size=6 does not split evenly over 4 GPUs"):
        prepare_sft(_recipe(dataset, tmp_path, tiny_model_dir, batch_size=6, n_gpus_per_node=4))
    with pytest.raises(VerlConfigError, match=r"r0: .* longer than data\.max_length=8"):
        prepare_sft(_recipe(dataset, tmp_path, tiny_model_dir, max_length=8))
    with pytest.raises(VerlConfigError, match="rejected the sft_trainer_engine config overrides"):
        prepare_sft(_recipe(dataset, tmp_path, tiny_model_dir), ["data.no_such_key=1"])
    with pytest.raises(VerlConfigError, match=r"data\.custom_cls is pkg://x Y"):
        prepare_sft(
            _recipe(dataset, tmp_path, tiny_model_dir),
            ["data.custom_cls.path=pkg://x", "data.custom_cls.name=Y"],
        )
    with pytest.raises(SFTDataError, match="not a dataset written by `forge-train sft-data`"):
        prepare_sft(_recipe(tmp_path / "nowhere", tmp_path, tiny_model_dir))
    assert not (tmp_path / "run" / "openforge_sft.yaml").exists()
    foreign = TrainingSample(rollout_id="big", prompt_ids=[5, 6], response_ids=[50_000], response_mask=[1])
    other = save_dataset([foreign] * 4, {}, tmp_path / "foreign")
    with pytest.raises(VerlConfigError, match="token id 50000 is outside the tokenizer's 2048 ids"):
        prepare_sft(_recipe(other, tmp_path, tiny_model_dir))


@pytest.fixture
def sft_trainer_module(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """veRL's `verl.trainer.sft_trainer`, imported for one test.

    veRL 0.9.1's multi-turn dataset (which the trainer imports) imports its Qwen2-VL position helper,
    which needs the transformers veRL pins (< 5.11; this environment has a newer one). The helper serves
    Qwen-VL processors only, so a text model never calls it: the test stands in for that one module.
    """
    import importlib

    helper = types.ModuleType("verl.models.transformers.qwen2_vl")
    helper.get_rope_index = lambda *a, **k: pytest.fail("Qwen-VL helper called")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "verl.models.transformers.qwen2_vl", helper)
    importers = (
        "verl.utils.dataset.multiturn_sft_dataset",
        "verl.trainer.sft_trainer",
        "train.verl.sft_chat",
    )
    for name in importers:
        monkeypatch.delitem(sys.modules, name, raising=False)
    for name in ("NCCL_DEBUG", "TOKENIZERS_PARALLELISM"):  # set by the module on import
        monkeypatch.setenv(name, os.environ.get(name, ""))
    yield importlib.import_module("verl.trainer.sft_trainer")
    for name in importers:  # imported over the stand-in: gone again (monkeypatch restores any earlier)
        sys.modules.pop(name, None)


def test_veRLs_sft_entry_point_loads_the_written_config(
    dataset: Path,
    tmp_path: Path,
    tiny_model_dir: Path,
    sft_trainer_module: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the printed torchrun command runs in each process: `sft_trainer.main` (Hydra) with the
    command's arguments, up to `run_sft`, which needs CUDA and is stood in for."""
    recipe = _recipe(dataset, tmp_path, tiny_model_dir)
    path, config = prepare_sft(recipe)
    args = recipe.torchrun_args(path)
    loaded: list[Any] = []
    monkeypatch.setattr(sft_trainer_module, "run_sft", loaded.append)
    monkeypatch.setattr(sys, "argv", ["sft_trainer", *args[args.index("verl.trainer.sft_trainer") + 1 :]])
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    sft_trainer_module.main()
    assert OmegaConf.to_container(loaded[0]) == OmegaConf.to_container(config)
    assert (path.parent / "hydra" / ".hydra" / "config.yaml").is_file()
    assert not list(work.iterdir())  # no ./outputs from Hydra
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    data = sft_trainer_module.create_sft_dataset(loaded[0].data.train_files, loaded[0].data, tokenizer, None)
    assert type(data).__name__ == "TokenSFTDataset" and len(data) == 7


def test_the_chat_form_reads_through_veRLs_multiturn_dataset(
    dataset: Path, tmp_path: Path, tiny_model_dir: Path, tokenizer: Any, sft_trainer_module: Any
) -> None:
    """One row per rollout; veRL's MultiTurnSFTDataset gets back exactly the messages and tools the
    rollout sent (no null-padded structs), and puts the loss on the assistant's turns only."""
    _, config = prepare_sft(
        _recipe(dataset, tmp_path, tiny_model_dir, form="chat", batch_size=6, max_length=1024)
    )
    assert (config.data.custom_cls.path, config.data.custom_cls.name) == (
        "pkg://train.verl.sft_chat",
        "ChatSFTDataset",
    )
    data = sft_trainer_module.create_sft_dataset(config.data.train_files, config.data, tokenizer, None)
    assert type(data).__name__ == "ChatSFTDataset"
    assert len(data) == 6  # rollout 0's two chains share one conversation
    assert data.messages[2] == _conversation(2) and data.tools[2] == TOOLS
    item = data[2]  # also runs veRL's check: turn-by-turn templating equals the whole conversation's
    whole = tokenizer.apply_chat_template(_conversation(2), tools=TOOLS, tokenize=False)
    assert tokenizer.decode(item["input_ids"]) == whole
    learned = tokenizer.decode(item["input_ids"][item["loss_mask"].bool()])
    call = '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call><|im_end|>\n'
    assert learned == call + "touch /app/done-2 worked.<|im_end|>\n"
    batch = SFTTensorCollator(config.data.pad_mode)([data[i] for i in range(3)])
    with pytest.raises(VerlConfigError, match=r"row 0 \(rollout r0\): sequence_length=\d+ is larger"):
        prepare_sft(_recipe(dataset, tmp_path, tiny_model_dir, form="chat", batch_size=6, max_length=256))
    assert batch["loss_mask"].offsets().tolist()[-1] == sum(len(data[i]["input_ids"]) for i in range(3))


def test_cli_prepares_and_launches_torchrun(
    dataset: Path, tmp_path: Path, tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    common = ["--data", str(dataset), "--run-dir", str(tmp_path / "r"), "--model", str(tiny_model_dir)]
    small = ["--gpus", "1", "--batch-size", "4", "--max-length", "256"]
    ok = runner.invoke(app, ["sft-prepare", *common, *small])
    assert ok.exit_code == 0, ok.output
    assert "train: torchrun --standalone --nproc-per-node 1 -m verl.trainer.sft_trainer" in ok.output
    bad = runner.invoke(app, ["sft-prepare", *common, *small, "--form", "chats"])
    assert bad.exit_code == 2 and "bad SFT recipe: form: Input should be 'tokens' or 'chat'" in bad.output
    launch = runner.invoke(app, ["sft-launch", *common, *small])
    assert launch.exit_code == 1 and "trains on 1 GPUs and this machine has 0" in launch.output

    started: list[list[str]] = []
    monkeypatch.setattr("train.verl.backend.gpu_count", lambda: 1)
    monkeypatch.setattr("train.verl.backend.os.execv", lambda exe, argv: started.append(argv))
    assert runner.invoke(app, ["sft-launch", *common, *small]).exit_code == 0
    config = tmp_path / "r" / "openforge_sft.yaml"
    assert started == [
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "1",
         "-m", "verl.trainer.sft_trainer", "--config-path", str(config.parent.resolve()),
         "--config-name", "openforge_sft", f"hydra.run.dir={config.parent.resolve()}/hydra"]
    ]  # fmt: skip
    two_nodes = runner.invoke(app, ["sft-launch", *common, *small, "--nnodes", "2"])
    assert (
        two_nodes.exit_code == 1 and "run there `torchrun --nnodes=2 --rdzv-backend=c10d" in two_nodes.output
    )
