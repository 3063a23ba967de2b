"""The SGLang release a launch is checked against (`VersionChoice`): made where the release is
chosen (`speclint.sglang.flags.versions.choose_version`), read by rules (`rules.context`, which
names it too) and reports. Here, apart from both, so that neither imports the other."""

from __future__ import annotations

from speclint.core.records import dataclass


@dataclass(slots=True)
class VersionChoice:
    """The SGLang release a launch is checked against, and why that one."""

    version: str
    reason: str
    """Why this version: 'from --sglang-version', 'from the image lmsysorg/sglang:v0.5.6.post2 (line 3)', ..."""
    unread: str | None = None
    """The release the launch names that speclint has not read ('SGLang 0.9.0', 'the SGLang of
    ai-dynamo 9.9.9'), checked against `version` instead; None when `version` is the one named,
    or none is named. Set where the choice is made (`flags.versions.choose_version`): each
    finding is then at most a warning (`rules.unread_release`)."""
    from_launch: bool = False
    """Whether `version` was chosen from what the launch names: its image tag (an ai-dynamo image's
    SGLang pin included), its package pin or the version its document states. Set where the choice
    is made (`flags.versions.choose_version`); False for `--sglang-version`, the configured version,
    a requirements pin, the installed sglang and the newest release (an image whose tag is not read
    as SGLang's too)."""
