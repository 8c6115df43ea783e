"""What the Snakemake report shows besides figures (privtest_workflow.reporting): the paper's parts and the outputs
in the catalogue's order although the report sorts them as text, each output's verdict counts, and the HTML
renderings of the committed tables and claims. How the report looks in a browser: tests/test_report_browser.py."""

import re
from functools import cmp_to_key
from pathlib import Path

import pytest
from privtest_workflow import captions, catalogue, reporting

from privtest_artifact.claims import VERDICTS

ROOT = Path(__file__).resolve().parents[1]
MARKDOWN = ["figures/table1.md", "figures/table2.md", "figures/table3.md", "figures/claims.md"]


def text_order(names):
    """``names`` sorted as the report's page sorts them (``localeCompare``): for these ASCII names, character by
    character with punctuation before digits before letters, which Python's code-point order also gives."""
    return sorted(names, key=cmp_to_key(lambda a, b: (a > b) - (a < b)))


def toggled(rows: list[dict[str, str]]) -> list[str]:
    """The labels the report's page would turn into a switch (abstract_results.js, Snakemake 9): of the labels after
    the first, those with exactly two values each on half of the rows; none if more than one qualifies."""
    names = list(rows[0])[1:]
    found = []
    for name in names:
        values = [r[name] for r in rows]
        unique = set(values)
        if len(unique) == 2 and all(values.count(v) * 2 == len(rows) for v in unique):
            found.append(name)
    return found if len(found) == 1 else []


def test_paper_parts_keep_the_catalogue_order_when_sorted_as_text():
    titles = catalogue.sections(ROOT)
    names = [reporting.category(t, titles) for t in titles] + [reporting.category(reporting.CLAIMS_SECTION, titles)]
    assert text_order(names) == names
    assert text_order(titles) != titles  # the titles alone would not: "3 Privacy" before "3-5 The GTM"
    assert all(t in n for t, n in zip(titles, names, strict=False))
    with pytest.raises(ValueError, match="not a section"):
        reporting.category("2 Nowhere", titles)


def test_rows_keep_the_catalogue_order_and_carry_their_counts():
    cat = catalogue.load(ROOT)
    outputs = [(o.id, o.section) for o in cat.values()]
    counts = {i: f"{n} claims: {n} PASS" for n, (i, _) in enumerate(outputs, 1)}
    labels = reporting.row_labels(outputs, counts)
    for section in {s for _, s in outputs}:
        rows = [labels[i] for i, s in outputs if s == section]
        assert text_order([r["#"] for r in rows]) == [r["#"] for r in rows]  # 01 ... 23, not 1, 10, 11, ...
        assert [r["output"] for r in rows] == [i for i, s in outputs if s == section]
        assert not toggled(rows), section
    assert labels["fig_oc"]["claims"] == counts["fig_oc"]


def test_equal_counts_in_a_part_do_not_turn_rows_into_a_switch():
    # Two outputs of one part with the same counts: the report would show one row with a switch between them (the
    # `output` label alone takes two values on half of the rows) unless the counts are told apart.
    outputs = [("a", "one"), ("b", "one"), ("c", "two"), ("d", "two"), ("e", "two"), ("f", "two")]
    counts = {"a": "4 claims: 4 PASS", "b": "4 claims: 4 PASS"}
    counts |= {"c": "1 claim: 1 PASS", "d": "1 claim: 1 PASS", "e": "2 claims: 2 PASS", "f": "2 claims: 2 PASS"}
    naive = {i: {"#": str(n), "output": i, "claims": counts[i]} for n, (i, _) in enumerate(outputs)}
    assert toggled([naive["a"], naive["b"]]) == ["output"]  # the fault the labels avoid
    assert toggled([naive[i] for i in "cdef"]) == ["claims"]
    assert reporting.switches([naive["a"], naive["b"]]) == ["output"]
    labels = reporting.row_labels(outputs, counts)
    assert not toggled([labels["a"], labels["b"]]) and not toggled([labels[i] for i in "cdef"])
    assert labels["a"]["claims"] == "4 claims: 4 PASS (a)" and labels["e"]["claims"] == "2 claims: 2 PASS (e)"
    # counts that repeat without making a switch stay as they are
    outputs = [(i, "one") for i in "abc"]
    labels = reporting.row_labels(outputs, {"a": "1 claim: 1 PASS", "b": "1 claim: 1 PASS", "c": "0 claims"})
    assert labels["a"]["claims"] == labels["b"]["claims"] == "1 claim: 1 PASS"


def test_verdict_counts_name_the_verdicts_that_occur(tmp_path):
    assert reporting.verdict_counts(["PASS", "VACUOUS", "PASS"]) == "3 claims: 2 PASS, 1 VACUOUS"
    assert reporting.verdict_counts(["ERRATUM"]) == "1 claim: 1 ERRATUM"
    assert reporting.verdict_counts([]) == "0 claims"
    assert (
        reporting.verdict_counts(["PASS"], every=True)
        == "1 claim: 1 PASS, 0 FAIL, 0 INCONCLUSIVE, 0 VACUOUS, 0 ERRATUM"
    )
    assert reporting.VERDICTS == VERDICTS
    path = tmp_path / "c.csv"
    path.write_text("claim_id,verdict\nx,INCONCLUSIVE\ny,FAIL\n")
    assert reporting.file_verdict_counts(path) == "2 claims: 1 FAIL, 1 INCONCLUSIVE"
    assert "missing" in reporting.file_verdict_counts(tmp_path / "none.csv")


@pytest.mark.parametrize("path", MARKDOWN)
def test_committed_tables_render_as_html(path):
    text = (ROOT / path).read_text()
    page = reporting.markdown_html(text, Path(path).name)
    lines = text.splitlines()
    separators = [k for k, line in enumerate(lines) if re.fullmatch(r"\|[\s:|-]+\|?", line)]
    rows = sum(line.startswith("|") for line in lines) - len(separators)
    assert page.count("<table>") == len(separators) > 0
    assert page.count("<tr>") == rows
    assert "|---" not in page and not re.search(r"<p>\|", page)  # every pipe table became a table
    spans = len(captions._MATH.findall(text))
    assert page.count("<math ") == spans and "<code>\\" not in page  # every $...$ is MathML, none left as TeX
    headings = [line for line in lines if line.startswith("#")]
    assert len(re.findall(r"<h[1-6]>", page)) == len(headings)


def test_markdown_html_escapes_text_and_reads_cells():
    page = reporting.markdown_html(
        "# T\n\n*a note*\n\nSee [docs](../docs/claims.md#verdicts).\n\n"
        "| a | b |\n|---|--:|\n| `x<y` | **PASS** \\| $\\frac12\\big($ |\n",
        "t.md",
    )
    assert '<p>See <a href="../docs/claims.md#verdicts">docs</a>.</p>' in page
    assert "<h1>T</h1>" in page and "<p><em>a note</em></p>" in page
    assert "<td><code>x&lt;y</code></td>" in page and "<strong>PASS</strong> |" in page
    assert '<td class=r><strong>PASS</strong> | <math xmlns="http://www.w3.org/1998/Math/MathML">' in page
    assert "<th>a</th><th>b</th>" in page
