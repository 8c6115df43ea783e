"""Snakemake script: run privtest.experiments.<exp>.simulate and write its raw results atomically."""

import importlib
import logging
import sys
import time

from privtest.io import enable_progress, job_rng, write_csv_atomic

sm = snakemake  # noqa: F821  (injected by Snakemake)
with open(sm.log[0], "w") as log:
    sys.stderr = log  # tqdm progress and warnings go to the rule's log
    logging.basicConfig(stream=log, level=logging.INFO)
    enable_progress()
    exp = sm.wildcards.exp
    start = time.perf_counter()
    module = importlib.import_module(f"privtest.experiments.{exp}")
    raw = module.simulate(dict(sm.params.cfg), job_rng(sm.params.seed, exp))
    write_csv_atomic(raw, sm.output.raw)
    print(f"{exp}: {len(raw)} rows in {time.perf_counter() - start:.1f} s", file=log)
