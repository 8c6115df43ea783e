"""Snakemake script: run ``<module>.simulate(cfg, rng, inputs)`` for one output and write its raw results atomically.

``module`` is ``privtest.experiments.<id>`` and ``inputs`` maps the data input names its catalogue entry declares
(``raw_<id>``, ``wheel_<source>``, ``opt_<stream>``) to file paths; empty for most outputs.
"""

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
    exp = sm.wildcards.id
    start = time.perf_counter()
    inputs = {name: str(path) for name, path in sm.input.items() if name != "library"}
    module = importlib.import_module(sm.params.module)
    raw = module.simulate(dict(sm.params.cfg), job_rng(sm.params.seed, exp), inputs)
    write_csv_atomic(raw, sm.output.raw)
    print(f"{exp}: {len(raw)} rows in {time.perf_counter() - start:.1f} s", file=log)
