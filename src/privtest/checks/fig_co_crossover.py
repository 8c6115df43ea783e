"""Claims of fig_co_crossover: per (stream, eps, baseline) the measured lead of BatchToCO has the sign predicted from
the explicit constants (the crossover); per (stream, eps) Lemma 40's checkpoint count and Theorem 42(3)'s calls per
step up to t = T against their explicit bounds, Theorem 42(2) wherever it is not vacuous, and the realised privacy."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from privtest.analysis import fig_co_crossover as analysis_module
from privtest.checks import _co
from privtest.claims import Claim, Normal, exact, fmt, statistical
from privtest.co.params import BatchToCOParams

PREFIX = "co.crossover"
#: A-priori range of one run's lead (a difference of two f/OPT_t in [0, 1]): where every run gives the same lead
#: (standard error 0) the cell is decided by :class:`privtest.claims.Normal`'s bounded-range test on it.
LEAD_SPAN = (-1.0, 1.0)


def claims(raw: pd.DataFrame, cfg: dict, analysis: dict[str, pd.DataFrame] | None = None) -> list[Claim]:
    """The claims of the module docstring (prefix ``co.crossover``).

    Args:
        raw: the raw rows (``results/raw/fig_co_crossover.csv``); read only when ``analysis`` is None.
        cfg: the config section (``equivalence_margin``, BatchToCO's constants, and the analysis keys the analysis
            used, for the notes).
        analysis: the tables of :func:`privtest.analysis.fig_co_crossover.analyse` (``differences``,
            ``crossovers``, ``privacy``, ``checkpoints``, ``calls``, ``utility``; the workflow passes those of
            ``results/analysis/fig_co_crossover/``); None computes them.
    """
    if analysis is None:
        analysis = analysis_module.analyse(raw, cfg)
    out = _crossover_claims(analysis, cfg)
    calls = analysis["calls"].set_index(["stream", "eps"])
    utility = analysis["utility"].set_index(["stream", "eps"])
    for r in analysis["checkpoints"].itertuples():
        params = BatchToCOParams.from_config(cfg, float(r.eps))
        key = (r.stream, r.eps)
        out += _long_run_claims(r, calls.loc[key], utility.loc[key], params, cfg, f"{r.stream},eps={r.eps}")
    out += [_co.privacy_claim(r, f"{PREFIX}.privacy_budget[eps={r.eps}]") for r in analysis["privacy"].itertuples()]
    return out


def _crossover_claims(analysis: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """One claim per (stream, eps, baseline): at every recorded step where the prediction is not a tie, BatchToCO's
    measured lead has the predicted sign (cells: Normal evidence of the measured lead, at_least 0 where predicted
    ahead, at_most 0 where predicted behind); where the prediction is a tie everywhere, the measured lead at T lies
    within +-equivalence_margin. A cell whose runs all give the same lead (standard error 0, e.g. both methods at
    f = 0 or at f = OPT_t in every run) is decided by the bounded-range test on :data:`LEAD_SPAN`, not as exact: a
    tie of 4 identical runs is INCONCLUSIVE, with the runs that would resolve it."""
    diffs = analysis["differences"]
    summary = analysis["crossovers"].set_index(["stream", "eps", "baseline"])
    margin = float(cfg["equivalence_margin"])
    out = []
    for (stream, eps, baseline), f in diffs.groupby(["stream", "eps", "baseline"], sort=False):
        s = summary.loc[(stream, eps, baseline)]
        n = float(f.runs.iloc[0])
        f2 = f[(f.t >= 2) & (f.state_pred != 0)]
        cells = [
            Normal(
                float(r.d_meas),
                float(r.se_meas),
                n,
                "at_least" if r.state_pred > 0 else "at_most",
                0.0,
                f"t={r.t}",
                span=LEAD_SPAN,
            )
            for r in f2.itertuples()
        ]
        last = f.iloc[-1]
        if not cells:
            cells = [
                Normal(
                    float(last.d_meas),
                    float(last.se_meas),
                    n,
                    "within",
                    (-margin, margin),
                    f"t={last.t}",
                    span=LEAD_SPAN,
                )
            ]
            bound = f"|lead at T| <= {margin} (predicted: tie at every step, no crossover)"
        else:
            bound = (
                f"lead >= 0 at the {int(s.steps_pred_ahead)} steps predicted ahead, <= 0 at the "
                f"{int(s.steps_pred_behind)} predicted behind"
            )
        out.append(
            statistical(
                claim_id=f"{PREFIX}.lead[{stream},eps={eps},{baseline}]",
                source="Thm 42, Alg 3 constants",
                statement=f"BatchToCO vs {baseline} ({s.model}): the lead in f/OPT_t has the sign predicted from "
                "Algorithm 3's per-call eps (the batch algorithm at eps_batch, ThresholdSelect's output law) at "
                "every recorded step; crossover t_pred",
                measured=f"crossover measured {_t(s.t_meas)}, predicted {_t(s.t_pred)} (with Lemma 40's ell "
                f"{_t(s.t_pred_lemma40)}; per-call eps crossover {_t(s.t_eps)}); at T = {int(s['T'])} {s.state_last} "
                f"by {float(s.diff_last):+.3f} {_spread(float(s.se_last))}, trend {float(s.slope_last_decade):+.3f}"
                "/decade",
                bound=bound,
                evidence=cells,
                note="crossover = first t where BatchToCO is ahead and never behind afterwards (ahead/behind at "
                f"level {cfg['crossover_alpha']} per pair, Bonferroni over t, ties below {cfg['tie_tolerance']}); "
                "figures/data/fig_co_crossover_summary.csv",
            )
        )
    return out


def _long_run_claims(cp, calls, utility, params: BatchToCOParams, cfg: dict, tag: str) -> list[Claim]:
    """Per (stream, eps): Lemma 40 (``cp``: a row of the table ``checkpoints``), Theorem 42(3)'s explicit bound on
    E[N_t] and the calls against their expectation (``calls``: a row of ``calls``) and Theorem 42(2) (``utility``:
    a row of ``utility``)."""
    out = [_co.checkpoint_claim(cp, params, f"{PREFIX}.checkpoints[{tag}]")]
    out[0] = dataclasses.replace(out[0], measured=f"{out[0].measured}; Lemma 40's bound at T {int(cp.ell_bound_T)}")
    out.append(
        exact(
            claim_id=f"{PREFIX}.calls_vs_bound[{tag}]",
            source="Thm 42(3), Cor 35(3)",
            statement="E[N_t] of every GTM step <= rho_s e^{1/C_1}/(1 - 2/(C_H ln(4/beta_s))) "
            "= O(ln(t/beta)/(p*(gamma-1)^2)) up to t = T",
            measured=f"max E[N_t]/bound {fmt(float(calls.max_expected_ratio))} over {int(calls.steps)} (run, t); "
            f"E[N_T] {fmt(float(calls.expected_calls_T))}",
            bound="<= 1",
            ok=int(calls.steps_over_bound) == 0,
            note="exact expectation at the recorded steps (the measured means are checked by calls_per_step)",
        )
    )
    m, se = float(calls.calls_ratio_mean), float(calls.calls_ratio_se)
    out.append(
        statistical(
            claim_id=f"{PREFIX}.calls_per_step[{tag}]",
            source="Thm 42(3), Cor 35(3)",
            statement="GTM calls of A per step match their exact expectation up to t = T",
            measured=f"sum N / sum E[N] over the recorded steps = {fmt(m)} +- {fmt(1.96 * se)}; mean N_t at T "
            f"{fmt(float(calls.calls_mean_T))}",
            bound="in [0.9, 1.1]",
            evidence=Normal(m, se, int(calls.calls_ratio_runs), "within", (0.9, 1.1), span=_co.CALLS_RATIO_SPAN),
            note=f"{int(calls.steps_per_run)} recorded steps per run",
        )
    )
    out.append(_co.utility_claim(utility, params, cfg, f"{PREFIX}.utility[{tag}]"))
    return out


def _t(x) -> str:
    x = float(x)
    return "never" if not np.isfinite(x) else f"t = {int(x)}"


def _spread(se: float) -> str:
    """'+- se', or, for identical runs, which test decides instead (no claim rests on a zero standard error)."""
    return f"+- {fmt(se, 2)}" if se > 0 else "(identical in every run: decided by the bounded-range test on [-1, 1])"
