"""What SGLang's entry points do to argv before argparse sees it."""

from __future__ import annotations

from speclint.source import Word


def prepare_argv(entry: str, words: list[Word], version: str) -> list[Word]:
    """The words `prepare_server_args` parses, as SGLang `version` would hand them over.

    - `sglang serve` drops `--model-type X` / `--model-type=X` (exact spelling), and in
      later releases turns a first word that is not a flag into `--model-path WORD`;
    - `--config FILE.yaml` (exact token) merges the file's keys as flags in front of the
      command line; speclint does not read that file, so it stands for an unknown set of
      flags.
    Which release does what was read from its source (`speclint.sglang.Release`).
    """
    from speclint.sglang import release

    facts = release(version)
    words = list(words)
    if entry == "sglang serve" and facts.serve_drops_model_type:
        kept: list[Word] = []
        skip = False
        for position, word in enumerate(words):
            if skip:
                skip = False
                continue
            if word.text == "--model-type":
                skip = position + 1 < len(words)
                continue
            if word.text is not None and word.text.startswith("--model-type="):
                continue
            kept.append(word)
        words = kept
        if facts.serve_positional_model_path and words and words[0].text is not None \
                and not words[0].text.startswith("-"):
            words.insert(0, Word("--model-path", words[0].span, words[0].origin,
                                 expanded_at=words[0].expanded_at))
    if facts.merges_config_file and any(w.text == "--config" for w in words):
        position = next(i for i, w in enumerate(words) if w.text == "--config")
        if position + 1 < len(words):
            config_word = words[position + 1]
            splat = Word(None, config_word.span, config_word.origin,
                         dynamic_reason=f"flags merged from the --config file "
                                        f"{config_word.text or ''}".rstrip(), splat=True)
            words[position:position + 2] = [splat]
    return words
