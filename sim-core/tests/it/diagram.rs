//! The space-time diagram both front ends draw: columns, gaps and tick
//! labels, lease bars and how they end, and what a [`Reveal`] leaves out.

use sim_core::{ColumnKind, Diagram, LaneKind, Lang, LeaseEnd, MarkKind, Reveal, Scenario, Trace};

fn run(text: &str) -> (Scenario, Trace) {
    let scenario = sim_core::parse_scenario(text.as_bytes()).unwrap();
    let trace = sim_core::run(&scenario);
    (scenario, trace)
}

/// A pauses past its lease, B takes the job, A resumes and finishes stale.
const STALE: &str = r#"
id = "t"
ttl = 5
workers = ["A", "B"]
design = "ttl-lock-only"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "pause" },
  { at = 6, worker = "B", do = "claim" },
  { at = 7, worker = "A", do = "resume" },
  { at = 7, worker = "A", do = "finish" },
  { at = 8, worker = "B", do = "finish" },
]
"#;

fn labels(diagram: &Diagram) -> Vec<(usize, &str)> {
    diagram
        .tick_labels
        .iter()
        .map(|l| (l.column, l.text.as_str()))
        .collect()
}

#[test]
fn a_column_per_step_and_quiet_tick_and_one_label_per_tick() {
    let (scenario, trace) = run(STALE);
    let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    let kinds: Vec<ColumnKind> = diagram.columns.iter().map(|c| c.kind).collect();
    use ColumnKind::{Quiet, Step};
    assert_eq!(
        kinds,
        [
            Step { step: 0 },
            Step { step: 1 },
            Quiet,
            Quiet,
            Quiet,
            Quiet, // tick 5: A's lease expires
            Step { step: 2 },
            Step { step: 3 },
            Step { step: 4 }, // the same tick as step 3: a column of its own
            Step { step: 5 },
            Quiet, // the tick after the last step
        ]
    );
    let ticks: Vec<u64> = diagram.columns.iter().map(|c| c.tick).collect();
    assert_eq!(ticks, [0, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9]);
    // Tick 7 is labelled once, over its first column.
    assert_eq!(
        labels(&diagram),
        [
            (0, "0"),
            (1, "1"),
            (2, "2"),
            (3, "3"),
            (4, "4"),
            (5, "5"),
            (6, "6"),
            (7, "7"),
            (9, "8"),
            (10, "9")
        ]
    );
    assert_eq!(diagram.step_column(4), 8);
}

#[test]
fn lanes_leases_and_pauses() {
    let (scenario, trace) = run(STALE);
    let diagram = Diagram::new(&scenario, &trace, Lang::Zh, &Reveal::Everything);
    let kinds: Vec<LaneKind> = diagram.lanes.iter().map(|l| l.kind).collect();
    assert_eq!(
        kinds,
        [
            LaneKind::Lease,
            LaneKind::Worker,
            LaneKind::Lease,
            LaneKind::Worker,
            LaneKind::Jobs
        ]
    );
    assert!(
        diagram.lanes[4].label.starts_with("任务 "),
        "{:?}",
        diagram.lanes[4]
    );
    let [first, second] = diagram.leases.as_slice() else {
        panic!("{:?}", diagram.leases);
    };
    assert_eq!((first.lane, first.generation, first.until), (0, 1, 5));
    // A's lease expires at tick 5 (before B's claim replaced it).
    assert_eq!((first.start_column, first.end_column), (0, 5));
    assert_eq!(first.end, LeaseEnd::Expired);
    // B's ends after A's stale finish's column: that finish ended the job.
    assert_eq!((second.lane, second.start_column), (2, 6));
    assert_eq!((second.end_column, second.end), (9, LeaseEnd::Ended));
    // A sleeps from after its pause to its resume.
    assert_eq!(diagram.idle.len(), 1);
    let idle = diagram.idle[0];
    assert_eq!((idle.lane, idle.from_column, idle.to_column), (1, 2, 7));
    assert!(!idle.crashed);
    assert_eq!(idle.words, "已暂停");
    assert_eq!(first.words, "A：任务 r 的租约，第 1 代，到 5 —— 已到期");
    let english = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    assert_eq!(
        english.leases[1].words,
        "B: lease on r, generation 2, until 11 — the job ended"
    );
    assert_eq!(english.idle[0].words, "paused");
    let finish = &diagram.steps[4];
    assert_eq!(
        (finish.glyph, finish.actor, finish.resource),
        ('F', Some(1), Some(4))
    );
    assert_eq!(finish.word, "提交完成（finish）");
    assert_eq!((finish.mark, finish.symbol), (MarkKind::Violation, '‼'));
    assert_eq!(finish.row.as_ref().map(|r| r.state), Some("done"));
}

