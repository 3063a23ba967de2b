"""The types every layer shares, importing nothing else of speclint: where text is written
(`spans`), argv words (`words`), the launches front-ends find (`launches`), and what rules
report (`findings`: findings, severities, notes, edits)."""
