"""Snakemake script: execute a parameterized notebook with papermill.

Parallel notebook jobs are a known source of ``ZMQError: Address already in use`` (jupyter_client picks free TCP
ports, and two kernels starting together can pick the same one). Each kernel here talks over IPC sockets in a
private temporary directory instead, so no ports are shared. A socket path must fit in AF_UNIX's ``sun_path``
(``zmq.IPC_PATH_MAX_LEN``, 107 characters on Linux): when ``$TMPDIR`` is too long for that, the sockets go to a
short private directory (``mkdtemp`` under ``/tmp``, mode 0700), and if there is none, to TCP with the start retried
on a port collision (``privtest_workflow.kernel``). The kernel is a ``privtest`` kernelspec written on the fly for
this interpreter, so the notebook runs with exactly the Python that runs Snakemake.

A failing notebook leaves its full traceback in the rule's log, and its executed copy (which shows the failing cell
and its output) at ``results/logs/notebooks/<id>.failed.ipynb``, outside the declared outputs that Snakemake deletes
after a failure; the log says where.
"""

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402
from privtest_workflow.kernel import port_collision, socket_base  # noqa: E402
from privtest_workflow.reporting import write_markdown_html  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # the kernel subprocess inherits fd 2: its messages go to the rule's log too

from privtest_artifact import provenance  # noqa: E402
from privtest_artifact.io import write_text_atomic  # noqa: E402

# Kept outside the declared outputs (Snakemake deletes those when the job fails).
failed = Path(sm.log[0]).parent.parent / "notebooks" / f"{sm.wildcards.id}.failed.ipynb"
with tempfile.TemporaryDirectory(prefix="privtest-kernel-") as tmp:
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
    import zmq
    from jupyter_client.manager import KernelManager

    ipc, short = socket_base(tmp, getattr(zmq, "IPC_PATH_MAX_LEN", 0) or 103)
    if ipc is None:
        print("No short directory for IPC sockets: the kernel uses TCP (retried on a port collision).", file=log)
    # cfg, the output's files (pdf/png/data or tex/md/csv), the directory of its analysis tables (analysis) and,
    # where the catalogue says so, its claims: what the notebook reads, nothing else.
    parameters = {"cfg": dict(sm.params.cfg)}
    parameters.update({k: str(Path(v).resolve()) for k, v in sm.input.items() if k in ("claims", "analysis")})
    parameters.update(
        {k: str(Path(v).resolve()) for k, v in sm.output.items() if k not in ("executed", "provenance", "html")}
    )
    executed = Path(sm.output.executed).resolve()
    executed.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    try:
        for attempt in range(1 if ipc else 5):
            km = KernelManager(
                kernel_name="privtest", **({"transport": "ipc", "ip": ipc} if ipc else {"transport": "tcp"})
            )
            try:
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
                break
            except Exception as error:  # TCP: another kernel took a port between its choice and its bind
                if ipc or not port_collision(error) or attempt == 4:
                    raise
                print(f"Kernel port collision ({error}); retrying", file=log)
    except BaseException:
        if executed.is_file():
            failed.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(executed, failed)
            print(f"The executed notebook with the failing cell's output: {failed}", file=log)
        raise
    finally:
        if short:
            shutil.rmtree(short, ignore_errors=True)
    failed.unlink(missing_ok=True)  # a stale copy from an earlier failure
    if "html" in sm.output.keys():  # a table: the HTML rendering of its .md that the Snakemake report shows
        write_markdown_html(sm.output.md, sm.output.html)
    sidecar = provenance.record(
        sm.wildcards.id, dict(sm.params.cfg), sm.params.seed, time.perf_counter() - start, sm.input.get("simulation")
    )
    write_text_atomic(json.dumps(sidecar, indent=2, sort_keys=True) + "\n", sm.output.provenance)
