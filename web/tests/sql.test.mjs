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
  // The box's bounds, compiled into both (issue 20): a statement past its
  // time budget (rows of 64 KB of random bytes) and a value past the
  // length limit are refused alike, with the same words.
  "a statement past its time budget": {
    ...right,
    renew: "UPDATE jobs SET owner = (SELECT sum(length(randomblob(16000)) + length(randomblob(16000)) + length(randomblob(16000)) + length(randomblob(16000))) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 10000000) SELECT x FROM c))",
  },
  "a value past the length limit": { ...right, claim: "UPDATE jobs SET owner = hex(zeroblob(400000000)) WHERE id = :job" },
  // The same SQLite both sides (version and the build options that decide
  // which functions and tables a statement may name: .cargo/config.toml).
  "the SQLite version": { ...right, finish: "UPDATE jobs SET owner = sqlite_version() WHERE id = :job" },
  "a math function": { ...right, finish: "UPDATE jobs SET lease_until = ceil(sqrt(:now)) WHERE id = :job" },
  "soundex()": { ...right, finish: "UPDATE jobs SET owner = soundex(owner) WHERE id = :job" },
  "an internal table": { ...right, finish: "UPDATE jobs SET owner = (SELECT count(*) FROM dbstat) WHERE id = :job" },
};

// A statement stopped by the box's step count on one side may meet its
// time budget first on the other (a slower build or machine): the same
// refusal, running too long, in words that name the bound met. Compared as
// one.
const STOPPED = [
  [/ran for more than \d+ (?:steps|ms) and was stopped/g, "ran for more than its bound and was stopped"],
  [/语句运行超过 \d+ (?:步|毫秒)，已被中止/g, "语句运行超过上限，已被中止"],
];
const sameBound = (text) => STOPPED.reduce((said, [bound, as]) => said.replace(bound, as), text);
const boundAlike = (value) => JSON.parse(sameBound(JSON.stringify(value)));

for (const [name, statements] of Object.entries(answers)) {
  test(`page and terminal run the SQL lab alike: ${name}`, () => {
    const input = JSON.stringify({ plan: JSON.parse(plan), statements });
    const native = JSON.parse(execFileSync(bin, ["run"], { input, encoding: "utf8" }));
    const page = JSON.parse(wasm.runPlan(plan, JSON.stringify(statements)));
    assert.deepEqual(boundAlike(page), boundAlike(native));
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

// The same answers graded end to end: the page's SQL worker (its own course
// session over the lessons, plan run on the wasm SQLite, judged there)
// against the terminal's `fencelab grade` (native SQLite), on the course's
// own SQL exercises.
const fencelab = process.env.FENCELAB_BIN;
const mainWasm = process.env.FENCELAB_WASM_NODE;
const lessonsDir = new URL("../../lessons/", import.meta.url);
const { readdirSync, readFileSync, writeFileSync, mkdtempSync } = await import("node:fs");
const { join } = await import("node:path");
const { tmpdir } = await import("node:os");
const lessonsText = JSON.stringify(readdirSync(lessonsDir).filter((name) => name.endsWith(".toml")).sort()
  .map((name) => [name.replace(/\.toml$/, ""), readFileSync(new URL(name, lessonsDir), "utf8")]));
const sqlExercises = JSON.parse(lessonsText).flatMap(([lesson, text]) =>
  [...text.matchAll(/\[\[exercises\]\]\s*\nid = "([^"]+)"[^[]*?kind = "sql"/g)].map((m) => ({ lesson, exercise: m[1] })));

test("the course has a SQL exercise to grade both ways", () => {
  assert.ok(sqlExercises.length > 0, "no sql exercise found in lessons/");
});

for (const [name, statements] of Object.entries(answers)) {
  test(`page and terminal grade alike: ${name}`, { skip: !fencelab || !mainWasm }, () => {
    const course = new (require(mainWasm).Course)(lessonsText);
    const progress = course.progressJson();
    const dir = mkdtempSync(join(tmpdir(), "fencelab-sql-"));
    for (const { lesson, exercise } of sqlExercises) {
      const asked = JSON.parse(course.lesson(lesson)).exercises.find((e) => e.id === exercise).slots;
      const given = Object.fromEntries(asked.map((slot) => [slot, statements[slot] ?? ""]));
      const page = JSON.parse(wasm.actSql(lessonsText, progress, "en", lesson, exercise, JSON.stringify({ act: "hand_in", answer: given }))).value;
      const file = join(dir, "answers.json");
      writeFileSync(file, JSON.stringify({ answers: [{ lesson, exercise, sql: given }] }));
      let terminal;
      try {
        terminal = JSON.parse(execFileSync(fencelab, ["grade", file, "--json", "--lang", "en", "--lessons", lessonsDir.pathname], { encoding: "utf8" })).results[0];
      } catch (error) {
        // A refused statement is no grade: the terminal says why and fails.
        terminal = error.stdout.trim() ? JSON.parse(error.stdout).results[0] : { correct: false, refusal: error.stderr };
      }
      if (page.refused) {
        assert.equal(terminal.correct, false, `${exercise}: refused in the page, not passed in the terminal`);
        const said = sameBound(terminal.refusal ?? JSON.stringify(terminal.items));
        assert.ok(said.includes(sameBound(page.refused[0].message)), `${exercise}: the terminal gives the page's reason: ${said}`);
        // The verdict line: a statement left empty is not SQLite's refusal.
        const empty = asked.some((slot) => !given[slot].trim());
        assert.match(page.status, empty ? /still empty/ : /SQLite refused/, `${exercise}: ${page.status}`);
        continue;
      }
      const feedback = page.screen.feedback;
      assert.equal(feedback.tone === "good", terminal.correct, `${exercise}: the same verdict`);
      // The same number of failing cases: the terminal's report lists every
      // case; the learner's first try in the page counts them.
      const wrongInTerminal = terminal.items.filter((item) => !item.right).length;
      const wrongInPage = feedback.tone === "good" ? 0 : Number(feedback.summary.match(/(\d+) of \d+ cases? wrong/)?.[1]);
      assert.equal(wrongInPage, wrongInTerminal, `${exercise}: ${feedback.summary} / ${terminal.summary}`);
    }
  });
}
