// Practice rounds are drawn here, off the page's thread: drawing runs the
// random explorer (proptest value trees seeded from the round's key, each
// schedule played, written down, run and judged by the oracle), which only
// the explorer's build of the wasm carries. The page sends the round's key
// (sim-core's `RoundKey`, from `practiceView`) and its lessons.json text;
// this worker sends back the round as `{key, scenario}` (the scenario's
// TOML), which the page's session checks and opens. It stays alive between
// rounds, so the wasm is loaded once.

import init, { drawPractice } from './fencelab_web_explorer.js';

const ready = init();

self.onmessage = async (event) => {
  const { id, lessons, key, lang } = event.data;
  try {
    await ready;
    const started = performance.now();
    const round = JSON.parse(drawPractice(lessons, JSON.stringify(key), lang));
    self.postMessage({ id, kind: 'done', round, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id, kind: 'error', message: String(error && error.message ? error.message : error) });
  }
};
