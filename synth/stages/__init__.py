"""The five stages over a run directory: propose, prune, build, test, refine (and `pipeline`, all five)."""
