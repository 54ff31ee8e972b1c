//! The exercise screen as data. The learner's actions come in as one type
//! ([`Act`]); the session answers with one serializable view
//! ([`ExerciseScreen`]) in the learner's language, holding everything the
//! course decides: standing, status line, the items with the learner's
//! choices and — only as far as the puzzle rules allow — their verdicts and
//! reasons, the hints shown and whether another exists, whether the worked
//! solution may open, the answer's cost, the feedback of the last try or the
//! solution, the takeaway, what the timeline may show. The terminal draws
//! it into cells and the page into DOM nodes; neither decides any of it.
//!
//! **The feedback rules** (lessons/README.md):
//! - Opening the solution shows the worked solution as the solution, beside
//!   the learner's own last answer as it was graded; it never calls the
//!   learner's answer correct.
//! - A right answer handed in after the solution was opened is "solved with
//!   the solution" ([`Standing::SolvedWithSolution`]).
//! - A quiz try counts only what the learner chose; no mark is drawn beside
//!   an option the learner did not choose before the quiz is solved or its
//!   solution opened; after that each option says whether it is true.
//! - From the second wrong try on, a try names at most one wrong item, the
//!   first by position.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Lang;
use crate::Reveal;
use crate::course::choose::choose_item;
use crate::course::editor::{
    Edit, EditRefused, Editor, EditorRow, Making, design_editor, design_making, edit_design,
    edit_schedule, schedule_editor,
};
use crate::course::error::CourseError;
use crate::course::grade::{Answer, DesignAnswer, Grade, GradeItem, Schedule, Solution};
use crate::course::kinds;
use crate::course::last_answer::answer_to_json;
use crate::course::lesson::{Exercise, ExerciseKind, Lesson};
use crate::course::levels::Standing;
use crate::course::session::{CourseSession, Graded};
use crate::explore::Counterexample;
use crate::scenario::{Scenario, Text};

/// What the learner does on an exercise screen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "snake_case", deny_unknown_fields)]
pub enum Act {
    /// Opens (or redraws) the screen.
    Open,
    /// The answer in the making changed (an answers file's value for the
    /// exercise's kind); kept as the last answer, nothing graded.
    Change { answer: Value },
    /// Shows the next hint.
    Hint,
    /// Hands the answer in: graded, the try recorded. Without an answer
    /// (`{"act": "hand_in"}`, or `"answer": null`) the answer in the making
    /// is handed in ([`CourseSession::made_answer`]): what a front end that
    /// edits through [`Act::Edit`] sends.
    HandIn {
        #[serde(default)]
        answer: Option<Value>,
    },
    /// Opens the worked solution (only after a try).
    Solution,
    /// Leaves the screen: the feedback shown goes, the answer stays.
    Leave,
    /// One change to the answer in the making: of a design or break
    /// exercise through its editor ([`ExerciseScreen::editor`]), of a mark,
    /// predict or quiz exercise on its items ([`Edit::Choose`]); kept as
    /// the last answer when it is not empty, nothing graded.
    Edit { edit: Edit },
}

/// What the screen shows below the answer: the last try's grade as the
/// learner may see it, or the worked solution beside that try.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Shown {
    Try(Box<Graded>),
    Solution {
        solution: Box<Solution>,
        /// The learner's last try on this screen, as it was graded.
        last_try: Option<Box<Graded>>,
    },
}

/// The exercise screen, in one language.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExerciseScreen {
    pub lesson: String,
    pub exercise: String,
    pub title: String,
    /// The kind's name (`mark`, `predict`, …) and in words.
    pub kind: &'static str,
    pub kind_label: String,
    /// The task (the exercise's prompt).
    pub task: String,
    pub standing: Standing,
    /// The standing in words with its sign and the tries: `✓ solved · 2 tries`.
    pub standing_label: String,
    pub tries: u32,
    /// One line on what to do next.
    pub status: String,
    /// The answer in the making (an answers file's value; null: none).
    pub answer: Value,
    /// The answer's parts with the learner's choices and what may be said
    /// of them: mark and predict steps, quiz options in this learner's
    /// order.
    pub items: Vec<Item>,
    /// How the items are answered (mark, predict, quiz; `None`: the kind
    /// has no items).
    pub choosing: Option<Choosing>,
    pub hints: Vec<String>,
    /// Another hint may be asked for, and the button's words.
    pub more_hints: bool,
    pub hint_button: String,
    /// The worked solution may open (after a try), the button's words and
    /// why not yet.
    pub solution_open: bool,
    pub solution_button: String,
    pub solution_note: Option<String>,
    /// A design answer's cost by the catalogue (`None`: not a design, or a
    /// target given a protection its resource does not offer).
    pub cost: Option<u32>,
    pub cost_label: Option<String>,
    /// The editor of the answer in the making (design and break exercises).
    pub editor: Option<Editor>,
    pub feedback: Option<FeedbackView>,
    /// The acts (`hand_in`, `solution`) whose answer runs the explorers: a
    /// front end without the search in its own build (the page) sends them
    /// where the search is (its grading worker).
    pub search_acts: Vec<&'static str>,
    /// What the exercise's timeline may show now.
    pub reveal: RevealView,
    /// A practice round: its pool's practice (round, level, streak, counts,
    /// whether the next round may be drawn), drawn above the exercise.
    pub practice: Option<crate::course::practice::PracticeView>,
}

/// An answer's part as the learner sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Item {
    /// The step index, or the quiz option's authored index.
    pub index: u32,
    /// `step 3`, `option 2`.
    pub label: String,
    /// The learner's choice in words (`● marked as must be refused`,
    /// `Your prediction: refused`, `chosen`),
    /// `None`: nothing chosen.
    pub choice: Option<String>,
    pub chosen: bool,
    /// What may be said of it now (`None`: nothing yet).
    pub verdict: Option<Verdict>,
    /// The verdict's sign and words (`✗ wrong`, `✓ true`).
    pub verdict_label: Option<String>,
    /// Its reason, once the exercise is solved or its solution opened.
    pub why: Option<String>,
    /// Its words: a quiz option's statement (`None`: a step, which the
    /// timeline tells).
    pub text: Option<String>,
    /// The learner's choice as a sign: `●` or `○` (a mark), an outcome's
    /// key letter or `?` (a prediction), `(•)`, `( )`, `[x]`, `[ ]` (an
    /// option).
    pub sign: String,
    /// The value chosen (`Pick::Each`: the choice's `value`).
    pub value: Option<&'static str>,
    /// What the worked solution's key says of it, while the solution is
    /// shown (a mark step's).
    pub key: Option<ItemKey>,
}

