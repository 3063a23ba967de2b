"""FLG: what SGLang's argument parser makes of the flags (unknown, ambiguous, missing values, versions)."""
