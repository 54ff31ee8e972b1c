//! The shared pieces both front ends draw from: lease spans, and a step in
//! words with and without the oracle's verdict.

use sim_core::{LeaseClose, Scenario};

const PAUSE: &str = r#"
id = "pause"
title = { en = "A paused worker", zh = "暂停的 Worker" }
ttl = 5
workers = ["A", "B"]
design = "ttl-lock-only"
clocks = { A = -2 }
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "pause" },
  { at = 6, worker = "B", do = "claim" },
  { at = 6, worker = "B", do = "renew" },
  { at = 7, worker = "B", do = "finish" },
  { at = 8, worker = "A", do = "resume" },
  { at = 8, worker = "A", do = "finish" },
]
"#;

fn pause() -> Scenario {
    sim_core::parse_scenario(PAUSE.as_bytes()).unwrap()
}

#[test]
fn leases_end_when_replaced_or_finished() {
    let scenario = pause();
    let trace = sim_core::run(&scenario);
    let spans = sim_core::leases(&scenario, &trace);
    assert_eq!(spans.len(), 2);
    assert_eq!((spans[0].worker, spans[0].generation), (0, 1));
    assert_eq!(spans[0].start_step, 0);
    // Database time: the worker's skewed clock does not move the expiry.
    assert_eq!((spans[0].until, spans[0].expiry), (5, 5));
    assert_eq!(spans[0].closed, Some((2, LeaseClose::Replaced)));
    assert_eq!((spans[1].worker, spans[1].generation), (1, 2));
    // B's renew at 6 keeps 11; its finish ends the lease.
    assert_eq!(spans[1].until, 11);
    assert_eq!(spans[1].closed, Some((4, LeaseClose::Ended)));
}

#[test]
fn a_lease_on_the_worker_clock_expires_by_true_time() {
    // The same story with leases judged by the acting worker's clock.
    let text = PAUSE.replace("design = \"ttl-lock-only\"\n", "")
        + "\n[design]\nlease_clock = \"worker\"\ncommit_checks = []\nrenew_checks = []\ntarget_protect = \"none\"\n";
    let scenario =
        sim_core::parse_scenario(text.as_bytes()).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let trace = sim_core::run(&scenario);
    let spans = sim_core::leases(&scenario, &trace);
    // A's clock reads t - 2: it writes lease_until = -2 + 5 = 3, which its
    // own clock passes at true time 5.
    assert_eq!((spans[0].until, spans[0].expiry), (3, 5));
}

#[test]
fn the_outcome_alone_leaves_out_the_verdict() {
    let scenario = pause();
    let trace = sim_core::run(&scenario);
    let stale = trace
        .violations
        .first()
        .map(|v| v.step as usize)
        .expect("the stale finish is a violation");
    for lang in sim_core::Lang::ALL {
        let full = sim_core::describe_step(&scenario, &trace, stale, lang);
        let plain = sim_core::describe_outcome(&scenario, &trace, stale, lang);
        let verdict = sim_core::safety_reason(&scenario, &trace, stale, lang);
        assert!(!plain.is_empty());
        assert!(full.starts_with(&plain), "{full} / {plain}");
        assert!(full.ends_with(&verdict), "{full} / {verdict}");
        assert!(!plain.contains(&verdict));
    }
    // A step nothing had to refuse reads the same either way.
    assert_eq!(
        sim_core::describe_step(&scenario, &trace, 2, sim_core::Lang::En),
        sim_core::describe_outcome(&scenario, &trace, 2, sim_core::Lang::En)
    );
}

#[test]
fn a_pending_step_names_the_action_but_not_its_result() {
    let scenario = pause();
    let trace = sim_core::run(&scenario);
    let asked = sim_core::describe_pending(&scenario, 6, sim_core::Lang::En);
    assert!(asked.starts_with("Tick 8: A's finish"), "{asked}");
    let done = sim_core::describe_outcome(&scenario, &trace, 6, sim_core::Lang::En);
    assert!(done.contains("took effect") && !asked.contains("took effect"));
    assert!(sim_core::describe_pending(&scenario, 6, sim_core::Lang::Zh).contains("tick 8"));
    assert_eq!(
        sim_core::describe_pending(&scenario, 99, sim_core::Lang::En),
        ""
    );
}