/// How the learner answers on the items: what a front end draws them
/// with and makes the answer from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Choosing {
    /// The items are steps of the exercise's timeline (else a list).
    pub on_timeline: bool,
    pub pick: Pick,
    /// What to do, above the items.
    pub prompt: String,
    /// What an item may be set to, each with its key letter and words
    /// (`Pick::Each`; `Pick::Any` on a timeline: the one choice, marking).
    pub choices: Vec<ItemChoice>,
    /// The label of the timeline's row of the learner's choices.
    pub row_label: String,
    /// The sign of an item nothing is chosen for (`○`, `?`) and in words.
    pub blank: String,
    pub unchosen: String,
    /// A step on the timeline that is no item, in words.
    pub not_an_item: String,
    /// An item's reason tells its whole step (a prediction's does):
    /// beside it only the step's note is left to say.
    pub why_tells_step: bool,
    /// The page timeline's help line where its steps are items: what a
    /// click, Space or Enter on one does (`None`: not on a timeline).
    pub timeline_help: Option<String>,
}

/// How items are chosen; the answer is made accordingly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    /// Any number of items (mark, a multiple-choice quiz): the answer is
    /// the chosen items' indices in order.
    Any,
    /// Exactly one item (a single-choice quiz): the answer is its index.
    One,
    /// Each item set to one of the choices (predict): the answer maps
    /// each index to the value chosen.
    Each,
}

/// A value an item may take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemChoice {
    /// As the answer names it (an outcome's name).
    pub value: &'static str,
    /// The terminal's key for it.
    pub key: char,
    pub label: String,
}

/// What a key says of an item, by its sign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemKey {
    pub sign: char,
    pub tone: KeyTone,
}

/// How strongly an item's key speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyTone {
    /// It must be chosen (a step a safe system must refuse).
    Must,
    /// Either way is right.
    Either,
    /// It must be left.
    Leave,
}

/// What may be said of an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The learner's choice is right.
    Right,
    /// The learner's choice is wrong.
    Wrong,
    /// (Quiz, once solved or revealed.) The option's statement is true.
    True,
    /// (Quiz, once solved or revealed.) The option's statement is false.
    False,
}

/// What the timeline may show, for a front end that draws one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "shows", rename_all = "snake_case")]
pub enum RevealView {
    Everything,
    NoVerdicts,
    NotTheseSteps { steps: Vec<u32> },
    NotTheseStatements { actions: Vec<&'static str> },
}

impl From<&Reveal> for RevealView {
    fn from(reveal: &Reveal) -> RevealView {
        match reveal {
            Reveal::Everything => RevealView::Everything,
            Reveal::NoVerdicts => RevealView::NoVerdicts,
            Reveal::NotTheseSteps(steps) => RevealView::NotTheseSteps {
                steps: steps.clone(),
            },
            Reveal::NotTheseStatements(actions) => RevealView::NotTheseStatements {
                actions: actions.iter().map(|a| a.name()).collect(),
            },
        }
    }
}

impl RevealView {
    /// The policy the diagram is built with.
    pub fn reveal(&self) -> Reveal {
        match self {
            RevealView::Everything => Reveal::Everything,
            RevealView::NoVerdicts => Reveal::NoVerdicts,
            RevealView::NotTheseSteps { steps } => Reveal::NotTheseSteps(steps.clone()),
            RevealView::NotTheseStatements { actions } => Reveal::NotTheseStatements(
                actions
                    .iter()
                    .filter_map(|a| crate::scenario::Action::from_name(a))
                    .collect(),
            ),
        }
    }
}

/// The tone of a feedback block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    /// A right answer.
    Good,
    /// A wrong answer.
    Bad,
    /// The worked solution.
    Solution,
}

/// The feedback block: a try's grade, or the worked solution with the
/// learner's last try beside it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeedbackView {
    pub tone: Tone,
    /// `✓ Right`, `✗ Not yet`, `The worked solution`.
    pub head: String,
    pub summary: String,
    pub items: Vec<FeedbackItem>,
    /// The key in words (the solution only).
    pub key: Option<String>,
    /// The key in the shape of an answer (the solution only).
    pub key_answer: Option<Value>,
    /// A design key's cost by the catalogue, and in words (the solution
    /// of a design exercise only).
    pub key_cost: Option<u32>,
    pub key_cost_label: Option<String>,
    /// A design key on the editor's rows (the solution of a design
    /// exercise only).
    pub key_rows: Option<Vec<EditorRow>>,
    /// A design's counterexample (run by the explorers).
    #[serde(skip)]
    pub counterexample: Option<Counterexample>,
    /// A break schedule as run, with every verdict (once revealed).
    #[serde(skip)]
    pub schedule: Option<Scenario>,
    pub takeaway: Option<String>,
    /// The solution only: the learner's last try as it was graded.
    pub your_try: Option<Box<FeedbackView>>,
}

/// A line of feedback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FeedbackItem {
    pub index: Option<u32>,
    /// `step 3: `, `option 2: `, or nothing (a design's verdicts, a case).
    pub label: Option<String>,
    pub right: bool,
    pub text: String,
}

