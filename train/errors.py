"""Every error train/ raises on purpose, in one place.

    TrainError
    ├── RunMismatch            a run directory resumed with other settings than it was started with
    │                          (names each setting that changed)
    ├── ResultsFileInvalid     a line of a run's jsonl records (results.jsonl, metrics.jsonl,
    │                          eval.jsonl) is not what it should be (names the file and line; a torn
    │                          last line is skipped, never this)
    ├── NotEnoughTrials        pass@k / pass^k asked for a k that some task has fewer trials than
    ├── RolloutNotConfigured   the proxy refused a rollout's config, or its control socket did not
    │                          answer: recorded on the rollout as an infrastructure error
    ├── JudgeError             the judge of an open-ended task (train.judge) failed or was not
    │                          configured: recorded on the rollout as a verifier error, never a 0
    ├── VerlConfigError        (train/verl/config.py) a veRL config that cannot run our recipe
    └── SFTDataError           (train/verl/sft_data.py) a dataset that cannot train as asked

All but RolloutNotConfigured and JudgeError are also ValueErrors: the caller's input (a run directory,
its files, the settings) is what is wrong, and the command-line tools report it as such. The two veRL
errors are defined next to the code that raises them and derive from TrainError.

A rollout's own failures do not leave `run_rollout`: they are recorded on the rollout
(`RolloutResult.error_class`) as the class name of what went wrong, each defined by the package it
belongs to: envs.errors (SandboxStartError, BuildError, RewardFileMissing, VerifierTimeout,
VerifierTampered, ...), harnesses.errors (HarnessNotStarted, HarnessNoModel) and this module
(RolloutNotConfigured, JudgeError).
"""

from __future__ import annotations


class TrainError(Exception):
    """Base class for everything train/ raises on purpose."""


class RunMismatch(TrainError, ValueError):
    """A run directory resumed with settings other than those it was started with."""


class ResultsFileInvalid(TrainError, ValueError):
    """A line of a run's jsonl records (results.jsonl, metrics.jsonl, eval.jsonl; not the last, which a
    crash may have torn) is not the record it should be."""


class NotEnoughTrials(TrainError, ValueError):
    """A k of pass@k / pass^k larger than the fewest trials a task has."""


class RolloutNotConfigured(TrainError):
    """The proxy did not take a rollout's config (`PUT /rollouts/{id}/config`): refused, or unreachable."""


class JudgeError(TrainError):
    """The judge of a `[verifier] judge = true` task could not give a verdict (its endpoint failed, gave no
    text, or none was configured): the rollout is a verifier error, not the agent's failure."""
