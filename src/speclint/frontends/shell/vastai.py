"""vast.ai's CLI: `vastai create instance ID --image IMAGE --onstart-cmd 'CODE'`.

vast-ai/vast-cli, vast.py, `create__instance`: `--onstart-cmd` is "contents of onstart script
as single argument" (`--onstart FILE` reads the script from a file instead), sent as the new
instance's `onstart` with `--image` as its `image`; `create instances ID0 ID1 ...` takes the
same options (`_create_instance_args`). The script runs in that image's container when the
instance starts: CODE is walked as a script of its own, checked against the release of
`--image`, and a variable it does not set itself is unknown (the instance's environment comes
from `--env` and the image, not from this script). Imported only for a `vastai` command.
"""

from __future__ import annotations

from speclint.frontends.shell.expand import Arg
from speclint.frontends.shell.launcher_options import value_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.spans import Span
    from speclint.frontends.shell.walking import Walking

_ONSTART = "--onstart-cmd"
_IMAGE = "--image"


def vastai_create(walker: Walking, args: list[Arg], i: int) -> None:
    """Walk the onstart script of `vastai create instance[s] ...` (i: the word after
    `vastai`); nothing for another `vastai` command or one without `--onstart-cmd`."""
    if (
        i + 1 >= len(args)
        or args[i].word.text != "create"
        or args[i + 1].word.text not in ("instance", "instances")
    ):
        return
    code: Arg | None = None
    image: tuple[str | None, Span | None] | None = None
    k = i + 2
    while k < len(args):
        text = args[k].word.text or ""
        if text == "--args":  # (argparse.REMAINDER: the container's arguments, not options)
            break
        for option in (_ONSTART, _IMAGE):
            if text == option and k + 1 < len(args):
                found = args[k + 1]
                k += 1
            elif text.startswith(option + "="):
                found = _after_equals(walker, args[k], len(option) + 1)
            else:
                continue
            if option == _ONSTART:
                code = found
            else:
                image = (found.word.text, found.word.span)
            break
        k += 1
    if code is None:
        return
    walker.parse_nested(
        code,
        {},
        image,
        f"${{name}} is not set in the onstart script of `vastai create instance` (line "
        f"{args[i - 1].word.span.line}): the instance's environment comes from `--env` and the image",
    )


def _after_equals(walker: Walking, arg: Arg, skip: int) -> Arg:
    """The value of `--option=VALUE`; of `--option="CODE"`, the quoted part (its characters
    keep their places in the file)."""
    node = arg.node
    if node is not None and node.type == "concatenation" and len(node.named_children) == 2:
        _, quoted = node.named_children
        if quoted.type in ("string", "raw_string"):
            return Arg(value_word(arg, skip), quoted)
    return Arg(value_word(arg, skip), None)
