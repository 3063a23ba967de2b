"""A Modal app's registry image picks the SGLang release its launch is checked against, as a
`docker run` image does: `modal.Image.from_registry("lmsysorg/sglang:v0.5.6.post2-cu126")` (or
its tag in a module-level constant, `Image` imported from modal) and a launch in the same file
(an argv list, a shell string), in the function the image's decorator names or the file's one
image; a tag with no version (`latest`, `dev`) behaves as the docker path does, and an image
whose build installs SGLang runs the release it pins (`.pip_install("sglang[all]==X")`,
`.uv_pip_install`, `.run_commands("pip install sglang==X")`, on any image), or none."""

from __future__ import annotations

from fixture_file import FixtureFile

from speclint.engine import lint_text
from speclint.settings.options import LintOptions

ARGV = FixtureFile("python/modal_registry_image.py")
STRING = FixtureFile("python/modal_registry_string.py")

_LAUNCH = (
    "    subprocess.Popen(['python3', '-m', 'sglang.launch_server', '--model-path', 'm', '--tp-sise', '1'])\n"
)


def _versions(text: str, path: str = "app.py") -> list[tuple[str, str]]:
    return [(ctx.version.version, ctx.version.reason) for ctx in lint_text(text, path).contexts]


def test_the_registry_tag_in_a_constant_picks_the_release_of_the_decorated_function() -> None:
    findings = ARGV.findings()
    assert [f[:4] for f in findings] == [("FLG001", 33, 10, "--tp-sise")]
    assert findings[0][4].startswith("`--tp-sise` is not an SGLang 0.5.6.post2 flag")
    (ctx,) = lint_text(ARGV.text, str(ARGV.path)).contexts
    assert ctx.version.reason == "from the image lmsysorg/sglang:v0.5.6.post2-cu126 (line 8)"
    # the image is placed where its tag is written: the constant's value
    assert ARGV.at(ctx.launch.image_span) == (8, 16, '"lmsysorg/sglang:v0.5.6.post2-cu126"')


def test_a_literal_tag_and_a_shell_string_launch() -> None:
    findings = STRING.findings()
    assert [f[:4] for f in findings] == [("FLG005", 19, 49, "high")]
    assert findings[0][4].startswith("`high` is not a valid value for `--mem-fraction-static`")
    (ctx,) = lint_text(STRING.text, str(STRING.path)).contexts
    assert ctx.version.version == "0.5.6.post2"
    assert STRING.at(ctx.launch.image_span) == (9, 29, '"lmsysorg/sglang:v0.5.6.post2-cu126"')


def _app(tag: str, steps: str = "") -> str:
    return (
        f"import subprocess\nimport modal\nimage = modal.Image.from_registry({tag!r}){steps}\n"
        "app = modal.App('a')\n@app.function(image=image)\ndef serve():\n" + _LAUNCH
    )


def _docker(tag: str) -> str:
    return f"docker run {tag} python3 -m sglang.launch_server --model-path m --tp-sise 1\n"


def test_a_tag_without_a_version_behaves_as_the_docker_path() -> None:
    for tag in ("lmsysorg/sglang:latest", "lmsysorg/sglang:dev", "lmsysorg/sglang"):
        python, docker = _versions(_app(tag)), _versions(_docker(tag), "run.sh")
        assert [v for v, _ in python] == [v for v, _ in docker], tag
        assert [r.replace("(line 3)", "(line 1)") for _, r in python] == [r for _, r in docker], tag


def test_an_image_that_installs_sglang_again_runs_the_release_it_pins_or_none() -> None:
    plain = _versions(_app("lmsysorg/sglang:v0.5.6.post2-cu126", ".entrypoint([])"))
    assert plain == [("0.5.6.post2", "from the image lmsysorg/sglang:v0.5.6.post2-cu126 (line 3)")]
    for step in (".pip_install('sglang[all]>=0.5.2')", ".run_commands('pip install -e /sglang/python')"):
        rebuilt = _versions(_app("lmsysorg/sglang:v0.5.6.post2-cu126", step))
        assert rebuilt == _versions(_LAUNCH.strip() + "\n"), step  # as with no image at all
    pinned = _versions(_app("lmsysorg/sglang:v0.5.6.post2-cu126", ".pip_install('sglang[all]==0.5.2')"))
    assert pinned == [("0.5.2", "from the package pin sglang[all]==0.5.2 (line 3)")]
    router = _versions(_app("lmsysorg/sglang:v0.5.6.post2-cu126", ".pip_install('sglang-router')"))
    assert router == plain


def test_each_function_runs_in_the_image_its_decorator_names() -> None:
    text = (
        "import subprocess\nimport modal\n"
        "old = modal.Image.from_registry('lmsysorg/sglang:v0.5.6.post2-cu126')\n"
        "new = modal.Image.from_registry('lmsysorg/sglang:v0.5.23')\n"
        "other = modal.Image.debian_slim().pip_install('sglang')\n"
        "app = modal.App('a')\n"
        "@app.function(image=old)\ndef a():\n"
        + _LAUNCH
        + "@app.function(image=new)\ndef b():\n"
        + _LAUNCH
        # not a registry image: the launch gets none, not the file's others
        + "@app.function(image=other)\ndef c():\n"
        + _LAUNCH
        # no decorator and two images: which one runs it is not known
        + "def d():\n"
        + _LAUNCH
    )
    versions = _versions(text)
    assert versions[:2] == [
        ("0.5.6.post2", "from the image lmsysorg/sglang:v0.5.6.post2-cu126 (line 3)"),
        ("0.5.23", "from the image lmsysorg/sglang:v0.5.23 (line 4)"),
    ]
    assert versions[2:] == _versions(_LAUNCH.strip() + "\n") * 2


