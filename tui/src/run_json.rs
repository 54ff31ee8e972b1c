//! `fencelab run --json` (with or without `--db`) written to stdout while it
//! is serialized. The text is byte for byte what one `serde_json::Value` of
//! the whole document gives (keys sorted, pretty-printed), but only one step
//! at a time is ever a `Value`: a whole-document tree of 36 000 steps, then
//! its text, took most of the memory (docs/scenario-format.md states the
//! budget).

use std::io::Write as _;
use std::process::ExitCode;

use fencelab_replay::{DbJson, DbStep};
use serde::ser::{Error as _, SerializeMap as _, SerializeSeq as _};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use sim_core::json::{RunJson, StepJson};

/// Prints the run's JSON object, with the replay's as its `db` key.
pub(crate) fn print_run_json(run: RunJson<'_>, db: Option<DbJson>) -> ExitCode {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match write_run_json(&mut out, run, db).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is not an error.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

/// Writes the document and a newline to `out`.
fn write_run_json(
    out: &mut impl std::io::Write,
    mut run: RunJson<'_>,
    db: Option<DbJson>,
) -> std::io::Result<()> {
    let model_steps = std::mem::take(&mut run.steps);
    let db = db.map(|mut db| {
        let steps = std::mem::take(&mut db.steps);
        (object(&db), steps)
    });
    let head = object(&run);
    let document = Streamed {
        head: &head,
        steps: Steps::Model(&model_steps),
        db: db.as_ref(),
    };
    serde_json::to_writer_pretty(&mut *out, &document)?;
    out.write_all(b"\n")
}

/// `value` as a JSON object (its steps already taken out: small).
fn object(value: &impl Serialize) -> Map<String, Value> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

#[derive(Clone, Copy)]
enum Steps<'a> {
    Model(&'a [StepJson<'a>]),
    Db(&'a [DbStep]),
}

/// An object whose `steps` are written one at a time.
struct Streamed<'d> {
    /// Every key but `steps` (`steps` in it is empty and left out).
    head: &'d Map<String, Value>,
    steps: Steps<'d>,
    /// The `db` key: the replay's object (without its steps) and its steps.
    db: Option<&'d (Map<String, Value>, Vec<DbStep>)>,
}

enum Entry<'d> {
    Value(&'d Value),
    Steps(Steps<'d>),
    Object(Streamed<'d>),
}

impl Serialize for Streamed<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut entries: Vec<(&str, Entry<'_>)> = self
            .head
            .iter()
            .filter(|(key, _)| key.as_str() != "steps")
            .map(|(key, value)| (key.as_str(), Entry::Value(value)))
            .collect();
        entries.push(("steps", Entry::Steps(self.steps)));
        if let Some((head, steps)) = self.db {
            let db = Streamed {
                head,
                steps: Steps::Db(steps),
                db: None,
            };
            entries.push(("db", Entry::Object(db)));
        }
        // The order of a `Value` object's keys (a `BTreeMap<String, _>`).
        entries.sort_by(|a, b| a.0.cmp(b.0));
        let mut map = serializer.serialize_map(Some(entries.len()))?;
        for (key, entry) in &entries {
            map.serialize_entry(key, entry)?;
        }
        map.end()
    }
}

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Entry::Value(value) => value.serialize(serializer),
            Entry::Object(object) => object.serialize(serializer),
            Entry::Steps(Steps::Model(steps)) => sorted_seq(serializer, steps),
            Entry::Steps(Steps::Db(steps)) => sorted_seq(serializer, steps),
        }
    }
}

/// `items` as an array, each item a `Value` (keys sorted) while it is
/// written.
fn sorted_seq<S: Serializer, T: Serialize>(serializer: S, items: &[T]) -> Result<S::Ok, S::Error> {
    let mut seq = serializer.serialize_seq(Some(items.len()))?;
    for item in items {
        let value = serde_json::to_value(item).map_err(S::Error::custom)?;
        seq.serialize_element(&value)?;
    }
    seq.end()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The streamed text equals the one `Value` tree's, with and without
    /// the replay.
    #[test]
    fn the_streamed_document_is_the_value_trees_text() {
        for name in [
            "01-article-stale-finish.toml",
            "17-request-in-flight-sending-gateway.toml",
        ] {
            let path = format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read(&path).unwrap_or_default();
            let Ok(scenario) = sim_core::parse_scenario(&text) else {
                panic!("{name} parses");
            };
            let trace = sim_core::run(&scenario);
            let Ok(db) =
                fencelab_replay::replay_db(&scenario, &trace, "sqlite", sim_core::Lang::En)
            else {
                panic!("{name} replays on SQLite");
            };
            for db in [None, Some(db)] {
                let mut tree = trace.to_json(&scenario);
                if let (Some(map), Some(db)) = (tree.as_object_mut(), &db) {
                    map.insert(
                        "db".to_owned(),
                        serde_json::to_value(db).unwrap_or_default(),
                    );
                }
                let expected = serde_json::to_string_pretty(&tree).unwrap_or_default();
                let mut streamed = Vec::new();
                let written = write_run_json(&mut streamed, trace.run_json(&scenario), db);
                assert!(written.is_ok(), "{written:?}");
                let streamed = String::from_utf8(streamed).unwrap_or_default();
                let expected = expected + "\n";
                assert_eq!(streamed, expected, "{name}");
            }
        }
    }
}
