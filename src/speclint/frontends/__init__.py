"""Front-ends by family (target layout): `docs` reads Markdown and Jupyter notebooks.

The older front-ends still live in `speclint.extract`, whose `extract_file` dispatches to
these as well.
"""