def test_the_sglang_version_option_still_wins() -> None:
    options = LintOptions(sglang_version="0.5.23")
    (ctx,) = lint_text(ARGV.text, str(ARGV.path), options).contexts
    assert ctx.version.version == "0.5.23" and ctx.version.reason == "from --sglang-version"


def test_a_tag_built_from_constants_and_one_from_a_parameter() -> None:
    built = (
        _app("x")
        .replace("'x'", "f'lmsysorg/sglang:{TAG}'")
        .replace("import modal\n", "import modal\nTAG = 'v0.5.6.post2-cu126'\n")
    )
    assert [v for v, _ in _versions(built)] == ["0.5.6.post2"]
    factory = (
        "import subprocess\nimport modal\n"
        "def make(tag):\n    return modal.Image.from_registry(f'lmsysorg/sglang:{tag}')\n"
        "app = modal.App('a')\n@app.function(image=make('v0.5.6.post2'))\ndef serve():\n" + _LAUNCH
    )
    assert _versions(factory) == _versions(_LAUNCH.strip() + "\n")  # the tag is not read


def test_a_function_that_names_no_image_runs_in_its_apps() -> None:
    text = (
        "import subprocess\nimport modal\n"
        "old = modal.Image.from_registry('lmsysorg/sglang:v0.5.6.post2-cu126')\n"
        "new = modal.Image.from_registry('lmsysorg/sglang:v0.5.23')\n"
        "app = modal.App('a', image=new)\n"
        "@app.function(gpu='H100')\ndef a():\n" + _LAUNCH + "@app.function(image=old)\ndef b():\n" + _LAUNCH
    )
    assert _versions(text) == [
        ("0.5.23", "from the image lmsysorg/sglang:v0.5.23 (line 4)"),
        ("0.5.6.post2", "from the image lmsysorg/sglang:v0.5.6.post2-cu126 (line 3)"),
    ]


PIP = FixtureFile("python/modal_pip_install.py")


def test_a_pinned_pip_install_on_any_image_picks_the_release_of_its_functions() -> None:
    findings = PIP.findings()
    assert [f[:4] for f in findings] == [
        ("FLG001", 27, 95, "--tp-sise"),
        ("FLG001", 33, 92, "--tp-sise"),
        ("FLG001", 38, 83, "--tp-sise"),
    ]
    assert findings[0][4].startswith("`--tp-sise` is not an SGLang 0.4.6.post1 flag")  # (`.pip_install`)
    assert findings[1][4].startswith("`--tp-sise` is not an SGLang 0.5.2 flag")  # (`.uv_pip_install`)
    assert findings[2][4].startswith("`--tp-sise` is not an SGLang 0.5.6.post2 flag")  # (`.run_commands`)
    first, second, third = lint_text(PIP.text, str(PIP.path)).contexts
    assert first.version.reason == "from the package pin sglang[all]==0.4.6.post1 (line 11)"
    assert PIP.at(first.launch.image_span) == (11, 18, '"sglang[all]==0.4.6.post1"')
    assert PIP.at(second.launch.image_span) == (16, 5, '"sglang==0.5.2"')
    assert PIP.at(third.launch.image_span) == (19, 81, "\"pip install 'sglang[all]==0.5.6.post2'\"")


def test_a_pre_release_pin_is_checked_against_the_closest_older_release_unverified() -> None:
    text = PIP.text.replace("sglang[all]==0.4.6.post1", "sglang[all]==0.5.0rc1")
    first = lint_text(text, str(PIP.path)).contexts[0]
    assert first.version.version == "0.4.10.post2"
    assert first.version.reason == (
        "the package pin sglang[all]==0.5.0rc1 names 0.5.0rc1, which is not bundled: checked "
        "against the closest older release, unverified for 0.5.0rc1 (line 11)"
    )


def test_an_unpinned_install_or_a_later_one_that_unpins_picks_no_release() -> None:
    newest = _versions(_LAUNCH.strip() + "\n")
    for steps in (
        ".pip_install('sglang[all]')",
        ".pip_install('sglang[all]==0.5.2').run_commands('pip install -U sglang')",
    ):
        text = (
            "import subprocess\nimport modal\nimage = modal.Image.debian_slim()" + steps + "\n"
            "app = modal.App('a')\n@app.function(image=image)\ndef serve():\n" + _LAUNCH
        )
        assert _versions(text) == newest, steps


def test_a_pinned_build_in_a_file_with_no_registry_image_picks_its_release() -> None:
    """Before, a Modal file was read for images only when it named `from_registry`: an app
    built `debian_slim().pip_install("sglang==X")` alone was checked against the newest."""
    for decorator in (
        "app = modal.App('a')\n@app.function(image=image, gpu='H100')",
        "app = modal.App('a', image=image)\n@app.function()",
    ):
        text = (
            "import subprocess\nimport modal\nimage = modal.Image.debian_slim().pip_install('sglang[all]==0.4.6.post1')\n"
            + decorator
            + "\ndef serve():\n"
            + _LAUNCH
        )
        assert _versions(text) == [
            ("0.4.6.post1", "from the package pin sglang[all]==0.4.6.post1 (line 3)")
        ], decorator
