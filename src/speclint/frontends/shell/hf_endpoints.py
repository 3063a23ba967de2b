"""`hf endpoints deploy NAME ... --custom-image IMAGE --container-command "CMD" --container-args
"ARGS"` (a Hugging Face Inference Endpoint; huggingface_hub's `cli/inference_endpoints.py`,
`deploy`): the container runs `shlex.split(CMD)` then `shlex.split(ARGS)`, with the `--env` /
`-e KEY=VALUE` values (and `--secrets` / `-s`, set the same way) as its environment and
`--custom-image` picking the SGLang release as a `docker run` image does.

Read only when it is exact: the command given (`--container-command`, as its own word) and
both strings plain text, which shlex splits as the shell front-end splits it (no quotes, `\\`,
`$`, `#` or shell operators inside, which shlex reads as characters); an `--env-file` or
`--secrets-file`, which speclint does not read, leaves every variable it may set unknown.
Otherwise nothing is read here: the file's mention of the launcher is then reported (SLM005).
"""

from __future__ import annotations

from speclint.core.words import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.shell.expand import Arg
    from speclint.frontends.shell.walking import Walking

_VALUED = frozenset(
    """--repo --framework --accelerator --instance-size --instance-type --region --vendor
    --namespace --task --token --min-replica --max-replica --scale-to-zero-timeout
    --scaling-metric --scaling-threshold --revision --custom-image --health-route --port
    --container-command --container-args --env -e --env-file --secrets -s --secrets-file
    --type""".split()
)
"""`deploy`'s options that take a value (each `--name VALUE` or `--name=VALUE`)."""
_NOT_PLAIN = frozenset("'\"\\$#;&|<>()`*?[]{}~\n")


def hf_endpoint(walker: Walking, args: list[Arg], i: int) -> None:
    """`hf endpoints deploy ...` from `args[i]` (the word after `hf`): the container's launch,
    when it can be read exactly."""
    if [a.word.text for a in args[i : i + 2]] != ["endpoints", "deploy"]:
        return
    given: dict[str, Arg] = {}
    env: dict[str, Word] = {}
    unread: tuple[str, Span] | None = None
    at = i + 2
    while at < len(args):
        text = args[at].word.text
        if text is None:
            return  # a word speclint does not know: which option it is is not known
        name = text.split("=", 1)[0] if text.startswith("--") else text
        if text[:2] in ("-e", "-s") and len(text) > 2:
            return  # `-eKEY=VALUE`: click's attached form, not read here
        if name not in _VALUED:
            at += 1  # NAME, or a switch
            continue
        value_text: str | None
        if "=" in text and text.startswith("--"):
            if name in ("--container-command", "--container-args"):
                return  # (the value inside a word: not read here)
            value_text, value_arg = text.split("=", 1)[1], args[at]
            at += 1
        elif at + 1 < len(args):
            value_arg = args[at + 1]
            value_text = value_arg.word.text
            at += 2
        else:
            return
        if name in ("--env", "-e", "--secrets", "-s"):
            if value_text is None or "=" not in value_text:
                return
            key, value = value_text.split("=", 1)
            env[key] = Word(value, value_arg.word.span)
        elif name in ("--env-file", "--secrets-file"):
            unread = (f"`{name} {value_text or '...'}`", value_arg.word.span)
        else:
            given[name] = value_arg
    command, extra = given.get("--container-command"), given.get("--container-args")
    if command is None or not all(_plain(a) for a in (command, extra) if a is not None):
        return
    image_arg = given.get("--custom-image")
    image = (image_arg.word.text, image_arg.word.span) if image_arg is not None else None
    inherited: dict[str, Word] = env
    if unread is not None:
        from speclint.frontends.shell.docker_env_files import with_unread

        why = f"${{name}} may be set by {unread[0]} (line {unread[1].line}), which speclint does not read"
        inherited = with_unread(env, why, unread[1])
    line = args[i].word.span.line
    walker.parse_nested(
        [command, extra] if extra is not None else command,
        inherited,
        image,
        f"${{name}} is not set in the endpoint's container by `hf endpoints deploy` (line {line})",
    )


def _plain(arg: Arg) -> bool:
    """Whether shlex and the shell front-end split the word's text the same way."""
    text = arg.word.text
    return text is not None and not any(char in _NOT_PLAIN for char in text)
