//! The course model: every exercise kind graded right and wrong on a small
//! fixture lesson, planted mistakes located, progress records round-trip
//! and migrate. The keys are never written here: each test derives what is
//! right from the engine's trace or the explorer's verdict first.

use serde_json::json;
use sim_core::course::{
    Answer, CONCEPTS, DesignAnswer, ExerciseKind, MarkKey, Progress, ProgressError,
    answer_from_json, check_lessons, coverage, grade, mark_keys, parse_lesson, solution,
};
use sim_core::{CheckSet, Protect};

const FIXTURE: &str = r#"
id = "fixture"
order = 1
title = { en = "Fixture", zh = "测试课" }
summary = { en = "A lesson for the tests.", zh = "测试用的课。" }
concepts = ["C01", "C05", "C08", "C22"]

[[sections]]
title = { en = "Leases", zh = "租约" }
concepts = ["C01"]
body = { en = "A lease does not stop a paused worker.", zh = "租约不能让暂停的 Worker 停下。" }
scenario = "pause"

[scenarios.pause]
id = "pause"
ttl = 5
workers = ["A", "B"]
design = "ttl-lock-only"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 6, worker = "B", do = "claim" },
  { at = 7, worker = "B", do = "write", target = "mail" },
  { at = 8, worker = "A", do = "write", target = "mail" },
  { at = 9, worker = "B", do = "finish" },
]
[[scenarios.pause.targets]]
id = "mail"

[[exercises]]
id = "mark"
title = { en = "Mark the stale steps", zh = "标出旧代次的步骤" }
kind = "mark"
concepts = ["C01"]
prompt = { en = "Mark the writes and commits that must be rejected.", zh = "标出必须拒绝的写入和提交。" }
scenario = "pause"
hints = [{ en = "Who holds the newest generation?", zh = "谁持有最新一代？" }, { en = "Compare generations.", zh = "比较代次。" }]
takeaway = { en = "Generations, not clocks.", zh = "看代次，不看时钟。" }

[[exercises]]
id = "predict"
title = { en = "Predict the outcomes", zh = "预测结果" }
kind = "predict"
concepts = ["C22"]
prompt = { en = "Predict.", zh = "预测。" }
scenario = "pause"
steps = [1, 3]
hints = [{ en = "a", zh = "甲" }, { en = "b", zh = "乙" }]
takeaway = { en = "t", zh = "丁" }

[[exercises]]
id = "design"
title = { en = "Choose the checks", zh = "选择检查" }
kind = "design"
concepts = ["C05", "C08"]
prompt = { en = "Design.", zh = "设计。" }
start = "ttl-lock-only"
open = ["commit_checks", "target_protect"]
world = { workers = 2, targets = 1, cancel = true }
hints = [{ en = "a", zh = "甲" }, { en = "b", zh = "乙" }]
takeaway = { en = "t", zh = "丁" }

[[exercises]]
id = "break"
title = { en = "Break the design", zh = "攻破设计" }
kind = "break"
concepts = ["C22"]
prompt = { en = "Break it.", zh = "攻破它。" }
scenario = "pause"
violation = "stale"
hints = [{ en = "a", zh = "甲" }, { en = "b", zh = "乙" }]
takeaway = { en = "t", zh = "丁" }

[[exercises]]
id = "quiz"
title = { en = "A question", zh = "一道题" }
kind = "quiz"
concepts = ["C22"]
prompt = { en = "Does TTL expiry stop the old worker?", zh = "TTL 过期会让旧 Worker 停下吗？" }
hints = [{ en = "a", zh = "甲" }, { en = "b", zh = "乙" }]
takeaway = { en = "t", zh = "丁" }
[[exercises.options]]
text = { en = "Yes", zh = "会" }
correct = false
why = { en = "Nothing tells the paused process.", zh = "没有人通知暂停的进程。" }
[[exercises.options]]
text = { en = "No", zh = "不会" }
correct = true
why = { en = "Expiry only lets another claim.", zh = "过期只是允许别人领取。" }
"#;

fn fixture() -> sim_core::course::Lesson {
    parse_lesson(FIXTURE.as_bytes()).unwrap()
}

#[test]
fn the_fixture_parses_and_passes_lint() {
    let lesson = fixture();
    assert_eq!(lesson.exercises.len(), 5);
    assert_eq!(check_lessons(&lesson), vec![]);
    let table = coverage(&[lesson]);
    assert_eq!(table.len(), CONCEPTS.len());
    assert!(table[0].is_covered(), "C01 taught and practised");
    assert!(!table[21].is_covered(), "C22 is only practised, not taught");
}

