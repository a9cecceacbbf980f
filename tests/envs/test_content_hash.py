import os
from pathlib import Path

from envs.content_hash import hash_directory


def _tree(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "Dockerfile").write_text("FROM x\n")
    (root / "sub" / "data.csv").write_text("a,b\n1,2\n")
    return root


def test_same_content_same_hash_regardless_of_mtime(tmp_path: Path) -> None:
    a, b = _tree(tmp_path / "a"), _tree(tmp_path / "b")
    os.utime(b / "Dockerfile", (1, 1))
    assert hash_directory(a) == hash_directory(b)


def test_bytes_modes_names_and_args_change_the_hash(tmp_path: Path) -> None:
    root = _tree(tmp_path / "t")
    first = hash_directory(root)
    (root / "sub" / "data.csv").write_text("a,b\n1,3\n")
    second = hash_directory(root)
    (root / "sub" / "data.csv").chmod(0o755)
    third = hash_directory(root)
    (root / "sub" / "data.csv").rename(root / "sub" / "other.csv")
    fourth = hash_directory(root)
    assert len({first, second, third, fourth}) == 4
    assert hash_directory(root, {"FORGE_BASE": "x"}) != hash_directory(root, {"FORGE_BASE": "y"})
