//! Issue 22 in a real terminal: at 80×24, in English and in Chinese, every
//! exercise of `lessons/` shows its whole task, and the whole feedback of
//! a try can be read by paging with the key the screen lists. tmux runs
//! the real binary (as `tmux.rs`); the learner reaches each exercise from
//! the course map by keys, hands in an answer (wrong as the keys make it:
//! one step marked or predicted, a wrong option, a design or schedule as
//! opened, a statement that claims nothing right) and pages through the
//! panel with PgDn, which the help lists.
//!
//! The texts looked for come from sim-core at run time: a `CourseSession`
//! over the same lessons and progress opens the exercise and grades the
//! same answer the keys make, and its screen gives the task and feedback.
//! The in-process counterpart (through `TestBackend`) is
//! `every_exercise_task_and_feedback_can_be_read_at_80x24` in
//! `tui/src/app/tests.rs`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sim_core::Lang;
use sim_core::course::{
    Act, Answer, CourseSession, Edit, ExerciseKind, ExerciseScreen, FeedbackView, Lesson, Progress,
    SqlAnswer,
};
use sim_core::words::{keys as said, terminal as words};

use super::tmux::{Tmux, lessons, open_exercise_by_keys, start_with_progress};

/// The quiz seed of every session's progress, so a quiz shows its options
/// in the same order in the app and in the test's session.
const SEED: u32 = 7;

/// How many apps run at once, each in a tmux server of its own: most of a
/// session is waiting for a redraw, so a few overlap well on two cores.
const SESSIONS_AT_ONCE: usize = 5;

/// How long a screen must stay as it is after a key for the panel to count
/// as at its end (a redraw takes far less, also on a loaded machine).
const STILL: Duration = Duration::from_secs(1);

/// The wrong statement a SQL exercise is given in every slot: the box
/// runs it (an `UPDATE` of the job's row with the lab's parameters), and
/// it claims, renews and finishes nothing as it should.
const WRONG_SQL: &str = "UPDATE jobs SET owner = :owner WHERE id = :job";

/// One exercise in one language.
struct Case<'a> {
    lesson: &'a Lesson,
    exercise: usize,
    lang: Lang,
}

impl Case<'_> {
    /// `lesson/exercise (en)`, for failure messages.
    fn place(&self) -> String {
        let exercise = &self.lesson.exercises[self.exercise];
        format!("{}/{} ({})", self.lesson.id, exercise.id, self.lang.code())
    }
}

