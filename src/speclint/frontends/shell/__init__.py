"""Shell front-end (tree-sitter-bash): a script's launches, and every other front-end's shell.

`script.extract_shell` reads a whole script; `embedded.ShellBuffer` is how the Python, docs and
manifest front-ends hand it shell code that lives in their files, each character knowing where
it is written. Kept empty so that importing a module here loads tree-sitter only when needed.
"""
