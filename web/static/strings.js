// The page's own words are not here: sim-core holds them (its `words`
// catalogue, in English and Chinese), and the page reads them in the
// learner's language from the wasm (`pageWords`) when it starts and when
// the language changes. This module only looks them up: the scripts hold
// no words and choose no language. Lesson text comes from the course.

// Until the catalogue arrives, a key stands for itself.
let catalogue = { words: {}, legend: [], languages: [] };

/** Takes the page's words in the learner's language: the JSON text of
 * sim-core's catalogue (`pageWords(lang)`). */
export function setWords(catalogueJson) {
  catalogue = JSON.parse(catalogueJson);
}

/** The learner's language code, as the engine and the workers take it. */
export function lang() {
  return catalogue.lang;
}

/** The learner's language as an HTML `lang` tag. */
export function langTag() {
  return catalogue.tag;
}

/** The languages to offer: `{ code, name, current }`, in order. */
export function languages() {
  return catalogue.languages ?? [];
}

/** The timeline's legend: `[symbol, meaning]` pairs, in order. */
export function legendItems() {
  return catalogue.legend;
}

/** The page's word for `key` in the current language. */
export function t(key) {
  return catalogue.words[key] ?? key;
}

/** `t(key)` with every `{name}` replaced by `values[name]`. */
export function tf(key, values) {
  return t(key).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** The key of an exercise kind's name (`mark` → `kindMark`). */
export function kindKey(kind) {
  return KIND_KEYS[kind] ?? 'exercise';
}

// Spelled out, so that a test can find every key the page uses.
const KIND_KEYS = { mark: 'kindMark', predict: 'kindPredict', design: 'kindDesign', break: 'kindBreak', quiz: 'kindQuiz' };