/// The lessons' scenarios, read from the course folder, by name.
fn lesson_scenario(file: &str, name: &str) -> Scenario {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../lessons")
        .join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lesson = sim_core::course::parse_lesson(&bytes).unwrap_or_else(|e| panic!("{e:?}"));
    lesson
        .scenarios
        .into_iter()
        .find(|(known, _)| known == name)
        .map(|(_, scenario)| scenario)
        .unwrap_or_else(|| panic!("{file} has no scenario {name}"))
}

/// The newest claim of step `index`'s job granted before it, from the trace:
/// `(claim step, generation)`.
fn newest_grant_before(
    scenario: &Scenario,
    trace: &sim_core::Trace,
    index: usize,
) -> Option<(usize, u32)> {
    let job = trace.steps[index].job?;
    (0..index).rev().find_map(|earlier| {
        let record = &trace.steps[earlier];
        (scenario.steps[earlier].action == sim_core::Action::Claim
            && record.outcome == sim_core::Outcome::Ok
            && record.job == Some(job))
        .then(|| (earlier, record.generation.unwrap_or(0)))
    })
}

#[test]
fn a_superseded_step_is_never_told_that_no_newer_generation_existed() {
    // mark-consolidation: B's draft upload after A2's claim.
    let scenario = lesson_scenario("12-consolidation.toml", "consolidation");
    let trace = sim_core::run(&scenario);
    let mut superseded = 0;
    for index in 0..scenario.steps.len() {
        let Some(generation) = trace.steps[index].generation else {
            continue;
        };
        let Some((claim, newest)) = newest_grant_before(&scenario, &trace, index) else {
            continue;
        };
        if newest <= generation || scenario.steps[index].action == sim_core::Action::Claim {
            continue;
        }
        superseded += 1;
        let en = sim_core::safety_reason(&scenario, &trace, index, sim_core::Lang::En);
        assert!(!en.contains("no newer generation"), "step {index}: {en}");
        assert!(
            en.contains(&format!("generation {newest} at step {claim}")),
            "step {index}: {en}"
        );
        let zh = sim_core::safety_reason(&scenario, &trace, index, sim_core::Lang::Zh);
        assert!(!zh.contains("没有更新的代次"), "step {index}: {zh}");
        assert!(zh.contains(&format!("第 {claim} 步")), "step {index}: {zh}");
    }
    assert!(superseded > 0, "the scenario has superseded steps");
}

#[test]
fn a_repeat_after_the_own_generation_ended_the_job_is_not_called_open() {
    // mark-edge-cases: A's retried finish after its first finish committed.
    let scenario = lesson_scenario("11-acceptance-test-and-self-check.toml", "edge-cases-again");
    let trace = sim_core::run(&scenario);
    let mut repeats = 0;
    for index in 0..scenario.steps.len() {
        let record = &trace.steps[index];
        let Some(generation) = record.generation else {
            continue;
        };
        let ended = (0..index).rev().find(|&earlier| {
            let before = &trace.steps[earlier];
            scenario.steps[earlier].action == sim_core::Action::Finish
                && before.outcome == sim_core::Outcome::Ok
                && before.job == record.job
                && before.generation == Some(generation)
        });
        let Some(end) = ended else { continue };
        repeats += 1;
        let en = sim_core::safety_reason(&scenario, &trace, index, sim_core::Lang::En);
        assert!(!en.contains("still open"), "step {index}: {en}");
        assert!(en.contains(&format!("at step {end}")), "step {index}: {en}");
        let zh = sim_core::safety_reason(&scenario, &trace, index, sim_core::Lang::Zh);
        assert!(!zh.contains("还没有结束"), "step {index}: {zh}");
    }
    assert!(repeats > 0, "the scenario retries a finished commit");
}

