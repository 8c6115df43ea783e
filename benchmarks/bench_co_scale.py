"""BatchToCO's cost per step against the stream length T (Algorithm 3 at scale; issue target: growth at most linear).

A synthetic stream: Max-Cut (:class:`privtest.co.maxcut.MaxCut`, the exponential mechanism over all cuts, whose score
law is exact) on ``n`` nodes with one uniformly random edge inserted per step (a multigraph), T steps. BatchToCO runs
``runs`` independent runs at eps = 1 (``privtest.co.batch_to_co``, per-run state recorded at 50 geometrically spaced
steps) and the benchmark prints, per T, the seconds to build the problem (its exact OPT_t by enumeration at every t)
and to run the engine, and the engine's microseconds per step. Cost per step that stays flat as T grows is linear
total growth; the number of checkpoints grows like log T (Lemma 40), so almost every step is a GTM step that does not
halt.

Usage: python benchmarks/bench_co_scale.py [--T 10000 100000 1000000] [--runs R] [--n N] [--json FILE]
"""

import argparse
import json
import time

import numpy as np

from privtest.co import batch_to_co
from privtest.co.maxcut import MaxCut
from privtest.co.params import BatchToCOParams


def synthetic_maxcut(n: int, T: int, seed: int) -> MaxCut:
    """Max-Cut on ``n`` nodes with T uniformly random edge insertions (no self-loops), one per step."""
    rng = np.random.default_rng(seed)
    u = rng.integers(0, n, T)
    v = (u + rng.integers(1, n, T)) % n
    return MaxCut(n, np.stack([u, v], axis=1))


def measure(T: int, runs: int, n: int, seed: int = 0) -> dict:
    """One measurement at stream length T: build and engine CPU seconds, engine microseconds per step."""
    start = time.process_time()
    problem = synthetic_maxcut(n, T, seed)
    built = time.process_time()
    params = BatchToCOParams(eps=1.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0)
    record = np.unique(np.geomspace(1, T, 50).astype(np.int64))
    run = batch_to_co(problem, params, runs=runs, rng=seed + 1, record=record)
    done = time.process_time()
    return {
        "T": T,
        "runs": runs,
        "build_s": round(built - start, 2),
        "engine_s": round(done - built, 2),
        "engine_us_per_step": round((done - built) / T * 1e6, 1),
        "checkpoints_mean": float((run.checkpoints > 0).sum(axis=1).mean()),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--T", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--n", type=int, default=8, help="nodes (2^(n-1) cuts)")
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args()
    results = []
    for T in args.T:
        results.append(measure(T, args.runs, args.n))
        print(json.dumps(results[-1]), flush=True)
    first, last = results[0], results[-1]
    growth = last["engine_us_per_step"] / first["engine_us_per_step"]
    print(f"cost per step at T={last['T']} / at T={first['T']}: {growth:.2f} (<= about 1: linear total growth)")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"results": results, "growth_per_step": round(growth, 2)}, fh, indent=2)


if __name__ == "__main__":
    main()