impl CourseSession {
    /// Applies `act` to the exercise and returns its screen. An answer the
    /// exercise cannot take, a hint past the last or a solution before a
    /// try is an error, and nothing changes.
    pub fn act(
        &mut self,
        lesson: &str,
        id: &str,
        act: &Act,
        lang: Lang,
    ) -> Result<ExerciseScreen, CourseError> {
        let key = (lesson.to_owned(), id.to_owned());
        match act {
            Act::Open => {}
            Act::Change { answer } => {
                let parsed = self.answer_from_json(lesson, id, answer)?;
                self.keep_answer(lesson, id, &parsed)?;
                self.keep_making(lesson, id, parsed);
            }
            Act::Edit { edit } => self.edit(lesson, id, edit)?,
            Act::Hint => {
                self.next_hint(lesson, id)?;
            }
            Act::HandIn { answer } => {
                let parsed = match answer {
                    Some(answer) => self.answer_from_json(lesson, id, answer)?,
                    None => self.made_answer(lesson, id)?,
                };
                return self.hand_in(lesson, id, &parsed, lang);
            }
            Act::Solution => {
                let solution = self.solution(lesson, id)?;
                let last_try = match self.shown.remove(&key) {
                    Some(Shown::Try(graded)) => Some(graded),
                    Some(Shown::Solution { last_try, .. }) => last_try,
                    None => None,
                };
                self.shown.insert(
                    key,
                    Shown::Solution {
                        solution: Box::new(solution),
                        last_try,
                    },
                );
            }
            Act::Leave => {
                self.shown.remove(&key);
            }
        }
        self.screen(lesson, id, lang)
    }

    /// [`Act::HandIn`] for an answer already read: what a front end hands
    /// in when its answer carries more than the JSON holds (a `sql`
    /// answer with the run of its statements, done off the UI thread).
    /// Graded, the try recorded, the answer kept as the last one.
    pub fn hand_in(
        &mut self,
        lesson: &str,
        id: &str,
        answer: &Answer,
        lang: Lang,
    ) -> Result<ExerciseScreen, CourseError> {
        let graded = self.grade(lesson, id, answer)?;
        self.keep_answer(lesson, id, answer)?;
        self.keep_making(lesson, id, answer.clone());
        self.shown.insert(
            (lesson.to_owned(), id.to_owned()),
            Shown::Try(Box::new(graded)),
        );
        self.screen(lesson, id, lang)
    }

    /// The try the screen shows now as it was graded (also beside the
    /// worked solution): for tests that compare front ends, and a
    /// teacher's view. A front end draws [`ExerciseScreen`] instead.
    pub fn shown_try(&self, lesson: &str, id: &str) -> Option<&Graded> {
        match self.shown.get(&(lesson.to_owned(), id.to_owned()))? {
            Shown::Try(graded) => Some(graded),
            Shown::Solution { last_try, .. } => last_try.as_deref(),
        }
    }

    /// The worked solution the screen shows now, if it does (see
    /// [`CourseSession::shown_try`]).
    pub fn shown_solution(&self, lesson: &str, id: &str) -> Option<&Solution> {
        match self.shown.get(&(lesson.to_owned(), id.to_owned()))? {
            Shown::Solution { solution, .. } => Some(solution),
            Shown::Try(_) => None,
        }
    }

    /// Records a try graded elsewhere (the page grades a design in a Web
    /// Worker with its own session): shown as this session's last try.
    pub fn show_graded(&mut self, lesson: &str, id: &str, graded: Graded) {
        self.shown.insert(
            (lesson.to_owned(), id.to_owned()),
            Shown::Try(Box::new(graded)),
        );
    }

    /// `answer` as the answer in the making (a whole answer changed or
    /// handed in): an empty one too, which is not kept as the last answer,
    /// so the screen's items show what the learner has now.
    fn keep_making(&mut self, lesson: &str, id: &str, answer: Answer) {
        self.making.insert(
            (lesson.to_owned(), id.to_owned()),
            Making {
                answer,
                focus: None,
            },
        );
    }

    /// The answer in the making: the editor's, else the last answer kept,
    /// else (a design or break exercise) the answer its editor starts from,
    /// so that the screen's answer is what the editor shows and a front end
    /// hands that in.
    pub fn answer_in_making(&self, lesson: &str, id: &str) -> Option<Answer> {
        match self.making.get(&(lesson.to_owned(), id.to_owned())) {
            Some(making) => Some(making.answer.clone()),
            None => self
                .last_answer(lesson, id)
                .or_else(|| self.starting_answer(lesson, id)),
        }
    }

    /// The answer a design's or break's editor starts from: every open
    /// knob at its start value, the scenario's schedule.
    fn starting_answer(&self, lesson: &str, id: &str) -> Option<Answer> {
        let (found, exercise) = self.exercise(lesson, id).ok()?;
        match &exercise.kind {
            ExerciseKind::Design { .. } => {
                let design = kinds::design::DesignExercise::of(&exercise.kind)?;
                let start = design_making(&design, &DesignAnswer::default());
                Some(Answer::Design(start))
            }
            ExerciseKind::Break { scenario, .. } => Some(Answer::Break(Schedule::of_scenario(
                found.scenario(*scenario)?,
            ))),
            _ => None,
        }
    }

    /// The answer in the making, whole, as [`Act::HandIn`] without an
    /// answer hands it in: a design's or break's editor's, else the one
    /// chosen on the items (or kept). Nothing chosen is refused as an empty
    /// answer is ([`AnswerError::Empty`](crate::course::AnswerError::Empty)).
    pub fn made_answer(&self, lesson: &str, id: &str) -> Result<Answer, CourseError> {
        let (_, exercise) = self.exercise(lesson, id)?;
        match &exercise.kind {
            ExerciseKind::Design { .. } | ExerciseKind::Break { .. } => {
                self.editor_answer(lesson, id)
            }
            kind => self
                .answer_in_making(lesson, id)
                .ok_or_else(|| crate::course::AnswerError::Empty(kind.name()).into()),
        }
    }