#[test]
fn an_expired_but_not_superseded_step_may_be_refused_or_allowed() {
    // mark-after-the-nap: A's steps after its own lease ran out, before B claimed.
    let scenario = lesson_scenario("01-liveness-vs-safety.toml", "resume");
    let trace = sim_core::run(&scenario);
    let mut either = 0;
    for index in 0..scenario.steps.len() {
        let record = &trace.steps[index];
        let newer = newest_grant_before(&scenario, &trace, index)
            .is_some_and(|(_, newest)| Some(newest) > record.generation);
        if record.expired != Some(true) || newer || trace.should_reject.contains(&(index as u32)) {
            continue;
        }
        either += 1;
        let en = sim_core::safety_reason(&scenario, &trace, index, sim_core::Lang::En);
        assert!(
            en.contains("conservative") && en.contains("Either is correct"),
            "{en}"
        );
        let zh = sim_core::safety_reason(&scenario, &trace, index, sim_core::Lang::Zh);
        assert!(zh.contains("保守") && zh.contains("租约已经到期"), "{zh}");
    }
    assert!(either > 0, "A acts after its own lease ran out");
}

/// Issue 22: a pause, a resume and a crash are told as what happens to the
/// worker, not as steps that "changed nothing"; a stale finish that was
/// refused says it was, without "(or it changed nothing)".
#[test]
fn a_pause_is_the_story_and_a_refused_stale_step_says_it_was_refused() {
    let scenario = pause();
    let trace = sim_core::run(&scenario);
    let step = |action: &str| {
        scenario
            .steps
            .iter()
            .position(|s| s.action.name() == action)
            .unwrap_or_else(|| panic!("a {action} step"))
    };
    for lang in [sim_core::Lang::En, sim_core::Lang::Zh] {
        for action in ["pause", "resume"] {
            let said = sim_core::describe_step(&scenario, &trace, step(action), lang);
            assert!(
                !said.contains("changed nothing") && !said.contains("没有改变"),
                "{said}"
            );
            assert!(said.contains("A"), "{said}");
        }
    }
    let pause_said = sim_core::describe_step(&scenario, &trace, step("pause"), sim_core::Lang::En);
    assert!(pause_said.contains("lease"), "{pause_said}");
    // A's finish after the takeover, checked at the commit: the oracle says
    // refuse, and it was.
    let text = PAUSE.replace("ttl-lock-only", "db-conditional");
    let scenario = sim_core::parse_scenario(text.as_bytes()).unwrap();
    let trace = sim_core::run(&scenario);
    let stale = scenario.steps.len() - 1;
    assert!(trace.should_reject.contains(&(stale as u32)));
    assert_eq!(trace.steps[stale].outcome, sim_core::Outcome::Rejected);
    let said = sim_core::describe_step(&scenario, &trace, stale, sim_core::Lang::En);
    assert!(
        said.ends_with("It had to be refused, and it was."),
        "{said}"
    );
    let said = sim_core::describe_step(&scenario, &trace, stale, sim_core::Lang::Zh);
    assert!(said.ends_with("它必须被拒绝，也确实被拒绝了。"), "{said}");
}

/// Issue 22: a cancel marks the job cancelled and leaves the lease in the
/// row, so the old holder's bar runs on to `lease_until` (lesson 5's point:
/// the lease stays valid; only a check of the state stops the late finish).
#[test]
fn a_cancel_leaves_the_lease_running() {
    let text = r#"
id = "cancel"
ttl = 5
workers = ["A"]
design = "db-conditional"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 2, do = "cancel" },
  { at = 3, worker = "A", do = "finish" },
]
"#;
    let scenario = sim_core::parse_scenario(text.as_bytes()).unwrap();
    let trace = sim_core::run(&scenario);
    assert_eq!(
        trace.steps[1].outcome,
        sim_core::Outcome::Ok,
        "the cancel took effect"
    );
    let spans = sim_core::leases(&scenario, &trace);
    assert_eq!(spans.len(), 1);
    assert_eq!(spans[0].until, 5);
    assert_eq!(spans[0].closed, None, "{spans:?}");
}

