"""A finding's stable identity for CI systems that track findings across runs (GitLab code
quality, SARIF's partialFingerprints)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.core.findings import Finding


def fingerprint(f: Finding) -> str:
    import hashlib  # only gitlab and sarif need it (3 ms of start-up)

    key = f"{f.path}:{f.code}:{f.span.line}:{f.span.column}:{f.message}"
    return hashlib.sha256(key.encode()).hexdigest()
