"""table2: the paper's Table 2 (Theorem 42 applied to batch DP submodular maximisation) rendered from
:mod:`privtest.co.tables`, and its numeric instantiation: for each implemented batch algorithm and stream the
measured f(X_t, Y_t)/OPT_t of BatchToCO (median, worst), the additive gap, and Theorem 42's explicit guarantee.

Table 2's rows (:data:`privtest.co.table2.ROWS`, column ``table2_row``): rows 5-6 (eps-DP, decomposable monotone)
come from ``fig_co_submodular``'s raw table; rows 1, 3, 4 ((eps, delta)-DP batch algorithms) are simulated here
with BatchToCO at the global delta ``approx.delta`` (:func:`simulate_approx`): row 1 the facility-location stream
with private greedy under advanced-or-basic composition, rows 3-4 the cut objective on the CollegeMsg top-users
stream (:class:`privtest.co.kcut.CardinalityCut`) under a cardinality and a partition-matroid constraint; row 2
(Rafiey and Yoshida 2020) is evaluated, not run, by the analysis (:func:`privtest.analysis.table2.rafiey_yoshida_rows`).
The other CO applications (densest subgraph, Max-Cut, the long streams) are summarised from their experiments' raw
tables with ``table2_row`` empty.

Raw rows (:func:`simulate`): the lines (``level = "line"``, one per (stream, eps)) and one row per BatchToCO run of
each line (``level = "run"``, :func:`run_rows`: the run's largest shortfall below Theorem 42(2)'s guarantee and, for
rows 1, 3, 4, its checkpoint margin, ell(T) and delta ledger), from which the analysis counts the violating runs.
Rendering: :func:`privtest.co.tables.to_markdown` / :func:`privtest.co.tables.to_latex`; analysis (the rows of
``figures/table2.csv``): :mod:`privtest.analysis.table2`; claims: :mod:`privtest.checks.table2`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest import data
from privtest.co.calls import run_ratios
from privtest.co.frames import METHOD, covered, plotted
from privtest.co.kcut import CardinalityCut
from privtest.co.maxcut import top_users_stream
from privtest.co.submodular import FacilityLocation
from privtest.co.table2 import ROWS, row_of_stream
from privtest.experiments import _co

#: Column ``level`` of the raw rows: a line of ``figures/table2.csv`` (one per (stream, eps)) or one BatchToCO run.
LINE, RUN = "line", "run"


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Raw rows of two levels (column ``level``).

    ``line``: the rows of ``figures/table2.csv`` but Table 2's row 2 and the run-level counts
    (:func:`privtest.experiments._co.table_rows` plus the constant C_beta) from the raw tables of ``inputs``:
    ``raw_fig_co_densest``, ``raw_fig_co_submodular``, ``raw_fig_co_maxcut`` and ``raw_fig_co_crossover`` (the long
    streams, at their log-spaced recorded steps; same BatchToCO constants as densest subgraph), plus Table 2's rows 1,
    3, 4 (:func:`simulate_approx` with ``wheel_mpls_stops`` and ``wheel_collegemsg``; ``rng`` drives those runs) and the
    columns ``table2_row`` (1-6, NaN for the other applications) and ``delta`` (the global delta of the row's budget).

    ``run``: one row per BatchToCO run of each line (:func:`run_rows`), from which
    :mod:`privtest.analysis.table2` counts the violating runs.
    """
    lines, runs = simulate_approx(cfg, rng, inputs)

    def add(part, sub, algorithm, application="densest subgraph", exact_only=True):
        lines.append(
            _co.table_rows(part, sub, algorithm, application, exact_only=exact_only).assign(C_beta=float(sub["C_beta"]))
        )
        runs.append(run_rows(part, application, exact_only))

    raw = pd.read_csv(inputs["raw_fig_co_densest"])
    add(raw, cfg["densest"], "noisy-degree prefix + EM (stand-in)")
    raw = pd.read_csv(inputs["raw_fig_co_submodular"])
    for stream, algorithm in (
        ("mpls_stops", "private greedy + EM (Gupta et al. 2010 / Mitrovic et al. 2017), k-card."),
        ("mpls_stops_matroid", "private greedy + EM, partition matroid (1/2-approx.)"),
    ):
        if (raw.stream == stream).any():  # the matroid variant is optional (config fig_co_submodular.matroid)
            part = raw[raw.stream == stream]
            add(part, cfg["submodular"], algorithm, "facility location", exact_only=False)
    raw = pd.read_csv(inputs["raw_fig_co_maxcut"])
    add(raw, cfg["maxcut"], "exponential mechanism over all cuts", "Max-Cut")
    raw = pd.read_csv(inputs["raw_fig_co_crossover"])
    for stream, algorithm in (
        ("primary_school_contacts", "noisy-degree prefix + EM (stand-in), one contact per step"),
        ("collegemsg_messages", "noisy-degree prefix + EM (stand-in), one message per step"),
        ("burst", "EM over node pairs (stand-in), synthetic burst stream"),
    ):
        if (raw.stream == stream).any():  # the streams are a config choice (fig_co_crossover.streams)
            add(raw[raw.stream == stream], cfg["densest"], algorithm)
    out = pd.concat(lines, ignore_index=True)
    out["table2_row"] = [row_of_stream(s) for s in out.stream]
    out["table2_row"] = out["table2_row"].astype("Int64")
    out["delta"] = out["delta"].fillna(0.0) if "delta" in out else 0.0
    return pd.concat([out.assign(level=LINE), pd.concat(runs, ignore_index=True).assign(level=RUN)], ignore_index=True)


