"""table3: the paper's Table 3 (Section 8.1, lines 2434-2458: Theorem 42 applied to batch DP submodular
maximisation) rendered from :mod:`privtest.co.tables`, and checked against the code of the reduction.

Table 3 has no measured column (every cell is an asymptotic formula), so the raw table is the rendered rows plus
what the committed code says about each row:

* the exponents displayed in each cell (parsed from the LaTeX of :data:`privtest.co.tables.SUBMODULAR_ROWS`): the
  batch additive error's eps exponent ``a``, and the CO additive error's exponents of 1/eps, 1/kappa and ln t;
* the exponents *derived* from Theorem 42 / Corollaries 43-44: the batch error is evaluated at
  eps_batch(t) = Theta~(kappa eps / ln^2(t/beta)) (lines 196-203, 2395-2413) and Theorem 42(2) adds
  O(ln^3(t/beta)/(kappa eps)), so the CO additive term is Theta~(ln^{2a}(t/beta)/(kappa eps)^a + ln^3(t/beta)/
  (kappa eps)); a single displayed term X ln^b t/(kappa^c eps^e) upper-bounds it (kappa, eps <= 1, t large) iff
  b >= max(2a, 3), c >= max(a, 1), e >= max(a, 1);
* the code's eps_batch(t) = eps(ell+1, t)/2 (:meth:`privtest.co.params.BatchToCOParams.batch_eps`) on the
  trajectory OPT_t = t of a sensitivity-1 objective (checkpoint ell(t) = floor(ln t / ln(1+kappa)), an idealised
  trajectory: Lemma 39 only bounds ell(t) from above), and the factor (eps/eps_batch(t))^a by which the batch
  error inflates;
* Lemma 38's privacy ledger of BatchToCO with the row's privacy type ((eps, delta) or pure eps).

No randomness: ``rng`` is unused.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

import numpy as np
import pandas as pd

from privtest.claims import Claim, fmt, verdict_exact
from privtest.co.params import BatchToCOParams
from privtest.co.tables import SUBMODULAR_ROWS, TableRow

EXPERIMENT = "table3"


def make_params(cfg: dict, eps: float | None = None, kappa: float | None = None, delta: float = 0.0):
    return BatchToCOParams(
        eps=cfg["eps"] if eps is None else eps,
        beta=cfg["beta"],
        pstar=cfg["pstar"],
        kappa=cfg["kappa"] if kappa is None else kappa,
        gamma=cfg["gamma"],
        C1=cfg["C1"],
        CH=cfg["CH"],
        C_beta=cfg["C_beta"],
        log_beta=cfg["log_beta"],
        delta=delta,
    )


def _exponent(tex: str, symbol: str) -> int:
    r"""Exponent of ``symbol`` (a LaTeX command such as ``\varepsilon``) in ``tex``: ``symbol^n`` -> n,
    bare ``symbol`` -> 1, absent -> 0."""
    m = re.search(re.escape(symbol) + r"\^\{?(\d+)", tex)
    if m:
        return int(m.group(1))
    return 1 if re.search(re.escape(symbol) + r"(?![a-zA-Z])", tex) else 0


def _ln_t_exponent(tex: str) -> int:
    r"""Exponent b of ``\ln^b t`` or ``\ln^b\tfrac t\beta`` in ``tex`` (0 if absent)."""
    m = re.search(r"\\ln\^\{?(\d+)\}?\s*(?:t(?![a-zA-Z])|\\tfrac\s*t\s*\\beta)", tex)
    return int(m.group(1)) if m else 0


def _split(cell: str, co: bool) -> tuple[str, str]:
    r"""(multiplicative factor, additive term) of a guarantee cell ``$factor\mathrm{OPT}[_t]-additive$``; the CO
    factor is returned as its numerator with the denominator checked to be 1+kappa (else '?')."""
    body = cell.strip("$")
    factor, _, additive = body.partition(r"\mathrm{OPT}_t-" if co else r"\mathrm{OPT}-")
    factor = factor.replace(r"\tfrac1e", "1/e").replace(" ", "")
    if co:
        m = re.fullmatch(r"\\tfrac\{(.*)\}\{1\+\\kappa\}", factor)
        return (m.group(1) if m else "?"), additive
    return factor.removeprefix("(").removesuffix(")"), additive


def privacy_type(row: TableRow) -> str:
    return "(eps,delta)-DP" if r"\delta)" in row.setting else "eps-DP"


def trajectory_eps_batch(params: BatchToCOParams, t: float) -> tuple[float, int]:
    """eps_batch(t) = eps(ell+1, t)/2 with ell(t) = max(1, floor(ln t/ln(1+kappa))) (OPT_t = t), and ell(t)."""
    ell = max(1, int(math.floor(math.log(t) / math.log1p(params.kappa))))
    return float(params.batch_eps(ell + 1, t)), ell


@lru_cache(maxsize=8)
def _ledger(params: BatchToCOParams) -> tuple[float, float]:
    led = params.privacy_budget()
    return led["eps_total"], led["delta_total"]


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    del rng  # deterministic: rendered rows and exact evaluations of the committed formulas
    rows = []
    for r in SUBMODULAR_ROWS:
        fb, add_b = _split(r.batch, co=False)
        fc, add_c = _split(r.co, co=True)
        a = _exponent(add_b, r"\varepsilon")
        ptype = privacy_type(r)
        delta = cfg["delta"] if ptype == "(eps,delta)-DP" else 0.0
        params = make_params(cfg, delta=delta)
        eps_tot, delta_tot = _ledger(params)
        row = dict(
            work=r.work,
            setting=r.setting,
            batch=r.batch,
            co=r.co,
            privacy=ptype,
            factor_batch=fb,
            factor_co=fc,
            batch_eps_exp=a,
            co_eps_exp=_exponent(add_c, r"\varepsilon"),
            co_kappa_exp=_exponent(add_c, r"\kappa"),
            co_lnt_exp=_ln_t_exponent(add_c),
            derived_eps_exp=max(a, 1),
            derived_kappa_exp=max(a, 1),
            derived_lnt_exp=max(2 * a, 3),
            eps=params.eps,
            delta=delta,
            kappa=params.kappa,
            beta=params.beta,
            ledger_eps=eps_tot,
            ledger_delta=delta_tot,
        )
        for t in cfg["t_report"]:
            e_b, ell = trajectory_eps_batch(params, float(t))
            row[f"ell[t={t:g}]"] = ell
            row[f"eps_batch[t={t:g}]"] = e_b
            row[f"inflation[t={t:g}]"] = (params.eps / e_b) ** a
        rows.append(row)
    return pd.DataFrame(rows)


def scaling_grid(cfg: dict) -> pd.DataFrame:
    """q(t, kappa) = (1/eps_batch(t)) kappa eps / (ln^2(t/beta) ln^2(1 + ln t/kappa)) on cfg's t and kappa grids:
    bounded above and below iff 1/eps_batch = Theta(ln^2(t/beta)/(kappa eps)) up to the ln ln factor Theorem 42's
    weights omega_ell = C/(ell ln^2(ell+1)) add (ell ~ ln t/kappa)."""
    out = []
    for kappa in cfg["kappa_grid"]:
        params = make_params(cfg, kappa=kappa)
        for t in cfg["t_grid"]:
            e_b, ell = trajectory_eps_batch(params, float(t))
            lnlt = math.log(t / params.beta)
            q = kappa * params.eps / (e_b * lnlt**2 * math.log1p(math.log(t) / kappa) ** 2)
            out.append(dict(kappa=kappa, t=t, ell=ell, eps_batch=e_b, q=q))
    return pd.DataFrame(out)


#: Rows whose printed CO cell is known to disagree with Theorem 42 (recorded in ERRATA.md). For these the claim is the
#: erratum itself (PASS = the disagreement is confirmed); a disagreement in any other row is a FAIL.
KNOWN_ERRATA = ("Rafiey",)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    out = []
    for i, r in raw.iterrows():
        tag = f"{i}:{r.work}"
        shown = (int(r.co_lnt_exp), int(r.co_kappa_exp), int(r.co_eps_exp))
        need = (int(r.derived_lnt_exp), int(r.derived_kappa_exp), int(r.derived_eps_exp))
        ok = all(s >= n for s, n in zip(shown, need, strict=True)) and r.factor_co == r.factor_batch
        erratum = any(name in str(r.work) for name in KNOWN_ERRATA)
        statement = (
            "the CO cell is the batch cell with factor alpha/(1+kappa) and an additive term that upper-bounds "
            "E_A(eps_batch) + O(ln^3(t/beta)/(kappa eps)) with eps_batch = Theta~(kappa eps/ln^2(t/beta))"
        )
        if erratum:
            statement = "erratum (ERRATA.md): the printed CO cell is smaller than Theorem 42's substitution gives"
            ok = not ok
        out.append(
            Claim(
                f"co.table3.{'erratum' if erratum else 'exponents'}[{tag}]",
                "Table 3 vs Thm 42 + Cor 43/44",
                statement,
                EXPERIMENT,
                f"shown ln t^{shown[0]}, kappa^-{shown[1]}, eps^-{shown[2]}; factors {r.factor_batch!r} -> "
                f"{r.factor_co!r}/(1+kappa)",
                f"ln t^>={need[0]}, kappa^->={need[1]}, eps^->={need[2]} (batch eps^-{int(r.batch_eps_exp)})",
                verdict_exact(bool(ok)),
                "exact (exponents parsed from the rendered LaTeX of privtest.co.tables); for an erratum row PASS "
                "confirms the recorded disagreement, elsewhere FAIL would mean the displayed CO bound is smaller than "
                "the substitution gives, for kappa < 1",
            )
        )
        ok = r.ledger_eps <= r.eps and r.ledger_delta <= r.delta
        out.append(
            Claim(
                f"co.table3.privacy[{tag}]",
                "Lemma 38, Thm 42(1)",
                f"BatchToCO over this row's batch algorithm ({r.privacy}) is {r.privacy} with the same eps "
                "(and delta): Lemma 38's ledger",
                EXPERIMENT,
                f"eps {fmt(r.ledger_eps, 6)}, delta {fmt(r.ledger_delta)}",
                f"eps {r.eps}, delta {r.delta}",
                verdict_exact(bool(ok)),
                "exact sum over checkpoints 2..1e6 plus tail bound (BatchToCOParams.privacy_budget)",
            )
        )
    grid = scaling_grid(cfg)
    spread = float(grid.q.max() / grid.q.min())
    # An exponent wrong by one in ln(t/beta) (or in 1/kappa) alone would move q by at least this factor on the grid.
    tmin, tmax = min(cfg["t_grid"]), max(cfg["t_grid"])
    kmin, kmax = min(cfg["kappa_grid"]), max(cfg["kappa_grid"])
    beta = cfg["beta"]
    resolve = min(math.log(tmax / beta) / math.log(tmin / beta), kmax / kmin)
    out.append(
        Claim(
            "co.table3.eps_batch_scaling",
            "Thm 42, Cor 43 (eps_batch), Sec. 1.3 (lines 196-203)",
            "the code's batch privacy on the OPT_t = t trajectory is eps_batch(t) = Theta(kappa eps/(ln^2(t/beta) "
            "ln^2(1 + ln t/kappa))), i.e. Theta~(kappa eps/ln^2(t/beta)), the substitution behind Table 3",
            EXPERIMENT,
            f"q = (kappa eps/eps_batch)/(ln^2(t/beta) ln^2(1+ln t/kappa)) in [{fmt(grid.q.min())}, "
            f"{fmt(grid.q.max())}], spread {fmt(spread)}",
            f"spread < {fmt(resolve)}",
            verdict_exact(spread < resolve),
            f"exact on t in [{tmin:g}, {tmax:g}], kappa in [{kmin:g}, {kmax:g}] ({len(grid)} points); the bound is the "
            "smallest spread an exponent off by one in ln(t/beta) or 1/kappa would cause on this grid; a finite "
            "grid cannot prove Theta, it can refute a wrong exponent",
        )
    )
    return out
