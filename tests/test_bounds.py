"""privtest.bounds: every Table 1 entry and lower bound against values worked out by hand (arithmetic in comments)."""

import math

import pytest

from privtest import bounds as b
from privtest.schedule import beta_t


def test_thm29_alpha_sum_hand_values():
    # T=100, eps=1, beta=0.05, delta=0: ln(100/0.1) + ln(1/0.1) - 2 = 6.907755 + 2.302585 - 2 = 7.210340
    assert b.alpha_sum_lower_bound(100, 1.0, 0.05) == pytest.approx(7.210340, abs=1e-6)
    # T=10, eps=2, beta=0.1: (ln(10/0.2) + ln(1/0.2))/2 - 2 = (3.912023 + 1.609438)/2 - 2 = 0.760730
    assert b.alpha_sum_lower_bound(10, 2.0, 0.1) == pytest.approx(0.760730, abs=1e-6)
    # delta=0.01: delta' = 0.01/(e-1) = 0.0058198; ln(100/(2*0.631977)) + ln(1/(2*0.0558198)) - 2
    #   = 4.370917 + 2.192489 - 2 = 4.563406
    assert b.alpha_sum_lower_bound(100, 1.0, 0.05, 0.01) == pytest.approx(4.563406, abs=1e-5)
    with pytest.raises(ValueError, match="1/2"):
        b.alpha_sum_lower_bound(100, 1.0, 0.45, 0.2)


def test_cor30_lambda0_and_cases():
    # Lambda_0 = exp(eps1 * thm29): exp(0.1 * 7.210340) = exp(0.7210340) = 2.056559
    lam = b.lower_bound_noise_penalty(100, 1.0, 0.1, 0.05)
    assert lam == pytest.approx(2.056559, rel=1e-6)
    # T=10, eps=2, eps1=0.5, beta=0.1: exp(0.5 * 0.760730) = exp(0.380365) = 1.462819
    assert b.lower_bound_noise_penalty(10, 2.0, 0.5, 0.1) == pytest.approx(1.462819, rel=1e-6)
    # case 1 (p* = 0.1 <= 1/2): 0.1 / 2.056559 = 0.0486249
    assert b.lower_bound_rejection_threshold(100, 0.1, 1.0, 0.1, 0.05) == pytest.approx(0.0486249, rel=1e-5)
    # case 2 (p* = 0.9): 1 - 2.056559 * 0.1 = 0.7943441 >= 1/2
    assert b.lower_bound_rejection_threshold(100, 0.9, 1.0, 0.1, 0.05) == pytest.approx(0.7943441, rel=1e-6)
    # case 3 (p* = 0.7): 1 - 2.056559 * 0.3 = 0.383 < 1/2, so 1/(4 * 0.3 * 2.056559) = 1/2.467871 = 0.405208
    assert b.lower_bound_rejection_threshold(100, 0.7, 1.0, 0.1, 0.05) == pytest.approx(0.405208, rel=1e-5)
    # odds form (p* = 0.5): 0.5 / (2.056559 * 0.5 + 0.5) = 0.5 / 1.5282795 = 0.327165
    assert b.lower_bound_rejection_threshold(100, 0.5, 1.0, 0.1, 0.05, form="odds") == pytest.approx(0.327165, rel=1e-5)
    # p* = 0.8, pbar = 0.3: case 3, 1/(4 * 0.3 * 0.2) = 4.16667; odds ratio (0.8/0.2)/(0.3/0.7) = 4/0.428571 = 9.33333
    assert b.threshold_ratio_case(0.8, 0.3) == 3
    assert b.threshold_ratio(0.8, 0.3) == pytest.approx(4.166667, rel=1e-6)
    assert b.threshold_odds_ratio(0.8, 0.3) == pytest.approx(9.333333, rel=1e-6)
    assert b.threshold_ratio(0.2, 0.1) == pytest.approx(2.0)  # case 1: 0.2/0.1
    assert b.threshold_ratio(0.9, 0.6) == pytest.approx(4.0)  # case 2: 0.4/0.1


