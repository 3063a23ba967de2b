"""Which of the caller's variables a Slurm `srun` passes to the tasks it launches.

Read from Slurm's source (src/srun/launch.c `_build_user_env`, src/srun/srun.c
`_setup_one_job_env`, src/common/env.c, src/srun/opt.c): `--export` is a comma-separated
list (commas inside quotes kept, an item wholly in quotes loses them). `ALL` (any case) keeps
the caller's environment; `NONE` stops reading the list; `NAME=value` sets NAME; `NAME`
passes the caller's NAME. Without `ALL` the tasks get only the listed names and the caller's
`SLURM*` variables; with `ALL` the caller's variables are merged last, so a caller's value
wins over `NAME=value` (srun(1): they "take precedence over any explicitly given environment
variables"). Without `--export`, `SRUN_EXPORT_ENV`, else `SLURM_EXPORT_ENV`, gives the list;
with neither, the tasks get the caller's environment. sbatch reads the same list syntax but
builds the batch script's environment its own way (`apply_batch_export`).
"""

from __future__ import annotations

from collections.abc import Callable

from speclint.core.words import Word
from speclint.frontends.shell.variables import is_variable_name

# names Slurm's env_array_merge_slurm / env_array_merge_slurm_spank keep from the caller
_SLURM_PREFIXES = ("SLURM", "_SLURM_SPANK_OPTION_")
# srun's env_vars table reads SLURM_EXPORT_ENV, then SRUN_EXPORT_ENV ("overrides SLURM_EXPORT_ENV")
_EXPORT_VARIABLES = ("SRUN_EXPORT_ENV", "SLURM_EXPORT_ENV")

# the word of one item's value, from the item's (start, stop) offsets in the list
ValueAt = Callable[[int, int], Word]


def export_from_environment(env: dict[str, Word]) -> tuple[str, ValueAt] | None:
    """The `--export` list `SRUN_EXPORT_ENV` or `SLURM_EXPORT_ENV` gives, when one is set to a
    known value (values it sets point at that variable's value)."""
    word = next((env[name] for name in _EXPORT_VARIABLES if name in env), None)
    if word is None or word.text is None:
        return None
    text = word.text
    return text, lambda start, stop: Word(text[start:stop], word.span, word.origin)


def apply_export(text: str, value_at: ValueAt, env: dict[str, Word]) -> None:
    """Make `env` (the caller's environment) what the tasks get under `--export=text`."""
    listed: dict[str, Word] = {}
    keep_all = False
    for start, stop in _items(text):
        item = text[start:stop]
        if item.isascii() and item.lower() == "all":
            keep_all = True
            continue
        if item.isascii() and item.lower() == "none":
            break
        name, equals, _ = item.partition("=")
        if equals:
            if is_variable_name(name):
                listed[name] = value_at(start + len(name) + 1, stop)
        elif name in env:
            listed[name] = env[name]
    if keep_all:
        kept = dict(env)
    else:
        kept = {name: word for name, word in env.items() if name.startswith(_SLURM_PREFIXES)}
    for name, word in listed.items():
        kept.setdefault(name, word)
    env.clear()
    env.update(kept)


def apply_batch_export(text: str, value_at: ValueAt, env: dict[str, Word]) -> None:
    """Make `env` (the caller's environment) what sbatch's batch script gets under
    `--export=text`, as sbatch builds it (src/sbatch/sbatch.c `_fill_job_desc_from_opts`,
    `_env_merge_filter`): the whole list `ALL` (any case) keeps the caller's environment,
    `NONE` only the caller's `SLURM*` variables; otherwise the items are merged in their
    order, each overwriting what an earlier one set (`ALL`: every caller's variable, `NAME=value`,
    `NAME`: the caller's NAME), then the caller's `SLURM_*` variables. So, unlike `srun`, a
    `NAME=value` after `ALL` wins over the caller's NAME."""
    if text.isascii() and text.lower() == "all":
        return
    if text.isascii() and text.lower() == "none":
        kept = {name: word for name, word in env.items() if name.startswith("SLURM")}
    else:
        kept = {}
        for start, stop in _items(text):
            item = text[start:stop]
            if item.isascii() and item.lower() == "all":
                kept.update(env)
                continue
            name, equals, _ = item.partition("=")
            if equals:
                if is_variable_name(name):
                    kept[name] = value_at(start + len(name) + 1, stop)
            elif name in env:
                kept[name] = env[name]
        kept.update((name, word) for name, word in env.items() if name.startswith("SLURM_"))
    env.clear()
    env.update(kept)


def _items(text: str) -> list[tuple[int, int]]:
    """Each comma-separated item's (start, stop) in `text`, as Slurm's find_quote_token cuts
    them: a comma inside quotes does not cut, an item wholly in quotes loses them, an
    unclosed quote makes the rest one item."""
    items: list[tuple[int, int]] = []
    start = 0
    while start < len(text):
        single = double = False
        i = start
        while True:
            char = text[i] if i < len(text) else ""
            if char == "'":
                single = not single
            elif char == '"':
                double = not double
            elif char in (",", "") and not single and not double:
                first, last = start, i
                if last - first >= 2 and text[first] in "'\"" and text[last - 1] == text[first]:
                    first, last = first + 1, last - 1
                items.append((first, last))
                start = i + 1
                break
            elif char == "":
                items.append((start, len(text)))
                start = len(text)
                break
            i += 1
    return items