def simulate_approx(
    cfg: dict, rng: np.random.Generator, inputs: dict[str, str]
) -> tuple[list[pd.DataFrame], list[pd.DataFrame]]:
    """Table 2's (eps, delta)-DP rows 1, 3 and 4 through BatchToCO with delta = ``cfg["approx"]["delta"]`` (Algorithm
    3's delta(i, t), GTM's purification, Lemma 38's ledger), baselines with the same (eps, delta) budget. Row 1:
    :class:`FacilityLocation` (``cfg["facility"]``: fig_co_submodular's k, grid, radius_km, step_days) with
    ``composition="advanced"``; rows 3, 4: :class:`CardinalityCut` on the top ``cfg["cut_users"]`` CollegeMsg users
    with k = ``approx.cut_k`` and the partition matroid ``approx.cut_matroid``.

    Returns:
        (lines, runs): per row, the lines of :func:`privtest.experiments._co.table_rows` with ``C_beta``, ``delta``
        and ``delta_budget`` (Lemma 38's worst case, :meth:`BatchToCOParams.privacy_budget`); and its runs
        (:func:`run_rows` with the checkpoint, ledger and calls columns).
    """
    ap, fac = cfg["approx"], cfg["facility"]
    problems = []
    if ROWS[1].stream:
        prob = FacilityLocation(
            data.mpls_stops(inputs["wheel_mpls_stops"]),
            k=fac["k"],
            grid=fac["grid"],
            radius_km=fac["radius_km"],
            T_max=cfg["T_max"].get("mpls_stops"),
            step_days=fac["step_days"],
            composition="advanced",
        )
        problems.append((1, prob, False))
    n, edges = top_users_stream(data.collegemsg(inputs["wheel_collegemsg"]), cfg["cut_users"])
    problems.append((3, CardinalityCut(n, edges, k=ap["cut_k"], name=f"CollegeMsg top {n}, cut, k-card."), True))
    mat = ap["cut_matroid"]
    prob = CardinalityCut(
        n, edges, k=ap["cut_k"], groups=mat["groups"], cap=mat["cap"], name=f"CollegeMsg top {n}, cut, matroid"
    )
    problems.append((4, prob, True))
    lines, runs = [], []
    for row, prob, exact in problems:
        name = ROWS[row].stream
        raw = _co.run_problem(prob, name, ap, rng)
        part = _co.table_rows(raw, ap, ROWS[row].algorithm, f"Table 2 row {row}", exact_only=exact)
        part = part.assign(C_beta=float(ap["C_beta"]), delta=float(ap["delta"]))
        part["delta_budget"] = [_co.co_params(ap, e).privacy_budget()["delta_total"] for e in part.eps]
        lines.append(part)
        runs.append(run_rows(raw, f"Table 2 row {row}", exact, process=True))
    return lines, runs


def run_rows(raw: pd.DataFrame, application: str, exact_only: bool = True, process: bool = False) -> pd.DataFrame:
    """One row per BatchToCO run of a CO raw table, per (stream, eps), sorted, labelled with the line's
    ``application`` (column ``application``: the lines of one table2 raw table are told apart by (application,
    stream, eps)): what
    :mod:`privtest.analysis.table2` counts (a run-level outcome of the run's steps, not a count over runs).

    Over the same steps as :func:`privtest.experiments._co.table_rows`' ``violations`` (the :func:`covered` steps,
    where OPT_t is exact if ``exact_only``): ``utility_margin_va_hi`` and ``utility_margin_va_lo``, the run's largest
    Theorem 42(2) guarantee at V_hi (V_lo) minus f(X_t, Y_t) (> 0: the run falls below the guarantee at some step;
    NaN where no covered step has a guarantee there). With ``process`` (the lines simulated here), at the run's last
    step T: ``l39_margin`` (its largest Lemma 39(2) margin over its checkpoints, > 0 violates Lemma 39(2)), ``ell``
    (ell(T)) and ``delta_loss`` (its realised delta ledger, Lemma 38); and over its steps t >= 2 (where a GTM step
    runs) ``calls_ratio``, sum_t N_t / sum_t E[N_t] (Theorem 42(3), :func:`privtest.co.calls.run_ratios`).

    Returns:
        DataFrame with columns application, stream, eps, run, utility_margin_va_hi, utility_margin_va_lo (and with
        ``process`` l39_margin, ell, delta_loss, calls_ratio).
    """
    keys = ["stream", "eps", "run"]
    runs = plotted(raw if "source" not in raw else raw[raw.source == "run"])
    b = runs[runs.method == METHOD]
    c = covered(b[b.opt_kind == "exact"] if exact_only else b)
    margins = (
        c.assign(utility_margin_va_hi=c.guarantee_va_hi - c.value, utility_margin_va_lo=c.guarantee_va_lo - c.value)
        .groupby(keys)[["utility_margin_va_hi", "utility_margin_va_lo"]]
        .max()
    )
    out = b[keys].drop_duplicates().set_index(keys).sort_index().join(margins)
    if process:
        last = b[b.t == b.groupby(["stream", "eps"]).t.transform("max")].set_index(keys)
        out = out.join(last[["l39_margin", "ell"]]).join(b.groupby(keys).delta_loss.max())
        steps = b[b.t >= 2].groupby(["stream", "eps"])
        calls = pd.concat({key: run_ratios(g) for key, g in steps}, names=["stream", "eps"])
        out = out.join(calls.rename("calls_ratio"))
    return out.reset_index().assign(application=application)
