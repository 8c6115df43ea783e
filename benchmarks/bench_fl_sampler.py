"""Cost per draw of facility location's private greedy (Section 8.1; privtest.co.submodular.FacilityLocation) on the
real Minneapolis stop stream, on its two exact paths: the compiled rejection sampler (privtest.co._fl_kernel) and the
numpy inversion from tabulated CDFs with incrementally updated gains, each forced at the same (t, eps).

The CO runs call A at a tiny per-call eps (spread a max gain well below 1), where the sampler takes the compiled path;
the inversion path is what it replaced there. CPU time per draw, best of ``--repeats`` (robust to a shared machine);
the kernel is compiled (or loaded from numba's cache) before timing.

Usage: python benchmarks/bench_fl_sampler.py [--draws N] [--repeats K]   (needs resources/wheels/mpls_stops.whl)
"""

import argparse
import json
import time
from pathlib import Path

import numpy as np

from privtest.co import submodular
from privtest_artifact import data

WHEEL = Path(__file__).resolve().parents[1] / "resources" / "wheels" / "mpls_stops.whl"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--draws", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    fl = submodular.FacilityLocation(
        data.mpls_stops(WHEEL), k=5, grid=7, radius_km=3.0, step_days=7, groups=3, cap=2
    )  # fig_co_submodular's matroid stream
    out = []
    for t, spread in ((40, 0.05), (40, 0.3), (40, 1.0)):
        top = float((fl.sim.T @ fl.C[t - 1]).max())
        eps = 2.0 * fl.k * spread / top  # a = eps / (2 k)
        row = {"t": t, "spread": spread, "eps": eps}
        for path, limit in (("rejection (compiled)", np.inf), ("inversion (numpy)", -1.0)):
            submodular._REJECTION_SPREAD = limit
            fl.sample(t, eps, 0.0, 100, np.random.default_rng(0))  # compile / fill the tables first
            best = np.inf
            for r in range(args.repeats):
                start = time.process_time()
                fl.sample(t, eps, 0.0, args.draws, np.random.default_rng(r))
                best = min(best, time.process_time() - start)
            row[path] = round(best / args.draws * 1e6, 3)
        out.append(row)
        print(json.dumps(row))


if __name__ == "__main__":
    main()
