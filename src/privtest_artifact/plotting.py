"""One figure style for every output: fonts, per-method colours, byte-stable saving (no timestamps), and the panel
grid shared by the continual-observation utility figures."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from privtest_artifact.io import write_atomic  # noqa: E402

#: Colour of each method, the only source of a method's colour in every figure: one method, one colour, and no
#: two methods share a colour except the names of :data:`SAME_METHOD` (a method under another name). The testers
#: keep matplotlib's tab10 hues; hyperparameter search and continual observation (Sections 1.5, 7-8) take colours
#: the testers do not use, so that no colour means two methods across the figures.
METHOD_COLORS = {
    "GTM": "#1f77b4",
    "GTM (direct)": "#1f77b4",
    "GTM (flipped)": "#17becf",
    "GTM ex-post": "#9467bd",
    "Cohen": "#d62728",
    "LiuTalwar": "#2ca02c",
    "Ghazi": "#ff7f0e",
    "AboveThreshold": "#8c564b",
    "LowerBound": "#7f7f7f",
    "bound": "#7f7f7f",
    # Continual observation (Sections 7-8): BatchToCO runs GTM instances (Algorithm 3), drawn in the GTM's colour;
    # its baselines recompute or never update (CO model), or know the horizon (oracle-horizon references, dashed).
    "BatchToCO": "#1f77b4",
    "recompute every step": "#e377c2",
    "recompute geometric": "#1b9e77",
    "never update": "#a6761d",
    "oracle-horizon recompute (basic)": "#6a3d9a",
    "oracle-horizon recompute (advanced)": "#e6550d",
    # Hyperparameter search (Section 1.5): the GTM with a constant or an adaptive p*, and OpenDP's private selection
    # (Liu-Talwar's known-threshold selection, Algorithm 2) as documented and as OpenDP 0.16.0 draws its stop
    # probability; colours no other method uses, so OpenDP is not mistaken for the Liu-Talwar tester.
    "GTM (constant p*)": "#1f77b4",
    "GTM (adaptive p*)": "#7b4173",
    "OpenDP selection": "#bcbd22",
    "OpenDP 0.16.0 as released": "#8c6d31",
    # The auditor's benchmark suites (fig_audit_suites): DP-Sniper's published lower bounds beside ours.
    "DP-Sniper": "#7570b3",
}

#: Names of one method that share its colour: the GTM as the direct variant, with a constant p* and inside BatchToCO
#: (Algorithm 3 runs GTM instances); the lower bound of Corollary 30 / Theorem 31 also as "bound".
SAME_METHOD = (("GTM", "GTM (direct)", "GTM (constant p*)", "BatchToCO"), ("LowerBound", "bound"))

#: Colour of each role a figure draws, a palette of its own: no method has one of these colours, so a colour reads
#: as a role or as a method, never both. "should halt" (p_t >= p*: a miss is a Type II error) and "should continue"
#: (p_t <= pbar_t: a halt is a Type I error), Definition 13; "private" (meets its claimed eps) and "not private" (a
#: mechanism that does not, e.g. the broken SVT variants of Lyu, Su and Li 2017).
ROLE_COLORS = {
    "should halt": "#01665e",
    "should continue": "#dfa000",
    "private": "#a6a6a6",
    "not private": "#e7298a",
}

#: Colour of reference curves that are neither a method nor a role (OPT_t, claimed bounds, p = p*): black.
REFERENCE = "k"
#: Colour of a legend entry that explains a line style or a mark drawn in several colours, and of separators: grey.
NEUTRAL = "0.4"

#: Legend label of a method whose raw-table name is terse (continual-observation baselines) or written without
#: spaces in the raw tables (``LiuTalwar``): every figure names a method the same way.
METHOD_LABELS = {
    "LiuTalwar": "Liu–Talwar",
    "LiuTalwar nominal": "Liu–Talwar (nominal $p^*$)",
    "Cohen": "Cohen et al.",
    "Ghazi": "Ghazi et al.",
    "LowerBound": "lower bound",
    "BatchToCO": "BatchToCO (Alg. 3)",
    "recompute every step": "recompute every step, $\\varepsilon\\omega_t$",
    "recompute geometric": "recompute at $t=\\lceil(1+\\kappa)^k\\rceil$, $\\varepsilon\\omega_k$",
    "never update": "never update ($\\varepsilon$ at $t=1$)",
    "oracle-horizon recompute (basic)": "oracle horizon: every step, $\\varepsilon/T$",
    "oracle-horizon recompute (advanced)": "oracle horizon: every step, adv. composition",
}

#: Methods drawn dashed: references that need knowledge a CO algorithm does not have (the stream length T).
DASHED = ("oracle-horizon recompute (basic)", "oracle-horizon recompute (advanced)")

#: Readable name of each stream id of the continual-observation experiments (raw tables' ``stream`` column): a data
#: set has one name in every figure ("CollegeMsg", "primary school"), followed by how its steps are cut.
STREAM_NAMES = {
    "collegemsg": "CollegeMsg, one step per day",
    "primary_school": "primary school, one step per 10-minute window",
    "collegemsg_messages": "CollegeMsg, one message per step",
    "primary_school_contacts": "primary school, one contact per step",
    "burst": "synthetic burst stream",
    "mpls_stops": "Minneapolis stops, $k$-cardinality",
    "mpls_stops_matroid": "Minneapolis stops, partition matroid",
    # fig_error_rates' adversarial streams
    "pbar_then_pstar": "$p_t=\\bar p_t$ for $t<T$, then $p_T=p^*$",
    "never_pstar": "$p_t=\\bar p_t$ for every $t\\leq T$",
}

#: The input privacy ratio in the paper's notation (Algorithm 1, Theorem 21): eps_t/eps. Every experiment keeps it
#: the same at every step (eps_t = eps_1, how Table 1, Corollary 30 and Lemma 22(2) write it). fig_expost's
#: eps_t/eps_C is another quantity (Theorem 23's continuation budget eps_C) and is written as such.
EPS_RATIO = "$\\varepsilon_t/\\varepsilon$"


def eps_ratio(value: float) -> str:
    """``eps_t/eps=<value>`` in mathtext (:data:`EPS_RATIO`), for titles and legends."""
    return f"{EPS_RATIO}={value:g}"


STYLE = {
    # a line drawn without a colour is neutral grey, never mistaken for a method's or a role's colour
    "axes.prop_cycle": matplotlib.cycler(color=[NEUTRAL]),
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "legend.fontsize": 7,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "font.family": "DejaVu Sans",
    "svg.hashsalt": "privtest",
}


def setup() -> None:
    """Apply the project style (call once per notebook)."""
    plt.rcParams.update(STYLE)


def color(method: str) -> str:
    """The colour assigned to ``method`` (grey for unknown names)."""
    return METHOD_COLORS.get(method, "#333333")


def role_color(role: str) -> str:
    """The colour of ``role`` (:data:`ROLE_COLORS`).

    Raises:
        ValueError: naming the role if it is not one of :data:`ROLE_COLORS`.
    """
    if role not in ROLE_COLORS:
        raise ValueError(f"role must be one of {list(ROLE_COLORS)}. Found {role!r}.")
    return ROLE_COLORS[role]


def label(method: str) -> str:
    """The legend label of ``method`` (its name unless :data:`METHOD_LABELS` has one)."""
    return METHOD_LABELS.get(method, method)


#: x-label of every continual-observation time axis (Sections 7-8), in mathtext like every other symbol.
CO_STEP_LABEL = "$t$ (CO step)"


def legend_name(method: str) -> str:
    """The legend name of a method whose raw name may carry plain-text symbols ("GTM (constant p*)"): its
    :func:`label`, with :func:`mathtext` symbols."""
    return mathtext(label(method))


def stream_name(stream: str) -> str:
    """The readable name of a stream id (:data:`STREAM_NAMES`; ``collegemsg_top<n>``, fig_co_maxcut's stream:
    "CollegeMsg, <n> most active users"; other ids keep their id with ``_`` as spaces)."""
    import re

    top = re.fullmatch(r"collegemsg_top(\d+)", str(stream))
    if top:
        return f"CollegeMsg, {top[1]} most active users"
    return STREAM_NAMES.get(stream, str(stream).replace("_", " "))


#: Markers that tell apart the members of a family of curves (with :func:`sequential_colors`).
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def sequential_colors(n: int, cmap: str = "viridis", low: float = 0.0, high: float = 0.85) -> list:
    """``n`` clearly distinct colours of a sequential colormap, for an ordered family such as several theta (one
    parameter's values, not methods), from ``low`` to ``high`` of the map: by default viridis from its dark end to
    85% of it (its last yellow is too light on white). A figure that also draws roles (:data:`ROLE_COLORS`) draws
    its families in greys, ``sequential_colors(n, "Greys", 0.45, 1.0)`` (:func:`family_colors`).

    Raises:
        ValueError: if ``n`` < 1.
    """
    import numpy as np

    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    return list(plt.get_cmap(cmap)(np.linspace(low, high, n)))


def family_colors(n: int) -> list:
    """``n`` greys from mid grey to black: an ordered family (e.g. several eps_t/eps) in a figure whose colours are
    roles or methods, so that the family's colours mean nothing else."""
    return sequential_colors(n, "Greys", 0.45, 1.0) if n > 1 else ["k"]


def panel_title(ax, text: str, fontsize: float = 8.0) -> None:
    """A panel title broken into lines no wider than the panel (rendered widths, mathtext included; breaks only at
    spaces outside ``$...$``), so titles of neighbouring panels cannot run into each other. Call
    ``fig.tight_layout()`` (or :func:`suptitle`) afterwards to make room for the lines."""
    import re

    fig = ax.get_figure()
    renderer = fig.canvas.get_renderer()
    limit = 0.97 * ax.get_window_extent(renderer).width
    words = re.findall(r"(?:\$[^$]*\$|[^\s$])+", text)  # spaces inside $...$ do not break

    def width(line: str) -> float:
        return ax.set_title(line, fontsize=fontsize).get_window_extent(renderer).width

    lines: list[str] = []
    for w in words:
        if lines and width(f"{lines[-1]} {w}") <= limit:
            lines[-1] = f"{lines[-1]} {w}"
        else:
            lines.append(w)
    ax.set_title("\n".join(lines), fontsize=fontsize)


def legend_right(ax, fontsize: float = 6.5, **kwargs):
    """The legend of ``ax`` to the right of the panel, outside the data (``bbox_inches="tight"`` in :func:`save`
    keeps it in the file)."""
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=fontsize, **kwargs)