    /// [`Act::Edit`]: `edit` applied to the answer in the making (a design's
    /// or break's editor, the items of the other kinds), kept (as the last
    /// answer too, unless it is empty). Refused, nothing changes.
    fn edit(&mut self, lesson: &str, id: &str, edit: &Edit) -> Result<(), CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        let now = self.answer_in_making(lesson, id);
        let (answer, focus) = match &exercise.kind {
            ExerciseKind::Design { .. } => {
                let design = kinds::design::DesignExercise::of(&exercise.kind)
                    .ok_or(CourseError::Edit(EditRefused::NoSuchPlace))?;
                let current = match now {
                    Some(Answer::Design(answer)) => answer,
                    _ => DesignAnswer::default(),
                };
                let edited = edit_design(&design, &current, edit).map_err(CourseError::Edit)?;
                (Answer::Design(edited), None)
            }
            ExerciseKind::Break { scenario, .. } => {
                let shell = found
                    .scenario(*scenario)
                    .ok_or(CourseError::MissingScenario)?;
                let current = match now {
                    Some(Answer::Break(schedule)) => schedule,
                    _ => Schedule::of_scenario(shell),
                };
                let (edited, focus) =
                    edit_schedule(shell, &current, edit).map_err(CourseError::Edit)?;
                (Answer::Break(edited), focus)
            }
            kind => {
                // The items as the screen shows them, with nothing said of
                // them: only their indices and how they are chosen count.
                let named = Named {
                    items: &[],
                    revealed: false,
                    solution: false,
                    lang: self.lang(),
                };
                let (items, choosing) = items(self, found, exercise, now.as_ref(), &named)?;
                let choosing = choosing.ok_or(CourseError::Edit(EditRefused::NoSuchPlace))?;
                let chosen =
                    choose_item(kind, &items, &choosing, now, edit).map_err(CourseError::Edit)?;
                (chosen, None)
            }
        };
        self.keep_answer(lesson, id, &answer)?;
        self.making
            .insert((lesson.to_owned(), id.to_owned()), Making { answer, focus });
        Ok(())
    }

    /// The answer a design or break editor shows, whole (untouched, the
    /// exercise's start: a design's open knobs as given, a break's
    /// scenario): what a front end hands in.
    pub fn editor_answer(&self, lesson: &str, id: &str) -> Result<Answer, CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        let now = self.answer_in_making(lesson, id);
        match (&exercise.kind, now) {
            (ExerciseKind::Break { .. }, Some(Answer::Break(schedule))) => {
                Ok(Answer::Break(schedule))
            }
            (ExerciseKind::Break { scenario, .. }, _) => {
                let shell = found
                    .scenario(*scenario)
                    .ok_or(CourseError::MissingScenario)?;
                Ok(Answer::Break(Schedule::of_scenario(shell)))
            }
            (kind, now) => {
                let design = kinds::design::DesignExercise::of(kind)
                    .ok_or(CourseError::Edit(EditRefused::NoSuchPlace))?;
                let current = match now {
                    Some(Answer::Design(answer)) => answer,
                    _ => DesignAnswer::default(),
                };
                Ok(Answer::Design(design_making(&design, &current)))
            }
        }
    }

    /// A break exercise's schedule in the making run in its world, checked:
    /// what its preview draws, or why it cannot run.
    pub fn schedule_preview(&self, lesson: &str, id: &str) -> Result<Scenario, CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        let ExerciseKind::Break { scenario, .. } = &exercise.kind else {
            return Err(CourseError::NotBreak(id.to_owned()));
        };
        let shell = found
            .scenario(*scenario)
            .ok_or(CourseError::MissingScenario)?;
        let schedule = match self.answer_in_making(lesson, id) {
            Some(Answer::Break(schedule)) => schedule,
            _ => Schedule::of_scenario(shell),
        };
        kinds::schedule::schedule_scenario(shell, &schedule)
    }

    /// The exercise's screen as it stands, in `lang`.
    pub fn screen(
        &self,
        lesson: &str,
        id: &str,
        lang: Lang,
    ) -> Result<ExerciseScreen, CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        let record = self.exercise_progress(lesson, id);
        let standing = self.standing(lesson, id);
        let revealed = self.is_revealed(lesson, id);
        let reveal = self.reveal(lesson, id)?;
        let shown = self.shown.get(&(lesson.to_owned(), id.to_owned()));
        let last = self.answer_in_making(lesson, id);
        let focus = self
            .making
            .get(&(lesson.to_owned(), id.to_owned()))
            .and_then(|making| making.focus);
        let answer = last
            .as_ref()
            .map_or(Value::Null, |a| answer_to_json(found, &exercise.kind, a));
        let hints: Vec<String> = self
            .shown_hints(lesson, id)?
            .iter()
            .map(|hint| hint.get(lang).to_owned())
            .collect();
        let total_hints = exercise.hints.len();
        let more_hints = hints.len() < total_hints;
        let solution_open = self.solution_available(lesson, id);
        let (cost, cost_label) = design_cost(&exercise.kind, last.as_ref(), lang);
        let named = named_items(shown);
        let named = Named {
            items: &named,
            revealed,
            solution: matches!(shown, Some(Shown::Solution { .. })),
            lang,
        };
        let (items, choosing) = items(self, found, exercise, last.as_ref(), &named)?;
        Ok(ExerciseScreen {
            lesson: lesson.to_owned(),
            exercise: id.to_owned(),
            title: exercise.title(lang).to_owned(),
            kind: exercise.kind.name(),
            kind_label: exercise.kind.heading(lang).to_owned(),
            task: exercise.prompt.get(lang).to_owned(),
            standing,
            standing_label: standing_label(standing, record.attempts, lang),
            tries: record.attempts,
            status: status_line(standing, record.attempts, solution_open, lang),
            answer,
            items,
            choosing,
            more_hints,
            hint_button: hint_button(hints.len(), total_hints, lang),
            hints,
            solution_open,
            solution_button: lang.pick("Show the solution", "看解答").to_owned(),
            solution_note: (!solution_open).then(|| {
                lang.pick(
                    "The worked solution opens after your first try.",
                    "第一次作答之后才能看解答。",
                )
                .to_owned()
            }),
            cost,
            cost_label,
            editor: editor(found, exercise, last.as_ref(), focus, lang),
            feedback: shown.map(|shown| feedback_view(found, exercise, shown, lang)),
            search_acts: search_acts(&exercise.kind),
            reveal: RevealView::from(&reveal),
            practice: lesson
                .strip_prefix(crate::course::practice::PRACTICE_PREFIX)
                .and_then(|pool| self.practice_view(pool, lang).ok()),
        })
    }
}

/// The acts of `kind` whose answer runs the explorers: a design's grade
/// (its safety and minimal cost) and its worked solution, and a break
/// exercise's worked solution (a breaking schedule the explorers find; a
/// learner's own schedule is only replayed).
fn search_acts(kind: &ExerciseKind) -> Vec<&'static str> {
    match kind {
        ExerciseKind::Design { .. } => vec!["hand_in", "solution"],
        ExerciseKind::Break { .. } => vec!["solution"],
        _ => Vec::new(),
    }
}

