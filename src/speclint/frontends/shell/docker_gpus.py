"""`docker run --gpus VALUE` (and `nvidia-docker`): how many GPUs the container is given, the
count the parallelism rules check the launch against.

Read as docker/cli reads it (`opts/gpus.go`, `GpuOpts.Set`): the value is one CSV record; a
field without `=` is the count (`all` or a whole number), `count=N` too, `device=ID,ID...` lists
the devices (written `'"device=0,1"'` so that CSV keeps the comma inside the field), other keys
(`driver`, `capabilities`, `options`) do not change the count, a key given twice is refused; with
neither count nor devices the request is for one GPU. The daemon (moby `daemon/nvidia_linux.go`,
`setNvidiaGPUs`) refuses a count together with devices, gives the first N GPUs for a count N, none
for 0, and every GPU of the host for `all` (or a negative count): unknown here.
"""

from __future__ import annotations

from speclint.core.words import Word
from speclint.frontends.shell.launcher_options import value_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.frontends.shell.expand import Arg

PROGRAMS = frozenset({"docker", "nvidia-docker"})
"""The programs whose `run --gpus` is read this way."""


def container_gpus(arg: Arg, skip: int, program: str) -> tuple[Word | None, tuple[str, str] | None]:
    """The count of GPUs `--gpus` gives the container, as a Word over the value (text: the count
    in decimal; None with the reason when it is every GPU of the host or docker refuses it),
    and how findings name it (`Launch.gpu_count_by`); (None, None) when the value is not known
    or `program` is not one whose `--gpus` is read."""
    value = value_word(arg, skip)
    if value.text is None or program not in PROGRAMS:
        return None, None
    named = (f"{program} run --gpus {_shown(value.text)}", "--gpus")
    count = _requested_count(value.text)
    if isinstance(count, str):
        return Word(None, value.span, value.origin, dynamic_reason=f"--gpus {value.text}: {count}"), named
    return Word(str(count), value.span, value.origin), named


def _shown(value: str) -> str:
    """The value as a shell would take it back (quoted when it holds quotes or blanks)."""
    if value and all(c.isalnum() or c in "=,-_.:" for c in value):
        return value
    return "'" + value.replace("'", "'\\''") + "'"


def _requested_count(value: str) -> int | str:
    """The number of GPUs, or why it is not known."""
    fields = _csv_record(value)
    if fields is None:
        return "docker cannot read it (CSV)"
    count: int | None = None
    devices: list[str] | None = None
    seen: set[str] = set()
    for field in fields:
        key, equals, given = field.partition("=")
        if key in seen:
            return f"docker refuses it (gpu request key '{key}' can be specified only once)"
        seen.add(key)
        if not equals:
            seen.add("count")
            count, given = _count(key), key
        elif key == "count":
            count = _count(given)
        elif key == "device":
            devices = given.split(",")
            continue
        elif key in ("driver", "capabilities", "options"):
            continue
        else:
            return f"docker refuses it (unexpected key '{key}')"
        if count is None:
            return f"docker refuses it (invalid count {given!r})"
    if count is not None and count < 0:
        return "every GPU of the host, which speclint cannot know"
    if devices is not None:
        if count:
            return "docker refuses it (cannot set both Count and DeviceIDs on device request)"
        return len(devices)
    return 1 if "count" not in seen else count or 0


def _count(text: str) -> int | None:
    """Go's `strconv.Atoi` as docker's `parseCount` uses it (`all`: -1)."""
    if text == "all":
        return -1
    digits = text[1:] if text[:1] in "+-" else text
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    if len(digits.lstrip("0")) > 18:  # past Go's int: strconv.Atoi refuses it
        return None
    return int(text)


def _csv_record(text: str) -> list[str] | None:
    """The fields of one record as Go's `encoding/csv` reads it (`,` between fields, a field
    that starts with `"` is quoted and `""` in it is a quote); None where it reports an error
    (a bare quote, an unterminated quoted field) or the value is empty."""
    if not text or "\n" in text or "\r" in text:
        return None
    fields: list[str] = []
    i = 0
    while True:
        if text.startswith('"', i):
            parts, j = [], i + 1
            while True:
                k = text.find('"', j)
                if k < 0:
                    return None
                parts.append(text[j:k])
                if text.startswith('"', k + 1):
                    parts.append('"')
                    j = k + 2
                    continue
                j = k + 1
                break
            fields.append("".join(parts))
            if j == len(text):
                return fields
            if text[j] != ",":
                return None
            i = j + 1
        else:
            k = text.find(",", i)
            field = text[i:] if k < 0 else text[i:k]
            if '"' in field:
                return None
            fields.append(field)
            if k < 0:
                return fields
            i = k + 1