def legend_under(ax, fontsize: float = 6.5, **kwargs):
    """The legend of ``ax`` below the panel, under its x-label (off the data; for a grid of panels whose legends
    differ, where :func:`legend_right` would cover the next panel). Lay the figure out afterwards
    (:func:`suptitle` or ``fig.tight_layout()``)."""
    return ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), fontsize=fontsize, frameon=False, **kwargs)


def unique_legend(axes) -> tuple[list, list]:
    """Handles and labels of every panel in ``axes``, each label once (first occurrence), for a figure legend."""
    import numpy as np

    handles, labels = [], []
    for ax in np.asarray(axes, dtype=object).ravel():
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    return handles, labels


def linestyle(method: str) -> str:
    """Dashed for oracle-horizon references (:data:`DASHED`), solid otherwise."""
    return "--" if method in DASHED else "-"


def binomial_rate(ax, x, k, n, color, label: str | None, marker: str = "o", confidence: float = 0.95, ms: float = 4.5):
    """Monte Carlo rates ``k/n`` at ``x`` with their two-sided Clopper-Pearson intervals
    (:func:`privtest.measure.clopper_pearson`) as error bars; a setting with ``k = 0`` is drawn as a hollow
    down-triangle at its upper confidence limit (where the rate could still be; a log axis has no 0), labelled
    "<label>: none observed (95% upper limit)".

    Args:
        ax: the matplotlib Axes.
        x, k, n: arrays of the same length: positions, events and trials (0 <= k <= n).
        color: the colour of the series (a method's :func:`color` or a role's :func:`role_color`).
        label: legend label of the observed rates (None: no legend entries, e.g. where the figure's legend
            explains the marks once).
        marker: marker of the observed rates.
        confidence: level of the intervals, in (0, 1).
        ms: marker size (points).

    Raises:
        ValueError: if ``x``, ``k`` and ``n`` differ in length, or from :func:`privtest.measure.clopper_pearson` for
            counts out of range.
    """
    import numpy as np

    from privtest.measure import clopper_pearson

    x, k, n = (np.asarray(v) for v in (x, k, n))
    if not len(x) == len(k) == len(n):
        raise ValueError(f"x, k and n must have one length. Found {len(x)}, {len(k)}, {len(n)}.")
    low, high = (np.atleast_1d(v) for v in clopper_pearson(k, n, confidence))
    rate = k / n
    seen = k > 0
    level = f"{100 * confidence:g}%"
    if seen.any():
        ax.errorbar(x[seen], rate[seen], yerr=[rate[seen] - low[seen], high[seen] - rate[seen]], fmt=marker, ms=ms,
                    capsize=2, color=color, label=None if label is None else f"{label} ({level} CI)")  # fmt: skip
    if (~seen).any():
        ax.plot(x[~seen], high[~seen], "v", ms=ms + 2, mfc="none", mew=1.2, color=color,
                label=None if label is None else f"{label}: none observed ({level} upper limit)")  # fmt: skip


