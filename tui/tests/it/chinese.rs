//! `--lang zh` says everything in Chinese: `fencelab run` on every example
//! and `fencelab explore` on several worlds print no English word but the
//! identifiers a learner types or reads in files (scenario ids, worker, job
//! and target names, action, design, check and protection names) and the
//! few terms the course keeps in English on purpose.

use std::collections::BTreeSet;

use sim_core::course::Knob;
use sim_core::explore::{World, WorldOptions};
use sim_core::{
    Action, Check, ClaimProcedure, DesignSource, JobState, LeaseClock, Preset, Protect, TokenKind,
    ViolationKind,
};

use crate::{examples_dir, fencelab, stderr, stdout};

/// Words the Chinese text keeps on purpose, with why.
#[rustfmt::skip]
const TERMS: &[&str] = &[
    // The course's Chinese keeps these terms (lessons/, TEACHING.md's words).
    "Worker", "tick", "fencing", "ID", "TTL", "GC",
    // SQL, as the statements are written.
    "UPDATE", "SELECT", "FOR", "SKIP", "LOCKED", "NOWAIT", "BEGIN", "COMMIT", "ROLLBACK", "SQL",
    "WHERE", "RETURNING",
    // Scenario-file keys and job-table columns a sentence names.
    "protect", "ttl", "at", "op", "value", "id", "owner", "state", "lease", "lease_until",
    "batch", "check_batch",
    // The program, its commands, units, and the file format.
    "fencelab", "run", "explore", "ms", "TOML",
    // The database whose behaviour a story compares with the model's.
    "PostgreSQL",
];

/// Names of the model: what files and commands spell in English.
fn model_names() -> BTreeSet<String> {
    let mut names: Vec<&str> = TERMS.to_vec();
    names.extend(Action::ALL.map(Action::name));
    names.extend(Check::ALL.map(Check::name));
    names.extend(Preset::ALL.map(Preset::name));
    names.extend(Protect::ALL.map(Protect::name));
    names.extend(TokenKind::ALL.map(TokenKind::name));
    names.extend(LeaseClock::ALL.map(LeaseClock::name));
    names.extend(ClaimProcedure::ALL.map(ClaimProcedure::name));
    names.extend(ViolationKind::ALL.map(ViolationKind::name));
    names.extend(JobState::ALL.map(JobState::name));
    names.extend(Knob::ALL.map(Knob::name));
    names.extend(["register_on_claim", "worker_checks"]);
    names.into_iter().map(str::to_owned).collect()
}

/// The ASCII words of `text` that are neither allowed nor inside quotes or
/// backticks (quoted text is a value from the file or code).
fn english_words(text: &str, allowed: &BTreeSet<String>) -> BTreeSet<String> {
    let mut plain = String::new();
    let mut inside: Option<char> = None;
    for c in text.chars() {
        match inside {
            Some(close) if c == close => inside = None,
            Some(_) => {}
            None if c == '`' || c == '"' => inside = Some(c),
            None => plain.push(c),
        }
    }
    // A statement's parameters (`:job`) are names, not words.
    let plain: Vec<&str> = plain
        .split_whitespace()
        .filter(|word| !word.starts_with(':'))
        .collect();
    plain
        .join(" ")
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'))
        // Flags, file names and numbers are not words.
        .filter(|word| !word.starts_with("--"))
        .map(|word| word.trim_matches(|c: char| c == '-' || c == '.'))
        .filter(|word| word.chars().any(|c| c.is_ascii_alphabetic()))
        .filter(|word| !word.ends_with(".toml") && !word.contains('.'))
        .filter(|word| !allowed.contains(*word))
        .map(str::to_owned)
        .collect()
}

/// The ids a world's output names.
fn world_ids(world: &World) -> Vec<String> {
    let mut ids: Vec<String> = world.workers.iter().map(|w| w.id.clone()).collect();
    ids.extend(world.owner_ids.iter().cloned());
    ids.extend((0..world.jobs).map(|job| world.job_id(job)));
    ids.extend((0..world.targets.len()).map(|t| world.target_id(t as u8)));
    ids
}

#[track_caller]
fn assert_chinese(args: &[&str], ids: &[String]) {
    let mut allowed = model_names();
    allowed.extend(ids.iter().cloned());
    let output = fencelab(args);
    let text = stdout(&output) + &stderr(&output);
    assert!(!text.trim().is_empty(), "{args:?} printed nothing");
    let english = english_words(&text, &allowed);
    assert!(
        english.is_empty(),
        "{args:?} prints English words {english:?}:\n{text}"
    );
}