def test_thm31_sample_lower_bound():
    # e^-0.1 / (4 * 0.1 * (2 * 0.05)^0.1) = 0.904837 / (0.4 * 0.794328) = 0.904837 / 0.317731 = 2.847807
    assert b.lower_bound_sample_complexity(0.1, 1.0, 0.1, 0.05) == pytest.approx(2.847807, rel=1e-6)
    # eps1 = 0.2, p* = 0.5: e^-0.2 / (2 * 0.1^0.2) = 0.818731 / (2 * 0.630957) = 0.648800
    assert b.lower_bound_sample_complexity(0.5, 1.0, 0.2, 0.05) == pytest.approx(0.648800, rel=1e-5)
    with pytest.raises(ValueError, match="pstar <= 1/2"):
        b.lower_bound_sample_complexity(0.6, 1.0, 0.1, 0.05)


def test_cohen_entries():
    # N_t: ln(40) / ((0.025)^(1/8) * 0.5) = 3.688879 / (0.630583 * 0.5) = 11.6999 -> 12
    assert b.cohen_sample_complexity(0.5, 1.0, 0.1, 0.05) == 12
    # theta_C = 1/0.2 - 2 = 3: 3.688879 / (0.025^(1/3) * 0.1) = 3.688879 / 0.0292402 = 126.16 -> 127
    assert b.cohen_sample_complexity(0.1, 1.0, 0.2, 0.05) == 127
    # pbar_1 = beta_1 / (2 * 12 * 0.975^(1/8)); beta_1 = 0.05/(zeta ln^3 3) = 0.05/(1.233093 * 1.325969) = 0.0305802
    #   -> 0.0305802 / (24 * 0.996840) = 0.00127822
    assert beta_t(1, 0.05) == pytest.approx(0.0305802, rel=1e-5)
    assert b.cohen_rejection_threshold(1, 0.5, 1.0, 0.1, 0.05) == pytest.approx(0.00127822, rel=1e-5)
    # noise penalty p*/pbar: 0.5 / 0.00127822 = 391.17
    assert b.cohen_noise_penalty(1, 0.5, 1.0, 0.1, 0.05) == pytest.approx(391.17, rel=1e-4)
    # the statement's formula has base beta/2 - beta = -0.025 < 0: undefined (ERRATA.md)
    assert math.isnan(b.cohen_rejection_threshold_as_stated(1, 0.5, 1.0, 0.1, 0.05))
    assert b.cohen_privacy(1.0, 0.1).eps == pytest.approx(1.0) and b.cohen_privacy(1.0, 0.1).pure
    assert b.cohen_requirement(1.0, 0.4) and not b.cohen_requirement(1.0, 0.5)
    with pytest.raises(ValueError, match="eps > 2 eps_1"):
        b.cohen_sample_complexity(0.5, 1.0, 0.5, 0.05)


