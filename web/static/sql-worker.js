// The SQL engine (web-sql: fencelab's untrusted-SQL box, rusqlite on SQLite
// compiled to WebAssembly) runs here, off the page's thread. sql.js starts
// this worker when a SQL exercise first opens: the page's first download
// carries none of it. Like the design grader's worker, it holds its own
// course session (the page's lessons, the page's progress as sent), runs
// the exercise's plan on SQLite, grades there and sends back the grade and
// the progress record, which the page merges. The box bounds every run in
// time and memory; the ready message says its time budget, after which
// sql.js ends this worker if it has not answered.

import init, { gradeSql, sqlBudgetMs, sqlSolution, sqliteVersion } from './fencelab_web_sql.js';

const ready = init().then(
  () => self.postMessage({ kind: 'ready', version: sqliteVersion(), budgetMs: sqlBudgetMs() }),
  (error) => {
    self.postMessage({ kind: 'failed', message: String(error && error.message ? error.message : error) });
    throw error;
  });

self.onmessage = async (event) => {
  const { id, op, lessons, progress, lang, lesson, exercise, statements } = event.data;
  try {
    await ready;
    const answer = op === 'solution'
      ? sqlSolution(lessons, progress, lang, lesson, exercise)
      : gradeSql(lessons, progress, lang, lesson, exercise, statements);
    self.postMessage({ id, kind: 'done', answer });
  } catch (error) {
    self.postMessage({ id, kind: 'error', message: String(error && error.message ? error.message : error) });
  }
};
