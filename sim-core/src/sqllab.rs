//! The SQL lab (the `sql` exercise kind): the learner writes the claim,
//! renew, finish (and cancel) statements and they run on a real SQLite
//! against a scenario and a fixed battery of edge cases.
//!
//! sim-core runs no database. It builds a [`Plan`] — the schema, and per
//! case the statements each step sends with their bound values, where the
//! learner's statement stands in for a [`Slot`], and what the model says
//! each step must do (row count, the job row afterwards). A front end runs
//! the plan (`sqlbox::battery`, in the terminal and, compiled to wasm, in
//! the page) and hands back a [`PlanRun`]; [`judge`] compares it with the
//! model. Every expectation is the engine's run of a scenario built here or
//! in the lesson; nothing is written down by hand.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use strum::VariantArray as _;

use crate::Lang;
use crate::design::{Preset, TokenKind};
use crate::scenario::{Action, DesignSource, Scenario, Step, Text};
use crate::sql::{self, Binding, Dialect, SqlValue};
use crate::trace::{Reason, Row};

/// A statement the learner writes.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Slot {
    Claim,
    Renew,
    Finish,
    Cancel,
}

impl Slot {
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The slot as a tab names it: its name (the statement's kind, as the
    /// files and the feedback say it), in Chinese after what it does.
    pub fn tab_label(self, lang: Lang) -> String {
        match lang {
            Lang::En => self.name().to_owned(),
            Lang::Zh => {
                let does = match self {
                    Slot::Claim => "领取",
                    Slot::Renew => "续约",
                    Slot::Finish => "完成",
                    Slot::Cancel => "取消",
                };
                format!("{does} {}", self.name())
            }
        }
    }

    /// The slot a scenario action's statement fills, if the learner writes it.
    pub fn of(action: Action) -> Option<Slot> {
        match action {
            Action::Claim => Some(Slot::Claim),
            Action::Renew => Some(Slot::Renew),
            Action::Finish => Some(Slot::Finish),
            Action::Cancel => Some(Slot::Cancel),
            _ => None,
        }
    }

    /// The action whose statement the slot is.
    pub fn action(self) -> Action {
        match self {
            Slot::Claim => Action::Claim,
            Slot::Renew => Action::Renew,
            Slot::Finish => Action::Finish,
            Slot::Cancel => Action::Cancel,
        }
    }

    /// The parameters every statement may use (sim-core's `sql` names).
    pub const PARAMS: [&'static str; 5] = [":job", ":owner", ":token", ":now", ":ttl"];
}

/// The learner's statements, by slot.
pub type Statements = BTreeMap<Slot, String>;

/// The cases of the battery: the lesson's scenario, then the edge cases
/// the course names, in the order a lesson meets them.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Case {
    /// The exercise's own scenario.
    Lesson,
    /// The article: B takes over A's expired lease; tokens 1 and 2, A's
    /// finish changes 0 rows, B's 1.
    Takeover,
    ExpiredLease,
    /// Every statement exactly at the lease's end (`now = lease_until`):
    /// the lease is over then, so the holder's renew and finish change
    /// nothing and another worker's claim succeeds.
    LeaseBoundary,
    DifferentOwner,
    /// A crashed worker restarts with the same owner id and claims again;
    /// the old incarnation's late statements differ only by their token.
    RestartedIncarnation,
    Cancelled,
    /// The user cancels a job nobody claimed yet: a ready job is open too.
    CancelReady,
    Failed,
    /// A job nobody claimed yet: its `lease_until` is `NULL`.
    NeverClaimed,
    /// A finish whose reply was lost is sent again.
    RetriedCommit,
    /// Each granted claim must return the new fence: the worker carries
    /// it as its token. Checked in this case alone, so that a claim that
    /// returns nothing fails one case, named for what it misses.
    ClaimReturnsToken,
}

impl Case {
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The case in the learner's words.
    pub fn title(self, lang: Lang) -> &'static str {
        match self {
            Case::Lesson => lang.pick("the lesson's scenario", "本课的场景"),
            Case::Takeover => lang.pick(
                "the article's takeover (tokens 1, 2; rows 0 / 1)",
                "文章里的接管（token 1、2；行数 0 / 1）",
            ),
            Case::ExpiredLease => lang.pick("an expired lease", "租约已过期"),
            Case::LeaseBoundary => lang.pick(
                "exactly at the lease's end (now = lease_until)",
                "恰好在租约结束的时刻（now = lease_until）",
            ),
            Case::DifferentOwner => lang.pick("a different owner", "另一个 owner"),
            Case::RestartedIncarnation => lang.pick(
                "a restarted incarnation with the same owner",
                "同一 owner 重启后的新实例",
            ),
            Case::Cancelled => lang.pick("a cancelled job", "已取消的任务"),
            Case::CancelReady => lang.pick(
                "a cancel of a job nobody has claimed yet",
                "取消一个还没人领取的任务",
            ),
            Case::Failed => lang.pick("a failed job", "已失败的任务"),
            Case::NeverClaimed => lang.pick(
                "a never-claimed job (lease_until is NULL)",
                "从未被领取的任务（lease_until 为 NULL）",
            ),
            Case::RetriedCommit => lang.pick(
                "a retried commit whose first reply was lost",
                "第一次回复丢失后重试的提交",
            ),
            Case::ClaimReturnsToken => lang.pick(
                "each claim hands its worker the new token (tokens 1, 2)",
                "每次领取都把新令牌交给 Worker（token 1、2）",
            ),
        }
    }

