#!/usr/bin/env python3
"""Records the conformance vectors (docs/conformance.md) against a real transitiond.

    record.py --bin DIR [--out DIR] [--wall]

Starts DIR/transitiond on a temporary socket and writes, for every example scene of
config/scenes, its virtual-clock stream at FPS frames a second, full and delta, as a
subscriber reads it (the events; the `start` of `begin`, a moment on the daemon's clock, is
written as 0 so that the files are the same on every run), and the projected-geometry
streams (subscribe's geometry "quad") of the album flip and of a cover whose corners pass
behind the eye, and a stream whose layers carry every appearance member. With --wall it also records the
wall-clock vectors (a wall stream, a resync, a touch-driven session, a cancel, a restart of
the daemon under a `*` subscription), which differ from run to run and are recorded once and
kept. The expected frames (*.expected.ndjson) are written by the Swift client
(`make conformance` runs ConformanceVectorTests with TRANSITIOND_CONFORMANCE_WRITE=1).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Sources", "python"))

from transitiond import Client, ReconnectBackoff, Scene  # noqa: E402

FPS = 15
"""The virtual vectors' frame rate: small files, every keyframe's neighbourhood sampled."""

START = re.compile(rb'"start":[-0-9.e+]+')


class Subscriber:
    """A raw connection that keeps the lines it reads exactly as they came."""

    def __init__(self, path: str):
        self.path = path
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.buffer = b""
        self.lines: list = []
        self.next_id = 0

    def send(self, op: str, **fields) -> int:
        self.next_id += 1
        message = {"id": self.next_id, "op": op, **fields}
        self.socket.sendall(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        return self.next_id

    def read_line(self, deadline: float) -> bytes | None:
        """The next line, recorded when it is an event; None when the daemon closed."""
        while b"\n" not in self.buffer:
            self.socket.settimeout(max(0.001, deadline - time.monotonic()))
            try:
                chunk = self.socket.recv(65536)
            except socket.timeout:
                raise TimeoutError(f"nothing from the daemon on {self.path}") from None
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        if b'"event":' in line and b'"ok":' not in line[:12]:
            self.lines.append(line)
        return line

    def until(self, predicate, seconds: float = 20) -> dict:
        """Reads until a line's message satisfies ``predicate``; returns it."""
        deadline = time.monotonic() + seconds
        while True:
            line = self.read_line(deadline)
            if line is None:
                raise ConnectionError("the daemon closed the connection")
            message = json.loads(line)
            if predicate(message):
                return message

    def reply(self, request_id: int) -> dict:
        reply = self.until(lambda m: m.get("id") == request_id and "ok" in m)
        if not reply["ok"]:
            raise RuntimeError(f"the daemon refused request {request_id}: {reply['error']}")
        return reply

    def complete(self, session: str) -> None:
        self.until(lambda m: m.get("event") == "complete" and m.get("session") == session)

    def frame(self, predicate) -> dict:
        return self.until(lambda m: m.get("event") == "frame" and predicate(m))

    def write(self, path: str, virtual: bool) -> None:
        with open(path, "wb") as file:
            for line in self.lines:
                file.write((START.sub(b'"start":0', line) if virtual else line) + b"\n")
        print(f"wrote {os.path.relpath(path, ROOT)} ({len(self.lines)} events)")

    def close(self) -> None:
        self.socket.close()