#[test]
fn every_exercise_task_and_feedback_can_be_read_at_80x24_in_a_real_terminal() {
    let lessons = lessons();
    let cases: Vec<Case> = lessons
        .iter()
        .flat_map(|lesson| {
            (0..lesson.exercises.len()).flat_map(move |exercise| {
                [Lang::En, Lang::Zh].map(|lang| Case {
                    lesson,
                    exercise,
                    lang,
                })
            })
        })
        .collect();
    assert!(!cases.is_empty(), "lessons/ has exercises");
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..SESSIONS_AT_ONCE {
            scope.spawn(|| {
                while let Some(case) = cases.get(next.fetch_add(1, Ordering::Relaxed)) {
                    // Each case fails on its own, so one run lists them all.
                    let read = catch_unwind(AssertUnwindSafe(|| read_exercise(&lessons, case)));
                    if let Err(panic) = read {
                        let why = panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                            .unwrap_or_default();
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{}: {why}", case.place()));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} exercise screens cannot be read whole (all read in {:.0?}):\n\n{}",
        failures.len(),
        cases.len(),
        started.elapsed(),
        failures.join("\n\n")
    );
}

/// One case from the course map to the end of its feedback.
fn read_exercise(lessons: &[Lesson], case: &Case) {
    let (lesson, lang) = (case.lesson, case.lang);
    let exercise = &lesson.exercises[case.exercise];
    let progress = Progress {
        lang,
        seed: Some(SEED),
        ..Progress::default()
    };
    let mut session = CourseSession::new(lessons.to_vec(), progress.clone());
    session.set_lang(lang);
    let opened = session
        .act(&lesson.id, &exercise.id, &Act::Open, lang)
        .unwrap();

    let (tmux, _dir) = start_with_progress(&progress);
    open_by_keys(&tmux, lessons, case, &opened);

    // 1. The whole task, no `…` cut.
    let screen = stable_screen(&tmux);
    let task = squeezed(&opened.task);
    assert!(
        squeezed(&screen).contains(&task),
        "the task is not shown whole: {:?}; the screen shows:\n{screen}",
        opened.task
    );

    // 2. A try, the same in the app and in the session.
    let graded = hand_in_a_try(&tmux, &mut session, case, &opened);
    let feedback = graded
        .feedback
        .as_ref()
        .unwrap_or_else(|| panic!("the session shows no feedback after the try"));
    let standing = graded.standing_label.clone();
    // The try graded on a design runs the explorers: give it time.
    tmux.wait_within(Duration::from_secs(60), |s| s.contains(&standing))
        .unwrap_or_else(|screen| {
            panic!("the try was not graded ({standing:?} never shown); the screen shows:\n{screen}")
        });

    // 3. The page key is listed, and paging shows the whole feedback.
    assert_page_key_listed(&tmux, lang);
    let panel = paged_panel(&tmux);
    let seen = squeezed(&panel.join("\n"));
    for text in feedback_texts(feedback) {
        assert!(
            seen.contains(&squeezed(text)),
            "never shown while paging with PgDn: {text:?}; the panel paged through reads:\n{}",
            panel.join("\n")
        );
    }
}

/// From the course map to the exercise by keys, as a learner goes.
/// Returns once its screen is drawn.
fn open_by_keys(tmux: &Tmux, lessons: &[Lesson], case: &Case, opened: &ExerciseScreen) {
    let (lesson, lang) = (case.lesson, case.lang);
    let row = lessons
        .iter()
        .position(|l| l.id == lesson.id)
        .expect("the case's lesson is one of the lessons");
    let first = lessons[0].title.get(lang).to_owned();
    tmux.wait_for("the course map", |s| s.contains(&first));
    open_exercise_by_keys(tmux, row, lesson, case.exercise);
    // The header names the lesson and level; the task's section, the kind.
    let level = lesson.level_of(case.exercise);
    let levels = lesson.sections.len().max(1);
    let header = words::exercise_header(lesson.order, level + 1, levels, "", lang);
    let header = header.trim_end().to_owned();
    let kind = format!(" {} ─", opened.kind_label);
    tmux.wait_for("the exercise", |s| {
        s.lines().next().is_some_and(|l| l.contains(&header)) && s.contains(&kind)
    });
}

/// Hands in a try by keys and the same answer in `session`; returns the
/// session's screen after it. Mark, predict and quiz refuse an empty
/// answer uncounted, so one item is chosen first: the step Tab reaches
/// from the first, an option that is wrong. Design and break hand in the
/// editor's answer as opened; SQL a wrong statement in every slot (an
/// empty slot or a `SELECT` is refused ungraded).
fn hand_in_a_try(
    tmux: &Tmux,
    session: &mut CourseSession,
    case: &Case,
    opened: &ExerciseScreen,
) -> ExerciseScreen {
    let (lesson, lang) = (&case.lesson.id, case.lang);
    let exercise = &case.lesson.exercises[case.exercise];
    let id = &exercise.id;
    let mut choose = |item: u32, value: Option<&str>| {
        let edit = Edit::Choose {
            item,
            value: value.map(str::to_owned),
        };
        session.act(lesson, id, &Act::Edit { edit }, lang).unwrap();
    };
    match &exercise.kind {
        ExerciseKind::Mark { .. } | ExerciseKind::Predict { .. } => {
            // Home is step 0; Tab goes to the first asked step after the
            // cursor, else wraps to the first.
            let asked: Vec<u32> = opened.items.iter().map(|item| item.index).collect();
            let step = asked
                .iter()
                .copied()
                .find(|step| *step > 0)
                .or_else(|| asked.first().copied())
                .expect("the exercise asks about a step");
            let choosing = opened.choosing.as_ref().expect("items are chosen");
            let (key, value) = match choosing.choices.first() {
                // A prediction: the first outcome offered.
                Some(choice) if matches!(exercise.kind, ExerciseKind::Predict { .. }) => {
                    (choice.key.to_string(), Some(choice.value))
                }
                _ => ("m".to_owned(), None),
            };
            choose(step, value);
            tmux.send(&["Home", "Tab", &key, "Enter"]);
        }
        ExerciseKind::Quiz { options, .. } => {
            // The first option shown that is wrong, by its number on screen.
            let at = opened
                .items
                .iter()
                .position(|item| !options[item.index as usize].correct)
                .unwrap_or(0);
            choose(opened.items[at].index, None);
            tmux.send(&[&(at + 1).to_string(), "Enter"]);
        }
        ExerciseKind::Design { .. } | ExerciseKind::Break { .. } => tmux.send(&["Enter"]),
        ExerciseKind::Sql { slots, .. } => {
            let statements = slots
                .iter()
                .map(|slot| (*slot, WRONG_SQL.to_owned()))
                .collect();
            let plan = session.sql_plan(lesson, id).unwrap();
            let run = sqlbox::battery::run(&plan, &statements);
            let answer = Answer::Sql(SqlAnswer {
                statements,
                run: Some(run),
            });
            type_wrong_sql(tmux, slots.len(), lang);
            return session.hand_in(lesson, id, &answer, lang).unwrap();
        }
    }
    session
        .act(lesson, id, &Act::HandIn { answer: None }, lang)
        .unwrap()
}

/// `e`, the wrong statement into each slot (Tab to the next), Esc, then
/// Enter runs the cases.
fn type_wrong_sql(tmux: &Tmux, slots: usize, lang: Lang) {
    let editing = format!("e {}", said::EDIT.get(lang));
    let typing = format!("Esc {}", said::DONE_TYPING.get(lang));
    tmux.send(&["e"]);
    tmux.wait_for("typing", |s| s.contains(&typing));
    for slot in 0..slots {
        if slot > 0 {
            tmux.send(&["Tab"]);
        }
        tmux.type_text(WRONG_SQL);
    }
    tmux.wait_for("the statement typed", |s| s.contains(WRONG_SQL));
    // Esc alone (an Esc followed at once by a key reads as Alt+key).
    tmux.send(&["Escape"]);
    tmux.wait_for("typing stopped", |s| s.contains(&editing));
    tmux.send(&["Enter"]);
}

/// The footer or, when it has no room for it, the help (`?`, scrolled
/// with ↓ as its own line says) lists the page key.
fn assert_page_key_listed(tmux: &Tmux, lang: Lang) {
    let screen = stable_screen(tmux);
    if footer(&screen).contains("PgDn") {
        return;
    }
    let title = format!("┌ {} ", words::HELP_TITLE.get(lang));
    tmux.send(&["?"]);
    let mut help = tmux.wait_for("the help", |s| s.contains(&title));
    let mut seen = help.clone();
    let closes = words::HELP_CLOSES.get(lang);
    while !help.contains("PgDn") && !help.contains(closes) {
        tmux.send(&["Down"; 10]);
        match changed(tmux, &help) {
            Some(next) => help = next,
            None => break,
        }
        seen.push_str(&help);
    }
    assert!(
        seen.contains("PgDn"),
        "neither the footer nor the help lists PgDn; the help reads:\n{seen}"
    );
    tmux.send(&["?"]);
    tmux.wait_for("the help closed", |s| !s.contains(&title));
}

/// The bottom panel paged through with PgDn until it stops changing: its
/// rows, the pages laid over one another where they overlap.
fn paged_panel(tmux: &Tmux) -> Vec<String> {
    let mut screen = stable_screen(tmux);
    let mut whole = panel_rows(&screen);
    // A panel of more pages than this is a bug of its own.
    for _ in 0..40 {
        tmux.send(&["PgDn"]);
        let Some(next) = changed(tmux, &screen) else {
            return whole;
        };
        screen = next;
        let page = panel_rows(&screen);
        let overlap = (0..=page.len().min(whole.len()))
            .rev()
            .find(|n| whole[whole.len() - n..] == page[..*n])
            .unwrap_or(0);
        whole.extend_from_slice(&page[overlap..]);
    }
    panic!("PgDn never reached the panel's end; the screen shows:\n{screen}")
}

/// The screen once it differs from `before` and holds still, or `None`
/// when it stays as it was for [`STILL`].
fn changed(tmux: &Tmux, before: &str) -> Option<String> {
    tmux.wait_within(STILL, |s| s != before).ok()?;
    Some(stable_screen(tmux))
}

/// The screen once two captures a moment apart agree (a capture may land
/// while a frame is drawn).
fn stable_screen(tmux: &Tmux) -> String {
    let mut last = tmux.screen();
    loop {
        std::thread::sleep(Duration::from_millis(40));
        let now = tmux.screen();
        if now == last {
            return now;
        }
        last = now;
    }
}

/// The screen's last line: the keys, or the app's answer to the last one.
fn footer(screen: &str) -> &str {
    screen.lines().last().unwrap_or_default()
}

/// The rows of the exercise's bottom panel: under its title line (the
/// last section's top: a rule of `─`, ending the line or before the
/// panel's "more" marker) down to the footer.
fn panel_rows(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let footer = lines.len().saturating_sub(1);
    let title = lines[..footer]
        .iter()
        .rposition(|line| {
            let line = line.trim_end();
            let markers = [words::MORE_BELOW_PGDN, words::MORE_ABOVE_PGUP];
            let marker = (markers.iter().flat_map(|w| [w.en, w.zh]))
                .find_map(|m| line.strip_suffix(m.trim_end()));
            marker.unwrap_or(line).trim_end().ends_with('─')
        })
        .unwrap_or_else(|| panic!("no panel title line on the screen:\n{screen}"));
    lines[title + 1..footer]
        .iter()
        .map(|line| line.trim_end().to_owned())
        .collect()
}

/// Every text of a try's feedback: its head, summary, items and takeaway.
fn feedback_texts(feedback: &FeedbackView) -> Vec<&str> {
    let mut texts = vec![feedback.head.as_str(), feedback.summary.as_str()];
    texts.extend(feedback.items.iter().map(|item| item.text.as_str()));
    texts.extend(feedback.takeaway.as_deref());
    texts.retain(|text| !text.trim().is_empty());
    texts
}

/// `text` without whitespace (wrapping moves it) or the markup (`` ` ``
/// and `**`) the terminal may draw as style instead.
fn squeezed(text: &str) -> String {
    text.replace("**", "")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '`')
        .collect()
}
