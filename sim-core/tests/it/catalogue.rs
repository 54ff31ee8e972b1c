//! Design exercises over the catalogue of real resources: only what a
//! resource offers may be chosen, the reconciliation list must name exactly
//! reachable targets, and the grade wants a minimal safe design. What is
//! safe or cheapest is never written here: the explorers say it first.

use serde_json::json;
use sim_core::course::{
    Answer, DesignAnswer, DesignExercise, Lesson, answer_from_json, grade, minimal_design,
    parse_lesson, worked_solution,
};
use sim_core::{CheckSet, Protect, RECONCILE_COST, ResourceKind};

const LESSON: &str = r#"
id = "catalogue"
order = 1
title = { en = "Catalogue", zh = "目录" }
summary = { en = "Real resources.", zh = "真实资源。" }
concepts = ["C08"]

[[sections]]
title = { en = "Resources", zh = "资源" }
concepts = ["C08"]
body = { en = "Each resource offers what it offers.", zh = "每个资源只提供它能提供的。" }

[[exercises]]
id = "design"
kind = "design"
concepts = ["C08"]
prompt = { en = "Design.", zh = "设计。" }
start = "db-conditional"
open = ["target_protect"]
world = { workers = 2, targets = ["own_service", "mailer", "kv_store"], gateway = true, ttl = 3 }
hints = [{ en = "a", zh = "甲" }, { en = "b", zh = "乙" }]
takeaway = { en = "t", zh = "丁" }
"#;

fn lesson() -> Lesson {
    parse_lesson(LESSON.as_bytes()).unwrap()
}

fn design(targets: [Protect; 3], reconcile: &[u8]) -> Answer {
    Answer::Design(DesignAnswer {
        target_protect: Some(targets.to_vec()),
        reconcile: reconcile.to_vec(),
        ..DesignAnswer::default()
    })
}

#[test]
fn a_protection_the_resource_does_not_offer_is_refused_by_name() {
    let lesson = lesson();
    let exercise = lesson.exercise("design").unwrap();
    let refused = answer_from_json(
        &lesson,
        exercise,
        &json!({ "target_protect": ["registered_token", "registered_token", "none"] }),
    )
    .unwrap_err();
    let message = refused.message(sim_core::Lang::En);
    assert!(
        message.contains("t2 (SMS / e-mail sender) does not offer `registered_token`"),
        "{message}"
    );
    assert!(message.contains("`none`"), "{message}");
    let unknown = answer_from_json(&lesson, exercise, &json!({ "reconcile": ["t9"] }));
    assert!(unknown.is_err());
    let read = answer_from_json(
        &lesson,
        exercise,
        &json!({ "target_protect": ["gateway", "none", "versioned"], "reconcile": ["t2"] }),
    )
    .unwrap();
    assert_eq!(
        read,
        design([Protect::Gateway, Protect::None, Protect::Versioned], &[1])
    );
}

#[test]
fn each_part_of_a_design_grade_fails_on_its_own() {
    let lesson = lesson();
    let exercise = lesson.exercise("design").unwrap();
    let facts = DesignExercise::of(&exercise.kind).unwrap();
    let minimal = minimal_design(&facts).unwrap().unwrap();
    let mut reconcile = minimal.reconcile.clone();
    // The mailer offers nothing: it can only be reconciled.
    assert!(reconcile.contains(&1));
    // Unsafe: the mailer's effects left out of reconciliation.
    reconcile.retain(|t| *t != 1);
    let targets: [Protect; 3] = minimal.targets.clone().try_into().unwrap();
    let unsafe_grade = grade(&lesson, exercise, &design(targets, &reconcile)).unwrap();
    assert!(!unsafe_grade.correct);
    assert!(unsafe_grade.counterexample.is_some());
    // The minimal design passes.
    let passed = grade(&lesson, exercise, &design(targets, &minimal.reconcile)).unwrap();
    assert!(passed.correct, "{:?}", passed.items);
    // Reconciling a target no violation reaches is wrong.
    let fenced = (0u8..3)
        .find(|t| !minimal.reconcile.contains(t))
        .expect("some target is fenced");
    let mut extra = minimal.reconcile.clone();
    extra.push(fenced);
    extra.sort_unstable();
    let needless = grade(&lesson, exercise, &design(targets, &extra)).unwrap();
    assert!(!needless.correct);
    assert!(
        needless
            .items
            .iter()
            .any(|i| !i.right && i.text.en.contains("Reconciliation list wrong"))
    );
    // Every target at its costliest offer: safe here, but not minimal, and
    // the feedback does not say which cheaper design.
    let strongest: [Protect; 3] = facts
        .resources
        .iter()
        .map(|k| k.strongest(facts.fronts))
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    let strongest_answer = DesignAnswer {
        target_protect: Some(strongest.to_vec()),
        ..DesignAnswer::default()
    };
    let needed = facts
        .reconciliation_needed(&strongest_answer)
        .unwrap()
        .unwrap();
    let costly = grade(&lesson, exercise, &design(strongest, &needed)).unwrap();
    assert!(!costly.correct);
    let said: String = costly.items.iter().map(|i| i.text.en.clone()).collect();
    assert!(said.contains("a cheaper design is also safe"), "{said}");
    for protect in &minimal.targets {
        assert!(
            !said.contains(protect.name()),
            "the minimal design is not revealed: {said}"
        );
    }
}

