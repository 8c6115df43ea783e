"""table1: Table 1 (privacy, requirement, noise penalty, rejection threshold, sample complexity of GTM, Cohen et al.,
Liu-Talwar, and the lower bound of Theorem 4) and its numeric instantiation with measured values.

``figures/table1.tex``/``.md`` are rendered from :data:`privtest.bounds.TABLE1` (each entry's printed and explicit
LaTeX next to the function that evaluates it). ``figures/table1.csv`` instantiates every entry on the grid of the
config (eps_1/eps, T, p*) and adds, per tester:

* ``pbar_measured``: the largest p on a log-odds grid of step ``grid_step`` at which the measured Pr[halt within T]
  (p_t = p for all t <= T) has 95% upper Clopper-Pearson limit <= beta; ``pbar_measured_upper`` the smallest grid p
  whose 95% lower limit exceeds beta (:mod:`privtest.measure`, one coupled pass of min(``runs``, ``run_steps``/T) runs
  per cell).
* ``samples_measured``: mean evaluations of M_t per step while the tester continues (same pass).
* ``halts_at_pstar``/``halts_at_halt_p``: halting at the first step with p_t = p* (resp. the smallest p at which
  the tester's own theorem guarantees halting), at step index T (``type2_runs`` runs).

Each tester is judged by its own guarantee: GTM by Theorem 21, Cohen et al. by Proposition 48 (Type I and Type II
parts each <= beta), Liu-Talwar by Theorem 46(2) (continuation, beta + delta/2) and 46(4) (halting where the Phi
condition holds, not at p*).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.baselines.liu_talwar import sigma_LT as lt_sigma
from privtest.claims import Claim, clopper_pearson, fmt, verdict_at_least, verdict_at_most, verdict_exact
from privtest.measure import critical_p, logit_grid, measured_pbar
from privtest.simulate import halting_probability
from privtest.testers import make_tester

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
    "samples_sd",
    "runs",
    "halt_p",
    "halts_at_halt_p",
    "halts_at_pstar",
    "type2_runs",
    "source",
    "note",
]


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


def _theory(method: str, tester, cfg: dict, ratio: float, T: int, pstar: float) -> dict:
    """Table 1 entries of ``method`` at (ratio, T, pstar) from :mod:`privtest.bounds` (explicit quantities)."""
    eps, beta, eps1 = cfg["eps"], cfg["beta"], ratio * cfg["eps"]
    if method == "GTM":
        th, ga = cfg["theta"], cfg["gamma"]
        return dict(
            theta=th,
            gamma=ga,
            privacy=str(bounds.gtm_privacy(eps)),
            requirement=bounds.gtm_requirement(eps, eps1),
            noise_penalty=bounds.gtm_noise_penalty(T, eps, eps1, beta, th),
            pbar_theory=bounds.gtm_rejection_threshold(T, pstar, eps, eps1, beta, th, ga),
            samples_theory=bounds.gtm_sample_complexity(T, pstar, eps, eps1, beta, th, ga),
            samples_expected=bounds.gtm_expected_samples(T, pstar, eps, eps1, beta, th, ga),
            halt_p=pstar,
            source="Thm 21, Lemma 22(1)",
        )
    if method == "Cohen":
        N = bounds.cohen_sample_complexity(pstar, eps, eps1, beta)
        return dict(
            theta=tester.theta,
            privacy=str(bounds.cohen_privacy(eps, eps1)),
            requirement=bounds.cohen_requirement(eps, eps1),
            noise_penalty=bounds.cohen_noise_penalty(T, pstar, eps, eps1, beta),
            pbar_theory=bounds.cohen_rejection_threshold(T, pstar, eps, eps1, beta),
            samples_theory=N,
            samples_expected=N * tester.theta / (tester.theta + 1.0),
            halt_p=pstar,
            source="Prop 48 (proof), Alg 4",
            note="theta = theta_C = eps/eps1 - 2; samples_expected = N_t E[p_dagger]",
        )
    if method == "LiuTalwar":
        e0, de = tester.eps0, tester.delta
        return dict(
            eps0=e0,
            delta=de,
            privacy=str(bounds.liu_talwar_privacy(eps, de)),
            requirement=bounds.liu_talwar_requirement(eps, T),
            noise_penalty=bounds.liu_talwar_noise_penalty(T, eps, eps1, beta, e0),
            pbar_theory=bounds.liu_talwar_rejection_threshold(T, pstar, eps, eps1, beta, e0),
            samples_theory=bounds.liu_talwar_sample_complexity(pstar, eps, eps1, beta, de, e0, T),
            samples_expected=tester.N,
            halt_p=tester.halt_p(),
            source="Thm 46(2),(4), eq. 25",
            note="eps0 minimises N (Thm 46(5)); halting guaranteed only at p >= halt_p (Thm 46(4)), not at p*",
        )
    raise ValueError(f"unknown method {method!r}")


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


def _measure(tester, method, cfg, ratio, T, pstar, th, rng) -> dict:
    runs = max(1, min(cfg["runs"], cfg["run_steps"] // T))
    cp = critical_p(tester, T, runs, rng)
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
        samples_sd=float(per_run.std(ddof=1)),
        runs=runs,
    )
    # Type II: the first step with p_t >= p* (or >= halt_p) is step T; earlier steps (p_t = 0) never halt.
    n2 = cfg["type2_runs"]
    if method == "GTM":
        st = tester.cal.step(T, tester.eps1, pstar)
        h, _ = halting_probability(st, [pstar], n2, rng)
        out.update(halts_at_pstar=int(h[0]), halts_at_halt_p=int(h[0]))
    else:
        cp1 = critical_p(tester, 1, n2, rng)  # Cohen's and Liu-Talwar's steps do not depend on t
        hp = th["halt_p"]
        out.update(halts_at_pstar=int(cp1.halts(pstar)), halts_at_halt_p=int(cp1.halts(hp)) if hp <= 1 else -1)
    out["type2_runs"] = n2
    return out


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    """One row per (method, eps_ratio, T, pstar) with the Table 1 entries and the measured values (see module)."""
    rows = []
    for ratio in cfg["eps_ratio"]:
        for T in cfg["T"]:
            for pstar in cfg["pstar"]:
                for method in cfg["methods"]:
                    tcfg = {**cfg, "eps0": cfg.get("eps0", "auto"), "delta": cfg.get("delta", 1e-6)}
                    try:
                        tester = make_tester(method, tcfg, pstar, ratio, T)
                    except ValueError as err:  # e.g. Cohen when eps <= 2 eps_1
                        rows.append(_row(method, cfg, ratio, T, pstar, note=f"not applicable: {err}"))
                        continue
                    th = _theory(method, tester, cfg, ratio, T, pstar)
                    row = _row(method, cfg, ratio, T, pstar, **th)
                    row.update(_measure(tester, method, cfg, ratio, T, pstar, th, rng))
                    rows.append(row)
                rows.append(_lower_bound_row(cfg, ratio, T, pstar))
    return pd.DataFrame(rows, columns=COLUMNS)


# ----------------------------------------------------------------------------------------------------------------
# Claims


def _aggregate(claim_id, source, statement, checks, bound_text, note="") -> Claim:
    """One claim over several cells: FAIL if any cell fails, else INCONCLUSIVE if any is, else PASS; ``measured``
    shows the worst cell. ``checks``: list of (verdict, measured_text, score, cell) with larger score = worse."""
    verdicts = [c[0] for c in checks]
    verdict = "FAIL" if "FAIL" in verdicts else "INCONCLUSIVE" if "INCONCLUSIVE" in verdicts else "PASS"
    worst = max(checks, key=lambda c: c[2])
    npass = verdicts.count("PASS")
    return Claim(
        claim_id,
        source,
        statement,
        "table1",
        f"{worst[1]} (worst: {worst[3]})",
        bound_text,
        verdict,
        f"{npass}/{len(checks)} cells PASS. {note}".strip(),
    )


def _ci_text(k, n):
    lo, hi = clopper_pearson(k, n)
    return lo, hi, f"{fmt(k / n)} [{fmt(lo)}, {fmt(hi)}]"


def _table1_factor(ratio, T, pstar, cfg) -> float:
    """GTM's over Cohen's rejection threshold as Table 1 prints them (lower-order terms suppressed)."""
    beta, th, ga, r = cfg["beta"], cfg["theta"], cfg["gamma"], ratio
    lam_g = (1 / beta) ** ((1 + 2 / th) * r) * (T / beta) ** ((2 + th) * r)
    pbar_g = max(pstar / (ga * lam_g), 1 - ga * lam_g * (1 - pstar))
    lam_c = T / beta ** (1 + r / (1 - 2 * r))
    return pbar_g / (pstar / lam_c)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    """Per tester and T: continuation at its own pbar_T, halting at its own halting threshold, samples >= Thm 31;
    LT's missing guarantee at p*; GTM vs Cohen rejection thresholds; upper bounds never beat the lower bound."""
    out = []
    beta = cfg["beta"]
    testers = raw[raw.method != "LowerBound"].dropna(subset=["runs"])
    for (method, T), g in testers.groupby(["method", "T"], sort=False):
        cont, halt, halt_star, samp, lbc, moreover = [], [], [], [], [], []
        for r in g.itertuples():
            cell = f"r={r.eps_ratio},p*={r.pstar}"
            budget = beta + (r.delta / 2 if method == "LiuTalwar" else 0.0)
            lo, hi, txt = _ci_text(r.halts_at_pbar_theory, r.runs)
            cont.append((verdict_at_most(lo, hi, budget), txt, hi, cell))
            need = 1 - beta - (r.delta / (4 * T) if method == "LiuTalwar" else 0.0)
            if r.halts_at_halt_p >= 0:
                lo, hi, txt = _ci_text(r.halts_at_halt_p, r.type2_runs)
                halt.append((verdict_at_least(lo, hi, need), txt, -lo, cell + f",p={fmt(r.halt_p)}"))
            if method == "LiuTalwar":
                lo, hi, txt = _ci_text(r.halts_at_pstar, r.type2_runs)
                halt_star.append((verdict_at_most(lo, hi, 1 - beta), txt, lo, cell))
                # Thm 46(3) "moreover" as printed (R = 1): every halt at step 1 with p_1 = p* below it violates it.
                x = math.exp(r.eps0) / (2 * (1 - r.pstar)) * (2 / beta) ** lt_sigma(r.eps, r.eps1, r.eps0)
                if 1 - 1 / (1 + x) > r.pstar:
                    moreover.append(
                        (
                            verdict_at_least(lo, hi, beta + r.delta / 2),
                            txt + f" with p* < bound {fmt(1 - 1 / (1 + x))}",
                            -lo,
                            cell,
                        )
                    )
            if r.pstar <= 0.5:
                lb = bounds.lower_bound_sample_complexity(r.pstar, r.eps, r.eps1, beta)
                se = r.samples_sd / math.sqrt(r.runs)
                lo, hi = r.samples_measured - 1.96 * se, r.samples_measured + 1.96 * se
                samp.append(
                    (
                        verdict_at_least(lo, hi, lb),
                        f"{fmt(r.samples_measured)} (lb {fmt(lb)})",
                        -r.samples_measured / lb,
                        cell,
                    )
                )
            # An upper bound must not beat the lower bound (Cor 30 for its own accuracy and delta).
            acc = 2 * beta if method == "Cohen" else beta
            delta = r.delta if method == "LiuTalwar" else 0.0
            lb_pbar = bounds.lower_bound_rejection_threshold(T, r.pstar, r.eps, r.eps1, acc, delta)
            lbc.append(
                (
                    verdict_exact(r.pbar_theory <= lb_pbar),
                    f"{fmt(r.pbar_theory)} <= {fmt(lb_pbar)}",
                    r.pbar_theory / lb_pbar,
                    cell,
                )
            )
        src = g.source.iloc[0]
        out.append(
            _aggregate(
                f"table1.continue_at_pbar[{method},T={T}]",
                src,
                f"{method}: Pr[halt within T] <= its budget when p_t = its pbar_T at every step",
                cont,
                f"<= {fmt(beta)}" + (" + delta/2" if method == "LiuTalwar" else ""),
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
                    f">= {fmt(1 - beta)}" + (" - delta/(4T)" if method == "LiuTalwar" else ""),
                    "GTM and Cohen: threshold p*; Liu-Talwar: the smallest p with Thm 46(4)'s Phi condition",
                )
            )
        if halt_star:
            out.append(
                _aggregate(
                    f"table1.no_guarantee_at_pstar[LiuTalwar,T={T}]",
                    "Table 1 (dagger), Thm 46(4)",
                    "Liu-Talwar does not halt w.p. >= 1-beta at p_t = p* "
                    "(its halting guarantee needs the Phi condition)",
                    halt_star,
                    f"< {fmt(1 - beta)}",
                    "PASS = the measured halting probability at p* is below 1-beta",
                )
            )
        if moreover:
            out.append(
                _aggregate(
                    f"table1.lt_moreover_erratum[T={T}]",
                    "Thm 46(3) 'moreover' (line 2675), ERRATA.md",
                    "Erratum: the printed bound 'halting at R implies "
                    "p_R >= 1-(1+e^eps0/(2(1-p*)) ((R+1)/beta)^sigma)^-1 "
                    "w.p. >= 1-beta-delta/2' is violated",
                    moreover,
                    "Pr[halt at step 1 with p_1 = p* < printed bound] > beta + delta/2",
                    "PASS = the erratum is confirmed: the printed bound exceeds p*, "
                    "yet Liu-Talwar halts at p* w.p. ~1/2",
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
                    "95% normal interval over runs",
                )
            )
        out.append(
            _aggregate(
                f"table1.upper_vs_lower[{method},T={T}]",
                f"{src}; Cor 30",
                f"{method}'s guaranteed pbar_T does not exceed the largest pbar Corollary 30 allows",
                lbc,
                "<= Cor 30 sup",
                "exact; Cohen's accuracy is 2 beta, Liu-Talwar's delta enters delta'",
            )
        )
    # GTM vs Cohen: measured thresholds, conservative ratio (GTM lower / Cohen upper) vs Table 1's factor.
    for T, g in testers.groupby("T", sort=False):
        rows_ge1, rows_fac = [], []
        for (ratio, pstar), c in g.groupby(["eps_ratio", "pstar"], sort=False):
            if not {"GTM", "Cohen"} <= set(c.method):
                continue
            gm, co = c[c.method == "GTM"].iloc[0], c[c.method == "Cohen"].iloc[0]
            cons = gm.pbar_measured / co.pbar_measured_upper
            opt = gm.pbar_measured_upper / co.pbar_measured
            fac = _table1_factor(ratio, T, pstar, cfg)
            cell = f"r={ratio},p*={pstar}"
            ver1 = "PASS" if cons >= 1 else "FAIL" if opt < 1 else "INCONCLUSIVE"
            ver2 = "PASS" if cons >= fac else "FAIL" if opt < fac else "INCONCLUSIVE"
            rows_ge1.append((ver1, f"ratio in [{fmt(cons)}, {fmt(opt)}]", -cons, cell))
            rows_fac.append((ver2, f"ratio in [{fmt(cons)}, {fmt(opt)}] vs factor {fmt(fac)}", -cons / fac, cell))
        if rows_ge1:
            out.append(
                _aggregate(
                    f"table1.gtm_above_cohen[T={T}]",
                    "Table 1, Thm 21, Prop 48",
                    "GTM's measured rejection threshold exceeds Cohen et al.'s",
                    rows_ge1,
                    ">= 1",
                    "ratio interval = [GTM pbar_measured / Cohen pbar_upper, GTM pbar_upper / Cohen pbar_measured]",
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
                    "(lower-order terms dropped)",
                )
            )
    return out


