//! A lesson as a path of short levels, and the review of the whole course.
//!
//! A **level** is one section of a lesson with the exercises that practise
//! it, placed right after it (Learn Git Branching's levels are the model).
//! An exercise belongs to the section its `section` key names, counted
//! from 1; without one, to the first section after which every concept it
//! practises has been taught; failing that, to the last section. Both
//! front ends draw the same path and the same review from the session's
//! views (`views.rs`: [`CourseSession::lesson_view`],
//! [`CourseSession::review_view`]), built on [`CourseSession::levels`] and
//! [`CourseSession::course_order`].

use crate::course::lesson::{Exercise, Lesson};
use crate::course::session::CourseSession;
use crate::scenario::Text;

impl Lesson {
    /// The section (from 0) that `exercise` practises.
    pub fn section_of(&self, exercise: &Exercise) -> usize {
        let last = self.sections.len().saturating_sub(1);
        if let Some(named) = exercise.section {
            return (named as usize).saturating_sub(1).min(last);
        }
        // The section that teaches each concept first; the latest of those.
        let mut at = 0;
        for concept in &exercise.concepts {
            match self
                .sections
                .iter()
                .position(|s| s.concepts.contains(concept))
            {
                Some(first) => at = at.max(first),
                None => return last,
            }
        }
        at
    }

    /// Its levels, one per section, each with its exercises in file order.
    pub fn levels(&self) -> Vec<Vec<usize>> {
        let mut levels = vec![Vec::new(); self.sections.len().max(1)];
        for (index, exercise) in self.exercises.iter().enumerate() {
            levels[self.section_of(exercise)].push(index);
        }
        levels
    }

    /// The level (section) an exercise sits in, by exercise index.
    pub fn level_of(&self, exercise: usize) -> usize {
        self.exercises
            .get(exercise)
            .map_or(0, |found| self.section_of(found))
    }
}

/// Where a learner stands on a level of the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LevelState {
    /// The section is read and every exercise in it solved.
    Done,
    /// The first level not done: where the learner should go on.
    Current,
    /// Open to visit, not yet done.
    Open,
}

impl LevelState {
    /// The marker both front ends draw on the path.
    pub fn marker(self) -> &'static str {
        match self {
            LevelState::Done => "●",
            LevelState::Current => "◉",
            LevelState::Open => "○",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            LevelState::Done => "done",
            LevelState::Current => "current",
            LevelState::Open => "open",
        }
    }
}

/// One level of a lesson's path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// The section, from 0 (also the level's number less one).
    pub section: usize,
    /// Its exercises, by index in the lesson.
    pub exercises: Vec<usize>,
    pub state: LevelState,
}

/// How far a learner got with one exercise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    NotStarted,
    /// Tried (or a hint opened), not solved.
    Tried,
    /// Its worked solution shown, not solved since.
    Revealed,
    Solved,
    /// Solved only after its worked solution was shown: done for moving
    /// on, offered again after the unsolved exercises.
    SolvedWithSolution,
}

impl Standing {
    pub fn name(self) -> &'static str {
        match self {
            Standing::NotStarted => "not-started",
            Standing::Tried => "tried",
            Standing::Revealed => "revealed",
            Standing::Solved => "solved",
            Standing::SolvedWithSolution => "solved-with-solution",
        }
    }

    /// Its sign on the map, the review and the exercise's header.
    pub fn symbol(self) -> &'static str {
        match self {
            Standing::NotStarted => "○",
            Standing::Tried => "✗",
            Standing::Revealed => "◐",
            Standing::Solved => "✓",
            Standing::SolvedWithSolution => "(✓)",
        }
    }

    /// In the learner's words.
    pub fn label(self) -> Text {
        let (en, zh) = match self {
            Standing::NotStarted => ("not started", "未开始"),
            Standing::Tried => ("tried", "尝试过"),
            Standing::Revealed => ("solution shown", "看过解答"),
            Standing::Solved => ("solved", "已解决"),
            Standing::SolvedWithSolution => ("solved with the solution", "看过解答后解出"),
        };
        Text {
            en: en.to_owned(),
            zh: zh.to_owned(),
        }
    }

    /// Still to do: not solved, with or without the solution.
    pub fn unfinished(self) -> bool {
        !self.done()
    }

    /// Done for moving on: solved, with or without the solution.
    pub fn done(self) -> bool {
        matches!(self, Standing::Solved | Standing::SolvedWithSolution)
    }
}

