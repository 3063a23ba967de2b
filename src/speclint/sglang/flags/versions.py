"""Which SGLang release a launch is checked against, and why."""

from __future__ import annotations

import os
from functools import cache, lru_cache

from speclint.core import patterns
from speclint.core.version_choice import VersionChoice
from speclint.runner.depends import looked_up
from speclint.sglang.flags.schema import newest_version, supported_versions

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re


def _tag_version(text: str) -> tuple[str, str, str, str | None] | None:
    """The groups of `^v?(\\d+)\\.(\\d+)\\.(\\d+)(?:\\.?post(\\d+))?(?![\\d.])` matched at the
    start of `text` (major, minor, patch, post or None), None where it does not match; without
    compiling the regex at import (~1 M instructions of a cold run). The regex never backtracks
    into its digits (a shorter run leaves a digit, which the next part refuses), so one pass."""
    end = len(text)
    at = 1 if text.startswith("v") else 0
    numbers = []
    for number in range(3):
        start = at
        while at < end and text[at].isdecimal():
            at += 1
        if at == start:
            return None
        numbers.append(text[start:at])
        if number < 2:
            if text[at : at + 1] != ".":
                return None
            at += 1
    major, minor, patch = numbers
    post_at = at + 4 + (text[at : at + 1] == ".")
    if text.startswith("post", post_at - 4):
        digits = post_at
        while digits < end and text[digits].isdecimal():
            digits += 1
        if digits > post_at and not _continues(text[digits : digits + 1]):
            return major, minor, patch, text[post_at:digits]
    if _continues(text[at : at + 1]):  # (without the post part)
        return None
    return major, minor, patch, None


def _continues(char: str) -> bool:
    """What `(?![\\d.])` refuses next."""
    return char == "." or char.isdecimal()


@lru_cache(maxsize=1024)
def version_key(version: str) -> tuple[int, int, int, int]:
    """Orders releases: 0.5.6 < 0.5.6.post2 < 0.5.7. Unparseable text sorts first."""
    match = _tag_version(version)
    if match is None:
        return (-1, 0, 0, 0)
    major, minor, patch, post = match
    if post is None and _prerelease_of(version) is not None:
        return (int(major), int(minor), int(patch), -2)  # (0.5.2rc2 < 0.5.2)
    return (int(major), int(minor), int(patch), int(post) if post is not None else -1)


_PRERELEASE_MARKS = ("rc", "a", "b")
"""PEP 440's pre-release segments as SGLang's releases spell them (`0.5.0rc0`, `0.5.2rc2`)."""


def _prerelease_of(version: str) -> str | None:
    """The release text `version` is a pre-release of (`0.5.2rc2` -> `0.5.2`): a whole
    release number, then `rc`/`a`/`b` and digits, nothing after (a `.dev` build is none)."""
    match = _tag_version(version)
    if match is None or version.startswith("v") or match[3] is not None:
        return None
    release = ".".join(match[:3])
    rest = version[len(release) :]
    for mark in _PRERELEASE_MARKS:
        if rest.startswith(mark) and rest[len(mark) :].isdecimal() and rest[len(mark) :].isascii():
            return release
    return None


def closest_supported(version: str) -> str:
    """The newest supported release not newer than `version` (the oldest one if all are)."""
    wanted = version_key(version)
    candidates = [v for v in supported_versions() if version_key(v) <= wanted]
    return candidates[-1] if candidates else supported_versions()[0]


_IMAGE_FILES = (".sif", ".simg", ".img", ".sqsh", ".sqfs", ".tar")
"""Apptainer/Singularity, Enroot and `docker save` files: local files, not registry tags."""
_PATHS = ("/", "./", "../", "~")


