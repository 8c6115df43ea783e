"""Formulas of Definition 7, eqs. (3)-(4), Lemmas 10-11 against hand-computed values and exact Poisson tails."""

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

import privtest as pt
from privtest.schedule import log_inv_omega


def test_zeta_bracketed_by_integral_test():
    # f(j) = 1/(j ln^3(j+2)) is decreasing, so S_N + int_{N+1}^inf f <= zeta <= S_N + int_N^inf f.
    N = 10_000
    j = np.arange(1, N + 1, dtype=float)
    s = float(np.sum(1 / (j * np.log(j + 2) ** 3)))
    # integrals in u = ln x (the 1/(x ln^3 x) tail defeats quadrature in x): int f dx = int du / ln^3(e^u + 2)
    g = lambda u: 1 / mpmath.log(mpmath.exp(u) + 2) ** 3  # noqa: E731
    lo = s + float(mpmath.quad(g, [mpmath.log(N + 1), mpmath.inf]))
    hi = s + float(mpmath.quad(g, [mpmath.log(N), mpmath.inf]))
    assert hi - lo < 2e-7  # the bracket itself resolves 6 significant digits
    assert lo <= pt.zeta() <= hi
    assert 1 < pt.zeta() < 1.25  # Definition 7(1)


def test_zeta_is_the_computed_double():
    from privtest.schedule import _zeta_by_quadrature

    # here the same float (every omega(t) and beta_t as before the constant); another libm may differ in the last bit
    assert pt.zeta() == pytest.approx(_zeta_by_quadrature(), rel=4e-16, abs=0)


def test_omega_hand_values_and_normalisation():
    # omega(1) = 1/(zeta * 1 * ln^3 3) = 1/(1.2330926 * 1.3259690) = 1/1.635031 = 0.611605
    assert pt.omega(1) == pytest.approx(1 / (1.2330926408 * math.log(3) ** 3), rel=1e-9)
    assert pt.omega(1) == pytest.approx(0.611605, abs=1e-6)
    # 1/omega_t in (t ln^3(t+2), 2 t ln^3(t+2)) (Definition 7(1))
    t = np.array([1, 10, 1000, 10**6])
    inv = 1 / pt.omega(t)
    assert np.all((inv > t * np.log(t + 2) ** 3) & (inv < 2 * t * np.log(t + 2) ** 3))
    assert log_inv_omega(10**6) == pytest.approx(math.log(1 / pt.omega(10**6)), rel=1e-12)
    # beta_t = omega_t beta (Definition 7(2))
    assert pt.beta_t(3, 0.1) == pytest.approx(0.1 * pt.omega(3))


def test_lambda_thresholds_hand_values():
    # L = ln(1/e^-2) = 2: lambda^l(10) = 10 + 2 + sqrt(2*10*2 + 4) = 12 + sqrt(44) = 18.6332496
    assert pt.lambda_left(10, math.exp(-2)) == pytest.approx(18.6332496, abs=1e-6)
    # lambda^r(7) = 8 - sqrt(2*8*2) = 8 - sqrt(32) = 2.3431458
    assert pt.lambda_right(7, math.exp(-2)) == pytest.approx(2.3431458, abs=1e-6)
    # x = 0: lambda^l(0, alpha) = 2 L (no square-root term beyond L)
    assert pt.lambda_left(0, math.exp(-3)) == pytest.approx(6.0)


def test_count_threshold_hand_value():
    # A = B = 2, gamma = 2: a = sqrt(4) + 2 sqrt(4) = 6; r = (6 + sqrt(36 + 8*1*2)) / 2 = (6 + 7.2111) / 2 = 6.6056
    # r^2 = 43.633 -> ceil 44; floor(2 max(A, B)) = 4 -> c = 44
    assert pt.count_threshold(math.exp(-2), math.exp(-2), 2.0) == 44
    # and the hand check of Lemma 11(1): lambda^l(44) = 46 + sqrt(180) = 59.42 <= 2 * (45 - sqrt(180)) = 63.17
    assert pt.lambda_left(44, math.exp(-2)) <= 2 * pt.lambda_right(44, math.exp(-2))


@pytest.mark.parametrize("alpha", [1e-1, 1e-3, 1e-8])
@pytest.mark.parametrize("beta", [1e-2, 1e-6])
@pytest.mark.parametrize("gamma", [1.05, 1.5, 2.0])
def test_lemma_11_properties(alpha, beta, gamma):
    c = pt.count_threshold(alpha, beta, gamma)
    assert pt.lambda_left(c, alpha) <= gamma * pt.lambda_right(c, beta)  # item 1
    assert c + 1 > 2 * max(-math.log(alpha), -math.log(beta))  # item 2


@pytest.mark.parametrize("c", [5, 50, 500])
@pytest.mark.parametrize("alpha", [0.1, 1e-4])
def test_lemma_10_tails_are_sufficient(c, alpha):
    # Chernoff-derived means give exact Poisson tails no larger than alpha (scipy.stats.poisson as reference).
    assert stats.poisson.cdf(c, pt.lambda_left(c, alpha)) <= alpha
    if c + 1 >= 2 * math.log(1 / alpha):
        assert stats.poisson.sf(c, pt.lambda_right(c, alpha)) <= alpha


def test_lemma_10_algebraic_inversion():
    alpha, lam = 1e-3, 40.0
    x = pt.lambda_left(lam, alpha) - 1  # x + 1 = lambda^l(lambda) exactly
    assert pt.lambda_right(x, alpha) == pytest.approx(lam, rel=1e-12)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: pt.lambda_left(-1, 0.1), "x"),
        (lambda: pt.lambda_left(1, 1.5), "alpha"),
        (lambda: pt.count_threshold(0.1, 0.1, 1.0), "gamma"),
        (lambda: pt.count_threshold(0.1, 0.1, 2.5), "gamma"),
        (lambda: pt.count_threshold(0.0, 0.1, 1.5), "alpha"),
        (lambda: pt.omega(0), "t"),
        (lambda: pt.omega(1.5), "t"),
        (lambda: pt.beta_t(1, 1.0), "beta"),
    ],
)
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        call()


def test_notebooks_are_thin_and_their_text_is_clean():
    """Every catalogue notebook starts with a title cell (the report's caption) free of control characters (a
    mangled backslash such as "\\v" in "\\varepsilon" becomes one), and its code cells define no functions or classes:
    algorithms live in ``privtest``."""
    import ast
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    notebooks = sorted((root / "notebooks").glob("*.ipynb"))
    assert len(notebooks) >= 20
    for path in notebooks:
        cells = json.loads(path.read_text())["cells"]
        assert cells[0]["cell_type"] == "markdown" and "".join(cells[0]["source"]).startswith(f"# {path.stem}")
        for cell in cells:
            text = "".join(cell["source"])
            assert not any(ord(ch) < 32 and ch not in "\n\t" for ch in text), path.name
            if cell["cell_type"] == "code":
                tree = ast.parse(text)
                assert not any(isinstance(n, (ast.FunctionDef, ast.ClassDef)) for n in ast.walk(tree)), path.name
