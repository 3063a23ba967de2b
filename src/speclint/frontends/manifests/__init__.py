"""Front-ends for the other files users launch SGLang from: Dockerfiles, GitHub Actions
workflows, SGLang's own `--config` YAML and manifests embedding its flag keys."""