#[test]
fn long_quiet_runs_become_one_gap() {
    let (scenario, trace) = run(r#"
        id = "t"
        ttl = 5
        workers = ["A"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 900000000, worker = "A", do = "finish" },
        ]
        "#);
    let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    assert_eq!(
        labels(&diagram),
        [
            (0, "0"),
            (1, "⋯"),
            (2, "5"),
            (3, "⋯"),
            (4, "900000000"),
            (5, "900000001")
        ]
    );
    assert_eq!(diagram.columns[1].kind, ColumnKind::Gap { to: 4 });
    assert_eq!(diagram.columns[3].kind, ColumnKind::Gap { to: 899_999_999 });
    assert_eq!(
        diagram.column_of_tick(1000),
        3,
        "a tick inside a gap is the gap"
    );
    // Three quiet ticks stay three columns.
    let (scenario, trace) = run(r#"
        id = "t"
        ttl = 5
        workers = ["A"]
        steps = [
          { at = 0, worker = "A", do = "check" },
          { at = 4, worker = "A", do = "check" },
        ]
        "#);
    let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    assert_eq!(diagram.columns.len(), 6);
    assert!(diagram.tick_labels.iter().all(|l| !l.gap));
}

#[test]
fn a_lease_past_the_end_is_clipped() {
    let (scenario, trace) = run(r#"
        id = "t"
        ttl = 10
        workers = ["A"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "A", do = "renew" },
        ]
        "#);
    let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    // No column for tick 11: it is more than the slack past the last step.
    assert_eq!(diagram.columns.len(), 3);
    let lease = &diagram.leases[0];
    assert_eq!((lease.end, lease.end_column), (LeaseEnd::Beyond, 3));
    assert_eq!(lease.until, 11);
}

#[test]
fn hidden_steps_are_absent_not_blanked() {
    let (scenario, trace) = run(STALE);
    let everything = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    let hidden = Diagram::new(&scenario, &trace, Lang::En, &Reveal::NotTheseSteps(vec![2]));
    // B's claim: no result, no row, no lease it granted.
    let claim = &hidden.steps[2];
    assert_eq!((claim.mark, claim.symbol), (MarkKind::Hidden, '?'));
    assert!(claim.row.is_none());
    assert!(
        claim.narration.contains("What will it do?"),
        "{}",
        claim.narration
    );
    assert_eq!(hidden.leases.len(), 1);
    assert_eq!(everything.leases.len(), 2);
    // Verdicts hide with it; the other steps keep their outcomes.
    assert_eq!(hidden.steps[4].mark, MarkKind::Ok);
    assert!(hidden.steps[4].row.is_some());
    let json = serde_json::to_value(&hidden).unwrap_or_default();
    assert!(
        json["steps"][2].get("row").is_none(),
        "{}",
        json["steps"][2]
    );
    assert_eq!(json["steps"][2]["mark"], "hidden");
    assert!(!json.to_string().contains('‼'));
    assert!(!json.to_string().contains("had to be refused"));
}

#[test]
fn no_verdicts_keeps_outcomes_and_drops_the_verdict() {
    let (scenario, trace) = run(STALE);
    let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::NoVerdicts);
    assert_eq!(diagram.steps[4].mark, MarkKind::Ok);
    assert!(diagram.steps.iter().all(|s| s.mark != MarkKind::Violation));
    assert!(!diagram.steps[4].narration.contains("had to be refused"));
    let shown = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    assert!(
        shown.steps[4].narration.contains("had to be refused"),
        "{}",
        shown.steps[4].narration
    );
}

