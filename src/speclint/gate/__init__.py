"""The gate before a real launch: `speclint run` (`run`) and the SGLang plugin (`plugin`), both
linting an argv (`launch`) and asking `speclint.preflight` whether its GPUs are free."""
