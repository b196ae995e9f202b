"""Shared fixtures: the package from Sources/python, the conformance vectors, and a real
transitiond on a temporary socket (the built one: $TRANSITIOND_BIN, else
`swift build --show-bin-path`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Sources", "python"))

from transitiond import Client, ConnectFailed  # noqa: E402

CONFORMANCE = os.path.join(ROOT, "Tests", "Conformance")
SCENES = os.path.join(ROOT, "config", "scenes")


def vector_streams() -> list:
    return sorted(name for name in os.listdir(CONFORMANCE)
                  if name.endswith(".ndjson") and not name.endswith(".expected.ndjson"))


def read_lines(path: str) -> list:
    with open(path, "rb") as file:
        return [line for line in file.read().split(b"\n") if line]


def binaries() -> str:
    directory = os.environ.get("TRANSITIOND_BIN")
    if not directory:
        directory = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT,
                                   capture_output=True, text=True, check=True).stdout.strip()
    if not os.path.exists(os.path.join(directory, "transitiond")):
        pytest.fail(f"no built transitiond in {directory}: run swift build first")
    return directory


def wait_until(condition, seconds: float = 30, what: str = "a condition"):
    """Polls ``condition`` until it returns a true value, failing after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.01)


class Daemon:
    """transitiond on a socket in a temporary directory."""

    def __init__(self, directory: str, path: str):
        self.bin = directory
        self.socket = path
        self.process = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [os.path.join(self.bin, "transitiond"), "--socket", self.socket, "--plugin-path",
             self.bin], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def listening():
            if self.process.poll() is not None:
                pytest.fail(f"transitiond exited with {self.process.returncode} at start")
            try:
                Client(self.socket, timeout=5).close()
                return True
            except ConnectFailed:
                return False

        wait_until(listening, what="transitiond to listen")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(15)
        self.process = None


@pytest.fixture
def daemon(tmp_path):
    running = Daemon(binaries(), str(tmp_path / "d.sock"))
    running.start()
    yield running
    running.stop()


def same_json(got, want, where: str = "") -> None:
    """Asserts two decoded JSON values equal number for number (and type for type)."""
    if isinstance(want, dict):
        assert isinstance(got, dict), where
        assert sorted(got) == sorted(want), f"{where}: members {sorted(got)} != {sorted(want)}"
        for name in want:
            same_json(got[name], want[name], f"{where}.{name}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for index, (a, b) in enumerate(zip(got, want)):
            same_json(a, b, f"{where}[{index}]")
    elif isinstance(want, bool) or want is None or isinstance(want, str):
        assert got is want or got == want and type(got) is type(want), f"{where}: {got!r} != {want!r}"
    else:
        assert type(got) in (int, float) and got == want, f"{where}: {got!r} != {want!r}"


def expected_lines(stream: str) -> list:
    return [json.loads(line) for line in
            read_lines(os.path.join(CONFORMANCE, stream[: -len(".ndjson")] + ".expected.ndjson"))]
