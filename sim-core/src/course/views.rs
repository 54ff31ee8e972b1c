//! The course's screens other than an exercise's, as data: the course map,
//! a lesson's page, the review and the front door, each a serializable
//! view in the learner's language built by the session. Every count,
//! standing, level state and "next" is decided here; the terminal draws
//! these into cells and the page (`web/src/course.rs`) serializes them for
//! its scripts, neither looking into lessons or progress itself. (The
//! exercise screen is [`crate::course::ExerciseScreen`].)

use serde::Serialize;

use crate::Lang;
use crate::course::concept_name;
use crate::course::error::CourseError;
use crate::course::front_door::{Ending, Story, problem};
use crate::course::lesson::{Exercise, Lesson};
use crate::course::levels::{LevelState, Standing};
use crate::course::progress::{Position, SelfCheck};
use crate::course::session::CourseSession;
use crate::scenario::Scenario;

/// The Practice entry's words for a lesson with practice rounds.
fn practice_entry(lesson: &Lesson, lang: Lang) -> Option<&'static str> {
    lesson
        .practice
        .is_some()
        .then(|| lang.pick("Practice: fresh rounds", "练习：新的轮次"))
}

/// A concept: its code and its name in the learner's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConceptView<'a> {
    pub id: &'a str,
    pub name: &'static str,
}

/// An exercise as the map, a lesson's page and the review list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExerciseView<'a> {
    /// Its index in its lesson's file, as the front ends open it.
    #[serde(skip)]
    pub index: usize,
    pub id: &'a str,
    pub title: &'a str,
    /// The kind's name (`mark`, `predict`, …) and in words.
    pub kind: &'static str,
    pub kind_label: &'static str,
    pub concepts: Vec<ConceptView<'a>>,
    /// The lesson scenario it is about, by name.
    pub scenario: Option<&'a str>,
    /// The task (its prompt), for a list that shows the selected one's;
    /// the page has it on the exercise's screen instead.
    #[serde(skip)]
    pub task: &'a str,
    /// Its level: the section it practises, from 0.
    pub level: usize,
    /// Its tries and the hints opened.
    pub tries: u32,
    pub hints: u32,
    /// How far the learner got, with its sign and in words.
    pub standing: Standing,
    pub symbol: &'static str,
    pub standing_label: String,
}

/// The next unfinished exercise (the front door's Continue, the map's
/// "next", the review's way on).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextView<'a> {
    /// Lesson and exercise by index, as the front ends open them.
    #[serde(skip)]
    pub at: (usize, usize),
    pub lesson: &'a str,
    pub lesson_order: u32,
    pub lesson_title: &'a str,
    pub exercise: &'a str,
    pub title: &'a str,
}

/// The course map: every lesson with its progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MapView<'a> {
    pub lang: Lang,
    pub lessons: Vec<MapLessonView<'a>>,
    /// Where the learner left off, and the self-checks ticked: the
    /// progress record's own (borrowed: the page's download pays for
    /// every copy of a record's kept keys).
    pub position: Option<&'a Position>,
    pub self_check: &'a SelfCheck,
    /// The next unfinished exercise, in the order of the review (lesson,
    /// level, file), which the lessons' exercises below follow.
    pub next: Option<NextView<'a>>,
    /// Exercises done in the whole course, and the course's count.
    pub completed: usize,
    pub total: usize,
}

/// A lesson on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MapLessonView<'a> {
    pub id: &'a str,
    pub order: u32,
    pub title: &'a str,
    pub summary: &'a str,
    pub concepts: Vec<ConceptView<'a>>,
    /// Its sections, and how many of them are read.
    pub sections: usize,
    pub sections_read: usize,
    /// Its exercises in course order (level, then file).
    pub exercises: Vec<ExerciseView<'a>>,
    /// Exercises done, and whether every one is.
    pub completed: usize,
    pub done: bool,
    /// The lesson has practice rounds (a `[practice]` world): the
    /// Practice entry's words, else none.
    pub practice: Option<&'static str>,
}

