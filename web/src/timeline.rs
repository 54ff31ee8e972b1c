//! A scenario's timeline as the page draws it: `sim_core::Diagram` (lanes,
//! columns, tick labels, lease bars, every step's glyph, symbol, words and
//! job-table row) with the scenario's title and, once nothing is hidden,
//! its verdicts and its TOML for a share link. The page only scales it to
//! pixels.
//!
//! An exercise must not show its key before the learner has tried: the
//! course's [`Reveal`] says how much to show, and what it hides is never
//! computed into these structs — absent, not deleted.

use serde::Serialize;
use serde_json::Value;
use sim_core::{Diagram, Lang, Preset, Reveal, Scenario, scenario_to_toml};

/// A violation the oracle found, by step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PageViolation {
    pub step: u32,
    pub kind: &'static str,
    /// The kind in the learner's words.
    pub words: &'static str,
}

/// The page's timeline object (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PageTimeline {
    pub id: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub ttl: u64,
    pub design: &'static str,
    /// The job ids, for the job table before any step.
    pub jobs: Vec<String>,
    /// Whether verdicts show.
    pub revealed: bool,
    /// The steps whose results are hidden (a predict exercise's question).
    pub hidden: Vec<u32>,
    /// The oracle's violations; absent unless verdicts show.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violations: Option<Vec<PageViolation>>,
    /// The scenario file, for a share link; absent unless verdicts show.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toml: Option<String>,
    #[serde(flatten)]
    pub diagram: Diagram,
}

/// The page's timeline of `scenario`, showing what `reveal` lets show.
pub fn page_timeline(scenario: &Scenario, lang: Lang, reveal: &Reveal) -> PageTimeline {
    let trace = sim_core::run(scenario);
    let verdicts = reveal.shows_verdicts();
    PageTimeline {
        id: scenario.id.clone(),
        title: scenario.title.get(lang).to_owned(),
        description: scenario
            .description
            .as_ref()
            .map(|d| d.get(lang).to_owned()),
        ttl: scenario.ttl,
        design: Preset::of(&scenario.design).map_or("custom", Preset::name),
        jobs: scenario.jobs.clone(),
        revealed: verdicts,
        hidden: match reveal {
            Reveal::NotTheseSteps(steps) => steps.clone(),
            Reveal::Everything | Reveal::NoVerdicts | Reveal::NotTheseStatements(_) => Vec::new(),
        },
        violations: verdicts.then(|| {
            trace
                .violations
                .iter()
                .map(|v| PageViolation {
                    step: v.step,
                    kind: v.kind.name(),
                    words: sim_core::violation_words(v.kind, lang),
                })
                .collect()
        }),
        toml: verdicts.then(|| scenario_to_toml(scenario)),
        diagram: Diagram::new(scenario, &trace, lang, reveal),
    }
}

