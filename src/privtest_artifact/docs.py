"""Generated documentation: every number a reader reads is rendered from a run's files, never typed.

Three kinds of output:

- a page per output of the catalogue, ``docs/results/<id>.md`` (:func:`result_page`): what the output shows (its
  caption, the title cell of its notebook) and the paper section it tests, the figure, its claims with their
  verdicts and measured values (``results/claims/<id>.csv``) and a link to what the verdicts mean (docs/claims.md,
  the one place they are defined: :data:`VERDICTS_DOC`),
  a preview of its table (``figures/<id>.md``) and of its analysis tables (``results/analysis/<id>/<name>.csv``;
  those that only repeat the plotted data are linked, not drawn), and its jobs' wall times from the
  committed measurement record ``benchmarks/job_times.csv`` (:data:`JOB_TIMES`, written only by
  ``python benchmarks/reproduction_time.py --record``; never from the rendering run's own ``benchmark:`` files);
- the index by paper result, ``docs/paper_index.md`` (:func:`paper_index`): every theorem, lemma, corollary,
  proposition, table and algorithm of the paper (:mod:`privtest_artifact.paper`) with the claims whose ``source``
  names it, and what no claim tests, with the reason;
- *generated blocks* in hand-written Markdown (README.md, ARTIFACT-APPENDIX.md, docs/*.md): the text between
  ``<!-- BEGIN generated:<name> -->`` and ``<!-- END generated:<name> -->`` is rewritten by :func:`replace_block`
  from the claims (:func:`claim_counts`, :func:`claims_map`, :func:`established`) or a committed run-time measurement
  (:func:`runtime_table`, ``benchmarks/reproduction_time.json``); everything outside the markers is left alone.

Rendering is a pure function of the tracked inputs (claims, tables, analysis results, the committed measurement
records): no clock, no path of the machine, no time of the rendering run, stable ordering and float formatting, so
``make reproduce`` on a fresh clone rewrites every generated file byte for byte (:func:`render_repository`;
docs/reproduction.md).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from privtest_artifact import paper
from privtest_artifact.claims import NOTE_PATTERNS, VERDICTS
from privtest_artifact.tables import markdown_lines

#: The markers of a generated block ``{}`` = its name (letters, digits, ``_``, ``-``, ``.``).
BEGIN = "<!-- BEGIN generated:{} -->"
END = "<!-- END generated:{} -->"
_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
_BLOCK = re.compile(r"<!-- BEGIN generated:([A-Za-z0-9_.-]+) -->")

#: Where the verdicts are defined, the one place (relative to the repository's top directory); every generated
#: document links to it instead of restating the definitions.
VERDICTS_DOC = "docs/claims.md#verdicts"
#: The index by paper result (:func:`paper_index`), relative to the repository's top directory.
PAPER_INDEX = "docs/paper_index.md"

#: The end of a caption's first sentence: a full stop and a capital, not an abbreviation ("et al. (2024)", "eq. (16)").
_FIRST_SENTENCE = re.compile(
    r"(?<!\bal)(?<!\be\.g)(?<!\bi\.e)(?<!\bcf)(?<!\beq)(?<!\bEq)(?<!\bSec)(?<!\bThm)(?<!\bCor)(?<!\bFig)(?<!\bAlg)"
    r"\.\s+(?=[A-Z$(`*])"
)

#: Most rows of an analysis table, or of each Markdown table of a table output, shown on a result page (the full
#: table stays in its .csv / .md).
MAX_ANALYSIS_ROWS = 10
#: Most key columns an analysis table repeats in each part when it is split (:func:`key_columns`).
MAX_KEY_COLUMNS = 4
#: The name of the analysis tables that hold a figure's plotted series: shown by name, size and link only.
SERIES = "series"


def block_names(text: str) -> list[str]:
    """Names of the generated blocks of ``text``, in order of appearance."""
    return _BLOCK.findall(text)


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with the content of its generated block ``name`` replaced by ``body``.

    The markers stay; the content is ``body`` on its own lines between them (a trailing newline of ``body`` is not
    doubled), so rendering twice gives the same text. An *inline* block (markers and content on one line, for a
    number inside a sentence) stays on its line.

    Raises:
        ValueError: if ``name`` is not a block name (letters, digits, ``_-.``), ``text`` does not contain its two
            markers exactly once each, in order, or an inline block's ``body`` has more than one line.
    """
    if not _NAME.match(name):
        raise ValueError(f"name must be letters, digits, '_', '-' or '.', got {name!r}")
    begin, end = BEGIN.format(name), END.format(name)
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise ValueError(f"text must contain {begin!r} then {end!r}, once each")
    head, rest = text.split(begin)
    old, tail = rest.split(end)
    if "\n" not in old:
        if "\n" in body.strip():
            raise ValueError(f"body of the inline block {name!r} must be one line, got {body!r}")
        return f"{head}{begin}{body.strip()}{end}{tail}"
    return f"{head}{begin}\n{body.rstrip()}\n{end}{tail}"


def render_blocks(text: str, bodies: Mapping[str, str]) -> str:
    """``text`` with every generated block it contains replaced by ``bodies[name]``.

    Raises:
        ValueError: if a block of ``text`` has no body in ``bodies`` (an unknown name would otherwise keep stale
            numbers), or as :func:`replace_block`.
    """
    missing = [n for n in block_names(text) if n not in bodies]
    if missing:
        raise ValueError(f"bodies must render every block of the text, missing: {missing}")
    for name in block_names(text):
        text = replace_block(text, name, bodies[name])
    return text


def verdict_counts(claims: pd.DataFrame) -> dict[str, int]:
    """Claims per verdict, every verdict of :data:`privtest_artifact.claims.VERDICTS` in order (0 where none).

    Args:
        claims: a claims table (``figures/claims.csv`` or ``results/claims/<id>.csv``) with a ``verdict`` column.

    Raises:
        ValueError: if ``claims`` has no ``verdict`` column or a verdict outside :data:`VERDICTS`.
    """
    if "verdict" not in claims:
        raise ValueError("claims must have a 'verdict' column")
    unknown = sorted(set(claims["verdict"]) - set(VERDICTS))
    if unknown:
        raise ValueError(f"claims' verdicts must be in {VERDICTS}, got {unknown}")
    counts = claims["verdict"].value_counts()
    return {v: int(counts.get(v, 0)) for v in VERDICTS}


def counts_sentence(claims: pd.DataFrame) -> str:
    """``"<n> claims: <k> PASS, <k> FAIL, ..."`` (:func:`verdict_counts`)."""
    counts = verdict_counts(claims)
    return f"{len(claims)} claims: " + ", ".join(f"{k} {v}" for v, k in counts.items())


def claim_counts(claims: pd.DataFrame) -> str:
    """Markdown: the counts per verdict (:func:`counts_sentence`), a sentence (the verdicts are defined in
    :data:`VERDICTS_DOC`, which the documents around it link)."""
    return counts_sentence(claims) + "."


