"""Timing of privtest.exact: every transcript probability (continue through t, halt at t, halt within t) of a
T = 1000 stream under Theorem 21's calibration, on one core (the issue's budget: <= 30 s).

Usage: python benchmarks/bench_exact.py [T] [eps_ratio]
"""

import sys
import time

import numpy as np

from privtest.exact import Stream, transcript_log_probs
from privtest.gtm import GlobalCalibration

T = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
ratio = float(sys.argv[2]) if len(sys.argv) > 2 else 0.1
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