# ----------------------------------------------------------------------------------------------------------------
# Rendering (from privtest.bounds.TABLE1)


def _entries_grid(which: str) -> list[list[str]]:
    methods = list(bounds.TABLE1_METHODS)
    grid = []
    for row, label in bounds.TABLE1_ROWS.items():
        grid.append([label] + [getattr(bounds.table1_entry(row, m), which) for m in methods])
    return grid


def render_tex() -> str:
    """Table 1 as a booktabs LaTeX table: (a) as printed in the paper, (b) the explicit quantities evaluated by
    :mod:`privtest.bounds` (and instantiated in table1.csv)."""
    heads = " & ".join([""] + list(bounds.TABLE1_METHODS.values()))
    parts = [
        "% Generated by privtest.experiments.table1.render_tex from privtest.bounds.TABLE1; do not edit.",
        "% Needs \\usepackage{booktabs,graphicx,amsmath}.",
        "\\begin{table}[t]",
        "\\centering\\small",
        "\\caption{Table 1 of the paper, with the lower bound of Theorem 4 as a fourth column. (a) As printed "
        "(lower-order terms suppressed). (b) The explicit quantities this artifact evaluates "
        "(\\texttt{privtest.bounds}); $\\beta_t=\\omega_t\\beta$ (Def.~7), "
        "$\\sigma_{LT}=12(\\varepsilon_1+\\varepsilon_0)/\\varepsilon$, "
        "$\\theta_C=\\varepsilon/\\varepsilon_1-2$, $\\delta'=\\delta/(e^\\varepsilon-1)$.}",
        "\\label{tab:table1}",
    ]
    for tag, which in (("(a) As printed", "paper"), ("(b) Explicit, as evaluated", "explicit")):
        parts += [
            f"\\par\\medskip\\textbf{{{tag}}}\\par\\smallskip",
            "\\resizebox{\\linewidth}{!}{%",
            "\\begin{tabular}{lllll}",
            "\\toprule",
            heads + " \\\\",
            "\\midrule",
        ]
        for line in _entries_grid(which):
            parts.append(" & ".join(line) + " \\\\")
        parts += ["\\bottomrule", "\\end{tabular}}"]
    parts.append("\\end{table}")
    return "\n".join(parts) + "\n"