def _refs(claims: pd.DataFrame) -> pd.DataFrame:
    """One row per (claim, paper result its ``source`` names): the claim's ``claim_id``, ``experiment`` and
    ``verdict``, the result's ``label`` and ``parts`` (a tuple; () for the whole result), in the claims' order
    (:func:`privtest_artifact.paper.parse_source`).

    Raises:
        ValueError: as :func:`~privtest_artifact.paper.parse_source`.
    """
    parsed = {s: paper.parse_source(s) for s in dict.fromkeys(claims["source"])}
    rows = [
        (c.claim_id, c.experiment, c.verdict, ref.label, ref.parts)
        for c in claims.itertuples()
        for ref in parsed[c.source].refs
    ]
    return pd.DataFrame(rows, columns=["claim_id", "experiment", "verdict", "label", "parts"])


def _outside(claims: pd.DataFrame) -> list[str]:
    """The sources outside the paper the claims name (:data:`privtest_artifact.paper.OUTSIDE`), in order."""
    found = (paper.parse_source(s).outside for s in dict.fromkeys(claims["source"]))
    return list(dict.fromkeys(o for group in found for o in group))


def _part_key(part: str) -> tuple[int, str]:
    digits = re.match(r"\d*", part).group()
    return (int(digits) if digits else 0, part)


def paper_results(claims: pd.DataFrame, link: str | None = None) -> str:
    """The paper results a group of claims tests, each once, in the paper's order, with the parts named
    (``"Table 1, Thm 21, Lemma 22(1), Thm 46(2),(3),(4)"``); ``link``: each label links to its row of the index by
    paper result (``{}`` = its anchor, e.g. ``"../paper_index.md#{}"``; a definition or remark, cited as context,
    is not linked)."""
    refs = _refs(claims)
    order = {r.label: i for i, r in enumerate(paper.RESULTS)}
    out = []
    for label in sorted(dict.fromkeys(refs["label"]), key=order.__getitem__):
        parts = sorted({p for ps in refs.loc[refs["label"] == label, "parts"] for p in ps}, key=_part_key)
        text = label + ",".join(f"({p})" for p in parts)
        result = paper.by_label()[label]
        linked = link and result.kind in paper.INDEXED_KINDS  # definitions and remarks have no row in the index
        out.append(f"[{text}]({link.format(result.anchor)})" if linked else text)
    return ", ".join(out)


def claims_map(claims: pd.DataFrame, outputs: Sequence[str], link: str = "docs/results/{}.md") -> str:
    """Markdown table of where each paper result is checked: one row per output, its paper results (the claims'
    ``source``), its number of claims per verdict and a link to its result page.

    Args:
        claims: ``figures/claims.csv`` (columns ``experiment``, ``source``, ``verdict``).
        outputs: the catalogue's output ids, in catalogue order (an output without claims gets a row of zeros).
        link: the result page of an output, ``{}`` = its id, relative to the document the table goes in.

    Raises:
        ValueError: if ``claims`` names an output not in ``outputs``, or as :func:`verdict_counts`.
    """
    stray = sorted(set(claims["experiment"]) - set(outputs))
    if stray:
        raise ValueError(f"claims' experiments must be outputs of the catalogue, got {stray}")
    header = ["output", "paper results checked", "claims", *VERDICTS]
    rows = []
    for out in outputs:
        mine = claims[claims["experiment"] == out]
        counts = verdict_counts(mine)
        results = paper_results(mine)
        if outside := _outside(mine):
            results += f"{'; ' if results else ''}outside the paper: {'; '.join(outside)}"
        rows.append([f"[`{out}`]({link.format(out)})", results, str(len(mine)), *map(str, counts.values())])
    return "\n".join(markdown_lines(header, rows))


def family(claim_id: str) -> str:
    """The family of a claim id: the id without its cell, the part from the first ``[`` or ``,`` on
    (``co.crossover.lead[...]`` -> ``co.crossover.lead``, ``privacy_exact.direct,global,r=0.1,halt`` ->
    ``privacy_exact.direct``)."""
    return re.split(r"[\[,]", str(claim_id), maxsplit=1)[0]


def non_pass(claims: pd.DataFrame) -> str:
    """Markdown table of the claims that are not PASS, by output, claim family (:func:`family`) and verdict, with
    their number: what a reviewer should expect besides PASS (each row's notes say why, in figures/claims.md).

    Raises:
        ValueError: as :func:`verdict_counts`.
    """
    verdict_counts(claims)  # validates the verdicts
    rest = claims[claims["verdict"] != "PASS"]
    if not len(rest):
        return "Every claim is PASS."
    keyed = rest.assign(family=rest["claim_id"].map(family))
    order = {v: i for i, v in enumerate(VERDICTS)}
    groups = keyed.groupby(["experiment", "family", "verdict"], sort=False).size().reset_index(name="n")
    groups = groups.sort_values("verdict", key=lambda v: v.map(order), kind="stable")
    rows = [[f"`{g.experiment}`", f"`{g.family}`", f"**{g.verdict}**", str(g.n)] for g in groups.itertuples()]
    return "\n".join(markdown_lines(["output", "claim family", "verdict", "claims"], rows))


def _primary(source: str) -> str:
    """The result a claim is about: the first paper result its ``source`` names, with its parts (``"Thm 42(2)"``),
    else its first source outside the paper."""
    parsed = paper.parse_source(source)
    return str(parsed.refs[0]) if parsed.refs else parsed.outside[0]


def non_pass_summary(claims: pd.DataFrame, root: str = ".") -> list[str]:
    """Markdown bullets, one per (verdict, claim family) that is not PASS, in :data:`VERDICTS` order: the number of
    claims, the family and the result it tests (:func:`_primary`), and for an ERRATUM the ``ERRATA.md`` entry its
    note names (``root``: the repository's top directory relative to the document).

    Raises:
        ValueError: as :func:`verdict_counts` and :func:`~privtest_artifact.paper.parse_source`.
    """
    verdict_counts(claims)
    rest = claims[claims["verdict"] != "PASS"]
    out = []
    for verdict in VERDICTS:
        mine = rest[rest["verdict"] == verdict]
        groups = mine.assign(family=mine["claim_id"].map(family)).groupby("family", sort=False)
        for fam, g in groups:
            about = ", ".join(dict.fromkeys(map(_primary, g["source"])))
            entries = dict.fromkeys(m for note in g["note"] for m in re.findall(r'ERRATA\.md entry "([^"]+)"', note))
            errata = "".join(f"; [`ERRATA.md`]({root}/ERRATA.md): {e}" for e in entries)
            out.append(f"- **{verdict}** {len(g)}: `{fam}` ({about}){errata}")
    return out


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min"


#: The keys of a measured run in ``benchmarks/reproduction_time.json``.
RUN_KEYS = ("key", "run", "command", "wall_s", "where")


