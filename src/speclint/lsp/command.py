"""`speclint server`: the click command (imported only when used)."""

from __future__ import annotations

import click


@click.command("server", short_help="Run the language server for editors (LSP over stdio).")
@click.option(
    "--stdio",
    is_flag=True,
    default=True,
    hidden=True,
    help="Talk LSP over standard input and output (the only transport).",
)
def server_command(stdio: bool) -> None:
    """Run the language server (LSP over stdio) for editors: diagnostics, fixes, hover."""
    from speclint.lsp.server import serve

    serve()