def package_pin(text: str) -> str | None:
    """The release a requirement pins exactly, when a launch's `image` is one (`uv run --with
    sglang==0.5.2`, `uvx --from "sglang[all]==0.5.2"`, uvx's `sglang@0.5.2`): `sglang`,
    extras allowed, `==`/`===` or `@`, then a whole release number (0.5.2, 0.5.2.post1) or a
    pre-release of one (0.5.2rc2: speclint bundles none, so `choose_version` says which older
    release it is checked against). None for any other text: an image tag, a range
    (`sglang>=0.5`), a development build."""
    for separator in ("==", "@"):
        name, found, version = text.partition(separator)
        if found:
            break
    else:
        return None
    if name.split("[", 1)[0].strip().lower() != "sglang":
        return None
    version = version.lstrip("=").strip()
    match = _tag_version(version)
    if match is None or version.startswith("v"):
        return None
    major, minor, patch, post = match
    release = f"{major}.{minor}.{patch}" + (f".post{post}" if post is not None else "")
    if _prerelease_of(version) is not None:  # (not bundled: checked against the closest older)
        return version
    return release if version in (release, release.replace(".post", "post")) else None


STATED = "sglang: "
"""The prefix of a launch's `image` that holds the release a document states in its own words
(`frontends.docs.stated_version`: `sglang: 0.5.17`, as `python -m sglang.check_env` prints the
installed release), not an image tag or a requirement."""


UNKNOWN_RELEASE = "release not known: "
"""The prefix of a launch's `image` when the front-end knows the container's release is set
elsewhere and cannot read it (an RBG role whose pod comes from a role template not in the
file): the text after it says why. Checked against the newest, unverified."""


def stated_release(image: str) -> str | None:
    """The release of a stated version (`STATED`), None for any other `image`."""
    return package_pin("sglang==" + image[len(STATED) :]) if image.startswith(STATED) else None


def is_requirement(text: str) -> bool:
    """Whether `text` is a requirement on SGLang (`sglang==X`, `sglang[all]>=X`), not a tag."""
    return text.lower().startswith("sglang") and any(op in text for op in "=<>~!@")


def from_launch(reason: str) -> bool:
    """Superseded by `VersionChoice.from_launch` (kept until analysis.py reads the field)."""
    return "image" in reason or "package pin" in reason or "document states" in reason


def _repository(image: str) -> str:
    """The image's repository name, its last path part without tag or digest
    (`docker.io/lmsysorg/sglang:v0.5.6-cu126` -> `sglang`)."""
    last = image.rsplit("/", 1)[-1]
    return last.split("@", 1)[0].split(":", 1)[0]


def sglang_repository(image: str) -> bool:
    """Whether the image is an `sglang` repository (`lmsysorg/sglang`, a mirror or rebuild of it
    such as `registry:5000/sglang` or `chutes/sglang`), whose tags name SGLang releases. An image
    whose name only contains "sglang" (`runpod/worker-sglang:2.0.2`, `.../sglang-runtime:0.7.1`)
    is tagged with its own project's release, not SGLang's."""
    return _repository(image) == "sglang"


def foreign_sglang_image(image: str) -> bool:
    """An image named after SGLang whose tag is another project's release (`sglang_repository`
    is False): its tag is not read as SGLang's, and `choose_version` says so."""
    return "sglang" in _repository(image).lower() and not sglang_repository(image)


@lru_cache(maxsize=512)  # (its answer is the text's alone; a run names the same few images)
def version_from_image(image: str) -> str | None:
    """The SGLang release an image tag names: `lmsysorg/sglang:v0.5.6.post2-cu126` → 0.5.6.post2,
    `:latest` → the newest known. None when the tag says nothing (`:dev`, a digest). A package
    pin in its place (`package_pin`: a Modal image's `.pip_install("sglang[all]==0.4.6")`)
    names its release; a requirement that pins none (`sglang==0.5.0rc1`, `sglang>=0.5`), None."""
    if is_requirement(image):
        return package_pin(image)
    if image.startswith(STATED):
        return stated_release(image)
    if "ai-dynamo/" in image:  # (the tag is ai-dynamo's release: the SGLang it pins)
        from speclint.sglang.dynamo import image_release, sglang_pin

        dynamo = image_release(image)
        return sglang_pin(dynamo) if dynamo else None
    tagged = ":" in image.rsplit("/", 1)[-1]  # (a registry's port is not a tag: `host:5000/...`)
    if not sglang_repository(image) or image.endswith(_IMAGE_FILES) or image.startswith(_PATHS):
        return None  # (a container file on disk, `sglang.sif`, names no release)
    tag = image.rsplit(":", 1)[1] if tagged else "latest"
    if tag == "latest":
        return newest_version()
    match = _tag_version(tag)
    if match is None:
        return None
    head = tag.removeprefix("v").split("-", 1)[0]
    if _prerelease_of(head) is not None:  # (`v0.5.2rc2-cu126`: not 0.5.2 itself)
        return head
    major, minor, patch, post = match
    return f"{major}.{minor}.{patch}" + (f".post{post}" if post is not None else "")


