"""A launch's environment when a source of variables could not be read."""

from __future__ import annotations


class AnyVariable(dict[str, str | None]):
    """A launch's environment where a variable it does not list may still be set, to a value
    speclint cannot know (an env file it could not read): every name is in it, and those not
    listed read as None (unknown), as a listed variable whose value is unknown does."""

    def __contains__(self, name: object) -> bool:
        return True

    def __missing__(self, name: str) -> str | None:
        return None

    def get(self, name: str, default: object = None) -> str | None:
        return dict.get(self, name)