def render_md(df: pd.DataFrame) -> str:
    """Table 1 (printed and explicit forms, sources) and the numeric instantiation, as Markdown."""
    methods = list(bounds.TABLE1_METHODS)
    lines = ["# Table 1", "", "Generated from `privtest.bounds.TABLE1`; numbers in `figures/table1.csv`.", ""]
    for tag, which in (("As printed in the paper", "paper"), ("Explicit quantities evaluated here", "explicit")):
        lines += [
            f"## {tag}",
            "",
            "| | " + " | ".join(bounds.TABLE1_METHODS.values()) + " |",
            "|---" * (len(methods) + 1) + "|",
        ]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in _entries_grid(which)]
        lines.append("")
    lines += [
        "Sources: " + "; ".join(f"{e.method}/{e.row}: {e.source}" for e in bounds.TABLE1),
        "",
        "## Numeric instantiation",
        "",
    ]
    cols = [
        "method",
        "eps_ratio",
        "T",
        "pstar",
        "noise_penalty",
        "pbar_theory",
        "pbar_measured",
        "samples_theory",
        "samples_measured",
        "note",
    ]
    lines += ["| " + " | ".join(cols) + " |", "|---" * len(cols) + "|"]
    for r in df[cols].itertuples(index=False):
        cells = [f"{v:.4g}" if isinstance(v, float) else str(v) for v in r]
        lines.append("| " + " | ".join(c.replace("nan", "") for c in cells) + " |")
    return "\n".join(lines) + "\n"
