"""Timing of privtest.exact: every transcript probability (continue through t, halt at t, halt within t) of a
T = 1000 stream under Theorem 21's calibration, on one core (the issue's budget: <= 30 s).

Usage: python benchmarks/bench_exact.py [T] [eps_ratio]
"""

import argparse
import time

import numpy as np

from privtest.exact import Stream, transcript_log_probs
from privtest.gtm import GlobalCalibration

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("T", nargs="?", type=int, default=1000, help="stream length (default 1000)")
parser.add_argument("eps_ratio", nargs="?", type=float, default=0.1, help="eps_t/eps (default 0.1)")
args = parser.parse_args()
T, ratio = args.T, args.eps_ratio
cal = GlobalCalibration(1.0, 0.05, 1.0, 1.5)
pstar = 0.2
start = time.perf_counter()
stream = Stream.from_calibration(cal, np.full(T, 0.5 * cal.step(1, ratio, pstar).pbar), ratio, pstar)
built = time.perf_counter()
R = transcript_log_probs(stream)
done = time.perf_counter()
print(
    f"T={T} eps_t/eps={ratio}: parameters {built - start:.2f} s, all {3 * T} transcript log-probabilities "
    f"{done - built:.2f} s; Pr[halt within T] = {np.exp(R.log_halt_within[-1]):.6g}"
)
