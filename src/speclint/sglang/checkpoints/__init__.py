"""Model configs on disk: finding a model's config.json (never the network) and reading it."""