def test_liu_talwar_entries():
    # eps0 = 0.1: sigma = 12 * 0.2 = 2.4; C = 2 (e^0.2 + 1 + e^0.05) = 2 (1.221403 + 1 + 1.051271) = 6.545348;
    # Delta = 6.545348 * ln(8e8) / (0.1 (e^0.2 - 1)) = 6.545348 * 20.500122 / 0.0221403 = 6060.46;
    # N = e^0.1 * 6060.46 / 0.5 * (101/0.05)^2.4 = 13395.7 * exp(2.4 * 7.610853) = 13395.7 * 8.5717e7 = 1.14765e12
    N = b.liu_talwar_sample_complexity(0.5, 1.0, 0.1, 0.05, 1e-6, 0.1, 100)
    assert N == pytest.approx(1.14765e12, rel=1e-4)
    assert N == math.ceil(N)
    # Lambda_1 = 2 e^0.1 (2/0.05)^2.4 = 2.210342 * exp(2.4 * 3.688879) = 2.210342 * 6997.52 = 15466.9
    assert b.liu_talwar_noise_penalty(1, 1.0, 0.1, 0.05, 0.1) == pytest.approx(15466.9, rel=1e-5)
    assert b.liu_talwar_rejection_threshold(1, 0.5, 1.0, 0.1, 0.05, 0.1) == pytest.approx(0.5 / 15466.9, rel=1e-5)
    # Table 1's printed odds form at t = 10: Lambda = (10/0.0025)^2.4 = 4000^2.4
    #   = exp(2.4 * 8.294050) = exp(19.905720) = 4.41513e8
    lam = 4000**2.4
    assert b.liu_talwar_rejection_threshold_table(10, 0.5, 1.0, 0.1, 0.05, 0.1) == pytest.approx(
        0.5 / (lam * 0.5 + 0.5), rel=1e-9
    )
    assert lam == pytest.approx(4.41513e8, rel=1e-5)
    assert str(b.liu_talwar_privacy(1.0, 1e-6)) == "(1, 1e-06)-DP"
    assert b.liu_talwar_requirement(1.0, 100) and not b.liu_talwar_requirement(1.0, math.inf)


def test_gtm_entries():
    # Lambda_1 = (4/0.05)^(0.1*3) (4/beta_1)^(0.1*3) = (80 * 130.80)^0.3 = 10464.5^0.3 = exp(0.3 * 9.25575) = 16.0662
    assert b.gtm_noise_penalty(1, 1.0, 0.1, 0.05, 1.0) == pytest.approx(16.0662, rel=1e-5)
    # theta* = sqrt(2 ln 80 / ln(4/beta_1)) = sqrt(8.764053 / 4.873717) = sqrt(1.798228) = 1.340983
    assert b.gtm_theta_opt(1, 0.05) == pytest.approx(1.340983, rel=1e-5)
    # pbar (direct branch, p* = 0.2): 0.2 / (1.5 * 16.06618) = 0.2 / 24.09927 = 0.00829901
    assert b.gtm_rejection_threshold(1, 0.2, 1.0, 0.1, 0.05, 1.0, 1.5) == pytest.approx(0.00829901, rel=1e-5)
    assert b.gtm_privacy(1.0).pure and b.gtm_requirement(1.0, 0.3)


def test_random_dropping_bounds():
    # Cor 51: 4 * 0.05 * 2^(1/8) / 1200 = 0.2 * 1.090508 / 1200 = 1.817513e-4
    assert b.cohen_pbar_max(0.05, 8.0, 1200) == pytest.approx(1.817513e-4, rel=1e-6)
    # Lemma 50 in Cor 51: 0.5 (1 - exp(-1200 * 2^(-1/8) * 1e-3)) = 0.5 (1 - exp(-1.100405)) = 0.5 * 0.667263 = 0.333632
    assert b.cohen_false_halt_lower(1e-3, 8.0, 1200) == pytest.approx(0.333632, rel=1e-5)
    # Cor 53: 2 * 0.05 * (1 + 10 * 0.5) / (90 (1 - e^-0.8)) = 0.6 / (90 * 0.550671) = 0.0121064
    assert b.ghazi_pbar_max(0.05, 100, 10, 0.5, 0.8) == pytest.approx(0.0121064, rel=1e-5)
    # Corollary 53's hypothesis G in [T-2] = {1, ..., T-2}: the docstring's range is the one checked
    assert b.ghazi_pbar_max(0.05, 3, 1, 0.5, 0.8) > 0
    for T, G in ((100, 0), (100, 99), (2, 1)):
        with pytest.raises(ValueError, match="G must be in"):
            b.ghazi_pbar_max(0.05, T, G, 0.5, 0.8)
    # proof of Cor 53: 0.550671 * 90 * 0.01 / (1 + 89 * 0.01 + 10 * 0.5) = 0.495604 / 6.89 = 0.0719309
    assert b.ghazi_bad_selection_lower(100, 10, 0.5, 0.01, 0.8) == pytest.approx(0.0719309, rel=1e-5)
    with pytest.raises(ValueError, match="1/4"):
        b.cohen_pbar_max(0.3, 8.0, 10)


