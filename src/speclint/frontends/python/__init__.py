"""Python front-end (libcst): launches in Python launch wrappers, tests and snippets.

`walker.extract_python` reads a file; argv lists and shell strings go to the shell front-end,
keyword APIs (`sgl.Engine(...)`) become keyword launches. Kept empty so that importing a module
here loads libcst only when needed.
"""
