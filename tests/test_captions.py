"""Report captions (workflow/lib/privtest_workflow/captions.py): every notebook's title cell becomes
reStructuredText whose LaTeX docutils renders (Snakemake's report renders captions with docutils), with no
warning and no LaTeX left as text."""

import re
from pathlib import Path

import pytest
from docutils.core import publish_parts
from privtest_workflow import captions, catalogue

ROOT = Path(__file__).resolve().parents[1]


def visible_text(rst: str) -> tuple[str, str]:
    """(HTML body, its text without tags) as Snakemake's report renders a caption."""
    html = publish_parts(rst, writer="html")["body"]
    return html, re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize("output", sorted(catalogue.load(ROOT)))
def test_every_caption_renders_its_math(output):
    md = captions.title_cell(ROOT / "notebooks" / f"{output}.ipynb")
    html, text = visible_text(captions.to_rst(md))
    assert "system-message" not in html and "problematic" not in html, html
    assert not re.search(r"\$|\\[A-Za-z]+|varepsilon|\bbar p\b", text), text
    if "$" in md:
        assert 'class="formula"' in html  # docutils' HTML math


def test_conversion_by_hand_and_the_failure_it_fixes():
    md = "# fig_x: title\n\nthreshold $\\bar p_t$ at $t$-step runs, $p^*$s and `privtest.exact`."
    rst = captions.to_rst(md)
    assert rst == (
        "fig_x: title\n\nthreshold :math:`\\bar p_t` at :math:`t`-step runs, :math:`p^*`\\ s and ``privtest.exact``."
    )
    html, text = visible_text(rst)
    assert "system-message" not in html and "bar" not in text
    assert 'class="formula"' in html and re.search(r"<(tt|code)[^>]*>privtest.exact</(tt|code)>", html)
    # read verbatim as RST (the old caption helper) the backslash of \bar is lost: "$bar p_t$"
    _, raw = visible_text(md.replace("# ", "", 1))
    assert "$bar p_t$" in raw
