"""Snakemake script: run ``<module>.simulate(cfg, rng, inputs)`` for one output and write its raw results atomically.

``module`` is ``privtest_artifact.outputs.<id>`` and ``inputs`` maps the data input names its catalogue entry declares
(``raw_<id>``, ``wheel_<source>``, ``opt_<stream>``) to file paths; empty for most outputs. Progress bars, warnings
and, if it fails, the full traceback go to the rule's log (``privtest_workflow.joblog``). Next to the raw table it
writes ``results/raw/<id>.provenance.json`` (:func:`privtest_artifact.provenance.simulation_record`: commit and SHA-256
of
the script and library files it executed), which the notebook job copies into the output's sidecar.
"""

import importlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # opened before the library is imported: an import error is logged too

from privtest_artifact import provenance  # noqa: E402
from privtest_artifact.io import enable_progress, job_rng, write_csv_atomic, write_text_atomic  # noqa: E402

enable_progress()
exp = sm.wildcards.id
start = time.perf_counter()
inputs = {name: str(path) for name, path in sm.input.items() if name != "library"}
module = importlib.import_module(sm.params.module)
raw = module.simulate(dict(sm.params.cfg), job_rng(sm.params.seed, exp), inputs)
seconds = time.perf_counter() - start
# the output's module is not an input (the job follows its simulate function: the code param) but it is the code
# that produced the numbers, so its file is recorded with the inputs
own = Path(module.__file__).resolve()
own = str(own.relative_to(Path.cwd().resolve())) if own.is_relative_to(Path.cwd().resolve()) else str(own)
record = provenance.simulation_record(
    exp, dict(sm.params.cfg), sm.params.seed, [*sm.input.library, own], seconds, stage_code=sm.params.code
)
write_text_atomic(json.dumps(record, indent=2, sort_keys=True) + "\n", sm.output.provenance)
write_csv_atomic(raw, sm.output.raw)
print(f"{exp}: {len(raw)} rows in {seconds:.1f} s", file=log)
