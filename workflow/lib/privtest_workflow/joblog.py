"""The log of a Snakemake script job: everything the job prints, warns or raises ends up in the rule's ``log:`` file.

A script job used to redirect ``sys.stderr`` to its log inside ``with open(log) as f:``; an exception closed the
file on its way out, so Python had nowhere to print the traceback ("lost sys.stderr") and the log Snakemake points
to stayed empty. :func:`open_log` instead keeps the log open until the interpreter exits and writes the full
traceback of an uncaught exception into it (and a one-line pointer to it on the terminal).

Usage, first thing in a script (``snakemake`` is the object Snakemake injects)::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
    from privtest_workflow.joblog import open_log

    log = open_log(snakemake)
"""

from __future__ import annotations

import logging
import os
import sys
import traceback
from pathlib import Path
from typing import TextIO


def open_log(sm, *, capture_fd: bool = True) -> TextIO:
    """Send the job's stderr (progress bars, warnings), ``logging`` and any uncaught traceback to ``sm.log[0]``.

    Args:
        sm: the ``snakemake`` object of a script job (``sm.log[0]`` is the rule's log file).
        capture_fd: also point file descriptor 2 at the log, so that subprocesses (a notebook's kernel) and C
            extensions write there too.

    Returns:
        The open log file (line-buffered; left open until the interpreter exits, so an exception can still be
        written to it).
    """
    path = Path(sm.log[0])
    path.parent.mkdir(parents=True, exist_ok=True)
    log = open(path, "w", buffering=1)  # noqa: SIM115  (must outlive the script's body: see the module docstring)
    terminal = os.fdopen(os.dup(2), "w", buffering=1)  # the original stderr, for the one-line pointer
    if capture_fd:
        os.dup2(log.fileno(), 2)
    sys.stderr = log
    logging.basicConfig(stream=log, level=logging.INFO, force=True)

    def excepthook(kind, value, tb):
        traceback.print_exception(kind, value, tb, file=log)
        log.flush()
        what = "".join(traceback.format_exception_only(kind, value)).strip().splitlines()[-1]
        print(f"{what}\nFull traceback in {path}", file=terminal, flush=True)

    sys.excepthook = excepthook
    return log
