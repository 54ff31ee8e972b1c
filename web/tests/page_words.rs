//! The page's scripts hold no words and choose no language (issue 21): every
//! word comes from sim-core's catalogue (`sim_core::page_words`), read as
//! data. These tests read the scripts in `web/static` as text: no script
//! compares or indexes by a language code or writes Chinese, and every key
//! a script asks the catalogue for (`t('key')`, `tf('key', …)`, the kind
//! keys of strings.js) is in it, in both languages.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::PathBuf;

use sim_core::Lang;

/// Each script of the page: its file name and text.
fn scripts() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("static");
    let mut scripts: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "js"))
        .map(|path| {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let text =
                std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{name}: {error}"));
            (name, text)
        })
        .collect();
    scripts.sort();
    assert!(scripts.len() > 5, "the page's scripts: {scripts:?}");
    scripts
}

/// Chinese, Japanese or Korean writing, or their full-width punctuation:
/// words of a language other than the code's own.
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{303f}'   // CJK punctuation (、。「」)
        | '\u{3040}'..='\u{30ff}' // kana
        | '\u{3400}'..='\u{4dbf}' // CJK extension A
        | '\u{4e00}'..='\u{9fff}' // CJK unified ideographs
        | '\u{ac00}'..='\u{d7af}' // hangul
        | '\u{ff00}'..='\u{ffef}' // full-width forms (：，（）)
    )
}

/// The places in `text` where a script chooses by language: a language
/// code as a string literal (`=== 'zh'`, `'en'`, `"zh-Hans"`, a template
/// literal), a property named by one (`.zh`, `.en`, `['zh']`), a lookup
/// indexed by the current language (`[lang()]`), or the current language
/// compared with anything (`=== lang()`, `course.lang() !==`).
fn language_choices(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let said = |what: &str| format!("line {}: {what}: {}", number + 1, line.trim());
        if line.contains("[lang()]") {
            found.push(said("indexed by the language"));
        }
        let compares = ["===", "!==", "==", "!="].iter().any(|op| {
            ["lang()", "course.lang()", ".dataset.lang"]
                .iter()
                .any(|current| {
                    line.contains(&format!("{op} {current}"))
                        || line.contains(&format!("{current} {op}"))
                })
        });
        if compares {
            found.push(said("the language compared"));
        }
        for quote in ['\'', '"', '`'] {
            for (index, _) in line.match_indices(quote) {
                let rest = &line[index + 1..];
                let Some(end) = rest.find(quote) else {
                    continue;
                };
                let literal = &rest[..end];
                let code = literal.split(['-', '_']).next().unwrap_or_default();
                if ["en", "zh"]
                    .iter()
                    .any(|lang| code.eq_ignore_ascii_case(lang))
                {
                    found.push(said(&format!("the language code {quote}{literal}{quote}")));
                }
            }
        }
        for property in [".en", ".zh"] {
            for (index, _) in line.match_indices(property) {
                let after = line[index + property.len()..].chars().next();
                if !after.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                    found.push(said(&format!("the property `{property}`")));
                }
            }
        }
    }
    found
}

/// A script's problems: language choices and words in Chinese.
fn problems(name: &str, text: &str) -> Vec<String> {
    let mut problems: Vec<String> = language_choices(text)
        .into_iter()
        .map(|problem| format!("{name}: {problem}"))
        .collect();
    for (number, line) in text.lines().enumerate() {
        if line.chars().any(is_cjk) {
            problems.push(format!(
                "{name}: line {}: words in Chinese: {}",
                number + 1,
                line.trim()
            ));
        }
    }
    problems
}

#[test]
fn no_script_holds_words_or_chooses_a_language() {
    let problems: Vec<String> = scripts()
        .iter()
        .flat_map(|(name, text)| problems(name, text))
        .collect();
    assert!(
        problems.is_empty(),
        "the page's words belong in sim-core's catalogue (sim-core/src/words.rs), read with t(); \
         the language is the engine's to choose:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_scan_finds_what_it_forbids() {
    for forbidden in [
        "const tag = lang() === 'zh' ? 'zh-Hans' : 'en';",
        r#"if (code == "en") return;"#,
        "return words[`zh`];",
        "append(refusal[lang()] ?? first);",
        "append(refusal.zh);",
        "button.setAttribute('aria-pressed', String(button.dataset.lang === lang()));",
        "if (next === course.lang()) return;",
        "const done = '已完成';",
        "h('p', {}, '下一关：')",
        "// 注释也不行",
    ] {
        assert!(
            !problems("test.js", forbidden).is_empty(),
            "not caught: {forbidden}"
        );
    }
    for allowed in [
        "const tag = langTag();",
        "worker.postMessage({ options, lang: lang() });",
        "for (const [key, value] of Object.entries(map)) entry.end();",
        "h('p', {}, t('zhWord'), ' ✓ ‼ ◷ → …')",
        "const english = 'enough';",
    ] {
        assert_eq!(
            problems("test.js", allowed),
            Vec::<String>::new(),
            "{allowed}"
        );
    }
}

/// The first argument of every `t('…')` and `tf('…'` call in `text`, and
/// the keys strings.js maps kinds to.
fn keys_asked(text: &str) -> BTreeSet<String> {
    let mut asked = BTreeSet::new();
    for call in ["t('", "tf('"] {
        for (index, _) in text.match_indices(call) {
            let before = text[..index].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.') {
                continue;
            }
            let rest = &text[index + call.len()..];
            if let Some(end) = rest.find('\'') {
                asked.insert(rest[..end].to_owned());
            }
        }
    }
    for line in text.lines() {
        if line.starts_with("const KIND_KEYS") {
            for value in line.split(": '").skip(1) {
                if let Some((key, _)) = value.split_once('\'') {
                    asked.insert(key.to_owned());
                }
            }
        }
    }
    asked
}

#[test]
fn every_key_a_script_asks_for_is_in_the_catalogue_in_both_languages() {
    let asked: BTreeSet<String> = scripts()
        .iter()
        .flat_map(|(_, text)| keys_asked(text))
        .collect();
    assert!(
        asked.len() > 100,
        "the scripts ask for words: {}",
        asked.len()
    );
    assert!(asked.contains("kindMark") && asked.contains("sqlRestarted"));
    for lang in Lang::ALL {
        let catalogue = sim_core::page_words(lang);
        let missing: Vec<&String> = asked
            .iter()
            .filter(|key| {
                catalogue
                    .words
                    .get(key.as_str())
                    .is_none_or(|text| text.trim().is_empty())
            })
            .collect();
        assert!(
            missing.is_empty(),
            "{lang}: the catalogue lacks {missing:?}"
        );
    }
}