    /// The battery workers of this case (none for [`Case::Lesson`]).
    fn workers(self) -> &'static [WorkerSpec] {
        match self {
            Case::Lesson => &[],
            Case::Takeover
            | Case::DifferentOwner
            | Case::Cancelled
            | Case::Failed
            | Case::RetriedCommit
            | Case::LeaseBoundary
            | Case::ClaimReturnsToken => &[("A", "A"), ("B", "B")],
            Case::ExpiredLease | Case::NeverClaimed | Case::CancelReady => &[("A", "A")],
            Case::RestartedIncarnation => &[("A", "A"), ("A2", "A")],
        }
    }

    /// The battery steps of this case (none for [`Case::Lesson`]).
    fn steps(self) -> &'static [StepSpec] {
        use Action::{Cancel, Claim, Fail, Finish, Renew};
        match self {
            Case::Lesson => &[],
            Case::Takeover => &[
                (0, Some(0), Claim),
                (6, Some(1), Claim),
                (7, Some(0), Finish),
                (7, Some(1), Finish),
            ],
            Case::ExpiredLease => &[
                (0, Some(0), Claim),
                (3, Some(0), Renew),
                (8, Some(0), Finish),
                (9, Some(0), Renew),
                (9, Some(0), Claim),
            ],
            Case::LeaseBoundary => &[
                (0, Some(0), Claim),
                (TTL, Some(0), Renew),
                (TTL, Some(0), Finish),
                (TTL, Some(1), Claim),
            ],
            Case::DifferentOwner => &[
                (0, Some(0), Claim),
                (1, Some(1), Renew),
                (2, Some(1), Finish),
                (3, Some(0), Finish),
            ],
            Case::RestartedIncarnation => &[
                (0, Some(0), Claim),
                (6, Some(1), Claim),
                (7, Some(0), Renew),
                (7, Some(0), Finish),
                (8, Some(1), Finish),
            ],
            Case::Cancelled => &[
                (0, Some(0), Claim),
                (1, None, Cancel),
                (2, Some(0), Renew),
                (3, Some(0), Finish),
                (6, Some(1), Claim),
            ],
            Case::CancelReady => &[(0, None, Cancel), (1, Some(0), Claim)],
            Case::Failed => &[
                (0, Some(0), Claim),
                (2, Some(0), Fail),
                (3, Some(0), Finish),
                (6, Some(1), Claim),
            ],
            Case::NeverClaimed => &[
                (0, Some(0), Renew),
                (0, Some(0), Finish),
                (1, Some(0), Claim),
                (2, Some(0), Finish),
            ],
            Case::RetriedCommit => &[
                (0, Some(0), Claim),
                (2, Some(0), Finish),
                (3, Some(0), Finish),
                (6, Some(1), Claim),
            ],
            Case::ClaimReturnsToken => &[
                (0, Some(0), Claim),
                (1, Some(1), Claim),
                (6, Some(1), Claim),
                (7, Some(1), Finish),
            ],
        }
    }

    /// The battery's scenario for this case (`None` for [`Case::Lesson`]):
    /// built here, run by the engine, under the `db-conditional` design.
    pub fn scenario(self) -> Option<Scenario> {
        if self == Case::Lesson {
            return None;
        }
        let mut scenario = Scenario::new(self.name(), TTL, &[]);
        scenario.title = Text {
            en: self.title(Lang::En).to_owned(),
            zh: self.title(Lang::Zh).to_owned(),
        };
        scenario.set_design(
            Preset::DbConditional.design(),
            DesignSource::Preset(Preset::DbConditional),
        );
        for (id, owner) in self.workers() {
            scenario.add_worker(id, owner);
        }
        scenario.steps = self
            .steps()
            .iter()
            .map(|&(at, worker, action)| Step::new(at, worker, action))
            .collect();
        Some(scenario)
    }
}

