//! The one model of the terminal app: the course, the learner's progress
//! and a stack of screens. [`super::update`](mod@super::update) changes it; [`super::view`]
//! draws it; nothing else touches it.

use sim_core::Lang;
use sim_core::words::Words;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use sim_core::course::{
    Act, Answer, CourseSession, EditorKind, Exercise, ExerciseKind, ExerciseScreen, FeedbackView,
    Lesson, LessonView, Pick, Progress, Tone,
};
use sim_core::sqllab::{Plan, Slot, SlotRefusal, Statements};
use sim_core::{Diagram, Reveal, Scenario, Trace};

use super::explorer::{Command, ExplorerState};
use super::persist::Notice;
use super::theme::Theme;

/// A scenario, its run and its diagrams, with a current step.
#[derive(Debug, Clone)]
pub(crate) struct Timeline {
    pub(crate) scenario: Scenario,
    pub(crate) trace: Trace,
    pub(crate) diagrams: Diagrams,
    pub(crate) cursor: usize,
    pub(crate) playing: bool,
}

impl Timeline {
    pub(crate) fn new(scenario: Scenario) -> Timeline {
        let trace = sim_core::run(&scenario);
        Timeline {
            scenario,
            trace,
            diagrams: Diagrams::default(),
            cursor: 0,
            playing: false,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.scenario.steps.len()
    }

    pub(crate) fn forward(&mut self) -> bool {
        if self.cursor + 1 < self.len() {
            self.cursor += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn back(&mut self) {
        self.cursor = self.cursor.saturating_sub(1);
    }

    pub(crate) fn first(&mut self) {
        self.cursor = 0;
    }

    pub(crate) fn last(&mut self) {
        self.cursor = self.len().saturating_sub(1);
    }
}

/// The diagrams of one run, built on first use for each language and
/// [`Reveal`] they are drawn with: building one narrates every step, too
/// slow to repeat on every frame of a long scenario. (A `Mutex`, not a
/// `RefCell`: the app's fallback screen is a `static`, which must be `Sync`.)
#[derive(Debug, Default)]
pub(crate) struct Diagrams {
    built: Mutex<Vec<(Lang, Reveal, Arc<Diagram>)>>,
}

impl Clone for Diagrams {
    fn clone(&self) -> Diagrams {
        Diagrams {
            built: Mutex::new(self.lock().clone()),
        }
    }
}

impl Diagrams {
    /// Two languages, two ways of showing: more are rebuilt when needed.
    const KEPT: usize = 4;

    /// The list; a panic elsewhere while it was held leaves it whole.
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(Lang, Reveal, Arc<Diagram>)>> {
        self.built.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn get(&self, timeline: &Timeline, lang: Lang, reveal: &Reveal) -> Arc<Diagram> {
        let mut built = self.lock();
        if let Some((_, _, diagram)) = built.iter().find(|(l, r, _)| *l == lang && r == reveal) {
            return Arc::clone(diagram);
        }
        let diagram = Arc::new(Diagram::new(
            &timeline.scenario,
            &timeline.trace,
            lang,
            reveal,
        ));
        if built.len() >= Diagrams::KEPT {
            built.remove(0);
        }
        built.push((lang, reveal.clone(), Arc::clone(&diagram)));
        diagram
    }
}

impl Timeline {
    /// The timeline's diagram in `lang`, showing what `reveal` lets show.
    pub(crate) fn diagram(&self, lang: Lang, reveal: &Reveal) -> Arc<Diagram> {
        self.diagrams.get(self, lang, reveal)
    }
}

/// A run of the exercise's plan with the learner's statements.
#[derive(Debug, Clone)]
pub(crate) struct SqlRequest {
    pub(crate) id: u64,
    pub(crate) plan: Plan,
    pub(crate) statements: Statements,
}

/// What [`update`](super::update::update) asks of the runtime
/// ([`sql_run`](super::sql_run) runs it).
#[derive(Debug, Clone)]
pub(crate) enum SqlCommand {
    Start(SqlRequest),
    /// Stop run `id` (its box answers at its next progress check).
    Cancel(u64),
}

/// The commands not yet taken by the runtime, and the runs asked so far
/// (the next run's id).
#[derive(Debug, Clone, Default)]
pub(crate) struct SqlRuns {
    pub(crate) commands: Vec<SqlCommand>,
    pub(crate) started: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CourseState {
    pub(crate) selected: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LessonState {
    pub(crate) lesson: usize,
    /// A section, or `sections.len()` for the exercises page.
    pub(crate) page: usize,
    pub(crate) scroll: u16,
    /// The selected exercise on the exercises page.
    pub(crate) exercise: usize,
}

/// The review screen: every exercise of the course, one row each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ReviewState {
    /// A row of [`sim_core::course::CourseSession::review`].
    pub(crate) selected: usize,
}

/// A scenario opened on its own: a lesson section's or a file's.
#[derive(Debug, Clone)]
pub(crate) struct SandboxState {
    /// Where it came from, shown in the header (a file name, a lesson).
    pub(crate) source: String,
    pub(crate) timeline: Timeline,
    pub(crate) detail_scroll: u16,
}

/// What the bottom panel of an exercise shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Panel {
    /// The current step (and its grade after a try).
    Step,
    Hints,
    Solution,
}

/// The lesson index an exercise state holds for the practice round open
/// now (its lesson is the session's, `CourseSession::open_round_lesson`).
pub(crate) const PRACTICE: usize = usize::MAX;

#[derive(Debug, Clone)]
pub(crate) struct ExerciseState {
    pub(crate) lesson: usize,
    pub(crate) exercise: usize,
    /// Mark and predict exercises: the timeline the learner chooses on.
    pub(crate) timeline: Option<Timeline>,
    /// The exercise screen as the session gave it at the last act, in the
    /// learner's language: standing, hints, the feedback of the last try
    /// or the worked solution, what may be said of each item. The view
    /// draws it and decides none of it.
    pub(crate) screen: ExerciseScreen,
    pub(crate) panel: Panel,
    pub(crate) panel_scroll: u16,
    /// What the learner is building, per exercise kind.
    pub(crate) work: Work,
}

/// What the terminal keeps of an exercise's answer in the making: where
/// its cursor is, and a SQL exercise's statements as typed.
#[derive(Debug, Clone)]
pub(crate) enum Work {
    /// Mark, predict and quiz: the answer is the session's, chosen on the
    /// screen's items ([`ExerciseScreen::items`], through
    /// [`sim_core::course::Edit::Choose`]). A list's cursor is a position
    /// among them; on a timeline the timeline's cursor is the step.
    Items {
        cursor: usize,
    },
    /// Design and break: the session's editor.
    Editor(Box<EditorWork>),
    Sql(Box<SqlWork>),
}

/// A `sql` exercise's statements in the making: one text per slot, each
/// with its cursor, edited in place.
#[derive(Debug, Clone)]
pub(crate) struct SqlWork {
    pub(crate) slots: Vec<Slot>,
    /// Parallel to `slots`.
    pub(crate) texts: Vec<String>,
    /// Parallel to `slots`: the cursor, as a char index into the text.
    pub(crate) cursors: Vec<usize>,
    /// The slot on screen.
    pub(crate) slot: usize,
    /// Keys type into the statement (Esc stops, e starts again).
    pub(crate) editing: bool,
    /// What the box refused at the last try, by slot (syntax errors with
    /// their line and column).
    pub(crate) refused: Vec<SlotRefusal>,
    /// The statements running on SQLite off the UI thread (`sql_run`);
    /// the exercise waits for them, Esc cancels.
    pub(crate) running: Option<SqlRunning>,
}

/// A run of the statements on SQLite that the runtime has been asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SqlRunning {
    pub(crate) id: u64,
    /// Esc was pressed: the box stops at its next progress check.
    pub(crate) cancelling: bool,
}

impl SqlWork {
    pub(crate) fn new(slots: &[Slot]) -> SqlWork {
        SqlWork {
            slots: slots.to_vec(),
            texts: vec![String::new(); slots.len()],
            cursors: vec![0; slots.len()],
            slot: 0,
            // Opened as every exercise is: h, s and Enter work; e types.
            editing: false,
            refused: Vec::new(),
            running: None,
        }
    }

    /// The learner's statements, by slot.
    pub(crate) fn statements(&self) -> sim_core::sqllab::Statements {
        self.slots
            .iter()
            .zip(&self.texts)
            .map(|(slot, text)| (*slot, text.clone()))
            .collect()
    }

    /// The text on screen and its cursor.
    pub(crate) fn current(&self) -> (&str, usize) {
        (
            self.texts.get(self.slot).map_or("", String::as_str),
            self.cursors.get(self.slot).copied().unwrap_or(0),
        )
    }

    /// Applies one editing key to the text on screen.
    pub(crate) fn edit(&mut self, key: SqlKey) {
        let (Some(text), Some(cursor)) = (
            self.texts.get_mut(self.slot),
            self.cursors.get_mut(self.slot),
        ) else {
            return;
        };
        let chars: Vec<char> = text.chars().collect();
        let at = (*cursor).min(chars.len());
        // Start and end (char indices) of the line holding `at`.
        let line_start = |at: usize| {
            chars[..at]
                .iter()
                .rposition(|c| *c == '\n')
                .map_or(0, |p| p + 1)
        };
        let line_end = |at: usize| {
            chars[at..]
                .iter()
                .position(|c| *c == '\n')
                .map_or(chars.len(), |p| at + p)
        };
        let byte = |at: usize| chars[..at].iter().map(|c| c.len_utf8()).sum::<usize>();
        match key {
            SqlKey::Type(c) => {
                if text.len() + c.len_utf8() <= sqlbox::MAX_SQL_BYTES {
                    text.insert(byte(at), c);
                    *cursor = at + 1;
                }
            }
            SqlKey::Backspace if at > 0 => {
                text.remove(byte(at - 1));
                *cursor = at - 1;
            }
            SqlKey::Delete if at < chars.len() => {
                text.remove(byte(at));
            }
            SqlKey::Backspace | SqlKey::Delete => {}
            SqlKey::Left => *cursor = at.saturating_sub(1),
            SqlKey::Right => *cursor = (at + 1).min(chars.len()),
            SqlKey::Home => *cursor = line_start(at),
            SqlKey::End => *cursor = line_end(at),
            SqlKey::Up | SqlKey::Down => {
                let start = line_start(at);
                let column = at - start;
                let target = if key == SqlKey::Up {
                    (start > 0).then(|| line_start(start - 1))
                } else {
                    let end = line_end(at);
                    (end < chars.len()).then_some(end + 1)
                };
                if let Some(target) = target {
                    *cursor = (target + column).min(line_end(target));
                }
            }
        }
    }
}

/// A key of the SQL editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SqlKey {
    Type(char),
    Backspace,
    Delete,
    Left,
    Right,
    Up,
    Down,
    Home,
    End,
}

/// A design or break exercise's editor: the answer in the making is the
/// session's ([`ExerciseScreen::editor`]); the terminal keeps only where
/// its cursor is and the schedule's preview.
#[derive(Debug, Clone)]
pub(crate) struct EditorWork {
    pub(crate) kind: EditorKind,
    /// The cursor: a row of the editor and a field of it.
    pub(crate) row: usize,
    pub(crate) field: usize,
    /// The next digit typed on a number starts a new one (the field was
    /// just reached), so typing `12` over `3` gives 12, not 312.
    pub(crate) fresh_number: bool,
    /// A schedule run as it stands (`None`: it cannot run, or a design).
    pub(crate) preview: Option<Timeline>,
}

impl EditorWork {
    pub(crate) fn new(kind: EditorKind) -> EditorWork {
        EditorWork {
            kind,
            row: 0,
            field: 0,
            fresh_number: true,
            preview: None,
        }
    }

    /// After the session's `screen` came: the cursor on the row an edit
    /// left its step on (`edited`), kept on the rows, and the schedule run
    /// again with the preview's cursor on that row.
    pub(crate) fn follow(
        &mut self,
        session: &CourseSession,
        screen: &ExerciseScreen,
        edited: bool,
    ) {
        let Some(editor) = &screen.editor else {
            return;
        };
        if let Some(focus) = editor.focus.filter(|_| edited) {
            self.row = focus as usize;
        }
        self.row = self.row.min(editor.rows.len().saturating_sub(1));
        let fields = editor.rows.get(self.row).map_or(1, |r| r.fields.len());
        self.field = self.field.min(fields.saturating_sub(1));
        if self.kind == EditorKind::Schedule {
            self.preview = session
                .schedule_preview(&screen.lesson, &screen.exercise)
                .ok()
                .map(|scenario| {
                    let mut timeline = Timeline::new(scenario);
                    timeline.cursor = self.row.min(timeline.len().saturating_sub(1));
                    timeline
                });
        }
    }
}

impl ExerciseState {
    /// The answer the terminal holds: a SQL exercise's statements as
    /// written (running them is the submit's work); `None`: the session
    /// holds it (the items' choices, the editor's).
    pub(crate) fn answer(&self) -> Option<Answer> {
        match &self.work {
            Work::Sql(work) => Some(Answer::Sql(sim_core::course::SqlAnswer {
                statements: work.statements(),
                run: None,
            })),
            Work::Items { .. } | Work::Editor(_) => None,
        }
    }

    /// The items are a list (a quiz's options), not steps on a timeline.
    pub(crate) fn on_list(&self) -> bool {
        (self.screen.choosing.as_ref()).is_some_and(|choosing| !choosing.on_timeline)
    }

    /// Each item is set to one of the choices (a prediction's outcome).
    pub(crate) fn sets_each(&self) -> bool {
        (self.screen.choosing.as_ref()).is_some_and(|choosing| choosing.pick == Pick::Each)
    }

    /// Puts a kept SQL answer (the progress record's last answer) back into
    /// fresh statements; another kind's answer is the session's to show.
    pub(crate) fn restore(&mut self, answer: Answer) {
        let (Work::Sql(work), Answer::Sql(answer)) = (&mut self.work, answer) else {
            return;
        };
        for (index, slot) in work.slots.iter().enumerate() {
            if let (Some(text), Some(kept)) =
                (work.texts.get_mut(index), answer.statements.get(slot))
            {
                text.clone_from(kept);
                if let Some(cursor) = work.cursors.get_mut(index) {
                    *cursor = kept.chars().count();
                }
            }
        }
    }

    /// The field under the editor's cursor.
    pub(crate) fn editor_field(&self) -> Option<&sim_core::course::EditorField> {
        let Work::Editor(work) = &self.work else {
            return None;
        };
        let editor = self.screen.editor.as_ref()?;
        editor.rows.get(work.row)?.fields.get(work.field)
    }

    /// The feedback of the learner's last try on the screen: the try's, or
    /// the one the session shows beside the worked solution.
    pub(crate) fn last_try(&self) -> Option<&FeedbackView> {
        let feedback = self.screen.feedback.as_ref()?;
        match feedback.tone {
            Tone::Solution => feedback.your_try.as_deref(),
            Tone::Good | Tone::Bad => Some(feedback),
        }
    }

    /// The timeline on screen: the exercise's own, or a break schedule's preview.
    pub(crate) fn shown_timeline(&self) -> Option<&Timeline> {
        match &self.work {
            Work::Editor(work) => work.preview.as_ref(),
            _ => self.timeline.as_ref(),
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) enum Screen {
    Course(CourseState),
    Lesson(LessonState),
    Review(ReviewState),
    Sandbox(Box<SandboxState>),
    Exercise(Box<ExerciseState>),
    Explorer(Box<ExplorerState>),
}

#[derive(Debug, Clone)]
pub(crate) struct App {
    /// The lessons (in course order), the progress, and every course rule.
    pub(crate) session: CourseSession,
    /// Never empty; the last is shown. Esc pops.
    pub(crate) screens: Vec<Screen>,
    pub(crate) help: bool,
    /// How far the help overlay is scrolled (it outgrows small windows).
    pub(crate) help_scroll: u16,
    /// A message the learner must dismiss (progress kept aside).
    pub(crate) notice: Option<Notice>,
    /// A one-line answer to the last key, cleared by the next one.
    pub(crate) status: Option<String>,
    /// Another fencelab holds the data folder's lock: the footer says the
    /// app waits for it (see `saver`).
    pub(crate) progress_wait: bool,
    /// The terminal size, as last reported.
    pub(crate) width: u16,
    pub(crate) height: u16,
    pub(crate) theme: Theme,
    pub(crate) quit: bool,
    /// What `update` asks of the runtime (start or cancel a search); the
    /// runtime takes them after every update.
    pub(crate) outbox: Vec<Command>,
    /// Searches started so far: the next one's id.
    pub(crate) searches: u64,
    /// SQL runs asked of the runtime (start, cancel) and their count.
    pub(crate) sql_runs: SqlRuns,
    /// The learner's work as it stood when they left an exercise (its
    /// cursor, a SQL exercise's statements), by (lesson, exercise) index,
    /// so reopening it in this run shows it again; the session keeps the
    /// rest of the answer in the making.
    pub(crate) drafts: HashMap<(usize, usize), Work>,
}

impl App {
    /// The course, resumed where `progress.position` says.
    pub(crate) fn course(lessons: Vec<Lesson>, progress: Progress, theme: Theme) -> App {
        let session = CourseSession::new(lessons, progress);
        let mut app = App::with(session, Screen::Course(CourseState { selected: 0 }), theme);
        // On the map, the lesson last visited is selected (else the next).
        let last = app
            .session
            .progress()
            .position
            .as_ref()
            .map(|p| p.lesson.clone());
        let next = last
            .and_then(|id| app.lessons().iter().position(|l| l.id == id))
            .or_else(|| app.next_lesson())
            .unwrap_or(0);
        let resume = app.session.resume_lesson().and_then(|(id, page)| {
            let lesson = app.lessons().iter().position(|l| l.id == id)?;
            Some((lesson, page as usize))
        });
        match resume {
            Some((lesson, page)) => {
                app.screens = vec![
                    Screen::Course(CourseState { selected: lesson }),
                    Screen::Lesson(LessonState {
                        lesson,
                        page,
                        scroll: 0,
                        exercise: 0,
                    }),
                ];
            }
            None => app.screens = vec![Screen::Course(CourseState { selected: next })],
        }
        app
    }

    /// One scenario in the sandbox, with no course behind it.
    pub(crate) fn sandbox(
        source: String,
        scenario: Scenario,
        progress: Progress,
        theme: Theme,
    ) -> App {
        let sandbox = Screen::Sandbox(Box::new(SandboxState {
            source,
            timeline: Timeline::new(scenario),
            detail_scroll: 0,
        }));
        App::with(CourseSession::new(Vec::new(), progress), sandbox, theme)
    }

    /// A fresh app on `screen`: no help, notice or status yet, the size
    /// until the terminal says its own.
    fn with(session: CourseSession, screen: Screen, theme: Theme) -> App {
        App {
            session,
            screens: vec![screen],
            help: false,
            help_scroll: 0,
            notice: None,
            status: None,
            progress_wait: false,
            width: 80,
            height: 24,
            theme,
            quit: false,
            outbox: Vec::new(),
            searches: 0,
            sql_runs: SqlRuns::default(),
            drafts: HashMap::new(),
        }
    }

    pub(crate) fn screen(&self) -> &Screen {
        // `screens` is never empty; the course screen is the fallback.
        static FALLBACK: Screen = Screen::Course(CourseState { selected: 0 });
        self.screens.last().unwrap_or(&FALLBACK)
    }

    /// Whether the exercise on screen waits for its statements to run.
    pub(crate) fn sql_running(&self) -> bool {
        matches!(self.screen(), Screen::Exercise(state)
            if matches!(&state.work, Work::Sql(work) if work.running.is_some()))
    }

    /// Answers the last key on the footer, in the learner's language.
    pub(crate) fn say(&mut self, said: impl Said) {
        self.status = Some(said.in_lang(self.lang()));
    }

    pub(crate) fn lang(&self) -> Lang {
        self.session.lang()
    }

    /// In course order.
    pub(crate) fn lessons(&self) -> &[Lesson] {
        self.session.lessons()
    }

    /// Lesson `lesson`'s page (by index), as the session builds it.
    pub(crate) fn lesson_view(&self, lesson: usize) -> Option<LessonView<'_>> {
        let id = &self.lessons().get(lesson)?.id;
        self.session.lesson_view(id, self.lang()).ok()
    }

    /// The lesson with the first unfinished exercise.
    pub(crate) fn next_lesson(&self) -> Option<usize> {
        self.session.next_unfinished().map(|(lesson, _)| lesson)
    }

    /// The learner is on `page` of lesson `lesson` (a section is then read).
    pub(crate) fn set_position(&mut self, lesson: usize, page: usize) {
        let Some(id) = self.lessons().get(lesson).map(|l| l.id.clone()) else {
            return;
        };
        // Pages come from the lesson's own length, so the session accepts them.
        let _ = self
            .session
            .visit(&id, u32::try_from(page).unwrap_or(u32::MAX));
    }

    /// Draws the next practice round of lesson `pool` (or reopens the one
    /// open and unfinished) and opens it; a lesson without practice rounds
    /// says so on the status line.
    pub(crate) fn practice_state(&mut self, pool: &str) -> Option<ExerciseState> {
        if let Err(error) = self.session.open_next_practice(pool) {
            self.status = Some(error.message(self.lang()));
            return None;
        }
        // A new round: nothing of the last round's cursor carries over.
        self.drafts.remove(&(PRACTICE, 0));
        self.exercise_state(PRACTICE, 0)
    }

    /// Lesson `lesson` by index, or the practice round open now
    /// ([`PRACTICE`]).
    pub(crate) fn lesson_at(&self, lesson: usize) -> Option<&Lesson> {
        if lesson == PRACTICE {
            self.session.open_round_lesson()
        } else {
            self.lessons().get(lesson)
        }
    }

    pub(crate) fn lesson_exercise(
        &self,
        lesson: usize,
        exercise: usize,
    ) -> Option<(&Lesson, &Exercise)> {
        let lesson = self.lesson_at(lesson)?;
        let exercise = lesson.exercises.get(exercise)?;
        Some((lesson, exercise))
    }

    /// An exercise's work as a first visit starts it: its timeline (mark,
    /// predict) and the cursor's or answer's blank form.
    fn fresh_work(&self, found: &Lesson, ex: &Exercise) -> Option<(Option<Timeline>, Work)> {
        let items = Work::Items { cursor: 0 };
        Some(match &ex.kind {
            ExerciseKind::Mark { scenario, .. } => {
                let scenario = found.scenario(*scenario)?.clone();
                (Some(Timeline::new(scenario)), items)
            }
            ExerciseKind::Predict { scenario, .. } => {
                let scenario = found.scenario(*scenario)?.clone();
                let asked = self.session.asked_steps(&found.id, &ex.id).ok()?;
                let mut timeline = Timeline::new(scenario);
                // Start on the first step asked about.
                timeline.cursor = asked.first().map_or(0, |s| *s as usize);
                (Some(timeline), items)
            }
            ExerciseKind::Design { .. } => {
                let work = EditorWork::new(EditorKind::Design);
                (None, Work::Editor(Box::new(work)))
            }
            ExerciseKind::Break { .. } => {
                let work = EditorWork::new(EditorKind::Schedule);
                (None, Work::Editor(Box::new(work)))
            }
            ExerciseKind::Sql { slots, .. } => (None, Work::Sql(Box::new(SqlWork::new(slots)))),
            ExerciseKind::Quiz { .. } => (None, items),
        })
    }

    /// A fresh visit to an exercise, opened in the session ([`Act::Open`]).
    pub(crate) fn exercise_state(
        &mut self,
        lesson: usize,
        exercise: usize,
    ) -> Option<ExerciseState> {
        let (found, ex) = self.lesson_exercise(lesson, exercise)?;
        let (lesson_id, exercise_id) = (found.id.clone(), ex.id.clone());
        let (timeline, work) = self.fresh_work(found, ex)?;
        // Reopened in this run: the learner's own work as they left it.
        let (work, kept) = match self.drafts.get(&(lesson, exercise)) {
            Some(draft) => (draft.clone(), None),
            // Else the last answer the progress record kept (an earlier
            // run, or the page).
            None => (work, self.session.last_answer(&lesson_id, &exercise_id)),
        };
        let lang = self.lang();
        let screen = self
            .session
            .act(&lesson_id, &exercise_id, &Act::Open, lang)
            .ok()?;
        let mut state = ExerciseState {
            lesson,
            exercise,
            timeline,
            screen,
            panel: Panel::Step,
            panel_scroll: 0,
            work,
        };
        if let Some(answer) = kept {
            state.restore(answer);
        }
        if let Work::Editor(work) = &mut state.work {
            work.follow(&self.session, &state.screen, false);
        }
        Some(state)
    }

    /// Puts `answer` whole into the editor on screen as the session's
    /// answer in the making ([`Act::Change`]): what no key reaches (a
    /// schedule's named operations and values), for the tests.
    pub(crate) fn put_answer(
        &mut self,
        answer: &Answer,
    ) -> Result<(), sim_core::course::CourseError> {
        let lang = self.lang();
        let Some(Screen::Exercise(state)) = self.screens.last_mut() else {
            return Err(sim_core::course::CourseError::MissingScenario);
        };
        let (lesson, exercise) = (&state.screen.lesson, &state.screen.exercise);
        let (found, ex) = self.session.exercise(lesson, exercise)?;
        let answer = sim_core::course::answer_to_json(found, &ex.kind, answer);
        state.screen = self
            .session
            .act(lesson, exercise, &Act::Change { answer }, lang)?;
        if let Work::Editor(work) = &mut state.work {
            work.follow(&self.session, &state.screen, false);
        }
        Ok(())
    }

    /// The exercise screen the app draws now, as the session gave it:
    /// for tests that compare what the terminal shows with the page.
    pub(crate) fn drawn_exercise_screen(&self) -> Option<&ExerciseScreen> {
        match self.screen() {
            Screen::Exercise(state) => Some(&state.screen),
            _ => None,
        }
    }

    /// Whether any timeline on screen is playing (the runtime then sends ticks).
    pub(crate) fn playing(&self) -> bool {
        match self.screen() {
            Screen::Sandbox(state) => state.timeline.playing,
            Screen::Exercise(state) => state.shown_timeline().is_some_and(|t| t.playing),
            _ => false,
        }
    }
}

/// What the footer is told ([`App::say`]): a catalogue entry, taken in the
/// learner's language, or a text already made in it (a catalogue
/// function's, a session's message).
pub(crate) trait Said {
    fn in_lang(self, lang: Lang) -> String;
}

impl Said for Words {
    fn in_lang(self, lang: Lang) -> String {
        self.get(lang).to_owned()
    }
}

impl Said for String {
    fn in_lang(self, _: Lang) -> String {
        self
    }
}

impl Said for &str {
    fn in_lang(self, _: Lang) -> String {
        self.to_owned()
    }
}
