"""The measurement behind :data:`privtest.gtm.DEFAULT_THETA` and :data:`privtest.gtm.DEFAULT_GAMMA`: Theorem 21's
expected evaluations (sum over t <= T of E[N_t]) and rejection threshold (min over t <= T of pbar_t) over a grid of
theta (at gamma = 1.5) and gamma (at theta = 1), each as the geometric mean over 54 typical settings (eps = 1,
beta in {0.01, 0.05, 0.1}, eps_t/eps in {0.02, 0.05, 0.1}, p* in {0.2, 0.5, 0.9}, T in {50, 1000}), relative to the
defaults. Deterministic; about 10-30 s.

Usage: python benchmarks/default_theta_gamma.py
"""

import itertools
import math

from privtest.gtm import DEFAULT_GAMMA, DEFAULT_THETA, GlobalCalibration

THETAS = (0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
GAMMAS = (1.1, 1.25, 1.5, 1.75, 2.0)
SETTINGS = list(itertools.product((0.01, 0.05, 0.1), (0.02, 0.05, 0.1), (0.2, 0.5, 0.9), (50, 1000)))


def measure(theta: float, gamma: float) -> tuple[float, float]:
    """Geometric means over SETTINGS of (sum_t E[N_t], min_t pbar_t)."""
    log_e = log_p = 0.0
    for beta, ratio, pstar, T in SETTINGS:
        cal = GlobalCalibration(1.0, beta, theta, gamma)
        steps = [cal.step(t, ratio, pstar) for t in range(1, T + 1)]
        log_e += math.log(sum(st.expected_samples for st in steps))
        log_p += math.log(min(st.pbar for st in steps))
    return math.exp(log_e / len(SETTINGS)), math.exp(log_p / len(SETTINGS))


def main() -> None:
    e0, p0 = measure(DEFAULT_THETA, DEFAULT_GAMMA)
    print("| theta | gamma | evaluations (x default) | min pbar_t (x default) |\n| ---: | ---: | ---: | ---: |")
    for theta, gamma in [(th, DEFAULT_GAMMA) for th in THETAS] + [(DEFAULT_THETA, g) for g in GAMMAS]:
        e, p = measure(theta, gamma)
        print(f"| {theta:g} | {gamma:g} | {e / e0:.3g} | {p / p0:.3g} |")


if __name__ == "__main__":
    main()