#[test]
fn mark_is_graded_per_step_against_the_oracle() {
    let lesson = fixture();
    let exercise = lesson.exercise("mark").expect("no mark");
    let scenario = lesson.scenario(0).expect("no scenario");
    let trace = sim_core::run(scenario);
    let key: Vec<u32> = trace.should_reject.clone();
    assert!(!key.is_empty());
    let right = grade(&lesson, exercise, &Answer::Mark(key.clone())).unwrap();
    assert!(right.correct, "{right:?}");
    let wrong = grade(&lesson, exercise, &Answer::Mark(vec![])).unwrap();
    assert!(!wrong.correct);
    let missed = wrong
        .items
        .iter()
        .find(|i| !i.right)
        .expect("no wrong item");
    // A missed step says it had to be refused once, not twice.
    assert_eq!(
        missed.text.en.matches("had to be refused").count()
            + missed.text.en.matches("must be refused").count(),
        1,
        "{}",
        missed.text.en
    );
    assert_eq!(
        missed.text.zh.matches("必须被拒绝").count(),
        1,
        "{}",
        missed.text.zh
    );
    assert!(
        missed.text.en.contains("newer generation 2"),
        "{}",
        missed.text.en
    );
    assert!(missed.text.zh.contains("第 2 代"), "{}", missed.text.zh);
    let solved = solution(&lesson, exercise).unwrap();
    assert!(solved.correct);
}

#[test]
fn predict_is_graded_against_the_engine() {
    let lesson = fixture();
    let exercise = lesson.exercise("predict").expect("no predict");
    let trace = sim_core::run(lesson.scenario(0).expect("no scenario"));
    let actual = |i: usize| trace.steps[i].outcome.name();
    let good = answer_from_json(
        &lesson,
        exercise,
        &json!({ "1": actual(1), "3": actual(3) }),
    )
    .unwrap();
    assert!(grade(&lesson, exercise, &good).is_ok_and(|g| g.correct));
    let flipped = if actual(3) == "ok" { "rejected" } else { "ok" };
    let bad =
        answer_from_json(&lesson, exercise, &json!({ "1": actual(1), "3": flipped })).unwrap();
    let graded = grade(&lesson, exercise, &bad).unwrap();
    assert!(!graded.correct);
    assert!(
        answer_from_json(&lesson, exercise, &json!({ "2": "ok" })).is_err(),
        "step 2 is not asked"
    );
    assert!(answer_from_json(&lesson, exercise, &json!({ "1": "maybe" })).is_err());
}

#[test]
fn design_is_graded_by_the_explorers() {
    let lesson = fixture();
    let exercise = lesson.exercise("design").expect("no design");
    let weak = Answer::Design(DesignAnswer::default());
    let graded = grade(&lesson, exercise, &weak).unwrap();
    assert!(!graded.correct, "ttl-lock-only falls");
    assert!(graded.counterexample.is_some());
    let strong = Answer::Design(DesignAnswer {
        commit_checks: Some(CheckSet::ALL),
        target_protect: Some(vec![Protect::Gateway]),
        ..DesignAnswer::default()
    });
    assert!(
        grade(&lesson, exercise, &strong).is_ok_and(|g| g.correct),
        "gateway + all checks holds, cancel included"
    );
    let registered = Answer::Design(DesignAnswer {
        commit_checks: Some(CheckSet::ALL),
        target_protect: Some(vec![Protect::RegisteredToken]),
        ..DesignAnswer::default()
    });
    assert!(
        grade(&lesson, exercise, &registered).is_ok_and(|g| !g.correct),
        "registered tokens do not know about the cancel"
    );
    assert!(
        answer_from_json(&lesson, exercise, &json!({ "token": "random" })).is_err(),
        "token is not an open knob here"
    );
    assert!(solution(&lesson, exercise).is_ok_and(|s| s.correct));
}

