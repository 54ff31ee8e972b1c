//! An entry for the test that drives both front ends through the course
//! session (`tests/it/front_ends.rs`): the terminal app at a fixed size,
//! changed only by key presses through the real `message_for_key` and
//! `update`, and read back as the exercise screen shows it. Not an
//! interface for anything else.

pub use ratatui::crossterm::event::KeyCode;
use ratatui::crossterm::event::{KeyEvent, KeyEventKind, KeyModifiers};
use sim_core::Reveal;
use sim_core::course::{Answer, CourseSession, ExerciseScreen, Feedback, Grade, Lesson, Progress};

use crate::app::model::{App, Screen, Work};
use crate::app::theme::Theme;
use crate::app::update::{Message, message_for_key, update};
use crate::app::view;

/// The terminal app with a learner at the keys.
#[derive(Debug)]
pub struct Learner {
    app: App,
}

impl Learner {
    /// The course over `lessons`, with fresh progress, at 80×24.
    pub fn new(lessons: Vec<Lesson>) -> Learner {
        Learner::with_progress(lessons, Progress::default())
    }

    /// The course over `lessons` with `progress` (e.g. a quiz seed), at 80×24.
    pub fn with_progress(lessons: Vec<Lesson>, progress: Progress) -> Learner {
        let mut app = App::course(lessons, progress, Theme { color: false });
        update(
            &mut app,
            Message::Resize {
                width: 80,
                height: 24,
            },
        );
        Learner { app }
    }

    /// One key press, as the terminal would report it.
    pub fn key(&mut self, code: KeyCode) {
        let event = KeyEvent {
            code,
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Press,
            state: ratatui::crossterm::event::KeyEventState::NONE,
        };
        if let Some(message) = message_for_key(&self.app, event) {
            update(&mut self.app, message);
        }
        // A SQL exercise's statements run at once, where the app would run
        // them on a thread and grade them when they finish.
        crate::app::sql_run::settle(&mut self.app);
    }

    fn keys(&mut self, code: KeyCode, times: usize) {
        for _ in 0..times {
            self.key(code);
        }
    }

    /// The session the app holds.
    pub fn session(&self) -> &CourseSession {
        &self.app.session
    }

    /// The last key's answer on the footer.
    pub fn status(&self) -> Option<&str> {
        self.app.status.as_deref()
    }

    /// Opens exercise `exercise` of lesson `lesson` (indices in course
    /// order) from wherever the learner is: back to the course map, down
    /// the list, through the lesson's pages to its exercises.
    pub fn open_exercise(&mut self, lesson: usize, exercise: usize) {
        while self.app.screens.len() > 1 {
            self.key(KeyCode::Esc);
        }
        let lessons = self.app.lessons().len();
        self.keys(KeyCode::Up, lessons);
        self.keys(KeyCode::Down, lesson);
        self.key(KeyCode::Enter);
        let pages = self
            .app
            .lessons()
            .get(lesson)
            .map_or(0, |l| l.sections.len())
            + 1;
        self.keys(KeyCode::Right, pages);
        let exercises = self
            .app
            .lessons()
            .get(lesson)
            .map_or(0, |l| l.exercises.len());
        self.keys(KeyCode::Up, exercises);
        self.keys(KeyCode::Down, exercise);
        self.key(KeyCode::Enter);
    }

    fn exercise(&self) -> Option<&crate::app::model::ExerciseState> {
        match self.app.screen() {
            Screen::Exercise(state) => Some(state),
            _ => None,
        }
    }

    /// The exercise on screen: (lesson index, exercise index).
    pub fn on_exercise(&self) -> Option<(usize, usize)> {
        self.exercise().map(|state| (state.lesson, state.exercise))
    }

    /// What the exercise's timeline is drawn with; `None` when it shows none.
    pub fn reveal(&self) -> Option<Reveal> {
        view::exercise::timeline_reveal(self.exercise()?)
    }

