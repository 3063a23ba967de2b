"""Which SGLang release a launch is checked against, and why."""

from __future__ import annotations

import re

from speclint.flags.schema import newest_version, supported_versions

_TAG_VERSION = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)(?:\.?post(\d+))?(?![\d.])")


def version_key(version: str) -> tuple[int, int, int, int]:
    """Orders releases: 0.5.6 < 0.5.6.post2 < 0.5.7. Unparseable text sorts first."""
    match = _TAG_VERSION.match(version)
    if not match:
        return (-1, 0, 0, 0)
    major, minor, patch, post = match.groups()
    return (int(major), int(minor), int(patch), int(post) if post is not None else -1)


def closest_supported(version: str) -> str:
    """The newest supported release not newer than `version` (the oldest one if all are)."""
    wanted = version_key(version)
    candidates = [v for v in supported_versions() if version_key(v) <= wanted]
    return candidates[-1] if candidates else supported_versions()[0]


def version_from_image(image: str) -> str | None:
    """The SGLang release an image tag names: `lmsysorg/sglang:v0.5.6.post2-cu126` → 0.5.6.post2,
    `:latest` → the newest known. None when the tag says nothing (`:dev`, a digest)."""
    if "sglang" not in image.split(":", 1)[0]:
        return None
    tag = image.rsplit(":", 1)[1] if ":" in image.rsplit("/", 1)[-1] else "latest"
    if tag == "latest":
        return newest_version()
    match = _TAG_VERSION.match(tag)
    if not match:
        return None
    major, minor, patch, post = match.groups()
    return f"{major}.{minor}.{patch}" + (f".post{post}" if post is not None else "")


def choose_version(requested: str | None, image: str | None) -> tuple[str, str]:
    """(version, reason). `--sglang-version` wins, then the launch's image tag, then the newest."""
    if requested:
        if requested in supported_versions():
            return requested, "from --sglang-version"
        chosen = closest_supported(requested)
        return chosen, f"--sglang-version {requested} is not bundled; closest older release"
    if image:
        tagged = version_from_image(image)
        if tagged:
            if tagged in supported_versions():
                return tagged, f"from the image {image}"
            return closest_supported(tagged), (f"the image {image} names {tagged}, which is not "
                                               "bundled; closest older release")
    return newest_version(), "the newest supported release: no --sglang-version and no image tag"