#[test]
fn break_is_graded_by_running_the_learners_schedule() {
    let lesson = fixture();
    let exercise = lesson.exercise("break").expect("no break");
    let breaks = json!([
        { "at": 0, "worker": "A", "do": "claim" },
        { "at": 5, "worker": "B", "do": "claim" },
        { "at": 5, "worker": "A", "do": "write", "target": "mail" },
    ]);
    let answer = answer_from_json(&lesson, exercise, &breaks).unwrap();
    assert!(grade(&lesson, exercise, &answer).is_ok_and(|g| g.correct));
    let safe = json!([{ "at": 0, "worker": "A", "do": "claim" }, { "at": 1, "worker": "A", "do": "finish" }]);
    let answer = answer_from_json(&lesson, exercise, &safe).unwrap();
    assert!(grade(&lesson, exercise, &answer).is_ok_and(|g| !g.correct));
    for bad in [
        json!([{ "at": 0, "worker": "C", "do": "claim" }]),
        json!([{ "at": 3, "worker": "A", "do": "claim" }, { "at": 1, "worker": "A", "do": "finish" }]),
        json!([{ "at": 0, "worker": "A", "do": "write" }]),
        json!([{ "at": 0, "worker": "A", "do": "claim", "answer": 1 }]),
    ] {
        assert!(answer_from_json(&lesson, exercise, &bad).is_err(), "{bad}");
    }
    let solved = solution(&lesson, exercise).unwrap();
    assert!(solved.correct, "the explorers' schedule breaks it");
}

#[test]
fn a_break_answer_may_name_operation_ids_values_and_notes() {
    let lesson = fixture();
    let exercise = lesson.exercise("break").expect("no break");
    let breaks = json!([
        { "at": 0, "worker": "A", "do": "claim" },
        { "at": 5, "worker": "B", "do": "claim" },
        { "at": 5, "worker": "B", "do": "write", "target": "mail", "op": "send-1", "value": "new" },
        { "at": 6, "worker": "A", "do": "write", "target": "mail", "op": "send-2", "value": "old",
          "note": { "en": "A wakes up", "zh": "A 醒来" } },
    ]);
    let answer = answer_from_json(&lesson, exercise, &breaks).unwrap();
    let graded = grade(&lesson, exercise, &answer).unwrap();
    let played = graded.scenario.expect("a break grade carries the schedule");
    assert_eq!(played.ops, ["send-1", "send-2"]);
    assert_eq!(played.values, ["new", "old"]);
    assert_eq!(
        played.steps[3].note.as_ref().map(|n| n.zh.as_str()),
        Some("A 醒来")
    );
    // Whether it breaks the design is the engine's call, not this test's.
    let trace = sim_core::run(&played);
    assert_eq!(graded.correct, !trace.violations.is_empty());
    for bad in [
        json!([{ "at": 0, "worker": "A", "do": "claim", "op": "x" }]),
        json!([{ "at": 0, "worker": "A", "do": "write", "target": "mail", "op": "" }]),
        json!([{ "at": 0, "worker": "A", "do": "write", "target": "mail", "value": 3 }]),
        json!([{ "at": 0, "worker": "A", "do": "claim", "note": { "en": "only one side" } }]),
    ] {
        assert!(answer_from_json(&lesson, exercise, &bad).is_err(), "{bad}");
    }
}

#[test]
fn quiz_is_graded_with_an_explanation_for_every_option() {
    let lesson = fixture();
    let exercise = lesson.exercise("quiz").expect("no quiz");
    let ExerciseKind::Quiz { options, .. } = &exercise.kind else {
        panic!("not a quiz");
    };
    let right = options.iter().position(|o| o.correct).unwrap_or(0);
    assert!(grade(&lesson, exercise, &Answer::Quiz(vec![right])).is_ok_and(|g| g.correct));
    let graded = grade(&lesson, exercise, &Answer::Quiz(vec![1 - right])).unwrap();
    assert!(!graded.correct);
    assert_eq!(graded.items.len(), 2, "every option explained");
    assert!(
        answer_from_json(&lesson, exercise, &json!([0, 1])).is_err(),
        "single choice"
    );
}

