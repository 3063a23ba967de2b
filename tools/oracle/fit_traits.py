"""Which resolution traits agree best with a recording (a helper for adding a release).

    .venv/bin/python tools/oracle/fit_traits.py 0.5.7 [0.5.8.post1 ...]

For each recorded release, runs tests/test_oracle_recordings.py's comparison with the
TRAITS entry of every modelled release standing in for it, and prints the number of
launches that differ with each: start the release's entry from the best one, then read
the remaining differences (`python tests/test_oracle_recordings.py <release>`) in its source.
"""

from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "src"))


def main(versions: list[str]) -> None:
    import test_oracle_recordings as tor

    from speclint.sglang import release
    from speclint.sglang import traits as traits_mod

    candidates = dict(traits_mod.TRAITS)
    for version in versions:
        path = os.path.join(tor.DATA, f"{version}.json.gz")
        scores = []
        for name, traits in sorted(candidates.items(), key=lambda kv: tor._version_key(kv[0])):
            traits_mod.TRAITS[version] = traits
            traits_mod.modelled_release.cache_clear()
            release.cache_clear()  # a Release keeps the traits it first looked up
            *_, differ = tor.check_release(path)
            scores.append((len(differ), name))
        traits_mod.TRAITS.pop(version, None)
        traits_mod.TRAITS.update(candidates)
        traits_mod.modelled_release.cache_clear()
        release.cache_clear()
        best = sorted(scores)[:4]
        print(f"{version}: " + ", ".join(f"{name} -> {d} differ" for d, name in best), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
