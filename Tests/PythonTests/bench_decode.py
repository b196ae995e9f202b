#!/usr/bin/env python3
"""Decode-and-apply speed of the Python package (`make bench-python`).

Decodes the album flip's conformance vectors (full and delta, Tests/Conformance) into typed
whole frames, again and again for about a second of CPU time per run, and prints frames per
second of the process's CPU time (so that other work on a shared machine does not count), the
median of 5 runs (the target is at least 5,000 frames/s), and the wall-clock figure beside it."""

import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Sources", "python"))

from transitiond import Frame, StreamDecoder  # noqa: E402

RUNS = 5
TARGET = 5000


def frames_per_second(lines: list) -> tuple:
    """Frames per CPU second and per wall second of one run."""
    frames = sum(1 for line in lines if b'"event":"frame"' in line)
    passes = 0
    cpu = time.process_time()
    wall = time.perf_counter()
    while True:
        decoder = StreamDecoder()
        for line in lines:
            decoder.decode(line)
        passes += 1
        elapsed = time.process_time() - cpu
        if elapsed >= 1.0:
            return passes * frames / elapsed, passes * frames / (time.perf_counter() - wall)


def main() -> int:
    ok = True
    for encoding in ("full", "delta"):
        path = os.path.join(ROOT, "Tests", "Conformance", f"album-flip-push.{encoding}.ndjson")
        with open(path, "rb") as file:
            lines = [line for line in file.read().split(b"\n") if line]
        decoder = StreamDecoder()
        layers = max(len(m.layers) for m in map(decoder.decode, lines) if isinstance(m, Frame))
        runs = [frames_per_second(lines) for _ in range(RUNS)]
        median = statistics.median(cpu for cpu, _ in runs)
        wall = statistics.median(wall for _, wall in runs)
        ok &= median >= TARGET
        print(f"album-flip {encoding:5} ({layers} layers): {median:,.0f} frames per CPU second "
              f"decoded and applied, median of {RUNS} "
              f"({', '.join(f'{cpu:,.0f}' for cpu, _ in runs)}; target {TARGET:,}); "
              f"{wall:,.0f} frames per wall second")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
