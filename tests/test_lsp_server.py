"""`speclint server` driven over stdio by a real LSP client (pygls's LanguageClient):
initialize, didOpen, publishDiagnostics, codeAction, hover, didChange, shutdown, exit.

Set SPECLINT_LSP_TRANSCRIPT=FILE to keep the request/response pairs (abridged).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LAUNCH = """\
#!/bin/bash
python3 -m sglang.launch_server --model-path /models/llama \\
  --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 \\
  --speculative-eagle-topk 1 --speculative-num-steps 1 --speculative-num-draft-tokens 16 \\
  --max-running-requests 32 --tp 2
"""


class Session:
    """A client, the diagnostics it received, and an abridged transcript."""

    def __init__(self) -> None:
        self.client = LanguageClient("speclint-test", "1")
        self.diagnostics: dict[str, asyncio.Queue] = {}
        self.transcript: list[dict] = []

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: types.PublishDiagnosticsParams) -> None:
            self.transcript.append(
                {
                    "<- notification": "textDocument/publishDiagnostics",
                    "diagnostics": [
                        f"{d.range.start.line}:{d.range.start.character}"
                        f" {d.code} {d.message.splitlines()[0][:60]}"
                        for d in params.diagnostics
                    ],
                }
            )
            self.diagnostics.setdefault(params.uri, asyncio.Queue()).put_nowait(params.diagnostics)

    def log(self, method: str, sent: object, got: object = None) -> None:
        self.transcript.append({"-> " + method: sent, **({"<-": got} if got is not None else {})})

    async def next_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        queue = self.diagnostics.setdefault(uri, asyncio.Queue())
        return await asyncio.wait_for(queue.get(), 30)


def _codes(diagnostics) -> dict[str, types.Diagnostic]:
    return {d.code: d for d in diagnostics}


async def _drive(project: Path) -> Session:
    session = Session()
    client = session.client
    await client.start_io(sys.executable, "-m", "speclint", "server", cwd=str(project))
    result = await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=project.as_uri(),
            initialization_options={"sglangVersion": "0.5.23"},
        )
    )
    session.log(
        "initialize",
        {"sglangVersion": "0.5.23"},
        {
            "hoverProvider": result.capabilities.hover_provider,
            "codeActionProvider": bool(result.capabilities.code_action_provider),
        },
    )
    assert result.capabilities.hover_provider
    client.initialized(types.InitializedParams())

    script = project / "launch.sh"
    uri = script.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="shellscript", version=1, text=LAUNCH)
        )
    )
    session.log("textDocument/didOpen", {"uri": "launch.sh", "version": 1})
    found = _codes(await session.next_diagnostics(uri))
    # the same finding, position and code as `speclint check launch.sh` (0-based here)
    spd001 = found["SPD001"]
    assert (spd001.range.start.line, spd001.range.start.character) == (3, 86)
    assert (spd001.range.end.line, spd001.range.end.character) == (3, 88)
    assert spd001.severity == types.DiagnosticSeverity.Warning
    assert "runs with 2, not 16" in spd001.message
    assert spd001.code_description.href.endswith("/rules/topk-one-overrides-draft-tokens.md")
    assert "FLG003" not in found  # ignored by the project's pyproject.toml
    assert "DRF011" not in found  # the configs are mapped there too

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=spd001.range,
            context=types.CodeActionContext(diagnostics=[spd001]),
        )
    )
    session.log("textDocument/codeAction", {"range": "3:86-3:88"}, [a.title for a in actions])
    titles = [a.title for a in actions]
    assert any(t.startswith("Disable SPD001") for t in titles), titles
    disable = next(a for a in actions if a.title.startswith("Disable SPD001"))
    (edit,) = disable.edit.changes[uri]
    assert edit.new_text == "# speclint: disable=SPD001\n" and edit.range.start.line == 1
    # rewriting 16 to 2 keeps behaviour but erases the intent: an unsafe fix, marked
    fixes = [a for a in actions if a.title.startswith("(unsafe) Fix SPD001")]
    assert fixes and not fixes[0].is_preferred, titles
    (fix_edit,) = fixes[0].edit.changes[uri]
    assert fix_edit.new_text == "2" and fix_edit.range.start == spd001.range.start

    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(3, 60))
    )
    session.log(
        "textDocument/hover",
        {"position": "3:60 (--speculative-num-draft-tokens)"},
        hover.contents.value.splitlines()[:3],
    )
    text = hover.contents.value
    assert "--speculative-num-draft-tokens" in text and "16 → 2" in text
    assert "SGLang 0.5.23" in text

    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(2, 70))
    )
    session.log(
        "textDocument/hover", {"position": "2:70 (/models/eagle3)"}, hover.contents.value.splitlines()[:5]
    )
    assert "drafter architecture: LlamaForCausalLMEagle3" in hover.contents.value
    assert "aux hidden states captured from the target" in hover.contents.value
    no_hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 3))
    )
    assert no_hover is None

    fixed = LAUNCH.replace("--speculative-num-draft-tokens 16", "--speculative-num-draft-tokens 2")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    session.log("textDocument/didChange", {"version": 2, "text": "draft tokens 16 -> 2"})
    after = _codes(await session.next_diagnostics(uri))
    assert "SPD001" not in after and "SPD003" not in after

    await client.shutdown_async(None)
    session.log("shutdown", None, "null")
    client.exit(None)
    session.log("exit", None)
    await asyncio.wait_for(client._server.wait(), 30)  # the server process ends on exit
    assert client._server.returncode == 0
    await client.stop()
    return session


def test_language_server_over_stdio(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    models = ROOT / "fixtures" / "models"
    (project / "pyproject.toml").write_text(
        '[tool.speclint]\nignore = ["FLG003"]\n[tool.speclint.models]\n'
        f'"/models/llama" = "{models / "llama-3.1-8b-instruct"}"\n'
        f'"/models/eagle3" = "{models / "eagle3-llama-3.1-8b-instruct"}"\n'
    )
    session = asyncio.run(_drive(project))
    keep = os.environ.get("SPECLINT_LSP_TRANSCRIPT")
    if keep:
        Path(keep).write_text(
            "\n".join(json.dumps(entry, ensure_ascii=False) for entry in session.transcript) + "\n"
        )