/// The grade items the feedback shown names, by index: what may be said
/// of the learner's choices beside them.
fn named_items(shown: Option<&Shown>) -> Vec<GradeItem> {
    match shown {
        Some(Shown::Try(graded)) => graded.feedback.items.clone(),
        Some(Shown::Solution {
            last_try: Some(graded),
            ..
        }) => graded.feedback.items.clone(),
        _ => Vec::new(),
    }
}

/// What the feedback shown lets the screen say beside the learner's
/// choices: each named item's verdict, and its reason once revealed.
pub(crate) struct Named<'a> {
    pub(crate) items: &'a [GradeItem],
    pub(crate) revealed: bool,
    /// The worked solution is shown: an item's key may be said.
    pub(crate) solution: bool,
    pub(crate) lang: Lang,
}

impl Named<'_> {
    fn find(&self, index: u32) -> Option<&GradeItem> {
        self.items.iter().find(|item| item.index == Some(index))
    }

    /// The verdict the feedback gives the item, if it names it.
    pub(crate) fn verdict(&self, index: u32) -> Option<Verdict> {
        self.find(index).map(|item| {
            if item.right {
                Verdict::Right
            } else {
                Verdict::Wrong
            }
        })
    }

    /// The item's reason, once the exercise is revealed.
    pub(crate) fn why(&self, index: u32) -> Option<String> {
        self.find(index)
            .filter(|_| self.revealed)
            .map(|item| item.text.get(self.lang).to_owned())
    }

    /// A step with the learner's choice (in words, its sign, its value)
    /// and what may be said of it.
    pub(crate) fn step(
        &self,
        index: u32,
        choice: Option<String>,
        sign: String,
        value: Option<&'static str>,
    ) -> Item {
        let verdict = self.verdict(index);
        Item {
            index,
            label: step_label(index, self.lang),
            chosen: choice.is_some(),
            choice,
            verdict,
            verdict_label: verdict.map(|v| verdict_label(v, self.lang)),
            why: self.why(index),
            text: None,
            sign,
            value,
            key: None,
        }
    }
}

/// The answer's parts, each kind's own (mark and predict steps, quiz
/// options; the other kinds draw their answer from `answer`), and how
/// they are chosen.
fn items(
    session: &CourseSession,
    lesson: &Lesson,
    exercise: &Exercise,
    answer: Option<&Answer>,
    named: &Named<'_>,
) -> Result<(Vec<Item>, Option<Choosing>), CourseError> {
    let lang = named.lang;
    Ok(match &exercise.kind {
        ExerciseKind::Mark {
            candidates,
            scenario,
        } => (
            kinds::mark::mark_items(lesson.scenario(*scenario), candidates, answer, named),
            Some(kinds::mark::mark_choosing(lang)),
        ),
        ExerciseKind::Predict { .. } => (
            kinds::predict::predict_items(
                &session.asked_steps(&lesson.id, &exercise.id)?,
                answer,
                named,
            ),
            Some(kinds::predict::predict_choosing(lang)),
        ),
        ExerciseKind::Quiz { options, multiple } => (
            kinds::quiz::quiz_items(
                &session.quiz_order(&lesson.id, &exercise.id)?,
                options,
                *multiple,
                answer,
                named,
            ),
            Some(kinds::quiz::quiz_choosing(*multiple, lang)),
        ),
        ExerciseKind::Design { .. } | ExerciseKind::Break { .. } | ExerciseKind::Sql { .. } => {
            (Vec::new(), None)
        }
    })
}

pub(crate) fn step_label(index: u32, lang: Lang) -> String {
    match lang {
        Lang::En => format!("step {index}"),
        Lang::Zh => format!("第 {index} 步"),
    }
}

pub(crate) fn option_label(number: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("option {number}"),
        Lang::Zh => format!("选项 {number}"),
    }
}

pub(crate) fn verdict_label(verdict: Verdict, lang: Lang) -> String {
    match verdict {
        Verdict::Right => lang.pick("✓ right", "✓ 对"),
        Verdict::Wrong => lang.pick("✗ wrong", "✗ 不对"),
        Verdict::True => lang.pick("✓ true", "✓ 正确"),
        Verdict::False => lang.pick("✗ false", "✗ 错误"),
    }
    .to_owned()
}

/// "1 try", "2 tries", "作答 2 次": the screen's header and the review.
pub fn tries_words(tries: u32, lang: Lang) -> String {
    match (lang, tries) {
        (Lang::En, 1) => "1 try".to_owned(),
        (Lang::En, n) => format!("{n} tries"),
        (Lang::Zh, n) => format!("作答 {n} 次"),
    }
}

/// `✓ solved · 2 tries`; empty before anything was done.
fn standing_label(standing: Standing, tries: u32, lang: Lang) -> String {
    if standing == Standing::NotStarted || (standing == Standing::Tried && tries == 0) {
        return String::new();
    }
    let said = standing.label().get(lang).to_owned();
    format!(
        "{} {said} · {}",
        standing.symbol(),
        tries_words(tries, lang)
    )
}

/// What to do next, in one line.
fn status_line(standing: Standing, tries: u32, solution_open: bool, lang: Lang) -> String {
    match standing {
        Standing::Solved => lang.pick(
            "Solved. Try again if you like; it stays solved.",
            "已解决。可以再试，成绩不变。",
        ),
        Standing::SolvedWithSolution => lang.pick(
            "Solved with the solution: solve it alone later.",
            "看过解答后解出：过些时候独立再解一次。",
        ),
        Standing::Revealed => lang.pick(
            "Solution open: hand in your own answer to finish.",
            "解答已打开：交上你自己的答案来完成。",
        ),
        _ if tries == 0 => lang.pick(
            "Answer, then hand in. The solution opens after a try.",
            "作答后提交。作答一次后可看解答。",
        ),
        _ if solution_open => lang.pick(
            "Not solved yet: try again, take a hint, or see the solution.",
            "还没解出：再试、看提示或看解答。",
        ),
        _ => lang.pick("Not solved yet.", "还没解出。"),
    }
    .to_owned()
}

