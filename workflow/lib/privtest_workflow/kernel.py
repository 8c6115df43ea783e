"""Where a notebook job's kernel talks: IPC sockets in a private directory whose paths fit AF_UNIX's limit.

``workflow/scripts/run_notebook.py`` runs each kernel over IPC sockets in the job's private temporary directory, so
parallel kernels share no TCP ports. A socket path must fit in ``sockaddr_un.sun_path`` (``zmq.IPC_PATH_MAX_LEN``:
107 characters on Linux, 103 on macOS), and jupyter_client appends ``-<n>`` for each channel, so a ``$TMPDIR``
longer than about 76 characters made every notebook fail with ``ZMQError: ipc path ... is longer than 107
characters``. :func:`socket_base` then falls back to a short private directory, and to TCP if there is none.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

#: Directories tried, in order, for the IPC sockets when the job's temporary directory is too long.
SHORT_BASES = ("/tmp", "/var/tmp", "/dev/shm")
#: Characters jupyter_client appends to the IPC base path ("-<n>" for each of the kernel's channels), with margin.
SUFFIX = 8
#: Length of the private directory and base name under a short base: "/privtest-ipc-" + 8 random + "/ipc".
_UNDER = len("/privtest-ipc-") + 8 + len("/ipc")


def socket_base(tmp: str | os.PathLike, limit: int, bases=SHORT_BASES) -> tuple[str | None, str | None]:
    """The IPC base path for a kernel's sockets, and the private directory to remove afterwards (or None).

    Args:
        tmp: the job's private temporary directory.
        limit: the longest socket path allowed (``zmq.IPC_PATH_MAX_LEN``).
        bases: short directories to try when ``tmp`` is too long.

    Returns:
        ``(tmp/ipc, None)`` if its socket paths fit in ``limit``; else ``(<d>/ipc, <d>)`` for a new directory ``d``
        (``tempfile.mkdtemp``: mode 0700, so no other user can reach the sockets) under the first writable base
        short enough; else ``(None, None)``: use TCP.
    """
    ipc = str(Path(tmp, "ipc"))
    if len(ipc) + SUFFIX <= limit:
        return ipc, None
    for base in bases:
        if len(str(base)) + _UNDER + SUFFIX > limit or not os.access(base, os.W_OK | os.X_OK):
            continue
        short = tempfile.mkdtemp(prefix="privtest-ipc-", dir=base)
        return str(Path(short, "ipc")), short
    return None, None


def port_collision(error: BaseException) -> bool:
    """A TCP kernel start that failed because another process took a port between its choice and its bind."""
    text = str(error)
    return "Address already in use" in text or "Kernel died before replying to kernel_info" in text