/// A battery worker: its id and its owner identity.
type WorkerSpec = (&'static str, &'static str);
/// A battery step: when, which worker (`None`: the user), what.
type StepSpec = (u64, Option<u16>, Action);

/// The battery's lease length, in ticks.
const TTL: u64 = 5;

/// A statement of a plan step: the learner's for a slot, or one the model
/// spells (a `fail`, or a slot the exercise does not ask for).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanSql {
    Slot(Slot),
    Fixed(String),
}

/// A parameter's name (with its `:`) and value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanParam {
    pub name: String,
    pub value: SqlValue,
}

/// The job row as SQL holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobRow {
    pub owner: Option<String>,
    pub lease_until: Option<i64>,
    pub fence: i64,
    pub state: String,
}

/// One statement of a case, and what the model says it does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanStep {
    /// The scenario step it stands for.
    pub step: u32,
    pub at: u64,
    /// The worker's id, or `user`.
    pub who: String,
    /// The scenario action (`claim`, `fail`, …).
    pub action: String,
    pub sql: PlanSql,
    /// Every parameter of [`Slot::PARAMS`], bound to the step's values.
    pub params: Vec<PlanParam>,
    /// The job's id, for reading its row after the statement.
    pub job: String,
    /// Rows the model says the statement changes.
    pub rows: u8,
    /// The job row the model has after the step.
    pub row: JobRow,
    /// The token a granted claim must return in a column `fence`
    /// (`RETURNING`), in the case that checks it ([`Case::ClaimReturnsToken`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanCase {
    pub case: Case,
    pub steps: Vec<PlanStep>,
}

/// Everything a front end needs to run the learner's statements.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Trusted statements that create and fill the job table; each case
    /// starts from a fresh database built by them.
    pub schema: Vec<String>,
    /// Trusted: reads the job row (`:job`) as `owner, lease_until, fence, state`.
    pub read_row: String,
    /// The slots the learner writes, in order.
    pub slots: Vec<Slot>,
    pub cases: Vec<PlanCase>,
}

/// Why a plan could not be built from a scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanError {
    /// The step's action has no place in the SQL lab (transactions,
    /// `claim_next`, `check`, …).
    Unsupported { step: u32, action: &'static str },
    /// The design hands out random tokens, which a plan cannot replay.
    RandomTokens,
}

impl PlanError {
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (PlanError::Unsupported { step, action }, Lang::En) => format!(
                "step {step} (`{action}`) has no place in a `sql` exercise: only claim, renew, finish, fail, cancel and steps without SQL"
            ),
            (PlanError::Unsupported { step, action }, Lang::Zh) => format!(
                "第 {step} 步（`{action}`）不能用于 `sql` 练习：只能有 claim、renew、finish、fail、cancel 和不含 SQL 的步骤"
            ),
            (PlanError::RandomTokens, Lang::En) => {
                "a `sql` exercise's scenario needs monotonic tokens".to_owned()
            }
            (PlanError::RandomTokens, Lang::Zh) => {
                "`sql` 练习的场景需要单调递增的 token".to_owned()
            }
        }
    }
}

fn row_of(scenario: &Scenario, row: &Row) -> JobRow {
    JobRow {
        owner: row.owner.map(|o| scenario.owner_id(o).to_owned()),
        lease_until: row.lease_until,
        fence: i64::try_from(row.fence).unwrap_or(i64::MAX),
        state: row.state.name().to_owned(),
    }
}

