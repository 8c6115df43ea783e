"""table1: columns contract, explicit reasons for inapplicable cells, rendering from privtest.bounds.TABLE1, and the
Table 1 figure experiments on tiny configurations."""

import math

import numpy as np
import pandas as pd
import pytest

from privtest import bounds
from privtest_artifact import tables
from privtest_artifact.claims import decide
from privtest_artifact.outputs import (
    fig_lower_bounds,
    fig_noise_penalty,
    fig_random_dropping,
    fig_rejection_threshold,
    table1,
)

GTM = dict(eps=1.0, beta=0.05, theta=1.0, gamma=1.5)
REQUIRED = [
    "method",
    "eps",
    "eps1",
    "beta",
    "T",
    "pstar",
    "theta",
    "gamma",
    "eps0",
    "delta",
    "privacy",
    "noise_penalty",
    "pbar_theory",
    "samples_theory",
    "pbar_measured",
    "samples_measured",
    "runs",
]

ALPHA_OUT = 0.05 / 22  # the family-wise level of one output (privtest_artifact.claims.family_alpha)


def _tiny_table(ratios=(0.1, 0.5)):
    cfg = dict(
        GTM,
        methods=["GTM", "Cohen", "LiuTalwar"],
        eps_ratio=list(ratios),
        T=[20],
        pstar=[0.2, 0.9],
        delta=1e-6,
        eps0="auto",
        runs=300,
        run_steps=10**6,
        type2_runs=300,
        grid_step=0.05,
    )
    return cfg, table1.simulate(cfg, np.random.default_rng(0), {})


def test_table1_columns_and_reasons():
    cfg, df = _tiny_table()
    assert set(REQUIRED) <= set(df.columns)
    assert set(df.method) == {"GTM", "Cohen", "LiuTalwar", "LowerBound"}
    # eps_1/eps = 0.5 means eps <= 2 eps_1: Cohen does not apply and says why (not a blank row).
    na = df[(df.method == "Cohen") & (df.eps_ratio == 0.5)]
    assert len(na) == 2 and na.note.str.contains("eps > 2 eps_1").all() and na.pbar_theory.isna().all()
    # Free parameters a method does not use are empty; the lower bound is not measured and says so.
    assert df[df.method == "GTM"].eps0.isna().all() and df[df.method == "LiuTalwar"].gamma.isna().all()
    lb = df[df.method == "LowerBound"]
    assert lb.pbar_measured.isna().all() and lb.note.str.contains("not a tester").all()
    assert lb[lb.pstar > 0.5].note.str.contains("p\\* <= 1/2").all()
    # Measured thresholds are real numbers below p* and never below the guaranteed ones by construction of the
    # claims (checked in privtest_artifact.outputs.table1), and the theoretical columns match privtest.bounds exactly.
    g = df[(df.method == "GTM") & (df.eps_ratio == 0.1) & (df.pstar == 0.2)].iloc[0]
    assert g.pbar_theory == bounds.gtm_rejection_threshold(20, 0.2, 1.0, 0.1, 0.05, 1.0, 1.5)
    assert 0 < g.pbar_measured < 0.2
    claims = decide(table1.claims(table1.analyse(df, cfg), cfg), ALPHA_OUT)
    assert {c.verdict for c in claims} <= {"PASS", "INCONCLUSIVE", "ERRATUM"}
    assert any(c.claim_id.startswith("table1.gtm_above_cohen") for c in claims)


def test_table1_rendering_from_code_objects():
    tex = tables.table1_tex()
    assert tex.count("\\toprule") == 2 and tex.count("\\bottomrule") == 2 and tex.count("\\midrule") == 2
    assert tex.count("{") == tex.count("}")
    printed_tex = tex.split("(b) Explicit")[0]
    for e in bounds.TABLE1:  # the lower bound is not a column of the paper's table: explicit form only
        assert e.explicit in tex and (e.paper in printed_tex) == (e.method in tables.PRINTED_METHODS)
    md = tables.table1_md(pd.DataFrame(columns=table1.COLUMNS))
    assert "| Privacy guarantee |" in md and "Lower bound" in md
    # "as printed" is the paper's Table 1: its three columns (no lower bound), its caption, dagger and footnote
    printed = md.split("## As printed in the paper")[1].split("## Explicit")[0]
    assert tables.markdown_column_counts(printed) == [1 + len(tables.PRINTED_METHODS)] and "Lower bound" not in printed
    assert tables.PRINTED_CAPTION in printed and printed.count(" †") == 2 and f"† {tables.PRINTED_FOOTNOTE}" in printed
    explicit_md = md.split("## Explicit quantities evaluated here")[1]
    assert tables.FOURTH_COLUMN in explicit_md and tables.markdown_column_counts(explicit_md)[0] == 5
    assert "Lower bound" not in printed_tex and "\\begin{tabular}{llll}" in printed_tex
    # the explicit row says which form of Lambda_t each column uses (Liu-Talwar: nominal p*)
    explicit = md.split("## Explicit quantities evaluated here")[1].split("Sources:")[0]
    assert "nominal $p^*$" in explicit and "2\\gamma\\Lambda_t" in explicit


