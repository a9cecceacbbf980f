"""The embedded models' recipes: tiny-vl's warm start is capped by chain updates, so one browser task gets
its 150 epochs and the whole of catalog/browser (156 oracle chains) 60, the run measured in
docs/training.md; an explicit --sft-epochs is taken as given."""

from __future__ import annotations

import pytest

from train.embedded import RECIPES, sft_epochs_for


@pytest.mark.parametrize(("chains", "epochs"), [(12, 150), (62, 150), (156, 60), (9_400, 1), (20_000, 1)])
def test_tiny_vl_epochs_shrink_with_the_chains(chains: int, epochs: int) -> None:
    recipe = RECIPES["tiny-vl"]
    assert sft_epochs_for(recipe.sft_epochs, recipe.sft_updates, chains) == epochs


def test_without_a_cap_the_epochs_are_the_recipes() -> None:
    for name in ("smollm2", "tiny"):
        recipe = RECIPES[name]
        assert recipe.sft_updates is None
        assert sft_epochs_for(recipe.sft_epochs, recipe.sft_updates, 10_000) == recipe.sft_epochs
    assert sft_epochs_for(7, None, 0) == 7