#[test]
fn run_speaks_chinese_on_every_example() {
    let mut count = 0;
    for entry in std::fs::read_dir(examples_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "toml") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let scenario = sim_core::parse_scenario(&bytes).unwrap();
        let mut ids = vec![scenario.id.clone()];
        ids.extend(scenario.workers.iter().map(|w| w.id.clone()));
        ids.extend(scenario.owners.iter().cloned());
        ids.extend(scenario.jobs.iter().cloned());
        ids.extend(scenario.targets.iter().map(|t| t.id.clone()));
        ids.extend(scenario.ops.iter().chain(&scenario.values).cloned());
        let file = path.display().to_string();
        assert_chinese(&["run", &file, "--lang", "zh"], &ids);
        count += 1;
    }
    assert!(count >= 20, "every example ran ({count})");
}

#[test]
fn explore_speaks_chinese() {
    let configurations: &[&[&str]] = &[
        &["--design", "ttl-lock-only"],
        &["--design", "full", "--exhaustive"],
        &["--design", "client-check", "--exhaustive"],
        &["--design", "fenced-registered", "--cancel", "--exhaustive"],
        &[
            "--design",
            "db-conditional",
            "--no-targets",
            "--restarted",
            "--heartbeat",
        ],
        &["--design", "full", "--cases", "16"],
        &[
            "--design",
            "idempotency-only",
            "--jobs",
            "2",
            "--workers",
            "3",
        ],
        &[
            "--design",
            "full",
            "--claim",
            "held_across_work",
            "--exhaustive",
        ],
        &[
            "--design",
            "ttl-lock-only",
            "--claim",
            "read_then_update",
            "--exhaustive",
        ],
    ];
    for options in configurations {
        let design = options[1];
        let preset = Preset::from_name(design).unwrap_or_else(|| panic!("{design}"));
        let mut world_options = WorldOptions::new(preset.design(), DesignSource::Preset(preset));
        world_options.workers = if options.contains(&"3") { 3 } else { 2 };
        world_options.jobs = if options.contains(&"--jobs") { 2 } else { 1 };
        world_options.restarted = options.contains(&"--restarted");
        let world = world_options.world().unwrap();
        let mut ids = world_ids(&world);
        ids.push(format!("counterexample-{design}"));
        ids.push(format!("counterexample-{design}-seed-1"));
        // A claim procedure makes the design no preset's; a held lock's
        // blocked takeover is shown as a scenario of its own.
        ids.extend([
            "counterexample-custom".to_owned(),
            "blocked-takeover".to_owned(),
        ]);
        let mut args = vec!["explore"];
        args.extend_from_slice(options);
        args.extend(["--lang", "zh"]);
        assert_chinese(&args, &ids);
    }
}

#[test]
fn the_classification_table_speaks_chinese() {
    let ids: Vec<String> = sim_core::explore::classification()
        .iter()
        .flat_map(|case| {
            let mut ids = world_ids(&case.world);
            ids.push("blocked-takeover".to_owned());
            ids.push(format!(
                "counterexample-{}",
                Preset::of(&case.world.design).map_or("custom", Preset::name)
            ));
            ids
        })
        .collect();
    assert_chinese(&["explore", "--all-presets", "--lang", "zh"], &ids);
}

#[test]
fn errors_speak_chinese() {
    assert_chinese(&["explore", "--design", "fenced", "--lang", "zh"], &[]);
    assert_chinese(&["explore", "--targets", "gatewy", "--lang", "zh"], &[]);
    assert_chinese(&["explore", "--targets", ",,,", "--lang", "zh"], &[]);
    assert_chinese(&["explore", "--claim", "held_acros", "--lang", "zh"], &[]);
    assert_chinese(&["run", "no-such-file.toml", "--lang", "zh"], &[]);
}

/// Broken scenario files, each with the mistake its diagnostic names.
const BROKEN_SCENARIOS: &[(&str, &str)] = &[
    (
        "unknown-key",
        "id = \"x\"\nttl = 5\nworkrs = [\"A\"]\nsteps = []\n",
    ),
    (
        "wrong-type",
        "id = \"x\"\nttl = \"five\"\nworkers = [\"A\"]\nsteps = []\n",
    ),
    (
        "backwards",
        "id = \"x\"\nttl = 5\nworkers = [\"A\"]\nsteps = [\n  { at = 3, worker = \"A\", do = \"claim\" },\n  { at = 1, worker = \"A\", do = \"finish\" },\n]\n",
    ),
    ("syntax", "id = \"x\"\nttl = = 5\n"),
    (
        "names",
        "id = \"x\"\nttl = 5\nworkers = [\"A\"]\ndesign = { token = \"mnotonic\", commit_checks = [\"leese\"] }\nsteps = [{ at = 1, worker = \"B\", do = \"clam\" }]\n",
    ),
];

