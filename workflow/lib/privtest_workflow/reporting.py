"""What the Snakemake report (``make report``) shows besides the figures and their captions: the paper sections and
outputs in the catalogue's order, each output's verdict counts, and HTML renderings of the generated Markdown files
(Tables 1-3 and the claims) that the report displays in place (it would only offer a CSV or Markdown file as a
download).

The report's page sorts its sections, and the rows of a section, as text (JavaScript ``localeCompare``): the order
of ``config/catalogue.yaml`` (paper order) is kept by a letter before each section's title (:func:`category`) and by
the output's position in the catalogue as the first label of its row (:func:`row_labels`).
"""

from __future__ import annotations

import csv
import html
import re
import string
from collections import Counter
from pathlib import Path

from privtest_workflow import captions

#: The verdicts of a claim, in the order the documents count them (privtest_artifact.claims.VERDICTS).
VERDICTS = ("PASS", "FAIL", "INCONCLUSIVE", "VACUOUS", "ERRATUM")
#: The report's section for the claims of every output, after the paper's sections.
CLAIMS_SECTION = "Claims: every verdict"


def category(title: str, titles: list[str]) -> str:
    """The report's name for the paper section ``title`` (one of ``titles``, in paper order): a letter giving its
    place, then the section, e.g. ``"B. §3-5 The GTM"``; :data:`CLAIMS_SECTION` comes after the paper's sections.

    Raises:
        ValueError: if ``title`` is neither one of ``titles`` nor :data:`CLAIMS_SECTION`, or there are more than 25
            sections (one letter each).
    """
    if len(titles) >= len(string.ascii_uppercase):
        raise ValueError(f"at most {len(string.ascii_uppercase) - 1} sections have a letter. Found {len(titles)}.")
    if title == CLAIMS_SECTION:
        return f"{string.ascii_uppercase[len(titles)]}. {title}"
    if title not in titles:
        raise ValueError(f"{title!r} is not a section of the catalogue: {titles}.")
    return f"{string.ascii_uppercase[titles.index(title)]}. §{title}"


def verdict_counts(verdicts: list[str], every: bool = False) -> str:
    """``"54 claims: 49 PASS, 5 VACUOUS"``: how many claims an output checks and their verdicts, in the order of
    :data:`VERDICTS`: those that occur, or all five with ``every`` (``"672 claims: 545 PASS, 0 FAIL, ..."``)."""
    counts = Counter(verdicts)
    parts = [f"{counts[v]} {v}" for v in VERDICTS if every or counts[v]]
    n = len(verdicts)
    return f"{n} claim{'' if n == 1 else 's'}" + (f": {', '.join(parts)}" if parts else "")


def file_verdict_counts(path: str | Path, every: bool = False) -> str:
    """:func:`verdict_counts` of a claims file (results/claims/<id>.csv or figures/claims.csv), or a note that it is
    missing."""
    if not Path(path).is_file():
        return f"not checked yet ({path} is missing)"
    with open(path, newline="") as f:
        return verdict_counts([row["verdict"] for row in csv.DictReader(f)], every)


def switches(rows: list[dict[str, str]]) -> list[str]:
    """The labels that the report's page (Snakemake 9, ``abstract_results.js``) would show as a switch between two
    rows instead of as two rows: of the labels after the first, one that takes exactly two values, each on half of
    the rows, when it is the only such label; [] otherwise."""
    found = []
    for name in list(rows[0])[1:] if rows else []:
        values = [r[name] for r in rows]
        if len(set(values)) == 2 and all(2 * values.count(v) == len(rows) for v in set(values)):
            found.append(name)
    return found if len(found) == 1 else []


def row_labels(outputs: list[tuple[str, str]], counts: dict[str, str]) -> dict[str, dict[str, str]]:
    """The report's labels of each output's row: ``#`` (its position in the catalogue, zero-padded: the rows of a
    section sort by it), ``output`` (the id) and ``claims`` (:func:`verdict_counts`).

    Where the counts would make the report show a switch instead of rows (:func:`switches`: in a section of two
    outputs with the same counts, ``output`` alone takes two values on half of the rows), the counts that repeat in
    that section get the output's id, which makes them distinct.

    Args:
        outputs: (id, section) of every output, in catalogue order.
        counts: id -> its :func:`verdict_counts`.

    Returns:
        id -> {"#": ..., "output": ..., "claims": ...}.
    """
    width = len(str(len(outputs)))
    labels = {i: {"#": f"{n:0{width}d}", "output": i, "claims": counts[i]} for n, (i, _) in enumerate(outputs, 1)}
    for section in dict.fromkeys(s for _, s in outputs):
        rows = [labels[i] for i, s in outputs if s == section]
        if switches(rows):
            texts = [r["claims"] for r in rows]
            for r in rows:
                r["claims"] += f" ({r['output']})" if texts.count(r["claims"]) > 1 else ""
    return labels