#[test]
fn an_empty_scenario_has_a_column_and_no_steps() {
    let scenario = Scenario::new("empty", 5, &["A"]);
    let trace = sim_core::run(&scenario);
    let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    assert!(diagram.steps.is_empty() && diagram.leases.is_empty());
    assert_eq!(diagram.columns.len(), 2);
}

/// What every diagram must hold, whatever the scenario: every step in its
/// own step column, lanes that exist, leases and idle runs inside the
/// columns, labels in column order, and nothing of a hidden step's result.
fn check_invariants(name: &str, scenario: &Scenario, trace: &Trace, reveal: &Reveal) {
    let diagram = Diagram::new(scenario, trace, Lang::En, reveal);
    let columns = diagram.columns.len();
    let lanes = diagram.lanes.len();
    assert_eq!(diagram.steps.len(), scenario.steps.len(), "{name}");
    for (index, step) in diagram.steps.iter().enumerate() {
        let column = diagram.columns.get(step.column).map(|c| c.kind);
        assert_eq!(
            column,
            Some(ColumnKind::Step { step: index }),
            "{name} #{index}"
        );
        assert!(step.actor.is_none_or(|l| l < lanes), "{name} #{index}");
        assert!(step.resource.is_none_or(|l| l < lanes), "{name} #{index}");
        if !reveal.shows_step(index) {
            assert_eq!(step.mark, MarkKind::Hidden, "{name} #{index}");
            assert!(step.row.is_none(), "{name} #{index}");
        }
        if !reveal.shows_verdicts() {
            assert_ne!(step.mark, MarkKind::Violation, "{name} #{index}");
        }
    }
    // Columns run forward in time; steps appear in order.
    assert!(
        diagram.columns.windows(2).all(|w| w[0].tick <= w[1].tick),
        "{name}"
    );
    for lease in &diagram.leases {
        assert!(lease.lane < lanes, "{name}");
        assert!(lease.start_column <= lease.end_column, "{name} {lease:?}");
        assert!(lease.end_column <= columns, "{name} {lease:?}");
        let claim = diagram.columns[lease.start_column].kind;
        let ColumnKind::Step { step } = claim else {
            panic!("{name}: a lease starts off a step: {lease:?}");
        };
        assert!(reveal.shows_step(step), "{name}: a hidden claim's lease");
    }
    for idle in &diagram.idle {
        assert!(
            idle.lane < lanes && idle.to_column <= columns,
            "{name} {idle:?}"
        );
    }
    assert!(
        diagram
            .tick_labels
            .windows(2)
            .all(|w| w[0].column < w[1].column),
        "{name}"
    );
}

/// Every reveal of a scenario: everything, no verdicts, and each step hidden.
fn every_reveal(name: &str, scenario: &Scenario) {
    let trace = sim_core::run(scenario);
    check_invariants(name, scenario, &trace, &Reveal::Everything);
    check_invariants(name, scenario, &trace, &Reveal::NoVerdicts);
    let all: Vec<u32> = (0..scenario.steps.len() as u32).collect();
    check_invariants(name, scenario, &trace, &Reveal::NotTheseSteps(all));
    for step in 0..scenario.steps.len() as u32 {
        check_invariants(name, scenario, &trace, &Reveal::NotTheseSteps(vec![step]));
    }
}

