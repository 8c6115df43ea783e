"""The shared figure style (privtest_artifact.plotting): method colours, the continual-observation axis label, and where
co_crossover draws its crossover markers (inside the panel, clear of the spines and of the data)."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.mathtext import MathTextParser  # noqa: E402

from privtest_artifact import plotting  # noqa: E402
from privtest_artifact.hpo import PEER, PEER_RELEASED  # noqa: E402

HPO_METHODS = ("GTM (constant p*)", "GTM (adaptive p*)", "Cohen", PEER, PEER_RELEASED)


def test_hpo_methods_have_their_own_colours():
    # fig_hpo's methods are told apart by colour; OpenDP's selection is not drawn in Liu-Talwar's (or any other
    # method's) colour, so it cannot be read as the Liu-Talwar tester of the other figures
    assert all(m in plotting.METHOD_COLORS for m in HPO_METHODS)
    colours = [plotting.color(m) for m in HPO_METHODS]
    assert len(set(colours)) == len(colours)
    for m in (PEER, PEER_RELEASED, "GTM (adaptive p*)"):
        others = {k for k, c in plotting.METHOD_COLORS.items() if c == plotting.color(m) and k != m}
        assert not others, (m, others)
    assert plotting.color("GTM (constant p*)") == plotting.color("GTM")  # the GTM as in every other figure


def test_unknown_method_is_grey():
    assert plotting.color("no such method") == "#333333"


def test_co_step_label_is_mathtext():
    assert plotting.CO_STEP_LABEL.startswith("$t$")
    MathTextParser("agg").parse(plotting.CO_STEP_LABEL)  # raises on malformed math


def _crossover_figure(t_last: int):
    t = np.unique(np.geomspace(1, t_last, 30).round())
    rows = []
    for m in ("BatchToCO", "never update"):
        y = np.linspace(0, 1, len(t)) if m == "BatchToCO" else np.linspace(1, 0, len(t))  # data reaching 0 and 1
        rows += [
            dict(stream="burst", eps=1.0, method=m, t=ti, mean=yi, q10=yi, q90=yi) for ti, yi in zip(t, y, strict=True)
        ]
    crossings = pd.DataFrame(
        [dict(stream="burst", eps=1.0, baseline="never update", t_pred=float(t_last), t_meas=float(t_last))]
    )
    return plotting.co_crossover(pd.DataFrame(rows), crossings)


@pytest.mark.parametrize("t_last", [1000, 50000])
def test_crossover_markers_clear_of_spines_and_data(t_last):
    # a crossover at the stream's last step: the triangles must be whole (not cut by the axes edge), off the spines
    # and off the ratio's range [0, 1] where the curves are
    fig = _crossover_figure(t_last)
    fig.canvas.draw()
    ax = fig.axes[0]
    box = ax.get_window_extent()
    px = fig.dpi / 72.0
    spine = plt.rcParams["axes.linewidth"] / 2 * px
    markers = [ln for ln in ax.get_lines() if ln.get_marker() in ("v", "^")]
    assert {ln.get_marker() for ln in markers} == {"v", "^"}
    for ln in markers:
        radius = ln.get_markersize() / 2 * px
        x, y = ax.transData.transform((ln.get_xdata()[0], ln.get_ydata()[0]))
        assert box.x0 + radius <= x <= box.x1 - radius, ln.get_marker()
        assert box.y0 + radius + spine < y < box.y1 - radius - spine, ln.get_marker()
        _, y0 = ax.transData.transform((1, 0))
        _, y1 = ax.transData.transform((1, 1))
        assert y > y1 + radius or y < y0 - radius, ln.get_marker()
        assert ln.get_zorder() > 3  # over the BatchToCO curve
    plt.close(fig)
