// One seed, one counterexample: the explorers compiled to WebAssembly (as
// the browser page runs them) must print exactly what the native
// `fencelab explore --json` prints, timing aside.
//
// Run by `cargo xtask test`, which builds both and passes their paths in
// FENCELAB_BIN and FENCELAB_WASM_NODE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const bin = process.env.FENCELAB_BIN;
const wasmModule = process.env.FENCELAB_WASM_NODE;
if (!bin || !wasmModule) {
  throw new Error("set FENCELAB_BIN and FENCELAB_WASM_NODE (cargo xtask test does)");
}
const wasm = require(wasmModule);

const cases = [
  { design: "ttl-lock-only", seed: 1 },
  { design: "client-check", seed: 42 },
  { design: "idempotency-only", seed: 7, workers: 3 },
  { design: "fenced-highest-seen", seed: 2024 },
  { design: "fenced-registered", seed: 5, cancel: true },
  { design: "fenced-registered", seed: 5, cases: 64 },
  { design: "db-conditional", exhaustive: true, targets: [], cancel: true },
  { design: "full", exhaustive: true, cancel: true },
  { design: "ttl-lock-only", exhaustive: true, workers: 3, restarted: true },
  // Requests that travel: the sending gateway breaks, `full` holds.
  { design: "sending-gateway", seed: 3, cancel: true, max_in_flight: 2, max_delay: 3 },
  { design: "sending-gateway", exhaustive: true, cancel: true, max_in_flight: 2, max_delay: 3 },
  { design: "full", exhaustive: true, cancel: true, max_in_flight: 2, max_delay: 3 },
  { design: "fenced-highest-seen", seed: 11, workers: 3, max_in_flight: 3, max_delay: 1 },
];

function cliArgs(options) {
  const args = ["explore", "--json", "--lang", "en", "--design", options.design];
  if (options.seed !== undefined) args.push("--seed", String(options.seed));
  if (options.workers !== undefined) args.push("--workers", String(options.workers));
  if (options.cases !== undefined) args.push("--cases", String(options.cases));
  if (options.exhaustive) args.push("--exhaustive");
  if (options.cancel) args.push("--cancel");
  if (options.restarted) args.push("--restarted");
  if (options.max_in_flight !== undefined) args.push("--max-in-flight", String(options.max_in_flight));
  if (options.max_delay !== undefined) args.push("--max-delay", String(options.max_delay));
  if (Array.isArray(options.targets)) {
    if (options.targets.length === 0) args.push("--no-targets");
    else args.push("--targets", options.targets.join(","));
  }
  return args;
}

function withoutTiming(report) {
  const copy = structuredClone(report);
  delete copy.stats.elapsed_ms;
  return copy;
}

for (const options of cases) {
  test(`native and wasm agree: ${JSON.stringify(options)}`, () => {
    const native = JSON.parse(execFileSync(bin, cliArgs(options), { encoding: "utf8" }));
    const inWasm = JSON.parse(wasm.exploreJson(JSON.stringify(options), "en"));
    assert.deepStrictEqual(withoutTiming(inWasm), withoutTiming(native));
  });
}

for (const example of ["05-highest-seen-gap", "17-request-in-flight-sending-gateway", "17c-request-in-flight-cancel"]) {
  test(`a scenario replays the same in wasm and natively: ${example}`, () => {
    const path = new URL(`../../examples/${example}.toml`, import.meta.url);
    const native = JSON.parse(execFileSync(bin, ["run", "--json", path.pathname], { encoding: "utf8" }));
    const { readFileSync } = require("node:fs");
    const inWasm = JSON.parse(wasm.runJson(readFileSync(path, "utf8")));
    assert.deepStrictEqual(inWasm, native);
  });
}

test("bad input is an exception with a clear message, not a crash", () => {
  assert.throws(() => wasm.runJson("id = 1"), /must be a string/);
  assert.throws(() => wasm.exploreJson('{"design":"nope"}', "en"), /unknown design preset/);
});
