//! Practice in a real terminal (issue 24): at 80×24 a learner opens
//! Practice from the course map with `r`, answers the round wrong, then
//! right, draws the next round with `n` (another timeline), and the review
//! shows the round counted. The key is computed at run time by a
//! `CourseSession` over the same lessons and progress, which draws the same
//! round from the same seed.

use sim_core::Lang;
use sim_core::course::{CourseSession, MarkKey, Progress, mark_keys};

use super::tmux::{lessons, start_with_progress};

/// The timeline's rows of a screen: from the tick axis to the legend.
fn timeline(screen: &str) -> String {
    screen
        .lines()
        .skip_while(|line| !line.starts_with("tick"))
        .take_while(|line| !line.contains("took effect  C claim"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_learner_practises_wrong_then_right_then_draws_the_next_round() {
    let progress = Progress {
        seed: Some(21),
        lang: Lang::En,
        ..Progress::default()
    };
    let mut session = CourseSession::new(lessons(), progress.clone());
    let key = session.open_next_practice("01-liveness-vs-safety").unwrap();
    let lesson = session.open_round_lesson().unwrap();
    let sim_core::course::ExerciseKind::Mark { candidates, .. } = &lesson.exercises[0].kind else {
        panic!("a round is a mark exercise");
    };
    let keys = mark_keys(&lesson.scenarios[0].1, candidates);
    assert!(keys.iter().any(|(_, k)| *k == MarkKey::MustAllow));

    let (tmux, _dir) = start_with_progress(&progress);
    tmux.wait_for("the course map", |s| s.contains("Lessons"));
    tmux.send(&["r"]);
    let first = tmux.wait_for("the first round", |s| {
        s.contains(&format!(
            "Practice 1 · round {} · level {}/4",
            key.round + 1,
            key.level
        ))
    });
    // Wrong: every candidate marked, a step that must be allowed among them.
    for _ in &keys {
        tmux.send(&["Tab", "m"]);
    }
    tmux.send(&["Enter"]);
    tmux.wait_for("a wrong try", |s| s.contains("✗ tried · 1 try"));
    // Right: Tab wraps to the first candidate; unmark every step the key
    // does not say must be refused.
    for (_, key) in &keys {
        tmux.send(&["Tab"]);
        if *key != MarkKey::MustRefuse {
            tmux.send(&["m"]);
        }
    }
    tmux.send(&["Enter"]);
    let solved = tmux.wait_for("the round solved", |s| {
        s.contains("✓ solved · 2 tries") && s.contains("n next round")
    });
    assert!(solved.contains("streak 0 · 0/1 right"), "{solved}");
    tmux.send(&["n"]);
    let second = tmux.wait_for("the next round", |s| s.contains("round 2 ·"));
    assert_ne!(timeline(&first), timeline(&second), "{first}\n{second}");
    tmux.send(&["Escape", "p"]);
    tmux.wait_for("the review's practice lines", |s| {
        s.contains("1 round in all") && s.contains("right at the first try")
    });
}
