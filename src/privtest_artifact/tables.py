"""Table writers shared by every table of the artifact (Markdown and booktabs LaTeX), and the rendering of Table 1
(``figures/table1.tex``/``.md``) from :data:`privtest.bounds.TABLE1`. Tables 2 and 3 are rendered by
:mod:`privtest.co.tables` with the same writers."""

from __future__ import annotations

import re

import pandas as pd

from privtest import bounds
from privtest.co.tables import CAPTION, TableRow


def markdown_lines(header: list[str], rows: list[list[str]]) -> list[str]:
    """A GitHub Markdown table: the header line (an empty header cell is written ``| |``), the rule, one line per
    row; ``|`` inside a body cell is escaped."""
    lines = ["|" + "".join(f" {h} |" if h else " |" for h in header), "|---" * len(header) + "|"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return lines


#: Most columns a Markdown table meant for reading may have (figures/*.md); wider tables are pivoted or split, and the
#: full table stays in the .csv.
MAX_MD_COLUMNS = 12

#: A column named ``<name>[<key>]`` (one quantity per method, per step t, ...): :func:`pivot_bracketed` reads it.
_BRACKETED = re.compile(r"^(?P<name>[^\[\]]+)\[(?P<key>[^\[\]]+)\]$")


def pivot_bracketed(df: pd.DataFrame, keys: list[str], key_name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Split ``df`` into its plain columns and the long form of its bracketed ones.

    A column ``ratio_T[GTM]`` holds quantity ``ratio_T`` for key ``GTM``; the long table has one row per row of
    ``df`` and key (``keys`` columns, then ``key_name``, then one column per quantity, keys in order of first
    appearance, rows where every quantity is missing dropped).

    Args:
        df: the wide table (e.g. table2.csv).
        keys: the columns identifying a row of ``df``, repeated in the long table.
        key_name: name of the long table's key column (e.g. "method", "t").

    Returns:
        ``(plain, long)``: ``df`` without its bracketed columns, and their long form (no rows if there are none).

    Raises:
        ValueError: if a column of ``keys`` is not in ``df`` or ``key_name`` is already a column.
    """
    missing = [k for k in keys if k not in df.columns]
    if missing:
        raise ValueError(f"keys must be columns of df, missing: {missing}")
    if key_name in df.columns:
        raise ValueError(f"key_name must not be a column of df, got {key_name!r}")
    bracketed = {c: _BRACKETED.match(c) for c in df.columns if c not in keys}
    bracketed = {c: m for c, m in bracketed.items() if m}
    plain = df.drop(columns=list(bracketed))
    if not bracketed:
        return plain, pd.DataFrame(columns=[*keys, key_name])
    names = list(dict.fromkeys(m["name"] for m in bracketed.values()))
    labels = list(dict.fromkeys(m["key"] for m in bracketed.values()))
    rows = []
    for i in range(len(df)):  # by position, column by column: each column keeps its dtype
        for lab in labels:
            vals = {n: df[f"{n}[{lab}]"].iloc[i] if f"{n}[{lab}]" in df else None for n in names}
            if all(pd.isna(v) for v in vals.values()):
                continue
            rows.append({**{k: df[k].iloc[i] for k in keys}, key_name: lab, **vals})
    return plain, pd.DataFrame(rows, columns=[*keys, key_name, *names])


def markdown_tables(df: pd.DataFrame, keys: list[str], max_columns: int = MAX_MD_COLUMNS, floatfmt: str = ".4g") -> str:
    """``df`` as Markdown tables of at most ``max_columns`` columns: one table if it fits, otherwise consecutive
    parts ("Part i of n, continued: ..."), each repeating the ``keys`` columns and taking the next other columns in
    order. Missing values are written as empty cells.

    Raises:
        ValueError: if ``max_columns`` <= len(keys) or a column of ``keys`` is not in ``df``.
    """
    missing = [k for k in keys if k not in df.columns]
    if missing:
        raise ValueError(f"keys must be columns of df, missing: {missing}")
    if max_columns <= len(keys):
        raise ValueError(f"max_columns must be > len(keys) = {len(keys)}, got {max_columns}")
    rest = [c for c in df.columns if c not in keys]
    width = max_columns - len(keys)
    chunks = [rest[i : i + width] for i in range(0, len(rest), width)] or [[]]
    parts = []
    for i, chunk in enumerate(chunks):
        part = df[keys + chunk]
        part = part.astype(object).where(part.notna(), None)  # NaN as an empty cell (tabulate's missingval)
        text = part.to_markdown(index=False, floatfmt=floatfmt, missingval="")
        if len(chunks) > 1:
            text = f"*Part {i + 1} of {len(chunks)}: {', '.join(f'`{c}`' for c in chunk)}*\n\n" + text
        parts.append(text)
    return "\n\n".join(parts) + "\n"


def markdown_column_counts(text: str) -> list[int]:
    """The number of columns of every Markdown table in ``text`` (from each table's header line: the line before a
    ``|---|`` rule), in order."""
    lines = text.splitlines()
    counts = []
    for prev, line in zip(lines, lines[1:], strict=False):
        if re.fullmatch(r"\s*\|?(\s*:?-+:?\s*\|)+\s*(:?-+:?\s*)?", line) and "|" in prev:
            cells = re.split(r"(?<!\\)\|", prev.strip().strip("|"))
            counts.append(len(cells))
    return counts


def latex_tabular(spec: str, header: list[str], rows: list[list[str]]) -> list[str]:
    """A booktabs ``tabular`` with column specification ``spec``: top rule, header, mid rule, rows, bottom rule."""
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", " & ".join(header) + " \\\\", "\\midrule"]
    lines += [" & ".join(row) + " \\\\" for row in rows]
    return lines + ["\\bottomrule", "\\end{tabular}"]


# --------------------------------------------------------------------------------------------------------------------
# Table 1 (from privtest.bounds.TABLE1)


#: The columns of the paper's Table 1, as printed; the lower bound (Thm 4: Cor 30, Thm 31) is this artifact's
#: fourth column, shown with the explicit quantities only.
PRINTED_METHODS = ("GTM", "Cohen", "LiuTalwar")
#: The entries of the paper's Table 1 marked with its dagger (Liu and Talwar's conditional guarantee), and the
#: caption and footnote as the paper prints them.
DAGGER = {("noise_penalty", "LiuTalwar"), ("rejection_threshold", "LiuTalwar")}
PRINTED_CAPTION = (
    "Comparison of accuracy and sample complexity for generalized private testing. Expressions suppress lower-order "
    "terms. For our results, $\\theta>0$ and $\\gamma\\in(1,2]$ are free parameters. For Liu and Talwar (2019), "
    "$\\varepsilon_0\\in(0,1)$ is an auxiliary parameter."
)
PRINTED_FOOTNOTE = (
    "Liu and Talwar (2019)'s guarantee is conditional on halting at step $t$ and does not guarantee halting at "
    "$p_t=p^*$, but at a value somewhat larger than $p^*$."
)
#: Where the fourth column comes from (the paper's Table 1 has three).
FOURTH_COLUMN = "The fourth column, the lower bound of Theorem 4 (Cor 30, Thm 31), is this artifact's, not the paper's."


def _entries_grid(which: str, dagger: str = "") -> list[list[str]]:
    """Rows of Table 1: the row label, then each column's entry: ``which`` = "paper" (the columns of
    :data:`PRINTED_METHODS`, the entries of :data:`DAGGER` followed by ``dagger``) or "explicit" (every column of
    :data:`privtest.bounds.TABLE1_METHODS`, the lower bound included)."""
    methods = PRINTED_METHODS if which == "paper" else tuple(bounds.TABLE1_METHODS)
    grid = []
    for row, label in bounds.TABLE1_ROWS.items():
        entries = [bounds.table1_entry(row, m) for m in methods]
        cells = [e.paper + (dagger if (row, e.method) in DAGGER else "") if which == "paper" else e.explicit
                 for e in entries]  # fmt: skip
        grid.append([label, *cells])
    return grid


def _heads(which: str) -> list[str]:
    methods = PRINTED_METHODS if which == "paper" else tuple(bounds.TABLE1_METHODS)
    return ["", *(bounds.TABLE1_METHODS[m] for m in methods)]


def table1_tex() -> str:
    """Table 1 as a booktabs LaTeX table: (a) as printed in the paper (its three columns, its dagger and footnote),
    (b) the explicit quantities evaluated by :mod:`privtest.bounds` (and instantiated in table1.csv), with the lower
    bound of Theorem 4 as a fourth column."""
    parts = [
        "% Generated by privtest_artifact.tables.table1_tex from privtest.bounds.TABLE1; do not edit.",
        "% Needs \\usepackage{booktabs,graphicx,amsmath}.",
        "\\begin{table}[t]",
        "\\centering\\small",
        "\\caption{Table 1 of the paper. (a) As printed: " + PRINTED_CAPTION + " (b) The explicit quantities this "
        "artifact evaluates (\\texttt{privtest.bounds}), with the lower bound of Theorem 4 (Cor 30, Thm 31) as a "
        "fourth column, which the paper's table does not have; $\\beta_t=\\omega_t\\beta$ (Def.~7), "
        "$\\sigma_{LT}=12(\\varepsilon_1+\\varepsilon_0)/\\varepsilon$, "
        "$\\theta_C=\\varepsilon/\\varepsilon_1-2$, $\\delta'=\\delta/(e^\\varepsilon-1)$.}",
        "\\label{tab:table1}",
    ]
    for tag, which in (("(a) As printed", "paper"), ("(b) Explicit, as evaluated", "explicit")):
        parts += [f"\\par\\medskip\\textbf{{{tag}}}\\par\\smallskip", "\\resizebox{\\linewidth}{!}{%"]
        heads = _heads(which)
        parts += latex_tabular("l" * len(heads), heads, _entries_grid(which, dagger="\\textsuperscript{\\dag}"))
        parts[-1] += "}"  # closes \resizebox
        if which == "paper":
            parts.append(f"\\par\\smallskip{{\\footnotesize \\textsuperscript{{\\dag}}{PRINTED_FOOTNOTE}}}")
    parts.append("\\end{table}")
    return "\n".join(parts) + "\n"


#: Columns of table1.csv shown in the Markdown instantiation.
TABLE1_MD_COLUMNS = [
    "method",
    "eps_ratio",
    "T",
    "pstar",
    "noise_penalty",
    "penalty_from_halt",
    "pbar_theory",
    "pbar_measured",
    "samples_theory",
    "samples_measured",
    "samples_measured_kind",
    "note",
]


#: Which form of Lambda_t each column of Table 1's explicit row uses (table1.md; fig_noise_penalty's caption says the
#: same for its curves).
LAMBDA_FORMS_NOTE = (
    "Forms of $\\Lambda_t$: each column uses its own. GTM and Cohen et al.: the ratio $p^*/\\bar p_t$. Liu–Talwar: "
    "the ratio $p^*/\\bar p_t$ from the nominal $p^*$ (Theorem 46(2), $\\bar p_t = p^*/\\Lambda_t$), where it does "
    "not guarantee halting (`fig_noise_penalty` also draws its odds form from its halting threshold). In the odds form "
    "$\\mathrm{odds}(p^*)/\\mathrm{odds}(\\bar p_t)$ the GTM's penalty at $p^* = 1/2$ would be about "
    "$2\\gamma\\Lambda_t$: a factor 2, which does not change the orders-of-magnitude comparison."
)


def table1_md(df: pd.DataFrame) -> str:
    """Table 1 as printed in the paper (its three columns, caption, dagger and footnote), the explicit quantities
    evaluated here (with the lower bound as a fourth column), their sources, and the numeric instantiation ``df``
    (table1.csv) as Markdown."""
    lines = ["# Table 1", "", "Generated from `privtest.bounds.TABLE1`; numbers in `figures/table1.csv`.", ""]
    lines += ["## As printed in the paper", "", PRINTED_CAPTION, ""]
    lines += markdown_lines(_heads("paper"), _entries_grid("paper", dagger=" †")) + ["", f"† {PRINTED_FOOTNOTE}", ""]
    lines += ["## Explicit quantities evaluated here", "", FOURTH_COLUMN, ""]
    lines += markdown_lines(_heads("explicit"), _entries_grid("explicit")) + ["", LAMBDA_FORMS_NOTE, ""]
    lines += [
        "Sources: " + "; ".join(f"{e.method}/{e.row}: {e.source}" for e in bounds.TABLE1),
        "",
        "## Numeric instantiation",
        "",
    ]
    rows = []
    for r in df[TABLE1_MD_COLUMNS].itertuples(index=False):
        cells = [f"{v:.4g}" if isinstance(v, float) else str(v) for v in r]
        rows.append([c.replace("nan", "") for c in cells])
    lines += markdown_lines(TABLE1_MD_COLUMNS, rows)
    return "\n".join(lines) + "\n"


def co_table_markdown(rows: list[TableRow], title: str) -> str:
    """Table 2 or 3 (rows of :mod:`privtest.co.tables`) as Markdown: title, caption, one line per row
    (:func:`markdown_lines`)."""
    header = ["Work", "Setting", "Batch guarantee", "CO guarantee (Theorem 42)"]
    body = [[r.work, r.setting, r.batch, r.co] for r in rows]
    return "\n".join([f"# {title}", "", CAPTION, ""] + markdown_lines(header, body)) + "\n"


def co_table_latex(rows: list[TableRow], label: str) -> str:
    """Table 2 or 3 as a LaTeX ``table`` environment with caption and ``label`` (:func:`latex_tabular`)."""
    header = ["Work, setting", "Batch guarantee", "CO guarantee (ours)"]
    body = [[f"{r.work}, {r.setting}", r.batch, r.co] for r in rows]
    tabular = latex_tabular("p{4.2cm}p{4.8cm}p{5.6cm}", header, body)
    head = ["\\begin{table}[t]", "\\centering", f"\\caption{{{CAPTION}}}\\label{{{label}}}", "\\small"]
    return "\n".join(head + tabular + ["\\end{table}"]) + "\n"
