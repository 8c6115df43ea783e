"""One figure style for every output: fonts, per-method colours, byte-stable saving (no timestamps), and the panel
grid shared by the continual-observation utility figures."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from privtest.io import write_atomic  # noqa: E402

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
    # Continual observation (Sections 7-8): BatchToCO runs the GTM; its baselines recompute or never update.
    "BatchToCO": "#1f77b4",
    "recompute (basic)": "#d62728",
    "recompute (advanced)": "#ff7f0e",
    "never update": "#7f7f7f",
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


#: Plain-text names in labels that come from the data, and their mathtext (:func:`mathtext`).
_MATHTEXT = (("eps=", r"$\varepsilon$="), ("p*", "$p^*$"), ("theta", r"$\theta$"), ("delta", r"$\delta$"))


def mathtext(label: str) -> str:
    """A label built from the data (curve or scenario names such as "GTM theta=1" or "eps=20, target 0.9, p*=0.5")
    with its plain-text symbols (eps=, p*, theta, delta) in mathtext."""
    for plain, tex in _MATHTEXT:
        label = label.replace(plain, tex)
    return label


def save(fig, pdf_path: str | Path, png_path: str | Path) -> None:
    """Save ``fig`` as PDF and PNG without creation dates (reruns give identical bytes), each written atomically."""
    pdf_meta = {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}
    write_atomic(pdf_path, lambda tmp: fig.savefig(tmp, format="pdf", metadata=pdf_meta, bbox_inches="tight"))
    write_atomic(png_path, lambda tmp: fig.savefig(tmp, format="png", metadata={"Software": None}, bbox_inches="tight"))
    plt.close(fig)


def co_utility(summary, ylabel: str, title: str, references=(("opt", "k--", "OPT$_t$ (exact)"),)):
    """Utility over a continual-observation stream, BatchToCO against its baselines (Theorem 42, Sections 7-8).

    One panel per (stream, eps): rows are the streams in order of appearance, columns the sorted privacy budgets;
    panels of a row share their axes. Each method is drawn as its mean over runs with a 10-90% band, in the colour
    :func:`color` gives it, and each reference curve (e.g. OPT_t) once per panel.

    Args:
        summary: DataFrame with columns ``stream``, ``eps``, ``t``, ``method``, ``mean``, ``q10``, ``q90`` (one row
            per stream, eps, method and step t) and the reference columns (constant across methods at each t).
        ylabel: label of the utility axis (first column of panels).
        title: figure title.
        references: ``(column, matplotlib format, legend label)`` of each reference curve.

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
                ax.plot(g.t, g["mean"], lw=1.2, color=color(m), label=m)
                ax.fill_between(g.t, g.q10, g.q90, color=color(m), alpha=0.2, lw=0)
            o = sub.drop_duplicates("t")
            for column, fmt, label in references:
                ax.plot(o.t, o[column], fmt, lw=1, label=label)
            ax.set_title(f"{s}, $\\varepsilon$={e:g}")
            ax.set_xlabel("t (CO step)")
            if j == 0:
                ax.set_ylabel(ylabel)
    axes[0, 0].legend(loc="upper left", fontsize=6)
    fig.suptitle(title, y=1.0)
    fig.tight_layout()
    return fig
