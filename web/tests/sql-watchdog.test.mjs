// The page's watchdog over its SQL worker (sql.js, issue 20): a request the
// worker does not answer within the box's budget plus a margin ends that
// worker, fails the request with a message in the learner's language, and
// starts a fresh worker that answers the next request. Driven with a fake
// worker and node's mocked timers: no browser, no wall-clock wait.
import { test } from "node:test";
import assert from "node:assert/strict";

import { createRequire } from "node:module";

import { setWords } from "../static/strings.js";
import { createEngine, EngineRestarted, WATCHDOG_MARGIN_MS } from "../static/sql.js";

// The page's words: sim-core's catalogue from the wasm when `cargo xtask
// wasm-test` built it (FENCELAB_WASM_NODE), else a stand-in of its shape.
const wasmModule = process.env.FENCELAB_WASM_NODE;
const catalogue = wasmModule
  ? (code) => JSON.parse(createRequire(import.meta.url)(wasmModule).pageWords(code))
  : (code) => ({ lang: code, tag: code, words: { sqlRestarted: `${code}: {s} s, not graded` }, legend: [] });
const useLang = (code) => setWords(JSON.stringify(catalogue(code)));
useLang("en");

const BUDGET_MS = 5000;

/** A worker that says it is ready with the box's budget, then answers
 * each request only when `answers` says so. */
function fakeWorkers(answers) {
  const made = [];
  const make = () => {
    const worker = {
      posted: [],
      terminated: false,
      postMessage(message) {
        this.posted.push(message);
        if (answers(made.length)) {
          queueMicrotask(() => this.onmessage({ data: { id: message.id, kind: "done", answer: `answer ${message.id}` } }));
        }
      },
      terminate() {
        this.terminated = true;
      },
    };
    made.push(worker);
    queueMicrotask(() => worker.onmessage({ data: { kind: "ready", version: "3.51.1", budgetMs: BUDGET_MS } }));
    return worker;
  };
  return { made, make };
}

/** Lets the promise callbacks queued so far run. */
const settle = () => new Promise((done) => setImmediate(done));

test("a worker that never answers is ended after the budget and a margin, and a fresh one answers", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  // The first worker hangs (a run the box could not stop); the second answers.
  const { made, make } = fakeWorkers((count) => count > 1);
  const engine = createEngine(make);
  const asked = engine.request({ op: "grade" });
  let failure = null;
  asked.catch((error) => { failure = error; });
  await settle();
  assert.equal(made.length, 1);
  assert.equal(made[0].posted.length, 1, "the request reached the worker");
  t.mock.timers.tick(BUDGET_MS + WATCHDOG_MARGIN_MS - 1);
  await settle();
  assert.equal(failure, null, "still within the budget and its margin");
  assert.equal(made[0].terminated, false);
  t.mock.timers.tick(1);
  await settle();
  assert.ok(failure instanceof EngineRestarted, String(failure));
  assert.equal(made[0].terminated, true, "the stuck worker is ended");
  assert.equal(made.length, 2, "a fresh worker is started at once");
  // The learner is told, in their language, with the page's words.
  assert.equal(failure.message, catalogue("en").words.sqlRestarted.replace("{s}", "10"));
  if (wasmModule) assert.match(failure.message, /did not answer within 10 s/);
  assert.ok(failure.message.includes("not graded"), failure.message);
  useLang("zh");
  try {
    const zh = new EngineRestarted(BUDGET_MS + WATCHDOG_MARGIN_MS).message;
    assert.equal(zh, catalogue("zh").words.sqlRestarted.replace("{s}", "10"));
    assert.notEqual(zh, failure.message);
  } finally {
    useLang("en");
  }
  // The fresh worker answers the next request; its timer is cleared.
  const answer = await engine.request({ op: "grade" });
  assert.equal(answer, "answer 2");
  t.mock.timers.tick(2 * (BUDGET_MS + WATCHDOG_MARGIN_MS));
  await settle();
  assert.equal(made.length, 2, "an answered request restarts nothing");
  assert.equal(made[1].terminated, false);
});

test("a worker that answers in time is kept", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { made, make } = fakeWorkers(() => true);
  const engine = createEngine(make);
  for (let i = 1; i <= 3; i += 1) {
    assert.equal(await engine.request({ op: "grade" }), `answer ${i}`);
  }
  t.mock.timers.tick(10 * (BUDGET_MS + WATCHDOG_MARGIN_MS));
  await settle();
  assert.equal(made.length, 1);
  assert.equal(made[0].terminated, false);
});

test("every request waiting on a stuck worker fails with it", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { made, make } = fakeWorkers(() => false);
  const engine = createEngine(make);
  const outcomes = [engine.request({ op: "grade" }), engine.request({ op: "solution" })]
    .map((asked) => asked.then(() => "answered", (error) => error.name));
  await settle();
  t.mock.timers.tick(BUDGET_MS + WATCHDOG_MARGIN_MS);
  assert.deepEqual(await Promise.all(outcomes), ["EngineRestarted", "EngineRestarted"]);
  assert.equal(made[0].terminated, true);
});
