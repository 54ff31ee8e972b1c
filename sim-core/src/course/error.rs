//! What can go wrong when a front end asks the course something, as values:
//! each error can be matched and said in either language (`message(lang)`;
//! `Display` is the English).

use std::fmt;

use crate::Lang;
use crate::ScenarioError;
use crate::course::progress::ProgressError;
use crate::design::ClaimProcedure;
use crate::explore::WorldError;

/// Why a course question has no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CourseError {
    /// The lessons did not load: one `FILE.toml:LINE:COL: message` line each
    /// (the parser's diagnostics, as the lint prints them), in both languages.
    Lessons(Vec<crate::Text>),
    /// The page's `lessons.json` is not a list of `[file stem, TOML]` pairs.
    LessonsJson(String),
    NoLesson(String),
    /// A practice round cannot be drawn or opened.
    Practice(crate::course::practice::PracticeError),
    /// A practice round handed over (the page's worker) that is not the
    /// round the key names, or not a scenario.
    PracticeRound(String),
    NoExercise {
        lesson: String,
        exercise: String,
    },
    NoScenario {
        lesson: String,
        scenario: String,
    },
    /// The exercise names a scenario its lesson does not have.
    MissingScenario,
    /// Design and quiz exercises have no timeline.
    NoTimeline {
        kind: &'static str,
    },
    /// A break preview asked of another kind of exercise.
    NotBreak(String),
    NoSection {
        lesson: String,
        sections: usize,
    },
    NoHint {
        index: u32,
        count: usize,
    },
    /// Hints come in order: `index` before `next` was shown.
    HintOutOfOrder {
        index: u32,
        next: u32,
    },
    /// Every hint is shown already; `attempted` tells whether the worked
    /// solution is open.
    NoMoreHints {
        attempted: bool,
    },
    /// The worked solution comes only after an attempt.
    SolutionBeforeAttempt,
    NoSafeDesign,
    /// A state limit stopped the explorers before they could judge a design.
    ExplorationIncomplete,
    /// The answer needs the explorers, and this build has no search (the
    /// page's own wasm: its grading worker's build has it).
    SearchNotHere,
    NoBreakingSchedule,
    /// The exercise's world does not fit the explorers.
    World(WorldError),
    /// A break schedule that cannot run (the scenario check's reason).
    Schedule(ScenarioError),
    Answer(AnswerError),
    /// An answer of another kind than the exercise.
    WrongKind {
        kind: &'static str,
    },
    UnknownSelfCheck(String),
    Progress(ProgressError),
    /// An editor's edit that changed nothing: no such row or field, a value
    /// the field does not allow, a full schedule, or no editor here.
    Edit(crate::course::EditRefused),
    /// A `sql` exercise's scenario cannot become a plan.
    #[cfg(feature = "sql-lab")]
    SqlPlan(crate::sqllab::PlanError),
    /// A `sql` answer arrived without the front end's run of its plan.
    #[cfg(feature = "sql-lab")]
    SqlNotRun,
    /// The box refused some of the learner's statements (syntax, two
    /// statements, `ATTACH`, …): not graded and not counted as an attempt.
    #[cfg(feature = "sql-lab")]
    SqlRefused(Vec<crate::sqllab::SlotRefusal>),
}

