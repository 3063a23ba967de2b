"""Documentation front-ends: Markdown (markdown-it-py) and Jupyter notebooks (.ipynb).

Docs write launches in fenced blocks, inline code, prose lines and bare flag lists; these
modules cut that text out with each character's place in the file and hand it to the shell
and Python front-ends, so every finding points into the document itself.
"""
