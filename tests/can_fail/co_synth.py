"""Synthetic raw tables in the continual-observation schema (``results/raw/fig_co_*.csv``), for the can-fail tests of
the CO outputs: small tables built in the test, never from a run, whose rows plainly satisfy or contradict Lemma 40,
Theorem 42(2) and Theorem 42(3), and the output's config section resolved the way the workflow resolves it."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import numpy as np
import pandas as pd
import yaml
from privtest_workflow import catalogue, configuration
from snakemake.utils import update_config

from privtest.co.batch_to_co import BASELINES
from privtest_artifact.claims import Claim, decide, family_alpha
from privtest_artifact.outputs._co import CHECKPOINT_RUNS, METHOD, METHOD_L40

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def _sections() -> tuple[dict, int]:
    config: dict = {}
    for path in ("config/config.yaml", "config/quick.yaml"):
        update_config(config, yaml.safe_load((ROOT / path).read_text()))
    cat = catalogue.load(ROOT)
    resolved = configuration.load(config, cat, ROOT)
    return {name: dict(entry.cfg(resolved)) for name, entry in cat.items()}, len(cat)


def section(name: str) -> dict:
    """Output ``name``'s config section as the workflow passes it to its check for config.yaml + quick.yaml (a
    copy)."""
    return copy.deepcopy(_sections()[0][name])


def decided(module, raw: pd.DataFrame | None, cfg: dict, tables: dict[str, pd.DataFrame] | None = None):
    """``module.claims(tables, cfg)`` on the analysis of ``raw`` (``module.analyse(raw, cfg)``), or on the given
    analysis ``tables`` (then ``raw`` is None), decided at the output's family-wise level (workflow/scripts/check.py):
    claim id -> :class:`Claim`."""
    level = family_alpha(_sections()[1])
    if tables is None:
        tables = module.analyse(raw, cfg)
    else:
        assert raw is None, "give the raw table or the analysis tables, not both"
    return {c.claim_id: c for c in decide(module.claims(tables, cfg), level)}


def verdicts(claims: dict[str, Claim], part: str) -> dict[str, str]:
    """Verdict per claim id containing ``part``; asserts there is at least one."""
    out = {k: c.verdict for k, c in claims.items() if part in k}
    assert out, f"no claim id contains {part!r}: {sorted(claims)}"
    return out


def bco_runs(
    *,
    stream: str = "s",
    eps: float = 2.0,
    runs: int = 24,
    T: int = 8,
    margin: float = -1.0,
    calls_ratio: float = 1.0,
    below: bool = False,
    value: float = 50.0,
    checkpoint_runs: int = 0,
    seed: int = 0,
) -> pd.DataFrame:
    """BatchToCO rows (one per run and t = 1..T) in the raw schema, plus ``checkpoint_runs`` rows of
    :data:`CHECKPOINT_RUNS` (one per run at t = T).

    OPT_t = 100 (exact: its certified lower end ``opt_lower``, which fig_co_dks records, is 100 too), a checkpoint
    only at t = 1 (every t >= 2 is covered by Theorem 42's proof), Theorem 42(2)'s guarantee 20 at U_t, V_A bracketed
    so that the guarantee is 5 at V_lo and 10 at V_hi; f(X_t, Y_t) = ``value`` (above every guarantee), or 1 at every
    t >= 2 when ``below`` (below the guarantee at V_lo in every run). The largest Lemma 39(2) margin is ``margin`` in
    every run (> 0: a violation). N_t ~ Poisson(calls_ratio E[N_t]) with E[N_t] = 1000 (``calls_ratio`` = 1: as
    Theorem 42(3)'s expectation says)."""
    rng = np.random.default_rng(seed)
    t = np.tile(np.arange(1, T + 1), runs)
    run = np.repeat(np.arange(runs), T)
    later = t >= 2
    expected = np.where(later, 1000.0, np.nan)
    f = pd.DataFrame(
        dict(
            stream=stream,
            eps=eps,
            t=t,
            run=run,
            opt=100.0,
            opt_lower=100.0,
            opt_kind="exact",
            method=METHOD,
            value=np.where(later & below, 1.0, value),
            ell=1.0,
            t_ell=1.0,
            eps_t=np.where(later, 0.01, 0.0),
            gtm_calls=np.where(later, rng.poisson(calls_ratio * 1000.0, t.size), 0.0),
            expected_calls=expected,
            calls_bound=np.where(later, 1100.0, np.nan),
            ell_bound=30.0,
            ts_calls=2.0,
            ts_failed=False,
            guarantee=np.where(later, 20.0, np.nan),
            halt_loss=0.1,
            l39_margin=np.where(later, margin, -np.inf),
            va_lo=np.where(later, 60.0, np.nan),
            va_hi=np.where(later, 80.0, np.nan),
            guarantee_va_lo=np.where(later, 5.0, np.nan),
            guarantee_va_hi=np.where(later, 10.0, np.nan),
        )
    )
    if checkpoint_runs:
        keep = ["stream", "eps", "t", "run", "opt", "opt_kind", "ell", "l39_margin"]
        cp = f.loc[(f.run < checkpoint_runs) & (f.t == T), keep].assign(method=CHECKPOINT_RUNS)
        f = pd.concat([f, cp], ignore_index=True)
    return f


def crossover_raw(*, lead: float, predicted: float, runs: int = 4, noise: float = 0.02, seed: int = 0) -> pd.DataFrame:
    """A fig_co_crossover raw table on one stream ("s", eps = 2, recorded t in {1, 2, 5, 10, 20}): run rows
    (``source = "run"``) of BatchToCO (:func:`bco_runs`, f/OPT_t = 0.5 + lead) and of every baseline (f/OPT_t = 0.5),
    each value with Normal noise of sd ``noise`` (0: every run identical), and model rows (``source = "model"``) that
    predict the lead ``predicted`` (BatchToCO and its Lemma 40 variant at 0.5 + predicted, baselines at 0.5)."""
    rng = np.random.default_rng(seed)
    ts = np.array([1, 2, 5, 10, 20])
    b = bco_runs(runs=runs, T=20, seed=seed, checkpoint_runs=runs)
    b = b[b.t.isin(ts) | (b.method == CHECKPOINT_RUNS)].copy()
    run_rows = b.method == METHOD
    b.loc[run_rows, "value"] = 100.0 * (0.5 + lead + noise * rng.standard_normal(int(run_rows.sum())))
    b["source"] = "run"
    base = []
    for method in BASELINES:
        t, run = np.tile(ts, runs), np.repeat(np.arange(runs), ts.size)
        value = 100.0 * (0.5 + noise * rng.standard_normal(t.size))
        base.append(pd.DataFrame(dict(source="run", stream="s", eps=2.0, t=t, run=run, opt=100.0, method=method,
                                      opt_kind="exact", value=value)))  # fmt: skip
    model = [
        pd.DataFrame(
            dict(
                source="model",
                stream="s",
                eps=2.0,
                t=ts,
                run=-1,
                opt=100.0,
                opt_kind="exact",
                method=method,
                value=100.0 * (0.5 + d),
                value_se=0.1,
                eps_call=0.01,
            )
        )  # fmt: skip
        for method, d in [(METHOD, predicted), (METHOD_L40, predicted)] + [(m, 0.0) for m in BASELINES]
    ]
    return pd.concat([b, *base, *model], ignore_index=True)


def check_co_fail(module, output: str, prefix: str) -> None:
    """Every run contradicts the paper: a Lemma 39(2) margin > 0 in every run (Lemma 40 allows C_beta beta), twice
    Theorem 42(3)'s expected calls, f below Theorem 42(2)'s guarantee at V_lo in every run: all three FAIL."""
    raw = bco_runs(margin=1.0, calls_ratio=2.0, below=True)
    got = decided(module, raw, section(output))
    for part in ("checkpoints", "calls_per_step", "utility"):
        assert set(verdicts(got, f"{prefix}.{part}[").values()) == {"FAIL"}, part
    # the checkpoint-only runs alone (the utility runs fine) refute Lemma 40 as well
    raw = bco_runs(checkpoint_runs=24)
    raw.loc[raw.method == CHECKPOINT_RUNS, "l39_margin"] = 0.5
    got = decided(module, raw, section(output))
    assert set(verdicts(got, f"{prefix}.checkpoints[").values()) == {"FAIL"}


def check_co_safe(module, output: str, prefix: str) -> None:
    """Data on the safe side of every bound: no FAIL; 24 runs establish Theorem 42(2) and 42(3) (PASS); a single run
    is never a PASS of a statistical claim (its spread is unknown: INCONCLUSIVE)."""
    got = decided(module, bco_runs(checkpoint_runs=24), section(output))
    assert "FAIL" not in {c.verdict for c in got.values()}
    assert set(verdicts(got, f"{prefix}.utility[").values()) == {"PASS"}
    assert set(verdicts(got, f"{prefix}.calls_per_step[").values()) == {"PASS"}
    one = decided(module, bco_runs(runs=1), section(output))
    for part in ("checkpoints", "calls_per_step", "utility"):
        assert set(verdicts(one, f"{prefix}.{part}[").values()) == {"INCONCLUSIVE"}, part


def check_privacy_fail(module, output: str, monkeypatch) -> None:
    """Lemma 38's ledger is exact on the config's constants (no data can contradict it); a ledger above eps (the
    code's accounting patched to report 2 eps) makes every privacy_budget claim FAIL."""
    from privtest.co.params import BatchToCOParams

    real = BatchToCOParams.privacy_budget

    def doubled(self, *args, **kw):
        return {**real(self, *args, **kw), "eps_total": 2.0 * self.eps}

    monkeypatch.setattr(BatchToCOParams, "privacy_budget", doubled)
    raw = crossover_raw(lead=0.0, predicted=0.0) if output == "fig_co_crossover" else bco_runs(runs=2, T=3)
    got = decided(module, raw, section(output))
    assert set(verdicts(got, ".privacy_budget[").values()) == {"FAIL"}
