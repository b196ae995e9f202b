#!/usr/bin/env python3
"""Fuzzes the Python decoder (`make fuzz`): mutated conformance-vector lines, for a bounded time.

    fuzz_decode.py [SECONDS] [SEED]

Each round takes a vector's stream, mutates some of its lines (bytes flipped, inserted or
cut, lines cut short, joined or repeated, numbers and members swapped for others, deltas
moved out of order) and decodes the stream in order with one StreamDecoder: every line must
give a message or a DecodeError, never another exception. On a finding it prints the
failing line and the seed and exits 1."""

import json
import os
import random
import sys
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Sources", "python"))

from transitiond import DecodeError, StoppingEvent, StreamDecoder  # noqa: E402

CONFORMANCE = os.path.join(ROOT, "Tests", "Conformance")
ODD_VALUES = [None, True, False, 0, -0.0, 1e308, -1e308, "1e999", 1e999, [], {}, "", "x",
              [1, 2], [0.5, 0.5], [1] * 16, 2 ** 64, -1, 0.5]
TOKENS = [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"null", b"true", b"[]", b"{}", b'"',
          b"\\u0000", b"\xff", b"\n", b",", b":", b"]", b"}"]


def streams() -> list:
    result = []
    for name in sorted(os.listdir(CONFORMANCE)):
        if name.endswith(".ndjson") and not name.endswith(".expected.ndjson"):
            with open(os.path.join(CONFORMANCE, name), "rb") as file:
                result.append([line for line in file.read().split(b"\n") if line])
    return result


def mutate_value(rng: random.Random, value):
    """A structural change to a decoded line: a member dropped, retyped or replaced."""
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        action = rng.randrange(4)
        if action == 0:
            del value[key]
        elif action == 1:
            value[key] = rng.choice(ODD_VALUES)
        elif action == 2:
            value[key] = mutate_value(rng, value[key])
        else:
            value[rng.choice(["key", "removed", "layers", "seq", "id", "frame"])] = \
                rng.choice(ODD_VALUES)
    elif isinstance(value, list) and value:
        index = rng.randrange(len(value))
        if rng.random() < 0.5:
            value[index] = mutate_value(rng, value[index])
        else:
            value[index] = rng.choice(ODD_VALUES)
    return value


def mutate_line(rng: random.Random, line: bytes) -> bytes:
    action = rng.randrange(6)
    data = bytearray(line)
    if action == 0 and data:
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif action == 1:
        at = rng.randrange(len(data) + 1)
        data[at:at] = rng.choice(TOKENS)
    elif action == 2 and data:
        del data[rng.randrange(len(data)):]
    elif action == 3:
        try:
            value = mutate_value(rng, json.loads(line))
            return json.dumps(value).encode()
        except ValueError:
            pass
    elif action == 4 and data:
        start = rng.randrange(len(data))
        del data[start:start + rng.randint(1, 40)]
    else:
        data += data[: rng.randrange(len(data) + 1)]
    return bytes(data)


def mutate_stream(rng: random.Random, lines: list) -> list:
    lines = list(lines)
    for _ in range(rng.randint(1, 5)):
        index = rng.randrange(len(lines))
        choice = rng.randrange(4)
        if choice == 0:
            lines[index] = mutate_line(rng, lines[index])
        elif choice == 1:
            lines.insert(rng.randrange(len(lines) + 1), lines[index])
        elif choice == 2:
            del lines[index]
            if not lines:
                lines = [b"{}"]
        else:
            other = rng.randrange(len(lines))
            lines[index], lines[other] = lines[other], lines[index]
    return lines


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else int(time.time())
    rng = random.Random(seed)
    corpus = streams()
    deadline = time.monotonic() + seconds
    inputs = errors = 0
    while time.monotonic() < deadline:
        decoder = StreamDecoder()
        for line in mutate_stream(rng, rng.choice(corpus)):
            inputs += 1
            try:
                message = decoder.decode(line)
                if isinstance(message, StoppingEvent):
                    decoder.reset()
            except DecodeError:
                errors += 1
            except Exception:  # a finding: anything but a clean error
                print(f"fuzz: seed {seed}: {line[:400]!r}", file=sys.stderr)
                traceback.print_exc()
                return 1
    print(f"fuzz python: {inputs:,} lines in {seconds:g} s (seed {seed}), {errors:,} clean "
          "errors, no other exception")
    return 0


if __name__ == "__main__":
    sys.exit(main())
