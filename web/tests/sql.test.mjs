// The page's SQL engine (web-sql: fencelab-sqlbox on SQLite compiled to
// wasm, as sql-worker.js runs it) must do exactly what the native box does
// with the same plan and the same answers: row counts, rows, refusals and
// their messages, positions of syntax errors.
//
// Run by `cargo xtask test`, which builds both and passes their paths in
// FENCELAB_SQL_RUN_BIN (native) and FENCELAB_SQL_WASM_NODE (wasm).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const bin = process.env.FENCELAB_SQL_RUN_BIN;
const wasmModule = process.env.FENCELAB_SQL_WASM_NODE;
if (!bin || !wasmModule) {
  throw new Error("set FENCELAB_SQL_RUN_BIN and FENCELAB_SQL_WASM_NODE (cargo xtask test does)");
}
const wasm = require(wasmModule);
const plan = execFileSync(bin, ["plan"], { encoding: "utf8" });

const CLAIM = `UPDATE jobs SET owner = :owner, lease_until = :now + :ttl,
  fence = fence + 1, state = 'running'
WHERE id = :job AND (lease_until IS NULL OR lease_until <= :now)
  AND state IN ('ready', 'running')`;
const RENEW = "UPDATE jobs SET lease_until = :now + :ttl WHERE id = :job AND owner = :owner AND fence = :token AND lease_until > :now AND state = 'running'";
const FINISH = "UPDATE jobs SET state = 'done' WHERE id = :job AND owner = :owner AND fence = :token AND lease_until > :now AND state = 'running'";
const CANCEL = "UPDATE jobs SET state = 'cancelled' WHERE id = :job AND state IN ('ready', 'running')";
const right = { claim: CLAIM, renew: RENEW, finish: FINISH, cancel: CANCEL };

const answers = {
  right,
  "finish without the state check": { ...right, finish: FINISH.replace(" AND state = 'running'", "") },
  "finish without the fence check": { ...right, finish: FINISH.replace(" AND fence = :token", "") },
  "a claim that ignores the lease": { ...right, claim: "UPDATE jobs SET owner = :owner, lease_until = :now + :ttl, fence = fence + 1, state = 'running' WHERE id = :job" },
  "a syntax error on line 2": { ...right, renew: "UPDATE jobs\nSET lease_until = 1 WHER id = :job" },
  "two statements": { ...right, cancel: `${CANCEL}; DELETE FROM jobs` },
  "ATTACH": { ...right, finish: "ATTACH DATABASE ':memory:' AS other" },
  "an unknown column": { ...right, finish: "UPDATE jobs SET stat = 'done' WHERE id = :job" },
  "an unknown parameter": { ...right, finish: "UPDATE jobs SET state = 'done' WHERE id = :who" },
  "a query that never ends": {
    ...right,
    finish: "UPDATE jobs SET state = 'done' WHERE id = (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n)",
  },
  "empty": { ...right, claim: "" },
};

for (const [name, statements] of Object.entries(answers)) {
  test(`page and terminal run the SQL lab alike: ${name}`, () => {
    const input = JSON.stringify({ plan: JSON.parse(plan), statements });
    const native = JSON.parse(execFileSync(bin, ["run"], { input, encoding: "utf8" }));
    const page = JSON.parse(wasm.runPlan(plan, JSON.stringify(statements)));
    assert.deepEqual(page, native);
    // Not a vacuous match: something ran or something was refused.
    assert.ok(page.cases.length > 0 || page.refused.length > 0);
  });
}

test("the right answers run every case; a loose one changes a row count", () => {
  const run = (statements) => JSON.parse(wasm.runPlan(plan, JSON.stringify(statements)));
  const good = run(right);
  assert.deepEqual(good.refused, []);
  assert.equal(good.cases.length, JSON.parse(plan).cases.length);
  const loose = run(answers["finish without the state check"]);
  assert.notDeepEqual(loose.cases, good.cases);
});