    /// A quiz's options as the screen lists them: the authored index at
    /// each position. `None` off a quiz.
    pub fn quiz_order(&self) -> Option<Vec<usize>> {
        let state = self.exercise().filter(|state| state.on_list())?;
        Some(
            state
                .screen
                .items
                .iter()
                .map(|i| i.index as usize)
                .collect(),
        )
    }

    /// What the screen shows of the last try's grade in this visit (also
    /// beside the worked solution), as the session keeps it.
    pub fn grade(&self) -> Option<&Feedback> {
        let screen = &self.exercise()?.screen;
        self.app
            .session
            .shown_try(&screen.lesson, &screen.exercise)
            .map(|graded| &graded.feedback)
    }

    /// The exercise screen the terminal drew last, as the session gave it:
    /// what a test compares with the page's.
    pub fn screen(&self) -> Option<&ExerciseScreen> {
        self.app.drawn_exercise_screen()
    }

    /// Every line of the exercise panel (hints, solution or the current
    /// step with the last try), scrolled into view or not, and the footer's
    /// message: the words the learner can read there.
    pub fn panel_text(&self) -> String {
        let panel = self.exercise().map_or(String::new(), |state| {
            view::exercise::panel_plain_text(&self.app, state, 76)
        });
        format!("{panel}\n{}", self.status().unwrap_or_default())
    }

    /// The worked solution shown in this visit.
    pub fn solution(&self) -> Option<&Grade> {
        let screen = &self.exercise()?.screen;
        self.app
            .session
            .shown_solution(&screen.lesson, &screen.exercise)
            .map(|solved| &solved.grade)
    }

    /// Enters `answer` in the exercise's editor with the keys a learner
    /// would press. A break schedule is put in the editor whole: its keys
    /// edit tick, worker, action and target, not the named operations and
    /// values an explorer's schedule may carry.
    pub fn enter_answer(&mut self, answer: &Answer) {
        // A reopened exercise shows the answer as the learner left it: the
        // keys below toggle, so what is there is taken off first.
        self.clear_answer();
        match answer {
            Answer::Mark(steps) => {
                for step in steps {
                    self.key(KeyCode::Home);
                    self.keys(KeyCode::Right, *step as usize);
                    self.key(KeyCode::Char('m'));
                }
            }
            Answer::Predict(outcomes) => {
                for (step, outcome) in outcomes {
                    self.key(KeyCode::Home);
                    self.keys(KeyCode::Right, *step as usize);
                    let key = match outcome.name() {
                        "ok" => 'o',
                        "rejected" => 'r',
                        "duplicate" => 'd',
                        "noop" => 'n',
                        _ => 'w',
                    };
                    self.key(KeyCode::Char(key));
                }
            }
            Answer::Quiz(options) => {
                // The answer names authored options; walk to where each is shown.
                let order = self.quiz_order().unwrap_or_default();
                for option in options {
                    let Some(position) = order.iter().position(|shown| shown == option) else {
                        continue;
                    };
                    // The number shown beside it picks it.
                    let Some(digit) = u32::try_from(position + 1)
                        .ok()
                        .and_then(|n| char::from_digit(n, 10))
                    else {
                        continue;
                    };
                    self.key(KeyCode::Char(digit));
                }
            }
            Answer::Design(design) => self.enter_design(design),
            Answer::Sql(answer) => self.enter_sql(&answer.statements),
            Answer::Break(_) => {
                let _ = self.app.put_answer(answer);
            }
        }
    }

    /// Unmarks every mark and unchooses every option, with the keys a
    /// learner would press.
    fn clear_answer(&mut self) {
        let Some(state) = self.exercise() else {
            return;
        };
        let chosen = |item: &&sim_core::course::Item| item.chosen;
        let items = state.screen.items.iter();
        let (marks, chosen): (Vec<u32>, Vec<usize>) = if state.on_list() {
            let positions = items.enumerate().filter(|(_, item)| chosen(item));
            (
                Vec::new(),
                positions.map(|(position, _)| position).collect(),
            )
        } else if state.sets_each() {
            (Vec::new(), Vec::new())
        } else {
            (
                items.filter(chosen).map(|item| item.index).collect(),
                Vec::new(),
            )
        };
        for step in marks {
            self.key(KeyCode::Home);
            self.keys(KeyCode::Right, step as usize);
            self.key(KeyCode::Char('m'));
        }
        for position in chosen {
            self.keys(KeyCode::Up, 64);
            self.keys(KeyCode::Down, position);
            self.key(KeyCode::Char(' '));
        }
    }

