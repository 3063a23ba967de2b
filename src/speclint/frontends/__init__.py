"""Front-ends by family (the target layout): `docs` reads Markdown and Jupyter notebooks,
`manifests` Dockerfiles and GitHub Actions workflows. The older front-ends still live in
`speclint.extract`, whose `extract_file` dispatches to these as well.
"""