/// Issue 23.6: a claim that waited behind another transaction's row lock is
/// granted at the step that released the lock, not at its own step. Its own
/// narration says it waited and which step released it; a step in between
/// is never told that the waiting claim had already been granted.
#[test]
fn a_claim_that_waited_is_granted_when_the_lock_is_released() {
    use sim_core::{Action, Lang, Outcome};
    for (file, name) in [
        // predict-long-transaction, item #8 (A's finish)
        ("04-claims-without-long-locks.toml", "long-claim-commit"),
        // lesson 10's predict-long-transaction, item #7 (A's finish)
        ("10-pitfalls.toml", "long-transaction-commit"),
    ] {
        let scenario = lesson_scenario(file, name);
        let trace = sim_core::run(&scenario);
        let mut waited = 0;
        let mut between = 0;
        for (claim, record) in trace.steps.iter().enumerate() {
            let Some(released) = record.released_by.map(|r| r as usize) else {
                continue;
            };
            if scenario.steps[claim].action != Action::Claim || record.outcome != Outcome::Ok {
                continue;
            }
            waited += 1;
            assert!(released > claim, "{name}: step {claim}");
            assert_eq!(
                scenario.steps[released].action,
                Action::Commit,
                "{name}: the holder's commit releases the lock"
            );
            let ran = record.waited_until.expect("a released statement waited");
            assert_eq!(ran, scenario.steps[released].at, "{name}");
            let en = sim_core::describe_outcome(&scenario, &trace, claim, Lang::En);
            assert!(
                en.contains("waited for a row lock")
                    && en.contains(&format!("at tick {ran}"))
                    && en.contains(&format!("at step {released} released the lock")),
                "{name}: {en}"
            );
            let zh = sim_core::describe_outcome(&scenario, &trace, claim, Lang::Zh);
            assert!(
                zh.contains("等行锁")
                    && zh.contains(&format!("到 tick {ran}"))
                    && zh.contains(&format!("第 {released} 步")),
                "{name}: {zh}"
            );
            // The oracle's generations: the steps in between saw the older one.
            let granted = record.generation.expect("a granted claim's generation");
            for index in claim + 1..released {
                let judged = &trace.steps[index];
                let Some(newest) = judged.newest_generation else {
                    continue;
                };
                between += 1;
                assert!(newest < granted, "{name}: step {index}");
                let en = sim_core::describe_step(&scenario, &trace, index, Lang::En);
                assert!(!en.contains("was granted the newer"), "{name}: {en}");
                assert!(
                    en.contains(&format!(
                        "claim from step {claim} was still waiting for a row lock; it was granted only at step {released}"
                    )),
                    "{name}: {en}"
                );
                let zh = sim_core::describe_step(&scenario, &trace, index, Lang::Zh);
                assert!(!zh.contains("领取了更新的"), "{name}: {zh}");
                assert!(
                    zh.contains(&format!("第 {claim} 步发出的领取这时还在等行锁"))
                        && zh.contains(&format!("到第 {released} 步才被授予")),
                    "{name}: {zh}"
                );
            }
        }
        assert!(waited > 0, "{name}: a claim waits for a row lock");
        assert!(between > 0, "{name}: a judged step runs while it waits");
    }
}

/// A request sent under a claim that a crash rolled back lands after the
/// next claim, which reused the generation number: the narration says the
/// claim was undone and names the claim that was really granted (the
/// later one, not the undone one with the same number).
#[test]
fn a_request_of_a_rolled_back_claim_names_the_real_grant() {
    use sim_core::Lang;
    let scenario = lesson_scenario("04-claims-without-long-locks.toml", "rolled-back-token");
    let trace = sim_core::run(&scenario);
    let landed = scenario
        .steps
        .iter()
        .position(|s| s.action == sim_core::Action::Deliver)
        .unwrap();
    assert!(trace.should_reject.contains(&(landed as u32)));
    let b_claim = scenario
        .steps
        .iter()
        .position(|s| s.action == sim_core::Action::Claim)
        .unwrap();
    let en = sim_core::safety_reason(&scenario, &trace, landed, Lang::En);
    assert!(en.contains("rolled back"), "{en}");
    assert!(en.contains("holds no generation"), "{en}");
    assert!(
        en.contains(&format!("B was granted generation 1 at step {b_claim}")),
        "{en}"
    );
    assert!(!en.contains("A was granted"), "{en}");
    let zh = sim_core::safety_reason(&scenario, &trace, landed, Lang::Zh);
    assert!(zh.contains("回滚") && zh.contains("不持有任何代次"), "{zh}");
    assert!(
        zh.contains(&format!("B 在第 {b_claim} 步领取了第 1 代")),
        "{zh}"
    );
}

