"""Report captions: each output's caption is the title cell of its notebook (Markdown with LaTeX math), and the
Snakemake report renders captions as reStructuredText with docutils. Read verbatim as RST, the Markdown loses its
LaTeX backslashes (``$\\bar p_t$`` shows as ``$bar p_t$``); :func:`to_rst` turns it into RST in which the math is
MathML (which browsers render) and the code spans are literals.

Why MathML and not docutils' ``:math:`` role: Snakemake renders captions with docutils' default ``math_output``
("HTML math"), which needs a stylesheet the report does not include; without it ``\\bar p`` shows as a dash before
the p ("‒p_t ≤ 0" reads as a negative number). The MathML comes from docutils' own LaTeX converter and is written
through a raw-HTML role that the caption defines itself (:data:`ROLE`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

#: $...$ inline math (not $$, no newline inside).
_MATH = re.compile(r"(?<!\$)\$(?!\$)([^$\n]+?)\$(?!\$)")
#: An accent (\\bar p, \\hat{x}, ...) directly followed by a subscript: docutils' converter would put the
#: subscript *under* the letter (munderover); an empty superscript first makes it an ordinary subscript.
_ACCENT_SUB = re.compile(
    r"(\\(?:bar|hat|tilde|overline|widehat|widetilde|vec|dot)\s*(?:\{[^{}]*\}|\\[A-Za-z]+|\w))(?=\s*_)"
)
#: MathML's namespace (written as the default namespace of every <math> element).
_MATHML = "http://www.w3.org/1998/Math/MathML"
#: The over-bar characters of docutils' \\bar (U+02C9) and \\overline: at the report's 14 px the accent form is
#: drawn into the letter and cannot be seen, so :func:`mathml` writes a plain (non-accent) bar, U+2015, instead.
_BARS = ("\u02c9", "\u00af", "_", "\u203e")
#: The RST that defines the inline raw-HTML role the math is written in; it opens every caption with math.
ROLE = ".. role:: raw-html(raw)\n   :format: html\n\n"
#: A line that reStructuredText would read as an enumerated list item ("(a) ...", "a) ...", "1. ...", "b. ..."): a
#: caption's panel label "(a) Rejection threshold" would show as "1. Rejection threshold".
_ENUMERATOR = re.compile(r"^(\(?[A-Za-z0-9]{1,2}[.)]) ", re.M)
#: `code` spans of Markdown (single backticks).
_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")


def title_cell(notebook: str | Path) -> str:
    """The Markdown source of a notebook's first cell ("" if it has none).

    Raises:
        OSError, ValueError: if the file cannot be read or is not JSON.
    """
    cells = json.loads(Path(notebook).read_text())["cells"]
    return "".join(cells[0]["source"]) if cells else ""


def _role(name: str, body: str, text: str, start: int, end: int) -> str:
    """``:name:`body``` with RST's escaped-space separators where the role touches a word character (inline markup
    must start and end at a word boundary)."""
    before = "\\ " if start > 0 and text[start - 1].isalnum() else ""
    after = "\\ " if end < len(text) and text[end].isalnum() else ""
    return f"{before}:{name}:`{body}`{after}"


def _xml_entity(name: str) -> str:
    """``&name;`` if XML defines it, else the character references of HTML5's entity ``name``."""
    from html.entities import html5

    if name in ("lt", "gt", "amp", "quot", "apos") or f"{name};" not in html5:
        return f"&{name};"
    return "".join(f"&#x{ord(c):x};" for c in html5[f"{name};"])


def mathml(tex: str) -> str:
    """Inline MathML (one line) of the LaTeX ``tex``, by docutils' converter (accents before subscripts fixed,
    :data:`_ACCENT_SUB`).

    Raises:
        SyntaxError: if docutils cannot parse ``tex`` (unknown command, unbalanced braces).
    """
    import xml.etree.ElementTree as ET

    from docutils.utils.math import latex2mathml

    xml = latex2mathml.tex2mathml(_ACCENT_SUB.sub(r"\1^{}", tex))
    # HTML entities (&nbsp; for \, ...) as character references: XML knows only its own five
    xml = re.sub(r"&([A-Za-z][A-Za-z0-9]*);", lambda m: _xml_entity(m[1]), xml)
    root = ET.fromstring(xml)
    for el in root.iter():  # plain tag names; the namespace is written once, on <math>
        el.tag = el.tag.rpartition("}")[2]
    root.set("xmlns", _MATHML)
    for over in root.iter("mover"):  # \bar, \overline: a bar that shows at the report's font size
        kids = list(over)
        if len(kids) == 2 and kids[1].tag == "mo" and (kids[1].text or "").strip() in _BARS:
            over.attrib.pop("accent", None)
            kids[1].attrib.clear()
            kids[1].text = "\u2015"
    xml = ET.tostring(root, encoding="unicode", short_empty_elements=False)
    return re.sub(r">\s+<", "><", xml).strip()


def to_rst(markdown: str) -> str:
    """The reStructuredText of a Markdown caption: the leading ``# `` of the title removed, ``$...$`` as MathML in
    the raw-HTML role (:func:`mathml`; the role's definition :data:`ROLE` is prepended when there is math), `code`
    as ````code````, a line opening with a panel label such as ``(a)`` escaped so that it is not read as an
    enumerated list (:data:`_ENUMERATOR`); emphasis (``*x*``, ``**x**``) is the same in both languages.

    Args:
        markdown: the notebook's title cell.

    Returns:
        RST text; empty input gives "".

    Raises:
        SyntaxError: if the LaTeX of a ``$...$`` span cannot be converted (:func:`mathml`).
    """
    text = re.sub(r"^# ", "", markdown, count=1)
    text = _ENUMERATOR.sub(r"\\\1 ", text)  # a panel label, not a list: "\(a) ..." is literal in RST
    out, pos = [], 0
    spans = sorted(
        [(m.start(), m.end(), "math", m.group(1)) for m in _MATH.finditer(text)]
        + [(m.start(), m.end(), "literal", m.group(1)) for m in _CODE.finditer(text)]
    )
    for start, end, kind, body in spans:
        if start < pos:  # a code span inside math or vice versa: the first one wins
            continue
        out.append(text[pos:start])
        out.append(_role("raw-html", mathml(body), text, start, end) if kind == "math" else f"``{body}``")
        pos = end
    out.append(text[pos:])
    has_math = any(kind == "math" for start, _, kind, _ in spans)
    return (ROLE if has_math else "") + "".join(out)


class Caption(str):
    """A caption passed as a rule parameter (the report's caption template reads ``snakemake.params.caption.rst``).

    As a string it is only the caption's source ("title cell of notebooks/<id>.ipynb"): that is what the report's
    list of a figure's parameters shows, instead of the whole caption as raw RST. Pickled (Snakemake's script
    preamble) as that plain string.
    """

    rst: str

    def __new__(cls, rst: str, source: str) -> Caption:
        obj = super().__new__(cls, f"title cell of {source}")
        obj.rst = rst
        return obj

    def __reduce__(self):
        return (str, (str(self),))


def caption(notebook: str | Path) -> Caption:
    """The report caption of ``notebook``: :func:`to_rst` of its title cell (its file name if the cell is empty)."""
    return Caption(to_rst(title_cell(notebook)) or Path(notebook).stem, str(notebook))
