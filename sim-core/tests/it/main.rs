//! sim-core's integration tests: one binary, one module per feature.
// clippy.toml's allow-unwrap-in-tests covers `#[test]` functions; the
// helpers of an integration-test crate are test code too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a failing unwrap is a failing test, with its message"
)]

mod batches;
mod catalogue;
mod claim_knob;
mod course;
mod diagram;
mod epoch_knob;
mod explore;
mod json_docs;
mod narrate;
mod parse_errors;
mod practice;
mod props;
mod rules;

/// Opens exercise `id` of `lesson` in `course` and finds the design
/// editor's row with a field named `field`: its index and the row.
fn editor_row(
    course: &mut sim_core::course::CourseSession,
    lesson: &str,
    id: &str,
    field: &str,
    lang: sim_core::Lang,
) -> (u32, sim_core::course::EditorRow) {
    let screen = course
        .act(lesson, id, &sim_core::course::Act::Open, lang)
        .unwrap();
    let editor = screen.editor.expect("a design editor");
    let (row, found) = editor
        .rows
        .into_iter()
        .enumerate()
        .find(|(_, r)| r.fields.iter().any(|f| f.name == field))
        .unwrap_or_else(|| panic!("a `{field}` row"));
    (u32::try_from(row).unwrap(), found)
}
