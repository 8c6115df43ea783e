"""The shared figure style (privtest_artifact.plotting): one colour per method and a separate palette for roles, the
only source of colours in the figure notebooks; one notation for the privacy ratio and one name per stream; Monte
Carlo rates with their confidence intervals; coinciding curves told apart; the continual-observation axis label, and
where co_crossover draws its crossover markers (inside the panel, clear of the spines and of the data, one per
baseline even when several baselines are crossed at one step); save's crop and byte-stable files."""

import json
import re
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.mathtext import MathTextParser  # noqa: E402
from privtest_workflow import catalogue  # noqa: E402

from privtest.measure import clopper_pearson  # noqa: E402
from privtest_artifact import plotting  # noqa: E402
from privtest_artifact.hpo import PEER, PEER_RELEASED  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FIGURES = sorted(o.id for o in catalogue.load(ROOT).values() if o.kind == "figure")

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


def test_one_colour_per_method_and_roles_apart():
    # a colour names one method (or names of one method, SAME_METHOD) in every figure, and no role has a method's
    # colour: red was Cohen et al. in the comparisons, "should continue" and "not private" elsewhere
    by_colour: dict[str, set] = {}
    for method, c in plotting.METHOD_COLORS.items():
        by_colour.setdefault(c.lower(), set()).add(method)
    aliases = [set(group) for group in plotting.SAME_METHOD]
    shared = [names for names in by_colour.values() if len(names) > 1]
    assert all(any(names <= group for group in aliases) for names in shared), shared
    roles = [c.lower() for c in plotting.ROLE_COLORS.values()]
    assert len(set(roles)) == len(roles)
    assert not set(roles) & set(by_colour), set(roles) & set(by_colour)
    assert {"should halt", "should continue", "private", "not private"} <= set(plotting.ROLE_COLORS)
    with pytest.raises(ValueError, match="role must be one of"):
        plotting.role_color("broken")
    # a line drawn without a colour is neutral, neither a method nor a role
    cycle = [c for c in plotting.STYLE["axes.prop_cycle"].by_key()["color"]]
    assert not {str(c).lower() for c in cycle} & (set(by_colour) | set(roles))