def test_upper_bounds_respect_lower_bound():
    # An achievable guarantee can never beat Corollary 30 (exact, on a grid).
    for T in (10, 1000, 100000):
        for ps in (0.05, 0.5, 0.95):
            lb = b.lower_bound_rejection_threshold(T, ps, 1.0, 0.1, 0.05)
            assert b.gtm_rejection_threshold(T, ps, 1.0, 0.1, 0.05, 1.0, 1.5) <= lb
            assert b.cohen_rejection_threshold(T, ps, 1.0, 0.1, 0.05) <= lb
            assert b.liu_talwar_rejection_threshold(T, ps, 1.0, 0.1, 0.05, 0.05) <= lb


def test_table1_objects_cover_every_cell():
    for row in b.TABLE1_ROWS:
        for m in b.TABLE1_METHODS:
            e = b.table1_entry(row, m)
            assert callable(e.func) and e.paper and e.explicit and e.source
    with pytest.raises(ValueError):
        b.table1_entry("privacy", "Nope")


def test_cor30_log_lambda0_slope_in_ln_T_is_eps1_over_eps():
    # Was the claim lower_bounds.lb_slope: at delta = 0, ln Lambda_0 = -2 eps_1 + (eps_1/eps) ln(T/(4 beta^2)), so
    # ln Lambda_0(T2) - ln Lambda_0(T1) = (eps_1/eps) ln(T2/T1). eps != eps_1 here: the 1/eps_1 of the printed eq. (16)
    # (ERRATA.md) would give slope 1.
    for eps, eps1 in ((1.0, 0.1), (2.0, 0.5)):
        d = b.lower_bound_log_noise_penalty(10_000, eps, eps1, 0.05) - b.lower_bound_log_noise_penalty(
            100, eps, eps1, 0.05
        )
        assert d == pytest.approx(eps1 / eps * math.log(100), rel=1e-12)


def test_table1_printed_gtm_and_cohen_hand_values():
    # beta = 1/4, theta = 2, eps_1/eps = 1/4, t = 4: GTM Lambda = (1/beta)^{(1+2/2)/4} (t/beta)^{(2+2)/4}
    #   = 4^{1/2} * 16^1 = 2 * 16 = 32
    assert b.gtm_noise_penalty_table(4, 1.0, 0.25, 0.25, 2.0) == pytest.approx(32.0, rel=1e-12)
    # the ratio only matters: eps = 2, eps_1 = 0.5 gives the same 32
    assert b.gtm_noise_penalty_table(4, 2.0, 0.5, 0.25, 2.0) == pytest.approx(32.0, rel=1e-12)
    # gamma = 2, p* = 1/2: max(0.5/64, 1 - 64 * 0.5) = 1/128 = 0.0078125
    assert b.gtm_rejection_threshold_table(4, 0.5, 1.0, 0.25, 0.25, 2.0, 2.0) == pytest.approx(0.0078125, rel=1e-12)
    # p* = 0.999: max(0.999/64 = 0.015609, 1 - 64 * 0.001 = 0.936) = 0.936 (the flipped branch)
    assert b.gtm_rejection_threshold_table(4, 0.999, 1.0, 0.25, 0.25, 2.0, 2.0) == pytest.approx(0.936, rel=1e-9)
    # Cohen: t/beta^{1 + r/(1-2r)} = 4 / 0.25^{1 + 0.25/0.5} = 4 / 0.25^{1.5} = 4 / 0.125 = 32; pbar = 0.5/32
    assert b.cohen_noise_penalty_table(4, 1.0, 0.25, 0.25) == pytest.approx(32.0, rel=1e-12)
    assert b.cohen_rejection_threshold_table(4, 0.5, 1.0, 0.25, 0.25) == pytest.approx(0.015625, rel=1e-12)
    # r = 0.2, beta = 0.1, t = 10: 10 / 0.1^{1 + 0.2/0.6} = 10 * 10^{4/3} = 10 * 21.544347 = 215.44347
    assert b.cohen_noise_penalty_table(10, 1.0, 0.2, 0.1) == pytest.approx(215.44347, rel=1e-7)