#[test]
fn every_example_and_lesson_scenario_lays_out() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seen = 0;
    for entry in std::fs::read_dir(root.join("examples")).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let scenario = sim_core::parse_scenario(&bytes).unwrap();
        every_reveal(&path.display().to_string(), &scenario);
        seen += 1;
    }
    for entry in std::fs::read_dir(root.join("lessons")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let lesson = sim_core::course::parse_lesson(&bytes).unwrap();
        for (name, scenario) in &lesson.scenarios {
            every_reveal(&format!("{} {name}", path.display()), scenario);
            seen += 1;
        }
    }
    assert!(seen > 20, "only {seen} scenarios");
}

/// Random schedules of two workers, a job table and two targets (one
/// fenced, one not), with pauses, crashes and the user's cancels: every
/// one lays out under every reveal.
#[test]
fn random_schedules_lay_out() {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    const ACTIONS: [&str; 9] = [
        "claim", "renew", "write", "finish", "fail", "pause", "resume", "crash", "cancel",
    ];
    let config = Config {
        cases: 200,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        ..Config::default()
    };
    let seed = *b"fencelab-diagram-fixed-seed-0001";
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let step = (0u64..9, 0usize..2, 0usize..ACTIONS.len(), 0usize..2);
    let strategy = (1u64..8, proptest::collection::vec(step, 0..14));
    let parsed = std::cell::Cell::new(0u32);
    let result = runner.run(&strategy, |(ttl, steps)| {
        let mut at = 0;
        let mut lines = String::new();
        for (gap, worker, action, target) in steps {
            at += gap;
            let action = ACTIONS[action];
            let who = if action == "cancel" {
                String::new()
            } else {
                format!(", worker = \"{}\"", ["A", "B"][worker])
            };
            let target = if action == "write" {
                format!(", target = \"{}\"", ["ledger", "report"][target])
            } else {
                String::new()
            };
            lines += &format!("  {{ at = {at}{who}, do = \"{action}\"{target} }},\n");
        }
        let text = format!(
            "id = \"r\"\nttl = {ttl}\nworkers = [\"A\", \"B\"]\ndesign = \"fenced-highest-seen\"\n\
             steps = [\n{lines}]\n\n[[targets]]\nid = \"ledger\"\n\n[[targets]]\nid = \"report\"\nprotect = \"none\"\n"
        );
        // Some schedules are not valid scenarios (a resume with no pause):
        // the parser's business, not the diagram's.
        if let Ok(scenario) = sim_core::parse_scenario(text.as_bytes()) {
            every_reveal(&text, &scenario);
            parsed.set(parsed.get() + 1);
        }
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
    assert!(
        parsed.get() >= 100,
        "only {} schedules parsed",
        parsed.get()
    );
}

fn example(name: &str) -> (Scenario, Trace) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name);
    run(&std::fs::read_to_string(path).unwrap())
}

/// A request that travels is an arrow from the sender's lane at the send
/// to the target's lane at the arrival, with words for both ends and for
/// where it is checked.
#[test]
fn a_request_in_flight_links_its_send_and_its_arrival() {
    let (scenario, trace) = example("17-request-in-flight-sending-gateway.toml");
    let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    let [flight] = diagram.flights.as_slice() else {
        panic!("one flight: {:?}", diagram.flights);
    };
    assert_eq!((flight.send_step, flight.deliver_step), (1, Some(3)));
    assert_eq!(flight.from_column, diagram.step_column(1));
    assert_eq!(flight.to_column, diagram.step_column(3));
    assert!(flight.from_column < flight.to_column);
    assert_eq!(flight.from_lane, diagram.steps[1].actor);
    assert_eq!(flight.to_lane, diagram.steps[3].resource);
    assert_eq!(
        diagram.lanes[flight.to_lane.unwrap()].kind,
        LaneKind::Target
    );
    assert_eq!(flight.checked, sim_core::CheckedAt::Send);
    // B's takeover at 6 came while it travelled.
    assert_eq!(flight.reconcile, Some(true));
    for said in [
        "A's request `a-refund`",
        "tick 4",
        "tick 9",
        "sending gateway",
        "reconciliation",
    ] {
        assert!(flight.words.contains(said), "{said}: {}", flight.words);
    }
    assert_eq!(diagram.flight_of_step(3), Some(flight));
    assert_eq!(diagram.flight_of_step(2), None);
    let zh = Diagram::new(&scenario, &trace, Lang::Zh, &Reveal::Everything);
    assert!(
        zh.flights[0].words.contains("对账"),
        "{}",
        zh.flights[0].words
    );

    // At a registered token the check is made on arrival.
    let (scenario, trace) = example("17b-request-in-flight-registered.toml");
    let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    assert_eq!(diagram.flights[0].checked, sim_core::CheckedAt::Arrival);
    assert!(diagram.flights[0].words.contains("when it arrives"));
}

