"""Report captions: each output's caption is the title cell of its notebook (Markdown with LaTeX math), and the
Snakemake report renders captions as reStructuredText with docutils. Read verbatim as RST, the Markdown loses its
LaTeX backslashes (``$\\bar p_t$`` shows as ``$bar p_t$``); :func:`to_rst` turns it into RST in which docutils
renders the math (``:math:`` role, HTML formulas) and the code spans (literals).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

#: $...$ inline math (not $$, no newline inside).
_MATH = re.compile(r"(?<!\$)\$(?!\$)([^$\n]+?)\$(?!\$)")
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


def to_rst(markdown: str) -> str:
    """The reStructuredText of a Markdown caption: the leading ``# `` of the title removed, ``$...$`` as
    ``:math:`...``` (backslashes kept: docutils' math role reads the raw LaTeX), `code` as ````code````; emphasis
    (``*x*``, ``**x**``) is the same in both languages.

    Args:
        markdown: the notebook's title cell.

    Returns:
        RST text; empty input gives "".
    """
    text = re.sub(r"^# ", "", markdown, count=1)
    out, pos = [], 0
    spans = sorted(
        [(m.start(), m.end(), "math", m.group(1)) for m in _MATH.finditer(text)]
        + [(m.start(), m.end(), "literal", m.group(1)) for m in _CODE.finditer(text)]
    )
    for start, end, kind, body in spans:
        if start < pos:  # a code span inside math or vice versa: the first one wins
            continue
        out.append(text[pos:start])
        out.append(_role("math", body, text, start, end) if kind == "math" else f"``{body}``")
        pos = end
    out.append(text[pos:])
    return "".join(out)
