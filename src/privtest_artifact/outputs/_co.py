"""What the continual-observation outputs (Sections 7-8: fig_co_densest, fig_co_maxcut, fig_co_submodular, fig_co_dks,
fig_co_crossover, fig_co_checkpoints, table2, table3) share, stage by stage.

Simulation: one BatchToCO sweep over eps with the baselines on one problem (:func:`run_problem`), with BatchToCO's
parameters from :func:`co_params` (the one place every stage builds them). Raw rows: one per (stream, eps, method,
run, t) with value f(X_t, Y_t), opt (OPT_t, or an upper bound U_t >= OPT_t), opt_kind and, for BatchToCO, the latest
checkpoint ell, its time t_ell, eps_t, GTM calls N_t, ThresholdSelect draws, the GTM step's exact expected calls,
Lemma 39(2)'s margin, and Theorem 42's explicit guarantee (:func:`privtest.co.params.utility_guarantee`)
evaluated at V_A = U_t (``guarantee``: the largest it can be, since V_A(X_t) <= OPT_t <= U_t) and, where that is
positive, at the ends of a confidence interval [V_lo, V_hi] on V_A from fresh draws of A(X_t, eps_t/2)
(``guarantee_va_lo``, ``guarantee_va_hi``; NaN where the guarantee at U_t is <= 0, i.e. vacuous, and at checkpoint
steps; :func:`add_va_guarantees`). Why these are computed while drawing: :func:`run_problem`.

Theorem 42 is checked only at the steps its proof covers (:func:`covered`): t >= 2 and t > t(ell(t)). At a checkpoint
step t = t(ell(t)) the proof's Step 1 (instance ell(t)+1 ran at t and did not halt) does not apply, because that
instance first steps at t + 1 (ERRATA.md). Method names of the raw rows: :data:`METHOD`, :data:`CHECKPOINT_RUNS`,
:data:`METHOD_L40`.

Analysis (:func:`tables`, computed once from the raw rows; :func:`summarize` is what the utility figures draw):

- ``privacy`` (:func:`privacy`), per eps: Lemma 38's worst-case ledger of BatchToCO beside the realised ex-post loss
  of the runs;
- ``checkpoints`` (:func:`checkpoints`), per (stream, eps): Lemma 40 via Lemma 39(2), the runs whose checkpoints
  violate h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar);
- ``calls`` (:func:`calls`), per (stream, eps): the GTM calls of A per step against their exact expectation
  (Theorem 42(3), Corollary 35(3); per run sum_t N_t / sum_t E[N_t], :func:`run_ratios`, its mean and standard
  error over runs, :func:`summarise`);
- ``utility`` (:func:`utility`), per (stream, eps): the runs below Theorem 42(2)'s explicit guarantee at the steps
  its proof covers, with V_A bracketed.

Claims (:func:`claims`, on those four tables): per eps the privacy ledger (Lemma 38, the realised ex-post loss
beside it); per (stream, eps) Lemma 40's checkpoint bound, the GTM calls per step against their exact expectation
(Theorem 42(3)) and the utility guarantee of Theorem 42(2) at V_A (:func:`utility_claim`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from privtest.co.batch_to_co import baselines, batch_to_co
from privtest.co.graphs import EdgeStream
from privtest.co.params import BatchToCOParams, checkpoint_margin, utility_guarantee
from privtest_artifact.claims import Binomial, Claim, Normal, exact, fmt, statistical, vacuous
from privtest_artifact.data import load_stream
from privtest_artifact.stats import standard_error


def co_params(
    cfg: dict, eps: float | None = None, *, kappa: float | None = None, delta: float | None = None
) -> BatchToCOParams:
    """BatchToCO's parameters (Algorithm 3, Corollary 35) for one eps of a CO config section: the one place every
    stage of every CO output (simulation, analysis, claims) builds them.

    Args:
        cfg: the config section (the shared ``co`` block's keys: beta, pstar, kappa, gamma, C_1, C_H, C_beta,
            log_beta; eps unless given).
        eps: the total privacy budget (nats, > 0); None takes ``cfg["eps"]``.
        kappa: None takes ``cfg["kappa"]`` (Table 3's scaling grid varies it).
        delta: the global delta in [0, 1); None takes ``cfg["delta"]`` when the section has one (Table 2's
            (eps, delta)-DP rows), else 0 (a pure-DP batch algorithm).

    Raises:
        KeyError: for a missing key. ValueError: on a value outside its range (:class:`BatchToCOParams`).
    """
    if delta is None:
        delta = float(cfg.get("delta", 0.0))
    return BatchToCOParams.from_config(cfg, eps, kappa=kappa, delta=delta)


def expected_calls(params: BatchToCOParams, ell: np.ndarray, s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """E[N_t] of each GTM_ell step (instance ell, step index s, time t), float (n,): the step's
    :attr:`privtest.gtm.StepParams.expected_samples` (finite here: eps_t tau2 = 2/(C_H ln(4/beta_s)) < 1)."""
    out = np.zeros(len(ell))
    eps_t: dict = {}  # eps(i, t) per (i, t): runs with the same instance share it at a step
    for k, (i, si, ti) in enumerate(zip(*(np.asarray(x).tolist() for x in (ell, s, t)), strict=True)):
        e = eps_t.get((i, ti))
        if e is None:
            e = eps_t[i, ti] = params.eps_it(i, ti)
        out[k] = params.calibration(i).step(si, e, params.pstar).expected_samples
    return out


def edge_stream_inputs(name: str, cfg: dict, inputs: dict[str, str]) -> tuple[EdgeStream, pd.DataFrame]:
    """The edge stream ``name`` (from input ``wheel_<name>``, truncated to ``cfg["T_max"][name]``) and its OPT_t
    reference (input ``opt_<name>``: columns opt, opt_kind), cut to the stream's T rows."""
    stream = load_stream(name, inputs[f"wheel_{name}"], cfg["T_max"].get(name))
    return stream, pd.read_csv(inputs[f"opt_{name}"]).iloc[: stream.T]


def run_problem(prob, name: str, cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    """BatchToCO and the baselines on one problem for every eps of ``cfg``: raw rows (see module docstring).

    Three derived columns are computed here, while drawing, rather than in the analysis: ``guarantee`` (Theorem 42's
    guarantee at U_t) decides where V_A is drawn (:func:`add_va_guarantees` draws only where it is positive);
    ``l39_margin`` needs each run's whole list of checkpoint times and ``expected_calls`` each GTM step's instance and
    step index, run state the raw rows do not carry (the raw table stays one row per (run, t)).

    Args:
        prob: a :class:`privtest.co.mechanisms.COProblem`; ``prob.opt`` is OPT_t or an upper bound U_t (float (T,)),
            labelled by ``prob.opt_kind`` (a string or a (T,) array of "exact" / "upper bound").
        name: the stream's name (column ``stream``).
        cfg: the output's config section (BatchToCO constants, ``eps``, ``runs``, ``delta_adv``, ``va_draws``,
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
        guar[:, 1:] = utility_guarantee(params, opt[None, 1:], ell[:, 1:], t_ell[:, 1:], tt[None, 1:])
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
        m = np.maximum.accumulate(checkpoint_margin(params, np.arange(2, cps.size + 2), cps, U[cps - 1]))
        k = np.searchsorted(cps, steps, side="right")  # checkpoints at or before each step
        out[r] = np.where(k > 0, m[np.maximum(k - 1, 0)], -np.inf)
    return out


def checkpoint_rows(prob, plist, cfg: dict, name: str, rng: np.random.Generator, **extra) -> pd.DataFrame:
    """``cfg["checkpoint_runs"]`` runs of BatchToCO per eps without ThresholdSelect (the checkpoint process has the
    same law, :func:`privtest.co.batch_to_co.batch_to_co` with ``select=False``), one row per run at t = T (method
    :data:`CHECKPOINT_RUNS`): ell(T) and the largest Lemma 39(2) margin (``l39_margin``). The GTM's calls are not
    counted (``calls=False``: the engine's lazy halting decisions, the same law of the checkpoints)."""
    R, T = cfg["checkpoint_runs"], prob.T
    res = batch_to_co(prob, plist, R, rng, record=[T], select=False, calls=False)
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
    from scipy import stats  # on use: scipy.stats is slow to import

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
                part.loc[idx, col] = utility_guarantee(
                    params, v, rows.ell.to_numpy(), rows.t_ell.to_numpy(), rows.t.to_numpy()
                )
    return part


def table_rows(
    raw: pd.DataFrame, cfg: dict, algorithm: str, application: str = "densest subgraph", exact_only: bool = True
) -> pd.DataFrame:
    """Rows of figures/table2.csv for one CO raw table: per (stream, eps) the measured ratio f/OPT of BatchToCO
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


#: Columns of the table ``privacy``.
PRIVACY = ["eps", "delta", "eps_total", "delta_total", "eps_bound", "gtm_excess", "constants", "halt_loss_max", "runs"]
#: Columns of the table ``checkpoints``.
CHECKPOINTS = ["stream", "eps", "runs", "runs_violating", "ell_T_max", "l39_margin_max", "T", "checkpoint_only"]
#: Columns of the table ``calls``.
CALLS = ["stream", "eps", "runs", "calls_ratio_mean", "calls_ratio_se", "calls_mean", "expected_calls_max"]
#: Columns of the table ``utility``.
UTILITY = [
    "stream",
    "eps",
    "runs",
    "guarantee_positive",
    "guarantee_max",
    "guarantee_va_hi_max",
    "runs_violating_va_hi",
    "runs_violating_va_lo",
]


def summarize(raw: pd.DataFrame) -> pd.DataFrame:
    """Per (stream, eps, method, t) of the plotted methods (all but the checkpoint-only runs): mean, 10% and 90%
    quantiles of ``value`` over runs, and ``opt`` and ``opt_kind`` (the figure's data).

    Args:
        raw: CO raw rows (module docstring: columns stream, eps, method, t, value, opt, opt_kind).
    """
    g = plotted(raw).groupby(["stream", "eps", "method", "t"], sort=True)
    out = g["value"].agg(mean="mean", q10=lambda x: x.quantile(0.1), q90=lambda x: x.quantile(0.9)).reset_index()
    out["opt"] = g["opt"].first().to_numpy()
    out["opt_kind"] = g["opt_kind"].first().to_numpy()
    return out


def tables(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``privacy``, ``checkpoints``, ``calls`` and ``utility`` (module docstring) of CO raw rows, each
    sorted by its keys.

    Args:
        raw: CO raw rows (module docstring), BatchToCO's with columns ell, t_ell, gtm_calls, expected_calls,
            guarantee, guarantee_va_lo, guarantee_va_hi, halt_loss, l39_margin.
        cfg: the output's config section (BatchToCO's constants, :func:`co_params`).
    """
    return {
        "privacy": privacy(raw, cfg),
        "checkpoints": checkpoints(raw),
        "calls": calls(raw),
        "utility": utility(raw),
    }


def privacy(raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """Per eps of the BatchToCO rows of ``raw`` (sorted): Lemma 38's worst-case ledger
    (:meth:`BatchToCOParams.privacy_budget`: ``eps_total``, ``delta_total``, the closed form ``eps_bound`` and
    ``gtm_excess`` = max GTM_i cost / ((1 + C_H/C_1) eps(i))), the global ``delta`` and the constants' label
    (``constants``), and the realised ex-post loss (Theorem 23) of the runs, which cannot exceed the ledger:
    ``halt_loss_max``, its largest value over the (stream, run) of that eps, and ``runs``, their number.

    Returns:
        DataFrame with the columns :data:`PRIVACY`, one row per eps.
    """
    bco = raw[raw.method == METHOD]
    rows = []
    for eps in sorted(bco.eps.unique()):
        params = co_params(cfg, float(eps))
        led = params.privacy_budget()
        realised = bco[bco.eps == eps].groupby(["stream", "run"])["halt_loss"].first()
        rows.append(
            dict(
                eps=eps,
                delta=float(params.delta),
                eps_total=float(led["eps_total"]),
                delta_total=float(led["delta_total"]),
                eps_bound=float(led["eps_bound"]),
                gtm_excess=float(led["gtm_excess"]),
                constants=params.constants_label,
                halt_loss_max=float(realised.max()),
                runs=int(len(realised)),
            )
        )
    return pd.DataFrame(rows, columns=PRIVACY)


def checkpoint_row(rows: pd.DataFrame) -> dict:
    """Lemma 40 via Lemma 39(2) on the runs of one (stream, eps) in ``rows`` (the checkpoint-only runs, one row per
    run at t = T, or BatchToCO's rows): at their last step T, ``runs`` R, ``runs_violating`` (runs whose largest
    Lemma 39(2) margin over their checkpoints, column ``l39_margin``, is > 0), ``ell_T_max`` (the largest ell(T)),
    ``l39_margin_max`` (the largest margin; -inf if no run declared a checkpoint), ``T`` and ``checkpoint_only``
    (whether ``rows`` are the checkpoint-only runs)."""
    last = rows[rows.t == rows.t.max()]
    return dict(
        runs=int(last.run.nunique()),
        runs_violating=int((last.groupby("run")["l39_margin"].max() > 0).sum()),
        ell_T_max=int(last.ell.max()),
        l39_margin_max=float(last.l39_margin.max()),
        T=int(last.t.max()),
        checkpoint_only=bool((rows.method == CHECKPOINT_RUNS).any()),
    )


def checkpoints(raw: pd.DataFrame, sort: bool = True) -> pd.DataFrame:
    """Per (stream, eps) of the BatchToCO rows of ``raw``: :func:`checkpoint_row` on that (stream, eps)'s
    checkpoint-only runs (:data:`CHECKPOINT_RUNS`) if it has any, else on its BatchToCO runs.

    Args:
        raw: CO raw rows. sort: order the rows by (stream, eps) (else by first appearance).

    Returns:
        DataFrame with the columns :data:`CHECKPOINTS`.
    """
    out = []
    cps = raw[raw.method == CHECKPOINT_RUNS]
    for (stream, eps), g in raw[raw.method == METHOD].groupby(["stream", "eps"], sort=sort):
        cp = cps[(cps.stream == stream) & (cps.eps == eps)]
        out.append(dict(stream=stream, eps=eps, **checkpoint_row(cp if len(cp) else g)))
    return pd.DataFrame(out, columns=CHECKPOINTS)


def calls(raw: pd.DataFrame) -> pd.DataFrame:
    """Per (stream, eps) of the BatchToCO rows of ``raw`` (sorted), over the GTM steps t >= 2: per run sum N_t /
    sum E[N_t] (:func:`calls_ratio`: its mean ``calls_ratio_mean``, standard error ``calls_ratio_se`` and ``runs``),
    the mean N_t over (run, t) (``calls_mean``) and the largest exact expectation E[N_t] (``expected_calls_max``).

    Returns:
        DataFrame with the columns :data:`CALLS`.
    """
    out = []
    for (stream, eps), g in raw[raw.method == METHOD].groupby(["stream", "eps"], sort=True):
        steps = g[g.t >= 2]
        r = calls_ratio(steps)
        out.append(
            dict(
                stream=stream,
                eps=eps,
                runs=r.runs,
                calls_ratio_mean=r.mean,
                calls_ratio_se=r.se,
                calls_mean=float(steps.gtm_calls.mean()),
                expected_calls_max=float(steps.expected_calls.max()),
            )
        )
    return pd.DataFrame(out, columns=CALLS)


def utility_row(g: pd.DataFrame) -> dict:
    """Theorem 42(2) on the BatchToCO rows ``g`` of one (stream, eps): ``runs`` R (all its runs); over the
    :func:`covered` steps the share of (run, t) with a positive guarantee at U_t >= V_A (``guarantee_positive``, NaN
    without covered steps), the largest guarantee at U_t (``guarantee_max``) and at V_hi (``guarantee_va_hi_max``,
    NaN where the guarantee at U_t is never positive), and the runs with some covered step where f(X_t, Y_t) is below
    the guarantee at V_hi (``runs_violating_va_hi``: an upper end of the true count w.p. >= 1 - va_alpha) and at V_lo
    (``runs_violating_va_lo``: a lower end)."""
    R = int(g.run.nunique())
    g = covered(g)
    hi_max = float(g.guarantee_va_hi.max()) if g.guarantee_va_hi.notna().any() else float("nan")
    return dict(
        runs=R,
        guarantee_positive=float((g.guarantee > 0).mean()),
        guarantee_max=float(g.guarantee.max()),
        guarantee_va_hi_max=hi_max,
        runs_violating_va_hi=int(g.assign(b=g.value < g.guarantee_va_hi).groupby("run")["b"].any().sum()),
        runs_violating_va_lo=int(g.assign(b=g.value < g.guarantee_va_lo).groupby("run")["b"].any().sum()),
    )


def utility(raw: pd.DataFrame, sort: bool = True) -> pd.DataFrame:
    """Per (stream, eps) of the BatchToCO rows of ``raw``: :func:`utility_row`.

    Args:
        raw: CO raw rows. sort: order the rows by (stream, eps) (else by first appearance).

    Returns:
        DataFrame with the columns :data:`UTILITY`.
    """
    out = [
        dict(stream=stream, eps=eps, **utility_row(g))
        for (stream, eps), g in raw[raw.method == METHOD].groupby(["stream", "eps"], sort=sort)
    ]
    return pd.DataFrame(out, columns=UTILITY)


#: A-priori range of one run's sum N / sum E[N] (calls of A over their exact expectation): nonnegative, unbounded
#: above. With a zero standard error (one run, or identical ratios) the bounded-range test of
#: :class:`privtest_artifact.claims.Normal` can then never establish "<= 1.1": such a cell stays INCONCLUSIVE.
CALLS_RATIO_SPAN = (0.0, math.inf)


def claims(tables: dict[str, pd.DataFrame], cfg: dict, prefix: str) -> list[Claim]:
    """The claims every CO output checks: per eps the privacy ledger (Lemma 38, exact; the realised ex-post loss
    of the runs, which cannot exceed it, is in its note); per (stream, eps) Lemma 40's checkpoint bound, the GTM
    calls per step against their exact expectation (Thm 42(3)) and the utility guarantee of Theorem 42(2) at V_A
    (:func:`utility_claim`).

    Args:
        tables: the output's analysis tables (``results/analysis/<id>/``), of which ``privacy``, ``checkpoints``,
            ``calls`` and ``utility`` (:func:`tables`) are read.
        cfg: the output's config section (BatchToCO's constants; ``va_draws``, ``va_alpha`` for the notes).
        prefix: the start of the claim ids (``co`` for fig_co_densest, ``co.<application>`` for the others).
    """
    out = [privacy_claim(r, f"{prefix}.privacy_budget[eps={r.eps}]") for r in tables["privacy"].itertuples()]
    calls = tables["calls"].set_index(["stream", "eps"])
    utility = tables["utility"].set_index(["stream", "eps"])
    for r in tables["checkpoints"].itertuples():
        params = co_params(cfg, float(r.eps))
        tag = f"{r.stream},eps={r.eps}"
        out.append(checkpoint_claim(r, params, f"{prefix}.checkpoints[{tag}]"))
        out.append(calls_claim(calls.loc[(r.stream, r.eps)], f"{prefix}.calls_per_step[{tag}]"))
        out.append(utility_claim(utility.loc[(r.stream, r.eps)], params, cfg, f"{prefix}.utility[{tag}]"))
    return out


def privacy_claim(r, claim_id: str) -> Claim:
    """Lemma 38, exact: BatchToCO's worst-case privacy ledger sums to <= eps (and delta). ``r``: a row of the table
    ``privacy`` (:func:`privacy`); the realised ex-post loss of its runs, which cannot exceed the ledger, is shown in
    the note."""
    return exact(
        claim_id=claim_id,
        source="Lemma 38",
        statement="worst-case privacy of BatchToCO sums to <= eps (and delta)",
        measured=f"eps {fmt(float(r.eps_total), 6)}, delta {fmt(float(r.delta_total))}",
        bound=f"eps {float(r.eps):g}, delta {float(r.delta)}",
        ok=r.eps_total <= r.eps and r.delta_total <= r.delta,
        note=f"exact sum over checkpoints 2..1e6 plus tail bound; Lemma 38's closed form {fmt(float(r.eps_bound))}; "
        f"max GTM_i cost / (1 + C_H/C_1) eps(i) = {fmt(float(r.gtm_excess))} ({r.constants}); "
        f"realised ex-post loss (Thm 23) max {fmt(float(r.halt_loss_max))} over {int(r.runs)} runs",
    )


def checkpoint_claim(r, params: BatchToCOParams, claim_id: str) -> Claim:
    """Lemma 40 (via Lemma 39(2)) on one (stream, eps): the fraction of runs in which some checkpoint violates
    h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar) (a Lemma 39(2) margin > 0, with U_t >= OPT_t) is <= C_beta beta.
    ``r``: a row of the table ``checkpoints`` (:func:`checkpoints`: the checkpoint-only runs if any, else the BatchToCO
    runs)."""
    R, bad = int(r.runs), int(r.runs_violating)
    rate = params.C_beta * params.beta
    which = (
        "without ThresholdSelect: the checkpoint process has the same law" if r.checkpoint_only else "the utility runs"
    )
    return statistical(
        claim_id=claim_id,
        source="Lemma 40 (via Lemma 39(2))",
        statement="at every checkpoint, h_ell < OPT_t + (2/eps(ell,t)) ln(1/pbar), hence ell(t) <= "
        "max{ell: (1+kappa)^ell < OPT_t + (2/eps(ell,t)) ln(1/pbar)} (logarithmic in t), except w.p. C_beta beta",
        measured=f"ell(T) max {int(r.ell_T_max)}; largest Lemma 39(2) margin {fmt(float(r.l39_margin_max))}; "
        f"runs violating {bad}/{R} up to T = {int(r.T)}",
        bound=f"violation rate <= C_beta beta = {fmt(rate)}",
        evidence=Binomial(bad, R, "at_most", rate),
        note=f"{R} runs ({which}); every checkpoint checked with U_t >= OPT_t (the next exact value), a weaker valid "
        "form; the event fails w.p. <= sum_i beta_i <= C_beta beta per run",
    )


def calls_claim(r, claim_id: str) -> Claim:
    """Theorem 42(3) on one (stream, eps): per run sum N / sum E[N] lies in [0.9, 1.1] (Normal evidence of its mean
    over runs). ``r``: a row of the table ``calls`` (:func:`calls`)."""
    m, se = float(r.calls_ratio_mean), float(r.calls_ratio_se)
    return statistical(
        claim_id=claim_id,
        source="Thm 42(3), Cor 35(3)",
        statement="GTM calls of A per step match their exact expectation "
        "rho_s e^{eps_t mu1}/((1+eps_t tau1)(1-eps_t tau2)) = O(ln(t/beta)/(p*(gamma-1)^2))",
        measured=f"sum N / sum E[N] = {fmt(m)} +- {fmt(1.96 * se)}; mean N_t = {fmt(float(r.calls_mean))}",
        bound="in [0.9, 1.1]",
        evidence=Normal(m, se, int(r.runs), "within", (0.9, 1.1), span=CALLS_RATIO_SPAN),
        note=f"E[N_t] <= rho_s e^(1/C_1)/(1 - 2/(C_H ln(4/beta_s))), rho_s = lambda^l(c_s, beta_s/6)/p*; "
        f"max E[N_t] here {fmt(float(r.expected_calls_max))}",
    )


def utility_claim(r, params: BatchToCOParams, cfg: dict, claim_id: str) -> Claim:
    """Theorem 42(2) on one (stream, eps): the fraction of runs with some t >= 2 where f(X_t, Y_t) < the explicit
    guarantee at V_A(X_t) is <= (C_beta + 3) beta. ``r``: a row of the table ``utility`` (:func:`utility`).

    Checked at the :func:`covered` steps. V_A is unknown; the guarantee increases with it. The count of violating runs
    is bracketed: counted at V_hi (V_A <= V_hi w.p. >= 1 - va_alpha) it is an upper end, at V_lo a lower end; PASS is
    established with the upper end and FAIL refuted with the lower one (:class:`privtest_artifact.claims.Binomial`,
    ``k_low``). VACUOUS when the guarantee at V_hi is never positive (then the check cannot fail)."""
    R = int(r.runs)
    bound = (params.C_beta + 3.0) * params.beta
    positive, hi_max = float(r.guarantee_positive), float(r.guarantee_va_hi_max)
    k_hi, k_lo = int(r.runs_violating_va_hi), int(r.runs_violating_va_lo)
    text = dict(
        claim_id=claim_id,
        source="Thm 42(2)",
        statement="f(X_t, Y_t) >= Theorem 42's explicit guarantee at V_A(X_t) for all t, except w.p. (C_beta+3) beta "
        "per run",
        measured=f"max guarantee at U_t >= V_A: {fmt(float(r.guarantee_max))} (> 0 at {fmt(100 * positive)}% of "
        "(run, t)); "
        + (
            f"max guarantee at V_hi {fmt(hi_max)}; runs violating at V_hi {k_hi}/{R}, at V_lo {k_lo}/{R}"
            if positive
            else "V_A not needed"
        ),
        bound=f"violation rate <= (C_beta+3) beta = {fmt(bound)}",
    )
    note = (
        "steps t > t(ell(t)) (the proof's Step 1 does not cover checkpoint steps, ERRATA.md); V_A is bracketed from "
        f"{cfg['va_draws']} draws of A(X_t, eps_t/2) per (ell, t) where the guarantee at U_t >= V_A is positive, at "
        f"total confidence 1 - {cfg['va_alpha']} (PASS needs the V_hi count, FAIL the V_lo one)"
    )
    if not hi_max > 0:
        value = hi_max if np.isfinite(hi_max) else float(r.guarantee_max)
        return vacuous(
            **text,
            value=value,
            note="the guarantee (at V_hi, or at U_t >= V_A where V_hi is not needed) is never "
            "positive at the covered steps, so f >= guarantee holds trivially; " + note,
        )
    return statistical(**text, evidence=Binomial(k_hi, R, "at_most", bound, k_low=k_lo), note=note)


#: Method name of BatchToCO's rows (column ``method``).
METHOD = "BatchToCO"
#: Method name of the extra BatchToCO runs made only for Lemma 40's checkpoint count (no ThresholdSelect, one row per
#: run at t = T with the final ell and the largest Lemma 39(2) margin over its checkpoints; never plotted).
CHECKPOINT_RUNS = "BatchToCO [checkpoints only]"
#: Method name of fig_co_crossover's model rows for BatchToCO with Lemma 40's explicit checkpoint bound in place of
#: the measured ell(t).
METHOD_L40 = "BatchToCO [Lemma 40 ell]"


def covered(rows: pd.DataFrame) -> pd.DataFrame:
    """The BatchToCO rows at which Theorem 42's proof applies: t >= 2 and t > t(ell(t)) (not a checkpoint step; the
    proof's Step 1 needs instance ell(t)+1 to have run at t, ERRATA.md)."""
    return rows[(rows.method == METHOD) & (rows.t >= 2) & (rows.t > rows.t_ell)]


def plotted(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of the methods a figure or table compares (all but :data:`CHECKPOINT_RUNS`)."""
    return rows[rows.method != CHECKPOINT_RUNS]


@dataclass(frozen=True)
class CallsRatio:
    """Mean over runs of sum_t N_t / sum_t E[N_t] (dimensionless; 1 when the calls match their expectation).

    Attributes:
        mean: the mean over runs. se: its standard error (sample standard deviation / sqrt(runs); 0 for one run).
        runs: the number of runs.
    """

    mean: float
    se: float
    runs: int


def run_ratios(steps: pd.DataFrame) -> pd.Series:
    """Per run, sum_t N_t / sum_t E[N_t] over the GTM steps in ``steps``.

    Args:
        steps: BatchToCO rows of one (stream, eps), one per (run, t) with columns ``run``, ``gtm_calls`` (N_t) and
            ``expected_calls`` (E[N_t]); the caller selects the steps (t >= 2, where a GTM step runs).

    Returns:
        float Series indexed by run (sorted).
    """
    by_run = steps.groupby("run")
    return by_run["gtm_calls"].sum() / by_run["expected_calls"].sum()


def calls_ratio(steps: pd.DataFrame) -> CallsRatio:
    """:class:`CallsRatio` of the per-run ratios of :func:`run_ratios` (``steps``: as there)."""
    return summarise(run_ratios(steps))


def summarise(ratios: pd.Series) -> CallsRatio:
    """:class:`CallsRatio` of per-run ratios sum_t N_t / sum_t E[N_t] (float Series, one value per run; e.g. the run
    rows of table2, :func:`privtest_artifact.outputs.table2.run_rows`). A NaN (a run with no GTM step, 0 / 0) is no run:
    mean, standard error and ``runs`` are over the others (NaN mean and se, 0 runs, if there are none)."""
    ratios = ratios.dropna()
    if ratios.empty:
        return CallsRatio(float("nan"), float("nan"), 0)
    return CallsRatio(float(ratios.mean()), standard_error(ratios), int(ratios.size))