    /// Types each statement into its slot as a learner would: e to edit,
    /// Tab to the slot, the old text erased, the new one typed, Esc.
    fn enter_sql(&mut self, statements: &sim_core::sqllab::Statements) {
        let Some(Work::Sql(work)) = self.exercise().map(|s| &s.work) else {
            return;
        };
        if !work.editing {
            self.key(KeyCode::Char('e'));
        }
        for (slot, text) in statements {
            for _ in 0..8 {
                match self.exercise().map(|s| &s.work) {
                    Some(Work::Sql(work)) if work.slots.get(work.slot) != Some(slot) => {
                        self.key(KeyCode::Tab);
                    }
                    _ => break,
                }
            }
            let old = match self.exercise().map(|s| &s.work) {
                Some(Work::Sql(work)) => work.current().0.chars().count(),
                _ => 0,
            };
            let lines = old + 1;
            self.keys(KeyCode::Down, lines);
            self.key(KeyCode::End);
            self.keys(KeyCode::Backspace, old);
            for c in text.chars() {
                self.key(match c {
                    '\n' => KeyCode::Enter,
                    c => KeyCode::Char(c),
                });
            }
        }
        self.key(KeyCode::Esc);
    }

    /// Walks the design rows from the top, changing each until it holds
    /// what `answer` says (a knob it leaves out as it is): the values
    /// wanted are the rows of the editor over that answer, from a copy of
    /// the session.
    fn enter_design(&mut self, answer: &sim_core::course::DesignAnswer) {
        let Some(screen) = self.screen().cloned() else {
            return;
        };
        let (lesson, id) = (&screen.lesson, &screen.exercise);
        let Ok(Answer::Design(now)) = self.app.session.editor_answer(lesson, id) else {
            return;
        };
        let wanted = Answer::Design(sim_core::course::DesignAnswer {
            commit_checks: answer.commit_checks.or(now.commit_checks),
            renew_checks: answer.renew_checks.or(now.renew_checks),
            token: answer.token.or(now.token),
            lease_clock: answer.lease_clock.or(now.lease_clock),
            target_protect: answer.target_protect.clone().or(now.target_protect),
            claim: answer.claim.or(now.claim),
            cancel_epoch: answer.cancel_epoch.or(now.cancel_epoch),
            input_revision: answer.input_revision.or(now.input_revision),
            reconcile: answer.reconcile.clone(),
        });
        let mut copy = self.app.session.clone();
        let Ok((found, exercise)) = copy.exercise(lesson, id) else {
            return;
        };
        let json = sim_core::course::answer_to_json(found, &exercise.kind, &wanted);
        let change = sim_core::course::Act::Change { answer: json };
        let Ok(wanted) = copy.act(lesson, id, &change, self.app.lang()) else {
            return;
        };
        let values = |screen: &ExerciseScreen| -> Vec<String> {
            let rows = screen.editor.as_ref().map_or(&[][..], |e| &e.rows[..]);
            rows.iter()
                .filter_map(|r| r.fields.first().map(|f| f.value.clone()))
                .collect()
        };
        let wanted = values(&wanted);
        self.keys(KeyCode::Up, wanted.len());
        for (row, value) in wanted.iter().enumerate() {
            // Each knob has at most this many values: a few presses reach any.
            for _ in 0..8 {
                if self.screen().map(values).and_then(|v| v.get(row).cloned())
                    == Some(value.clone())
                {
                    break;
                }
                self.key(KeyCode::Right);
            }
            self.key(KeyCode::Down);
        }
    }
}
