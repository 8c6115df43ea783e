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

No randomness: ``rng`` is unused. Claims: :mod:`privtest.checks.table3`.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pandas as pd

from privtest.co.params import BatchToCOParams
from privtest.co.tables import SUBMODULAR_ROWS, TableRow
from privtest.co.trajectory import trajectory_eps_batch


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


@lru_cache(maxsize=8)
def _ledger(params: BatchToCOParams) -> tuple[float, float]:
    led = params.privacy_budget()
    return led["eps_total"], led["delta_total"]


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """One row per row of Table 3 (module docstring). ``rng`` is unused; no ``inputs``."""
    del rng  # deterministic: rendered rows and exact evaluations of the committed formulas
    rows = []
    for r in SUBMODULAR_ROWS:
        fb, add_b = _split(r.batch, co=False)
        fc, add_c = _split(r.co, co=True)
        a = _exponent(add_b, r"\varepsilon")
        ptype = privacy_type(r)
        delta = cfg["delta"] if ptype == "(eps,delta)-DP" else 0.0
        params = BatchToCOParams.from_config(cfg, delta=delta)
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
