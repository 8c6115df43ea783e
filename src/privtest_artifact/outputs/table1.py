"""table1: Table 1 (privacy, requirement, noise penalty, rejection threshold, sample complexity of GTM, Cohen et al.,
Liu-Talwar, and the lower bound of Theorem 4) and its numeric instantiation with measured values.

``figures/table1.tex``/``.md`` are rendered (:mod:`privtest_artifact.tables`) from :data:`privtest.bounds.TABLE1` (each
entry's printed and explicit LaTeX next to the function that evaluates it). ``figures/table1.csv``, the numeric
instantiation, is the analysis table ``table``.

Simulation (:func:`simulate`): one raw row per (method, eps_ratio, T, p*) that evaluates those same entries
(:meth:`privtest.bounds.Entry.evaluate`) on the grid of the config (eps_1/eps, T, p*) at each tester's parameters, and
adds, per tester (:class:`privtest.testers.Tester`):

* ``samples_expected``: the tester's expected evaluations at step T with fresh shared noise (exact for the GTM, an upper
  bound for Cohen et al.: :meth:`privtest.testers.Tester.expected_samples`); ``halt_p``: the smallest p at which its
  theorem guarantees halting.
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
* ``halts_at_pstar``/``halts_at_halt_p``: halting at the first step with p_t = p* (resp. at ``halt_p``), at step index T
  (``type2_runs`` runs, ``Tester.halts_at_step``).

The last columns record what each tester guarantees, for judging (:data:`RECORDED`: ``type1_bound``, ``type2_bound``,
its Type I / Type II budgets, and ``privacy_delta``, its privacy's delta), from the tester itself, so that every tester
is judged by its own theorem: GTM by Theorem 21, Cohen et al. by Proposition 48 (Type I and Type II parts each <= beta),
Liu-Talwar by Theorem 46(2) (continuation, beta + delta/2) and 46(4) (halting where the Phi condition holds, not at p*);
the lower bounds are Corollary 30 and Theorem 31.

Analysis (:func:`analyse`):

* ``table``: the numeric instantiation of Table 1 (``figures/table1.csv``): the raw rows without the guarantees recorded
  for judging (:data:`RECORDED`).
* ``testers``: one row per measured tester row (method, T, eps_ratio, p*; ``cell`` its label, ``source``, ``runs``,
  ``type2_runs``, ``with_delta`` whether its privacy has delta > 0) with, probabilities in [0, 1]:

  - continuation at its pbar_T: ``cont_k`` halts of ``runs``, ``cont_rate`` = cont_k / runs with its 95% Clopper-Pearson
    interval ``cont_low``, ``cont_high``, and ``cont_bound`` (its Type I budget);
  - halting at its halting threshold ``halt_p`` (step T): ``halt_k`` halts of ``type2_runs`` (NaN if no p in [0, 1]
    guarantees halting), ``halt_rate``, ``halt_low``, ``halt_high``, ``halt_need`` = 1 - its Type II budget;
  - halting at p* (step T): ``pstar_k`` halts of ``type2_runs``, ``pstar_rate``, ``pstar_low``, ``pstar_high``, and
    ``no_guarantee_at_pstar`` (halt_p > p*: the tester guarantees no halting at p*, Table 1's dagger);
  - ``moreover_bound``: Theorem 46(3)'s printed "moreover" bound on p_1 at R = 1 (Liu-Talwar only, where it exceeds p*;
    NaN otherwise) and ``moreover_level`` = beta + delta/2;
  - ``samples_lb``: Theorem 31's lower bound on the mean evaluations per step (p* <= 1/2; NaN otherwise) next to
    ``samples_measured``, its standard error ``samples_se`` (0 for one run) and ``samples_exact`` (True when the count
    is computed, not measured: Liu-Talwar's N of eq. 25);
  - ``pbar_theory`` and ``cor30_pbar``: the largest pbar Corollary 30 allows for a tester with its accuracy
    (:data:`COR30_ACCURACY`) and delta that guarantees halting at halt_p (NaN if halt_p >= 1);
  - ``samples_rank`` (by samples_measured / samples_lb, smallest first) and ``cor30_rank`` (by pbar_theory / cor30_pbar,
    largest first): 1 for the worst cell of its (method, T), the one a claim quotes.
* ``ratios``: per (T, eps_ratio, p*) where GTM and Cohen et al. both ran: the bracket [``ratio_low``,
  ``ratio_high``] = [GTM pbar_measured / Cohen pbar_measured_upper, GTM pbar_measured_upper / Cohen pbar_measured] of
  the ratio of their measured rejection thresholds (each end at >= 95%), ``runs`` = the smaller run count, and
  ``factor`` (:func:`table1_factor`); ``ge1_rank`` (by ratio_low) and ``factor_rank`` (by ratio_low / factor): 1 for the
  worst cell of its T.

Claims (:func:`claims`), each tester by its own guarantee: per tester and T, continuation at its own pbar_T
(Type I budget), halting at its own halting threshold (Type II budget), mean evaluations >= Theorem 31, and no upper
bound beating Corollary 30; Liu-Talwar's missing guarantee at p* (Table 1's dagger) and the Theorem 46(3) erratum; GTM
vs Cohen et al. rejection thresholds.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.measure import logit_grid, measured_pbar
from privtest.testers import Tester
from privtest_artifact.claims import CANNOT_FAIL, Binomial, Bracket, Claim, Normal, exact, fmt, statistical
from privtest_artifact.registry import make_tester
from privtest_artifact.stats import clopper_pearson, standard_error_from_sd

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
    """One row per (method, eps_ratio, T, pstar) with the Table 1 entries and the measured values (module docstring);
    no ``inputs``."""
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


#: Failure probability of each tester's accuracy guarantee as Corollary 30 uses it, in multiples of beta: the GTM's
#: beta (Theorem 21), Cohen et al.'s 2 beta (Proposition 48 proves 1 - 2 beta), Liu-Talwar's beta (Theorem 46, its
#: delta entering Corollary 30 through delta').
COR30_ACCURACY = {"GTM": 1.0, "Cohen": 2.0, "LiuTalwar": 1.0}
#: Raw columns recorded from each tester for judging (its Type I / Type II budgets and its privacy's delta), not
#: part of Table 1's instantiation.
RECORDED = ["type1_bound", "type2_bound", "privacy_delta"]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``table``, ``testers`` and ``ratios`` (module docstring); ``cfg``: the config section (``beta``,
    ``theta``, ``gamma``)."""
    testers = raw[raw.method != "LowerBound"].dropna(subset=["runs"])
    rows = pd.DataFrame([_tester_row(r, cfg["beta"]) for r in testers.itertuples()])
    # the worst cell of each claim, ranked here at full precision (these ratios of separately computed quantities
    # tie mathematically across cells, and the tables keep 10 significant digits)
    keys = [rows.method, rows["T"]]
    rows["samples_rank"] = _rank(rows.samples_measured / rows.samples_lb, keys, worst="smallest")
    rows["cor30_rank"] = _rank(rows.pbar_theory / rows.cor30_pbar, keys, worst="largest")
    return {"table": raw.drop(columns=RECORDED), "testers": rows, "ratios": ratios(testers, cfg)}


