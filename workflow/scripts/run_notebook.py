"""Snakemake script: execute a parameterized notebook with papermill.

Parallel notebook jobs are a known source of ``ZMQError: Address already in use`` (jupyter_client picks free TCP
ports, and two kernels starting together can pick the same one). Each kernel here talks over IPC sockets in a
private temporary directory instead, so no ports are shared. The kernel is a ``privtest`` kernelspec written on
the fly for this interpreter, so the notebook runs with exactly the Python that runs Snakemake.
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from privtest import provenance
from privtest.io import write_text_atomic

sm = snakemake  # noqa: F821  (injected by Snakemake)
with open(sm.log[0], "w") as log, tempfile.TemporaryDirectory(prefix="privtest-kernel-") as tmp:
    sys.stderr = log
    os.dup2(log.fileno(), 2)  # the kernel subprocess inherits fd 2: its messages go to the rule's log too
    spec_dir = Path(tmp, "kernels", "privtest")
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "privtest",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    os.environ["JUPYTER_PATH"] = tmp
    os.environ["JUPYTER_RUNTIME_DIR"] = str(Path(tmp, "runtime"))
    os.environ.setdefault("MPLBACKEND", "Agg")

    import papermill
    from jupyter_client.manager import KernelManager

    km = KernelManager(kernel_name="privtest", transport="ipc", ip=str(Path(tmp, "ipc")))
    # raw, cfg, the output's files (pdf/png/data or tex/md/csv) and, where the catalogue says so, its claims.
    parameters = {"raw": str(Path(sm.input.raw).resolve()), "cfg": dict(sm.params.cfg)}
    parameters.update({k: str(Path(v).resolve()) for k, v in sm.input.items() if k == "claims"})
    parameters.update({k: str(Path(v).resolve()) for k, v in sm.output.items() if k not in ("executed", "provenance")})
    executed = Path(sm.output.executed).resolve()
    executed.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    papermill.execute_notebook(
        str(Path(sm.input.notebook).resolve()),
        str(executed),
        parameters=parameters,
        kernel_name="privtest",
        km=km,
        cwd=str(Path.cwd()),
        progress_bar=False,
        log_output=False,
        stdout_file=log,
        stderr_file=log,
    )
    sidecar = provenance.record(
        sm.wildcards.id, dict(sm.params.cfg), sm.params.seed, time.perf_counter() - start, sm.params.benchmark
    )
    write_text_atomic(json.dumps(sidecar, indent=2, sort_keys=True) + "\n", sm.output.provenance)
