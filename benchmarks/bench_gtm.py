"""GTM Monte Carlo throughput next to raw numpy Poisson draws (issue target: >= 0.45 of the raw rate).

The step timed is the one the vectorized runs take (privtest.runs.run_streams, halting_counts, GTMTester.run):
``privtest.gtm.run_step(..., counts=False)`` on R independent instances: one exponential draw (eta_2,t), one Poisson
draw (N_t) and the halting decision given N_t, drawn from its exact conditional law (a uniform against Bernstein's
bound on the binomial tail, the exact tail where the uniform falls below it, a binomial draw of K_t near the
threshold). For reference also ``counts=True`` (GTM.step's path: N_t ~ Po, then K_t ~ Bin(N_t, p), one binomial draw
per instance). The reference rate is ``rng.poisson(lam, size=R)`` at the same Poisson means, i.e. the cheapest
possible way to draw N_t alone. Each rate is the best of ``--repeats`` timed calls; all draws share one Generator.

Usage: python benchmarks/bench_gtm.py [--runs R] [--repeats K]
"""

import argparse
import json
import time

import numpy as np

import privtest as pt
from privtest.gtm import run_step


def best_rate(fn, repeats: int, work: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return work / min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200_000, help="instances advanced per call (R)")
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    results = {}
    for label, (t, ratio, pstar) in {"t=1,r=0.05": (1, 0.05, 0.2), "t=100,r=0.1": (100, 0.1, 0.2)}.items():
        st = pt.GlobalCalibration(1.0, 0.05, 1.0, 1.5).step(t, ratio, pstar)
        m = pt.BernoulliMechanism(st.pstar, st.eps_t)
        eta1 = rng.exponential(st.tau1, size=args.runs)
        lam = st.rho * np.exp(st.eps_t * (st.mu1 - eta1 + rng.exponential(st.tau2, size=args.runs)))
        step = (eta1, st.mu1, st.eps_t, st.tau2, st.c, st.rho, st.s, m, rng)
        raw_rate = best_rate(lambda lam=lam: rng.poisson(lam), args.repeats, args.runs)
        gtm_rate = best_rate(lambda step=step: run_step(*step, counts=False), args.repeats, args.runs)
        counts_rate = best_rate(lambda step=step: run_step(*step), args.repeats, args.runs)
        results[label] = {
            "mean_lambda": float(lam.mean()),
            "gtm_steps_per_s": gtm_rate,
            "numpy_poisson_per_s": raw_rate,
            "ratio": gtm_rate / raw_rate,
            "gtm_steps_with_counts_per_s": counts_rate,
            "ratio_with_counts": counts_rate / raw_rate,
        }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
