// The SQL engine (web-sql: fencelab's untrusted-SQL box, rusqlite on SQLite
// compiled to WebAssembly) runs here, off the page's thread. sql.js starts
// this worker when a SQL exercise first opens: the page's first download
// carries none of it. Like the design grader's worker, it holds its own
// course session (the page's lessons, the page's progress as sent) and
// acts there on the SQL exercise — a hand-in runs the exercise's plan on
// SQLite and grades the run — and sends back the exercise's screen and the
// progress record, which the page takes in. The box bounds every run in
// time and memory; the ready message says its time budget, after which
// sql.js ends this worker if it has not answered.

import init, { actSql, sqlBudgetMs, sqliteVersion } from './fencelab_web_sql.js';

const ready = init().then(
  () => self.postMessage({ kind: 'ready', version: sqliteVersion(), budgetMs: sqlBudgetMs() }),
  (error) => {
    self.postMessage({ kind: 'failed', message: String(error && error.message ? error.message : error) });
    throw error;
  });

self.onmessage = async (event) => {
  const { id, lessons, progress, lang, lesson, exercise, act } = event.data;
  try {
    await ready;
    self.postMessage({ id, kind: 'done', answer: actSql(lessons, progress, lang, lesson, exercise, act) });
  } catch (error) {
    self.postMessage({ id, kind: 'error', message: String(error && error.message ? error.message : error) });
  }
};
