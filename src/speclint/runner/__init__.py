"""Running lints over many files: the result cache (workers and fixes still live in
`speclint.checking` and `speclint.fix`)."""
