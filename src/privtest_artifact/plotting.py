"""One figure style for every output: fonts, per-method colours, byte-stable saving (no timestamps), and the panel
grid shared by the continual-observation utility figures."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from privtest_artifact.io import write_atomic  # noqa: E402

#: Colour of each method, used by every figure so a method looks the same everywhere.
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
    # Continual observation (Sections 7-8): BatchToCO runs the GTM; its baselines recompute or never update (CO
    # model), or know the horizon (oracle-horizon references, drawn dashed).
    "BatchToCO": "#1f77b4",
    "recompute every step": "#d62728",
    "recompute geometric": "#2ca02c",
    "never update": "#7f7f7f",
    "oracle-horizon recompute (basic)": "#e377c2",
    "oracle-horizon recompute (advanced)": "#ff7f0e",
    # Hyperparameter search (Section 1.5): the GTM with a constant or an adaptive p*, and OpenDP's private selection
    # (Liu-Talwar's known-threshold selection, Algorithm 2) as documented and as OpenDP 0.16.0 draws its stop
    # probability; colours no other method uses, so OpenDP is not mistaken for the Liu-Talwar tester.
    "GTM (constant p*)": "#1f77b4",
    "GTM (adaptive p*)": "#7b4173",
    "OpenDP selection": "#bcbd22",
    "OpenDP 0.16.0 as released": "#8c6d31",
}

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

#: Readable name of each stream id of the continual-observation experiments (raw tables' ``stream`` column).
STREAM_NAMES = {
    "collegemsg": "CollegeMsg",
    "primary_school": "SocioPatterns primary school",
    "collegemsg_messages": "CollegeMsg, one message per step",
    "primary_school_contacts": "primary school, one contact per step",
    "burst": "synthetic burst stream",
    "mpls_stops": "Minneapolis stops, $k$-cardinality",
    "mpls_stops_matroid": "Minneapolis stops, partition matroid",
    # fig_error_rates' adversarial streams
    "pbar_then_pstar": "$p_t=\\bar p_t$ for $t<T$, then $p_T=p^*$",
    "never_pstar": "$p_t=\\bar p_t$ for every $t\\leq T$",
}

STYLE = {
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


def sequential_colors(n: int, cmap: str = "viridis") -> list:
    """``n`` clearly distinct colours of a sequential colormap (an ordered family such as several theta), from its
    dark end to 85% of it (viridis' last yellow is too light on white).

    Raises:
        ValueError: if ``n`` < 1.
    """
    import numpy as np

    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    return list(plt.get_cmap(cmap)(np.linspace(0.0, 0.85, n)))


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


def suptitle(fig, text: str, fontsize: float = 9.0) -> None:
    """A figure title wrapped to the figure's width (about 0.55 em per character), with the panels laid out below it
    (``tight_layout`` in the space the wrapped lines leave), so it neither runs past nor overlaps the panels."""
    import textwrap

    width = max(20, int(fig.get_figwidth() * 72 / (0.55 * fontsize)))
    lines = textwrap.wrap(text, width)
    fig.suptitle("\n".join(lines), fontsize=fontsize, y=1.0, va="top")
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


def save(fig, pdf_path: str | Path, png_path: str | Path) -> None:
    """Save ``fig`` as PDF and PNG without creation dates (reruns give identical bytes), each written atomically."""
    pdf_meta = {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}
    write_atomic(pdf_path, lambda tmp: fig.savefig(tmp, format="pdf", metadata=pdf_meta, bbox_inches="tight"))
    write_atomic(png_path, lambda tmp: fig.savefig(tmp, format="png", metadata={"Software": None}, bbox_inches="tight"))
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
        references: ``(column, matplotlib format, legend label)`` of each reference curve. Default: OPT_t from
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
                    ax.plot(o.t, o.opt, "k--", lw=1, label="OPT$_t$ (exact)")
                else:
                    ax.plot(o.t, o.opt, "k--", lw=0.8, label="OPT$_t$: exact at dots, upper bound between")
                    ax.plot(exact.t, exact.opt, "k.", ms=2.5)
            else:
                for column, fmt_, lab in references:
                    ax.plot(o.t, o[column], fmt_, lw=1, label=lab)
            panel_title(ax, f"{stream_name(s)}, $\\varepsilon$={e:g}")
            ax.set_xlabel(CO_STEP_LABEL)
            if j == 0:
                ax.set_ylabel(ylabel)
    suptitle(fig, title)
    legend_below(fig, *axes[0, 0].get_legend_handles_labels())
    return fig


#: y of co_crossover's predicted (top) and measured (bottom) crossover triangles, and its y-limits: the triangles
#: (5 pt) sit centred in bands 0.12 tall outside the ratio's range [0, 1], so they touch neither data nor spines.
_CROSSOVER_Y = (1.06, -0.06)
_CROSSOVER_YLIM = (-0.12, 1.12)


def co_crossover(summary, crossings, bursts=None, streams=None, zoom=None):
    """f/OPT_t over a long stream on a log time axis, BatchToCO against each baseline, with the crossovers.

    One panel per (stream, eps) (rows: streams, columns: sorted eps). Each method: mean over runs and 10-90% band
    (oracle-horizon references dashed). For every baseline with a finite predicted crossover, a dotted vertical line
    and a down-triangle above the ratio's range [0, 1] in the baseline's colour; a finite measured crossover is an
    up-triangle below it (both inside the panel, unclipped).

    Args:
        summary: DataFrame with stream, eps, method, t, mean, q10, q90 (f/OPT_t).
        crossings: DataFrame with stream, eps, baseline, t_pred, t_meas (inf if none).
        bursts: optional dict stream -> step of an unannounced jump (drawn as a grey band).
        streams: row order (default: order of appearance in ``summary``).
        zoom: optional dict stream -> (t_min, t_max): an extra row for that stream on a linear time axis over the
            window (e.g. around a burst).

    Returns:
        The matplotlib Figure.
    """
    import numpy as np

    streams = list(dict.fromkeys(summary["stream"])) if streams is None else list(streams)
    rows = [(s, None) for s in streams] + [(s, w) for s, w in (zoom or {}).items() if s in streams]
    epss = sorted(summary["eps"].unique())
    fig, axes = plt.subplots(
        len(rows), len(epss), figsize=(2.6 * len(epss), 2.3 * len(rows)), squeeze=False, sharey=True
    )
    for i, (s, window) in enumerate(rows):
        for j, e in enumerate(epss):
            ax = axes[i, j]
            sub = summary[(summary.stream == s) & (summary.eps == e)]
            if window is not None:
                sub = sub[(sub.t >= window[0]) & (sub.t <= window[1])]
            for m, g in sub.groupby("method", sort=False):
                top = m == "BatchToCO"  # drawn over the baselines it is compared with
                ax.plot(g.t, g["mean"], lw=1.6 if top else 1.1, color=color(m), ls=linestyle(m), label=label(m),
                        zorder=3 if top else 2)  # fmt: skip
                ax.fill_between(g.t, g.q10, g.q90, color=color(m), alpha=0.12, lw=0)
            if bursts and s in bursts:
                ax.axvline(bursts[s], color="0.6", lw=3, alpha=0.4, label="unannounced jump of OPT$_t$")
            c = crossings[(crossings.stream == s) & (crossings.eps == e)]
            for r in c.itertuples():
                # Triangles in the bands above and below the ratio's range [0, 1], clear of the data and of the
                # spines, and never clipped (a crossover at the last step sits at the edge of the time axis).
                if np.isfinite(r.t_pred):
                    ax.axvline(r.t_pred, color=color(r.baseline), ls=":", lw=1)
                    ax.plot([r.t_pred], [_CROSSOVER_Y[0]], marker="v", color=color(r.baseline), ms=5, clip_on=False,
                            zorder=4)  # fmt: skip
                if np.isfinite(r.t_meas):
                    ax.plot([r.t_meas], [_CROSSOVER_Y[1]], marker="^", color=color(r.baseline), ms=5, clip_on=False,
                            zorder=4)  # fmt: skip
            if window is None:
                ax.set_xscale("log")
                panel_title(ax, f"{stream_name(s)}, $\\varepsilon$={e:g}")
            else:
                ax.set_xlim(*window)
                panel_title(ax, f"{stream_name(s)} (zoom, linear $t$), $\\varepsilon$={e:g}")
            ax.set_ylim(*_CROSSOVER_YLIM)
            ax.set_xlabel(CO_STEP_LABEL)
            if j == 0:
                ax.set_ylabel("$f(X_t, Y_t)/\\mathrm{OPT}_t$")
    handles, labels = unique_legend(axes)
    handles += [
        plt.Line2D([], [], color="k", ls=":", marker="v", lw=1),
        plt.Line2D([], [], color="k", ls="", marker="^"),
    ]
    labels += ["predicted crossover (in the baseline's colour)", "measured crossover"]
    fig.tight_layout()
    legend_below(fig, handles, labels)
    return fig