def _rank(score: pd.Series, keys: list, worst: str) -> pd.Series:
    """Per group of ``keys``: 1 for the worst cell (the first of equal ones), 2 for the next, ...; NaN where
    ``score`` is NaN. ``worst``: "largest" or "smallest" score."""
    return score.groupby(keys, sort=False).rank(ascending=worst == "smallest", method="first")


def _interval(prefix: str, k, n) -> dict:
    lo, hi = clopper_pearson(int(k), int(n))
    return {f"{prefix}_k": int(k), f"{prefix}_rate": k / n, f"{prefix}_low": lo, f"{prefix}_high": hi}


def _tester_row(r, beta: float) -> dict:
    nan4 = lambda prefix: dict.fromkeys([f"{prefix}_{s}" for s in ("k", "rate", "low", "high")], np.nan)  # noqa: E731
    out = dict(
        method=r.method,
        T=int(r.T),
        eps_ratio=r.eps_ratio,
        pstar=r.pstar,
        cell=f"r={r.eps_ratio},p*={r.pstar}",
        source=r.source,
        with_delta=bool(r.privacy_delta > 0),
        runs=int(r.runs),
        type2_runs=int(r.type2_runs),
        **_interval("cont", r.halts_at_pbar_theory, r.runs),
        cont_bound=r.type1_bound,
        halt_p=r.halt_p,
        **(_interval("halt", r.halts_at_halt_p, r.type2_runs) if r.halts_at_halt_p >= 0 else nan4("halt")),
        halt_need=1 - r.type2_bound,
        **_interval("pstar", r.halts_at_pstar, r.type2_runs),
        no_guarantee_at_pstar=bool(r.halt_p > r.pstar),
        moreover_bound=np.nan,
        moreover_level=beta + r.delta / 2,
        samples_lb=np.nan,
        samples_measured=r.samples_measured,
        samples_se=standard_error_from_sd(r.samples_sd, int(r.runs)) if math.isfinite(r.samples_sd) else 0.0,
        samples_exact=str(r.samples_measured_kind).startswith("computed"),
        pbar_theory=r.pbar_theory,
        cor30_pbar=np.nan,
    )
    if math.isfinite(r.eps0):  # Theorem 46(3)'s bound is a formula in Liu-Talwar's auxiliary eps_0
        moreover = bounds.liu_talwar_moreover_bound(1, r.pstar, r.eps, r.eps1, beta, r.eps0)
        if moreover > r.pstar:
            out["moreover_bound"] = moreover
    if r.pstar <= 0.5:
        out["samples_lb"] = bounds.lower_bound_sample_complexity(r.pstar, r.eps, r.eps1, beta)
    if r.halt_p < 1:  # Cor 30 at the threshold where the tester guarantees halting (its halt_p, not its p*)
        acc = COR30_ACCURACY[r.method] * beta
        out["cor30_pbar"] = bounds.lower_bound_rejection_threshold(r.T, r.halt_p, r.eps, r.eps1, acc, r.privacy_delta)
    return out