def _wrap(fig, text: str, fontsize: float) -> str:
    """``text`` broken into lines about as wide as ``fig`` (0.55 em per character), never inside $...$ or between a
    result's name and its number ("Cor 30")."""
    import re
    import textwrap

    width = max(20, int(fig.get_figwidth() * 72 / (0.55 * fontsize)))
    protected = re.sub(r"\$[^$]*\$", lambda m: m[0].replace(" ", "\0"), text)
    protected = re.sub(
        r"\b(Thm|Cor|Lemma|Prop|Alg\.|Sec\.|Table|Def\.) (?=\d)", "\\1\0", protected
    )  # "Cor 30" stays whole
    return "\n".join(textwrap.wrap(protected, width)).replace("\0", " ")


def coinciding(curves: dict, rtol: float = 0.01) -> list[list]:
    """Groups of the names of ``curves`` (name -> array of y on a common x) whose curves agree within the relative
    tolerance ``rtol`` at every x, in the order of ``curves``: a group of several is drawn once and labelled with
    all its names, so that no curve hides another.

    Raises:
        ValueError: if the curves differ in length.
    """
    import numpy as np

    ys = {k: np.asarray(v, dtype=float) for k, v in curves.items()}
    if len({len(v) for v in ys.values()}) > 1:
        raise ValueError(f"curves must have one length. Found { {k: len(v) for k, v in ys.items()} }.")
    groups: list[list] = []
    for name, y in ys.items():
        for g in groups:
            if np.allclose(y, ys[g[0]], rtol=rtol, atol=0.0):
                g.append(name)
                break
        else:
            groups.append([name])
    return groups


