"""PAR: parallelism sizes against each other, the nodes and the GPUs."""
