"""table2: the paper's Table 2 (Theorem 42 applied to batch DP submodular maximisation) rendered from
:mod:`privtest.co.tables`, and its numeric instantiation: for each implemented batch algorithm and stream the
measured f(X_t, Y_t)/OPT_t of BatchToCO (median, worst), the additive gap, and Theorem 42's explicit guarantee.

Table 2's rows (:data:`privtest.co.table2.ROWS`, column ``table2_row``): rows 5-6 (eps-DP, decomposable monotone)
come from ``fig_co_submodular``'s raw table; rows 1, 3, 4 ((eps, delta)-DP batch algorithms) are simulated here
with BatchToCO at the global delta ``approx.delta`` (:func:`simulate_approx`): row 1 the facility-location stream
with private greedy under advanced-or-basic composition, rows 3-4 the cut objective on the CollegeMsg top-users
stream (:class:`privtest.co.kcut.CardinalityCut`) under a cardinality and a partition-matroid constraint; row 2
(Rafiey and Yoshida 2020) is evaluated, not run, by the analysis (:func:`privtest.analysis.table2.rafiey_yoshida_rows`).
The other CO applications (densest
subgraph, Max-Cut, the long streams) are summarised from their experiments' raw tables with ``table2_row`` empty.
Rendering: :func:`privtest.co.tables.to_markdown` / :func:`privtest.co.tables.to_latex`; analysis (the rows of
``figures/table2.csv``): :mod:`privtest.analysis.table2`; claims: :mod:`privtest.checks.table2`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest import data
from privtest.co.frames import METHOD, covered, plotted
from privtest.co.kcut import CardinalityCut
from privtest.co.maxcut import top_users_stream
from privtest.co.submodular import FacilityLocation
from privtest.co.table2 import ROWS, row_of_stream
from privtest.experiments import _co


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """The rows of ``figures/table2.csv`` but Table 2's row 2 (:func:`privtest.experiments._co.table_rows`, plus the
    run-level counts of :func:`run_counts` and the constant C_beta) from the raw tables of ``inputs``:
    ``raw_fig_co_densest``, ``raw_fig_co_submodular``, ``raw_fig_co_maxcut`` and ``raw_fig_co_crossover`` (the long
    streams, at their log-spaced recorded steps; same BatchToCO constants as densest subgraph), plus Table 2's rows 1,
    3, 4 (:func:`simulate_approx` with ``wheel_mpls_stops`` and ``wheel_collegemsg``; ``rng`` drives those runs) and the
    columns ``table2_row`` (1-6, NaN for the other applications) and ``delta`` (the global delta of the row's budget).
    """
    frames = simulate_approx(cfg, rng, inputs)

    def rows(part, sub, *args, **kw):
        exact_only = kw.get("exact_only", True)
        out = _co.table_rows(part, sub, *args, **kw).assign(C_beta=float(sub["C_beta"]))
        return out.merge(run_counts(part, exact_only), on=["stream", "eps"], how="left", validate="one_to_one")

    raw = pd.read_csv(inputs["raw_fig_co_densest"])
    frames.append(rows(raw, cfg["densest"], "noisy-degree prefix + EM (stand-in)"))
    raw = pd.read_csv(inputs["raw_fig_co_submodular"])
    for stream, algorithm in (
        ("mpls_stops", "private greedy + EM (Gupta et al. 2010 / Mitrovic et al. 2017), k-card."),
        ("mpls_stops_matroid", "private greedy + EM, partition matroid (1/2-approx.)"),
    ):
        if (raw.stream == stream).any():  # the matroid variant is optional (config fig_co_submodular.matroid)
            part = raw[raw.stream == stream]
            frames.append(rows(part, cfg["submodular"], algorithm, "facility location", exact_only=False))
    raw = pd.read_csv(inputs["raw_fig_co_maxcut"])
    frames.append(rows(raw, cfg["maxcut"], "exponential mechanism over all cuts", "Max-Cut"))
    raw = pd.read_csv(inputs["raw_fig_co_crossover"])
    for stream, algorithm in (
        ("primary_school_contacts", "noisy-degree prefix + EM (stand-in), one contact per step"),
        ("collegemsg_messages", "noisy-degree prefix + EM (stand-in), one message per step"),
        ("burst", "EM over node pairs (stand-in), synthetic burst stream"),
    ):
        if (raw.stream == stream).any():  # the streams are a config choice (fig_co_crossover.streams)
            frames.append(rows(raw[raw.stream == stream], cfg["densest"], algorithm))
    out = pd.concat(frames, ignore_index=True)
    out["table2_row"] = [row_of_stream(s) for s in out.stream]
    out["table2_row"] = out["table2_row"].astype("Int64")
    out["delta"] = out["delta"].fillna(0.0) if "delta" in out else 0.0
    return out


def simulate_approx(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> list[pd.DataFrame]:
    """Table 2's (eps, delta)-DP rows 1, 3 and 4 through BatchToCO with delta = ``cfg["approx"]["delta"]`` (Algorithm
    3's delta(i, t), GTM's purification, Lemma 38's ledger), baselines with the same (eps, delta) budget. Row 1:
    :class:`FacilityLocation` (``cfg["facility"]``: fig_co_submodular's k, grid, radius_km, step_days) with
    ``composition="advanced"``; rows 3, 4: :class:`CardinalityCut` on the top ``cfg["cut_users"]`` CollegeMsg users
    with k = ``approx.cut_k`` and the partition matroid ``approx.cut_matroid``. Each line adds ``delta``,
    ``delta_ledger_max`` (largest per-run ledger) and ``delta_budget`` (Lemma 38's worst case,
    :meth:`BatchToCOParams.privacy_budget`) to :func:`privtest.experiments._co.table_rows`."""
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
    frames = []
    for row, prob, exact in problems:
        name = ROWS[row].stream
        raw = _co.run_problem(prob, name, ap, rng)
        part = _co.table_rows(raw, ap, ROWS[row].algorithm, f"Table 2 row {row}", exact_only=exact)
        part = part.assign(C_beta=float(ap["C_beta"]), delta=float(ap["delta"]))
        part = part.merge(run_counts(raw, exact), on=["stream", "eps"], how="left", validate="one_to_one")
        b = raw[raw.method == METHOD]
        led = b.groupby("eps").delta_loss.max()
        part["delta_ledger_max"] = part.eps.map(led)
        part["delta_budget"] = [_co.co_params(ap, e).privacy_budget()["delta_total"] for e in part.eps]
        frames.append(part.merge(process_summary(raw), on="eps", how="left", validate="one_to_one"))
    return frames


def process_summary(raw: pd.DataFrame) -> pd.DataFrame:
    """Per eps of one stream's raw BatchToCO rows, what :mod:`privtest.checks.table2` needs for the checkpoint and
    calls claims of the rows simulated here (as :mod:`privtest.checks._co` checks them on the figures' raw tables):
    ``checkpoint_runs`` and ``checkpoint_runs_violating`` (runs whose largest Lemma 39(2) margin over their
    checkpoints is > 0), ``ell_T_max``, ``l39_margin_max``; and per run sum_t N_t / sum_t E[N_t] (t >= 2): its mean
    ``calls_ratio_mean``, standard error ``calls_ratio_se`` and number of runs ``calls_runs``."""
    b = raw[raw.method == METHOD]
    rows = []
    for eps, g in b.groupby("eps", sort=True):
        last = g[g.t == g.t.max()]
        margin = last.groupby("run")["l39_margin"].max()
        steps = g[g.t >= 2]
        ratio = steps.groupby("run")["gtm_calls"].sum() / steps.groupby("run")["expected_calls"].sum()
        n = int(ratio.size)
        rows.append(
            dict(
                eps=eps,
                checkpoint_runs=int(margin.size),
                checkpoint_runs_violating=int((margin > 0).sum()),
                ell_T_max=int(last.ell.max()),
                l39_margin_max=float(margin.max()),
                calls_ratio_mean=float(ratio.mean()),
                calls_ratio_se=float(ratio.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0,
                calls_runs=n,
            )
        )
    return pd.DataFrame(rows)


def run_counts(raw: pd.DataFrame, exact_only: bool = True) -> pd.DataFrame:
    """Per (stream, eps) of a CO raw table, over the same rows as :func:`privtest.experiments._co.table_rows` (its
    ``violations`` column): the number of BatchToCO runs with some covered step (:func:`covered`) where f(X_t, Y_t)
    is below Theorem 42's guarantee at V_hi (``runs_violating``, an upper end of the true count w.p. >= 1 -
    va_alpha) and at V_lo (``runs_violating_va_lo``, a lower end), the counts :mod:`privtest.checks.table2` judges
    against Theorem 42(2)'s failure probability (C_beta + 3) beta per run.

    Returns:
        DataFrame with columns stream, eps, runs_violating, runs_violating_va_lo (ints), one row per (stream, eps).
    """
    raw = plotted(raw if "source" not in raw else raw[raw.source == "run"])
    if exact_only:
        raw = raw[raw.opt_kind == "exact"]
    c = covered(raw)
    below = c.assign(hi=c.value < c.guarantee_va_hi, lo=c.value < c.guarantee_va_lo)
    per_run = below.groupby(["stream", "eps", "run"])[["hi", "lo"]].any().groupby(["stream", "eps"]).sum()
    keys = raw[["stream", "eps"]].drop_duplicates().set_index(["stream", "eps"])
    out = keys.join(per_run).fillna(0).astype(int).reset_index()
    return out.rename(columns={"hi": "runs_violating", "lo": "runs_violating_va_lo"})
