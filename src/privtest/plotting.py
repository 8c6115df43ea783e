"""One figure style for every output: fonts, per-method colours, and byte-stable saving (no timestamps)."""

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


def save(fig, pdf_path: str | Path, png_path: str | Path) -> None:
    """Save ``fig`` as PDF and PNG without creation dates (reruns give identical bytes), each written atomically."""
    pdf_meta = {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}
    write_atomic(pdf_path, lambda tmp: fig.savefig(tmp, format="pdf", metadata=pdf_meta, bbox_inches="tight"))
    write_atomic(png_path, lambda tmp: fig.savefig(tmp, format="png", metadata={"Software": None}, bbox_inches="tight"))
    plt.close(fig)
