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
];

function cliArgs(options) {
  const args = ["explore", "--json", "--lang", "en", "--design", options.design];
  if (options.seed !== undefined) args.push("--seed", String(options.seed));
  if (options.workers !== undefined) args.push("--workers", String(options.workers));
  if (options.cases !== undefined) args.push("--cases", String(options.cases));
  if (options.exhaustive) args.push("--exhaustive");
  if (options.cancel) args.push("--cancel");
  if (options.restarted) args.push("--restarted");
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

test("a scenario replays the same in wasm and natively", () => {
  const path = new URL("../../examples/05-highest-seen-gap.toml", import.meta.url);
  const native = JSON.parse(execFileSync(bin, ["run", "--json", path.pathname], { encoding: "utf8" }));
  const { readFileSync } = require("node:fs");
  const inWasm = JSON.parse(wasm.runJson(readFileSync(path, "utf8")));
  assert.deepStrictEqual(inWasm, native);
});

test("bad input is an exception with a clear message, not a crash", () => {
  assert.throws(() => wasm.runJson("id = 1"), /must be a string/);
  assert.throws(() => wasm.exploreJson('{"design":"nope"}', "en"), /unknown design preset/);
});
