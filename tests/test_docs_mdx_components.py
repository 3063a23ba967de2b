"""MDX pages (Mintlify, Docusaurus): fences indented inside JSX components (`<Tabs>`,
`<Tab>`, `<Steps>`, `<Accordion>` over lines) are read as MDX reads them, with findings at
their line and column in the page; lower-case HTML (`<details>`) stays CommonMark's."""

from __future__ import annotations

from fixture_file import FixtureFile


def test_fences_inside_components_are_read_at_their_position():
    found = FixtureFile("markdown/mdx_components.mdx").findings()
    errors = [(code, line, column, token) for code, line, column, token, _ in found if code.startswith("FLG")]
    assert errors == [
        ("FLG001", 14, 7, "--mem-fracton-static"),  # <Tabs> > <Tab title="Prefill">, continued
        ("FLG001", 22, 20, "--tp-szie"),  # the second <Tab>
        ("FLG001", 32, 64, "--chunked-prefil-size"),  # <Steps> > <Step>, after a paragraph
        ("FLG001", 42, 68, "--quantizaton"),  # <Accordion> whose attributes span lines
        ("FLG001", 46, 54, "--tp-szie"),  # <Warning>text</Warning>: an inline span, as before
        ("FLG001", 53, 64, "--enable-metrcs"),  # after a jsx fence showing an unclosed <Tabs>
    ]
    message = next(m for code, line, *_, m in found if line == 14)
    assert "`--mem-fracton-static` is not an SGLang 0.5.23 flag" in message
    assert "did you mean `--mem-fraction-static`?" in message
    assert not [code for code, *_ in found if code == "SLM005"]


def test_a_mintlify_md_copy_of_an_mdx_page_is_read_the_same_way():
    found = FixtureFile("markdown/mintlify_components.md").findings()
    assert [(code, line, column, token) for code, line, column, token, _ in found] == [
        ("FLG001", 6, 65, "--enable-metrcs"),
    ]


def test_lower_case_html_is_not_taken_for_a_component():
    found = FixtureFile("markdown/html_not_components.md").findings()
    assert [(code, line) for code, line, *_ in found] == [("SLM005", 7)]
    assert "found no launch" in found[0][4]