class Daemon:
    """transitiond on a temporary socket."""

    def __init__(self, binaries: str, directory: str):
        self.binaries = binaries
        self.socket = os.path.join(directory, "d.sock")
        self.log = open(os.path.join(directory, "daemon.log"), "ab")
        self.process = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [os.path.join(self.binaries, "transitiond"), "--socket", self.socket,
             "--plugin-path", self.binaries], stderr=self.log, stdout=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                Client(self.socket, timeout=2).close()
                return
            except Exception:
                if self.process.poll() is not None:
                    raise RuntimeError("transitiond exited at start (see its log)")
                time.sleep(0.02)
        raise RuntimeError("transitiond did not start listening within 30 s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
        self.process = None


def scene_names() -> list:
    directory = os.path.join(ROOT, "config", "scenes")
    return sorted(name[:-5] for name in os.listdir(directory) if name.endswith(".json"))


def scene(name: str) -> Scene:
    return Scene.load(os.path.join(ROOT, "config", "scenes", name + ".json"))


def record_virtual_pair(daemon: Daemon, out: str, name: str, begin: dict,
                        **subscribe: str) -> None:
    """Begins a session and records it to a full and a delta subscriber on the virtual clock
    (with `subscribe`'s extra members, such as geometry), as NAME.full and NAME.delta."""
    full = Subscriber(daemon.socket)
    delta = Subscriber(daemon.socket)
    full.reply(full.send("begin", **begin))
    full.reply(full.send("subscribe", session=name, fps=FPS, clock="virtual", **subscribe))
    delta.reply(delta.send("subscribe", session=name, fps=FPS, clock="virtual",
                           encoding="delta", **subscribe))
    full.complete(name)
    delta.complete(name)
    full.write(os.path.join(out, f"{name}.full.ndjson"), virtual=True)
    delta.write(os.path.join(out, f"{name}.delta.ndjson"), virtual=True)
    full.close()
    delta.close()


def record_virtual(daemon: Daemon, out: str) -> None:
    """Every example scene, virtual clock, full and delta: one session, two subscribers."""
    for name in scene_names():
        record_virtual_pair(daemon, out, name, scene(name).begin_fields(session=name))

def wide_cover_fields(session: str) -> dict:
    """The album flip's push with the tapped cover 900 points wide: turning about its left
    edge under the perspective's 500 points, its right corners pass behind the eye."""
    fields = scene("album-flip-push").begin_fields(session=session)
    for layer in fields["context"]["from"]["layers"]:
        if layer["id"] == fields["context"]["selected"]:
            layer["frame"] = [16, 326, 900, 171]
    return fields


def record_geometry(daemon: Daemon, out: str) -> None:
    """Projected geometry (subscribe's geometry "quad"), virtual clock, full and delta: the
    album flip's push and pop, and the wide cover whose corners pass behind the eye."""
    begins = {
        "quad-album-flip-push": scene("album-flip-push").begin_fields(
            session="quad-album-flip-push"),
        "quad-album-flip-pop": scene("album-flip-pop").begin_fields(
            session="quad-album-flip-pop"),
        "quad-behind-eye": wide_cover_fields("quad-behind-eye"),
    }
    for name, fields in begins.items():
        record_virtual_pair(daemon, out, name, fields, geometry="quad")

def appearance_fields(session: str) -> dict:
    """The default slide's push with the app's own look on its layers: on each screen the first
    layer rounded, clipping, bordered and shadowed, and the second clipped to it, so that a
    stream carries every appearance member (the material container transform's vectors carry
    them changing)."""
    fields = scene("default-slide-push").begin_fields(session=session)
    for side, radius in (("from", 14), ("to", 0.5)):
        layers = fields["context"][side]["layers"]
        first = layers[0]
        first.update({
            "cornerRadius": radius, "clips": True,
            "border": {"width": 1.5, "color": "#3c3c4399"},
            "shadow": {"color": "#00000033", "blur": 8, "offset": [0, 2.5]},
        })
        layers[1]["clipTo"] = first["id"]
    return fields


def record_appearance(daemon: Daemon, out: str) -> None:
    """Every appearance member of a layer, virtual clock, full and delta."""
    record_virtual_pair(daemon, out, "appearance", appearance_fields("appearance"))


def record_wall(daemon: Daemon, out: str) -> None:
    """The wall-clock vectors: each is a real run, kept once recorded."""
    control = Client(daemon.socket)

    # A wall stream, full and delta, of the album flip.
    full = Subscriber(daemon.socket)
    delta = Subscriber(daemon.socket)
    full.reply(full.send("begin", **scene("album-flip-push").begin_fields(session="wall",
                                                                          interactive=True)))
    full.reply(full.send("subscribe", session="wall", fps=30))
    delta.reply(delta.send("subscribe", session="wall", fps=30, encoding="delta"))
    control.control("resume", "wall")
    full.complete("wall")
    delta.complete("wall")
    full.write(os.path.join(out, "wall-clock.full.ndjson"), virtual=False)
    delta.write(os.path.join(out, "wall-clock.delta.ndjson"), virtual=False)

    # A resync in the middle of an interactive session driven by progress.
    sub = Subscriber(daemon.socket)
    control.begin_scene(scene("zoom-present-present"), session="resync", interactive=True)
    subscription = sub.reply(sub.send("subscribe", session="resync", encoding="delta"))
    sub.frame(progressed(0))
    for progress in (0.25, 0.5):
        control.control("update", "resync", progress=progress)
        sub.frame(progressed(progress))
    sub.reply(sub.send("resync", subscription=subscription["subscription"]))
    sub.frame(lambda frame: frame.get("key") is True)
    control.control("update", "resync", progress=0.75)
    sub.frame(progressed(0.75))
    control.control("finish", "resync")
    sub.complete("resync")
    sub.write(os.path.join(out, "resync.delta.ndjson"), virtual=False)

    # A finger drags the matched detail down, then lets go.
    sub = Subscriber(daemon.socket)
    control.begin_scene(scene("zoom-present-matched-dismiss"), session="touch", interactive=True,
                        touch=[220, 420])
    sub.reply(sub.send("subscribe", session="touch", encoding="delta"))
    sub.frame(lambda frame: True)
    for y in (460, 520, 600):
        reply = control.control("update", "touch", touch=[220 + (y - 420) / 15, y])
        sub.frame(progressed(reply["progress"]))
    control.control("finish", "touch", touchVelocity=[0, 900])
    sub.complete("touch")
    sub.write(os.path.join(out, "touch.delta.ndjson"), virtual=False)

    # A cancel: back to exactly the first frame, finished false.
    sub = Subscriber(daemon.socket)
    control.begin_scene(scene("album-flip-push"), session="cancel", interactive=True)
    sub.reply(sub.send("subscribe", session="cancel", fps=30, encoding="delta"))
    sub.frame(progressed(0))
    for progress in (0.3, 0.6):
        control.control("update", "cancel", progress=progress)
        sub.frame(progressed(progress))
    control.control("cancel", "cancel")
    sub.complete("cancel")
    sub.write(os.path.join(out, "cancel.delta.ndjson"), virtual=False)
    control.close()

    # A restart of the daemon in the middle of a `*` subscription: `stopping`, then the
    # subscriber connects again (the same lines follow in the file) and subscribes again.
    sub = Subscriber(daemon.socket)
    sub.reply(sub.send("subscribe", session="*", fps=30, encoding="delta"))
    control = Client(daemon.socket)
    control.begin_scene(scene("album-flip-push"), session="before")
    sub.frame(lambda frame: frame["session"] == "before" and frame["seq"] >= 5)
    control.close()
    daemon.stop()
    sub.until(lambda m: m.get("event") == "stopping")
    try:
        while sub.read_line(time.monotonic() + 5) is not None:
            pass
    except (TimeoutError, ConnectionError):
        pass
    daemon.start()
    again = Subscriber(daemon.socket)
    again.lines = sub.lines
    again.reply(again.send("subscribe", session="*", fps=30, encoding="delta"))
    control = Client(daemon.socket)
    control.reconnect(ReconnectBackoff())
    control.begin_scene(scene("zoom-present-present"), session="after")
    again.complete("after")
    again.write(os.path.join(out, "restart.delta.ndjson"), virtual=False)
    control.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the directory of the built transitiond")
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--wall", action="store_true", help="also record the wall-clock vectors")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="td-conformance-") as directory:
        daemon = Daemon(arguments.bin, directory)
        daemon.start()
        try:
            record_virtual(daemon, arguments.out)
            record_geometry(daemon, arguments.out)
            record_appearance(daemon, arguments.out)
            if arguments.wall:
                record_wall(daemon, arguments.out)
        finally:
            daemon.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
