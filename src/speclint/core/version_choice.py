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