/// One case of a plan: the engine runs `scenario`, and every job-table
/// statement a worker sent becomes a step.
pub fn plan_case(scenario: &Scenario, case: Case, slots: &[Slot]) -> Result<PlanCase, PlanError> {
    if scenario.design.token == TokenKind::Random {
        return Err(PlanError::RandomTokens);
    }
    let trace = crate::run(scenario);
    let mut steps = Vec::new();
    for (index, step) in scenario.steps.iter().enumerate() {
        let number = u32::try_from(index).unwrap_or(u32::MAX);
        let supported = matches!(
            step.action,
            Action::Claim | Action::Renew | Action::Finish | Action::Fail | Action::Cancel
        );
        let Some(model) = sql::step_sql(scenario, &trace, index, Dialect::Sqlite) else {
            continue;
        };
        if !supported {
            return Err(PlanError::Unsupported {
                step: number,
                action: step.action.name(),
            });
        }
        let Some(record) = trace.steps.get(index) else {
            continue;
        };
        if !model.sent || matches!(record.reason, Some(Reason::Blocked | Reason::Crashed)) {
            continue;
        }
        let job = usize::from(record.job.or(step.job).unwrap_or(0));
        let job_id = scenario.jobs.get(job).cloned().unwrap_or_default();
        let params = plan_params(scenario, step, record.token, model.now, &job_id);
        let sql = match Slot::of(step.action).filter(|slot| slots.contains(slot)) {
            Some(slot) => PlanSql::Slot(slot),
            None => PlanSql::Fixed(model.statement.text.clone()),
        };
        let row = record
            .row
            .as_ref()
            .or_else(|| trace.final_rows.get(job))
            .map(|row| row_of(scenario, row))
            .unwrap_or(JobRow {
                owner: None,
                lease_until: None,
                fence: 0,
                state: "ready".to_owned(),
            });
        let rows = record.rows.unwrap_or(0);
        let returns = (case == Case::ClaimReturnsToken && step.action == Action::Claim && rows > 0)
            .then(|| record.token.and_then(|t| i64::try_from(t).ok()))
            .flatten();
        steps.push(PlanStep {
            step: number,
            at: step.at,
            who: step
                .worker
                .map_or("user", |w| scenario.worker_id(w))
                .to_owned(),
            action: step.action.name().to_owned(),
            sql,
            params,
            job: job_id,
            rows,
            row,
            returns,
        });
    }
    Ok(PlanCase { case, steps })
}

/// The parameters a plan step binds: the job, the worker's owner, the
/// token it carries (none for a claim), the clock's reading and the TTL.
fn plan_params(
    scenario: &Scenario,
    step: &Step,
    token: Option<u64>,
    now: i64,
    job_id: &str,
) -> Vec<PlanParam> {
    let binding = Binding {
        owner: step
            .worker
            .and_then(|w| scenario.workers.get(usize::from(w)))
            .map(|w| scenario.owner_id(w.owner).to_owned()),
        token: if step.action == Action::Claim {
            None
        } else {
            token
        },
        new_token: None,
        now,
    };
    let int = |v: Option<u64>| {
        v.and_then(|v| i64::try_from(v).ok())
            .map_or(SqlValue::Null, SqlValue::Int)
    };
    let params = vec![
        (":job", SqlValue::Text(job_id.to_owned())),
        (
            ":owner",
            binding.owner.clone().map_or(SqlValue::Null, SqlValue::Text),
        ),
        (":token", int(binding.token)),
        (":now", SqlValue::Int(binding.now)),
        (
            ":ttl",
            SqlValue::Int(i64::try_from(scenario.ttl).unwrap_or(0)),
        ),
    ];
    params
        .into_iter()
        .map(|(name, value)| PlanParam {
            name: name.to_owned(),
            value,
        })
        .collect()
}

/// The whole plan of an exercise: its scenario, then every battery case.
pub fn plan(lesson_scenario: &Scenario, slots: &[Slot]) -> Result<Plan, PlanError> {
    let mut cases = vec![plan_case(lesson_scenario, Case::Lesson, slots)?];
    for case in Case::VARIANTS.iter().skip(1) {
        if let Some(scenario) = case.scenario() {
            cases.push(plan_case(&scenario, *case, slots)?);
        }
    }
    let mut jobs = lesson_scenario.clone();
    // The battery's scenarios have the one job `r`; the lesson's may name more.
    if !jobs.jobs.iter().any(|j| j == "r") {
        jobs.jobs.push("r".to_owned());
    }
    Ok(Plan {
        schema: sql::schema(&jobs, Dialect::Sqlite),
        read_row: "SELECT owner, lease_until, fence, state FROM jobs WHERE id = :job".to_owned(),
        slots: slots.to_vec(),
        cases,
    })
}

