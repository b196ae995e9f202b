"""The default socket path, resolved as the daemon and every client resolve it
(docs/protocol.md, "Transport")."""

from __future__ import annotations

import os
from typing import Mapping, Optional

ENVIRONMENT_VARIABLE = "TRANSITIOND_SOCKET"
FILE_NAME = "transitiond.sock"


def default_socket_path(
    environment: Optional[Mapping[str, str]] = None, uid: Optional[int] = None
) -> str:
    """``$TRANSITIOND_SOCKET`` when set and not empty, else
    ``$XDG_RUNTIME_DIR/transitiond/transitiond.sock`` when ``XDG_RUNTIME_DIR`` is set and not
    empty, else ``/tmp/transitiond-<uid>/transitiond.sock``.

    ``environment`` defaults to ``os.environ`` and ``uid`` to the process's real uid.
    """
    env = os.environ if environment is None else environment
    explicit = env.get(ENVIRONMENT_VARIABLE, "")
    if explicit:
        return explicit
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if runtime:
        base = runtime[:-1] if runtime.endswith("/") else runtime
        return f"{base}/transitiond/{FILE_NAME}"
    return f"/tmp/transitiond-{os.getuid() if uid is None else uid}/{FILE_NAME}"