def choose_version(
    requested: str | None, image: str | None, configured: str | None = None, path: str | None = None
) -> VersionChoice:
    """The release a launch is checked against, why, and the one it names that speclint has
    not read (`VersionChoice.unread`). In order: `--sglang-version`, the configured version
    (`[tool.speclint] sglang-version`), the launch's image tag or package pin, an `sglang==` pin in a
    requirements*.txt / pyproject.toml above `path`, the installed sglang distribution,
    else the newest known release."""
    if requested:
        return _bundled(requested, "from --sglang-version", "--sglang-version")
    if configured:
        return _bundled(
            configured.lstrip("v"), "from [tool.speclint] sglang-version", "[tool.speclint] sglang-version"
        )
    if image and image.startswith(UNKNOWN_RELEASE):  # (no pin nor installed sglang: the container's)
        return VersionChoice(
            newest_version(),
            f"the newest supported release, unverified: {image[len(UNKNOWN_RELEASE) :]}; set "
            "--sglang-version to the SGLang it runs",
        )
    if image:
        stated = stated_release(image)
        if stated:
            stated_by = "the SGLang version the document states"
            return _bundled(stated, "from " + stated_by, stated_by, from_launch=True)
        release = package_pin(image)
        if release:
            return _bundled(
                release, f"from the package pin {image}", f"the package pin {image}", from_launch=True
            )
        dynamo = _dynamo_image(image)
        if dynamo is not None:
            return dynamo
        tagged = version_from_image(image)
        if tagged:
            return _bundled(tagged, f"from the image {image}", f"the image {image}", from_launch=True)
    if path:
        pinned = pinned_version(path)
        if pinned:
            version, where = pinned
            return _bundled(version, f"pinned in {where}", f"the pin in {where}")
    installed = installed_version()
    if installed:
        return _bundled(installed, "the installed sglang distribution", "the installed sglang")
    if image and foreign_sglang_image(image) and ":" in image.rsplit("/", 1)[-1]:
        return VersionChoice(
            newest_version(),
            f"the newest supported release: the image {image} is not an `sglang` repository, so "
            "its tag is not read as an SGLang release; set --sglang-version to the SGLang it runs",
        )
    return VersionChoice(
        newest_version(), "the newest supported release: no --sglang-version and no image tag"
    )


def _dynamo_image(image: str) -> VersionChoice | None:
    """An NVIDIA Dynamo image (`nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.7.1`): its tag is the
    ai-dynamo release, whose `sglang` extra pins SGLang (read from its wheel,
    `speclint.sglang.dynamo`); None for another image."""
    if "ai-dynamo/" not in image:
        return None
    from speclint.sglang.dynamo import image_release, sglang_pin

    dynamo = image_release(image)
    if dynamo is None:
        return None
    pin = sglang_pin(dynamo)
    if pin is None:
        unread = f"the SGLang of ai-dynamo {dynamo}"
        return VersionChoice(
            newest_version(),
            f"the image {image} runs ai-dynamo {dynamo}, whose SGLang pin speclint has not read: "
            f"checked against the newest, unverified for {unread}",
            unread,
            from_launch=True,
        )
    source = f"the image {image} (ai-dynamo {dynamo} pins sglang=={pin})"
    return _bundled(pin, "from " + source, source, from_launch=True)


def _bundled(version: str, reason: str, source: str, from_launch: bool = False) -> VersionChoice:
    """`version` with `reason` when speclint read it, else the closest release read, with why
    (`_not_bundled`) and `version` as the one not read; `from_launch`: the launch named it."""
    if version in supported_versions():
        return VersionChoice(version, reason, from_launch=from_launch)
    why = _not_bundled(source, version)
    return VersionChoice(closest_supported(version), why, f"SGLang {version}", from_launch)