def runtime_table(measurement: Mapping) -> str:
    """Markdown table of measured run times (``benchmarks/reproduction_time.json``): run | command | wall time | CPU
    time (user + system of Snakemake and its jobs, where recorded) | measured on, then the machine they were measured
    on.

    Args:
        measurement: ``{"machine": str, "runs": [{"key", "run", "command", "wall_s", "where", "cpu_s"?, "notes"?},
            ...]}``
            (``key``: a short name, ``time.<key>`` blocks of :func:`standard_blocks`; ``where``: commit and how it
            was measured).

    Raises:
        ValueError: if a run lacks one of those keys or its ``wall_s`` is not a positive finite number.
    """
    rows = []
    for i, run in enumerate(measurement.get("runs", [])):
        missing = [k for k in RUN_KEYS if k not in run]
        if missing:
            raise ValueError(f"runs[{i}] must have keys {', '.join(RUN_KEYS)}; missing {missing}")
        wall = run["wall_s"]
        if not isinstance(wall, int | float) or isinstance(wall, bool) or not math.isfinite(wall) or wall <= 0:
            raise ValueError(f"runs[{i}].wall_s must be a positive finite number of seconds, got {wall!r}")
        note = f"; {run['notes']}" if run.get("notes") else ""
        cpu = _minutes(run["cpu_s"]) if run.get("cpu_s") else "not recorded"
        rows.append([run["run"], f"`{run['command']}`", _minutes(wall), cpu, f"{run['where']}{note}"])
    lines = markdown_lines(["run", "command", "wall time", "CPU time", "measured"], rows)
    if measurement.get("machine"):
        lines += ["", f"Machine: {measurement['machine']}."]
    return "\n".join(lines)


def runtime_of(measurement: Mapping, key: str) -> str:
    """The wall time of the run with key ``key`` of ``measurement`` in minutes (``"6.5 min"``), for a sentence.

    Raises:
        ValueError: if ``measurement`` has no run with that key.
    """
    for r in measurement.get("runs", []):
        if r.get("key") == key:
            return _minutes(r["wall_s"])
    raise ValueError(f"key must be one of {[r.get('key') for r in measurement.get('runs', [])]}, got {key!r}")


@dataclass(frozen=True)
class OutputInfo:
    """What a result page says about an output besides its results.

    Attributes:
        id: the output id (catalogue key).
        kind: ``"figure"`` or ``"table"``.
        section: the paper section it tests (the catalogue's ``sections`` title).
        caption: its notebook's title cell (Markdown, ``# <id>: ...``).
    """

    id: str
    kind: str
    section: str
    caption: str


def _caption_text(info: OutputInfo) -> str:
    """The caption without its ``# <id>:`` heading prefix."""
    text = re.sub(r"^#\s*", "", info.caption.strip())
    return re.sub(rf"^`?{re.escape(info.id)}`?\s*:\s*", "", text).strip()


def _cell(value) -> str:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.4g}"
    return str(value).replace("\n", " ")


def key_columns(frame: pd.DataFrame, most: int = MAX_KEY_COLUMNS) -> list[str]:
    """The columns that name a row of ``frame``, for repeating in each part of a split table: the shortest prefix
    (at most ``most`` columns) of its non-constant columns that identifies every row; failing that, the shortest
    such prefix of its non-constant non-float columns (labels, integer steps); failing that, its leading
    non-constant non-float columns (at most ``most``; none if the first is a float).

    Raises:
        ValueError: if ``most`` < 0.
    """
    if most < 0:
        raise ValueError(f"most must be >= 0, got {most}")
    varying = [c for c in frame.columns if frame[c].nunique(dropna=False) > 1]
    labels = [c for c in varying if frame[c].dtype.kind not in "fc"]
    for candidates in (varying, labels):
        for n in range(1, min(most, len(candidates)) + 1):
            if not frame.duplicated(subset=candidates[:n]).any():
                return candidates[:n]
    lead = []
    for c in varying[:most]:
        if c not in labels:
            break
        lead.append(c)
    return lead


def analysis_table(analysis: pd.DataFrame, max_rows: int = MAX_ANALYSIS_ROWS) -> str:
    """Markdown of an analysis table (``results/analysis/<id>/<name>.csv``): its first ``max_rows`` rows in
    consecutive tables of at most :data:`privtest_artifact.tables.MAX_MD_COLUMNS` columns each, every part repeating the
    key
    columns (:func:`key_columns`) and taking the next other columns in order, and how many rows are left out. In
    a table of more than one row, the columns empty in every row are named instead of drawn, and so are those holding
    the same value in every row (with the value).

    Raises:
        ValueError: if ``max_rows`` < 1.
    """
    from privtest_artifact.tables import MAX_MD_COLUMNS

    if max_rows < 1:
        raise ValueError(f"max_rows must be >= 1, got {max_rows}")
    many = len(analysis) > 1
    empty = [c for c in analysis.columns if many and analysis[c].isna().all()]
    same = [c for c in analysis.columns if many and c not in empty and analysis[c].nunique(dropna=False) == 1]
    full = analysis.drop(columns=empty + same)
    shown = full.head(max_rows)
    keys = key_columns(full)
    rest = [c for c in shown.columns if c not in keys]
    width = MAX_MD_COLUMNS - len(keys)
    chunks = [rest[i : i + width] for i in range(0, len(rest), width)] or [[]]
    parts = []
    for i, chunk in enumerate(chunks):
        cols = keys + chunk
        rows = [[_cell(v) for v in row] for row in shown[cols].itertuples(index=False)]
        head = [f"*Part {i + 1} of {len(chunks)}*", ""] if len(chunks) > 1 else []
        parts.append("\n".join(head + markdown_lines(cols, rows)))
    left = len(analysis) - len(shown)
    notes = [f"{left} more rows in the .csv"] if left > 0 else []
    if same:
        notes.append("the same in every row: " + ", ".join(f"`{c}` = {_cell(analysis[c].iloc[0])}" for c in same))
    if empty:
        notes.append("empty in every row: " + ", ".join(f"`{c}`" for c in empty))
    if notes:
        parts.append(f"({'; '.join(notes)}.)")
    return "\n\n".join(parts)


def _canonical_rows(frame: pd.DataFrame, columns: Sequence[str]) -> set[tuple[str, ...]]:
    """The rows of ``frame[columns]`` as tuples of text, numbers to 10 significant digits (how
    :func:`privtest_artifact.io.write_csv_atomic` writes them) and missing values as "", so that a table and the same
    rows
    read back from another CSV compare equal."""

    def text(v) -> str:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return ""
        if isinstance(v, bool | str):
            return str(v)
        try:
            return f"{float(v):.10g}"
        except (TypeError, ValueError):
            return str(v)

    return {tuple(text(v) for v in row) for row in frame[list(columns)].itertuples(index=False)}


def repeats_data(frame: pd.DataFrame, data: Sequence[pd.DataFrame]) -> bool:
    """Whether the analysis table ``frame`` is plotted data already written elsewhere: every column of it is a
    column of one of the tables ``data`` (``figures/data/<id>*.csv``, a table's ``figures/<id>.csv``) and every row
    of it is a row of that table (:func:`_canonical_rows`). An empty table repeats nothing."""
    if not len(frame):
        return False
    for d in data:
        cols = list(frame.columns)
        if set(cols) <= set(d.columns) and _canonical_rows(frame, cols) <= _canonical_rows(d, cols):
            return True
    return False