/// Issue 23.6: a superseded step after a claim that waited names the step
/// that granted the newer generation, and that the claim waited.
#[test]
fn a_superseded_step_names_the_grant_of_a_claim_that_waited() {
    let text = r#"
id = "waited-takeover"
ttl = 2
workers = ["A", "B"]
design = "db-conditional"
targets = [{ id = "mailer", protect = "none" }]
steps = [
  { at = 0, worker = "A", do = "begin" },
  { at = 0, worker = "A", do = "select_for_update" },
  { at = 0, worker = "A", do = "update_claim" },
  { at = 1, worker = "A", do = "pause" },
  { at = 4, worker = "B", do = "claim" },
  { at = 6, worker = "A", do = "commit" },
  { at = 7, worker = "A", do = "write", target = "mailer", value = "late" },
]
"#;
    let scenario = sim_core::parse_scenario(text.as_bytes()).unwrap();
    let trace = sim_core::run(&scenario);
    assert_eq!(trace.steps[4].released_by, Some(5), "{:?}", trace.steps[4]);
    assert!(trace.should_reject.contains(&6));
    let en = sim_core::safety_reason(&scenario, &trace, 6, sim_core::Lang::En);
    assert!(
        en.contains("B's claim, sent at step 4, waited for a row lock and was granted the newer generation 2 at step 5"),
        "{en}"
    );
    let zh = sim_core::safety_reason(&scenario, &trace, 6, sim_core::Lang::Zh);
    assert!(
        zh.contains("B 在第 4 步发出的领取先等了行锁，到第 5 步才领到更新的第 2 代"),
        "{zh}"
    );
}

/// Issue 23.6: a finish after the same generation's `fail` is no repeat of
/// a finish: the narration names the fail, and claims refused on ended jobs
/// say how each ended (predict-terminal-claims).
#[test]
fn a_finish_after_a_fail_names_the_fail() {
    use sim_core::{Action, Lang};
    let scenario = lesson_scenario("04-claims-without-long-locks.toml", "terminal-claims");
    let trace = sim_core::run(&scenario);
    let fail = scenario
        .steps
        .iter()
        .position(|s| s.action == Action::Fail)
        .expect("A fails r1");
    let finish = scenario
        .steps
        .iter()
        .position(|s| s.action == Action::Finish)
        .expect("A's late finish");
    assert_eq!(
        trace.steps[fail].generation, trace.steps[finish].generation,
        "the same generation fails, then finishes"
    );
    let en = sim_core::safety_reason(&scenario, &trace, finish, Lang::En);
    assert!(
        en.contains(&format!("had already failed the job at step {fail}")),
        "{en}"
    );
    assert!(
        !en.contains("repeating") && !en.contains("already done") && !en.contains("finished"),
        "{en}"
    );
    assert!(en.contains("`failed`"), "{en}");
    let zh = sim_core::safety_reason(&scenario, &trace, finish, Lang::Zh);
    assert!(
        zh.contains(&format!("已经在第 {fail} 步把任务标记为失败")),
        "{zh}"
    );
    assert!(
        !zh.contains("重复这一步不会") && !zh.contains("已经完成"),
        "{zh}"
    );
    // The refused claims and cancels: each says how its job had ended.
    let mut said = Vec::new();
    for name in ["terminal-claims", "terminal-later"] {
        let scenario = lesson_scenario("04-claims-without-long-locks.toml", name);
        let trace = sim_core::run(&scenario);
        for (index, record) in trace.steps.iter().enumerate() {
            if record.reason != Some(sim_core::Reason::Terminal) {
                continue;
            }
            let state = record.row.expect("the row read").state.name();
            let en = sim_core::describe_outcome(&scenario, &trace, index, Lang::En);
            assert!(en.contains(&format!("its state is `{state}`")), "{en}");
            let zh = sim_core::describe_outcome(&scenario, &trace, index, Lang::Zh);
            assert!(zh.contains(&format!("状态是 `{state}`")), "{zh}");
            said.push((scenario.steps[index].action, state));
        }
    }
    for expected in [
        (Action::Claim, "failed"),
        (Action::Claim, "cancelled"),
        (Action::Cancel, "failed"),
    ] {
        assert!(said.contains(&expected), "{expected:?} in {said:?}");
    }
}

