"""Table 2's rows say what ran and what its claims mean (docs/table2.md): rows 5-6 are labelled stand-ins, row 1
says its rounds ran at eps/k (basic composition wins at its k and BatchToCO's delta_t, checked here on the
configuration), row 2 is VACUOUS whenever its additive error kills the (1 - 1/e) OPT guarantee, the delta ledger's
Lemma 38 bound is called an upper bound, the purification shift is measured, and the calls note says what N_t is."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from privtest.co.composition import per_round_eps
from privtest_artifact.outputs import _co, table2

ROOT = Path(__file__).resolve().parents[1]


def _cfg() -> dict:
    """table2's config section as the workflow passes it (config/config.yaml)."""
    import sys

    sys.path.insert(0, str(ROOT / "workflow" / "lib"))
    from privtest_workflow import catalogue, configuration

    cat = catalogue.load(ROOT)
    resolved = configuration.load(yaml.safe_load((ROOT / "config/config.yaml").read_text()), cat, ROOT)
    return cat["table2"].cfg(resolved)


def _submodular_raw() -> pd.DataFrame:
    from can_fail.co_synth import bco_runs

    return pd.concat([bco_runs(stream=s) for s in ("mpls_stops", "mpls_stops_matroid")], ignore_index=True)


def test_rows_5_and_6_lines_are_labelled_stand_ins():
    cfg = _cfg()
    empty = _submodular_raw().iloc[:0]
    raw = {"fig_co_densest": empty, "fig_co_maxcut": empty, "fig_co_crossover": empty.assign(source="run")}
    raw["fig_co_submodular"] = _submodular_raw()
    lines = [ln for ln in table2.summarised_lines(raw, cfg)[0] if len(ln)]
    labels = {ln.stream.iloc[0]: ln.algorithm.iloc[0] for ln in lines}
    for row in (5, 6):
        assert labels[table2.ROWS[row].stream] == table2.ROWS[row].algorithm
        assert "stand-in" in labels[table2.ROWS[row].stream]


def test_row_1_label_says_eps_over_k_and_basic_composition_wins_on_the_configuration():
    label = table2.ROWS[1].algorithm
    assert "eps/k" in label and "advanced or basic" not in label
    ap = _cfg()["approx"]
    k = int(_cfg()["facility"]["k"])
    for eps in ap["eps"]:
        params = _co.co_params(ap, float(eps))
        delta_max = float(params.delta_cap(1))  # delta(i, t) <= delta_cap(i) <= delta_cap(1): omega_i decreases
        for e in np.geomspace(1e-9, float(eps), 60):  # every batch eps A can get is at most eps
            assert per_round_eps(float(e), delta_max, k)[1] == "basic", (eps, e)
        for kk in (int(ap["cut_k"]),):  # rows 3, 4's greedy
            assert per_round_eps(float(eps), delta_max, kk)[1] == "basic"


def _ry(ry_error: float, opt_T: float):
    r = pd.DataFrame([dict(eps=2.0, ry_error=ry_error, opt_T=opt_T, eps_batch_max=1e-3)])
    return table2.rafiey_yoshida_claim(next(r.itertuples()))


@pytest.mark.parametrize(
    ("ry_error", "opt_T", "kind"),
    [
        (25000.0, 30244.7, "VACUOUS"),  # between (1 - 1/e) OPT_T and OPT_T: the guarantee is negative everywhere
        (1e11, 3e4, "VACUOUS"),
        ((1 - math.exp(-1)) * 30244.7 * 0.99, 30244.7, "exact"),  # informative: the row would need a run
    ],
)
def test_rafiey_yoshida_vacuous_exactly_where_the_batch_guarantee_is_not_positive(ry_error, opt_T, kind):
    claim = _ry(ry_error, opt_T)
    if kind == "VACUOUS":
        assert claim.verdict == "VACUOUS"
    else:
        assert claim.verdict == "FAIL"
    assert "BatchToCO passes A" not in claim.note and "ever passes" not in claim.note


def _approx_line(**kw):
    base = dict(table2_row=1, stream="mpls_stops_approx", eps=2.0, delta=1e-6, delta_ledger_max=1e-9, delta_budget=5e-7)
    base |= dict(algorithm=table2.ROWS[1].algorithm, phi_max=4e-11) | kw
    return next(pd.DataFrame([base]).itertuples())


def test_delta_ledger_claim_calls_lemma_38_an_upper_bound_and_the_ledger_nominal():
    claim = table2.delta_ledger_claim(_approx_line())
    assert "worst case" not in claim.measured and "upper bound" in claim.measured
    assert "phi_max = 4e-11" in claim.note and "nominal" in claim.note


def test_calls_note_says_n_t_is_drawn_independently_of_the_test_outcomes():
    r = _approx_line(
        checkpoint_runs=24, checkpoint_runs_violating=0, ell_T_max=3, l39_margin_max=-1.0, C_beta=1 / 3, beta=0.05
    )
    r = next(pd.DataFrame([r._asdict() | dict(calls_ratio_mean=1.0, calls_ratio_se=0.01, calls_runs=24)]).itertuples())
    notes = {c.claim_id.split("[")[0]: c.note for c in table2.process_claims(r)}
    assert "purified test mechanism's evaluations" not in notes["co.table2.calls_per_step"]
    assert "independently of the test outcomes" in notes["co.table2.calls_per_step"]


def test_phi_max_is_the_largest_crossover_over_the_gtm_steps_that_ran():
    params = _co.co_params(_cfg()["approx"], 2.0)
    raw = pd.DataFrame(
        dict(method=_co.METHOD, t=[1, 2, 3, 4, 5], ell=[1, 1, 2, 2, 2], t_ell=[1, 1, 3, 3, 3])
    )  # a checkpoint at t = 3: instance 2 stepped there; instance 3 at t = 4, 5
    stepped, t = np.array([2, 2, 3, 3]), np.array([2, 3, 4, 5])
    assert table2.phi_max(params, raw) == pytest.approx(float(np.max(params.phi_it(stepped, t))), rel=0, abs=0)
    assert 0 < table2.phi_max(params, raw) < 1e-6


def test_docs_table2_states_the_oracle_budget_and_the_batch_eps_of_row_2():
    text = (ROOT / "docs/table2.md").read_text()
    assert "same (ε, δ) budget" not in text and "ever passes A" not in text
    assert "(ε, δ_adv + δ)" in text and "t ≥ 2" in text