impl CourseSession {
    /// How far the learner got with one exercise.
    pub fn standing(&self, lesson: &str, id: &str) -> Standing {
        let record = self.exercise_progress(lesson, id);
        if record.completed && record.with_solution {
            Standing::SolvedWithSolution
        } else if record.completed {
            Standing::Solved
        } else if record.solution_seen {
            Standing::Revealed
        } else if record.attempts > 0 || record.hints_used > 0 {
            Standing::Tried
        } else {
            Standing::NotStarted
        }
    }

    /// The path through lesson `lesson` (by index): one level per section.
    /// The first level not done is current; a lesson with every level done
    /// has none.
    pub fn levels(&self, lesson: usize) -> Vec<Level> {
        let Some(found) = self.lessons().get(lesson) else {
            return Vec::new();
        };
        let read = self.sections_read(&found.id);
        let mut current_given = false;
        let mut levels = Vec::new();
        for (section, exercises) in found.levels().into_iter().enumerate() {
            let mut done = found.sections.is_empty() || read.contains(&(section as u32));
            for exercise in &exercises {
                done &= found
                    .exercises
                    .get(*exercise)
                    .is_some_and(|e| self.is_complete(&found.id, &e.id));
            }
            let state = if done {
                LevelState::Done
            } else if current_given {
                LevelState::Open
            } else {
                current_given = true;
                LevelState::Current
            };
            levels.push(Level {
                section,
                exercises,
                state,
            });
        }
        levels
    }

    /// Every exercise as (lesson index, exercise index), in course order:
    /// lesson, then level, then file order.
    pub fn course_order(&self) -> Vec<(usize, usize)> {
        let mut order = Vec::new();
        for (at, lesson) in self.lessons().iter().enumerate() {
            for level in lesson.levels() {
                order.extend(level.into_iter().map(|exercise| (at, exercise)));
            }
        }
        order
    }

    /// Whether "next unfinished" should open the text of the level holding
    /// exercise `exercise` of lesson `lesson` (indices) before the exercise:
    /// the text is unread and the exercise never tried — rather than drop
    /// the learner into an exercise on something they have not read.
    pub fn read_first(&self, lesson: usize, exercise: usize) -> bool {
        let Some(found) = self.lessons().get(lesson) else {
            return false;
        };
        let Some(wanted) = found.exercises.get(exercise) else {
            return false;
        };
        let level = found.level_of(exercise);
        let tried = self.exercise_progress(&found.id, &wanted.id).attempts > 0;
        level < found.sections.len()
            && !tried
            && !self
                .sections_read(&found.id)
                .contains(&u32::try_from(level).unwrap_or(u32::MAX))
    }

