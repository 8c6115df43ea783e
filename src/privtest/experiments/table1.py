"""table1: Table 1 (privacy, requirement, noise penalty, rejection threshold, sample complexity of GTM, Cohen et al.,
Liu-Talwar, and the lower bound of Theorem 4) and its numeric instantiation with measured values.

``figures/table1.tex``/``.md`` are rendered (:mod:`privtest.tables`) from :data:`privtest.bounds.TABLE1` (each
entry's printed and explicit LaTeX next to the function that evaluates it). ``figures/table1.csv`` (this module's
raw table without its last three columns) evaluates those same entries (:meth:`privtest.bounds.Entry.evaluate`) on
the grid of the config (eps_1/eps, T, p*) at each tester's parameters, and adds, per tester
(:class:`privtest.testers.Tester`):

* ``samples_expected``: the tester's expected evaluations at step T with fresh shared noise (exact for the GTM, an
  upper bound for Cohen et al.: :meth:`privtest.testers.Tester.expected_samples`); ``halt_p``: the smallest p at
  which its theorem guarantees halting.
* ``penalty_from_halt``: odds(halt_p)/odds(pbar_theory), the noise penalty measured from where the tester guarantees
  halting, in Table 1's odds form (Corollary 30, eq. 17, bounds it below): for GTM and Cohen et al. halt_p = p*; for
  Liu-Talwar halt_p is Theorem 46(4)'s threshold, and combining 46(4) with 46(2) gives Table 1's (T/beta^2)^sigma_LT
  (ERRATA.md). ``noise_penalty`` keeps Table 1's entry at the nominal p*.
* ``pbar_measured``: the largest p on a log-odds grid of step ``grid_step`` at which the measured Pr[halt within T]
  (p_t = p for all t <= T) has 95% upper Clopper-Pearson limit <= beta; ``pbar_measured_upper`` the smallest grid p
  whose 95% lower limit exceeds beta (:mod:`privtest.measure`, one coupled pass of min(``runs``, ``run_steps``/T) runs
  per cell).
* ``samples_measured``: mean evaluations of M_t per step while the tester continues (same pass);
  ``samples_measured_kind`` says whether it is measured (``Monte Carlo``) or, for Liu-Talwar, computed: eq. 25 fixes
  exactly N evaluations per step and the coupled simulation never draws them (``computed (deterministic count)``).
* ``halts_at_pstar``/``halts_at_halt_p``: halting at the first step with p_t = p* (resp. at ``halt_p``), at step
  index T (``type2_runs`` runs, ``Tester.halts_at_step``).

The last columns record what each tester guarantees, for judging (``type1_bound``, ``type2_bound``: its Type I /
Type II budgets, ``privacy_delta``: its privacy's delta); ``figures/table1.csv`` leaves them out
(:data:`privtest.analysis.table1.RECORDED`). Each tester is judged by its own guarantee
(:mod:`privtest.analysis.table1`, :mod:`privtest.checks.table1`): GTM by Theorem 21, Cohen et al. by
Proposition 48 (Type I and Type II parts each <= beta), Liu-Talwar by Theorem 46(2) (continuation, beta + delta/2)
and 46(4) (halting where the Phi condition holds, not at p*).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.measure import logit_grid, measured_pbar
from privtest.registry import make_tester
from privtest.testers import Tester

COLUMNS = [
    "method",
    "eps",
    "eps1",
    "eps_ratio",
    "beta",
    "T",
    "pstar",
    "theta",
    "gamma",
    "eps0",
    "delta",
    "privacy",
    "requirement",
    "noise_penalty",
    "pbar_theory",
    "samples_theory",
    "samples_expected",
    "pbar_measured",
    "pbar_measured_upper",
    "halts_at_pbar_theory",
    "samples_measured",
    "samples_measured_kind",
    "samples_sd",
    "runs",
    "halt_p",
    "penalty_from_halt",
    "halts_at_halt_p",
    "halts_at_pstar",
    "type2_runs",
    "source",
    "note",
    "type1_bound",
    "type2_bound",
    "privacy_delta",
]

#: The table1.csv column of each Table 1 row (:data:`privtest.bounds.TABLE1_ROWS`).
ROW_COLUMNS = {
    "privacy": "privacy",
    "requirement": "requirement",
    "noise_penalty": "noise_penalty",
    "rejection_threshold": "pbar_theory",
    "sample_complexity": "samples_theory",
}

#: Per Table 1 column: the sources of its instantiated entries and a note for table1.csv.
ANNOTATIONS = {
    "GTM": ("Thm 21, Lemma 22(1)", ""),
    "Cohen": ("Prop 48 (proof), Alg 4", "theta = theta_C = eps/eps1 - 2; samples_expected = N_t E[p_dagger]"),
    "LiuTalwar": (
        "Thm 46(2),(4), eq. 25",
        "eps0 minimises N (Thm 46(5)); halting guaranteed only at p >= halt_p (Thm 46(4)), not at p*: "
        "noise_penalty is from the nominal p*, penalty_from_halt from halt_p; samples_measured is computed (exactly N "
        "per step), not measured",
    ),
}


def _row(method, cfg, ratio, T, pstar, **kw) -> dict:
    row = dict.fromkeys(COLUMNS, np.nan)
    row.update(
        method=method,
        eps=cfg["eps"],
        eps1=ratio * cfg["eps"],
        eps_ratio=ratio,
        beta=cfg["beta"],
        T=T,
        pstar=pstar,
        note="",
    )
    row.update(kw)
    return row


def _theory(method: str, tester: Tester, cfg: dict, ratio: float, T: int, pstar: float) -> dict:
    """Table 1 entries of ``method`` at (ratio, T, pstar), evaluated from :data:`privtest.bounds.TABLE1` at the
    tester's parameters, plus its expected evaluations, its halting threshold and the column's annotations."""
    values = dict(t=T, T=T, pstar=pstar, eps=cfg["eps"], eps1=ratio * cfg["eps"], beta=cfg["beta"])
    values.update(tester.parameters)
    out = dict(tester.parameters)
    for row, column in ROW_COLUMNS.items():
        out[column] = bounds.table1_entry(row, method).evaluate(**values)
    source, note = ANNOTATIONS[method]
    halt_p = tester.halt_p(T)
    out.update(
        privacy=str(out["privacy"]),
        samples_expected=tester.expected_samples(T),
        halt_p=halt_p,
        type1_bound=tester.type1_bound,
        type2_bound=tester.type2_bound,
        privacy_delta=tester.privacy.delta,
        penalty_from_halt=_odds(halt_p) / _odds(out["pbar_theory"]) if halt_p < 1 else np.inf,
        source=source,
        note=note,
    )
    return out


def _odds(p: float) -> float:
    return p / (1.0 - p)


def _lower_bound_row(cfg, ratio, T, pstar) -> dict:
    eps, beta, eps1 = cfg["eps"], cfg["beta"], ratio * cfg["eps"]
    row = _row(
        "LowerBound",
        cfg,
        ratio,
        T,
        pstar,
        delta=0.0,
        privacy="any (eps, delta)-DP (here delta = 0)",
        requirement=bounds.lower_bound_requirement(eps, beta),
        noise_penalty=bounds.lower_bound_noise_penalty(T, eps, eps1, beta),
        pbar_theory=bounds.lower_bound_rejection_threshold(T, pstar, eps, eps1, beta),
        source="Cor 30, Thm 31",
        note="a bound, not a tester: no measured values; pbar_theory = largest pbar Cor 30 allows",
    )
    if pstar <= 0.5:
        row["samples_theory"] = bounds.lower_bound_sample_complexity(pstar, eps, eps1, beta)
    else:
        row["note"] += "; samples_theory empty: Thm 31 requires p* <= 1/2"
    return row


def _measure(tester: Tester, cfg: dict, T: int, pstar: float, th: dict, rng: np.random.Generator) -> dict:
    runs = max(1, min(cfg["runs"], cfg["run_steps"] // T))
    cp = tester.critical_p(T, runs, rng)
    finite = cp.p_crit[np.isfinite(cp.p_crit) & (cp.p_crit > 0)]
    low = min([th["pbar_theory"]] + ([float(np.quantile(finite, 0.001))] if finite.size else []))
    grid = logit_grid(pstar, min(max(low / 2.0, 1e-300), pstar / 2), cfg["grid_step"])
    m = measured_pbar(cp, grid, cfg["beta"])
    per_run = cp.samples
    out = dict(
        pbar_measured=m.pbar,
        pbar_measured_upper=m.pbar_upper,
        halts_at_pbar_theory=int(cp.halts(th["pbar_theory"])),
        samples_measured=float(per_run.mean()),
        # A tester whose every run makes exactly its expected count (Liu-Talwar: N of eq. 25 at every step) yields a
        # computed, not a measured, value: critical_p records that count without drawing the evaluations.
        samples_measured_kind="computed (deterministic count)"
        if np.all(per_run == tester.expected_samples(T))
        else "Monte Carlo",
        samples_sd=float(per_run.std(ddof=1)),
        runs=runs,
    )
    # Type II: the first step with p_t >= p* (or >= halt_p) is step T; earlier steps (p_t = 0) never halt.
    n2, hp = cfg["type2_runs"], th["halt_p"]
    ps = sorted({pstar, hp}) if hp <= 1 else [pstar]  # halt_p = inf: no p in [0, 1] guarantees halting
    h = tester.halts_at_step(T, ps, n2, rng)
    out.update(
        halts_at_pstar=int(h[ps.index(pstar)]),
        halts_at_halt_p=int(h[ps.index(hp)]) if hp <= 1 else -1,
        type2_runs=n2,
    )
    return out


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """One row per (method, eps_ratio, T, pstar) with the Table 1 entries and the measured values (see module); no
    ``inputs``."""
    rows = []
    for ratio in cfg["eps_ratio"]:
        for T in cfg["T"]:
            for pstar in cfg["pstar"]:
                for method in cfg["methods"]:
                    try:
                        tester = make_tester(method, cfg, pstar, ratio, T)
                    except bounds.RequirementError as err:  # e.g. Cohen when eps <= 2 eps_1
                        rows.append(_row(method, cfg, ratio, T, pstar, note=f"not applicable: {err}"))
                        continue
                    th = _theory(method, tester, cfg, ratio, T, pstar)
                    row = _row(method, cfg, ratio, T, pstar, **th)
                    row.update(_measure(tester, cfg, T, pstar, th, rng))
                    rows.append(row)
                rows.append(_lower_bound_row(cfg, ratio, T, pstar))
    return pd.DataFrame(rows, columns=COLUMNS)