#[test]
fn planted_mistakes_are_located() {
    let cases = [
        (
            "concepts = [\"C01\", \"C05\", \"C08\", \"C22\"]",
            "concepts = [\"C01\", \"C05\", \"C08\", \"C22\", \"C99\"]",
            "unknown concept `C99`",
        ),
        (
            "scenario = \"pause\"\nhints",
            "scenario = \"pase\"\nhints",
            "unknown scenario `pase`; did you mean `pause`?",
        ),
        (
            "kind = \"mark\"",
            "kind = \"mrk\"",
            "unknown exercise kind `mrk`; did you mean `mark`?",
        ),
        (
            "takeaway = { en = \"Generations, not clocks.\", zh = \"看代次，不看时钟。\" }",
            "takeaway = { en = \"Generations, not clocks.\" }",
            "needs non-empty `en` and `zh`",
        ),
        (
            "scenario = \"pause\"\nviolation",
            "scenario = \"pause\"\nanswer = [3]\nviolation",
            "unknown key `answer` in an exercise",
        ),
    ];
    for (from, to, expected) in cases {
        assert!(FIXTURE.contains(from), "fixture lacks {from}");
        let planted = FIXTURE.replacen(from, to, 1);
        let Err(diagnostics) = parse_lesson(planted.as_bytes()) else {
            panic!("accepted: {to}");
        };
        crate::parse_errors::assert_chinese(&diagnostics);
        let offset = planted.find(to).unwrap_or(0);
        let (line, _) = sim_core::line_col(&planted, offset);
        let found = diagnostics
            .iter()
            .find(|d| d.message.contains(expected))
            .unwrap_or_else(|| panic!("no `{expected}` in {diagnostics:?}"));
        assert!(
            found.line >= line && found.line <= line + 1,
            "`{expected}` reported at line {} but planted at line {line}",
            found.line
        );
    }
}

#[test]
fn a_mark_exercise_with_nothing_to_find_fails_lint() {
    let no_stale = FIXTURE.replace(
        "  { at = 8, worker = \"A\", do = \"write\", target = \"mail\" },\n",
        "",
    );
    let lesson = parse_lesson(no_stale.as_bytes()).unwrap();
    let problems = check_lessons(&lesson);
    assert!(
        problems
            .iter()
            .any(|(_, _, m)| m.contains("no candidate step must be rejected")),
        "{problems:?}"
    );
}