    /// The next exercise to offer after `after` (lesson index, exercise
    /// index) in course order ([`CourseSession::course_order`]), wrapping
    /// round to the start; from the start when `after` is `None`: an
    /// exercise not solved, else one solved only with its solution (to be
    /// solved alone). `None` once every exercise is solved alone.
    pub fn next_unfinished_after(&self, after: Option<(usize, usize)>) -> Option<(usize, usize)> {
        let order = self.course_order();
        let start = after
            .and_then(|wanted| order.iter().position(|at| *at == wanted))
            .map_or(0, |at| at + 1)
            .min(order.len());
        let (before, from) = order.split_at(start);
        let lessons = self.lessons();
        let standing = |&(lesson, exercise): &(usize, usize)| {
            let l = &lessons[lesson];
            self.standing(&l.id, &l.exercises[exercise].id)
        };
        let ring = || from.iter().chain(before).copied();
        ring()
            .find(|at| standing(at).unfinished())
            .or_else(|| ring().find(|at| standing(at) == Standing::SolvedWithSolution))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::course::error::CourseError;
    use crate::course::grade::Answer;

    /// A lesson of two sections and three quizzes (also the views' tests').
    pub(crate) const LESSON: &str = r#"
id = "one"
order = 1
title = { en = "One", zh = "一" }
summary = { en = "A lesson.", zh = "一课。" }
concepts = ["C01", "C02"]

[[sections]]
title = { en = "Leases", zh = "租约" }
concepts = ["C01"]
body = { en = "Body.", zh = "正文。" }

[[sections]]
title = { en = "Longer", zh = "更长" }
concepts = ["C02"]
body = { en = "Body.", zh = "正文。" }

[[exercises]]
id = "late"
title = { en = "Late quiz", zh = "后面的题" }
kind = "quiz"
concepts = ["C01", "C02"]
prompt = { en = "Which?", zh = "哪个？" }
hints = [{ en = "First.", zh = "一。" }, { en = "Second.", zh = "二。" }]
takeaway = { en = "Done.", zh = "完成。" }
options = [
  { text = { en = "Right", zh = "对" }, correct = true, why = { en = "Yes.", zh = "是。" } },
  { text = { en = "Wrong", zh = "错" }, correct = false, why = { en = "No.", zh = "否。" } },
]

[[exercises]]
id = "early"
title = { en = "Early quiz", zh = "前面的题" }
kind = "quiz"
concepts = ["C01"]
prompt = { en = "Which?", zh = "哪个？" }
hints = [{ en = "First.", zh = "一。" }, { en = "Second.", zh = "二。" }]
takeaway = { en = "Done.", zh = "完成。" }
options = [
  { text = { en = "Right", zh = "对" }, correct = true, why = { en = "Yes.", zh = "是。" } },
  { text = { en = "Wrong", zh = "错" }, correct = false, why = { en = "No.", zh = "否。" } },
]

[[exercises]]
id = "named"
title = { en = "Placed by hand", zh = "手动放置" }
section = 2
kind = "quiz"
concepts = ["C01"]
prompt = { en = "Which?", zh = "哪个？" }
hints = [{ en = "First.", zh = "一。" }, { en = "Second.", zh = "二。" }]
takeaway = { en = "Done.", zh = "完成。" }
options = [
  { text = { en = "Right", zh = "对" }, correct = true, why = { en = "Yes.", zh = "是。" } },
  { text = { en = "Wrong", zh = "错" }, correct = false, why = { en = "No.", zh = "否。" } },
]
"#;

    fn course() -> Result<CourseSession, CourseError> {
        CourseSession::from_sources(&[("one", LESSON)])
    }

    #[test]
    fn exercises_sit_after_the_section_that_teaches_their_last_concept() -> Result<(), CourseError>
    {
        let course = course()?;
        let lesson = &course.lessons()[0];
        // `late` needs C02, taught in section 2; `early` only C01; `named`
        // says section 2 itself.
        assert_eq!(lesson.levels(), vec![vec![1], vec![0, 2]]);
        assert_eq!(lesson.level_of(0), 1);
        let review = course.review_view(crate::Lang::En);
        let titles: Vec<&str> = review.rows.iter().map(|r| r.exercise.title).collect();
        assert_eq!(titles, ["Early quiz", "Late quiz", "Placed by hand"]);
        Ok(())
    }

    #[test]
    fn review_rows_and_next_unfinished_follow_the_learner() -> Result<(), CourseError> {
        let mut course = course()?;
        let standings = |c: &CourseSession| -> Vec<Standing> {
            let review = c.review_view(crate::Lang::En);
            review.rows.iter().map(|r| r.exercise.standing).collect()
        };
        assert_eq!(standings(&course), [Standing::NotStarted; 3]);
        assert_eq!(course.next_unfinished_after(None), Some((0, 1)));
        let levels = course.levels(0);
        assert_eq!(
            levels.iter().map(|l| l.state).collect::<Vec<_>>(),
            [LevelState::Current, LevelState::Open]
        );

        // `early` solved on the second try, after a hint.
        course.next_hint("one", "early")?;
        course.grade("one", "early", &Answer::Quiz(vec![1]))?;
        course.grade("one", "early", &Answer::Quiz(vec![0]))?;
        // `late` tried and its solution shown.
        course.grade("one", "late", &Answer::Quiz(vec![1]))?;
        course.solution("one", "late")?;
        let rows: Vec<_> = course
            .review_view(crate::Lang::En)
            .rows
            .into_iter()
            .map(|r| r.exercise)
            .collect();
        assert_eq!(
            (rows[0].tries, rows[0].hints, rows[0].standing),
            (2, 1, Standing::Solved)
        );
        assert_eq!(rows[1].standing, Standing::Revealed);
        assert_eq!(rows[2].standing, Standing::NotStarted);
        // A shown solution is not a solved exercise: it is still to do.
        assert_eq!(course.next_unfinished_after(None), Some((0, 0)));
        assert_eq!(course.next_unfinished_after(Some((0, 0))), Some((0, 2)));
        // It wraps round.
        assert_eq!(course.next_unfinished_after(Some((0, 2))), Some((0, 0)));
        // Level 1 is done only once its section is read too.
        assert_eq!(course.levels(0)[0].state, LevelState::Current);
        course.mark_read("one", 0)?;
        assert_eq!(course.levels(0)[0].state, LevelState::Done);
        assert_eq!(course.levels(0)[1].state, LevelState::Current);

        course.grade("one", "late", &Answer::Quiz(vec![0]))?;
        course.grade("one", "named", &Answer::Quiz(vec![0]))?;
        // The one solved after its solution was shown is offered again,
        // now that nothing is unsolved.
        assert_eq!(course.next_unfinished_after(None), Some((0, 0)));
        assert_eq!(
            standings(&course),
            [
                Standing::Solved,
                Standing::SolvedWithSolution,
                Standing::Solved
            ]
        );
        Ok(())
    }
}
