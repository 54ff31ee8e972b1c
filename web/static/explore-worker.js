// The explorer runs here, off the page's thread, so the page never freezes.
// Cancelling terminates this worker; it never has to answer.

// The explorer's own build of the page's wasm (the page's carries no search).
import init, { explore } from './fencelab_web_explorer.js';

const ready = init();
const PROGRESS_EVERY_MS = 50;

self.onmessage = async (event) => {
  const { options, lang } = event.data;
  try {
    await ready;
    let last = 0;
    const started = performance.now();
    const report = JSON.parse(explore(JSON.stringify(options), lang, (phase, cases, states, depth, shrinkSteps) => {
      const now = performance.now();
      if (now - last >= PROGRESS_EVERY_MS) {
        last = now;
        self.postMessage({ kind: 'progress', progress: { phase, cases, states, depth, shrink_steps: shrinkSteps } });
      }
      return true;
    }));
    report.stats.elapsed_ms = Math.round(performance.now() - started);
    self.postMessage({ kind: 'done', report });
  } catch (error) {
    self.postMessage({ kind: 'error', message: String(error && error.message ? error.message : error) });
  }
};
