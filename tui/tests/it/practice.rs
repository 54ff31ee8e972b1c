//! `fencelab practice` and practice answers in `fencelab grade`: rounds
//! drawn from the built-in course's practice worlds, replayed by
//! `fencelab run` to the same key, graded by seed and round.

use serde_json::Value;

use crate::{fencelab, stderr, stdout};

fn round_json(args: &[&str]) -> Value {
    let mut all = vec!["practice", "--json", "--answer-key"];
    all.extend_from_slice(args);
    let output = fencelab(&all);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    serde_json::from_str(&stdout(&output)).unwrap()
}

/// Every pool (found through `--concept`), several seeds and levels: the
/// drawn scenario, written to a file and replayed by `fencelab run --json`,
/// has exactly the must-refuse steps the round's key names.
#[test]
fn drawn_rounds_replay_to_the_same_key_through_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut pools = std::collections::BTreeSet::new();
    for (concept, level, seed) in [
        ("C01", "1", "1"),
        ("C01", "4", "2"),
        ("C03", "2", "3"),
        ("C05", "3", "4"),
        ("C15", "1", "5"),
        ("C15", "4", "6"),
        ("C16", "2", "7"),
        ("C16", "4", "8"),
    ] {
        let round = round_json(&["--concept", concept, "--level", level, "--seed", seed]);
        pools.insert(round["key"]["pool"].as_str().unwrap().to_owned());
        let file = dir.path().join(format!("{concept}-{seed}.toml"));
        std::fs::write(&file, round["scenario"].as_str().unwrap()).unwrap();
        let run = fencelab(&["run", &file.display().to_string(), "--json"]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let trace: Value = serde_json::from_str(&stdout(&run)).unwrap();
        let should_reject: Vec<u64> = trace["should_reject"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let keyed: Vec<u64> = round["answer_key"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|k| k["key"] == "must_refuse")
            .map(|k| k["step"].as_u64().unwrap())
            .collect();
        let candidates: Vec<u64> = round["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let refused_candidates: Vec<u64> = should_reject
            .iter()
            .copied()
            .filter(|s| candidates.contains(s))
            .collect();
        assert_eq!(refused_candidates, keyed, "{concept} seed {seed}");
        assert!(!keyed.is_empty());
        assert!(
            round["answer_key"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["key"] == "must_allow")
        );
    }
    assert!(pools.len() >= 4, "{pools:?}");
}

/// Every lesson with a practice world, at every level: the round replays
/// through `fencelab run` to the key `fencelab practice` printed.
#[test]
fn every_pool_and_level_replays_through_run() {
    let dir = tempfile::tempdir().unwrap();
    for lesson in [
        "01-liveness-vs-safety",
        "02-token-in-the-commit",
        "05-cancel-and-reconcile",
        "07-remote-report-file",
        "08-model-call-longer-than-lease",
        "12-consolidation",
    ] {
        for level in 1..=4u32 {
            let seed = (level * 37).to_string();
            let level = level.to_string();
            let round = round_json(&["--lesson", lesson, "--level", &level, "--seed", &seed]);
            let file = dir.path().join(format!("{lesson}-{level}.toml"));
            std::fs::write(&file, round["scenario"].as_str().unwrap()).unwrap();
            let run = fencelab(&["run", &file.display().to_string(), "--json"]);
            assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
            let trace: Value = serde_json::from_str(&stdout(&run)).unwrap();
            let should_reject = trace["should_reject"].as_array().unwrap();
            for entry in round["answer_key"].as_array().unwrap() {
                let refused = should_reject.contains(&entry["step"]);
                assert_eq!(
                    refused,
                    entry["key"] == "must_refuse",
                    "{lesson} level {level}: step {}",
                    entry["step"]
                );
            }
        }
    }
}

#[test]
fn the_same_seed_and_round_print_the_same_round_and_another_round_differs() {
    let one = round_json(&["--seed", "11", "--round", "2"]);
    let again = round_json(&["--seed", "11", "--round", "2"]);
    let next = round_json(&["--seed", "11", "--round", "3"]);
    assert_eq!(one, again);
    assert_ne!(one["scenario"], next["scenario"]);
}

#[test]
fn grade_grades_practice_answers_by_their_key() {
    let round = round_json(&[
        "--lesson",
        "05-cancel-and-reconcile",
        "--seed",
        "9",
        "--level",
        "2",
    ]);
    let keys = round["answer_key"].as_array().unwrap();
    let refuse: Vec<&Value> = keys
        .iter()
        .filter(|k| k["key"] == "must_refuse")
        .map(|k| &k["step"])
        .collect();
    let everything: Vec<&Value> = keys.iter().map(|k| &k["step"]).collect();
    let answers = serde_json::json!({
        "learner": "p",
        "answers": [
            {"practice": round["key"], "mark": refuse},
            {"practice": round["key"], "mark": everything},
        ]
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("answers.json");
    std::fs::write(&file, answers.to_string()).unwrap();
    let output = fencelab(&[
        "grade",
        &file.display().to_string(),
        "--json",
        "--lang",
        "en",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["answers"], 2);
    assert_eq!(report["correct"], 1);
    assert_eq!(
        report["results"][0]["lesson"],
        "practice/05-cancel-and-reconcile"
    );
    assert_eq!(report["results"][0]["correct"], true);
    assert_eq!(report["results"][1]["correct"], false);
}

#[test]
fn bad_practice_input_is_refused_with_a_reason_and_status_2() {
    for (args, says) in [
        (
            vec!["practice", "--seed", "1", "--level", "9"],
            "--level must be 1 to 4",
        ),
        (
            vec![
                "practice",
                "--seed",
                "1",
                "--lesson",
                "03-check-at-the-resource",
            ],
            "has no practice world",
        ),
        (
            vec!["practice", "--seed", "1", "--lesson", "nope"],
            "there is no lesson `nope`",
        ),
        (
            vec!["practice", "--seed", "1", "--concept", "C99"],
            "`C99` is none of them",
        ),
    ] {
        let mut all = args.clone();
        all.extend(["--lang", "en"]);
        let output = fencelab(&all);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains(says),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("answers.json");
    std::fs::write(
        &file,
        r#"{"answers": [
  {"practice": {"pool": "01-liveness-vs-safety", "seed": 1}, "mark": [1]}
]}"#,
    )
    .unwrap();
    let output = fencelab(&["grade", &file.display().to_string(), "--lang", "en"]);
    assert_eq!(output.status.code(), Some(2));
    let complaint = stderr(&output);
    assert!(complaint.contains("answers.json:2:3:"), "{complaint}");
    assert!(complaint.contains("missing field `round`"), "{complaint}");
}
