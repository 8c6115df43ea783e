"""Training throughput of fig_hpo's learner: privtest_artifact.hpo's vectorized DP Gaussian naive Bayes vs
diffprivlib's.

One "training" = fit one eps-DP GaussianNB on the private breast-cancer training split (341 records) with the given
number of features and compute its accuracy on the public validation split (228 records), i.e. one evaluation of
M_t. diffprivlib fits one model per call (its ``fit`` + ``predict``); privtest_artifact.hpo draws the noise of a batch
of models at once from sufficient statistics computed once. Large batches are the GTM's and the p_t estimates' regime;
small batches (``--small-batch``, a few models per call) are the private-selection peer's, where the cost per call
dominates.

Usage: python benchmarks/bench_hpo.py [--batch B] [--small-batch S] [--fits F] [--repeats K]
"""

import argparse
import json
import time
import warnings

import numpy as np

from privtest_artifact import hpo


def best_time(fn, repeats: int) -> tuple[float, float]:
    """Best wall-clock and best CPU (process) time of ``repeats`` calls; CPU time is robust to a shared machine."""
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=50_000, help="models per vectorized call")
    ap.add_argument("--small-batch", type=int, default=8, help="models per call in the small-batch timing")
    ap.add_argument("--fits", type=int, default=100, help="diffprivlib fits per timing")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    from diffprivlib.models import GaussianNB

    split = hpo.load_split()
    results = {}
    for d in (2, 5, 30):
        h = hpo.Hyper(d, 0.05)
        m = hpo.DPNaiveBayesMechanism(split, h, eps_t=1.0, target=0.9)
        rng = np.random.default_rng(0)
        t_vec = best_time(lambda m=m, rng=rng: m.sample(args.batch, rng), args.repeats)
        calls = max(1, args.batch // args.small_batch)

        def small(m=m, rng=rng, calls=calls):
            for _ in range(calls):
                m.sample(args.small_batch, rng)

        t_small = best_time(small, args.repeats)
        feats, lower, upper = hpo.public_preprocessing(split, h)
        c = 0.5 * (lower + upper)
        Xtr = np.clip(split.X_train[:, feats], lower, upper) - c
        Xva = split.X_val[:, feats] - c
        rs = np.random.RandomState(0)

        def dpl(lower=lower, upper=upper, c=c, Xtr=Xtr, Xva=Xva, rs=rs, eps=m.model.epsilon):
            for _ in range(args.fits):
                g = GaussianNB(epsilon=eps, bounds=(lower - c, upper - c), random_state=rs)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    g.fit(Xtr, split.y_train)
                np.mean(g.predict(Xva) >= 0)

        t_dpl = best_time(dpl, args.repeats)
        results[f"d={d}"] = {
            "vectorized_trainings_per_s": args.batch / t_vec[0],
            "diffprivlib_trainings_per_s": args.fits / t_dpl[0],
            "vectorized_trainings_per_cpu_s": args.batch / t_vec[1],
            "vectorized_small_batch_trainings_per_cpu_s": calls * args.small_batch / t_small[1],
            "diffprivlib_trainings_per_cpu_s": args.fits / t_dpl[1],
            "speedup_cpu": (args.batch / t_vec[1]) / (args.fits / t_dpl[1]),
        }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