/// A learner's statement the box refused before any case ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotRefusal {
    pub slot: Slot,
    pub en: String,
    pub zh: String,
    /// A syntax error's position in the statement (1-based).
    pub line: Option<u32>,
    pub col: Option<u32>,
    /// Nothing was written in this slot: not SQLite's refusal but an
    /// answer not finished (older records lack it: not empty).
    #[serde(default)]
    pub empty: bool,
}

impl SlotRefusal {
    /// Why the statement was refused, in `lang`.
    pub fn message(&self, lang: Lang) -> &str {
        lang.pick(&self.en, &self.zh)
    }

    /// The one line that sums up a hand-in the box refused, in both front
    /// ends (each refusal's own message is shown by its statement): a
    /// statement still empty is said as that, not as SQLite refusing it.
    /// Neither counts as a try.
    pub fn status(refused: &[SlotRefusal], lang: Lang) -> &'static str {
        if !refused.is_empty() && refused.iter().all(|r| r.empty) {
            lang.pick(
                "✗ A statement is still empty (not a try): write it.",
                "✗ 还有语句是空的：请写上（不计入作答次数）。",
            )
        } else {
            lang.pick(
                "✗ SQLite refused a statement (not a try): see its message.",
                "✗ SQLite 拒绝了一条语句（不计入作答次数）：见该语句的说明。",
            )
        }
    }
}

/// What one plan step did on the real database.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepRun {
    Ran {
        rows: u64,
        /// The job row right after it.
        row: Option<JobRow>,
        /// What it returned (`RETURNING`): per row, each column's name and
        /// value (older runs lack it: nothing returned).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        returned: Vec<Vec<(String, SqlValue)>>,
    },
    /// The box refused it or SQLite failed on it; the case stops here.
    Refused { en: String, zh: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct CaseRun {
    /// Parallel to the plan case's steps (shorter when one was refused).
    pub steps: Vec<StepRun>,
}

/// A front end's run of a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct PlanRun {
    /// Statements refused up front (syntax, two statements, `ATTACH`, …);
    /// when any is, no case runs.
    pub refused: Vec<SlotRefusal>,
    /// Parallel to the plan's cases.
    pub cases: Vec<CaseRun>,
}

/// How a case went wrong at its first differing step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    /// The statement was refused while running.
    Refused(Text),
    /// It changed `got` rows where the model changes `want`.
    Rows { got: u64, want: u8 },
    /// The row count is right but the job row after it differs.
    Row { got: Option<JobRow>, want: JobRow },
    /// A granted claim returned `got` as its `fence` (`None`: no such
    /// column, or not one row) where the worker's new token is `want`.
    Token { got: Option<i64>, want: i64 },
    /// The run stopped before this step.
    Missing,
}

/// One case's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub case: Case,
    /// The first differing step and how, or `None` when the case passed.
    pub miss: Option<(PlanStep, Miss)>,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        self.miss.is_none()
    }
}

/// Compares a run with the plan's model answers, case by case.
pub fn judge(plan: &Plan, run: &PlanRun) -> Vec<Verdict> {
    plan.cases
        .iter()
        .enumerate()
        .map(|(index, case)| {
            let ran = run.cases.get(index);
            let miss = case.steps.iter().enumerate().find_map(|(k, step)| {
                let miss = match ran.and_then(|r| r.steps.get(k)) {
                    None => Miss::Missing,
                    Some(StepRun::Refused { en, zh }) => Miss::Refused(Text {
                        en: en.clone(),
                        zh: zh.clone(),
                    }),
                    Some(StepRun::Ran { rows, .. }) if *rows != u64::from(step.rows) => {
                        Miss::Rows {
                            got: *rows,
                            want: step.rows,
                        }
                    }
                    Some(StepRun::Ran { row, .. }) if row.as_ref() != Some(&step.row) => {
                        Miss::Row {
                            got: row.clone(),
                            want: step.row.clone(),
                        }
                    }
                    Some(StepRun::Ran { returned, .. }) => match step.returns {
                        Some(want) if returned_fence(returned) != Some(want) => Miss::Token {
                            got: returned_fence(returned),
                            want,
                        },
                        _ => return None,
                    },
                };
                Some((step.clone(), miss))
            });
            Verdict {
                case: case.case,
                miss,
            }
        })
        .collect()
}

