"""Time of one release of privtest.opendp.make_gtm on 400 records: one OpenDP call per evaluation (the only path
before issue 31) against the batched path (a counting factory: one OpenDP call per step).

Each M_t is [|X| + DLap(scale) > threshold_t] on a dataset of 400 records (OpenDP's count, discrete Laplace, a
threshold: 1/scale-DP per added or removed record); the batched M_t counts the True among n copies of the count with
fresh noise on each (the counting factory of privtest.opendp's module docstring). Both paths run the GTM with the same
seed per repeat, so they make the same N_t evaluations (printed); the thresholds put p_t near 0 or 1, so both release
the same step. Prints the median time over the repeats of each path, and the speed-up.

Usage: python benchmarks/bench_opendp.py [--repeats K] [--scale S] [--thresholds 450 380] [--paths single batched]
(run from the repository root; PYTHONPATH=src if privtest is not installed).
"""

import argparse
import statistics
import time

import opendp.prelude as dp

from privtest import GlobalCalibration
from privtest.opendp import make_gtm

N_RECORDS = 400


def _records():
    return dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()


def single(threshold, scale, calls):
    """One evaluation per OpenDP call (calls counts them, in the threshold's postprocessor: no extra OpenDP layer)."""

    def above(c):
        calls.append(1)
        return c > threshold

    return _records() >> dp.t.then_count() >> dp.m.then_laplace(scale=scale) >> dp.new_function(above, TO=bool)


def batched(threshold, scale, calls):
    """Counting factory: make_count(n) releases the number of True among n independent evaluations (calls: the n)."""

    def make_count(n):
        calls.append(n)
        copies = dp.t.make_user_transformation(
            dp.atom_domain(T=int),
            dp.absolute_distance(T=int),
            dp.vector_domain(dp.atom_domain(T=int)),
            dp.l1_distance(T=int),
            lambda c: [c] * n,
            lambda d: n * d,
        )
        noisy = _records() >> dp.t.then_count() >> copies >> dp.m.then_laplace(scale=scale)
        return noisy >> dp.new_function(lambda cs: sum(c > threshold for c in cs), TO=int)

    return make_count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="releases per path (the median is printed)")
    ap.add_argument("--scale", type=float, default=4.0, help="Laplace scale (eps_t = 1/scale)")
    ap.add_argument("--thresholds", type=float, nargs="+", default=[450.0, 380.0], help="one per step")
    ap.add_argument("--paths", nargs="+", default=["single", "batched"], choices=["single", "batched"])
    args = ap.parse_args()
    dp.enable_features("contrib", "honest-but-curious")
    cal = GlobalCalibration(eps=1.0, beta=0.05, theta=1.0, gamma=1.5)
    x = [0.5] * N_RECORDS
    print(f"{N_RECORDS} records, T = {len(args.thresholds)}, eps_t = {1 / args.scale:g}, {cal}")
    medians = {}
    for path in args.paths:
        times = []
        for r in range(args.repeats):
            calls = []
            build = single if path == "single" else batched
            gtm = make_gtm([build(th, args.scale, calls) for th in args.thresholds], cal, 0.5, rng=r)
            calls.clear()  # a factory's make_count(1) at construction
            start = time.perf_counter()
            release = gtm(x)
            times.append(time.perf_counter() - start)
            evaluations = len(calls) if path == "single" else sum(calls)
            print(
                f"  {path:8s} repeat {r}: release {release}, {evaluations} evaluations in {len(calls)} OpenDP calls, "
                f"{times[-1]:.3f} s"
            )
        medians[path] = statistics.median(times)
        print(f"{path}: median {medians[path]:.3f} s over {args.repeats} releases")
    if len(medians) == 2:
        print(f"speed-up (single / batched): {medians['single'] / medians['batched']:.0f}x")


if __name__ == "__main__":
    main()