#[test]
fn progress_round_trips_and_migrates() {
    let mut progress = Progress {
        lang: sim_core::Lang::Zh,
        ..Progress::default()
    };
    progress.record_attempt("fixture", "mark", false);
    progress.record_attempt("fixture", "mark", true);
    progress.exercise_mut("fixture", "quiz").hints_used = 2;
    progress.self_check.basic = true;
    let text = progress.to_json();
    assert_eq!(Progress::from_json(&text), Ok(progress.clone()));
    let mark = progress.exercise("fixture", "mark").expect("none");
    assert!(mark.completed && mark.attempts == 2);

    let v1 = r#"{"version": 1, "lang": "zh", "completed": ["fixture/mark"], "attempts": {"fixture/mark": 3, "fixture/quiz": 1}}"#;
    let migrated = Progress::from_json(v1).unwrap();
    assert_eq!(migrated.version, sim_core::course::PROGRESS_VERSION);
    assert_eq!(migrated.lang, sim_core::Lang::Zh);
    let mark = migrated.exercise("fixture", "mark").expect("lost");
    assert!(mark.completed && mark.attempts == 3);
    assert!(
        migrated
            .exercise("fixture", "quiz")
            .is_some_and(|q| !q.completed && q.attempts == 1)
    );

    assert_eq!(
        Progress::from_json(r#"{"version": 99}"#),
        Err(ProgressError::Newer(99))
    );
    assert!(matches!(
        Progress::from_json(&text[..text.len() / 2]),
        Err(ProgressError::Corrupt(_))
    ));
    assert!(matches!(
        Progress::from_json("garbage"),
        Err(ProgressError::Corrupt(_))
    ));
}

#[test]
fn a_progress_version_out_of_range_is_named_not_called_missing() {
    for version in ["18446744073709551616", "-1", "\"2\"", "4294967296"] {
        let text = format!(r#"{{"version": {version}}}"#);
        match Progress::from_json(&text) {
            Err(ProgressError::Corrupt(why)) => {
                assert!(why.starts_with("its `version` "), "{version}: {why}");
                assert!(why.contains("is not a version number"), "{version}: {why}");
            }
            other => panic!("{version}: {other:?}"),
        }
    }
    assert_eq!(
        Progress::from_json("{}"),
        Err(ProgressError::Corrupt("it has no `version`".to_owned()))
    );
}

/// Every lesson of `lessons/`, in course order.
fn course_lessons() -> Vec<sim_core::course::Lesson> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let mut lessons: Vec<sim_core::course::Lesson> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .map(|path| parse_lesson(&std::fs::read(&path).unwrap()).unwrap())
        .collect();
    lessons.sort_by_key(|lesson| lesson.order);
    lessons
}

/// The issue's case (mark-after-the-nap: A writes after its own lease ran
/// out, before anyone claimed), found by its keys rather than by name: a
/// mark answer that also refuses every `Either` step is right, and its
/// explanation calls the refusal conservative.
#[test]
fn refusing_an_either_step_of_a_lesson_is_accepted_as_conservative() {
    let mut found = Vec::new();
    for lesson in course_lessons() {
        for exercise in &lesson.exercises {
            let ExerciseKind::Mark {
                scenario,
                candidates,
            } = &exercise.kind
            else {
                continue;
            };
            let keys = mark_keys(lesson.scenario(*scenario).unwrap(), candidates);
            let either: Vec<u32> = keys
                .iter()
                .filter(|(_, key)| *key == MarkKey::Either)
                .map(|(index, _)| *index)
                .collect();
            if either.is_empty() {
                continue;
            }
            let refused: Vec<u32> = keys
                .iter()
                .filter(|(_, key)| *key != MarkKey::MustAllow)
                .map(|(index, _)| *index)
                .collect();
            let graded = grade(&lesson, exercise, &Answer::Mark(refused)).unwrap();
            assert!(graded.correct, "{}/{}: {graded:?}", lesson.id, exercise.id);
            for step in &either {
                let item = graded
                    .items
                    .iter()
                    .find(|i| i.index == Some(*step))
                    .unwrap();
                assert!(
                    item.right && item.text.en.contains("conservative"),
                    "{}",
                    item.text.en
                );
                assert!(item.text.zh.contains("保守"), "{}", item.text.zh);
            }
            found.push(format!("{}/{}", lesson.id, exercise.id));
        }
    }
    assert!(
        found.iter().any(|f| f.ends_with("/mark-after-the-nap")),
        "{found:?}"
    );
}

/// A step refusing which is only conservative (`Either`) is nothing to tell
/// apart: with no step that must be allowed, marking everything passes.
#[test]
fn a_mark_exercise_without_a_step_to_allow_fails_lint() {
    let either_only = FIXTURE
        .replace(
            "  { at = 7, worker = \"B\", do = \"write\", target = \"mail\" },\n",
            "",
        )
        .replace(
            "  { at = 9, worker = \"B\", do = \"finish\" },\n",
            "",
        )
        .replace(
            "  { at = 6, worker = \"B\", do = \"claim\" },\n",
            "  { at = 5, worker = \"A\", do = \"write\", target = \"mail\" },\n  { at = 6, worker = \"B\", do = \"claim\" },\n",
        );
    let lesson = parse_lesson(either_only.as_bytes()).unwrap();
    let ExerciseKind::Mark {
        scenario,
        candidates,
    } = &lesson.exercise("mark").unwrap().kind
    else {
        panic!("no mark exercise")
    };
    let keys: Vec<MarkKey> = mark_keys(lesson.scenario(*scenario).unwrap(), candidates)
        .into_iter()
        .map(|(_, key)| key)
        .collect();
    assert_eq!(keys, vec![MarkKey::Either, MarkKey::MustRefuse]);
    let problems = check_lessons(&lesson);
    assert!(
        problems
            .iter()
            .any(|(_, _, m)| m.contains("no candidate step must be allowed")),
        "{problems:?}"
    );
}

/// Every way an answer can be malformed, with what the learner is told:
/// the shape (keys, types, repeats) first, then what the lesson decides
/// (a step it lacks, a worker it does not have, a closed knob).
#[test]
fn each_bad_answer_is_refused_with_its_own_reason() {
    let lesson = fixture();
    let cases = [
        (
            "mark",
            json!({"1":true}),
            "`mark` must be a list of numbers",
        ),
        ("mark", json!([1, "2"]), "`mark` must be a list of numbers"),
        ("mark", json!([1, -1]), "`mark` must be a list of numbers"),
        (
            "mark",
            json!([2, 2]),
            "`mark` lists 2 twice; list each once",
        ),
        (
            "mark",
            json!([9]),
            "step 9 does not exist (the timeline has 5 steps)",
        ),
        ("quiz", json!([5]), "option 5 does not exist"),
        ("quiz", json!([0, 1]), "choose one option"),
        (
            "quiz",
            json!([1, 1]),
            "`quiz` lists 1 twice; list each once",
        ),
        ("quiz", json!(null), "`quiz` must be a list of numbers"),
        (
            "predict",
            json!([1]),
            "`predict` must map step indices to outcomes, e.g. {\"1\": \"ok\"}",
        ),
        ("predict", json!({"x":"ok"}), "`x` is not a step index"),
        (
            "predict",
            json!({"2":"ok"}),
            "step 2 is not one of this exercise's steps",
        ),
        (
            "predict",
            json!({"9":"ok"}),
            "step 9 is not one of this exercise's steps",
        ),
        (
            "predict",
            json!({"1":"maybe"}),
            "`maybe` is not an outcome: ok, rejected, duplicate, noop or waiting",
        ),
        (
            "predict",
            json!({"1":3}),
            // Was "`` is not an outcome": the shape is what is wrong.
            "`predict` must map step indices to outcomes, e.g. {\"1\": \"ok\"}",
        ),
        ("design", json!([]), "`design` must be an object"),
        ("design", json!([["owner"]]), "`design` must be an object"),
        (
            "design",
            json!({"tokn":"monotonic"}),
            "unknown design knob `tokn`",
        ),
        (
            "design",
            json!({"token":"monotonic"}),
            "this exercise does not let you change `token`",
        ),
        (
            "design",
            json!({"commit_checks":"owner"}),
            "`commit_checks` must be a list",
        ),
        (
            "design",
            json!({"commit_checks":[1]}),
            "`commit_checks` must list names",
        ),
        (
            "design",
            json!({"commit_checks":["owner","owner"]}),
            "`commit_checks` lists `owner` twice; list each once",
        ),
        (
            "design",
            json!({"commit_checks":["ownr"]}),
            "unknown check `ownr`",
        ),
        (
            "design",
            json!({"target_protect":["gateway","none"]}),
            "`target_protect` needs one protection per target (1)",
        ),
        (
            "design",
            json!({"target_protect":["gatway"]}),
            "unknown protection `gatway`",
        ),
        (
            "design",
            json!({"target_protect":"gateway"}),
            "`target_protect` must be a list",
        ),
        (
            "design",
            json!({"reconcile":["t1","t1"]}),
            "`reconcile` lists `t1` twice; list each once",
        ),
        (
            "design",
            json!({"reconcile":["t2"]}),
            "`reconcile` names `t2`, which is not a target of this world",
        ),
        (
            "design",
            json!({"reconcile":"t1"}),
            "`reconcile` must be a list",
        ),
        (
            "design",
            json!({"commit_checks":null}),
            "`commit_checks` must be a list",
        ),
        (
            "design",
            json!({"token":null}),
            "this exercise does not let you change `token`",
        ),
        ("break", json!({}), "`break` must be a list of steps"),
        ("break", json!([1]), "step 0: must be an object"),
        (
            "break",
            json!([{"answer":1,"at":0,"do":"claim","worker":"A"}]),
            "step 0: unknown key `answer`",
        ),
        (
            "break",
            json!([{"do":"claim","worker":"A"}]),
            "step 0: `at` must be a tick from 0",
        ),
        (
            "break",
            json!([{"at":"0","do":"claim","worker":"A"}]),
            "step 0: `at` must be a tick from 0",
        ),
        (
            "break",
            json!([{"at":3,"do":"claim","worker":"A"},{"at":1,"do":"finish","worker":"A"}]),
            "step 1: `at` = 1 goes backwards (the step before is at 3)",
        ),
        (
            "break",
            json!([{"at":0,"do":"clam","worker":"A"}]),
            "step 0: unknown action `clam`",
        ),
        (
            "break",
            json!([{"at":0,"worker":"A"}]),
            "step 0: unknown action ``",
        ),
        (
            "break",
            json!([{"at":0,"do":"claim"}]),
            "step 0: `claim` needs a worker",
        ),
        (
            "break",
            json!([{"at":0,"do":"claim","worker":"C"}]),
            "step 0: unknown worker `C`",
        ),
        (
            "break",
            json!([{"at":0,"do":"write","worker":"A"}]),
            "step 0: `write` needs a target",
        ),
        (
            "break",
            json!([{"at":0,"do":"write","target":"nope","worker":"A"}]),
            "step 0: unknown target `nope`",
        ),
        (
            "break",
            json!([{"at":0,"do":"claim","job":"nope","worker":"A"}]),
            "step 0: unknown job `nope`",
        ),
        (
            "break",
            json!([{"at":0,"do":"claim","op":"x","worker":"A"}]),
            "step 0: only a write carries `op`",
        ),
        (
            "break",
            json!([{"at":0,"do":"write","op":"","target":"mail","worker":"A"}]),
            "step 0: `op` must be a non-empty string of at most 64 bytes",
        ),
        (
            "break",
            json!([{"at":0,"do":"write","target":"mail","value":3,"worker":"A"}]),
            "step 0: `value` must be a non-empty string of at most 64 bytes",
        ),
        (
            "break",
            json!([{"at":0,"do":"claim","note":{"en":"only one side"},"worker":"A"}]),
            "step 0: `note` must be a string or { en, zh }",
        ),
        (
            "break",
            json!([{"at":0,"do":"claim","note":3,"worker":"A"}]),
            "step 0: `note` must be a string or { en, zh }",
        ),
        (
            "break",
            json!([{"at":0,"do":"claim","note":null,"worker":"A"}]),
            "step 0: `note` must be a string or { en, zh }",
        ),
        (
            "break",
            json!([{"at":0,"do":"claim","note":{"en":"a","zh":"b","fr":"c"},"worker":"A"}]),
            "step 0: `note` must be a string or { en, zh }",
        ),
        (
            "break",
            json!([0, "A", "claim"]),
            "step 0: must be an object",
        ),
        (
            "break",
            json!([[0, "A", "claim"]]),
            "step 0: must be an object",
        ),
        // Names of the wrong type were once read as absent; now refused.
        (
            "break",
            json!([{"at":0,"do":"claim","worker":5}]),
            "step 0: `worker` must be a string",
        ),
        (
            "break",
            json!([{"at":0,"do":"claim","worker":"A","job":null}]),
            "step 0: `job` must be a string",
        ),
        (
            "break",
            json!([{"at":0,"do":"write","worker":"A","target":["mail"]}]),
            "step 0: `target` must be a string",
        ),
        (
            "break",
            json!([{"at":0,"do":3,"worker":"A"}]),
            "step 0: `do` must be a string",
        ),
    ];
    for (exercise, value, expected) in cases {
        let found = lesson.exercise(exercise).expect("no such exercise");
        let refused = answer_from_json(&lesson, found, &value)
            .err()
            .map(|error| error.message(sim_core::Lang::En));
        assert_eq!(refused.as_deref(), Some(expected), "{exercise}: {value}");
    }
}

/// The lease clock has a price (a round trip to ask the database the
/// time), so a design exercise that opens it is keyed on the cheapest
/// clock that is safe: a computed key on the database's clock means the
/// worker's clock was broken there; a key on the worker's clock means the
/// database's clock, otherwise the same, is graded "not minimal".
#[test]
fn an_open_lease_clock_is_keyed_on_the_cheapest_safe_clock() {
    use sim_core::LeaseClock;
    use sim_core::course::{DesignExercise, Knob, worked_solution};
    let mut open_somewhere = false;
    for lesson in course_lessons() {
        for exercise in &lesson.exercises {
            let Some(facts) = DesignExercise::of(&exercise.kind) else {
                continue;
            };
            if !facts.open.contains(&Knob::LeaseClock) {
                continue;
            }
            open_somewhere = true;
            let worked = worked_solution(&lesson, exercise).unwrap();
            assert!(worked.grade.correct, "{}", exercise.id);
            let Answer::Design(key) = worked.key else {
                panic!("a design key")
            };
            let other_clock = match key.lease_clock {
                Some(LeaseClock::Db) => LeaseClock::Worker,
                _ => LeaseClock::Db,
            };
            let mut other = key.clone();
            other.lease_clock = Some(other_clock);
            other.reconcile = facts
                .reconciliation_needed(&other)
                .unwrap()
                .unwrap_or_default();
            let graded = grade(&lesson, exercise, &Answer::Design(other)).unwrap();
            assert!(!graded.correct, "{}: both clocks pass", exercise.id);
            let said: String = graded.items.iter().map(|i| i.text.en.clone()).collect();
            if other_clock == LeaseClock::Db {
                assert!(said.contains("a cheaper design is also safe"), "{said}");
            }
        }
    }
    assert!(open_somewhere, "some design exercise opens the lease clock");
}

/// Issue 23.6: a superseded step that changes no protected state — a draft
/// stored beside the official value, a request only sent — is one a safe
/// system may refuse or let through: the oracle lists it in `may_reject`,
/// never in `should_reject`, and its mark key is `Either`. The same
/// worker's plain write is a must-refuse, the current holder's draft a
/// must-allow.
#[test]
fn a_superseded_draft_may_be_refused_or_allowed() {
    let text = r#"
id = "stale-draft"
ttl = 3
workers = ["A", "B"]
design = "db-conditional"
targets = [
  { id = "report", protect = "versioned" },
  { id = "mailer", protect = "none" },
]
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "pause" },
  { at = 4, worker = "B", do = "claim" },
  { at = 5, worker = "B", do = "write", target = "report", value = "draft by B" },
  { at = 6, worker = "A", do = "resume" },
  { at = 6, worker = "A", do = "write", target = "report", value = "draft by A" },
  { at = 6, worker = "A", do = "write", target = "mailer", value = "mail by A" },
  { at = 6, worker = "A", do = "write", target = "mailer", value = "sent by A", request = "late" },
  { at = 7, worker = "B", do = "finish" },
]
"#;
    let scenario = sim_core::parse_scenario(text.as_bytes()).unwrap();
    let trace = sim_core::run(&scenario);
    assert_eq!(trace.may_reject, vec![5, 7], "{trace:?}");
    assert!(!trace.should_reject.contains(&5) && !trace.should_reject.contains(&7));
    assert!(trace.should_reject.contains(&6));
    assert!(!trace.is_violation(5), "a draft is never a violation");
    let key = |index| sim_core::course::mark_key(&scenario, &trace, index);
    assert_eq!(key(3), MarkKey::MustAllow, "the holder's draft");
    assert_eq!(key(5), MarkKey::Either, "the superseded draft");
    assert_eq!(key(6), MarkKey::MustRefuse, "the superseded plain write");
    assert_eq!(
        key(7),
        MarkKey::Either,
        "a superseded send: its arrival is judged"
    );
    let said = sim_core::safety_reason(&scenario, &trace, 5, sim_core::Lang::En);
    assert!(
        said.contains("either is correct") && said.contains("draft"),
        "{said}"
    );
    let said = sim_core::safety_reason(&scenario, &trace, 7, sim_core::Lang::En);
    assert!(said.contains("sends a request"), "{said}");
    let said = sim_core::safety_reason(&scenario, &trace, 5, sim_core::Lang::Zh);
    assert!(
        said.contains("两种处理都正确") && said.contains("草稿"),
        "{said}"
    );
}