def _markdown_preview(text: str, max_rows: int, source: str) -> str:
    """``text`` (Markdown) with every table in it cut to its first ``max_rows`` body rows, followed by how many rows
    are left out and where they are (``source``); text outside the tables unchanged."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and re.match(r"^\|[\s:|-]+\|\s*$", lines[i + 1]):
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            body = j - i - 2
            out += lines[i : i + 2 + min(body, max_rows)]
            if body > max_rows:
                out += ["", f"({body - max_rows} more rows in {source}.)"]
            i = j
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


def result_page(
    info: OutputInfo,
    claims: pd.DataFrame,
    runtimes: Mapping[str, float],
    table_md: str | None = None,
    analysis: Mapping[str, pd.DataFrame] | None = None,
    root: str = "../..",
    measured_where: str = "",
    data: Sequence[pd.DataFrame] = (),
) -> str:
    """The Markdown page ``docs/results/<id>.md`` of one output.

    Args:
        info: the output (:class:`OutputInfo`).
        claims: its claims (``results/claims/<id>.csv``, columns of :data:`privtest_artifact.claims.COLUMNS`).
        runtimes: wall seconds of its jobs by rule (``{"simulate": 12.3, "analyse": 0.4, "check": 1.0, ...}``) from the
            committed record (:data:`JOB_TIMES`); rules without a measurement are left out, none at all renders
            "not measured yet".
        table_md: a table's ``figures/<id>.md`` (its text is included, each Markdown table in it cut to its first
            :data:`MAX_ANALYSIS_ROWS` rows with a link to the file), None for a figure.
        analysis: its analysis tables by name (``results/analysis/<id>/<name>.csv``,
        :func:`privtest_artifact.io.read_analysis`)
            when the output has an analysis stage, else None; each is shown with its size and its first
            :data:`MAX_ANALYSIS_ROWS` rows (:func:`analysis_table`), except the tables named :data:`SERIES` and
            those that repeat ``data`` (:func:`repeats_data`): their name, size and link only.
        root: the repository's top directory relative to the page (links to ``figures/`` and ``results/``).
        measured_where: where and how ``runtimes`` were measured, in the record's words (its ``where`` column).
        data: the output's written data (a figure's ``figures/data/<id>*.csv``, a table's ``figures/<id>.csv``),
            to recognise the analysis tables that only repeat them.

    Returns:
        The page's text, ending with a newline.

    Raises:
        ValueError: if ``claims`` holds claims of another output, or as :func:`verdict_counts`.
    """
    other = sorted(set(claims.get("experiment", pd.Series(dtype=str))) - {info.id})
    if other:
        raise ValueError(f"claims must be those of {info.id}, got claims of {other}")
    lines = [
        f"# `{info.id}`",
        "",
        "<!-- Generated by the workflow (rule docs, privtest_artifact.docs.result_page) from this output's results:",
        "     edit the notebook's title cell, the claims module or the config, not this file. -->",
        "",
        f"**What it shows.** {_caption_text(info)}",
        "",
        f"**Paper section.** {info.section}.",
    ]
    results = paper_results(claims, link=f"{root}/{PAPER_INDEX}#{{}}") if len(claims) else ""
    if results:
        lines += ["", f"**Paper results tested.** {results}."]
    if len(claims) and (outside := _outside(claims)):
        lines += ["", f"**Also checked, outside the paper.** {'; '.join(outside)}."]
    if info.kind == "figure":
        # The figure a run writes (figures/*.png is not committed: an image carries no number the plotted data do
        # not), shown once a run has made it.
        lines += ["", f"![{info.id}]({root}/figures/{info.id}.png)", ""]
        lines += [
            f"The figure appears above once a run has written it: [`figures/{info.id}.png`]"
            f"({root}/figures/{info.id}.png), [`figures/{info.id}.pdf`]({root}/figures/{info.id}.pdf), plotted data "
            f"[`figures/data/{info.id}.csv`]({root}/figures/data/{info.id}.csv) (committed)."
        ]
    else:
        lines += ["", f"Files: `figures/{info.id}.tex`, `.md`, `.csv`."]
    lines += ["", "## Claims", ""]
    meaning = f"What the verdicts mean and how each is decided: [`docs/claims.md`]({root}/{VERDICTS_DOC})."
    if len(claims):
        lines += [counts_sentence(claims) + f" (`results/claims/{info.id}.csv`). {meaning}", ""]
        if not_pass := non_pass_summary(claims, root):
            lines += ["Not PASS, by claim family and the paper result it tests:", "", *not_pass, ""]
        rows = [
            [f"`{r.claim_id}`", r.source, r.measured, r.bound, f"**{r.verdict}**", r.note] for r in claims.itertuples()
        ]
        lines += markdown_lines(["claim", "source", "measured", "bound", "verdict", "note"], rows)
    else:
        lines.append("This output checks no claim.")
    if table_md is not None:
        body = re.sub(r"^# .*\n+", "", table_md.strip() + "\n")  # the page has its own title
        md = f"[`figures/{info.id}.md`]({root}/figures/{info.id}.md)"
        body = _markdown_preview(body.rstrip(), MAX_ANALYSIS_ROWS, md)
        lines += ["", "## Table", "", body]
    if analysis:
        lines += ["", "## Analysis", ""]
        lines.append(
            f"Computed once from the raw results by `privtest_artifact.outputs.{info.id}` (rule analyse); the check "
            "and the notebook read these tables."
        )
        for name, frame in analysis.items():
            path = f"results/analysis/{info.id}/{name}.csv"
            size = f"{len(frame)} rows, {len(frame.columns)} columns"
            link = f"[`{path}`]({root}/{path}) ({size})"
            if name == SERIES or repeats_data(frame, data):
                written = f"figures/data/{info.id}.csv" if info.kind == "figure" else f"figures/{info.id}.csv"
                lines += ["", f"### `{name}`", "", f"{link}: the output's data, its rows are in `{written}`."]
            else:
                lines += ["", f"### `{name}`", "", f"{link}:", "", analysis_table(frame)]
    lines += ["", "## Run time", ""]
    measured = {rule: s for rule, s in runtimes.items() if s is not None and math.isfinite(s)}
    if measured:
        where = f"measured: {measured_where.rstrip('.')}; " if measured_where else ""
        lines += [
            f"Wall time of this output's jobs from the committed record `{JOB_TIMES}` ({where}not the run that "
            "wrote this page):",
            "",
            *markdown_lines(["job", "seconds"], [[rule, f"{s:.1f}"] for rule, s in measured.items()]),
        ]
    else:
        lines.append(NOT_MEASURED)
    return "\n".join(lines) + "\n"


def index_page(outputs: Sequence[OutputInfo], claims: pd.DataFrame, job_times: pd.DataFrame | None = None) -> str:
    """``docs/results/README.md``: the claim counts (:func:`claim_counts`), one line per output, grouped by
    paper section, with links to the result pages, and where the pages' run times were measured (the distinct
    ``where`` of ``job_times``, :func:`read_job_times`; "not measured yet" when it has no rows).

    Raises:
        ValueError: as :func:`verdict_counts`.
    """
    lines = [
        "# Results of the run",
        "",
        "<!-- Generated by the workflow (rule docs, privtest_artifact.docs.index_page) from figures/claims.csv. -->",
        "",
        f"{claim_counts(claims)} What each verdict means: [docs/claims.md](../../{VERDICTS_DOC}); the claims by "
        f"paper result: [docs/paper_index.md](../../{PAPER_INDEX}).",
    ]
    for section in dict.fromkeys(o.section for o in outputs):
        lines += ["", f"## {section}", ""]
        for o in (o for o in outputs if o.section == section):
            counts = verdict_counts(claims[claims["experiment"] == o.id])
            summary = ", ".join(f"{k} {v}" for v, k in counts.items() if k)
            first = _FIRST_SENTENCE.split(_caption_text(o), maxsplit=1)[0].rstrip(".")
            lines.append(f"- [`{o.id}`]({o.id}.md): {first}" + (f" ({summary})" if summary else ""))
    lines += ["", "## Run times", ""]
    wheres = list(dict.fromkeys(job_times["where"])) if job_times is not None and len(job_times) else []
    if wheres:
        lines.append(
            f"The run times on the result pages come from the committed record `{JOB_TIMES}` (written by "
            f"`{RECORD_COMMAND}`, not by the run that wrote these pages), measured: " + "; ".join(wheres) + "."
        )
    else:
        lines.append(NOT_MEASURED)
    return "\n".join(lines) + "\n"


#: Most claim families a row of the index by paper result names (the rest are counted; each output's page lists
#: every claim).
MAX_FAMILIES = 6


def _verdict_text(claims: pd.DataFrame) -> str:
    """``"78 VACUOUS"``, ``"49 PASS, 5 VACUOUS"``: the non-zero counts of :func:`verdict_counts`."""
    return ", ".join(f"{k} {v}" for v, k in verdict_counts(claims).items() if k)


def paper_index(claims: pd.DataFrame, outputs: Sequence[str]) -> str:
    """``docs/paper_index.md``: every theorem, lemma, corollary, proposition, table and algorithm of the paper
    (:data:`privtest_artifact.paper.INDEXED_KINDS`), one row each in the paper's order, with the claims that name it
    in their ``source`` (their number per verdict, per part of the result, their claim families and the outputs
    that check them); then the results no claim names, with the reason (:data:`privtest_artifact.paper.UNTESTED`),
    and the claims about sources outside the paper.

    Args:
        claims: ``figures/claims.csv``.
        outputs: the catalogue's output ids, in catalogue order (the order of the outputs in a row).

    Raises:
        ValueError: as :func:`verdict_counts` and :func:`~privtest_artifact.paper.parse_source`.
    """
    verdict_counts(claims)
    refs = _refs(claims)
    by_id = claims.drop_duplicates("claim_id").set_index("claim_id")
    order = {o: i for i, o in enumerate(outputs)}

    def outputs_of(frame: pd.DataFrame) -> str:
        mine = sorted(dict.fromkeys(frame["experiment"]), key=lambda o: order.get(o, len(order)))
        return ", ".join(f"[`{o}`](results/{o}.md)" for o in mine)

    def families(frame: pd.DataFrame) -> str:
        counts = frame["claim_id"].map(family).value_counts(sort=False)
        shown = [f"`{f}` {n}" for f, n in counts.items()]
        more = f", {len(shown) - MAX_FAMILIES} more" if len(shown) > MAX_FAMILIES else ""
        return ", ".join(shown[:MAX_FAMILIES]) + more

    tested, untested = [], []
    for result in (r for r in paper.RESULTS if r.kind in paper.INDEXED_KINDS):
        mine = refs[refs["label"] == result.label]
        named = result.label.replace(" ", "&nbsp;")
        if not len(mine):
            why = paper.UNTESTED.get(result.label, "no reason recorded (privtest_artifact.paper.UNTESTED)")
            untested.append([f'<a id="{result.anchor}"></a>{named}', result.title, result.section, why])
            continue
        rows = by_id.loc[list(dict.fromkeys(mine["claim_id"]))].reset_index()
        parts = sorted({p for ps in mine["parts"] for p in ps}, key=_part_key)
        naming = {p: dict.fromkeys(mine.loc[[p in ps for ps in mine["parts"]], "claim_id"]) for p in parts}
        by_part = "; ".join(f"({p}) {_verdict_text(by_id.loc[list(ids)])}" for p, ids in naming.items())
        counts = verdict_counts(rows)
        tested.append(
            [f'<a id="{result.anchor}"></a>{named}', result.title, result.section, str(len(rows)),
             *(str(counts[v]) for v in VERDICTS), by_part, families(rows), outputs_of(rows)]
        )  # fmt: skip
    parsed = {s: paper.parse_source(s) for s in dict.fromkeys(claims["source"])}
    outside = []
    for what in _outside(claims):
        rows = claims[[what in parsed[s].outside for s in claims["source"]]]
        outside.append([what, str(len(rows)), _verdict_text(rows), families(rows), outputs_of(rows)])
    lines = [
        "# The paper, result by result",
        "",
        "<!-- Generated by the workflow (rule docs, privtest_artifact.docs.paper_index) from figures/claims.csv and "
        "privtest_artifact.paper. -->",
        "",
        "Every theorem, lemma, corollary, proposition, table and algorithm of the paper, in the paper's order, with "
        "the claims of `figures/claims.csv` whose `source` names it. A claim counts for every result its source "
        "names (a claim of Thm 21 checked through Lemma 20 counts for both), so the rows add up to more than the "
        f"{len(claims)} claims. What the verdicts mean: [docs/claims.md]({Path(VERDICTS_DOC).name}); each output's "
        "page lists its claims with their measured values.",
        "",
        f"## Tested ({len(tested)} results)",
        "",
        *markdown_lines(
            ["result", "title", "section", "claims", *VERDICTS, "by part", "claim families", "outputs"], tested
        ),
        "",
        f"## Not named by any claim ({len(untested)} results)",
        "",
        "Why the artifact does not test them directly (`privtest_artifact.paper.UNTESTED`).",
        "",
        *markdown_lines(["result", "title", "section", "why"], untested),
        "",
        f"## Claims about sources outside the paper ({len(outside)})",
        "",
        *markdown_lines(["source", "claims", "verdicts", "claim families", "outputs"], outside),
    ]
    return "\n".join(lines) + "\n"


def _vacuous_value(note: str) -> float:
    """The bound's value a VACUOUS claim's note states (:data:`privtest_artifact.claims.NOTE_PATTERNS`)."""
    m = re.search(r"its value here is ([-+]?(?:[\d.]+(?:e[-+]?\d+)?|inf|nan))", note)
    if not m:
        raise ValueError(f"a VACUOUS note must state its value ({NOTE_PATTERNS['VACUOUS'].pattern}), got {note!r}")
    return float(m.group(1))


#: A Table 2 row's algorithm label that says the batch algorithm is not the cited one (row 1's "stand-in objective"
#: is the data, not the algorithm).
_STAND_IN = re.compile(r"\(stand-in\)|\ba stand-in\b")


def _table2_rows() -> tuple[list[int], list[int], list[int]]:
    """Table 2's rows (:data:`privtest_artifact.outputs.table2.ROWS`): those evaluated, not run; those whose batch
    algorithm is a stand-in for the cited one (its label says "(stand-in)" or "a stand-in"); the other rows run."""
    from privtest_artifact.outputs.table2 import ROWS

    evaluated = [r.row for r in ROWS.values() if r.status == "evaluated"]
    stand_in = [r.row for r in ROWS.values() if r.row not in evaluated and _STAND_IN.search(r.algorithm)]
    cited = [r.row for r in ROWS.values() if r.row not in evaluated + stand_in]
    return evaluated, stand_in, cited


def _rows(rows: Sequence[int]) -> str:
    return ("row " if len(rows) == 1 else "rows ") + ", ".join(map(str, rows))


def established(claims: pd.DataFrame) -> str:
    """The ``established`` block of README.md, its first screen: the verdict counts, then what is not established in
    a binding way, by the result each claim is about (:func:`_primary`): the results whose claims are all VACUOUS
    (with the median and the largest value of the bound their notes state), the other VACUOUS, INCONCLUSIVE,
    ERRATUM and FAIL claims, Table 2's stand-ins and evaluated row (:func:`_table2_rows`), and how many results no
    claim names. Links are relative to the top directory.

    Raises:
        ValueError: as :func:`verdict_counts`, :func:`_vacuous_value`.
    """
    counts = verdict_counts(claims)
    about = claims.assign(about=claims["source"].map(_primary))
    named = set(_refs(claims)["label"])
    indexed = [r for r in paper.RESULTS if r.kind in paper.INDEXED_KINDS]
    lines = [
        f"{counts_sentence(claims)}; they test {len(named & {r.label for r in indexed})} results of the paper "
        f"([index by paper result]({PAPER_INDEX}); what each verdict means: [docs/claims.md]({VERDICTS_DOC})).",
        "",
    ]

    def grouped(verdict: str) -> list[tuple[str, pd.DataFrame]]:
        mine = about[about["verdict"] == verdict]
        return sorted(mine.groupby("about", sort=False), key=lambda ag: -len(ag[1]))

    def listed(groups: list[tuple[str, pd.DataFrame]]) -> str:
        def families(g: pd.DataFrame) -> str:
            return ", ".join(f"`{f}`" for f in dict.fromkeys(g["claim_id"].map(family)))

        return "; ".join(f"{len(g)} of {a} ({families(g)})" for a, g in groups)

    vacuous = grouped("VACUOUS")
    whole = {a for a, g in vacuous if (about["about"] == a).sum() == len(g)}
    for a, g in vacuous:
        if a in whole:
            values = g["note"].map(_vacuous_value)
            result = paper.by_label().get(re.sub(r"\(.*", "", a))
            title = f" ({result.title})" if result else ""
            lines.append(
                f"- **Not tested in a binding way: {a}{title}.** All {len(g)} of its claims (every case tested, in "
                f"{g['experiment'].nunique()} outputs) are VACUOUS; the value of its bound, from their notes, lies "
                f"between {values.min():.1e} and {values.max():.1e} (median {values.median():.1e})."
            )
    if rest := [(a, g) for a, g in vacuous if a not in whole]:
        lines.append(f"- **Also VACUOUS:** {listed(rest)}.")
    evaluated, stand_in, cited = _table2_rows()
    table2 = [f"{_rows(stand_in)} run stand-in batch algorithms, not the cited ones"] if stand_in else []
    table2 += [f"{_rows(cited)} {'runs' if len(cited) == 1 else 'run'} the cited one"] if cited else []
    table2 += [f"{_rows(evaluated)} is evaluated from its bound, not run"] if evaluated else []
    lines.append(f"- **Table 2:** {'; '.join(table2)} ([docs/table2.md](docs/table2.md)).")
    for verdict, what in (("FAIL", "Contradicted"), ("INCONCLUSIVE", "Not decided"), ("ERRATUM", "Errata")):
        if groups := grouped(verdict):
            errata = " ([ERRATA.md](ERRATA.md))" if verdict == "ERRATUM" else ""
            lines.append(f"- **{what} ({counts[verdict]} {verdict}):** {listed(groups)}{errata}.")
    silent = [r for r in indexed if r.label not in named]
    lines.append(
        f"- **Not named by any claim:** {len(silent)} results, each with the reason in the [index]({PAPER_INDEX})."
    )
    return "\n".join(lines)


#: The rules whose ``benchmark:`` files time an output's jobs (``results/benchmarks/<rule>/<id>.tsv``), in order.
TIMED_RULES = ("simulate", "analyse", "check", "figure", "table")

#: The committed per-job measurement record (repository-relative): columns :data:`JOB_TIME_COLUMNS`.
JOB_TIMES = "benchmarks/job_times.csv"
#: Its columns: output id, job (a rule of :data:`TIMED_RULES`), wall seconds (one decimal), where it was measured.
JOB_TIME_COLUMNS = ("output", "job", "seconds", "where")
#: The only command that writes :data:`JOB_TIMES` (a normal run reads it, never rewrites it).
RECORD_COMMAND = "python benchmarks/reproduction_time.py --record"
#: What a page says while the record has no time for its output (no number is ever typed in its place).
NOT_MEASURED = f"Run time not measured yet: `{RECORD_COMMAND}` measures the default configuration and records it."


def read_job_times(path: str | os.PathLike) -> pd.DataFrame:
    """The committed per-job record (:data:`JOB_TIMES`): columns :data:`JOB_TIME_COLUMNS`, ``seconds`` float.

    Raises:
        ValueError: if the file's columns are not :data:`JOB_TIME_COLUMNS`, or a ``seconds`` is not a finite number
            >= 0.
    """
    table = pd.read_csv(path, dtype={"output": str, "job": str, "where": str}, keep_default_na=False)
    if tuple(table.columns) != JOB_TIME_COLUMNS:
        raise ValueError(f"{path} must have columns {JOB_TIME_COLUMNS}, got {tuple(table.columns)}")
    seconds = pd.to_numeric(table["seconds"], errors="coerce").astype(float)
    if not (seconds.map(math.isfinite) & (seconds >= 0)).all():
        raise ValueError(f"{path}: seconds must be finite numbers >= 0")
    return table.assign(seconds=seconds)


def job_times_csv(runtimes: pd.DataFrame, where: str) -> str:
    """The text of the record :data:`JOB_TIMES` for :func:`read_runtimes`'s table measured ``where`` (rows in its
    order, seconds with one decimal), for ``reproduction_time.py --record``.

    Raises:
        ValueError: if ``where`` is empty.
    """
    if not where.strip():
        raise ValueError("where must say where and how the times were measured, got an empty string")
    table = runtimes.assign(seconds=runtimes["seconds"].map(lambda s: f"{float(s):.1f}"), where=where.strip())
    return table[list(JOB_TIME_COLUMNS)].to_csv(index=False, lineterminator="\n")


def read_runtimes(benchmarks: str | os.PathLike, outputs: Sequence[str]) -> pd.DataFrame:
    """Wall seconds of each output's jobs from Snakemake's ``benchmark:`` files.

    Args:
        benchmarks: the benchmark directory (``results/benchmarks``); ``<rule>/<id>.tsv`` under it.
        outputs: output ids, in catalogue order.

    Returns:
        Columns ``output``, ``job`` (a rule of :data:`TIMED_RULES`), ``seconds`` (the file's last row, rounded to
        0.1 s); outputs in order, jobs in :data:`TIMED_RULES` order, untimed jobs left out.
    """
    rows = []
    for out in outputs:
        for rule in TIMED_RULES:
            tsv = Path(benchmarks, rule, f"{out}.tsv")
            if tsv.exists():
                s = float(pd.read_csv(tsv, sep="\t")["s"].iloc[-1])
                rows.append({"output": out, "job": rule, "seconds": round(s, 1)})
    return pd.DataFrame(rows, columns=["output", "job", "seconds"])


def read_output_data(repo: str | os.PathLike, info: OutputInfo) -> list[pd.DataFrame]:
    """The data an output writes, as tables: a figure's plotted data ``figures/data/<id>.csv`` and its extra data
    tables ``figures/data/<id>_<name>.csv``, a table's ``figures/<id>.csv``; the files missing in ``repo`` are left
    out."""
    repo = Path(repo)
    if info.kind == "figure":
        paths = [repo / f"figures/data/{info.id}.csv", *sorted((repo / "figures/data").glob(f"{info.id}_*.csv"))]
    else:
        paths = [repo / f"figures/{info.id}.csv"]
    return [pd.read_csv(p) for p in paths if p.exists()]


def render_all(
    outputs: Sequence[OutputInfo],
    claims: pd.DataFrame,
    runtimes: pd.DataFrame,
    tables: Mapping[str, str] | None = None,
    analyses: Mapping[str, Mapping[str, pd.DataFrame]] | None = None,
    data: Mapping[str, Sequence[pd.DataFrame]] | None = None,
) -> dict[str, str]:
    """Every result page, their index and the index by paper result, by path relative to the repository
    (``docs/results/<id>.md``, ``docs/results/README.md``, :data:`PAPER_INDEX`).

    Args:
        outputs: the catalogue's outputs, in order.
        claims: ``figures/claims.csv``.
        runtimes: the committed record (:func:`read_job_times`; a table without ``where`` is accepted too).
        tables: a table output's ``figures/<id>.md`` by id (outputs missing here get no table section).
        analyses: an output's analysis tables (name -> DataFrame, ``results/analysis/<id>/``) by id, for the outputs
            with an analysis stage.
        data: an output's written data (:func:`read_output_data`) by id.

    Raises:
        ValueError: as :func:`result_page`, :func:`index_page`.
    """
    tables, analyses, data = tables or {}, analyses or {}, data or {}
    pages = {}
    for o in outputs:
        mine = runtimes[runtimes["output"] == o.id]
        where = "; ".join(dict.fromkeys(mine["where"])) if "where" in mine else ""
        page = result_page(
            o,
            claims[claims["experiment"] == o.id],
            dict(zip(mine["job"], mine["seconds"].astype(float), strict=True)),
            table_md=tables.get(o.id),
            analysis=analyses.get(o.id),
            measured_where=where,
            data=data.get(o.id, ()),
        )
        pages[f"docs/results/{o.id}.md"] = page
    pages["docs/results/README.md"] = index_page(outputs, claims, runtimes if "where" in runtimes else None)
    pages[PAPER_INDEX] = paper_index(claims, [o.id for o in outputs])
    return pages


def render_repository(
    repo: str | os.PathLike,
    outputs: Sequence[OutputInfo],
    documents: Sequence[str],
    analyses: Sequence[str] = (),
) -> dict[str, str]:
    """Every file rule docs writes, by path relative to the docs root, rendered from the tracked inputs of the
    repository ``repo`` only: ``figures/claims.csv``, the record :data:`JOB_TIMES`,
    ``benchmarks/reproduction_time.json``, the tables' ``figures/<id>.md``, the analysis directories ``analyses``
    (``results/analysis/<id>``, relative to ``repo``; the directory's name is the output id), the outputs' data
    (:func:`read_output_data`: which analysis tables only repeat them) and the hand-written ``documents``. Nothing of
    the rendering run itself (``results/benchmarks/``, the clock, ``repo``'s absolute path) enters, so the same
    inputs give the same bytes.

    Returns:
        ``docs/results/<id>.md``, ``docs/results/README.md``, :data:`PAPER_INDEX`, the snapshot
        ``docs/results/claims.csv`` (the claims
        the pages were rendered from, for tests/test_docs.py) and each document with its blocks rendered.

    Raises:
        ValueError: as :func:`read_job_times`, :func:`render_all`, :func:`render_blocks`.
        FileNotFoundError: if one of those inputs is missing.
    """
    repo = Path(repo)
    ids = [o.id for o in outputs]
    claims = pd.read_csv(repo / "figures/claims.csv", dtype=str, keep_default_na=False)
    job_times = read_job_times(repo / JOB_TIMES)
    tables = {o.id: (repo / f"figures/{o.id}.md").read_text() for o in outputs if o.kind == "table"}

    from privtest_artifact.io import read_analysis

    tables_of = {Path(p).name: read_analysis(repo / p) for p in sorted(analyses)}
    data = {o.id: read_output_data(repo, o) for o in outputs}
    files = render_all(outputs, claims, job_times, tables, tables_of, data)
    files["docs/results/claims.csv"] = claims.to_csv(index=False, lineterminator="\n")
    measurement = json.loads((repo / "benchmarks/reproduction_time.json").read_text())
    bodies = standard_blocks(claims, measurement, ids)
    for document in documents:
        files[document] = render_blocks((repo / document).read_text(), bodies)
    return files


#: The body of a claims block before any run has rendered it (no number is ever typed in its place).
PENDING = "(Rendered by `make reproduce` from the run's `figures/claims.csv`; no run has rendered it here yet.)"


def claims_blocks(claims: pd.DataFrame | None, outputs: Sequence[str]) -> dict[str, str]:
    """The bodies of the generated blocks that come from the claims, by name:

    - ``claims``: :func:`claim_counts` of the run;
    - ``claims-map``: :func:`claims_map` (links relative to the top directory);
    - ``claims-map-docs``: the same, linked from ``docs/`` (``results/<id>.md``);
    - ``non-pass``: :func:`non_pass`; ``claims.total``, ``claims.<VERDICT>``: the counts, for a sentence;
    - ``established``: :func:`established`, the first screen of README.md.

    With ``claims`` None (no run yet) every block says so (:data:`PENDING`; ``?`` for the inline counts).

    Raises:
        ValueError: as the renderers.
    """
    names = ["claims", "claims-map", "claims-map-docs", "non-pass", "established"]
    if claims is None:
        return dict.fromkeys(names, PENDING) | dict.fromkeys(["claims.total", *(f"claims.{v}" for v in VERDICTS)], "?")
    bodies = {
        "claims": claim_counts(claims),
        "claims-map": claims_map(claims, outputs),
        "claims-map-docs": claims_map(claims, outputs, link="results/{}.md"),
        "non-pass": non_pass(claims),
        "established": established(claims),
        "claims.total": str(len(claims)),
    }
    return bodies | {f"claims.{v}": str(k) for v, k in verdict_counts(claims).items()}


def measurement_blocks(measurement: Mapping) -> dict[str, str]:
    """The bodies of the generated blocks that come from ``benchmarks/reproduction_time.json``, by name:
    ``runtimes`` (:func:`runtime_table`), ``long.summary`` and ``scale.summary`` (:func:`long_summary`) and
    ``time.<key>`` (the wall
    time of one run, for a sentence).

    Raises:
        ValueError: as :func:`runtime_table`.
    """
    bodies = {
        "runtimes": runtime_table(measurement),
        "long.summary": long_summary(measurement),
        "scale.summary": long_summary(measurement, "scale"),
    }
    for run in measurement.get("runs", []):
        bodies[f"time.{run['key']}"] = runtime_of(measurement, run["key"])
    return bodies


#: The body of the ``<key>.summary`` block while ``benchmarks/reproduction_time.json`` has no run of
#: config/<key>.yaml.
LONG_PENDING = (
    "(Not measured yet: `python benchmarks/reproduction_time.py --long BUILT_DIR --configfile config/{key}.yaml "
    "--record` runs config/{key}.yaml on top of a built default run and records it.)"
)
#: The fields of a long run's ``long`` record (benchmarks/reproduction_time.py --long).
LONG_KEYS = ("commit", "cores", "cpu_s", "jobs", "machine", "verdicts_default", "verdicts_long", "inconclusive_after")


def long_summary(measurement: Mapping, key: str = "long") -> str:
    """The ``<key>.summary`` block: what the measured run of config/<key>.yaml (``long``, ``scale``) on top of the
    default run took and changed (from the run with that key of ``benchmarks/reproduction_time.json``, field
    ``long``), or :data:`LONG_PENDING` if there is none.

    Raises:
        ValueError: if the record lacks one of :data:`LONG_KEYS` (named) or a verdict count is not an integer.
    """
    run = next((r for r in measurement.get("runs", []) if r.get("key") == key), None)
    if run is None:
        return LONG_PENDING.format(key=key)
    rec = run.get("long", {})
    missing = [k for k in LONG_KEYS if k not in rec]
    if missing:
        raise ValueError(f"runs[key={key}].long must have keys {', '.join(LONG_KEYS)}; missing {missing}")
    for field in ("verdicts_default", "verdicts_long"):
        bad = {v: n for v, n in rec[field].items() if not isinstance(n, int) or isinstance(n, bool)}
        if bad:
            raise ValueError(f"runs[key={key}].long.{field} must map verdicts to integers, got {bad}")
    jobs = ", ".join(f"{n} {rule}" for rule, n in rec["jobs"].items() if rule != "all")
    notes = f" ({run['notes']})" if run.get("notes") else ""
    longest = ", ".join(f"{j['rule']} {j['id']} {j['s']:.0f} s" for j in rec.get("longest_jobs", []))
    rows = [[f"**{v}**", str(rec["verdicts_default"].get(v, 0)), str(rec["verdicts_long"].get(v, 0))] for v in VERDICTS]
    after = rec["inconclusive_after"]
    lines = [
        f"Measured at commit `{rec['commit']}` on {'an' if rec['machine'][:1] in 'aeiou' else 'a'} {rec['machine']} "
        f"with `--cores {rec['cores']}`: "
        f"{_minutes(run['wall_s'])} wall time{notes}, {rec['cpu_s']:.0f} CPU seconds in the jobs "
        f"that reran ({jobs}).",
        *([f"Longest jobs (wall time): {longest}."] if longest else []),
        "",
        *markdown_lines(["verdict", "default run (same commit)", f"with config/{key}.yaml"], rows),
        "",
        f"Of the default run's {sum(after.values())} INCONCLUSIVE claims, {after.get('pass', 0)} are PASS with "
        f"config/{key}.yaml, {after.get('inconclusive', 0)} stay INCONCLUSIVE (their notes give the runs that would "
        f"resolve them) and {after.get('other', 0) + after.get('missing', 0)} have another verdict or are missing.",
    ]
    return "\n".join(lines)


def standard_blocks(claims: pd.DataFrame | None, measurement: Mapping, outputs: Sequence[str]) -> dict[str, str]:
    """Every generated block of README.md, ARTIFACT-APPENDIX.md and docs/*.md, by name (:func:`claims_blocks` and
    :func:`measurement_blocks`).

    Raises:
        ValueError: as the renderers.
    """
    return (
        claims_blocks(claims, outputs)
        | measurement_blocks(measurement)
        | {"choose_calibration": calibration_choice_table()}
    )


#: The example of docs/library.md (block ``choose_calibration``): eps, beta, p*, T and the eps_t values.
CHOICE_EXAMPLE = (1.0, 0.05, 0.5, 50, (0.05, 0.1))


def _choice_params(p: dict) -> str:
    out = [f"theta = {p['theta']:g}", f"gamma = {p['gamma']:g}"]
    if p.get("budget_scale", 1.0) != 1.0:
        out.append(f"kappa = {p['budget_scale']:.3g}")
    return ", ".join(out)


def calibration_choice_table() -> str:
    """The block ``choose_calibration`` of docs/library.md: :func:`privtest.calibration.choose_calibration` at
    :data:`CHOICE_EXAMPLE` (exact, deterministic), the candidates that meet the guarantee (the choice in bold)."""
    from privtest.calibration import choose_calibration

    EPS, BETA, PSTAR, T, EPS_T = CHOICE_EXAMPLE
    lines = [
        f"| eps_t | calibration | parameters | expected evaluations, t <= {T} | min pbar_t | guarantee |",
        "| ---: | --- | --- | ---: | ---: | --- |",
    ]
    missed = []
    for eps_t in EPS_T:
        choice = choose_calibration(EPS, eps_t, BETA, PSTAR, T)
        for i, r in enumerate(choice.candidates):
            if not r.meets:
                continue
            name = f"**{r.name}**" if i == choice.chosen else r.name
            lines.append(
                f"| {eps_t:g} | {name} | {_choice_params(r.parameters)} | {r.expected_evaluations:,.0f} | {r.pbar:.4g} "
                f"| {r.guarantee} |"
            )
        missed.append(f"{sum(not r.meets for r in choice.candidates)} at eps_t = {eps_t:g}")
    lines += [
        "",
        f"eps = {EPS:g}, beta = {BETA:g}, p* = {PSTAR:g}, T = {T}; every candidate is eps-DP; bold: the choice. "
        f"Candidates that miss the guarantee (not shown): {', '.join(missed)}.",
    ]
    return "\n".join(lines)