/// The `fence` column (named in any case) of the one row a statement
/// returned: what a worker reads as its new token.
fn returned_fence(returned: &[Vec<(String, SqlValue)>]) -> Option<i64> {
    let [row] = returned else {
        return None;
    };
    row.iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("fence"))
        .and_then(|(_, value)| match value {
            SqlValue::Int(n) => Some(*n),
            _ => None,
        })
}

fn row_words(row: &JobRow) -> String {
    let owner = row
        .owner
        .as_ref()
        .map_or("NULL".to_owned(), |o| format!("'{o}'"));
    let lease = row.lease_until.map_or("NULL".to_owned(), |l| l.to_string());
    format!(
        "owner = {owner}, lease_until = {lease}, fence = {}, state = '{}'",
        row.fence, row.state
    )
}

impl Verdict {
    /// What went wrong, in the learner's words: the case, the step, and
    /// the row count (or row) produced against the one required.
    pub fn words(&self, lang: Lang) -> String {
        let title = self.case.title(lang);
        let Some((step, miss)) = &self.miss else {
            return match lang {
                Lang::En => format!("{title}: passes"),
                Lang::Zh => format!("{title}：通过"),
            };
        };
        let at = match lang {
            Lang::En => format!(
                "step {} (tick {}, {} {})",
                step.step, step.at, step.who, step.action
            ),
            Lang::Zh => format!(
                "第 {} 步（tick {}，{} {}）",
                step.step, step.at, step.who, step.action
            ),
        };
        let what = match (miss, lang) {
            (Miss::Refused(text), _) => text.get(lang).to_owned(),
            (Miss::Rows { got, want }, Lang::En) => {
                format!("your statement changed {got} row(s); it must change {want}")
            }
            (Miss::Rows { got, want }, Lang::Zh) => {
                format!("你的语句改动了 {got} 行；应当改动 {want} 行")
            }
            (Miss::Row { got, want }, Lang::En) => format!(
                "the row count is right, but the job row afterwards is {} where it must be {}",
                got.as_ref().map_or("missing".to_owned(), row_words),
                row_words(want)
            ),
            (Miss::Row { got, want }, Lang::Zh) => format!(
                "行数对了，但之后的任务行是 {}，应当是 {}",
                got.as_ref().map_or("不存在".to_owned(), row_words),
                row_words(want)
            ),
            (Miss::Token { got: None, want }, Lang::En) => format!(
                "the claim took the job but returned no fence: its worker never learns its token ({want})"
            ),
            (Miss::Token { got: None, want }, Lang::Zh) => {
                format!("领取拿到了任务，却没有返回 fence：Worker 无从得知自己的令牌（{want}）")
            }
            (
                Miss::Token {
                    got: Some(got),
                    want,
                },
                Lang::En,
            ) => format!("the claim returned fence = {got}; its worker's new token is {want}"),
            (
                Miss::Token {
                    got: Some(got),
                    want,
                },
                Lang::Zh,
            ) => {
                format!("领取返回的 fence = {got}；Worker 的新令牌是 {want}")
            }
            (Miss::Missing, Lang::En) => "the run stopped before this step".to_owned(),
            (Miss::Missing, Lang::Zh) => "运行在这一步之前就停止了".to_owned(),
        };
        match lang {
            Lang::En => format!("{title}: {at}: {what}"),
            Lang::Zh => format!("{title}：{at}：{what}"),
        }
    }
}