def table1_factor(ratio: float, T: int, pstar: float, cfg: dict) -> float:
    """GTM's over Cohen's rejection threshold as Table 1 prints them (lower-order terms suppressed:
    :func:`privtest.bounds.gtm_rejection_threshold_table` over :func:`privtest.bounds.cohen_rejection_threshold_table`
    at eps = 1, eps_1 = ``ratio``, t = ``T``); ``cfg``: beta, theta, gamma."""
    beta = cfg["beta"]
    pbar_g = bounds.gtm_rejection_threshold_table(T, pstar, 1.0, ratio, beta, cfg["theta"], cfg["gamma"])
    return pbar_g / bounds.cohen_rejection_threshold_table(T, pstar, 1.0, ratio, beta)


def ratios(testers: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """The table ``ratios`` (module docstring) from the measured tester rows."""
    rows = []
    for T, g in testers.groupby("T", sort=False):
        for (ratio, pstar), c in g.groupby(["eps_ratio", "pstar"], sort=False):
            if not {"GTM", "Cohen"} <= set(c.method):
                continue
            gm, co = c[c.method == "GTM"].iloc[0], c[c.method == "Cohen"].iloc[0]
            rows.append(
                dict(
                    T=T,
                    eps_ratio=ratio,
                    pstar=pstar,
                    cell=f"r={ratio},p*={pstar}",
                    ratio_low=gm.pbar_measured / co.pbar_measured_upper,
                    ratio_high=gm.pbar_measured_upper / co.pbar_measured,
                    factor=table1_factor(ratio, T, pstar, cfg),
                    runs=int(min(gm.runs, co.runs)),
                )
            )
    columns = ["T", "eps_ratio", "pstar", "cell", "ratio_low", "ratio_high", "factor", "runs"]
    out = pd.DataFrame(rows, columns=columns)
    out["ge1_rank"] = _rank(out.ratio_low, [out["T"]], worst="smallest")
    out["factor_rank"] = _rank(out.ratio_low / out.factor, [out["T"]], worst="smallest")
    return out


#: ERRATA.md entry recording that Theorem 46(3)'s printed "moreover" bound cannot hold.
ERRATUM_LT_MOREOVER = "Theorem 46(3): the printed 'moreover' bound cannot hold"
#: Why the GTM-vs-Cohen ratio claims are PASS or INCONCLUSIVE only (docs/claims.md).
BRACKET_CANNOT_FAIL = (
    f"{CANNOT_FAIL} the ratio is only bracketed by two measured thresholds' 95% limits "
    "(privtest_artifact.claims.Bracket), whose fixed 5% level never reaches the family-wise FAIL level; "
    "a bracket below the bound stays INCONCLUSIVE"
)


def _aggregate(claim_id, source, statement, cells, bound_text, note="", erratum="") -> Claim:
    """One claim over several cells, measured shows the worst cell. ``cells``: list of (check, measured_text, score,
    cell) with larger score = worse (the first of equal ones; minus the analysis' rank where it ranks the cells),
    where check is an evidence cell (:class:`privtest_artifact.claims.Binomial`,
    :class:`~privtest_artifact.claims.Normal`, :class:`~privtest_artifact.claims.Bracket`; the claim is decided by the
    policy: FAIL if any cell is refuted, PASS if every cell is established) or a bool (exact cell: a False one makes the
    claim an exact FAIL, True ones leave it to the evidence cells)."""
    worst = max(cells, key=lambda c: c[2])
    text = dict(
        claim_id=claim_id,
        source=source,
        statement=statement,
        measured=f"{worst[1]} (worst: {worst[3]})",
        bound=bound_text,
        note=f"{len(cells)} cells. {note}".strip(),
        erratum=erratum,
    )
    exact_cells = [c for c in cells if isinstance(c[0], bool)]
    if len(exact_cells) == len(cells) or not all(c[0] for c in exact_cells):
        # all cells exact, or an exact cell refutes the statement (no sampling error: FAIL whatever the others say)
        return exact(**text, ok=all(c[0] for c in exact_cells))
    if exact_cells:
        text["note"] += f" {len(exact_cells)} exact cells hold; the others are decided from the data."
    return statistical(**text, evidence=[c[0] for c in cells if not isinstance(c[0], bool)])


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Per tester and T: continuation at its own pbar_T, halting at its own halting threshold, samples >= Thm 31;
    LT's missing guarantee at p*; GTM vs Cohen rejection thresholds; upper bounds never beat the lower bound. Reads
    the tables ``testers`` and ``ratios`` of :func:`analyse`."""
    out = []
    beta = cfg["beta"]
    for (method, T), g in tables["testers"].groupby(["method", "T"], sort=False):
        cont, halt, halt_star, samp, lbc, moreover = [], [], [], [], [], []
        for r in g.itertuples():
            cell = r.cell
            txt = f"{fmt(r.cont_rate)} [{fmt(r.cont_low)}, {fmt(r.cont_high)}]"
            ev = Binomial(int(r.cont_k), int(r.runs), "at_most", float(r.cont_bound), cell)
            cont.append((ev, txt, r.cont_high, cell))
            if math.isfinite(r.halt_k):
                txt = f"{fmt(r.halt_rate)} [{fmt(r.halt_low)}, {fmt(r.halt_high)}]"
                ev = Binomial(int(r.halt_k), int(r.type2_runs), "at_least", float(r.halt_need), cell)
                halt.append((ev, txt, -r.halt_low, cell + f",p={fmt(r.halt_p)}"))
            at_pstar = f"{fmt(r.pstar_rate)} [{fmt(r.pstar_low)}, {fmt(r.pstar_high)}]"
            if r.no_guarantee_at_pstar:  # no halting guarantee at p* (Table 1's dagger)
                ev = Binomial(int(r.pstar_k), int(r.type2_runs), "at_most", 1 - beta, cell)
                halt_star.append((ev, at_pstar, r.pstar_low, cell))
            if math.isfinite(r.moreover_bound):
                # Thm 46(3) "moreover" as printed (R = 1): every halt at step 1 with p_1 = p* below it violates it.
                moreover.append(
                    (
                        Binomial(int(r.pstar_k), int(r.type2_runs), "at_most", float(r.moreover_level), cell),
                        at_pstar + f" with p* < bound {fmt(r.moreover_bound)}",
                        -r.pstar_low,
                        cell,
                    )
                )
            if math.isfinite(r.samples_lb):
                lb = r.samples_lb
                if r.samples_exact:
                    # a deterministic count (Liu-Talwar: exactly N of eq. 25 per step): exact, no sampling error
                    check = bool(r.samples_measured >= lb)
                else:
                    # one run (std NaN) or identical counts: se = 0, the bounded-range test on evaluations >= 0
                    check = Normal(
                        float(r.samples_measured),
                        float(r.samples_se),
                        int(r.runs),
                        "at_least",
                        lb,
                        cell,
                        span=(0.0, math.inf),
                    )
                samp.append(
                    (
                        check,
                        f"{fmt(r.samples_measured)} (lb {fmt(lb)})",
                        -r.samples_rank,
                        cell,
                    )
                )
            # An upper bound must not beat the lower bound (Cor 30 for its own accuracy and delta), applied at the
            # threshold where the tester guarantees halting (its halt_p: p* for GTM and Cohen, Thm 46(4)'s threshold
            # for Liu-Talwar, not its nominal p*).
            if math.isfinite(r.cor30_pbar):
                lbc.append(
                    (
                        bool(r.pbar_theory <= r.cor30_pbar),
                        f"{fmt(r.pbar_theory)} <= {fmt(r.cor30_pbar)} (halting guaranteed at {fmt(r.halt_p)})",
                        -r.cor30_rank,
                        cell,
                    )
                )
        with_delta = bool(g.with_delta.iloc[-1])
        src = g.source.iloc[0]
        out.append(
            _aggregate(
                f"table1.continue_at_pbar[{method},T={T}]",
                src,
                f"{method}: Pr[halt within T] <= its budget when p_t = its pbar_T at every step",
                cont,
                f"<= {fmt(beta)}" + (" + delta/2" if with_delta else ""),
                "pbar_T from the tester's own theorem (explicit constants)",
            )
        )
        if halt:
            out.append(
                _aggregate(
                    f"table1.halt_at_guarantee[{method},T={T}]",
                    src,
                    f"{method}: halts at the first step with p_t >= its guaranteed halting threshold (step T)",
                    halt,
                    f">= {fmt(1 - beta)}" + (" - delta/(4T)" if with_delta else ""),
                    "GTM and Cohen: threshold p*; Liu-Talwar: the smallest p with Thm 46(4)'s Phi condition",
                )
            )
        if halt_star:
            out.append(
                _aggregate(
                    f"table1.no_guarantee_at_pstar[{method},T={T}]",
                    "Table 1 (dagger), Thm 46(4)",
                    "Table 1's dagger: Liu-Talwar does not guarantee halting at p_t = p* (only at its Thm 46(4) "
                    "threshold); measured: fed p_t = p*, it halts w.p. < 1-beta",
                    halt_star,
                    f"< {fmt(1 - beta)}",
                    "the paper's own caveat, confirmed",
                )
            )
        if moreover:
            out.append(
                _aggregate(
                    f"table1.lt_moreover[T={T}]",
                    "Thm 46(3) 'moreover'",
                    "Thm 46(3) as printed: halting at R implies p_R >= 1-(1+e^eps0/(2(1-p*)) ((R+1)/beta)^sigma)^-1 "
                    "w.p. >= 1-beta-delta/2; so Pr[halt at step 1 with p_1 = p* < that bound] <= beta + delta/2",
                    moreover,
                    "<= beta + delta/2",
                    "the printed bound exceeds p*, yet Liu-Talwar fed p_t = p* halts w.p. ~1/2",
                    erratum=ERRATUM_LT_MOREOVER,
                )
            )
        if samp:
            out.append(
                _aggregate(
                    f"table1.samples_vs_thm31[{method},T={T}]",
                    "Thm 31 (beta_II = beta, Remark 32)",
                    f"{method}: mean evaluations per step >= Theorem 31's lower bound (p* <= 1/2)",
                    samp,
                    ">= e^-eps1/(4 p* (2 beta)^(eps1/eps))",
                    "normal approximation over runs",
                )
            )
        if lbc:
            out.append(
                _aggregate(
                    f"table1.upper_vs_lower[{method},T={T}]",
                    f"{src}, Cor 30",
                    f"{method}'s guaranteed pbar_T does not exceed the largest pbar Corollary 30 allows for a tester "
                    "that guarantees halting where it does",
                    lbc,
                    "<= Cor 30 sup",
                    "exact; Cohen's accuracy is 2 beta, Liu-Talwar's delta enters delta'; Liu-Talwar measured from its "
                    "Thm 46(4) halting threshold (like-for-like with the GTM's p*)",
                )
            )
    # GTM vs Cohen: measured thresholds, conservative ratio (GTM lower / Cohen upper) vs Table 1's factor.
    for T, g in tables["ratios"].groupby("T", sort=False):
        rows_ge1, rows_fac = [], []
        for c in g.itertuples():
            cons, opt, fac, cell = c.ratio_low, c.ratio_high, c.factor, c.cell
            # each end of [cons, opt] holds with >= 95% (two one-sided 97.5% limits of the measured thresholds)
            rows_ge1.append(
                (
                    Bracket(cons, opt, 0.95, int(c.runs), "at_least", 1.0, cell),
                    f"ratio in [{fmt(cons)}, {fmt(opt)}]",
                    -c.ge1_rank,
                    cell,
                )
            )
            rows_fac.append(
                (
                    Bracket(cons, opt, 0.95, int(c.runs), "at_least", fac, cell),
                    f"ratio in [{fmt(cons)}, {fmt(opt)}] vs factor {fmt(fac)}",
                    -c.factor_rank,
                    cell,
                )
            )
        if rows_ge1:
            out.append(
                _aggregate(
                    f"table1.gtm_above_cohen[T={T}]",
                    "Table 1, Thm 21, Prop 48",
                    "GTM's measured rejection threshold exceeds Cohen et al.'s",
                    rows_ge1,
                    ">= 1",
                    "ratio interval = [GTM pbar_measured / Cohen pbar_upper, GTM pbar_upper / Cohen pbar_measured], "
                    f"each end at >= 95% confidence. {BRACKET_CANNOT_FAIL}",
                )
            )
            out.append(
                _aggregate(
                    f"table1.gtm_over_cohen_factor[T={T}]",
                    "Table 1",
                    "GTM's measured pbar exceeds Cohen's by at least the factor Table 1 predicts",
                    rows_fac,
                    ">= Table 1 factor",
                    "factor = GTM's over Cohen's pbar with Table 1's printed noise penalties "
                    f"(lower-order terms dropped). {BRACKET_CANNOT_FAIL}",
                )
            )
    return out
