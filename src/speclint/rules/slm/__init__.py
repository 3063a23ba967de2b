"""SLM: what speclint met in the file itself (syntax, continuations, suppressions, launches)."""
