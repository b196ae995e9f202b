// Shared by the JS tests: the conformance vectors and a real transitiond on a temporary socket
// (the built one: $TRANSITIOND_BIN, else `swift build --show-bin-path`).

import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "../../Sources/js/client.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CONFORMANCE = path.join(ROOT, "Tests/Conformance");
export const SCENES = path.join(ROOT, "config/scenes");

export function vectorStreams() {
  return fs.readdirSync(CONFORMANCE)
    .filter((name) => name.endsWith(".ndjson") && !name.endsWith(".expected.ndjson")).sort();
}

export function readLines(file) {
  return fs.readFileSync(file, "utf8").split("\n").filter((line) => line !== "");
}

export function expectedLines(stream) {
  return readLines(path.join(CONFORMANCE, stream.replace(/\.ndjson$/, ".expected.ndjson")))
    .map((line) => JSON.parse(line));
}

/// A scene file turned into `begin`'s members, as transitionctl play does.
export function sceneBegin(name, fields = {}) {
  const scene = JSON.parse(fs.readFileSync(path.join(SCENES, name + ".json"), "utf8"));
  const context = {};
  for (const [key, value] of Object.entries(scene)) {
    if (!["animator", "duration", "interactive", "description", "hints"].includes(key)) context[key] = value;
  }
  Object.assign(context, Object.assign({}, scene.hints || {}, context));
  const begin = { context };
  for (const key of ["animator", "duration", "interactive"]) if (key in scene) begin[key] = scene[key];
  return Object.assign(begin, fields);
}

function binaries() {
  const directory = process.env.TRANSITIOND_BIN ||
    execFileSync("swift", ["build", "--show-bin-path"], { cwd: ROOT, encoding: "utf8" }).trim();
  if (!fs.existsSync(path.join(directory, "transitiond"))) {
    throw new Error("no built transitiond in " + directory + ": run swift build first");
  }
  return directory;
}

/// Polls `condition` until it resolves true, failing after `seconds`.
export async function waitUntil(condition, seconds = 30, what = "a condition") {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error("timed out waiting for " + what);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/// transitiond on a socket in a new temporary directory.
export class Daemon {
  constructor() {
    this.bin = binaries();
    this.directory = fs.mkdtempSync(path.join(os.tmpdir(), "td-js-"));
    this.socket = path.join(this.directory, "d.sock");
  }

  async start() {
    this.process = spawn(path.join(this.bin, "transitiond"),
      ["--socket", this.socket, "--plugin-path", this.bin], { stdio: "ignore" });
    this.exited = new Promise((resolve) => this.process.once("exit", resolve));
    await waitUntil(async () => {
      try {
        (await Client.connect(this.socket)).close();
        return true;
      } catch {
        return false;
      }
    }, 30, "transitiond to listen");
  }

  async stop() {
    if (!this.process) return;
    this.process.kill("SIGTERM");
    await this.exited;
    this.process = null;
  }

  async dispose() {
    await this.stop();
    fs.rmSync(this.directory, { recursive: true, force: true });
  }
}
