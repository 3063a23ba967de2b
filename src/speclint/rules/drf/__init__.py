"""DRF: the drafter model against the algorithm, the target and the release."""