/// Issue 23.6, the issue's case: mark-consolidation's superseded draft
/// upload (B's, after A2's claim) is found by the rule, not by name, and
/// is right marked or not; every other key of the course's mark exercises
/// is either a must or an `Either` for the two reasons the keys allow.
#[test]
fn the_course_keys_a_superseded_draft_as_either() {
    let mut drafts = Vec::new();
    for lesson in course_lessons() {
        for exercise in &lesson.exercises {
            let ExerciseKind::Mark {
                scenario,
                candidates,
            } = &exercise.kind
            else {
                continue;
            };
            let scenario = lesson.scenario(*scenario).unwrap();
            let trace = sim_core::run(scenario);
            let keys = mark_keys(scenario, candidates);
            for (index, key) in &keys {
                let record = &trace.steps[*index as usize];
                if trace.may_reject.contains(index) {
                    assert_eq!(
                        *key,
                        MarkKey::Either,
                        "{}/{} #{index}",
                        lesson.id,
                        exercise.id
                    );
                    drafts.push(format!("{}/{index}", exercise.id));
                    let must: Vec<u32> = keys
                        .iter()
                        .filter(|(_, k)| *k == MarkKey::MustRefuse)
                        .map(|(i, _)| *i)
                        .collect();
                    let with: Vec<u32> = must.iter().copied().chain([*index]).collect();
                    for answer in [must, with] {
                        let graded = grade(&lesson, exercise, &Answer::Mark(answer)).unwrap();
                        assert!(graded.correct, "{}: {graded:?}", exercise.id);
                    }
                } else if *key == MarkKey::Either {
                    assert_eq!(
                        record.expired,
                        Some(true),
                        "{}/{} #{index}",
                        lesson.id,
                        exercise.id
                    );
                }
            }
        }
    }
    assert!(
        drafts.iter().any(|d| d.starts_with("mark-consolidation/")),
        "{drafts:?}"
    );
}

/// Issue 23.6: a predict exercise asks about a timeline no section of its
/// lesson walks through, so the learner applies the rule instead of
/// recalling the text (predict-terminal-claims and predict-cancel-epoch
/// used to replay their sections' timelines).
#[test]
fn no_predict_replays_a_timeline_its_lesson_narrates() {
    let mut predicts = 0;
    for lesson in course_lessons() {
        let narrated: Vec<usize> = lesson.sections.iter().filter_map(|s| s.scenario).collect();
        for exercise in &lesson.exercises {
            let ExerciseKind::Predict { scenario, .. } = &exercise.kind else {
                continue;
            };
            predicts += 1;
            assert!(
                !narrated.contains(scenario),
                "{}/{} predicts the timeline of a section",
                lesson.id,
                exercise.id
            );
        }
    }
    assert!(predicts > 10, "{predicts}");
}