fn hint_button(shown: usize, total: usize, lang: Lang) -> String {
    if shown >= total {
        return lang.pick("No more hints", "没有更多提示").to_owned();
    }
    let next = shown + 1;
    match (lang, shown) {
        (Lang::En, 0) => format!("Show a hint ({next}/{total})"),
        (Lang::En, _) => format!("Next hint ({next}/{total})"),
        (Lang::Zh, 0) => format!("看提示（{next}/{total}）"),
        (Lang::Zh, _) => format!("下一条提示（{next}/{total}）"),
    }
}

/// The editor of a design or break exercise over the answer in the making.
fn editor(
    lesson: &Lesson,
    exercise: &Exercise,
    answer: Option<&Answer>,
    focus: Option<u32>,
    lang: Lang,
) -> Option<Editor> {
    match &exercise.kind {
        ExerciseKind::Design { .. } => {
            let design = kinds::design::DesignExercise::of(&exercise.kind)?;
            let default = DesignAnswer::default();
            let answer = match answer {
                Some(Answer::Design(answer)) => answer,
                _ => &default,
            };
            Some(design_editor(&design, answer, lang))
        }
        ExerciseKind::Break {
            scenario,
            violation,
        } => {
            let shell = lesson.scenario(*scenario)?;
            let schedule = match answer {
                Some(Answer::Break(schedule)) => schedule.clone(),
                _ => Schedule::of_scenario(shell),
            };
            Some(schedule_editor(shell, *violation, &schedule, focus, lang))
        }
        _ => None,
    }
}

/// A design answer's cost by the catalogue, and in words.
fn design_cost(
    kind: &ExerciseKind,
    answer: Option<&Answer>,
    lang: Lang,
) -> (Option<u32>, Option<String>) {
    let Some(exercise) = crate::course::kinds::design::DesignExercise::of(kind) else {
        return (None, None);
    };
    let default = crate::course::grade::DesignAnswer::default();
    let answer = match answer {
        Some(Answer::Design(design)) => design,
        _ => &default,
    };
    let (design, targets) = exercise.chosen(answer);
    let cost = exercise.cost(&design, &targets, &answer.reconcile);
    let label = cost.map(|cost| match lang {
        Lang::En => format!("Cost of this design: {cost}"),
        Lang::Zh => format!("这个设计的代价：{cost}"),
    });
    (cost, label)
}

fn feedback_view(lesson: &Lesson, exercise: &Exercise, shown: &Shown, lang: Lang) -> FeedbackView {
    let kind = &exercise.kind;
    match shown {
        Shown::Try(graded) => try_view(kind, graded, lang),
        Shown::Solution { solution, last_try } => {
            let takeaway = Some(exercise.takeaway.get(lang).to_owned());
            let (key_cost, _) = design_cost(kind, Some(&solution.key), lang);
            FeedbackView {
                tone: Tone::Solution,
                head: lang.pick("The worked solution", "解答").to_owned(),
                summary: lang
                    .pick(
                        "The key, computed by the simulator, with each reason.",
                        "答案由模拟器算出，附每一项的理由。",
                    )
                    .to_owned(),
                items: grade_items(kind, &solution.grade, lang),
                key: Some(key_words(&solution.key, lang)),
                key_answer: Some(answer_to_json(lesson, kind, &solution.key)),
                key_cost,
                key_rows: match (&solution.key, kinds::design::DesignExercise::of(kind)) {
                    (Answer::Design(key), Some(design)) => {
                        Some(design_editor(&design, key, lang).rows)
                    }
                    _ => None,
                },
                key_cost_label: key_cost.map(|cost| match lang {
                    Lang::En => format!(
                        "The cheapest safe choice, computed by the explorers; its cost: {cost}"
                    ),
                    Lang::Zh => format!("探索器算出的最便宜的安全选择；代价：{cost}"),
                }),
                counterexample: solution.grade.counterexample.clone(),
                schedule: solution.grade.scenario.clone(),
                takeaway,
                your_try: last_try
                    .as_ref()
                    .map(|graded| Box::new(try_view(kind, graded, lang))),
            }
        }
    }
}

fn try_view(kind: &ExerciseKind, graded: &Graded, lang: Lang) -> FeedbackView {
    let shown = &graded.feedback;
    let (tone, head) = if shown.correct {
        (Tone::Good, lang.pick("✓ Right", "✓ 对了"))
    } else {
        (Tone::Bad, lang.pick("✗ Not yet", "✗ 还不对"))
    };
    FeedbackView {
        tone,
        head: head.to_owned(),
        summary: shown.summary.get(lang).to_owned(),
        items: grade_items(
            kind,
            &Grade {
                items: shown.items.clone(),
                ..empty_grade()
            },
            lang,
        ),
        key: None,
        key_answer: None,
        key_cost: None,
        key_cost_label: None,
        key_rows: None,
        counterexample: shown.counterexample.clone(),
        schedule: shown.scenario.clone(),
        takeaway: shown.takeaway.as_ref().map(|t| t.get(lang).to_owned()),
        your_try: None,
    }
}

fn empty_grade() -> Grade {
    Grade {
        correct: false,
        summary: Text::default(),
        items: Vec::new(),
        counterexample: None,
        scenario: None,
    }
}

/// A grade's items as lines; a quiz's are drawn on its options instead.
fn grade_items(kind: &ExerciseKind, grade: &Grade, lang: Lang) -> Vec<FeedbackItem> {
    if matches!(kind, ExerciseKind::Quiz { .. }) {
        return Vec::new();
    }
    let steps = matches!(
        kind,
        ExerciseKind::Mark { .. } | ExerciseKind::Predict { .. }
    );
    grade
        .items
        .iter()
        .map(|item| FeedbackItem {
            index: item.index,
            label: item.index.filter(|_| steps).map(|i| step_label(i, lang)),
            right: item.right,
            text: item.text.get(lang).to_owned(),
        })
        .collect()
}

