"""What SGLang's entry points do to argv before argparse sees it."""

from __future__ import annotations

import speclint.sglang as sglang
from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.config_files import ConfigFile


def model_type_override(words: list[Word]) -> tuple[Word, str | None] | None:
    """The last `--model-type X` / `--model-type=X` of a `sglang serve` argv: (the word that
    holds X, X or None when unknown); None without one (`prepare_argv` drops them all)."""
    found = None
    for index, word in enumerate(words):
        text = word.text
        if text == "--model-type" and index + 1 < len(words):
            found = (words[index + 1], words[index + 1].text)
        elif text is not None and text.startswith("--model-type="):
            found = (word, text.removeprefix("--model-type="))
    return found


def prepare_argv(entry: str, words: list[Word], version: str, config: ConfigFile | None = None) -> list[Word]:
    """The words `prepare_server_args` parses, as SGLang `version` would hand them over.

    - `sglang serve` drops `--model-type X` / `--model-type=X` (exact spelling), and in
      later releases turns a first word that is not a flag into `--model-path WORD`
      (which release does what: read from its source, `speclint.sglang.Release`).
    - `--config FILE.yaml` (exact token, 0.5.3+) merges the file's keys as flags in front of
      the command line (`config_merge`): `config` is the file as the front-end read it;
      without it the file stands for an unknown set of flags.

    `words` itself when neither applies (a new list when words were dropped or made:
    `launch_config.configure` looks for made words only then).
    """
    facts = sglang.release(version)
    if entry == "sglang serve" and facts.serve_drops_model_type:
        kept: list[Word] = []
        skip = False
        for index, word in enumerate(words):
            if skip:
                skip = False
                continue
            if word.text == "--model-type":
                skip = index + 1 < len(words)
                continue
            if word.text is not None and word.text.startswith("--model-type="):
                continue
            kept.append(word)
        words = kept
        if (
            facts.serve_positional_model_path
            and words
            and words[0].text is not None
            and not words[0].text.startswith("-")
        ):
            words.insert(
                0, Word("--model-path", words[0].span, words[0].origin, expanded_at=words[0].expanded_at)
            )
    position = next((i for i, w in enumerate(words) if w.text == "--config"), None)
    if position is not None and position + 1 < len(words):
        from speclint.sglang.flags.config_merge import merged_words, merges_config

        if merges_config(version):
            words = merged_words(words, position, config, version)
    return words
