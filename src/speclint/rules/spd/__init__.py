"""SPD: speculative-decoding settings SGLang rejects, rewrites or ignores."""