# Markdown to HTML: the subset the generated tables and claims are written in (headings, paragraphs, pipe tables,
# `code`, **strong**, [links](url), a whole line in *emphasis*, $math$).

#: LaTeX that docutils' converter does not know and that only sizes a delimiter: dropped.
_SIZES = re.compile(r"\\(?:big|Big|bigg|Bigg)[lr]?(?![A-Za-z])")
#: \frac12, \tfrac1e: one-token arguments without braces.
_SHORT_FRAC = re.compile(r"\\(t?frac)\s*([0-9A-Za-z])\s*([0-9A-Za-z])")
_INLINE = re.compile(r"(?<!\\)\$(?!\$)([^$\n]+?)(?<!\\)\$|`([^`\n]+)`|\*\*([^*\n]+)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)")
_PIPE = re.compile(r"(?<!\\)\|")
_STYLE = (
    "body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#111;background:#fff}"
    "table{border-collapse:collapse;margin:.8em 0}th,td{border:1px solid #bbb;padding:.25em .5em;vertical-align:top}"
    "th{background:#eee}td.r{text-align:right}code{font-size:90%}h1{font-size:1.5em}h2{font-size:1.25em}"
    "h3{font-size:1.1em}"
)


def _math(tex: str) -> str:
    """MathML of ``tex`` (captions.mathml), or its source as code if docutils cannot convert it."""
    tex = _SHORT_FRAC.sub(r"\\\1{\2}{\3}", _SIZES.sub("", tex))
    try:
        return captions.mathml(tex)
    except Exception:  # docutils' MathError and XML errors: show the source rather than nothing
        return f"<code>{html.escape(tex)}</code>"


def inline_html(text: str) -> str:
    """HTML of one line of Markdown: ``$math$`` as MathML, `code`, **strong**, [links](url) (relative to the
    Markdown file's folder, like the .html beside it); everything else escaped."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos : m.start()].replace("\\|", "|")))
        tex, code, strong, link, url = m.groups()
        if tex is not None:
            out.append(_math(tex))
        elif code is not None:
            out.append(f"<code>{html.escape(code)}</code>")
        elif strong is not None:
            out.append(f"<strong>{inline_html(strong)}</strong>")
        else:
            out.append(f'<a href="{html.escape(url)}">{inline_html(link)}</a>')
        pos = m.end()
    out.append(html.escape(text[pos:].replace("\\|", "|")))
    return "".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in _PIPE.split(line.strip().strip("|"))]


def _table(lines: list[str]) -> str:
    head, rule, *body = lines
    right = [c.endswith(":") and not c.startswith(":") for c in _cells(rule)]

    def row(line, tag):
        cells = _cells(line)
        return (
            "<tr>"
            + "".join(
                f"<{tag}{' class=r' if tag == 'td' and k < len(right) and right[k] else ''}>{inline_html(c)}</{tag}>"
                for k, c in enumerate(cells)
            )
            + "</tr>"
        )

    return (
        "<table><thead>"
        + row(head, "th")
        + "</thead><tbody>"
        + "".join(row(b, "td") for b in body)
        + "</tbody></table>"
    )


def markdown_html(text: str, title: str) -> str:
    """A self-contained HTML page of the generated Markdown ``text`` (the subset above; a table is a header line, a
    ``|---|`` line and its rows), titled ``title``."""
    blocks, para, lines = [], [], text.splitlines()

    def flush():
        if para:
            joined = " ".join(para)
            whole = re.fullmatch(r"\*([^*].*[^*])\*", joined)
            blocks.append(f"<p><em>{inline_html(whole[1])}</em></p>" if whole else f"<p>{inline_html(joined)}</p>")
            para.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        heading = re.match(r"(#{1,6}) (.*)", line)
        if heading:
            flush()
            level = len(heading[1])
            blocks.append(f"<h{level}>{inline_html(heading[2])}</h{level}>")
        elif line.startswith("|") and i + 1 < len(lines) and re.fullmatch(r"\|?[\s:|-]+\|?", lines[i + 1]):
            flush()
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            blocks.append(_table(lines[i:j]))
            i = j
            continue
        elif line.strip():
            para.append(line.strip())
        else:
            flush()
        i += 1
    flush()
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body>\n" + "\n".join(blocks) + "\n</body></html>\n"
    )


def write_markdown_html(md: str | Path, out: str | Path) -> None:
    """Write :func:`markdown_html` of the Markdown file ``md`` to ``out`` (titled by the file's name)."""
    Path(out).write_text(markdown_html(Path(md).read_text(), Path(md).name))
