"""Report captions (workflow/lib/privtest_workflow/captions.py): every notebook's title cell becomes
reStructuredText whose math is MathML (Snakemake's report renders captions with docutils, whose default HTML math
shows \\bar p as a dash before p without a stylesheet the report lacks), with no warning and no LaTeX left as
text."""

import re
from pathlib import Path

import pytest
from docutils.core import publish_parts
from privtest_workflow import captions, catalogue

ROOT = Path(__file__).resolve().parents[1]


def visible_text(rst: str) -> tuple[str, str]:
    """(HTML body, its text outside MathML and tags) as Snakemake's report renders a caption."""
    html = publish_parts(rst, writer="html")["body"]
    return html, re.sub(r"<[^>]+>", "", re.sub(r"<math .*?</math>", "", html, flags=re.S))


@pytest.mark.parametrize("output", sorted(catalogue.load(ROOT)))
def test_every_caption_renders_its_math(output):
    md = captions.title_cell(ROOT / "notebooks" / f"{output}.ipynb")
    html, text = visible_text(captions.to_rst(md))
    assert "system-message" not in html and "problematic" not in html, html
    assert not re.search(r"\$|\\[A-Za-z]+|varepsilon|\bbar p\b", text), text
    assert html.count("<math ") == len(captions._MATH.findall(md))  # every $...$ span is MathML
    assert 'class="formula"' not in html and "‒" not in html  # not docutils' HTML math (its \\bar is a dash)


def test_conversion_by_hand_and_the_failure_it_fixes():
    md = "# fig_x: title\n\nthreshold $\\bar p_t$ at $t$-step runs, $p^*$s and `privtest.exact`."
    rst = captions.to_rst(md)
    m = {tex: captions.mathml(tex) for tex in ("\\bar p_t", "t", "p^*")}
    bar = m["\\bar p_t"]
    assert rst == captions.ROLE + (
        f"fig_x: title\n\nthreshold :raw-html:`{bar}` at :raw-html:`{m['t']}`-step runs, "
        f":raw-html:`{m['p^*']}`\\ s and ``privtest.exact``."
    )
    html, text = visible_text(rst)
    assert "system-message" not in html and "bar" not in text
    assert re.search(r"<(tt|code)[^>]*>privtest.exact</(tt|code)>", html)
    # \bar p_t: a bar over p that shows at 14 px (a plain U+2015 bar: docutils' accent U+02C9 is drawn into the p),
    # t an ordinary subscript (docutils alone would put t under the p: munderover)
    assert "<msubsup><mover><mi>p</mi><mo>\u2015</mo></mover><mi>t</mi>" in bar
    assert "munderover" not in bar and "\u02c9" not in bar
    # read verbatim as RST (the old caption helper) the backslash of \bar is lost: "$bar p_t$"
    _, raw = visible_text(md.replace("# ", "", 1))
    assert "$bar p_t$" in raw


def test_caption_parameter_shows_its_source_not_raw_rst():
    # the report lists a figure's parameters; the caption parameter there names its source only
    import pickle

    c = captions.caption(ROOT / "notebooks" / "fig_oc.ipynb")
    assert str(c) == f"title cell of {ROOT / 'notebooks' / 'fig_oc.ipynb'}" and ":raw-html:" in c.rst
    assert type(pickle.loads(pickle.dumps(c))) is str  # what a job's script sees


def test_a_panel_label_is_not_an_enumerated_list():
    # a caption line "(a) Rejection threshold ..." was rendered as the list item "1. Rejection threshold ..."
    html, text = visible_text(captions.to_rst("# fig_x: t\n\n(a) Rejection threshold. (b) More.\nb. also\n1) and"))
    assert "<ol" not in html and "(a) Rejection threshold" in text and "b. also" in text and "1) and" in text
    for output in ("fig_expost", "fig_purification", "fig_lower_bounds", "fig_calibration"):
        html, _ = visible_text(captions.to_rst(captions.title_cell(ROOT / "notebooks" / f"{output}.ipynb")))
        assert "<ol" not in html, output