/// The statements the model itself sends for each slot (the `db-conditional`
/// design): the worked solution, shown only once an exercise is solved or
/// its solution is asked for.
pub fn model_statements(slots: &[Slot]) -> Statements {
    let mut out = Statements::new();
    let Some(scenario) = Case::Takeover.scenario() else {
        return out;
    };
    let binding = Binding {
        owner: Some("A".to_owned()),
        token: Some(1),
        new_token: None,
        now: 0,
    };
    for slot in slots {
        let step = Step::new(0, Some(0), slot.action());
        if let Some(statement) = sql::statement(&scenario, &step, 0, &binding, Dialect::Sqlite) {
            out.insert(*slot, statement.text);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_takeover_case_has_the_articles_tokens_and_row_counts() {
        let Some(scenario) = Case::Takeover.scenario() else {
            panic!("a battery case");
        };
        let case = plan_case(&scenario, Case::Takeover, &[Slot::Claim, Slot::Finish]).unwrap();
        let rows: Vec<u8> = case.steps.iter().map(|s| s.rows).collect();
        assert_eq!(rows, [1, 1, 0, 1]);
        let fences: Vec<i64> = case.steps.iter().map(|s| s.row.fence).collect();
        assert_eq!(fences, [1, 2, 2, 2]);
        assert_eq!(case.steps[2].sql, PlanSql::Slot(Slot::Finish));
    }

    #[test]
    fn every_battery_case_is_a_valid_scenario_and_a_plan_round_trips_as_json() {
        for case in Case::VARIANTS.iter().skip(1) {
            let scenario = case.scenario().unwrap();
            assert!(scenario.check().is_ok(), "{case:?}");
        }
        let lesson = Case::Takeover.scenario().unwrap();
        let plan = plan(&lesson, &[Slot::Claim, Slot::Renew, Slot::Finish]).unwrap();
        assert_eq!(plan.cases.len(), Case::VARIANTS.len());
        // A slot not asked for runs the model's own statement.
        let cancelled = plan
            .cases
            .iter()
            .find(|c| c.case == Case::Cancelled)
            .unwrap();
        assert!(matches!(cancelled.steps[1].sql, PlanSql::Fixed(_)));
        let json = serde_json::to_string(&plan).unwrap();
        let back: Plan = serde_json::from_str(&json).unwrap();
        assert_eq!(back, plan);
    }

    /// The engine's rules the issue-23 cases rest on: at `lease_until` the
    /// lease is over (renew and finish change nothing, a claim succeeds), a
    /// ready job can be cancelled, and only granted claims return a token.
    #[test]
    fn the_boundary_cancel_and_token_cases_follow_the_model() {
        let steps = |case: Case| {
            let scenario = case.scenario().unwrap();
            plan_case(&scenario, case, Slot::VARIANTS).unwrap().steps
        };
        let rows = |case: Case| steps(case).iter().map(|s| s.rows).collect::<Vec<_>>();
        assert_eq!(rows(Case::LeaseBoundary), [1, 0, 0, 1]);
        assert_eq!(rows(Case::CancelReady), [1, 0]);
        assert_eq!(steps(Case::CancelReady)[0].row.state, "cancelled");
        let returns: Vec<Option<i64>> = steps(Case::ClaimReturnsToken)
            .iter()
            .map(|s| s.returns)
            .collect();
        assert_eq!(returns, [Some(1), None, Some(2), None]);
        // No other case asks for a token.
        for case in Case::VARIANTS.iter().skip(1) {
            if *case != Case::ClaimReturnsToken {
                assert!(steps(*case).iter().all(|s| s.returns.is_none()), "{case:?}");
            }
        }
    }

    #[test]
    fn slots_are_named_in_the_order_lessons_list_them() {
        let names: Vec<&str> = Slot::VARIANTS.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["claim", "renew", "finish", "cancel"]);
    }

    #[test]
    fn transactions_and_random_tokens_have_no_place_in_a_plan() {
        let mut scenario = Case::Takeover.scenario().unwrap();
        scenario
            .steps
            .insert(1, Step::new(1, Some(1), Action::Begin));
        assert!(matches!(
            plan(&scenario, &[Slot::Claim]),
            Err(PlanError::Unsupported { step: 1, .. })
        ));
        let mut random = Case::Takeover.scenario().unwrap();
        random.design.token = TokenKind::Random;
        assert_eq!(plan(&random, &[Slot::Claim]), Err(PlanError::RandomTokens));
        for error in [
            PlanError::RandomTokens,
            PlanError::Unsupported {
                step: 1,
                action: "begin",
            },
        ] {
            assert_ne!(error.message(Lang::En), error.message(Lang::Zh));
        }
    }

    #[test]
    fn a_run_that_stops_early_fails_its_case_and_says_where() {
        let lesson = Case::Takeover.scenario().unwrap();
        let plan = plan(&lesson, &[Slot::Claim, Slot::Finish]).unwrap();
        let verdicts = judge(&plan, &PlanRun::default());
        assert!(verdicts.iter().all(|v| !v.passed()));
        let said = verdicts[0].words(Lang::En);
        assert!(said.contains("step 0"), "{said}");
        assert!(said.contains("stopped before"), "{said}");
    }
}
