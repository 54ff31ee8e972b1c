// The SQL engine (web-sql: fencelab's untrusted-SQL box, rusqlite on SQLite
// compiled to WebAssembly) runs here, off the page's thread. sql.js starts
// this worker when a SQL exercise first opens: the page's first download
// carries none of it.

import init, { runPlan, sqliteVersion } from './fencelab_web_sql.js';

const ready = init().then(
  () => self.postMessage({ kind: 'ready', version: sqliteVersion() }),
  (error) => {
    self.postMessage({ kind: 'failed', message: String(error && error.message ? error.message : error) });
    throw error;
  });

self.onmessage = async (event) => {
  const { id, plan, statements } = event.data;
  try {
    await ready;
    self.postMessage({ id, kind: 'done', run: runPlan(plan, statements) });
  } catch (error) {
    self.postMessage({ id, kind: 'error', message: String(error && error.message ? error.message : error) });
  }
};
