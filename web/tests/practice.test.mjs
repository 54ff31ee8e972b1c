// One key, one round: a practice round drawn by the wasm (as the page's
// practice worker draws it, from lessons.json) must be the very round the
// native `fencelab practice --json` draws for the same key — the same
// scenario file, byte for byte — in every lesson with a practice world,
// at every level, for several seeds and rounds (so several situations).
//
// Run by `cargo xtask test`, which builds both and passes their paths in
// FENCELAB_BIN and FENCELAB_WASM_NODE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";

const require = createRequire(import.meta.url);
const bin = process.env.FENCELAB_BIN;
const wasmModule = process.env.FENCELAB_WASM_NODE;
if (!bin || !wasmModule) {
  throw new Error("set FENCELAB_BIN and FENCELAB_WASM_NODE (cargo xtask test does)");
}
const wasm = require(wasmModule);

// lessons.json as `cargo xtask web` writes it: [file stem, TOML text]
// pairs in file-name order.
const dir = new URL("../../lessons/", import.meta.url);
const lessonsJson = JSON.stringify(readdirSync(dir)
  .filter((name) => name.endsWith(".toml"))
  .sort()
  .map((name) => [name.replace(/\.toml$/, ""), readFileSync(new URL(name, dir), "utf8")]));

// The lessons with a practice world: those whose file has a `[practice]` table.
const pools = JSON.parse(lessonsJson)
  .filter(([, text]) => /^\[practice\]\s*$/m.test(text))
  .map(([stem]) => stem);

const native = (pool, seed, level, round) => JSON.parse(execFileSync(bin, [
  "practice", "--json", "--lang", "en", "--lesson", pool,
  "--seed", String(seed), "--level", String(level), "--round", String(round),
], { encoding: "utf8" }));

test("six lessons have practice rounds", () => {
  assert.ok(pools.length >= 6, pools.join(", "));
});

// Levels 1..4 across the pools, rounds 0..2 (the native command turns the
// lesson's situations by round), two seeds.
const cases = pools.flatMap((pool, at) => [
  { pool, seed: 7, level: 1 + (at % 4), round: 0 },
  { pool, seed: 2024, level: 1 + ((at + 2) % 4), round: 1 },
  { pool, seed: 99, level: 4 - (at % 4), round: 2 },
]);

for (const { pool, seed, level, round } of cases) {
  test(`native and wasm draw the same round: ${pool} seed ${seed} level ${level} round ${round}`, () => {
    const drawn = native(pool, seed, level, round);
    assert.deepStrictEqual(drawn.key, { pool, seed, round, level, focus: drawn.key.focus });
    const inWasm = JSON.parse(wasm.drawPractice(lessonsJson, JSON.stringify(drawn.key), "en"));
    assert.deepStrictEqual(inWasm.key, drawn.key);
    assert.equal(inWasm.scenario, drawn.scenario);
    assert.match(inWasm.scenario, /^id = "practice-/m);
  });
}

test("a round the wasm cannot draw is an exception in the learner's language", () => {
  const key = { pool: "nope", seed: 1, round: 0, level: 1, focus: "takeover" };
  assert.throws(() => wasm.drawPractice(lessonsJson, JSON.stringify(key), "zh"), /没有课程 `nope`/);
  assert.throws(() => wasm.drawPractice(lessonsJson, JSON.stringify({ ...key, pool: pools[0], focus: "revised" }), "en"), /not about `revised`/);
  assert.throws(() => wasm.drawPractice(lessonsJson, "{}", "en"), /practice round/);
});
