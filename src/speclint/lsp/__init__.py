"""`speclint server`: the Language Server Protocol front door (diagnostics, fixes, hover).

The protocol wiring (pygls) lives in `server.py`; everything it shows is computed by the
plain functions in `convert.py`, `hover.py` and `actions.py` from the same `lint_text` result
the command line prints, so an editor and `speclint check` never disagree.
"""
