"""Shared machinery of the continual-observation experiments (Sections 7-8): one BatchToCO sweep over eps with
the baselines on one problem (:func:`run_problem`), Theorem 42's guarantee at confidence bounds on V_A
(:func:`add_va_guarantees`), and the summaries the figures and Table 2 plot. The claims every CO experiment checks are
in :mod:`privtest.checks._co`.

Raw rows (:func:`run_problem`): one per (stream, eps, method, run, t) with value f(X_t, Y_t), opt (OPT_t, or an upper
bound U_t >= OPT_t), opt_kind and, for BatchToCO, the latest checkpoint ell, its time t_ell, eps_t, GTM calls N_t,
ThresholdSelect draws, the GTM step's exact expected calls, and Theorem 42's explicit guarantee
(:func:`privtest.co.params.theorem42_guarantee`) evaluated at V_A = U_t (``guarantee``: the largest it can be, since
V_A(X_t) <= OPT_t <= U_t) and, where that is positive, at the ends of a confidence interval [V_lo, V_hi] on V_A from
fresh draws of A(X_t, eps_t/2) (``guarantee_va_lo``, ``guarantee_va_hi``; NaN where the guarantee at U_t is <= 0,
i.e. vacuous, and at checkpoint steps).

Theorem 42 is checked only at the steps its proof covers (:func:`covered`): t >= 2 and t > t(ell(t)). At a checkpoint
step t = t(ell(t)) the proof's Step 1 (instance ell(t)+1 ran at t and did not halt) does not apply, because that
instance first steps at t + 1 (ERRATA.md).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from privtest.co.batch_to_co import baselines, batch_to_co
from privtest.co.frames import CHECKPOINT_RUNS, METHOD, covered, plotted
from privtest.co.graphs import EdgeStream, load_stream
from privtest.co.params import BatchToCOParams, lemma39_margin, theorem42_guarantee


def co_params(cfg: dict, eps: float) -> BatchToCOParams:
    """BatchToCO's parameters for one eps of a CO config section; its global delta is ``cfg["delta"]`` when the
    section has one (Table 2's (eps, delta)-DP rows), else 0 (a pure-DP batch algorithm)."""
    return BatchToCOParams.from_config(cfg, eps, delta=float(cfg.get("delta", 0.0)))


def expected_calls(params: BatchToCOParams, ell: np.ndarray, s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """E[N_t] of each GTM_ell step (instance ell, step index s, time t), float (n,): the step's
    :attr:`privtest.gtm.StepParams.expected_samples` (finite here: eps_t tau2 = 2/(C_H ln(4/beta_s)) < 1)."""
    out = np.zeros(len(ell))
    for k, (i, si, ti) in enumerate(zip(ell, s, t, strict=True)):
        out[k] = params.calibration(int(i)).step(int(si), params.eps_it(int(i), int(ti)), params.pstar).expected_samples
    return out


def edge_stream_inputs(name: str, cfg: dict, inputs: dict[str, str]) -> tuple[EdgeStream, pd.DataFrame]:
    """The edge stream ``name`` (from input ``wheel_<name>``, truncated to ``cfg["T_max"][name]``) and its OPT_t
    reference (input ``opt_<name>``: columns opt, opt_kind), cut to the stream's T rows."""
    stream = load_stream(name, inputs[f"wheel_{name}"], cfg["T_max"].get(name))
    return stream, pd.read_csv(inputs[f"opt_{name}"]).iloc[: stream.T]


def run_problem(prob, name: str, cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    """BatchToCO and the baselines on one problem for every eps of ``cfg``: raw rows (see module docstring).

    Args:
        prob: a :class:`privtest.co.mechanisms.COProblem`; ``prob.opt`` is OPT_t or an upper bound U_t (float (T,)),
            labelled by ``prob.opt_kind`` (a string or a (T,) array of "exact" / "upper bound").
        name: the stream's name (column ``stream``).
        cfg: the experiment's config section (BatchToCO constants, ``eps``, ``runs``, ``delta_adv``, ``va_draws``,
            ``va_alpha``).
        rng: numpy Generator.
    """
    frames = []
    opt = np.asarray(prob.opt, dtype=float)
    T = prob.T
    tt = np.arange(1, T + 1)
    kinds = np.broadcast_to(np.asarray(prob.opt_kind, dtype=object), (T,))
    R = cfg["runs"]
    plist = [co_params(cfg, eps) for eps in cfg["eps"]]
    res = batch_to_co(prob, plist, R, rng)
    for j, (eps, params) in enumerate(zip(cfg["eps"], plist, strict=True)):
        rows = slice(j * R, (j + 1) * R)
        ell, t_ell = res.ell[rows], res.t_ell[rows]
        guar = np.full((R, T), np.nan)
        guar[:, 1:] = theorem42_guarantee(params, opt[None, 1:], ell[:, 1:], t_ell[:, 1:], tt[None, 1:])
        ecalls = np.zeros((R, T))
        keys = np.stack(
            [res.gtm_ell[rows, 1:].ravel(), res.gtm_s[rows, 1:].ravel(), np.broadcast_to(tt[1:], (R, T - 1)).ravel()]
        )
        uniq, inv = np.unique(keys, axis=1, return_inverse=True)
        ecalls[:, 1:] = expected_calls(params, uniq[0], uniq[1], uniq[2])[inv.ravel()].reshape(R, T - 1)
        base = dict(
            stream=name,
            eps=eps,
            t=np.tile(tt, R),
            run=np.repeat(np.arange(R), T),
            opt=np.tile(opt, R),
            opt_kind=np.tile(kinds, R),
        )
        ledger = {"delta_loss": np.repeat(res.delta_loss[rows], T)} if params.delta > 0 else {}
        frames.append(
            pd.DataFrame(
                {
                    **base,
                    **ledger,
                    "method": METHOD,
                    "value": res.value[rows].ravel(),
                    "ell": ell.ravel(),
                    "t_ell": t_ell.ravel(),
                    "eps_t": res.eps_t[rows].ravel(),
                    "gtm_calls": res.gtm_calls[rows].ravel(),
                    "expected_calls": ecalls.ravel(),
                    "ts_calls": res.ts_calls[rows].ravel(),
                    "ts_failed": res.ts_failed[rows].ravel(),
                    "guarantee": guar.ravel(),
                    "halt_loss": np.repeat(res.halt_loss[rows], T),
                    "l39_margin": checkpoint_margins(params, res.checkpoints[rows], opt, tt).ravel(),
                }
            )
        )
        for method, vals in baselines(prob, eps, R, rng, cfg["kappa"], cfg["delta_adv"], delta=params.delta).items():
            frames.append(pd.DataFrame({**base, "method": method, "value": vals.ravel()}))
    if cfg["checkpoint_runs"] > 0:
        frames.append(checkpoint_rows(prob, plist, cfg, name, rng, opt_kind=kinds[-1]))
    return add_va_guarantees(pd.concat(frames, ignore_index=True), prob, cfg, rng)


def checkpoint_margins(params: BatchToCOParams, checkpoints: np.ndarray, U: np.ndarray, steps) -> np.ndarray:
    """Per run and step t of ``steps``: the largest Lemma 39(2) margin over the checkpoints declared by t (with
    U_{t(ell)} >= OPT_{t(ell)} at each checkpoint's time; -inf before the first). A margin > 0 violates Lemma 39(2),
    from which Lemma 40's count bound follows at every step. Float (R, len(steps)).

    Args:
        params: Algorithm 3's parameters. checkpoints: int (R, L) checkpoint times t(2), t(3), ... (0-padded, as
            :attr:`privtest.co.batch_to_co.CORun.checkpoints`). U: float (T,) upper bounds of OPT_t, t = 1..T.
        steps: increasing steps (1-based).
    """
    steps = np.asarray(steps, dtype=np.int64)
    out = np.full((checkpoints.shape[0], steps.size), -np.inf)
    for r, cps in enumerate(checkpoints):
        cps = cps[cps > 0]
        if cps.size == 0:
            continue
        m = np.maximum.accumulate(lemma39_margin(params, np.arange(2, cps.size + 2), cps, U[cps - 1]))
        k = np.searchsorted(cps, steps, side="right")  # checkpoints at or before each step
        out[r] = np.where(k > 0, m[np.maximum(k - 1, 0)], -np.inf)
    return out


def checkpoint_rows(prob, plist, cfg: dict, name: str, rng: np.random.Generator, **extra) -> pd.DataFrame:
    """``cfg["checkpoint_runs"]`` runs of BatchToCO per eps without ThresholdSelect (the checkpoint process has the
    same law, :func:`privtest.co.batch_to_co.batch_to_co` with ``select=False``), one row per run at t = T (method
    :data:`privtest.co.frames.CHECKPOINT_RUNS`): ell(T) and the largest Lemma 39(2) margin (``l39_margin``)."""
    R, T = cfg["checkpoint_runs"], prob.T
    res = batch_to_co(prob, plist, R, rng, record=[T], select=False)
    U = np.array([prob.upper(t) for t in range(1, T + 1)])
    frames = []
    for j, params in enumerate(plist):
        rows = slice(j * R, (j + 1) * R)
        frames.append(
            pd.DataFrame(
                dict(
                    stream=name,
                    eps=params.eps,
                    t=T,
                    run=np.arange(R),
                    method=CHECKPOINT_RUNS,
                    value=np.nan,
                    opt=U[T - 1],
                    ell=res.ell[rows, -1],
                    l39_margin=checkpoint_margins(params, res.checkpoints[rows], U, [T])[:, 0],
                    **extra,
                )
            )
        )
    return pd.concat(frames, ignore_index=True)


def va_bounds(values: np.ndarray, q: float, alpha: float, upper: float) -> tuple[float, float]:
    r"""Confidence bounds on V_A = sup{v: Pr[f >= v] >= q} (Theorem 42 with q = 2 p*) from N i.i.d. draws of f.

    With x_(1) <= ... <= x_(N): x_(j) > V_A needs >= N-j+1 draws > V_A, each w.p. Pr[f > V_A] <= q, so
    Pr[x_(j) > V_A] <= Pr[Bin(N, q) >= N-j+1]; x_(j') < V_A needs <= N-j' draws >= V_A, each w.p. >= q (the sup
    is attained: v -> Pr[f >= v] is left-continuous), so Pr[x_(j') < V_A] <= Pr[Bin(N, q) <= N-j']. V_lo is the
    largest x_(j), V_hi the smallest x_(j') with that probability <= alpha/2; V_lo >= 0 (f >= 0) and V_hi <= upper
    (an upper bound of OPT_t) always hold, so [V_lo, V_hi] contains V_A w.p. >= 1 - alpha.

    Args:
        values: float (N,), draws of f(X_t, A(X_t, eps_t/2)).
        q: 2 p* in (0, 1]. alpha: in (0, 1). upper: U_t >= OPT_t.

    Returns:
        (V_lo, V_hi).
    """
    x = np.sort(np.asarray(values, dtype=float))
    N = x.size
    j = np.arange(1, N + 1)
    # P(Bin >= N-j+1) increases with j (admissible j: a prefix); P(Bin <= N-j') decreases with j' (a suffix).
    lo_ok = stats.binom.sf(N - j, N, q) <= alpha / 2
    hi_ok = stats.binom.cdf(N - j, N, q) <= alpha / 2
    v_lo = float(x[np.flatnonzero(lo_ok)[-1]]) if lo_ok.any() else 0.0
    v_hi = float(x[np.flatnonzero(hi_ok)[0]]) if hi_ok.any() else float(upper)
    return max(v_lo, 0.0), min(v_hi, float(upper))


def add_va_guarantees(part: pd.DataFrame, prob, cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Columns guarantee_va_lo / guarantee_va_hi / va_lo / va_hi for the :func:`covered` BatchToCO rows whose
    guarantee at U_t is positive (NaN elsewhere). V_A is bracketed per (eps, active instance ell+1, t) from
    ``cfg["va_draws"]`` draws of A(X_t, eps(ell+1, t)/2, delta(ell+1, t)); the confidence alpha = ``cfg["va_alpha"]``
    is split evenly (union bound) over the brackets of one (stream, eps)."""
    part = part.copy()
    for c in ("va_lo", "va_hi", "guarantee_va_lo", "guarantee_va_hi"):
        part[c] = np.nan
    b = covered(part)
    b = b[b.guarantee > 0]
    for eps, g in b.groupby("eps"):
        params = co_params(cfg, float(eps))
        keys = g[["ell", "t"]].drop_duplicates().to_numpy()
        alpha = cfg["va_alpha"] / max(len(keys), 1)
        for ell, t in keys:
            e_b = float(params.batch_eps(int(ell) + 1, int(t)))
            d_b = float(params.delta_it(int(ell) + 1, int(t)))
            vals = prob.value(int(t), prob.sample(int(t), e_b, d_b, cfg["va_draws"], rng))
            v_lo, v_hi = va_bounds(vals, 2 * params.pstar, alpha, prob.upper(int(t)))
            idx = g.index[(g.ell == ell) & (g.t == t)]
            rows = part.loc[idx]
            part.loc[idx, "va_lo"], part.loc[idx, "va_hi"] = v_lo, v_hi
            for col, v in (("guarantee_va_lo", v_lo), ("guarantee_va_hi", v_hi)):
                part.loc[idx, col] = theorem42_guarantee(
                    params, v, rows.ell.to_numpy(), rows.t_ell.to_numpy(), rows.t.to_numpy()
                )
    return part


def table_rows(
    raw: pd.DataFrame, cfg: dict, algorithm: str, application: str = "densest subgraph", exact_only: bool = True
) -> pd.DataFrame:
    """Rows of figures/table2.csv for this experiment: per (stream, eps) the measured ratio f/OPT of BatchToCO
    (median and worst over t >= 2 and runs, at the steps where OPT_t is exact), the median additive gap OPT - f; over
    the :func:`covered` steps the median and largest Theorem 42 guarantee at V_A = U_t (>= OPT_t >= V_A), the largest
    guarantee at V_hi (the upper confidence bound on V_A; NaN where the guarantee at U_t is never positive) and the
    number of (run, t) below it; for comparison, each baseline's median ratio, the best method of the CO model (no
    horizon known: BatchToCO and the CO-model baselines) by median ratio and BatchToCO's median minus that best
    (negative: BatchToCO loses); and the same at the last step T (``ratio_T[<method>]``: mean f/OPT_T over runs,
    ``best_co_method_T``, ``batchtoco_minus_best_T``), the relevant figure on the long streams, whose recorded steps
    are log-spaced; ``opt_T`` is OPT_T (or its upper bound).
    With ``exact_only=False`` (no exact OPT_t at all) the ratios are against the upper bound: lower bounds of the
    true ratios (column ``opt_kind``)."""
    rows = []
    raw = plotted(raw if "source" not in raw else raw[raw.source == "run"])
    for (stream, eps), g in raw.groupby(["stream", "eps"], sort=True):
        if exact_only:
            g = g[g.opt_kind == "exact"]  # ratios and gaps only where OPT_t is exact
        b = g[(g.method == METHOD) & (g.t >= 2)]
        ratio = b.value / b.opt
        c = covered(g)
        row = dict(
            application=application,
            algorithm=algorithm,
            stream=stream,
            eps=eps,
            beta=cfg["beta"],
            kappa=cfg["kappa"],
            runs=int(b.run.nunique()),
            T=int(g.t.max()),
            ratio_median=ratio.median(),
            ratio_worst=ratio.min(),
            gap_median=(b.opt - b.value).median(),
            guarantee_median=c.guarantee.median(),
            guarantee_max=c.guarantee.max(),
            guarantee_va_hi_max=c.guarantee_va_hi.max(),
            violations=int((c.value < c.guarantee_va_hi).sum()),
            opt_kind="/".join(sorted(set(b.opt_kind))),
        )
        last = g[g.t == g.t.max()]
        row["opt_T"] = float(last.opt.max())  # OPT_T (or its upper bound, per opt_kind)
        at_T = {m: float((x.value / x.opt).mean()) for m, x in last.groupby("method")}
        medians = {METHOD: row["ratio_median"]}
        for method, m in g[(g.method != METHOD) & (g.t >= 2)].groupby("method"):
            row[f"ratio_median[{method}]"] = medians[method] = (m.value / m.opt).median()
        for name, stat in (("", medians), ("_T", at_T)):
            co_model = {m: v for m, v in stat.items() if not m.startswith("oracle-horizon")}
            best = max(co_model, key=co_model.get)
            row[f"best_co_method{name}"] = best  # the best method needing no horizon (the CO model)
            row[f"batchtoco_minus_best{name}"] = stat[METHOD] - co_model[best]
        for method, v in at_T.items():
            row[f"ratio_T[{method}]"] = v
        rows.append(row)
    return pd.DataFrame(rows)
