"""Running lints over many files: the plan per file (`checking`), worker processes
(`workers`), folder walks (`walk`), fixes (`fix`) and the result cache (`cache`, with the
files a lint read besides, `depends`)."""
