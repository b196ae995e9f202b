// Fuzzes the JS decoder (`make fuzz`): mutated conformance-vector lines for a bounded time.
//
//   node Tests/JSTests/fuzz.mjs [SECONDS] [SEED]
//
// Each round takes a vector's stream, mutates some lines (bytes changed, inserted or cut,
// members dropped or retyped, lines repeated, dropped or swapped) and decodes the stream in
// order with one StreamDecoder: every line must give a message or a DecodeError, never another
// exception. On a finding it prints the line and the seed and exits 1.

import path from "node:path";
import { DecodeError, StreamDecoder } from "../../Sources/TransitionViewer/viewer/transitiond.mjs";
import { CONFORMANCE, readLines, vectorStreams } from "./support.mjs";

const seconds = Number(process.argv[2] ?? 5);
let seed = Number(process.argv[3] ?? Date.now() % 2147483647);
const firstSeed = seed;
// A small deterministic generator (Park–Miller), so that a seed replays a finding.
function random() {
  seed = (seed * 48271) % 2147483647;
  return (seed - 1) / 2147483646;
}
const below = (n) => Math.floor(random() * n);
const pick = (list) => list[below(list.length)];

const ODD = [null, true, false, 0, -0, 1e308, "1e999", [], {}, "", "x", [1, 2], [0.5, 0.5],
  Array(16).fill(1), 2 ** 64, -1, 0.5];
const TOKENS = ["NaN", "Infinity", "1e999", "null", "true", "[]", "{}", '"', "\\u0000", "\ud800", ",", ":", "]", "}"];

function mutateValue(value) {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return value;
    const key = pick(keys);
    switch (below(4)) {
      case 0: delete value[key]; break;
      case 1: value[key] = pick(ODD); break;
      case 2: value[key] = mutateValue(value[key]); break;
      default: value[pick(["key", "removed", "layers", "seq", "id", "frame"])] = pick(ODD);
    }
  } else if (Array.isArray(value) && value.length > 0) {
    const at = below(value.length);
    value[at] = random() < 0.5 ? mutateValue(value[at]) : pick(ODD);
  }
  return value;
}

function mutateLine(line) {
  switch (below(5)) {
    case 0: { const at = below(line.length + 1); return line.slice(0, at) + pick(TOKENS) + line.slice(at); }
    case 1: return line.slice(0, below(line.length + 1));
    case 2: try { return JSON.stringify(mutateValue(JSON.parse(line))); } catch { return line; }
    case 3: { const at = below(line.length + 1); return line.slice(0, at) + line.slice(at + 1 + below(40)); }
    default: { const at = below(line.length + 1); return line.slice(0, at) + String.fromCharCode(below(128)) + line.slice(at + 1); }
  }
}

function mutateStream(lines) {
  const out = lines.slice();
  for (let n = 1 + below(5); n > 0; n -= 1) {
    const at = below(out.length);
    switch (below(4)) {
      case 0: out[at] = mutateLine(out[at]); break;
      case 1: out.splice(below(out.length + 1), 0, out[at]); break;
      case 2: out.splice(at, 1); if (out.length === 0) out.push("{}"); break;
      default: { const other = below(out.length); [out[at], out[other]] = [out[other], out[at]]; }
    }
  }
  return out;
}

const corpus = vectorStreams().map((name) => readLines(path.join(CONFORMANCE, name)));
const deadline = Date.now() + seconds * 1000;
let inputs = 0;
let errors = 0;
while (Date.now() < deadline) {
  const decoder = new StreamDecoder();
  for (const line of mutateStream(pick(corpus))) {
    inputs += 1;
    try {
      if (decoder.decode(line).kind === "stopping") decoder.reset();
    } catch (error) {
      if (error instanceof DecodeError) { errors += 1; continue; }
      console.error("fuzz: seed " + firstSeed + ": " + JSON.stringify(line.slice(0, 400)));
      console.error(error);
      process.exit(1);
    }
  }
}
console.log("fuzz js: " + inputs + " lines in " + seconds + " s (seed " + firstSeed + "), " +
  errors + " clean errors, no other exception");