def _code(figure: str) -> str:
    cells = json.loads((ROOT / "notebooks" / f"{figure}.ipynb").read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


#: A colour written in a notebook instead of taken from plotting: hex codes, tab10 or cycle names, colormaps, colour
#: keywords with a literal (other than "white" hatch edges and "none" fills), format strings with a colour letter.
_LITERAL_COLOUR = re.compile(
    r"#[0-9a-fA-F]{6}\b|[\"']tab:|plt\.cm\.|get_cmap|[\"']C\d[\"']"
    r"|(?:color|colors|edgecolors?|facecolors?|mfc|mec)=[\"'](?!white[\"']|none[\"'])"
    r"|[\"'][bgrcmyk](?:--|-\.|[-:.ox^vsD*+])[\"']"
)


@pytest.mark.parametrize("figure", FIGURES)
def test_notebooks_take_every_colour_from_plotting(figure):
    found = [m[0] for m in _LITERAL_COLOUR.finditer(_code(figure))]
    assert not found, f"{figure}: colours written in the notebook, not taken from plotting: {found}"


def test_the_literal_colour_check_can_fail():
    for bad in ('ax.plot(x, y, color="#d62728")', 'b.plot(x, y, "k--")', 'a.bar(x, y, color="tab:red")',
                'plt.cm.viridis(0.5)', 'ax.plot(x, y, color="k", lw=1)', 'ax.plot(x, y, "ro")'):  # fmt: skip
        assert _LITERAL_COLOUR.search(bad), bad
    for good in ('ax.plot(x, y, "--", color=plotting.REFERENCE)', 'ax.bar(x, y, edgecolor="white")',
                 'ax.plot(x, y, "o", mfc="none")', 'ax.set(xscale="log")', 'df[["t", "c"]]'):  # fmt: skip
        assert not _LITERAL_COLOUR.search(good), good


@pytest.mark.parametrize("figure", FIGURES)
def test_one_privacy_ratio_notation_and_a_message_on_every_figure(figure):
    code = _code(figure)
    # eps_t/eps through plotting.eps_ratio / EPS_RATIO (fig_expost's eps_t/eps_C is another quantity)
    assert not re.search(r"varepsilon_[1t]/\\\\varepsilon(?!_)", code), figure
    # a suptitle: the figure's message (the continual-observation helpers take it as their title)
    assert re.search(r"suptitle\(|plotting\.co_utility\(|plotting\.co_crossover\([^)]*title=", code, re.S), figure


def test_eps_ratio_is_the_papers_notation():
    assert plotting.eps_ratio(0.1) == "$\\varepsilon_t/\\varepsilon$=0.1"
    MathTextParser("agg").parse(plotting.eps_ratio(0.05))


def test_a_data_set_has_one_name_in_every_figure():
    # the primary-school stream was "SocioPatterns primary school" in one figure and "primary school" in another
    names = {s: plotting.stream_name(s) for s in plotting.STREAM_NAMES}
    for data_set, name in (("primary_school", "primary school"), ("collegemsg", "CollegeMsg")):
        assert all(n.split(",")[0] == name for s, n in names.items() if s.startswith(data_set)), names
    assert plotting.stream_name("collegemsg_top18").startswith("CollegeMsg,")


def test_binomial_rate_draws_intervals_and_upper_limits():
    fig, ax = plt.subplots()
    k, n = np.array([0, 5, 100]), np.array([1000, 100, 100])
    plotting.binomial_rate(ax, [1, 2, 3], k, n, "#123456", "rate")
    low, high = clopper_pearson(k, n)
    # k = 0: a hollow down-triangle at the 95% upper limit, not a point at 0 (which a log axis cannot show)
    (limit,) = [ln for ln in ax.get_lines() if ln.get_marker() == "v"]
    assert limit.get_mfc() == "none" and limit.get_ydata()[0] == pytest.approx(high[0])
    assert "none observed (95% upper limit)" in limit.get_label()
    # k > 0: the rate with its two-sided Clopper-Pearson interval as an error bar
    (bars,) = ax.containers
    points, _, (segments,) = bars
    assert list(points.get_ydata()) == pytest.approx([0.05, 1.0])
    ends = np.array([seg[:, 1] for seg in segments.get_segments()])
    assert ends == pytest.approx(np.column_stack([low[1:], high[1:]]))
    assert bars.get_label() == "rate (95% CI)"
    with pytest.raises(ValueError, match="one length"):
        plotting.binomial_rate(ax, [1, 2], [0], [1], "k", None)
    plt.close(fig)


def test_coinciding_curves_are_grouped():
    # Cohen et al.'s budget 2 beta and Liu-Talwar's 2 beta + delta coincide; the GTM's beta does not
    beta = np.array([0.01, 0.1])
    groups = plotting.coinciding({"GTM": beta, "Cohen": 2 * beta, "LiuTalwar": 2 * beta + 1e-6})
    assert groups == [["GTM"], ["Cohen", "LiuTalwar"]]
    assert plotting.coinciding({"a": [1.0, 2.0], "b": [1.0, 2.5]}) == [["a"], ["b"]]
    with pytest.raises(ValueError, match="one length"):
        plotting.coinciding({"a": [1.0], "b": [1.0, 2.0]})


def _crossover_figure(t_last: int, baselines=("never update",), stream_eps=((1.0, True),)):
    t = np.unique(np.geomspace(1, t_last, 30).round())
    rows, crossings = [], []
    for e, crossed in stream_eps:
        for m in ("BatchToCO", *baselines):
            y = np.linspace(0, 1, len(t)) if m == "BatchToCO" else np.linspace(1, 0, len(t))  # reaching 0 and 1
            rows += [
                dict(stream="burst", eps=e, method=m, t=ti, mean=yi, q10=yi, q90=yi)
                for ti, yi in zip(t, y, strict=True)
            ]
        at = float(t_last) if crossed else np.inf
        crossings += [dict(stream="burst", eps=e, baseline=b, t_pred=at, t_meas=at) for b in baselines]
    return plotting.co_crossover(pd.DataFrame(rows), pd.DataFrame(crossings), title="a message")


def _markers(ax):
    return [ln for ln in ax.get_lines() if ln.get_marker() in ("v", "^")]


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
    markers = _markers(ax)
    assert {ln.get_marker() for ln in markers} == {"v", "^"}
    for ln in markers:
        radius = ln.get_markersize() / 2 * px
        x, y = ln.get_transform().transform((ln.get_xdata()[0], ln.get_ydata()[0]))
        assert box.x0 + radius <= x <= box.x1 - radius, ln.get_marker()
        assert box.y0 + radius + spine < y < box.y1 - radius - spine, ln.get_marker()
        _, y0 = ax.transData.transform((1, 0))
        _, y1 = ax.transData.transform((1, 1))
        assert y > y1 + radius or y < y0 - radius, ln.get_marker()
        assert ln.get_zorder() > 3  # over the BatchToCO curve
    plt.close(fig)


def test_baselines_crossed_at_one_step_each_show_their_colour():
    # three baselines crossed at the same step were drawn on top of each other: only the last colour showed
    baselines = ("recompute every step", "recompute geometric", "never update")
    fig = _crossover_figure(20000, baselines)
    fig.canvas.draw()
    ax = fig.axes[0]
    box = ax.get_window_extent()
    px = fig.dpi / 72.0
    for marker in ("v", "^"):
        marks = [ln for ln in _markers(ax) if ln.get_marker() == marker]
        assert sorted(ln.get_color() for ln in marks) == sorted(plotting.color(b) for b in baselines)
        xs = sorted(ln.get_transform().transform((ln.get_xdata()[0], 0))[0] for ln in marks)
        radius = marks[0].get_markersize() / 2 * px
        assert all(b - a >= 2 * radius for a, b in zip(xs, xs[1:], strict=False)), (
            xs
        )  # side by side, not on top of each other
        assert box.x0 + radius <= xs[0] and xs[-1] <= box.x1 - radius, xs
    plt.close(fig)


def test_a_panel_without_crossover_says_so():
    fig = _crossover_figure(1000, stream_eps=((1.0, True), (8.0, False)))
    crossed, none = fig.axes[:2]
    assert not _markers(none) and any("no crossover" in t.get_text() for t in none.texts)
    assert _markers(crossed) and not any("no crossover" in t.get_text() for t in crossed.texts)
    assert fig._suptitle.get_text() == "a message"
    plt.close(fig)


def _titled_figure():
    plotting.setup()
    fig, axes = plt.subplots(1, 2, figsize=(5, 2.5))
    for ax in axes:
        ax.plot([1, 10, 100], [1, 2, 3], label="$p^*$ = 0.5")
        ax.set_xscale("log")
        plotting.legend_under(ax)
    plotting.suptitle(fig, f"A title with {plotting.EPS_RATIO} long enough to be wrapped onto two lines " * 2)
    return fig


def test_save_crops_as_savefig_tight_and_reruns_give_identical_bytes(tmp_path):
    """save measures the tight bounding box once for both files: the PNG is the one savefig(bbox_inches="tight")
    writes, and a rerun writes the same PDF and PNG."""
    for run in ("a", "b"):
        plotting.save(_titled_figure(), tmp_path / f"{run}.pdf", tmp_path / f"{run}.png")
    fig = _titled_figure()
    fig.savefig(tmp_path / "tight.png", metadata={"Software": None}, bbox_inches="tight")
    plt.close(fig)
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "tight.png").read_bytes()
    for ext in ("pdf", "png"):
        assert (tmp_path / f"a.{ext}").read_bytes() == (tmp_path / f"b.{ext}").read_bytes()