def suptitle(fig, text: str, fontsize: float = 9.0) -> None:
    """A figure title wrapped to the figure's width (:func:`_wrap`), with the panels laid out below it
    (``tight_layout`` in the space the wrapped lines leave), so it neither runs past nor overlaps the panels."""
    fig.suptitle(_wrap(fig, text, fontsize), fontsize=fontsize, y=1.0, va="top")
    fig.tight_layout()  # makes room for the suptitle


def legend_below(fig, handles, labels, fontsize: float = 7.0) -> None:
    """One legend for the whole figure, below the panels (off the data), in as many columns as fit the figure's
    width."""
    ncol = max(1, min(len(labels), int(fig.get_figwidth() // 2.6)))
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol, fontsize=fontsize)


#: Plain-text names in labels that come from the data, and their mathtext (:func:`mathtext`).
_MATHTEXT = (("eps=", r"$\varepsilon$="), ("p*", "$p^*$"), ("theta", r"$\theta$"), ("delta", r"$\delta$"))


def mathtext(label: str) -> str:
    """A label built from the data (curve or scenario names such as "GTM theta=1" or "eps=20, target 0.9, p*=0.5")
    with its plain-text symbols (eps=, p*, theta, delta) in mathtext."""
    for plain, tex in _MATHTEXT:
        label = label.replace(plain, tex)
    return label


def curve_label(name: str) -> str:
    """The legend label of a curve named in the data: :func:`mathtext`, and the raw tables' "Liu-Talwar" spelled
    as :data:`METHOD_LABELS` spells the method ("Liu–Talwar"), so one method has one name in every figure."""
    return mathtext(name).replace("Liu-Talwar", label("LiuTalwar"))


def _tight_bbox(fig):
    """The area ``savefig(..., bbox_inches="tight")`` saves of ``fig`` as PNG (at :rc:`savefig.dpi`): the figure laid
    out and measured once, where each ``bbox_inches="tight"`` save lays it out (a draw) and measures it again."""
    dpi = fig.dpi
    fig.dpi = plt.rcParams["savefig.dpi"]
    try:
        fig.draw_without_rendering()  # runs the layout engine, if any, as savefig does before measuring
        bbox = fig.get_tightbbox(fig.canvas.get_renderer())
    finally:
        fig.dpi = dpi
    pad = plt.rcParams["savefig.pad_inches"]
    return bbox.padded(pad, pad)


def save(fig, pdf_path: str | Path, png_path: str | Path) -> None:
    """Save ``fig`` as PDF and PNG without creation dates (reruns give identical bytes), each written atomically.

    Both files show the area ``bbox_inches="tight"`` gives the PNG (:func:`_tight_bbox`), laid out and measured once:
    the PDF's margins may differ from its own tight crop by a few points (the PNG measures text hinted)."""
    bbox = _tight_bbox(fig)
    # laid out by _tight_bbox: with a layout engine (even the placeholder fig.tight_layout() leaves), savefig would
    # lay the figure out again (a draw) before each file
    fig.set_layout_engine(None)
    pdf_meta = {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}
    write_atomic(pdf_path, lambda tmp: fig.savefig(tmp, format="pdf", metadata=pdf_meta, bbox_inches=bbox))
    write_atomic(png_path, lambda tmp: fig.savefig(tmp, format="png", metadata={"Software": None}, bbox_inches=bbox))
    plt.close(fig)


def co_utility(summary, ylabel: str, title: str, references=None):
    """Utility over a continual-observation stream, BatchToCO against its baselines (Theorem 42, Sections 7-8).

    One panel per (stream, eps): rows are the streams in order of appearance, columns the sorted privacy budgets;
    panels of a row share their axes. Each method is drawn as its mean over runs with a 10-90% band, in the colour
    :func:`color` gives it (oracle-horizon references dashed), and each reference curve (e.g. OPT_t) once per panel.

    Args:
        summary: DataFrame with columns ``stream``, ``eps``, ``t``, ``method``, ``mean``, ``q10``, ``q90`` (one row
            per stream, eps, method and step t) and the reference columns (constant across methods at each t).
        ylabel: label of the utility axis (first column of panels).
        title: figure title (wrapped to the figure's width).
        references: ``(column, line style, legend label)`` of each reference curve, drawn in :data:`REFERENCE`
            black. Default: OPT_t from
            column ``opt``, with dots at the steps where ``opt_kind`` is "exact" and labelled an upper bound between
            them when some steps are not exact.

    Returns:
        The matplotlib Figure (save it with :func:`save`).
    """
    streams = list(dict.fromkeys(summary["stream"]))
    epss = sorted(summary["eps"].unique())
    fig, axes = plt.subplots(
        len(streams),
        len(epss),
        figsize=(2.7 * len(epss), 2.4 * len(streams)),
        squeeze=False,
        sharex="row",
        sharey="row",
    )
    for i, s in enumerate(streams):
        for j, e in enumerate(epss):
            ax = axes[i, j]
            sub = summary[(summary.stream == s) & (summary.eps == e)]
            for m, g in sub.groupby("method", sort=False):
                top = m == "BatchToCO"  # drawn over the baselines it is compared with
                ax.plot(g.t, g["mean"], lw=1.6 if top else 1.2, color=color(m), ls=linestyle(m), label=label(m),
                        zorder=3 if top else 2)  # fmt: skip
                ax.fill_between(g.t, g.q10, g.q90, color=color(m), alpha=0.15, lw=0)
            o = sub.drop_duplicates("t")
            if references is None:
                exact = o[o.opt_kind == "exact"] if "opt_kind" in o else o
                if len(exact) == len(o):
                    ax.plot(o.t, o.opt, "--", color=REFERENCE, lw=1, label="OPT$_t$ (exact)")
                else:
                    ax.plot(
                        o.t, o.opt, "--", color=REFERENCE, lw=0.8, label="OPT$_t$: exact at dots, upper bound between"
                    )
                    ax.plot(exact.t, exact.opt, ".", color=REFERENCE, ms=2.5)
            else:
                for column, ls, lab in references:
                    ax.plot(o.t, o[column], ls=ls, color=REFERENCE, lw=1, label=lab)
            panel_title(ax, f"{stream_name(s)}, $\\varepsilon$={e:g}")
            ax.set_xlabel(CO_STEP_LABEL)
            if j == 0:
                ax.set_ylabel(ylabel)
    suptitle(fig, title)
    legend_below(fig, *axes[0, 0].get_legend_handles_labels())
    return fig


#: y of co_crossover's predicted (top) and measured (bottom) crossover triangles, and its y-limits: the triangles sit
#: centred in bands 0.2 tall outside the ratio's range [0, 1], so they touch neither data nor spines.
_CROSSOVER_Y = (1.1, -0.1)
_CROSSOVER_YLIM = (-0.2, 1.2)
#: Size (points) of a crossover triangle; triangles of baselines crossed at the same step sit this far apart times 1.3.
_CROSSOVER_MS = 6.0


def _crossover_marks(ax, rows, y: float, marker: str, order: list) -> None:
    """One ``marker`` per baseline of ``rows`` (t, baseline) at height ``y``, in the baseline's colour, and a thin
    dashed line at t; baselines crossed at the same t sit side by side, the first on the line and the others toward
    the inside of the panel, so that every colour shows."""
    import math

    from matplotlib.transforms import offset_copy

    lo, hi = (math.log(v) for v in ax.get_xlim())
    for t, group in rows.groupby("t", sort=True):
        ax.axvline(t, color=NEUTRAL, lw=0.6, ls="--", zorder=1)  # the step itself, where side-by-side marks start
        inward = -1.0 if math.log(t) > (lo + hi) / 2 else 1.0
        for i, b in enumerate(sorted(group["baseline"], key=order.index)):
            shift = offset_copy(ax.transData, fig=ax.figure.figure, x=inward * i * 1.3 * _CROSSOVER_MS, units="points")
            ax.plot([t], [y], marker=marker, ms=_CROSSOVER_MS, color=color(b), transform=shift, clip_on=False,
                    zorder=4, ls="")  # fmt: skip


def co_crossover(summary, crossings, bursts=None, streams=None, title: str = ""):
    """f/OPT_t over a long stream on a log time axis, BatchToCO against each baseline, with the crossovers.

    One row of panels per stream (its name above the row), one column per eps (its value above the column; sorted).
    Each method: mean over runs and 10-90% band (oracle-horizon references dashed). For every baseline with a finite
    predicted crossover, a down-triangle in the band above the ratio's range [0, 1], in the baseline's colour; a
    finite measured crossover is an up-triangle in the band below (both inside the panel, unclipped). Baselines
    crossed at the same step sit side by side, so each shows its colour; a panel with neither says so.

    Args:
        summary: DataFrame with stream, eps, method, t, mean, q10, q90 (f/OPT_t).
        crossings: DataFrame with stream, eps, baseline, t_pred, t_meas (inf if none).
        bursts: optional dict stream -> step of an unannounced jump (drawn as a grey band).
        streams: row order (default: order of appearance in ``summary``).
        title: the figure's message (its suptitle).

    Returns:
        The matplotlib Figure.
    """
    import numpy as np

    streams = list(dict.fromkeys(summary["stream"])) if streams is None else list(streams)
    epss = sorted(summary["eps"].unique())
    order = list(dict.fromkeys(crossings["baseline"]))
    fig = plt.figure(figsize=(1.85 * len(epss) + 0.5, 1.75 * len(streams) + 1.3), layout="constrained")
    rows = np.atleast_1d(fig.subfigures(len(streams), 1))
    axes = np.array([sub.subplots(1, len(epss), sharex=True, sharey=True) for sub in rows]).reshape(len(streams), -1)
    for i, s in enumerate(streams):
        rows[i].suptitle(stream_name(s), fontsize=8.5)
        for j, e in enumerate(epss):
            ax = axes[i, j]
            sub = summary[(summary.stream == s) & (summary.eps == e)]
            for m, g in sub.groupby("method", sort=False):
                top = m == "BatchToCO"  # drawn over the baselines it is compared with
                ax.plot(g.t, g["mean"], lw=1.5 if top else 1.0, color=color(m), ls=linestyle(m), label=label(m),
                        zorder=3 if top else 2)  # fmt: skip
                ax.fill_between(g.t, g.q10, g.q90, color=color(m), alpha=0.2 if top else 0.07, lw=0)
            if bursts and s in bursts:
                ax.axvline(bursts[s], color="0.6", lw=3, alpha=0.4, label="unannounced jump of OPT$_t$")
            ax.set_xscale("log")
            ax.set_ylim(*_CROSSOVER_YLIM)
            ax.set_yticks([0, 0.5, 1])
            c = crossings[(crossings.stream == s) & (crossings.eps == e)]
            pred = c[np.isfinite(c.t_pred)].rename(columns={"t_pred": "t"})
            meas = c[np.isfinite(c.t_meas)].rename(columns={"t_meas": "t"})
            _crossover_marks(ax, pred, _CROSSOVER_Y[0], "v", order)
            _crossover_marks(ax, meas, _CROSSOVER_Y[1], "^", order)
            if pred.empty and meas.empty:
                ax.text(0.04, _CROSSOVER_Y[0], "no crossover within $T$", transform=ax.get_yaxis_transform(),
                        fontsize=6.5, color=NEUTRAL, va="center")  # fmt: skip
            if i == 0:
                ax.set_title(f"$\\varepsilon$ = {e:g}", fontsize=8.5)
            if i == len(streams) - 1:
                ax.set_xlabel(CO_STEP_LABEL)
            if j == 0:
                ax.set_ylabel("$f(X_t, Y_t)/\\mathrm{OPT}_t$")
    handles, labels = unique_legend(axes)
    handles += [
        plt.Line2D([], [], color=NEUTRAL, ls="", marker="v", ms=_CROSSOVER_MS),
        plt.Line2D([], [], color=NEUTRAL, ls="", marker="^", ms=_CROSSOVER_MS),
    ]
    labels += [
        "predicted crossover: BatchToCO overtakes the baseline of the triangle's colour",
        "measured crossover (same colours); the marks of one step (dashed line) sit side by side",
    ]
    if title:
        fig.suptitle(_wrap(fig, title, 9.0), fontsize=9)
    fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=7)
    return fig
