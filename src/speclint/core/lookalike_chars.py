"""Characters that look like the `-` or the space a command needs but are not: the docs
front-end records them on words (`Word.lookalikes`), the flag rules name them."""

DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d"
"""Hyphen, non-breaking hyphen, figure dash, en dash, em dash, horizontal bar, minus sign, small
and fullwidth hyphen-minus: each looks like `-`."""
SPACES = "\u00a0\u2007\u2009\u200a\u200b\u202f\u3000"
"""No-break, figure, thin, hair, zero-width, narrow no-break and ideographic space: each looks
like (or hides as) a space."""
