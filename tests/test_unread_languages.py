"""Files in languages speclint does not read (PowerShell, Windows batch, fish, zsh, csh,
Terraform/HCL, Nomad, Groovy and Jenkins pipelines) that name the launcher: said not read (SLM005 at the first mention,
naming the language), named on the command line or met in a folder walk. Before, a named one
was an `unsupported-input` error telling to "fix the syntax", and a folder walk skipped it
without a word ("All checks passed: 0 launches in 0 files")."""

from __future__ import annotations

from fixture_file import FIXTURES, FixtureFile

from speclint.frontends import extract_file, is_lintable_path


def test_each_file_naming_the_launcher_is_said_not_read() -> None:
    cases = {
        "start_wsl.ps1": (4, 29, "PowerShell scripts (`.ps1`)"),
        "main.tf": (10, 40, "Terraform files (`.tf`)"),
        "serve.zsh": (3, 12, "zsh scripts (`.zsh`)"),
        "Jenkinsfile": (10, 22, "Jenkins pipelines (`Jenkinsfile`)"),
    }
    for name, (line, column, language) in cases.items():
        findings = FixtureFile(f"unread/other_languages/{name}").findings()
        assert [f[:4] for f in findings] == [("SLM005", line, column, "sglang.launch_server")], name
        assert findings[0][4] == (
            "this file names `sglang.launch_server` but speclint found no launch in it "
            f"(speclint does not read {language}, so nothing in it was checked)"
        )


def test_one_that_names_no_launcher_has_nothing_to_say() -> None:
    other = FixtureFile("unread/other_languages/build.ps1")
    assert other.findings() == []
    assert extract_file(str(other.path), other.text).launches == []


def test_folder_walks_read_only_those_that_name_sglang() -> None:
    folder = FIXTURES / "unread" / "other_languages"
    assert is_lintable_path(str(folder / "main.tf")) and is_lintable_path(str(folder / "start_wsl.ps1"))
    assert not is_lintable_path(str(folder / "build.ps1"))
    assert is_lintable_path(str(folder / "Jenkinsfile"))


def test_fly_and_railway_configs_are_said_not_read(tmp_path) -> None:
    from speclint.engine import lint_text

    text = '[processes]\napp = "python3 -m sglang.launch_server --model-path m --tp 2"\n'
    for name, kind in (("fly.toml", "Fly.io app configs"), ("railway.toml", "Railway configs")):
        (finding,) = lint_text(text, name).findings
        assert (finding.code, finding.span.line, finding.span.column) == ("SLM005", 2, 19)  # `sglang...`
        assert f"(speclint does not read {kind} (`{name}`), so nothing in it was checked)" in finding.message
        (tmp_path / name).write_text(text)
        assert is_lintable_path(str(tmp_path / name))