/// One lesson's page: its sections as the levels of its path, its
/// scenarios and its exercises in file order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LessonView<'a> {
    pub id: &'a str,
    pub order: u32,
    pub title: &'a str,
    pub summary: &'a str,
    pub concepts: Vec<ConceptView<'a>>,
    pub sections: Vec<SectionView<'a>>,
    pub sections_read: usize,
    pub scenarios: Vec<ScenarioView<'a>>,
    pub exercises: Vec<ExerciseView<'a>>,
    pub completed: usize,
    /// The lesson has practice rounds: the Practice entry's words.
    pub practice: Option<&'static str>,
}

/// A section, the text of one level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SectionView<'a> {
    pub title: &'a str,
    pub body: &'a str,
    pub concepts: Vec<ConceptView<'a>>,
    /// The scenario it shows, by name.
    pub scenario: Option<&'a str>,
    /// Its level on the lesson's path: `done` (read, and its exercises
    /// solved), `current` or `open`.
    pub state: LevelState,
    pub read: bool,
}

/// A lesson scenario: its name and title.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScenarioView<'a> {
    pub name: &'a str,
    pub title: &'a str,
}

/// The review: every exercise of the course in course order with the
/// learner's tries, hints and standing, and the way on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReviewView<'a> {
    pub rows: Vec<ReviewLine<'a>>,
    /// Exercises solved (with or without the solution), of all.
    pub solved: usize,
    pub total: usize,
    pub next: Option<NextView<'a>>,
    /// Practice rounds: per pool and per concept.
    pub practice: crate::course::practice::PracticeReview,
}

/// A row of the review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReviewLine<'a> {
    /// The lesson by index, id and number.
    #[serde(skip)]
    pub lesson: usize,
    pub lesson_id: &'a str,
    /// `lesson.level`: `2.1`.
    pub place: String,
    /// Tries and hints in words: `2 tries · 1 hint`.
    pub counts: String,
    pub exercise: ExerciseView<'a>,
}

/// The front door: the problem, the two stories as the engine ends them,
/// and where Start or Continue leads.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrontDoorView<'a> {
    pub problem: &'static str,
    pub stories: Vec<StoryView>,
    /// Whether the learner has begun (Continue instead of Start).
    pub started: bool,
    /// The next unfinished exercise; absent when all are complete.
    pub next: Option<NextView<'a>>,
}

/// One story and how A's late write ended, from the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoryView {
    /// The scenario, for a front end to draw its timeline.
    #[serde(skip)]
    pub scenario: Scenario,
    pub title: String,
    pub ending_step: u32,
    pub landed: bool,
    pub violation: bool,
    /// The ending's sign (`‼` a violation, `✓` landed, `✗` refused) and
    /// words (no full stop: the front ends punctuate).
    pub symbol: &'static str,
    pub ending: &'static str,
}

/// "1 hint", "2 hints", "提示 2 次": the review's counts.
pub fn hints_words(hints: u32, lang: Lang) -> String {
    match (lang, hints) {
        (Lang::Zh, n) => format!("提示 {n} 次"),
        (Lang::En, 1) => "1 hint".to_owned(),
        (Lang::En, n) => format!("{n} hints"),
    }
}

fn concepts(ids: &[String], lang: Lang) -> Vec<ConceptView<'_>> {
    ids.iter()
        .map(|id| ConceptView {
            id,
            name: concept_name(id, lang).unwrap_or_default(),
        })
        .collect()
}

fn scenario_name(lesson: &Lesson, index: Option<usize>) -> Option<&str> {
    index
        .and_then(|i| lesson.scenarios.get(i))
        .map(|(name, _)| name.as_str())
}