/// The minimal design is computed per target (targets do not interact);
/// enumerating every combination of offered protections, each with the
/// reconciliation it needs, finds the same least cost.
#[test]
fn the_minimal_cost_equals_the_cheapest_of_every_combination() {
    let lesson = lesson();
    let exercise = lesson.exercise("design").unwrap();
    let facts = DesignExercise::of(&exercise.kind).unwrap();
    let minimal = minimal_design(&facts).unwrap().unwrap();
    let offers: Vec<Vec<Protect>> = facts
        .resources
        .iter()
        .map(|k| k.offers(facts.fronts).iter().map(|o| o.protect).collect())
        .collect();
    let mut cheapest = u32::MAX;
    for a in &offers[0] {
        for b in &offers[1] {
            for c in &offers[2] {
                let answer = DesignAnswer {
                    target_protect: Some(vec![*a, *b, *c]),
                    commit_checks: Some(CheckSet::ALL),
                    ..DesignAnswer::default()
                };
                let needed = facts.reconciliation_needed(&answer).unwrap().unwrap();
                let cost = facts.cost(&facts.start, &[*a, *b, *c], &needed).unwrap();
                cheapest = cheapest.min(cost);
            }
        }
    }
    assert_eq!(minimal.cost, cheapest);
    assert!(worked_solution(&lesson, exercise).unwrap().grade.correct);
}

#[test]
fn reconciliation_costs_more_than_any_protection() {
    for kind in ResourceKind::ALL {
        for offer in kind.offers(sim_core::Fronts::ALL) {
            assert!(offer.cost < RECONCILE_COST, "{kind:?} {offer:?}");
        }
    }
}

/// The sites search visits exactly the states the exhaustive explorer
/// visits when it finds nothing: the grade's "safe" sentence counts them.
#[test]
fn the_sites_search_counts_the_explorers_states() {
    use sim_core::explore::{Method, RunToEnd, Verdict, World, explore, violation_sites};
    for preset in [sim_core::Preset::Full, sim_core::Preset::TtlLockOnly] {
        let mut world = World::preset(preset, 2);
        world.allow_cancel = true;
        let sites = violation_sites(&world).unwrap();
        let report = explore(&world, Method::Exhaustive, &mut RunToEnd).unwrap();
        if report.verdict == Verdict::Safe {
            assert_eq!(sites.states, report.stats.states);
            assert!(!sites.job_table && sites.targets == 0);
        } else {
            assert!(sites.job_table || sites.targets != 0);
            // Every site reconciled: nothing left for the explorer to count.
            world.reconciled = 0b11;
            let reconciled = explore(&world, Method::Exhaustive, &mut RunToEnd).unwrap();
            assert_eq!(
                reconciled.verdict == Verdict::Safe,
                !sites.job_table,
                "{preset:?}"
            );
        }
    }
}

