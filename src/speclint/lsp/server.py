"""The pygls server: documents in, diagnostics / code actions / hover out.

Linting runs on open and save at once, and on change after a short pause (typing does not
lint every keystroke). The project's configuration (closest `.speclint.toml`,
`speclint.toml` or `pyproject.toml`) applies to each document as on the command line;
`initializationOptions` may add `sglangVersion` and `modelConfigs` ({NAME: PATH}), as the
`--sglang-version` and `--model-config` options do.
"""

from __future__ import annotations

import asyncio
import os

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from speclint import __version__
from speclint.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from speclint.engine import FileResult

DEBOUNCE_S = 0.3
_LANGUAGE_SUFFIX = {
    "shellscript": ".sh",
    "sh": ".sh",
    "bash": ".sh",
    "python": ".py",
    "yaml": ".yaml",
    "markdown": ".md",
    "dockerfile": ".dockerfile",  # (untitled.dockerfile: a Dockerfile by its suffix)
    "makefile": ".mk",
    "jupyter": ".ipynb",
    "restructuredtext": ".rst",
}
"""For an unsaved document: the file name whose kind its language id stands for."""


@dataclass
class Linted:
    """The last lint of an open document, kept for diagnostics and hover."""

    version: int | None
    text: str
    kind: str | None
    result: FileResult
    """Contexts kept for hover."""


class SpeclintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("speclint", __version__)
        self.linted: dict[str, Linted] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.sglang_version: str | None = None
        self.model_configs: tuple[tuple[str, str], ...] = ()

    @property
    def encoding(self) -> str:
        return str(self.workspace.position_encoding or "utf-16")

    def lint(self, uri: str) -> Linted:
        """Lint the document as it is now, publish its diagnostics, keep the result."""
        from speclint.lsp.convert import Lines, diagnostic

        document = self.workspace.get_text_document(uri)
        path = _path_for(uri, document.language_id)
        linted = lint_document(document.source, path, self.sglang_version, self.model_configs)
        linted.version = document.version
        self.linted[uri] = linted
        lines = Lines(document.source, self.encoding)
        # findings inside a launch's --config file belong to that file, not this document
        found = [diagnostic(f, lines) for f in linted.result.findings if f.span.file is None]
        for item in found:
            for related in item.related_information or ():
                related.location.uri = uri
        if linted.result.error:
            found.append(
                types.Diagnostic(
                    range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                    message=f"speclint could not lint this file: {linted.result.error}",
                    severity=types.DiagnosticSeverity.Error,
                    source="speclint",
                )
            )
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=document.version, diagnostics=found)
        )
        return linted

    def current(self, uri: str) -> Linted:
        document = self.workspace.get_text_document(uri)
        linted = self.linted.get(uri)
        if linted is None or linted.version != document.version:
            linted = self.lint(uri)
        return linted

    def lint_later(self, uri: str) -> None:
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        loop = asyncio.get_running_loop()
        self.pending[uri] = loop.call_later(DEBOUNCE_S, self._lint_pending, uri)

    def _lint_pending(self, uri: str) -> None:
        self.pending.pop(uri, None)
        if uri in self.workspace.text_documents:
            self.lint(uri)


def _path_for(uri: str, language_id: str | None) -> str:
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if path:
        return path
    return "untitled" + _LANGUAGE_SUFFIX.get(language_id or "", ".sh")


def lint_document(
    text: str, path: str, sglang_version: str | None, model_configs: tuple[tuple[str, str], ...]
) -> Linted:
    """The same lint `speclint check` runs on the file, with its configuration."""
    from speclint.engine import FileResult, lint_text
    from speclint.frontends import file_kind
    from speclint.settings.errors import ConfigError
    from speclint.settings.files import SettingsFinder
    from speclint.settings.merge import CommandLine, options_for

    try:
        settings = SettingsFinder().for_path(path)
        options = options_for(
            path, CommandLine(sglang_version=sglang_version, model_configs=model_configs), settings
        )
        result = lint_text(text, path, options)
    except ConfigError as error:
        result = FileResult(path, error=str(error))
    except Exception as error:  # a bug: say so in the editor, keep the server alive
        result = FileResult(path, error=f"internal error ({type(error).__name__}: {error})")
    return Linted(None, text, file_kind(path, text), result)


server = SpeclintServer()


@server.feature(types.INITIALIZE)
def _initialize(ls: SpeclintServer, params: types.InitializeParams) -> None:
    options = params.initialization_options or {}
    if isinstance(options, dict):
        version = options.get("sglangVersion")
        ls.sglang_version = version.lstrip("v") if isinstance(version, str) else None
        configs = options.get("modelConfigs") or {}
        if isinstance(configs, dict):
            ls.model_configs = tuple((str(k), os.path.expanduser(str(v))) for k, v in configs.items())


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def _did_open(ls: SpeclintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.lint(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def _did_change(ls: SpeclintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.lint_later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def _did_save(ls: SpeclintServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.lint(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def _did_close(ls: SpeclintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.linted.pop(uri, None)
    waiting = ls.pending.pop(uri, None)
    if waiting is not None:
        waiting.cancel()
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
def _code_action(ls: SpeclintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    from speclint.lsp.actions import code_actions

    linted = ls.current(params.text_document.uri)
    return code_actions(
        params.text_document.uri, linted.text, linted.kind, linted.result.findings, params.range, ls.encoding
    )


@server.feature(types.TEXT_DOCUMENT_HOVER)
def _hover(ls: SpeclintServer, params: types.HoverParams) -> types.Hover | None:
    from speclint.lsp.convert import Lines
    from speclint.lsp.hover import hover_markdown

    linted = ls.current(params.text_document.uri)
    line = params.position.line
    column = Lines(linted.text, ls.encoding).to_codepoint(line, params.position.character)
    text = hover_markdown(linted.result.contexts, line + 1, column + 1)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def serve() -> None:
    """Run over stdio until the client says exit."""
    server.start_io()