/// The words of a path, which the messages print before `:LINE:COL:`.
fn path_words(path: &std::path::Path) -> Vec<String> {
    path.components()
        .map(|part| {
            let part = part.as_os_str().to_string_lossy();
            part.trim_matches('.').to_owned()
        })
        .collect()
}

#[test]
fn file_diagnostics_speak_chinese() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in BROKEN_SCENARIOS {
        let path = dir.path().join(format!("{name}.toml"));
        std::fs::write(&path, text).unwrap();
        let mut ids = path_words(&path);
        // The TOML crate's own syntax message stays English inside a
        // Chinese frame; its words are allowed, nothing else is.
        let diagnostics = sim_core::parse_scenario(text.as_bytes())
            .err()
            .unwrap_or_else(|| panic!("{name} parsed"));
        for diagnostic in &diagnostics {
            if let Some(original) = diagnostic.zh.strip_prefix("TOML 语法错误：") {
                assert_eq!(diagnostic.message, format!("invalid TOML: {original}"));
                ids.extend(
                    original
                        .split(|c: char| !c.is_ascii_alphanumeric())
                        .map(str::to_owned),
                );
            }
        }
        let file = path.display().to_string();
        assert_chinese(&["run", &file, "--lang", "zh"], &ids);
        // A scenario file without `design` is explored on `full` (its
        // other keys are not read), so the report names the world's ids.
        let mut explored = ids.clone();
        explored.extend(["A", "B", "t1", "t2"].map(str::to_owned));
        assert_chinese(&["explore", "--design", &file, "--lang", "zh"], &explored);
    }
    let lessons = dir.path().join("lessons");
    std::fs::create_dir(&lessons).unwrap();
    std::fs::write(
        lessons.join("broken.toml"),
        "id = \"broken\"\norder = 1\ntitle = { en = \"Only English\" }\nsummary = \"s\"\nconcepts = [\"C99\"]\nsectons = []\nexercises = 3\n",
    )
    .unwrap();
    let mut ids = path_words(&lessons.join("broken.toml"));
    ids.push("C01".to_owned());
    ids.push("C27".to_owned());
    let folder = lessons.display().to_string();
    assert_chinese(&["lint", &folder, "--lang", "zh"], &ids);
    let answers = dir.path().join("answers.json");
    std::fs::write(&answers, "{\"answers\": []}").unwrap();
    let answers = answers.display().to_string();
    assert_chinese(
        &["grade", &answers, "--lessons", &folder, "--lang", "zh"],
        &ids,
    );
}

#[test]
fn the_word_check_finds_english() {
    let allowed = model_names();
    let found = english_words(
        "第 2 步 took effect：`quoted words` \"a value\" A",
        &allowed,
    );
    assert_eq!(found, ["A", "effect", "took"].map(str::to_owned).into());
}

#[test]
fn the_database_replay_speaks_chinese() {
    // The statements themselves are SQL: their words are code, not English.
    let sql_words = [
        "SET",
        "WHERE",
        "AND",
        "OR",
        "IS",
        "NULL",
        "IN",
        "CASE",
        "WHEN",
        "THEN",
        "ELSE",
        "END",
        "AS",
        "FROM",
        "RETURNING",
        "ORDER",
        "BY",
        "LIMIT",
        "NOT",
        "jobs",
        "id",
        "pos",
        "fence",
        "input_rev",
        "sqlite",
        "postgres",
        "job",
        "token",
        "now",
        "claimable",
        "lease_valid",
    ];
    let mut count = 0;
    for entry in std::fs::read_dir(examples_dir()).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let scenario = sim_core::parse_scenario(&bytes).unwrap();
        if scenario.steps.iter().any(|s| {
            matches!(
                s.action,
                Action::Begin
                    | Action::Commit
                    | Action::Rollback
                    | Action::SelectForUpdate
                    | Action::SelectSkipLocked
                    | Action::SelectNowait
            )
        }) {
            continue; // SQLite refuses them; PostgreSQL is not here.
        }
        let mut ids: Vec<String> = sql_words.iter().map(|w| (*w).to_owned()).collect();
        ids.push(scenario.id.clone());
        ids.extend(scenario.workers.iter().map(|w| w.id.clone()));
        ids.extend(scenario.owners.iter().cloned());
        ids.extend(scenario.jobs.iter().cloned());
        ids.extend(scenario.targets.iter().map(|t| t.id.clone()));
        ids.extend(scenario.ops.iter().chain(&scenario.values).cloned());
        let file = path.display().to_string();
        assert_chinese(&["run", &file, "--db", "sqlite", "--lang", "zh"], &ids);
        count += 1;
    }
    assert!(count >= 10, "{count} examples replayed");
}