/// A solution's key in words: marked steps, predictions, options.
fn key_words(key: &Answer, lang: Lang) -> String {
    let join = |parts: Vec<String>| parts.join(lang.pick(", ", "、"));
    match key {
        Answer::Mark(steps) if steps.is_empty() => lang
            .pick("no step must be refused", "没有必须拒绝的步骤")
            .to_owned(),
        Answer::Mark(steps) => join(steps.iter().map(|&i| step_label(i, lang)).collect()),
        Answer::Predict(outcomes) => join(
            outcomes
                .iter()
                .map(|(i, o)| {
                    format!(
                        "{}: {}",
                        step_label(*i, lang),
                        crate::narrate::outcome_label(*o, lang)
                    )
                })
                .collect(),
        ),
        Answer::Quiz(_) => lang
            .pick("the options marked ✓ true", "标 ✓ 正确 的选项")
            .to_owned(),
        Answer::Design(_) | Answer::Break(_) => lang.pick("shown below", "见下文").to_owned(),
        #[cfg(feature = "sql-lab")]
        Answer::Sql(_) => lang.pick("shown below", "见下文").to_owned(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::course::{MarkKey, mark_keys};

    /// Two quizzes: one single-choice (`pick`), one multiple (`many`).
    pub(crate) const LESSON: &str = r#"
id = "one"
order = 1
title = { en = "One", zh = "一" }
summary = { en = "A lesson.", zh = "一课。" }
concepts = ["C01"]

[[sections]]
title = { en = "Leases", zh = "租约" }
concepts = ["C01"]
body = { en = "Body.", zh = "正文。" }

[[exercises]]
id = "pick"
kind = "quiz"
concepts = ["C01"]
prompt = { en = "Which?", zh = "哪个？" }
hints = [{ en = "First.", zh = "一。" }, { en = "Second.", zh = "二。" }]
takeaway = { en = "Done.", zh = "完成。" }
options = [
  { text = { en = "Right", zh = "对" }, correct = true, why = { en = "Yes.", zh = "是。" } },
  { text = { en = "Wrong", zh = "错" }, correct = false, why = { en = "No.", zh = "否。" } },
  { text = { en = "Also wrong", zh = "也错" }, correct = false, why = { en = "No.", zh = "否。" } },
  { text = { en = "Wrong too", zh = "还是错" }, correct = false, why = { en = "No.", zh = "否。" } },
]

[[exercises]]
id = "many"
kind = "quiz"
multiple = true
concepts = ["C01"]
prompt = { en = "Which ones?", zh = "哪些？" }
hints = [{ en = "First.", zh = "一。" }, { en = "Second.", zh = "二。" }]
takeaway = { en = "Done.", zh = "完成。" }
options = [
  { text = { en = "A", zh = "甲" }, correct = true, why = { en = "Yes.", zh = "是。" } },
  { text = { en = "B", zh = "乙" }, correct = true, why = { en = "Yes.", zh = "是。" } },
  { text = { en = "C", zh = "丙" }, correct = false, why = { en = "No.", zh = "否。" } },
  { text = { en = "D", zh = "丁" }, correct = false, why = { en = "No.", zh = "否。" } },
]
"#;

    fn course() -> Result<CourseSession, CourseError> {
        CourseSession::from_sources(&[("one", LESSON)])
    }

    fn hand_in(value: Value) -> Act {
        Act::HandIn {
            answer: Some(value),
        }
    }

    /// The whole screen as the page receives it, in both languages.
    fn said(screen: &ExerciseScreen) -> String {
        serde_json::to_string(screen).unwrap_or_default()
    }

    #[test]
    fn a_wrong_single_choice_names_only_the_chosen_option() -> Result<(), CourseError> {
        let mut course = course()?;
        let first = course.act("one", "pick", &hand_in(serde_json::json!([1])), Lang::En)?;
        let feedback = first
            .feedback
            .as_ref()
            .map(|f| f.summary.clone())
            .unwrap_or_default();
        assert!(
            feedback.contains("The option you chose is not right"),
            "{feedback}"
        );
        assert!(
            !feedback.contains("of 4"),
            "it counts only the choice: {feedback}"
        );
        // No verdict anywhere yet, and none on an option not chosen ever.
        assert!(first.items.iter().all(|item| item.verdict.is_none()));
        let second = course.act("one", "pick", &hand_in(serde_json::json!([2])), Lang::En)?;
        let marked: Vec<(u32, Option<Verdict>)> = second
            .items
            .iter()
            .filter(|item| item.verdict.is_some())
            .map(|item| (item.index, item.verdict))
            .collect();
        assert_eq!(marked, [(2, Some(Verdict::Wrong))]);
        let number = second
            .items
            .iter()
            .position(|item| item.index == 2)
            .map_or(0, |p| p + 1);
        let summary = second.feedback.map(|f| f.summary).unwrap_or_default();
        assert!(summary.contains(&format!("option {number}")), "{summary}");
        Ok(())
    }

    #[test]
    fn a_multiple_choice_try_counts_the_missing_right_options_without_naming_them()
    -> Result<(), CourseError> {
        let mut course = course()?;
        let screen = course.act("one", "many", &hand_in(serde_json::json!([0, 2])), Lang::En)?;
        let summary = screen.feedback.map(|f| f.summary).unwrap_or_default();
        assert!(
            summary.contains("1 of the 2 options you chose is wrong"),
            "{summary}"
        );
        assert!(summary.contains("1 right option is missing"), "{summary}");
        let zh = course.screen("one", "many", Lang::Zh)?;
        let summary = zh.feedback.map(|f| f.summary).unwrap_or_default();
        assert!(summary.contains("还少选了 1 个正确的选项"), "{summary}");
        Ok(())
    }

    #[test]
    fn the_solution_after_two_wrong_tries_never_calls_the_learner_right() -> Result<(), CourseError>
    {
        let mut course = course()?;
        course.act("one", "pick", &hand_in(serde_json::json!([1])), Lang::En)?;
        let before = course.screen("one", "pick", Lang::En)?;
        assert!(before.solution_open);
        course.act("one", "pick", &hand_in(serde_json::json!([3])), Lang::En)?;
        for lang in [Lang::En, Lang::Zh] {
            let screen = course.act("one", "pick", &Act::Solution, lang)?;
            let feedback = screen
                .feedback
                .as_ref()
                .ok_or(CourseError::MissingScenario)?;
            assert_eq!(feedback.tone, Tone::Solution);
            let yours = feedback
                .your_try
                .as_ref()
                .ok_or(CourseError::MissingScenario)?;
            assert_eq!(yours.tone, Tone::Bad);
            let text = said(&screen);
            for praise in ["well done", "Correct", "✓ Right", "做得好", "对了"] {
                assert!(!text.contains(praise), "{praise} in {text}");
            }
            assert_eq!(screen.standing, Standing::Revealed);
            // Every option now says whether it is true; the learner's
            // choice stays as it was.
            let verdicts: Vec<Option<Verdict>> = screen.items.iter().map(|i| i.verdict).collect();
            assert!(
                verdicts
                    .iter()
                    .all(|v| matches!(v, Some(Verdict::True | Verdict::False)))
            );
            assert_eq!(
                screen
                    .items
                    .iter()
                    .filter(|i| i.verdict == Some(Verdict::True))
                    .count(),
                1
            );
            assert!(screen.items.iter().any(|i| i.index == 3 && i.chosen));
        }
        // Copying the key: solved with the solution, not solved alone.
        let screen = course.act("one", "pick", &hand_in(serde_json::json!([0])), Lang::En)?;
        assert_eq!(screen.standing, Standing::SolvedWithSolution);
        // Right, but no praise: the solution was seen first.
        let summary = screen
            .feedback
            .as_ref()
            .map(|f| f.summary.clone())
            .unwrap_or_default();
        assert!(summary.contains("solution seen first"), "{summary}");
        assert!(!said(&screen).contains("well done"), "{summary}");
        assert!(screen.standing_label.contains("solved with the solution"));
        assert_eq!(screen.feedback.map(|f| f.tone), Some(Tone::Good));
        Ok(())
    }

    #[test]
    fn hints_and_the_solution_button_follow_the_session() -> Result<(), CourseError> {
        let mut course = course()?;
        let screen = course.act("one", "pick", &Act::Open, Lang::En)?;
        assert!(screen.more_hints && !screen.solution_open);
        assert_eq!(screen.hint_button, "Show a hint (1/2)");
        assert!(screen.solution_note.is_some());
        assert!(course.act("one", "pick", &Act::Solution, Lang::En).is_err());
        course.act("one", "pick", &Act::Hint, Lang::Zh)?;
        let screen = course.act("one", "pick", &Act::Hint, Lang::Zh)?;
        assert_eq!(screen.hints, ["一。", "二。"]);
        assert!(!screen.more_hints);
        assert!(course.act("one", "pick", &Act::Hint, Lang::En).is_err());
        // The answer in the making is kept and comes back; leaving drops
        // the feedback, not the answer.
        course.act(
            "one",
            "pick",
            &Act::Change {
                answer: serde_json::json!([2]),
            },
            Lang::En,
        )?;
        course.act("one", "pick", &hand_in(serde_json::json!([2])), Lang::En)?;
        let left = course.act("one", "pick", &Act::Leave, Lang::En)?;
        assert!(left.feedback.is_none());
        assert_eq!(left.answer, serde_json::json!([2]));
        assert!(left.items.iter().any(|i| i.index == 2 && i.chosen));
        Ok(())
    }

    #[test]
    fn a_mark_try_names_the_first_wrong_step_from_the_second_try_on() -> Result<(), CourseError> {
        let mut course = CourseSession::from_sources(&[("nap", NAP)])?;
        let scenario = course.exercise_scenario("nap", "mark")?.clone();
        let keys = mark_keys(&scenario, &[crate::scenario::Action::Write]);
        let refuse: Vec<u32> = keys
            .iter()
            .filter(|(_, key)| *key == MarkKey::MustRefuse)
            .map(|(index, _)| *index)
            .collect();
        let allowed: Vec<u32> = keys
            .iter()
            .filter(|(_, key)| *key == MarkKey::MustAllow)
            .map(|(index, _)| *index)
            .collect();
        assert!(!refuse.is_empty() && !allowed.is_empty());
        // Marks every allowed step: wrong everywhere it can be.
        let wrong = serde_json::json!(allowed);
        let first = course.act("nap", "mark", &hand_in(wrong.clone()), Lang::En)?;
        assert!(first.items.iter().all(|i| i.verdict.is_none()));
        let second = course.act("nap", "mark", &hand_in(wrong), Lang::En)?;
        let named: Vec<u32> = second
            .items
            .iter()
            .filter(|i| i.verdict.is_some())
            .map(|i| i.index)
            .collect();
        let first_wrong = keys
            .iter()
            .filter(|(index, key)| {
                *key != MarkKey::Either && (allowed.contains(index) || refuse.contains(index))
            })
            .map(|(index, _)| *index)
            .min();
        assert_eq!(named.first().copied(), first_wrong);
        assert_eq!(named.len(), 1);
        assert!(second.items.iter().all(|i| i.why.is_none()));
        Ok(())
    }

    #[test]
    fn a_mark_steps_key_shows_only_beside_the_worked_solution_and_an_emptied_answer_shows_empty()
    -> Result<(), CourseError> {
        let mut course = CourseSession::from_sources(&[("nap", NAP)])?;
        let opened = course.act("nap", "mark", &Act::Open, Lang::En)?;
        let choosing = opened
            .choosing
            .as_ref()
            .ok_or(CourseError::MissingScenario)?;
        assert!(choosing.on_timeline && choosing.pick == Pick::Any);
        let first = opened.items.first().map_or(0, |i| i.index);
        let marked = course.act(
            "nap",
            "mark",
            &hand_in(serde_json::json!([first])),
            Lang::En,
        )?;
        assert!(marked.items.iter().all(|i| i.key.is_none()));
        assert_eq!(marked.items.first().map(|i| i.sign.as_str()), Some("●"));
        let shown = course.act("nap", "mark", &Act::Solution, Lang::En)?;
        assert!(shown.items.iter().all(|i| i.key.is_some()));
        // Emptied: drawn as such, while the last answer kept stays.
        let emptied = course.act(
            "nap",
            "mark",
            &Act::Change {
                answer: serde_json::json!([]),
            },
            Lang::En,
        )?;
        assert!(emptied.items.iter().all(|i| !i.chosen && i.sign == "○"));
        assert!(course.last_answer("nap", "mark").is_some());
        let left = course.act("nap", "mark", &Act::Leave, Lang::En)?;
        assert!(left.items.iter().all(|i| i.key.is_none()));
        Ok(())
    }

    use crate::course::session::tests::NAP;
}
