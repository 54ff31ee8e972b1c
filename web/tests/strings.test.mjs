// Every word the page prints itself exists in both languages: each key of
// strings.js has a non-empty English and Chinese text (lists of the same
// length), and every key the page's scripts ask for is defined in both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { STRINGS, kindKey, outcomeKey } from "../static/strings.js";

const LANGS = ["en", "zh"];

function filled(value) {
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0 && value.every(filled);
  return false;
}

test("every key has an English and a Chinese text", () => {
  const keys = new Set(LANGS.flatMap((lang) => Object.keys(STRINGS[lang])));
  assert.ok(keys.size > 100, `strings.js holds the page's words (${keys.size})`);
  for (const key of keys) {
    for (const lang of LANGS) {
      assert.ok(filled(STRINGS[lang][key]), `${key} has no ${lang} text`);
    }
    const [en, zh] = LANGS.map((lang) => STRINGS[lang][key]);
    if (Array.isArray(en)) {
      assert.equal(zh.length, en.length, `${key}: as many items in zh as in en`);
      en.forEach((item, i) => assert.equal(
        Array.isArray(item) ? item.length : 1,
        Array.isArray(zh[i]) ? zh[i].length : 1,
        `${key}[${i}]: the same shape in both languages`,
      ));
    }
  }
});

test("every key the page asks for is defined in both languages", () => {
  const dir = new URL("../static/", import.meta.url);
  const asked = new Set();
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".js"))) {
    const text = readFileSync(new URL(file, dir), "utf8");
    for (const match of text.matchAll(/\bt[f]?\(\s*'([A-Za-z0-9_]+)'/g)) asked.add(match[1]);
  }
  for (const kind of ["mark", "predict", "design", "break", "quiz", "sql"]) asked.add(kindKey(kind));
  for (const outcome of ["ok", "rejected", "duplicate", "noop", "waiting"]) asked.add(outcomeKey(outcome));
  assert.ok(asked.size > 50, `the scripts ask for words (${asked.size})`);
  for (const key of asked) {
    for (const lang of LANGS) assert.ok(filled(STRINGS[lang][key]), `t('${key}') has no ${lang} text`);
  }
});

test("the SQL exercise's own words (sql.js, loaded with it) exist in both languages", async () => {
  const { WORDS } = await import("../static/sql.js");
  assert.deepEqual(Object.keys(WORDS.zh).sort(), Object.keys(WORDS.en).sort());
  for (const lang of LANGS) for (const [key, text] of Object.entries(WORDS[lang])) assert.ok(filled(text), `${key} (${lang})`);
  const source = readFileSync(new URL("../static/sql.js", import.meta.url), "utf8");
  const asked = [...source.matchAll(/\bword\(\s*'([A-Za-z]+)'/g)].map((match) => match[1]);
  assert.ok(asked.length > 3, "sql.js asks for its words");
  for (const key of asked) assert.ok(key in WORDS.en, `word('${key}') is defined`);
});