def test_figure_experiments_tiny():
    rng = np.random.default_rng(1)
    noise = fig_noise_penalty.simulate(
        dict(
            GTM, eps_ratio=0.1, pstar=0.5, eps0=0.02, delta=1e-6, eps_C=1.0, C_H=2.0, thetas=[1.0], t_max=1000, points=5
        ),
        rng,
        {},
    )
    assert {"GTM optimal theta", "Liu-Talwar (from its halting threshold)", "Cohen et al."} <= set(noise.curve)
    assert "LiuTalwar nominal" in set(noise.method)
    cfg = dict(
        GTM,
        eps_ratio=0.1,
        T=20,
        delta=1e-6,
        eps0=0.02,
        points=5,
        methods=["GTM", "Cohen"],
        measured_pstar=[0.5],
        runs=200,
        grid_step=0.05,
    )
    rej = fig_rejection_threshold.simulate(cfg, rng, {})
    assert (rej.kind == "measured").sum() == 2
    assert {
        c.verdict
        for c in decide(fig_rejection_threshold.claims(fig_rejection_threshold.analyse(rej, cfg), cfg), ALPHA_OUT)
    } <= {
        "PASS",
        "INCONCLUSIVE",
    }
    cfg = dict(
        GTM,
        eps_ratio=0.1,
        pstar=0.2,
        eps0=0.02,
        delta=1e-6,
        betas_a=[0.1],
        T_min=10,
        T_max=1000,
        points=4,
        betas_b=[0.1],
        T_samples=20,
        runs=100,
    )
    lbs = fig_lower_bounds.simulate(cfg, rng, {})
    assert set(lbs.panel) == {"a", "b", "c"}
    assert "FAIL" not in {
        c.verdict for c in decide(fig_lower_bounds.claims(fig_lower_bounds.analyse(lbs, cfg), cfg), ALPHA_OUT)
    }
    cfg = dict(GTM, eps_ratio=0.1, pstar=0.5, pbar=2e-4, G=1, T=[10, 100], runs=200, runs_gtm=100)
    rd = fig_random_dropping.simulate(cfg, rng, {})
    assert set(rd.method) == {"Cohen", "Ghazi", "GTM"} and (rd.events <= rd.runs).all()
    summary = fig_random_dropping.analyse(rd, cfg)["summary"]
    assert ((summary.ci_low <= summary.rate) & (summary.rate <= summary.ci_high)).all()


@pytest.mark.parametrize("t", [2, 100, 10**4, 10**6])
def test_liu_talwar_penalty_from_halting_is_table1_form(t):
    """ERRATA.md's derivation: measured from Theorem 46(4)'s halting threshold p_h, Liu-Talwar's penalty
    odds(p_h)/odds(pbar_t) is (2 e^{2 eps_0}/(1 - p*)) ((t+1)/beta^2)^sigma_LT (Table 1's (t/beta^2)^sigma up to
    lower-order terms) as Phi_Delta(x) -> odds(x) for large N; eq. 25's finite N adds < 25% at t <= 2 and < 0.1% from
    t = 100 on. The nominal p*/pbar_t lacks the (1/beta)^sigma factor of 46(4)."""
    cfg = dict(eps=1.0, eps_ratio=0.1, beta=0.05, delta=1e-6, eps0=0.02, pstar=0.5)
    log10_pen = fig_noise_penalty.liu_talwar_penalty_from_halting(t, cfg)
    sigma = bounds.sigma_LT(1.0, 0.1, 0.02)
    log10_bound = math.log10(2 * math.exp(0.04) / 0.5) + sigma * math.log10((t + 1) / 0.05**2)
    assert log10_bound <= log10_pen <= log10_bound + (math.log10(1.25) if t < 100 else math.log10(1.001))
    nominal = math.log10(bounds.liu_talwar_noise_penalty(t, 1.0, 0.1, 0.05, 0.02))
    assert log10_pen - nominal == pytest.approx(sigma * math.log10(20) + math.log10(2 * math.exp(0.02)), abs=0.05)


def test_table1_factor_is_the_printed_gtm_over_cohen_threshold():
    # beta = 1/4, theta = 2, gamma = 2, eps_1/eps = 1/4, T = 4, p* = 1/2: GTM's printed pbar 1/128 over Cohen's 1/64
    cfg = {"beta": 0.25, "theta": 2.0, "gamma": 2.0}
    assert table1.table1_factor(0.25, 4, 0.5, cfg) == pytest.approx(0.5, rel=1e-12)
