//! The one model of the terminal app: the course, the learner's progress
//! and a stack of screens. [`super::update`] changes it; [`super::view`]
//! draws it; nothing else touches it.

use std::collections::BTreeSet;

use sim_core::course::{Exercise, ExerciseKind, Grade, Lesson, Position, Progress};
use sim_core::{Scenario, Trace};

use super::explorer::{Command, ExplorerState};
use super::persist::Notice;
use super::theme::Theme;
use super::timeline::Diagram;

/// A scenario, its run and its diagram, with a current step.
#[derive(Debug, Clone)]
pub(crate) struct Timeline {
    pub(crate) scenario: Scenario,
    pub(crate) trace: Trace,
    pub(crate) diagram: Diagram,
    pub(crate) cursor: usize,
    pub(crate) playing: bool,
}

impl Timeline {
    pub(crate) fn new(scenario: Scenario) -> Timeline {
        let trace = sim_core::run(&scenario);
        let diagram = Diagram::new(&scenario, &trace);
        Timeline {
            scenario,
            trace,
            diagram,
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

#[derive(Debug, Clone)]
pub(crate) struct ExerciseState {
    pub(crate) lesson: usize,
    pub(crate) exercise: usize,
    /// Mark exercises: the timeline the learner marks steps on.
    pub(crate) timeline: Option<Timeline>,
    /// The steps a mark exercise lets the learner mark.
    pub(crate) candidates: Vec<u32>,
    pub(crate) marks: BTreeSet<u32>,
    /// The grade of the last try in this visit.
    pub(crate) grade: Option<Grade>,
    /// The worked solution, once asked for after a try.
    pub(crate) solution: Option<Grade>,
    pub(crate) panel: Panel,
    pub(crate) panel_scroll: u16,
}

#[derive(Debug, Clone)]
pub(crate) enum Screen {
    Course(CourseState),
    Lesson(LessonState),
    Sandbox(Box<SandboxState>),
    Exercise(Box<ExerciseState>),
    Explorer(Box<ExplorerState>),
}

#[derive(Debug, Clone)]
pub(crate) struct App {
    /// In course order.
    pub(crate) lessons: Vec<Lesson>,
    pub(crate) progress: Progress,
    /// Never empty; the last is shown. Esc pops.
    pub(crate) screens: Vec<Screen>,
    pub(crate) help: bool,
    /// A message the learner must dismiss (progress kept aside).
    pub(crate) notice: Option<Notice>,
    /// A one-line answer to the last key, cleared by the next one.
    pub(crate) status: Option<String>,
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
}

impl App {
    /// The course, resumed where `progress.position` says.
    pub(crate) fn course(lessons: Vec<Lesson>, progress: Progress, theme: Theme) -> App {
        let mut app = App {
            lessons,
            progress,
            screens: vec![Screen::Course(CourseState { selected: 0 })],
            help: false,
            notice: None,
            status: None,
            width: 80,
            height: 24,
            theme,
            quit: false,
            outbox: Vec::new(),
            searches: 0,
        };
        let next = app.next_lesson().unwrap_or(0);
        let resume = app.progress.position.as_ref().and_then(|position| {
            let lesson = app.lessons.iter().position(|l| l.id == position.lesson)?;
            let pages = app.lessons[lesson].sections.len() + 1;
            Some((lesson, (position.section as usize).min(pages - 1)))
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
        App {
            lessons: Vec::new(),
            progress,
            screens: vec![Screen::Sandbox(Box::new(SandboxState {
                source,
                timeline: Timeline::new(scenario),
                detail_scroll: 0,
            }))],
            help: false,
            notice: None,
            status: None,
            width: 80,
            height: 24,
            theme,
            quit: false,
            outbox: Vec::new(),
            searches: 0,
        }
    }

    pub(crate) fn screen(&self) -> &Screen {
        // `screens` is never empty; the course screen is the fallback.
        static FALLBACK: Screen = Screen::Course(CourseState { selected: 0 });
        self.screens.last().unwrap_or(&FALLBACK)
    }

    /// Answers the last key on the footer, in the learner's language.
    pub(crate) fn say(&mut self, en: impl Into<String>, zh: impl Into<String>) {
        self.status = Some(if self.lang() == "zh" {
            zh.into()
        } else {
            en.into()
        });
    }

    pub(crate) fn lang(&self) -> &str {
        if self.progress.lang == "zh" {
            "zh"
        } else {
            "en"
        }
    }

    /// Exercises of `lesson` completed, and its exercise count.
    pub(crate) fn completed(&self, lesson: &Lesson) -> (usize, usize) {
        let done = lesson
            .exercises
            .iter()
            .filter(|e| {
                self.progress
                    .exercise(&lesson.id, &e.id)
                    .is_some_and(|p| p.completed)
            })
            .count();
        (done, lesson.exercises.len())
    }

    /// The first lesson with an exercise left to complete.
    pub(crate) fn next_lesson(&self) -> Option<usize> {
        self.lessons.iter().position(|lesson| {
            let (done, total) = self.completed(lesson);
            done < total
        })
    }

    pub(crate) fn set_position(&mut self, lesson: usize, page: usize) {
        let Some(found) = self.lessons.get(lesson) else {
            return;
        };
        let position = Position {
            lesson: found.id.clone(),
            section: page as u32,
        };
        if self.progress.position.as_ref() != Some(&position) {
            self.progress.position = Some(position);
        }
        if page < found.sections.len() {
            let read = &mut self
                .progress
                .lessons
                .entry(found.id.clone())
                .or_default()
                .sections_read;
            if !read.contains(&(page as u32)) {
                read.push(page as u32);
                read.sort_unstable();
            }
        }
    }

    pub(crate) fn lesson_exercise(
        &self,
        lesson: usize,
        exercise: usize,
    ) -> Option<(&Lesson, &Exercise)> {
        let lesson = self.lessons.get(lesson)?;
        let exercise = lesson.exercises.get(exercise)?;
        Some((lesson, exercise))
    }

    /// A fresh visit to an exercise.
    pub(crate) fn exercise_state(&self, lesson: usize, exercise: usize) -> Option<ExerciseState> {
        let (found, ex) = self.lesson_exercise(lesson, exercise)?;
        let (timeline, candidates) = match &ex.kind {
            ExerciseKind::Mark {
                scenario,
                candidates,
            } => {
                let scenario = found.scenario(*scenario)?.clone();
                let steps = sim_core::course::mark_candidates(&scenario, candidates);
                (Some(Timeline::new(scenario)), steps)
            }
            _ => (None, Vec::new()),
        };
        Some(ExerciseState {
            lesson,
            exercise,
            timeline,
            candidates,
            marks: BTreeSet::new(),
            grade: None,
            solution: None,
            panel: Panel::Step,
            panel_scroll: 0,
        })
    }

    /// Whether any timeline on screen is playing (the runtime then sends ticks).
    pub(crate) fn playing(&self) -> bool {
        match self.screen() {
            Screen::Sandbox(state) => state.timeline.playing,
            Screen::Exercise(state) => state.timeline.as_ref().is_some_and(|t| t.playing),
            _ => false,
        }
    }
}