/// [`page_timeline`] as JSON, for the bindings.
pub fn timeline(scenario: &Scenario, lang: Lang, reveal: &Reveal) -> Value {
    // These structs hold only strings, numbers and lists: serializing
    // them cannot fail.
    serde_json::to_value(page_timeline(scenario, lang, reveal)).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAUSE: &str = r#"
id = "pause"
title = { en = "A paused worker", zh = "暂停的 Worker" }
ttl = 5
workers = ["A", "B"]
design = "ttl-lock-only"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "pause" },
  { at = 6, worker = "B", do = "claim" },
  { at = 7, worker = "B", do = "finish", note = { en = "B is done", zh = "B 完成" } },
  { at = 8, worker = "A", do = "resume" },
  { at = 8, worker = "A", do = "finish" },
]
"#;

    fn pause() -> Scenario {
        sim_core::parse_scenario(PAUSE.as_bytes()).unwrap()
    }

    #[test]
    fn everything_shows_the_violation_and_its_reason() {
        let value = timeline(&pause(), Lang::En, &Reveal::Everything);
        assert_eq!(value["steps"][5]["mark"], "violation");
        assert_eq!(value["steps"][5]["symbol"], "‼");
        assert_eq!(value["violations"][0]["step"], 5);
        let said = value["steps"][5]["narration"].as_str().unwrap_or_default();
        assert!(said.contains("had to be refused"), "{said}");
        assert_eq!(value["steps"][3]["note"], "B is done");
        assert_eq!(value["steps"][2]["row"]["owner"], "B");
        assert_eq!(value["revealed"], true);
        let toml = value["toml"].as_str().unwrap_or_default();
        let again = sim_core::parse_scenario(toml.as_bytes()).unwrap();
        assert_eq!(again.steps.len(), 6);
    }

    #[test]
    fn job_table_steps_carry_their_sql_and_the_model_row_count() {
        let scenario = pause();
        let value = timeline(&scenario, Lang::En, &Reveal::Everything);
        let finish = &value["steps"][5]["sql"];
        let text = finish["text"].as_str().unwrap_or_default();
        assert!(text.starts_with("UPDATE jobs SET state = 'done'"), "{text}");
        let rows = sim_core::run(&scenario).steps[5].rows;
        assert_eq!(finish["rows"].as_u64(), rows.map(u64::from));
        assert_eq!(finish["dialect"], "sqlite");
        assert!(value["steps"][1]["sql"].is_null(), "a pause has no SQL");
    }

    /// The keys a step's object has.
    fn keys(step: &Value) -> Vec<&str> {
        step.as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    #[test]
    fn hidden_verdicts_never_leave_rust() {
        let value = timeline(&pause(), Lang::Zh, &Reveal::NoVerdicts);
        let text = value.to_string();
        assert!(!text.contains("必须被拒绝"), "{text}");
        assert!(!text.contains('‼'), "{text}");
        assert!(value.get("violations").is_none() && value.get("toml").is_none());
        assert_eq!(value["steps"][5]["mark"], "ok");
        assert_eq!(value["steps"][3]["note"], "B 完成");
    }

    #[test]
    fn hidden_steps_have_no_result_fields() {
        let value = timeline(&pause(), Lang::En, &Reveal::NotTheseSteps(vec![2]));
        let asked = &value["steps"][2];
        assert_eq!(asked["mark"], "hidden");
        assert_eq!(asked["symbol"], "?");
        // No row, no outcome, no token, no generation: nothing but what the
        // step asks for and where it is drawn.
        assert_eq!(
            keys(asked),
            [
                "actor",
                "at",
                "column",
                "glyph",
                "mark",
                "narration",
                "resource",
                "symbol",
                "word"
            ]
        );
        assert!(keys(&value["steps"][3]).contains(&"row"));
        assert_eq!(value["leases"].as_array().map(Vec::len), Some(1));
        let said = asked["narration"].as_str().unwrap_or_default();
        assert!(said.contains("What will it do?"), "{said}");
        assert_eq!(value["steps"][3]["mark"], "ok");
        assert_eq!(value["hidden"], serde_json::json!([2]));
    }

    /// A request in flight reaches the page as a flight with both ends;
    /// whether it is listed for reconciliation only once verdicts show.
    #[test]
    fn a_request_in_flight_is_a_flight_for_the_page() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/17c-request-in-flight-cancel.toml"
        );
        let scenario = sim_core::parse_scenario(&std::fs::read(path).unwrap()).unwrap();
        let value = timeline(&scenario, Lang::En, &Reveal::Everything);
        let flight = &value["flights"][0];
        assert_eq!(flight["request"], "a-refund");
        assert_eq!(
            (
                flight["send_step"].as_u64(),
                flight["deliver_step"].as_u64()
            ),
            (Some(1), Some(3))
        );
        assert_eq!(flight["from_column"], value["steps"][1]["column"]);
        assert_eq!(flight["to_column"], value["steps"][3]["column"]);
        assert_eq!(flight["reconcile"], true);
        let hidden = timeline(&scenario, Lang::En, &Reveal::NoVerdicts);
        assert!(hidden["flights"][0].get("reconcile").is_none());
        let words = hidden["flights"][0]["words"].as_str().unwrap_or_default();
        assert!(!words.contains("reconciliation"), "{words}");
    }

    /// The page puts text into the DOM with `textContent` only
    /// (static/dom.js), so control characters need no escaping there: the
    /// timeline hands a hostile title, description and note over as data,
    /// unchanged, for the page to show as text. (The terminal replaces
    /// them with pictures; the page has no escape sequences to fear.)
    #[test]
    fn hostile_text_stays_data_in_the_timeline() {
        const HOSTILE: &str = "\u{1b}]0;PWNED\u{7}\u{1b}[2J<img src=x onerror=alert(1)>";
        let mut scenario = pause();
        scenario.title.en = HOSTILE.to_owned();
        scenario.description = Some(sim_core::Text {
            en: HOSTILE.to_owned(),
            zh: HOSTILE.to_owned(),
        });
        if let Some(note) = &mut scenario.steps[3].note {
            note.en = HOSTILE.to_owned();
        }
        let value = timeline(&scenario, Lang::En, &Reveal::Everything);
        assert_eq!(value["title"], HOSTILE);
        assert_eq!(value["description"], HOSTILE);
        assert_eq!(value["steps"][3]["note"], HOSTILE);
        // As JSON text the control characters are escapes, never raw bytes.
        let text = serde_json::to_string(&value).unwrap_or_default();
        assert!(!text.contains(['\u{1b}', '\u{7}']), "{text}");
        assert!(text.contains(r"\u001b]0;PWNED\u0007"), "{text}");
        // And no script of the page parses text as HTML.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        let scripts: Vec<_> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == "js"))
            .collect();
        assert!(!scripts.is_empty(), "no scripts in {}", dir.display());
        for script in scripts {
            let code = std::fs::read_to_string(&script).unwrap_or_default();
            for sink in [
                ".innerHTML",
                ".outerHTML",
                "insertAdjacentHTML",
                "document.write",
            ] {
                assert!(!code.contains(sink), "{} uses {sink}", script.display());
            }
        }
    }
}
