"""Front-ends by family (the target layout; `speclint.extract` still holds the older ones)."""
