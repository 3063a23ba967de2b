"""VER: flags whose meaning or existence changed between SGLang releases."""
