// The explorer runs here, off the page's thread, so the page never freezes.
// Cancelling terminates this worker; it never has to answer.

// The explorer's own build of the page's wasm (the page's carries no search).
import init, { explore } from './fencelab_web_explorer.js';

const ready = init();

self.onmessage = async (event) => {
  const { options, lang } = event.data;
  try {
    await ready;
    // The progress arrives as the simulator's words, at most every 50 ms.
    const report = JSON.parse(explore(JSON.stringify(options), lang, (progress) => {
      self.postMessage({ kind: 'progress', progress: JSON.parse(progress) });
      return true;
    }));
    self.postMessage({ kind: 'done', report });
  } catch (error) {
    self.postMessage({ kind: 'error', message: String(error && error.message ? error.message : error) });
  }
};