impl CourseSession {
    fn exercise_view<'a>(
        &self,
        lesson: &'a Lesson,
        index: usize,
        exercise: &'a Exercise,
        lang: Lang,
    ) -> ExerciseView<'a> {
        let standing = self.standing(&lesson.id, &exercise.id);
        let record = self.exercise_progress(&lesson.id, &exercise.id);
        ExerciseView {
            index,
            id: &exercise.id,
            title: exercise.title(lang),
            kind: exercise.kind.name(),
            kind_label: exercise.kind.label(lang),
            concepts: concepts(&exercise.concepts, lang),
            scenario: scenario_name(lesson, exercise.kind.scenario()),
            task: exercise.prompt.get(lang),
            level: lesson.section_of(exercise),
            tries: record.attempts,
            hints: record.hints_used,
            standing,
            symbol: standing.symbol(),
            standing_label: standing.label().get(lang).to_owned(),
        }
    }

    /// The sections of `lesson` read, counting only sections it has.
    fn read_count(&self, lesson: &Lesson) -> usize {
        self.sections_read(&lesson.id)
            .iter()
            .filter(|s| (**s as usize) < lesson.sections.len())
            .count()
    }

    /// The exercises of lesson `at` in course order (level, then file).
    fn exercises_in_order(&self, at: usize, lang: Lang) -> Vec<ExerciseView<'_>> {
        let Some(lesson) = self.lessons().get(at) else {
            return Vec::new();
        };
        lesson
            .levels()
            .into_iter()
            .flatten()
            .filter_map(|index| {
                let exercise = lesson.exercises.get(index)?;
                Some(self.exercise_view(lesson, index, exercise, lang))
            })
            .collect()
    }

    /// The next unfinished exercise ([`CourseSession::next_unfinished`]).
    pub fn next_view(&self, lang: Lang) -> Option<NextView<'_>> {
        let at = self.next_unfinished()?;
        let lesson = self.lessons().get(at.0)?;
        let exercise = lesson.exercises.get(at.1)?;
        Some(NextView {
            at,
            lesson: &lesson.id,
            lesson_order: lesson.order,
            lesson_title: lesson.title.get(lang),
            exercise: &exercise.id,
            title: exercise.title(lang),
        })
    }

    /// The course map in `lang`.
    pub fn map_view(&self, lang: Lang) -> MapView<'_> {
        let lessons = self
            .lessons()
            .iter()
            .enumerate()
            .map(|(at, lesson)| {
                let (completed, total) = self.completed(lesson);
                MapLessonView {
                    id: &lesson.id,
                    order: lesson.order,
                    title: lesson.title.get(lang),
                    summary: lesson.summary.get(lang),
                    concepts: concepts(&lesson.concepts, lang),
                    sections: lesson.sections.len(),
                    sections_read: self.read_count(lesson),
                    exercises: self.exercises_in_order(at, lang),
                    completed,
                    done: completed == total,
                    practice: practice_entry(lesson, lang),
                }
            })
            .collect();
        let (completed, total) = self.completed_overall();
        let progress = self.progress();
        MapView {
            lang: self.lang(),
            lessons,
            position: progress.position.as_ref(),
            self_check: &progress.self_check,
            next: self.next_view(lang),
            completed,
            total,
        }
    }

    /// Lesson `id`'s page in `lang`.
    pub fn lesson_view(&self, id: &str, lang: Lang) -> Result<LessonView<'_>, CourseError> {
        let lesson = self.lesson(id)?;
        let at = self.lessons().iter().position(|l| l.id == id);
        let levels = at.map(|at| self.levels(at)).unwrap_or_default();
        let read = self.sections_read(id);
        let sections = lesson
            .sections
            .iter()
            .enumerate()
            .map(|(index, section)| SectionView {
                title: section.title.get(lang),
                body: section.body.get(lang),
                concepts: concepts(&section.concepts, lang),
                scenario: scenario_name(lesson, section.scenario),
                state: levels.get(index).map_or(LevelState::Open, |l| l.state),
                read: read.contains(&u32::try_from(index).unwrap_or(u32::MAX)),
            })
            .collect();
        Ok(LessonView {
            id: &lesson.id,
            order: lesson.order,
            title: lesson.title.get(lang),
            summary: lesson.summary.get(lang),
            concepts: concepts(&lesson.concepts, lang),
            sections,
            sections_read: self.read_count(lesson),
            scenarios: lesson
                .scenarios
                .iter()
                .map(|(name, scenario)| ScenarioView {
                    name,
                    title: scenario.title.get(lang),
                })
                .collect(),
            exercises: lesson
                .exercises
                .iter()
                .enumerate()
                .map(|(index, exercise)| self.exercise_view(lesson, index, exercise, lang))
                .collect(),
            completed: self.completed(lesson).0,
            practice: practice_entry(lesson, lang),
        })
    }

    /// The review in `lang`: the rows of [`CourseSession::review`].
    pub fn review_view(&self, lang: Lang) -> ReviewView<'_> {
        let rows: Vec<ReviewLine<'_>> = self
            .lessons()
            .iter()
            .enumerate()
            .flat_map(|(at, lesson)| {
                self.exercises_in_order(at, lang)
                    .into_iter()
                    .map(move |exercise| ReviewLine {
                        lesson: at,
                        lesson_id: &lesson.id,
                        place: format!("{}.{}", lesson.order, exercise.level + 1),
                        counts: format!(
                            "{} · {}",
                            crate::course::tries_words(exercise.tries, lang),
                            hints_words(exercise.hints, lang)
                        ),
                        exercise,
                    })
            })
            .collect();
        ReviewView {
            solved: rows.iter().filter(|r| r.exercise.standing.done()).count(),
            total: rows.len(),
            rows,
            next: self.next_view(lang),
            practice: self.practice_review(lang),
        }
    }

    /// The front door in `lang`: the stories are run now, by the engine.
    pub fn front_door_view(&self, lang: Lang) -> FrontDoorView<'_> {
        let stories = Story::BOTH
            .iter()
            .filter_map(|story| {
                let scenario = story.scenario();
                let ending = Ending::of(&scenario, &crate::run(&scenario))?;
                Some(StoryView {
                    title: scenario.title.get(lang).to_owned(),
                    ending_step: ending.step,
                    landed: ending.landed,
                    violation: ending.violation,
                    symbol: match (ending.landed, ending.violation) {
                        (_, true) => "‼",
                        (true, false) => "✓",
                        (false, false) => "✗",
                    },
                    ending: ending.words(lang),
                    scenario,
                })
            })
            .collect();
        FrontDoorView {
            problem: problem(lang),
            stories,
            started: self.started(),
            next: self.next_view(lang),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::Answer;
    use crate::course::levels::tests::LESSON;

    fn course() -> Result<CourseSession, CourseError> {
        CourseSession::from_sources(&[("one", LESSON)])
    }

    fn ids<'a>(exercises: &[ExerciseView<'a>]) -> Vec<&'a str> {
        exercises.iter().map(|e| e.id).collect()
    }

    #[test]
    fn the_map_lists_lessons_in_course_order_with_the_sessions_counts() -> Result<(), CourseError> {
        let mut course = course()?;
        let map = course.map_view(Lang::En);
        let lesson = &map.lessons[0];
        assert_eq!(ids(&lesson.exercises), ["early", "late", "named"]);
        assert_eq!(lesson.exercises[1].index, 0);
        assert_eq!((lesson.sections, lesson.sections_read), (2, 0));
        assert_eq!((lesson.completed, lesson.done), (0, false));
        assert_eq!((map.completed, map.total), (0, 3));
        assert_eq!(lesson.concepts[0].name, "Liveness vs safety");
        let next = map.next.as_ref().map(|n| (n.at, n.exercise));
        assert_eq!(next, Some(((0, 1), "early")));

        course.grade("one", "early", &Answer::Quiz(vec![1]))?;
        course.grade("one", "early", &Answer::Quiz(vec![0]))?;
        course.mark_read("one", 1)?;
        let map = course.map_view(Lang::Zh);
        let lesson = &map.lessons[0];
        let early = &lesson.exercises[0];
        assert_eq!(
            (early.tries, early.standing, early.symbol),
            (2, Standing::Solved, "✓")
        );
        assert_eq!(early.standing_label, "已解决");
        assert_eq!((lesson.sections_read, lesson.completed), (1, 1));
        assert_eq!(map.completed, 1);
        assert_eq!(map.next.map(|n| n.title), Some("后面的题"));
        Ok(())
    }

    #[test]
    fn a_lesson_page_has_its_path_and_exercises_in_file_order() -> Result<(), CourseError> {
        let mut course = course()?;
        let page = course.lesson_view("one", Lang::En)?;
        assert_eq!(ids(&page.exercises), ["late", "early", "named"]);
        assert_eq!(
            page.exercises.iter().map(|e| e.level).collect::<Vec<_>>(),
            [1, 0, 1]
        );
        assert_eq!(page.exercises[0].kind_label, "quiz");
        let states = |page: &LessonView| -> Vec<(LevelState, bool)> {
            page.sections.iter().map(|s| (s.state, s.read)).collect()
        };
        assert_eq!(
            states(&page),
            [(LevelState::Current, false), (LevelState::Open, false)]
        );
        course.mark_read("one", 0)?;
        course.grade("one", "early", &Answer::Quiz(vec![0]))?;
        let page = course.lesson_view("one", Lang::Zh)?;
        assert_eq!(
            states(&page),
            [(LevelState::Done, true), (LevelState::Current, false)]
        );
        assert_eq!((page.sections_read, page.completed), (1, 1));
        assert_eq!(page.sections[1].title, "更长");
        assert_eq!(page.sections[1].concepts[0].name, "更长的 TTL 不是安全");
        assert!(course.lesson_view("nope", Lang::En).is_err());
        // The page reads the level state by name.
        let json = serde_json::to_value(&page).unwrap_or_default();
        assert_eq!(json["sections"][0]["state"], "done");
        assert_eq!(json["exercises"][1]["standing"], "solved");
        Ok(())
    }

    #[test]
    fn the_review_counts_in_words_and_leads_to_the_next_unfinished() -> Result<(), CourseError> {
        let mut course = course()?;
        course.next_hint("one", "early")?;
        course.grade("one", "early", &Answer::Quiz(vec![0]))?;
        course.grade("one", "late", &Answer::Quiz(vec![1]))?;
        course.grade("one", "late", &Answer::Quiz(vec![1]))?;
        let review = course.review_view(Lang::En);
        let rows: Vec<(&str, &str, &str)> = review
            .rows
            .iter()
            .map(|r| (r.place.as_str(), r.exercise.id, r.counts.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("1.1", "early", "1 try · 1 hint"),
                ("1.2", "late", "2 tries · 0 hints"),
                ("1.2", "named", "0 tries · 0 hints")
            ]
        );
        assert_eq!((review.solved, review.total), (1, 3));
        assert_eq!(review.next.map(|n| n.at), Some((0, 0)));
        assert_eq!(
            course.review_view(Lang::Zh).rows[0].counts,
            "作答 1 次 · 提示 1 次"
        );
        Ok(())
    }

    #[test]
    fn the_front_door_tells_the_engines_endings_and_where_to_go() -> Result<(), CourseError> {
        let mut course = course()?;
        let door = course.front_door_view(Lang::En);
        let endings: Vec<(bool, bool, &str)> = door
            .stories
            .iter()
            .map(|s| (s.landed, s.violation, s.symbol))
            .collect();
        assert_eq!(endings, [(true, true, "‼"), (false, false, "✗")]);
        assert_eq!(door.stories[1].title, "With a fencing token");
        assert_eq!(door.stories[1].ending_step, 5);
        assert!(!door.started);
        assert_eq!(door.next.map(|n| n.exercise), Some("early"));
        course.grade("one", "named", &Answer::Quiz(vec![1]))?;
        let door = course.front_door_view(Lang::Zh);
        assert!(door.started);
        assert_eq!(door.stories[0].title, "没有 fencing 令牌");
        Ok(())
    }
}