/// Whether a flight is listed for reconciliation is a verdict; whether a
/// hidden send left at all is its result: neither shows early.
#[test]
fn a_flight_tells_nothing_the_reveal_hides() {
    let (scenario, trace) = example("17c-request-in-flight-cancel.toml");
    let shown = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    assert_eq!(shown.flights[0].reconcile, Some(true));
    let no_verdicts = Diagram::new(&scenario, &trace, Lang::En, &Reveal::NoVerdicts);
    assert_eq!(no_verdicts.flights.len(), 1);
    assert_eq!(no_verdicts.flights[0].reconcile, None);
    assert!(!no_verdicts.flights[0].words.contains("reconciliation"));
    let send_hidden = Diagram::new(&scenario, &trace, Lang::En, &Reveal::NotTheseSteps(vec![1]));
    assert!(send_hidden.flights.is_empty());
    // The arrival hidden: the arrow shows (when it arrives is the
    // scenario's), what the target did there does not.
    let arrival_hidden = Diagram::new(&scenario, &trace, Lang::En, &Reveal::NotTheseSteps(vec![3]));
    assert_eq!(arrival_hidden.flights.len(), 1);
    assert_eq!(arrival_hidden.steps[3].mark, MarkKind::Hidden);
}

/// A request never delivered runs to the end of the diagram.
#[test]
fn a_request_never_delivered_is_in_flight_at_the_end() {
    let (scenario, trace) = run(r#"
id = "t"
ttl = 5
workers = ["A"]
design = "sending-gateway"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 2, worker = "A", do = "write", target = "t", request = "r" },
]

[[targets]]
id = "t"
"#);
    let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
    assert_eq!(diagram.flights[0].deliver_step, None);
    assert_eq!(diagram.flights[0].to_column, diagram.columns.len());
    assert!(diagram.flights[0].words.contains("still in flight"));
}

/// Issue 22: a target lane's second line names its protection in the
/// learner's words, never the format's id (`sending_gateway`).
#[test]
fn a_target_lane_names_its_protection_in_words() {
    let text = r#"
id = "lanes"
ttl = 5
workers = ["A"]
targets = [
  { id = "t1", protect = "sending_gateway" },
  { id = "t2", protect = "highest_token" },
  { id = "t3", protect = "registered_token" },
  { id = "t4", protect = "idempotency_key" },
]
steps = [{ at = 0, worker = "A", do = "claim" }]
"#;
    let (scenario, trace) = run(text);
    for lang in [Lang::En, Lang::Zh] {
        let diagram = Diagram::new(&scenario, &trace, lang, &Reveal::Everything);
        let subs: Vec<&str> = diagram
            .lanes
            .iter()
            .filter(|lane| lane.kind == LaneKind::Target)
            .filter_map(|lane| lane.sub)
            .collect();
        assert_eq!(subs.len(), 4, "{subs:?}");
        for (sub, target) in subs.iter().zip(&scenario.targets) {
            assert!(!sub.contains('_'), "{sub}");
            assert_eq!(*sub, sim_core::protect_short(target.protect, lang));
        }
    }
}
