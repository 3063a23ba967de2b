"""What a JSON file found in a folder walk is, by its shape, read cheaply (`frontends.
is_lintable_path`): only files a front-end reads are linted."""

from __future__ import annotations


def is_ecs_task(path: str) -> bool:
    """An ECS task definition naming sglang, by its shape: `"containerDefinitions"` in its
    first 4 KiB (a task definition, as written for `register-task-definition` or as
    `describe-task-definition` prints it, has it among its first keys), then `sglang` in its
    first 64 KiB. Most JSON files of a walk (a model's config.json, a package's) cost one
    small read."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
            if b'"containerDefinitions"' not in head:
                return False
            head += handle.read(60 * 1024)
    except OSError:
        return False
    return b"sglang" in head