/// Issue 22: one name per outcome. The page's legend, the terminal's
/// legend line, predictions and tables all say an outcome with
/// `MarkKind::words` (`outcome_label` is the same words).
#[test]
fn every_legend_says_an_outcome_in_the_same_words() {
    use sim_core::{MarkKind, Outcome};
    for lang in [sim_core::Lang::En, sim_core::Lang::Zh] {
        for outcome in Outcome::ALL {
            assert_eq!(
                sim_core::outcome_label(outcome, lang),
                MarkKind::of(outcome).words(lang)
            );
        }
        for mark in MarkKind::ALL {
            let symbol = mark.symbol().to_string();
            let item = sim_core::words::LEGEND
                .iter()
                .find(|item| item.symbol == symbol)
                .unwrap_or_else(|| panic!("{symbol} is in the page's legend"));
            let said = lang.pick(item.en, item.zh);
            assert!(
                said.contains(mark.words(lang)),
                "{symbol}: {said:?} vs {:?}",
                mark.words(lang)
            );
        }
    }
}

/// A lesson with one design exercise over our own service and a mailer,
/// a gateway and a dispatcher in front, a user who may cancel; `delays`
/// adds requests in flight.
fn dispatcher_lesson(delays: bool) -> Lesson {
    let world_delays = if delays {
        ", max_in_flight = 2, max_delay = 3"
    } else {
        ""
    };
    let text = LESSON
        .replace(
            r#"world = { workers = 2, targets = ["own_service", "mailer", "kv_store"], gateway = true, ttl = 3 }"#,
            &format!(
                r#"world = {{ workers = 2, targets = ["own_service", "mailer"], gateway = true, dispatcher = true, cancel = true, ttl = 3{world_delays} }}"#
            ),
        )
        .replace(r#"start = "db-conditional""#, r#"start = "full""#);
    parse_lesson(text.as_bytes()).unwrap()
}

/// The dispatcher checks when a request leaves. Without delays nothing
/// happens between the check and the effect, so it is enough and cheaper
/// than reconciling or an outbox; with delays a request sent before a
/// cancel lands after it, so the mailer stays on the reconciliation list,
/// and the outbox, which sends only after the commit, is the cheapest safe
/// choice. The explorers decide all three.
#[test]
fn a_dispatcher_is_enough_without_delays_and_not_with_them() {
    assert!(
        !ResourceKind::Mailer
            .offers(sim_core::Fronts {
                gateway: true,
                dispatcher: false
            })
            .iter()
            .any(|o| o.protect == Protect::SendingGateway),
        "no dispatcher unless the world has one"
    );
    let dispatched = DesignAnswer {
        target_protect: Some(vec![Protect::Gateway, Protect::SendingGateway]),
        ..DesignAnswer::default()
    };
    let instant = dispatcher_lesson(false);
    let facts = DesignExercise::of(&instant.exercise("design").unwrap().kind).unwrap();
    assert_eq!(
        facts.reconciliation_needed(&dispatched).unwrap(),
        Some(Vec::new())
    );
    let minimal = minimal_design(&facts).unwrap().unwrap();
    assert_eq!(minimal.targets[1], Protect::SendingGateway);
    assert!(minimal.reconcile.is_empty());

    let delayed = dispatcher_lesson(true);
    let exercise = delayed.exercise("design").unwrap();
    let facts = DesignExercise::of(&exercise.kind).unwrap();
    assert_eq!(
        facts.reconciliation_needed(&dispatched).unwrap(),
        Some(vec![1]),
        "a request in flight lands after the check"
    );
    // The outbox sends only what a commit approved, after it: nothing is
    // in flight at a cancel or a takeover, so nothing needs reconciling,
    // and it costs less than the dispatcher and the list.
    let minimal = minimal_design(&facts).unwrap().unwrap();
    assert_eq!(minimal.targets[1], Protect::ApprovedIntent);
    assert!(minimal.reconcile.is_empty());
    // The dispatcher with the list is safe but not minimal; without the
    // list it is broken by a request in flight.
    let with_list = grade(
        &delayed,
        exercise,
        &Answer::Design(DesignAnswer {
            reconcile: vec![1],
            ..dispatched.clone()
        }),
    )
    .unwrap();
    let said: String = with_list.items.iter().map(|i| i.text.en.clone()).collect();
    assert!(
        !with_list.correct && said.contains("a cheaper design is also safe"),
        "{said}"
    );
    let without = grade(&delayed, exercise, &Answer::Design(dispatched)).unwrap();
    assert!(!without.correct && without.counterexample.is_some());
    assert!(worked_solution(&delayed, exercise).unwrap().grade.correct);
}