def _not_bundled(source: str, version: str) -> str:
    """Why a release speclint has no schema for is checked against another one."""
    known = supported_versions()
    if version_key(version) < version_key(known[0]):
        return (
            f"{source} names {version}, older than every release speclint knows (the "
            f"oldest is {known[0]}): checked against {known[0]}, unverified for {version}"
        )
    if version_key(version) > version_key(known[-1]):
        return (
            f"{source} names {version}, newer than every release speclint knows: checked "
            f"against the newest, unverified for {version}"
        )
    return (
        f"{source} names {version}, which is not bundled: checked against the closest older "
        f"release, unverified for {version}"
    )


@cache  # compiled on first use: only when a requirements file is read
def _pin() -> re.Pattern[str]:
    return patterns.compile(
        r"""(?:^|[\s"'\[,])sglang(?:\[[^\]]*\])?\s*===?\s*v?(\d[\w.]*)""",
        patterns.IGNORECASE | patterns.MULTILINE,
    )


def _may_pin(text: str) -> bool:
    """Whether `text` has "sglang" as `_pin`'s IGNORECASE matches it (each character folded:
    `str.casefold` folds every character the pattern matches as one of its letters; checked
    over every code point by tests/test_version_history.py): a project file without it has no
    pin, and the pattern is not compiled for it (~0.9 M instructions)."""
    return "sglang" in text.casefold()


def pinned_version(path: str) -> tuple[str, str] | None:
    """An exact `sglang==X` pin in the nearest requirements*.txt or pyproject.toml above
    `path` (the nearest folder that has one wins): (version, file). The same for every file
    of a folder: looked for once per folder in a `check` run (`depends.looked_up`)."""
    folder = os.path.dirname(path) if path != "-" else path
    return looked_up(("sglang pin", folder), lambda: _pinned_version(path))


def _pinned_version(path: str) -> tuple[str, str] | None:
    import os

    from speclint.runner.depends import note, note_glob

    folder = os.path.dirname(os.path.abspath(path)) if path != "-" else os.getcwd()
    while True:
        try:
            stamp = os.stat(folder).st_mtime_ns
        except OSError:
            stamp = 0
        found, read = _pin_in_folder(folder, stamp)
        note_glob(folder, "requirements*.txt")  # for the result cache, on every call
        for candidate in read:
            note(candidate)
        if found is not None:
            return found
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


@lru_cache(maxsize=512)
def _pin_in_folder(folder: str, stamp: int) -> tuple[tuple[str, str] | None, tuple[str, ...]]:
    """One folder's pin and the files read for it, cached by the folder's modification time:
    a batch lints many files of one tree, and globbing every ancestor for each of them cost
    2 ms a file."""
    import os

    from speclint.runner.depends import matching_names

    candidates = [os.path.join(folder, name) for name in matching_names(folder, "requirements*.txt", stamp)]
    candidates.append(os.path.join(folder, "pyproject.toml"))
    from speclint.sglang.checkpoints.model_config import (
        open_regular,  # a FIFO named requirements.txt: skipped
    )

    for number, candidate in enumerate(candidates):
        try:
            with open_regular(candidate) as handle:
                text = handle.read(256 * 1024).decode("utf-8", errors="replace")
        except OSError:
            continue
        match = _pin().search(text) if _may_pin(text) else None
        if match and version_key(match.group(1))[0] >= 0:
            return (match.group(1), candidate), tuple(candidates[: number + 1])
    return None, tuple(candidates)


@lru_cache(maxsize=1)
def installed_version() -> str | None:
    """The version of an installed sglang distribution, from its `.dist-info` folder name
    on sys.path (SGLang is not imported; importlib.metadata would cost ~40 ms)."""
    import os
    import sys

    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith("sglang-") and name.endswith(".dist-info"):
                version = name[len("sglang-") : -len(".dist-info")]
                if version_key(version)[0] >= 0:
                    return version
    return None