def test_table1_printed_formulas_refuse_invalid_parameters():
    with pytest.raises(b.RequirementError, match="eps > 2 eps_1"):
        b.cohen_noise_penalty_table(4, 1.0, 0.5, 0.25)
    with pytest.raises(ValueError, match="beta"):
        b.gtm_noise_penalty_table(4, 1.0, 0.25, 1.5, 2.0)
    with pytest.raises(ValueError, match="theta"):
        b.gtm_noise_penalty_table(4, 1.0, 0.25, 0.25, 0.0)
    with pytest.raises(ValueError, match="gamma"):
        b.gtm_rejection_threshold_table(4, 0.5, 1.0, 0.25, 0.25, 2.0, 2.5)
    with pytest.raises(ValueError, match="pstar"):
        b.cohen_rejection_threshold_table(4, 1.0, 1.0, 0.25, 0.25)
    with pytest.raises(ValueError, match="t"):
        b.gtm_noise_penalty_table(0, 1.0, 0.25, 0.25, 2.0)


@pytest.mark.parametrize("t", [1, 10, 1000, 100000])
@pytest.mark.parametrize("beta", [0.01, 0.05, 0.3])
def test_gtm_theta_opt_is_the_numerical_argmin_of_lambda_t(t, beta):
    # theta* = sqrt(2 ln(4/beta) / ln(4/beta_t)) zeroes d/dtheta of ln Lambda_t; the bounded numerical argmin of
    # Theorem 21's ln Lambda_t agrees, whatever eps_1/eps (the penalty scales with it, its argmin does not)
    from scipy.optimize import minimize_scalar

    theta = b.gtm_theta_opt(t, beta)
    for eps, eps1 in ((1.0, 0.1), (2.0, 1.5)):

        def f(x, eps=eps, eps1=eps1):
            return b.gtm_log_noise_penalty(t, eps, eps1, beta, x)

        res = minimize_scalar(f, bounds=(1e-3, 50), method="bounded", options={"xatol": 1e-10})
        assert res.x == pytest.approx(theta, rel=1e-5)
        assert f(theta) < f(0.99 * theta) and f(theta) < f(1.01 * theta)  # a minimum: 1% either side is worse


def test_liu_talwar_moreover_bound_hand_value():
    # R = 1, p* = 1/2, eps = 12, eps_1 = eps_0 = 0.5: sigma_LT = 12 (0.5 + 0.5)/12 = 1; beta = 0.5: ((R+1)/beta)^1 = 4
    # x = e^0.5/(2 * 0.5) * 4 = 4 * 1.6487213 = 6.5948851; 1 - 1/(1 + x) = 1 - 1/7.5948851 = 1 - 0.1316676 = 0.8683324
    assert b.liu_talwar_moreover_bound(1, 0.5, 12.0, 0.5, 0.5, 0.5) == pytest.approx(0.8683324, rel=1e-6)
    # R = 3: ((3+1)/0.5)^1 = 8, x = 13.189770, 1 - 1/14.189770 = 1 - 0.0704733 = 0.9295267
    assert b.liu_talwar_moreover_bound(3, 0.5, 12.0, 0.5, 0.5, 0.5) == pytest.approx(0.9295267, rel=1e-6)
    with pytest.raises(ValueError, match="R"):
        b.liu_talwar_moreover_bound(0, 0.5, 12.0, 0.5, 0.5, 0.5)
    with pytest.raises(ValueError, match="eps0"):
        b.liu_talwar_moreover_bound(1, 0.5, 12.0, 0.5, 0.5, 1.5)