/// A repeat of the same commit by the generation that made it is still
/// called a repeat, naming what it repeats.
#[test]
fn a_repeated_fail_is_called_a_repeat_of_the_fail() {
    let text = r#"
id = "fail-twice"
ttl = 5
workers = ["A"]
design = "db-conditional"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "fail" },
  { at = 2, worker = "A", do = "fail" },
]
"#;
    let scenario = sim_core::parse_scenario(text.as_bytes()).unwrap();
    let trace = sim_core::run(&scenario);
    let en = sim_core::safety_reason(&scenario, &trace, 2, sim_core::Lang::En);
    assert!(
        en.contains("had already failed the job at step 1, so repeating the fail"),
        "{en}"
    );
    assert!(en.contains("already `failed`"), "{en}");
    let zh = sim_core::safety_reason(&scenario, &trace, 2, sim_core::Lang::Zh);
    assert!(zh.contains("把任务标记为失败，重复这一步"), "{zh}");
}

/// Every lesson scenario's narration, in Chinese, spaces the way the
/// lessons do: no space beside Chinese punctuation, a space between a
/// Chinese character and inline code, and none inside a Chinese phrase
/// ("用户的", not "用户 的").
#[test]
fn chinese_narration_spaces_like_the_lessons() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let cjk = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
    let punct = |c: char| "，。；：（）、“”".contains(c);
    let mut checked = 0;
    for path in files {
        let lesson = sim_core::course::parse_lesson(&std::fs::read(&path).unwrap()).unwrap();
        for (name, scenario) in &lesson.scenarios {
            let trace = sim_core::run(scenario);
            for index in 0..scenario.steps.len() {
                let said = sim_core::describe_step(scenario, &trace, index, sim_core::Lang::Zh);
                let chars: Vec<char> = said.chars().collect();
                for pair in chars.windows(2) {
                    let (a, b) = (pair[0], pair[1]);
                    let spaced_punctuation = a == ' ' && punct(b) || punct(a) && b == ' ';
                    let code_without_space = a == '`' && cjk(b) || cjk(a) && b == '`';
                    assert!(
                        !spaced_punctuation && !code_without_space,
                        "{name} #{index}: {a:?}{b:?} in {said}"
                    );
                }
                for three in chars.windows(3) {
                    assert!(
                        !(cjk(three[0]) && three[1] == ' ' && cjk(three[2])),
                        "{name} #{index}: a space inside a Chinese phrase in {said}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn a_violation_line_spaces_only_between_scripts() {
    let source = r#"
id = "cancelled"
ttl = 5
workers = ["A", "B"]
design = "ttl-lock-only"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, do = "cancel" },
  { at = 2, worker = "A", do = "write", target = "ledger" },
]

[[targets]]
id = "ledger"
"#;
    let scenario = sim_core::parse_scenario(source.as_bytes()).unwrap();
    let trace = sim_core::run(&scenario);
    let line = |lang| {
        trace
            .violations
            .iter()
            .map(|v| sim_core::violation_line(&scenario, &trace, v, lang))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        line(sim_core::Lang::Zh),
        [
            "第 2 步（A 的 write 到 ledger）生效了，但任务已经被取消，或已被另一代执行者结束 [after_terminal]"
        ]
    );
    assert_eq!(
        line(sim_core::Lang::En),
        [
            "step 2 (A write to ledger) took effect although the job had already been cancelled or ended by another generation [after_terminal]"
        ]
    );
    let stale = source.replace(
        r#"{ at = 1, do = "cancel" },
  { at = 2,"#,
        r#"{ at = 6, worker = "B", do = "claim" },
  { at = 7,"#,
    );
    let scenario = sim_core::parse_scenario(stale.as_bytes()).unwrap();
    let trace = sim_core::run(&scenario);
    let said: Vec<String> = trace
        .violations
        .iter()
        .map(|v| sim_core::violation_line(&scenario, &trace, v, sim_core::Lang::Zh))
        .collect();
    assert!(!said.is_empty());
    for line in &said {
        // A Latin name is spaced from the Chinese around it ("但 A 持有");
        // two Chinese words never are.
        let han = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
        let chars: Vec<char> = line.chars().collect();
        assert!(
            !chars
                .windows(3)
                .any(|w| han(w[0]) && w[1] == ' ' && han(w[2])),
            "{line}"
        );
        assert!(line.contains("但 A 持有的是第 1 代"), "{line}");
    }
}

/// A replay's summary lists a request still travelling at a takeover apart
/// from effects a cancel did not undo, and says nothing is wrong only when
/// nothing is.
#[test]
fn a_summary_lists_in_flight_reconciliation_apart() {
    use sim_core::{Lang, SummaryTone};
    let scenario = lesson_scenario("04-claims-without-long-locks.toml", "rolled-back-token");
    let trace = sim_core::run(&scenario);
    let sent = scenario
        .steps
        .iter()
        .position(|s| s.action == sim_core::Action::Write && s.request.is_some())
        .unwrap() as u32;
    assert!(trace.reconcile_in_flight.contains(&sent));
    for lang in [Lang::En, Lang::Zh] {
        let lines = sim_core::trace_summary(&scenario, &trace, lang);
        let todo: Vec<&str> = lines
            .iter()
            .filter(|l| l.tone == SummaryTone::Todo)
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(todo.len(), 1, "{lines:?}");
        assert!(todo[0].contains(&sent.to_string()), "{}", todo[0]);
        assert!(
            todo[0].contains(lang.pick("in flight", "在途")),
            "{}",
            todo[0]
        );
        assert!(!todo[0].contains(lang.pick("before the cancel", "取消之前")));
        // The violations: a heading, then one item each.
        assert_eq!(lines[0].tone, SummaryTone::Bad);
        let items = lines.iter().filter(|l| l.item).count();
        assert_eq!(items, trace.violations.len());
    }
    let mut guarded = pause();
    guarded.design = sim_core::Preset::DbConditional.design();
    let quiet = sim_core::run(&guarded);
    assert!(quiet.violations.is_empty());
    let lines = sim_core::trace_summary(&guarded, &quiet, Lang::En);
    assert_eq!(lines[0].tone, SummaryTone::Good, "{lines:?}");
    assert!(lines.iter().all(|l| l.tone != SummaryTone::Bad));
}

/// A custom design is named by its knobs in the files' spelling, so a reader
/// can type it back; a preset by its name.
#[test]
fn a_custom_design_is_named_by_its_knobs() {
    use sim_core::{Check, ClaimProcedure, Lang, Preset};
    let preset = Preset::FencedRegistered.design();
    assert_eq!(
        sim_core::design_words(&preset, Lang::Zh),
        "fenced-registered"
    );
    let mut custom = preset;
    custom.commit_checks = [Check::Owner].into_iter().collect();
    custom.cancel_epoch = true;
    custom.claim = ClaimProcedure::Nowait;
    let en = sim_core::design_words(&custom, Lang::En);
    assert!(en.starts_with("custom (commit: owner;"), "{en}");
    assert!(en.contains("epoch") && en.contains("claim nowait"), "{en}");
    let zh = sim_core::design_words(&custom, Lang::Zh);
    assert!(zh.starts_with("自定义（提交检查：owner；"), "{zh}");
    assert!(zh.contains("取消推进纪元") && zh.contains("nowait"), "{zh}");
}

/// An outbox's story: a write is an intent that waits for the commit, the
/// commit that approves it says so, and an intent no commit approved was
/// never sent (issue 23.3, "dispatch only the approved intent").
#[test]
fn an_intent_is_told_with_the_commit_that_sent_it() {
    use sim_core::Lang;
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/21-approved-intent.toml"
    ))
    .unwrap();
    let scenario = sim_core::parse_scenario(text.as_bytes()).unwrap();
    let trace = sim_core::run(&scenario);
    let find = |worker: &str, action: sim_core::Action| {
        scenario
            .steps
            .iter()
            .position(|s| {
                s.action == action && s.worker.map(|w| scenario.worker_id(w)) == Some(worker)
            })
            .unwrap()
    };
    let (a_write, b_write) = (
        find("A", sim_core::Action::Write),
        find("B", sim_core::Action::Write),
    );
    let b_finish = find("B", sim_core::Action::Finish);
    let en = sim_core::describe_step(&scenario, &trace, b_write, Lang::En);
    assert!(en.contains("recorded as an intent"), "{en}");
    assert!(
        en.contains(&format!("the commit at step {b_finish} approved it")),
        "{en}"
    );
    let en = sim_core::describe_step(&scenario, &trace, a_write, Lang::En);
    assert!(en.contains("never sent"), "{en}");
    let en = sim_core::describe_step(&scenario, &trace, b_finish, Lang::En);
    assert!(
        en.contains(&format!("approved the intent of step {b_write}")),
        "{en}"
    );
    let zh = sim_core::describe_step(&scenario, &trace, b_finish, Lang::Zh);
    assert!(zh.contains(&format!("批准了第 {b_write} 步的意图")), "{zh}");
    let zh = sim_core::describe_step(&scenario, &trace, a_write, Lang::Zh);
    assert!(zh.contains("从未发出"), "{zh}");
}

/// A revise (C15): the user changes the input while A works. The step says
/// what it did; A's later finish, refused under `input_revision` and a
/// `stale_input` violation without it, names the revise as the reason, in
/// both languages, and never says "a newer generation" (there is none).
#[test]
fn a_result_after_a_revise_is_told_with_the_revise() {
    let text = |revision: bool| {
        format!(
            r#"
id = "revise"
ttl = 5
workers = ["A"]
design = {{ base = "db-conditional", input_revision = {revision} }}
steps = [
  {{ at = 0, worker = "A", do = "claim" }},
  {{ at = 1, do = "revise" }},
  {{ at = 2, worker = "A", do = "finish" }},
]
"#
        )
    };
    for revision in [true, false] {
        let scenario = sim_core::parse_scenario(text(revision).as_bytes()).unwrap();
        let trace = sim_core::run(&scenario);
        let revise = sim_core::describe_step(&scenario, &trace, 1, sim_core::Lang::En);
        assert!(revise.contains("input"), "{revise}");
        let expected = if revision {
            sim_core::Outcome::Rejected
        } else {
            sim_core::Outcome::Ok
        };
        assert_eq!(trace.steps[2].outcome, expected);
        assert_eq!(trace.should_reject, vec![2]);
        let en = sim_core::describe_step(&scenario, &trace, 2, sim_core::Lang::En);
        let zh = sim_core::describe_step(&scenario, &trace, 2, sim_core::Lang::Zh);
        assert!(
            en.contains("revised the job's input at step 1") && !en.contains("newer"),
            "{en}"
        );
        assert!(zh.contains("第 1 步修改了任务的输入"), "{zh}");
        assert!(!en.starts_with('.') && !zh.starts_with('。'), "{en} / {zh}");
        if !revision {
            let kinds: Vec<_> = trace.violations.iter().map(|v| v.kind).collect();
            assert_eq!(kinds, [sim_core::ViolationKind::StaleInput]);
            assert!(en.contains("took effect: a violation"), "{en}");
        }
    }
}
/// A worker whose claim was refused holds no generation, and the story
/// says so, not that a claim of its was rolled back (example 22b: B comes
/// after A finished the job).
#[test]
fn a_worker_never_granted_is_not_told_of_a_rollback() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/22b-input-revision-unchecked.toml"
    ))
    .unwrap();
    let scenario = sim_core::parse_scenario(text.as_bytes()).unwrap();
    let trace = sim_core::run(&scenario);
    let en = sim_core::describe_step(&scenario, &trace, 7, sim_core::Lang::En);
    let zh = sim_core::describe_step(&scenario, &trace, 7, sim_core::Lang::Zh);
    assert!(
        en.contains("B was never granted a generation") && !en.contains("rolled back"),
        "{en}"
    );
    assert!(zh.contains("B 从没领取到") && !zh.contains("回滚"), "{zh}");
}
