"""privtest.calibration.choose_calibration: the calibration with the fewest expected evaluations among those that meet
the guarantee asked for, with the rows that decided it; and the documented defaults it starts from."""

from __future__ import annotations

import dataclasses
import math
import time

import numpy as np
import pytest

from privtest.calibration import (
    CHOICE_GAMMAS,
    CHOICE_THETAS,
    MAX_CERTIFY_T,
    MAX_CHOICE_T,
    CalibrationChoice,
    ExactTailCalibration,
    choose_calibration,
    whole_run_error,
)
from privtest.gtm import DEFAULT_GAMMA, DEFAULT_THETA, GlobalCalibration, first_vacuous_step
from privtest.gtm import VacuousConfigurationError as Vacuous


def _evaluations(cal, eps_t, pstar, T):
    return sum(cal.step(t, eps_t, pstar).expected_samples for t in range(1, T + 1))


def _min_pbar(cal, eps_t, pstar, T):
    return min(cal.step(t, eps_t, pstar).pbar for t in range(1, T + 1))


def test_defaults_are_the_documented_values():
    assert (DEFAULT_THETA, DEFAULT_GAMMA) == (1.0, 1.5)
    assert DEFAULT_THETA in CHOICE_THETAS and DEFAULT_GAMMA in CHOICE_GAMMAS
    # theta = 1 maximizes min(1, theta)/(theta + 2): the largest eps_t with E[N_t] < inf in both directions
    grid = np.linspace(0.05, 6, 2000)
    assert grid[np.argmax(np.minimum(1, grid) / (grid + 2))] == pytest.approx(DEFAULT_THETA, abs=0.01)


def test_the_choice_has_the_fewest_evaluations_among_the_rows_that_meet_the_guarantee():
    eps_t, pstar, T = 0.1, 0.5, 8
    choice = choose_calibration(1.0, eps_t, 0.05, pstar, T)
    assert isinstance(choice, CalibrationChoice) and dataclasses.is_dataclass(choice)
    with pytest.raises(dataclasses.FrozenInstanceError):
        choice.chosen = 0  # type: ignore[misc]
    rows = choice.candidates
    assert [r.name for r in rows] == ["Theorem 21"] * 9 + ["exact tails", "certified"]
    need = _min_pbar(GlobalCalibration(1.0, 0.05, DEFAULT_THETA, DEFAULT_GAMMA), eps_t, pstar, T)
    for r in rows[:9]:  # every row's numbers are those of its calibration
        cal = GlobalCalibration(1.0, 0.05, r.parameters["theta"], r.parameters["gamma"])
        assert r.expected_evaluations == pytest.approx(_evaluations(cal, eps_t, pstar, T), rel=1e-12)
        assert r.pbar == _min_pbar(cal, eps_t, pstar, T)
        assert r.meets == (r.pbar >= need) and (r.note == "") == r.meets
    chosen = rows[choice.chosen]
    assert chosen.meets and chosen.expected_evaluations == min(r.expected_evaluations for r in rows if r.meets)
    assert chosen.name == "certified" and choice.calibration.budget_scale == chosen.parameters["budget_scale"] > 1
    assert _evaluations(choice.calibration, eps_t, pstar, T) == pytest.approx(chosen.expected_evaluations)
    # the guarantee it was chosen for holds: the exact whole-run error within T steps is <= beta
    assert whole_run_error(choice.calibration, T, eps_t, pstar)[0] <= 0.05
    # exact tails: Theorem 21's pbar at fewer evaluations than the best Theorem 21 row
    exact = rows[9]
    best21 = min((r for r in rows[:9] if r.meets), key=lambda r: r.expected_evaluations)
    assert exact.pbar == best21.pbar and exact.expected_evaluations < best21.expected_evaluations


def test_the_guarantee_asked_for_decides():
    eps_t, pstar, T = 0.1, 0.5, 8
    # a stream of any length: the certified T-step guarantee does not qualify, exact tails win
    any_length = choose_calibration(1.0, eps_t, 0.05, pstar, T, finite_horizon=False)
    assert any_length.candidates[any_length.chosen].name == "exact tails"
    assert type(any_length.calibration) is ExactTailCalibration and any_length.calibration.budget_scale == 1.0
    assert "T steps only" in any_length.candidates[-1].note
    # a lower rejection threshold allowed: a larger gamma (fewer evaluations) qualifies
    low = choose_calibration(1.0, eps_t, 0.05, pstar, T, pbar=0.001, certify=False)
    assert low.calibration.gamma == 2.0 and all(r.pbar >= 0.001 for r in low.candidates if r.meets)
    # a threshold no candidate reaches
    with pytest.raises(ValueError, match=r"^pbar = 0.4:"):
        choose_calibration(1.0, eps_t, 0.05, pstar, T, pbar=0.4, certify=False)


def test_vacuous_configurations_are_never_chosen():
    # eps_t = 0.3: theta = 2 (eps_t >= eps/4) is vacuous, theta = 1/2 and 1 are not
    choice = choose_calibration(1.0, 0.3, 0.05, 0.5, 5, pbar=0.0, certify=False)
    for r in choice.candidates[:9]:
        assert r.meets == (r.parameters["theta"] < 2)
        if r.parameters["theta"] == 2:
            assert r.expected_evaluations == math.inf and "vacuous" in r.note
    assert first_vacuous_step(choice.calibration, 0.3, 0.5, 5) is None
    with pytest.raises(Vacuous, match=r"^eps_t = 0.5: .*largest admissible eps_t .* is 0.33333333333333326"):
        choose_calibration(1.0, 0.5, 0.05, 0.5, 5)


def test_it_is_fast_and_refuses_what_would_take_minutes():
    start = time.perf_counter()
    choice = choose_calibration(1.0, 0.1, 0.05, 0.5, 50)
    assert time.perf_counter() - start < 15  # about 1 s on an idle core
    assert choice.candidates[-1].meets
    start = time.perf_counter()
    with pytest.raises(ValueError, match=rf"^T must be <= {MAX_CHOICE_T}"):
        choose_calibration(1.0, 0.1, 0.05, 0.5, MAX_CHOICE_T + 1)
    assert time.perf_counter() - start < 0.5
    beyond = choose_calibration(1.0, 0.1, 0.05, 0.5, MAX_CERTIFY_T + 1)  # certified: listed, not computed
    row = beyond.candidates[-1]
    assert row.name == "certified" and not row.meets and math.isnan(row.expected_evaluations) and "T = 101" in row.note