/// What is wrong with an answer read from JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerError {
    /// `what` must be a list of numbers.
    NotNumbers(&'static str),
    NoStep {
        step: u64,
        count: u64,
    },
    PredictShape,
    NotStepIndex(String),
    NotAsked(u32),
    NotOutcome(String),
    DesignShape,
    UnknownKnob(String),
    ClosedKnob(String),
    NotList(String),
    NotNames(String),
    UnknownCheck(String),
    UnknownToken(String),
    UnknownClock(String),
    UnknownProtect(String),
    UnknownClaim(String),
    /// A claim procedure that reads one named row, in a world of several
    /// jobs.
    ClaimJobs(String),
    /// A knob that is on or off (`cancel_epoch`) given something else.
    NotBool(String),
    TargetCount(usize),
    /// A target's real resource does not offer the protection chosen for it.
    Unsupported {
        target: String,
        kind: crate::resource::ResourceKind,
        protect: crate::design::Protect,
        fronts: crate::resource::Fronts,
    },
    /// `reconcile` names a target the world does not have.
    NoTarget(String),
    BreakShape,
    TooManySteps,
    Step {
        index: usize,
        problem: StepProblem,
    },
    NoOption(u64),
    ChooseOne,
    /// A step or option index listed twice in `what` (`mark`, `quiz`).
    RepeatedIndex {
        what: &'static str,
        index: u64,
    },
    /// A name listed twice in the design knob `key` (`commit_checks`, ...).
    RepeatedName {
        key: String,
        name: String,
    },
    /// A `sql` answer is not an object of statements by slot.
    #[cfg(feature = "sql-lab")]
    SqlShape,
    /// A `sql` answer names a slot the exercise does not ask for.
    #[cfg(feature = "sql-lab")]
    UnknownSlot(String),
    /// Nothing answered (no mark, no prediction, no option, no step): not
    /// graded and not counted as an attempt. The exercise kind's name.
    Empty(&'static str),
}

/// What is wrong with one step of a break answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepProblem {
    NotObject,
    UnknownKey(String),
    BadTick,
    Backwards {
        at: u64,
        previous: u64,
    },
    UnknownAction(String),
    /// `worker`, `target`, `job` or `do` is not a string.
    NotString(&'static str),
    NeedsWorker(String),
    UnknownWorker(String),
    NeedsTarget(String),
    UnknownTarget(String),
    RegisterTarget,
    UnknownJob(String),
    BadName(&'static str),
    OnlyWrite(&'static str),
    /// A `deliver` that names no request.
    NeedsRequest,
    /// A `request` on a step that neither sends (`write`) nor delivers.
    OnlyWriteOrDeliver,
    BadNote,
}

impl From<AnswerError> for CourseError {
    fn from(error: AnswerError) -> CourseError {
        CourseError::Answer(error)
    }
}

impl From<ProgressError> for CourseError {
    fn from(error: ProgressError) -> CourseError {
        CourseError::Progress(error)
    }
}

impl CourseError {
    /// The error in `lang`. Long because it is one arm per variant, each
    /// with both languages side by side: split, a translation would drift
    /// from its English.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            CourseError::Lessons(lines) => lines
                .iter()
                .map(|line| line.get(lang))
                .collect::<Vec<_>>()
                .join("\n"),
            CourseError::LessonsJson(why) => lang.pick(
                format!("lessons.json: not a list of [file name, lesson text] pairs ({why})"),
                format!("lessons.json：不是 [文件名, 课程文本] 对的列表（{why}）"),
            ),
            CourseError::NoLesson(id) => lang.pick(
                format!("there is no lesson `{id}`"),
                format!("没有课程 `{id}`"),
            ),
            CourseError::Practice(why) => why.message(lang),
            CourseError::PracticeRound(why) => lang.pick(
                format!("not a practice round this course can open: {why}"),
                format!("不是本课程能打开的练习轮次：{why}"),
            ),
            CourseError::NoExercise { lesson, exercise } => lang.pick(
                format!("lesson `{lesson}` has no exercise `{exercise}`"),
                format!("课程 `{lesson}` 没有练习 `{exercise}`"),
            ),
            CourseError::NoScenario { lesson, scenario } => lang.pick(
                format!("lesson `{lesson}` has no scenario `{scenario}`"),
                format!("课程 `{lesson}` 没有场景 `{scenario}`"),
            ),
            CourseError::MissingScenario => lang.pick(
                "the exercise's scenario is missing".to_owned(),
                "练习的场景不存在".to_owned(),
            ),
            CourseError::NoTimeline { kind } => lang.pick(
                format!("a `{kind}` exercise has no timeline"),
                format!("`{kind}` 练习没有时间线"),
            ),
            CourseError::NotBreak(id) => lang.pick(
                format!("`{id}` is not a break exercise"),
                format!("`{id}` 不是 break 练习"),
            ),
            CourseError::NoSection { lesson, sections } => lang.pick(
                format!("lesson `{lesson}` has {sections} sections"),
                format!("课程 `{lesson}` 只有 {sections} 节"),
            ),
            CourseError::NoHint { index, count } => lang.pick(
                format!("there is no hint {index}: the exercise has {count} hints"),
                format!("没有第 {index} 条提示：这个练习有 {count} 条提示"),
            ),
            CourseError::HintOutOfOrder { index, next } => lang.pick(
                format!("hint {index} comes after hint {next}"),
                format!("提示 {index} 在提示 {next} 之后"),
            ),
            CourseError::NoMoreHints { attempted: false } => lang.pick(
                "That was the last hint. Now try an answer.".to_owned(),
                "这是最后一条提示。试着作答吧。".to_owned(),
            ),
            CourseError::NoMoreHints { attempted: true } => lang.pick(
                "That was the last hint; the worked solution is open.".to_owned(),
                "这是最后一条提示；可以查看参考解答了。".to_owned(),
            ),
            CourseError::SolutionBeforeAttempt => lang.pick(
                "Try the exercise once before you see the solution.".to_owned(),
                "先自己试一次，再看解答。".to_owned(),
            ),
            CourseError::NoSafeDesign => lang.pick(
                "no safe choice exists among the open knobs".to_owned(),
                "开放的选项中没有安全的选择".to_owned(),
            ),
            CourseError::ExplorationIncomplete => lang.pick(
                "the explorers hit their state limit before they could judge this design"
                    .to_owned(),
                "探索器在判定这个设计之前就达到了状态数上限".to_owned(),
            ),
            CourseError::SearchNotHere => lang.pick(
                "this answer is checked by the explorers, which this build leaves out: the grading worker checks it".to_owned(),
                "这个答案要由探索器检查，而这个构建没有带上探索器：请交给评分的 Worker 检查".to_owned(),
            ),
            CourseError::NoBreakingSchedule => lang.pick(
                "the explorers find no schedule that breaks this design".to_owned(),
                "探索器找不到攻破这个设计的调度".to_owned(),
            ),
            CourseError::World(why) => lang.pick(
                format!(
                    "the exercise's world does not fit the explorers: {}",
                    why.message(Lang::En)
                ),
                format!("练习的世界不适合探索器：{}", why.message(Lang::Zh)),
            ),
            CourseError::Schedule(why) => lang.pick(
                format!("the schedule cannot run: {}", why.message(Lang::En)),
                format!("这个调度无法运行：{}", why.message(Lang::Zh)),
            ),
            CourseError::Answer(error) => error.message(lang),
            CourseError::WrongKind { kind } => lang.pick(
                format!("this answer does not fit a `{kind}` exercise"),
                format!("这个答案不适合 `{kind}` 练习"),
            ),
            CourseError::UnknownSelfCheck(level) => lang.pick(
                format!("unknown self-check level `{level}`: basic, intermediate or senior"),
                format!("未知的自我检查层级 `{level}`：basic、intermediate 或 senior"),
            ),
            CourseError::Progress(error) => error.message(lang),
            CourseError::Edit(crate::course::EditRefused::NoSuchPlace) => lang.pick(
                "no such row or field in this editor".to_owned(),
                "编辑器中没有这一行或这一栏".to_owned(),
            ),
            CourseError::Edit(crate::course::EditRefused::NotAllowed) => lang.pick(
                "this field does not take that value".to_owned(),
                "这一栏不接受这个值".to_owned(),
            ),
            CourseError::Edit(crate::course::EditRefused::Full) => {
                lang.pick("The schedule is full.".to_owned(), "调度已满。".to_owned())
            }
            #[cfg(feature = "sql-lab")]
            CourseError::SqlPlan(why) => why.message(lang),
            #[cfg(feature = "sql-lab")]
            CourseError::SqlNotRun => lang.pick(
                "the SQL statements were not run".to_owned(),
                "SQL 语句没有运行".to_owned(),
            ),
            #[cfg(feature = "sql-lab")]
            CourseError::SqlRefused(refused) => refused
                .iter()
                .map(|r| format!("{}: {}", r.slot.name(), r.message(lang)))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

impl AnswerError {
    /// The error in `lang`. Long for the same reason as
    /// [`CourseError::message`]: one arm per variant, both languages side by
    /// side, so a translation cannot drift from its English.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            AnswerError::NotNumbers(what) => lang.pick(
                format!("`{what}` must be a list of numbers"),
                format!("`{what}` 必须是数字列表"),
            ),
            AnswerError::NoStep { step, count } => lang.pick(
                format!("step {step} does not exist (the timeline has {count} steps)"),
                format!("第 {step} 步不存在（时间线共 {count} 步）"),
            ),
            AnswerError::PredictShape => lang.pick(
                "`predict` must map step indices to outcomes, e.g. {\"1\": \"ok\"}".to_owned(),
                "`predict` 必须把步骤序号映射到结果，例如 {\"1\": \"ok\"}".to_owned(),
            ),
            AnswerError::NotStepIndex(key) => lang.pick(
                format!("`{key}` is not a step index"),
                format!("`{key}` 不是步骤序号"),
            ),
            AnswerError::NotAsked(index) => lang.pick(
                format!("step {index} is not one of this exercise's steps"),
                format!("第 {index} 步不是这个练习要预测的步骤"),
            ),
            AnswerError::NotOutcome(name) => lang.pick(
                format!("`{name}` is not an outcome: ok, rejected, duplicate, noop or waiting"),
                format!("`{name}` 不是结果：ok、rejected、duplicate、noop 或 waiting"),
            ),
            AnswerError::DesignShape => lang.pick(
                "`design` must be an object".to_owned(),
                "`design` 必须是对象".to_owned(),
            ),
            AnswerError::UnknownKnob(key) => lang.pick(
                format!("unknown design knob `{key}`"),
                format!("未知的设计选项 `{key}`"),
            ),
            AnswerError::ClosedKnob(key) => lang.pick(
                format!("this exercise does not let you change `{key}`"),
                format!("这个练习不允许修改 `{key}`"),
            ),
            AnswerError::NotList(key) => lang.pick(
                format!("`{key}` must be a list"),
                format!("`{key}` 必须是列表"),
            ),
            AnswerError::NotNames(key) => lang.pick(
                format!("`{key}` must list names"),
                format!("`{key}` 必须列出名称"),
            ),
            AnswerError::UnknownCheck(name) => lang.pick(
                format!("unknown check `{name}`"),
                format!("未知的检查 `{name}`"),
            ),
            AnswerError::UnknownToken(name) => lang.pick(
                format!("unknown token kind `{name}`"),
                format!("未知的 token 类型 `{name}`"),
            ),
            AnswerError::UnknownClock(name) => lang.pick(
                format!("unknown lease clock `{name}`"),
                format!("未知的租约时钟 `{name}`"),
            ),
            AnswerError::UnknownProtect(name) => lang.pick(
                format!("unknown protection `{name}`"),
                format!("未知的保护方式 `{name}`"),
            ),
            AnswerError::UnknownClaim(name) => lang.pick(
                format!("unknown claim procedure `{name}`"),
                format!("未知的领取方式 `{name}`"),
            ),
            AnswerError::ClaimJobs(name)
                if ClaimProcedure::from_name(name).is_some_and(ClaimProcedure::locks_both) =>
            {
                lang.pick(
                    format!(
                        "`{name}` locks both rows of a world with two jobs, and this world does not have two: claim another way"
                    ),
                    format!("`{name}` 要锁住两个任务的两行，而这个世界的任务数不是 2：请换一种领取方式"),
                )
            }
            AnswerError::ClaimJobs(name) => lang.pick(
                format!(
                    "`{name}` reads one named row, and this world has several jobs: claim with `atomic` or `skip_locked`"
                ),
                format!("`{name}` 只读一行指定的任务，而这个世界有多个任务：请用 `atomic` 或 `skip_locked` 领取"),
            ),
            AnswerError::NotBool(key) => lang.pick(
                format!("`{key}` must be true or false"),
                format!("`{key}` 必须是 true 或 false"),
            ),
            AnswerError::TargetCount(count) => lang.pick(
                format!("`target_protect` needs one protection per target ({count})"),
                format!("`target_protect` 需要为每个目标各给一种保护（{count} 个）"),
            ),
            AnswerError::Unsupported {
                target,
                kind,
                protect,
                fronts,
            } => {
                let offered = kind
                    .offers(*fronts)
                    .iter()
                    .map(|o| format!("`{}`", o.protect.name()))
                    .collect::<Vec<_>>()
                    .join(", ");
                lang.pick(
                    format!(
                        "{target} ({}) does not offer `{}`: it offers {offered}",
                        kind.title(Lang::En),
                        protect.name(),
                    ),
                    format!(
                        "{target}（{}）不提供 `{}`：它只提供 {offered}",
                        kind.title(Lang::Zh),
                        protect.name(),
                    ),
                )
            }
            AnswerError::NoTarget(name) => lang.pick(
                format!("`reconcile` names `{name}`, which is not a target of this world"),
                format!("`reconcile` 里的 `{name}` 不是这个世界的目标"),
            ),
            AnswerError::BreakShape => lang.pick(
                "`break` must be a list of steps".to_owned(),
                "`break` 必须是步骤列表".to_owned(),
            ),
            AnswerError::TooManySteps => lang.pick(
                "a schedule of at most 200 steps, please".to_owned(),
                "调度最多 200 步".to_owned(),
            ),
            AnswerError::Step { index, problem } => lang.pick(
                format!("step {index}: {}", problem.message(lang)),
                format!("第 {index} 步：{}", problem.message(lang)),
            ),
            AnswerError::NoOption(option) => lang.pick(
                format!("option {option} does not exist"),
                format!("选项 {option} 不存在"),
            ),
            AnswerError::ChooseOne => {
                lang.pick("choose one option".to_owned(), "只能选一个选项".to_owned())
            }
            AnswerError::RepeatedIndex { what, index } => lang.pick(
                format!("`{what}` lists {index} twice; list each once"),
                format!("`{what}` 把 {index} 列了两次；每个只列一次"),
            ),
            AnswerError::RepeatedName { key, name } => lang.pick(
                format!("`{key}` lists `{name}` twice; list each once"),
                format!("`{key}` 把 `{name}` 列了两次；每个只列一次"),
            ),
            #[cfg(feature = "sql-lab")]
            AnswerError::SqlShape => lang.pick(
                "a `sql` answer is an object of statements by slot: { \"claim\": \"UPDATE …\", … }".to_owned(),
                "`sql` 答案是按位置给出语句的对象：{ \"claim\": \"UPDATE …\", … }".to_owned(),
            ),
            #[cfg(feature = "sql-lab")]
            AnswerError::UnknownSlot(slot) => lang.pick(
                format!("this exercise asks for no `{slot}` statement"),
                format!("这道练习不要求写 `{slot}` 语句"),
            ),
            AnswerError::Empty(kind) => match *kind {
                #[cfg(feature = "sql-lab")]
                "sql" => lang.pick(
                    "no statement is written yet: write them before grading (an empty answer is not graded and not counted)".to_owned(),
                    "还没有写任何语句：请先写好再评分（空答案不评分，也不计入作答次数）".to_owned(),
                ),
                "mark" => lang.pick(
                    "nothing is marked: mark at least one step before submitting (an empty answer is not graded and not counted)".to_owned(),
                    "还没有标记任何一步：请至少标出一步再提交（空答案不评分，也不计入作答次数）".to_owned(),
                ),
                "predict" => lang.pick(
                    "nothing is predicted: predict at least one step before submitting (an empty answer is not graded and not counted)".to_owned(),
                    "还没有预测任何一步：请至少预测一步再提交（空答案不评分，也不计入作答次数）".to_owned(),
                ),
                "quiz" => lang.pick(
                    "no option is chosen: choose an answer before submitting (an empty answer is not graded and not counted)".to_owned(),
                    "还没有选择任何选项：请先选择答案再提交（空答案不评分，也不计入作答次数）".to_owned(),
                ),
                "break" => lang.pick(
                    "the schedule has no steps: add steps before submitting (an empty schedule is not graded and not counted)".to_owned(),
                    "调度里没有步骤：请先添加步骤再提交（空调度不评分，也不计入作答次数）".to_owned(),
                ),
                other => lang.pick(
                    format!("the `{other}` answer is empty: it is not graded and not counted"),
                    format!("`{other}` 答案是空的：不评分，也不计入作答次数"),
                ),
            },
        }
    }
}

impl StepProblem {
    /// The problem in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            StepProblem::NotObject => {
                lang.pick("must be an object".to_owned(), "必须是对象".to_owned())
            }
            StepProblem::UnknownKey(key) => {
                lang.pick(format!("unknown key `{key}`"), format!("未知的键 `{key}`"))
            }
            StepProblem::BadTick => lang.pick(
                "`at` must be a tick from 0".to_owned(),
                "`at` 必须是从 0 开始的 tick".to_owned(),
            ),
            StepProblem::Backwards { at, previous } => lang.pick(
                format!("`at` = {at} goes backwards (the step before is at {previous})"),
                format!("`at` = {at} 倒退了（前一步在 tick {previous}）"),
            ),
            StepProblem::UnknownAction(name) => lang.pick(
                format!("unknown action `{name}`"),
                format!("未知的动作 `{name}`"),
            ),
            StepProblem::NotString(key) => lang.pick(
                format!("`{key}` must be a string"),
                format!("`{key}` 必须是字符串"),
            ),
            StepProblem::NeedsWorker(name) => lang.pick(
                format!("`{name}` needs a worker"),
                format!("`{name}` 需要一个 Worker"),
            ),
            StepProblem::UnknownWorker(id) => lang.pick(
                format!("unknown worker `{id}`"),
                format!("未知的 Worker `{id}`"),
            ),
            StepProblem::NeedsTarget(name) => lang.pick(
                format!("`{name}` needs a target"),
                format!("`{name}` 需要一个目标"),
            ),
            StepProblem::UnknownTarget(id) => lang.pick(
                format!("unknown target `{id}`"),
                format!("未知的目标 `{id}`"),
            ),
            StepProblem::RegisterTarget => lang.pick(
                "`register` needs a registered_token target".to_owned(),
                "`register` 需要 registered_token 目标".to_owned(),
            ),
            StepProblem::UnknownJob(id) => {
                lang.pick(format!("unknown job `{id}`"), format!("未知的任务 `{id}`"))
            }
            StepProblem::BadName(key) => lang.pick(
                format!("`{key}` must be a non-empty string of at most 64 bytes"),
                format!("`{key}` 必须是非空字符串，最多 64 字节"),
            ),
            StepProblem::OnlyWrite(key) => lang.pick(
                format!("only a write carries `{key}`"),
                format!("只有 write 可以带 `{key}`"),
            ),
            StepProblem::NeedsRequest => lang.pick(
                "`deliver` needs a `request`: the id a write sent it under".to_owned(),
                "`deliver` 需要 `request`：某个 write 发出请求时用的 ID".to_owned(),
            ),
            StepProblem::OnlyWriteOrDeliver => lang.pick(
                "only a write (which sends it) or a deliver carries `request`".to_owned(),
                "只有 write（发出请求）或 deliver 可以带 `request`".to_owned(),
            ),
            StepProblem::BadNote => lang.pick(
                "`note` must be a string or { en, zh }".to_owned(),
                "`note` 必须是字符串或 { en, zh }".to_owned(),
            ),
        }
    }
}

impl fmt::Display for CourseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for CourseError {}
impl std::error::Error for AnswerError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn has_chinese(text: &str) -> bool {
        text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    }

    #[test]
    fn every_error_is_said_in_both_languages() {
        let word = || "x".to_owned();
        let steps = [
            StepProblem::NotObject,
            StepProblem::UnknownKey(word()),
            StepProblem::BadTick,
            StepProblem::Backwards { at: 1, previous: 2 },
            StepProblem::UnknownAction(word()),
            StepProblem::NotString("worker"),
            StepProblem::NeedsWorker(word()),
            StepProblem::UnknownWorker(word()),
            StepProblem::NeedsTarget(word()),
            StepProblem::UnknownTarget(word()),
            StepProblem::RegisterTarget,
            StepProblem::UnknownJob(word()),
            StepProblem::BadName("op"),
            StepProblem::OnlyWrite("op"),
            StepProblem::NeedsRequest,
            StepProblem::OnlyWriteOrDeliver,
            StepProblem::BadNote,
        ];
        let mut answers = vec![
            AnswerError::NotNumbers("mark"),
            AnswerError::NoStep { step: 9, count: 3 },
            AnswerError::PredictShape,
            AnswerError::NotStepIndex(word()),
            AnswerError::NotAsked(1),
            AnswerError::NotOutcome(word()),
            AnswerError::DesignShape,
            AnswerError::UnknownKnob(word()),
            AnswerError::ClosedKnob(word()),
            AnswerError::NotList(word()),
            AnswerError::NotNames(word()),
            AnswerError::UnknownCheck(word()),
            AnswerError::UnknownToken(word()),
            AnswerError::UnknownClock(word()),
            AnswerError::UnknownProtect(word()),
            AnswerError::UnknownClaim(word()),
            AnswerError::ClaimJobs(word()),
            AnswerError::NotBool(word()),
            AnswerError::TargetCount(2),
            AnswerError::Unsupported {
                target: "t1".to_owned(),
                kind: crate::resource::ResourceKind::Mailer,
                protect: crate::design::Protect::Gateway,
                fronts: crate::resource::Fronts::default(),
            },
            AnswerError::NoTarget(word()),
            AnswerError::BreakShape,
            AnswerError::TooManySteps,
            AnswerError::NoOption(4),
            AnswerError::ChooseOne,
            AnswerError::RepeatedIndex {
                what: "mark",
                index: 2,
            },
            AnswerError::RepeatedName {
                key: word(),
                name: word(),
            },
            AnswerError::Empty("mark"),
            AnswerError::Empty("predict"),
            AnswerError::Empty("quiz"),
            AnswerError::Empty("break"),
            AnswerError::Empty("design"),
        ];
        #[cfg(feature = "sql-lab")]
        answers.extend([
            AnswerError::Empty("sql"),
            AnswerError::SqlShape,
            AnswerError::UnknownSlot(word()),
        ]);
        answers.extend(
            steps
                .into_iter()
                .map(|problem| AnswerError::Step { index: 0, problem }),
        );
        let mut errors = vec![
            CourseError::LessonsJson(word()),
            CourseError::NoLesson(word()),
            CourseError::Practice(crate::course::practice::PracticeError::NoPuzzle),
            CourseError::Practice(crate::course::practice::PracticeError::NoPracticeWorld(
                word(),
            )),
            CourseError::PracticeRound(word()),
            CourseError::NoExercise {
                lesson: word(),
                exercise: word(),
            },
            CourseError::NoScenario {
                lesson: word(),
                scenario: word(),
            },
            CourseError::MissingScenario,
            CourseError::NoTimeline { kind: "quiz" },
            CourseError::NotBreak(word()),
            CourseError::NoSection {
                lesson: word(),
                sections: 2,
            },
            CourseError::NoHint { index: 3, count: 2 },
            CourseError::HintOutOfOrder { index: 2, next: 0 },
            CourseError::NoMoreHints { attempted: false },
            CourseError::NoMoreHints { attempted: true },
            CourseError::SolutionBeforeAttempt,
            CourseError::NoSafeDesign,
            CourseError::ExplorationIncomplete,
            CourseError::SearchNotHere,
            CourseError::NoBreakingSchedule,
            CourseError::World(crate::explore::WorldError::Ttl),
            CourseError::Schedule(crate::ScenarioError::Ttl),
            CourseError::WrongKind { kind: "mark" },
            #[cfg(feature = "sql-lab")]
            CourseError::SqlNotRun,
            #[cfg(feature = "sql-lab")]
            CourseError::SqlPlan(crate::sqllab::PlanError::RandomTokens),
            CourseError::UnknownSelfCheck(word()),
            CourseError::Progress(ProgressError::Newer(9)),
            CourseError::Progress(ProgressError::Corrupt(word())),
        ];
        errors.extend(answers.into_iter().map(CourseError::Answer));
        for error in errors {
            let (en, zh) = (error.message(Lang::En), error.message(Lang::Zh));
            assert!(!has_chinese(&en), "{en}");
            assert!(has_chinese(&zh), "{error:?}: {zh}");
            assert_eq!(error.to_string(), en);
        }
    }
}
