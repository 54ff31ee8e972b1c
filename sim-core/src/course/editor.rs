//! The answer editor of the design and break exercises, as data: the
//! answer in the making as rows of fields, each field with its value in
//! words and the choices the exercise's world allows, and the edits that
//! change it ([`Edit`], through [`super::Act::Edit`]). The rules of editing
//! live here — what a target may be given, which actions a schedule may
//! use, that a step keeps its worker when its action changes, that the
//! steps stay in tick order — so the terminal and the page only draw the
//! rows and send the learner's keys and clicks as edits. The items of a
//! mark, predict or quiz exercise are edited through the same act
//! ([`Edit::Choose`], applied in `choose.rs`).

use serde::{Deserialize, Serialize};

use crate::Lang;
use crate::course::answer_json::MAX_ANSWER_STEPS;
use crate::course::grade::{DesignAnswer, Schedule};
use crate::course::kinds::design::DesignExercise;
use crate::course::kinds::schedule::schedule_scenario;
use crate::course::lesson::Knob;
use crate::design::{Check, CheckSet, ClaimProcedure, LeaseClock, Protect, TokenKind};
use crate::resource::{RECONCILE_COST, ResourceKind};
use crate::scenario::{Action, MAX_TIME, OpRef, Scenario, Step, ValueRef};
use crate::trace::ViolationKind;

/// One change to the answer in the making. Rows and fields are indices
/// into [`Editor::rows`] and [`EditorRow::fields`]; an index out of range,
/// a value not among a field's choices or a step that cannot be added is
/// refused ([`EditRefused`]) and nothing changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case", deny_unknown_fields)]
pub enum Edit {
    /// The field takes `value`: one of its choices' values, a number in its
    /// bounds (a tick), or a name (a write's op or value; empty: none).
    Set {
        row: u32,
        field: u32,
        value: String,
    },
    /// The field's next (or previous) choice, wrapping; a tick one more
    /// (or less), within its bounds.
    Cycle {
        row: u32,
        field: u32,
        forward: bool,
    },
    /// A schedule: a copy of step `after` one tick later, placed after it
    /// (`None`: after the last step; a first claim when there is none).
    AddStep {
        after: Option<u32>,
    },
    RemoveStep {
        row: u32,
    },
    /// A schedule: the step one place later (or earlier), taking the tick of
    /// the step it passes, so the schedule stays in tick order.
    MoveStep {
        row: u32,
        later: bool,
    },
    /// A mark, predict or quiz exercise: `item` is an index of the screen's
    /// items ([`super::Item::index`]: a step, or a quiz option's authored
    /// index), chosen as the screen's [`super::Pick`] says. `Any` (mark, a
    /// multiple-choice quiz) toggles it; `One` (a single-choice quiz)
    /// chooses it alone; both take no `value`. `Each` (predict) sets it to
    /// `value`, one of the choices' values ([`super::Choosing::choices`]),
    /// or clears it (`None`). No such item, or a value not offered, is
    /// refused.
    Choose {
        item: u32,
        #[serde(default)]
        value: Option<String>,
    },
}

/// Why an edit changed nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditRefused {
    /// No such row, field or item, or not an edit of this kind of editor.
    NoSuchPlace,
    /// Not a value the field allows.
    NotAllowed,
    /// The schedule holds as many steps as an answer may.
    Full,
}

/// Which answer the editor edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EditorKind {
    /// A design's knobs: one field per row, rows fixed.
    Design,
    /// A break schedule's steps: a row per step, steps added, removed,
    /// moved.
    Schedule,
}

/// How a field is edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "input", rename_all = "snake_case")]
pub enum Input {
    /// One of [`EditorField::choices`].
    Choice,
    /// On or off (values `true` and `false`): a checked predicate, a target
    /// sent to reconciliation.
    Toggle,
    /// A whole number from `min` to `max` (a step's tick).
    Number { min: u64, max: u64 },
    /// A name typed freely (a write's op or value), or one of the choices
    /// (the names the schedule uses already; empty: none).
    Name,
}

/// A value a field may take, and in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Choice {
    pub value: String,
    pub label: String,
}

/// One field of a row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditorField {
    /// What the field is (`check`, `token`, `lease_clock`, `claim`, `protect`,
    /// `reconcile`; a step's `at`, `worker`, `do`, `target`, `job`, `op`,
    /// `value`).
    pub name: &'static str,
    /// The field's name in words (a column's head, an input's label).
    pub label: String,
    pub input: Input,
    /// The current value (as the choices name it) and in words.
    pub value: String,
    pub value_label: String,
    /// What a value costs, in words (a target's protection).
    pub note: Option<String>,
    pub choices: Vec<Choice>,
    /// More than one value is possible: a front end offers to change it
    /// (the terminal draws ‹ › around it).
    pub cyclable: bool,
}

/// One row: a knob (a check set spans a row per predicate), a target's
/// protection or reconciliation, or a schedule's step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditorRow {
    /// `commit checks`, `db Postgres`, `step 3`.
    pub label: String,
    pub fields: Vec<EditorField>,
    /// What the row's current choice means in reality (a protection's or
    /// reconciliation's cost in words).
    pub detail: Option<String>,
    /// What the row's real resource is.
    pub about: Option<String>,
}

/// The editor of the answer in the making, in one language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Editor {
    pub kind: EditorKind,
    /// The exercise's world in one line (workers, targets, TTL, jobs; a
    /// schedule's names and the violation asked for).
    pub world: String,
    pub rows: Vec<EditorRow>,
    /// A schedule: why it cannot run (`None`: it runs).
    pub problem: Option<String>,
    /// A schedule: another step may be added.
    pub can_add: bool,
    /// The row the last edit left its step on (a tick typed moves a step to
    /// its place in time), for the cursor to follow.
    pub focus: Option<u32>,
}

/// The answer in the making, with the row an editor's last edit left its
/// step on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Making {
    pub(crate) answer: crate::course::grade::Answer,
    pub(crate) focus: Option<u32>,
}

fn choice(value: impl Into<String>, label: impl Into<String>) -> Choice {
    Choice {
        value: value.into(),
        label: label.into(),
    }
}

/// A field over `choices` with `value` chosen.
fn choice_field(
    name: &'static str,
    label: String,
    value: &str,
    choices: Vec<Choice>,
    input: Input,
) -> EditorField {
    let value_label = choices
        .iter()
        .find(|c| c.value == value)
        .map_or_else(|| value.to_owned(), |c| c.label.clone());
    EditorField {
        name,
        label,
        input,
        value: value.to_owned(),
        value_label,
        note: None,
        cyclable: choices.len() > 1,
        choices,
    }
}

fn toggle_field(name: &'static str, label: String, on: bool) -> EditorField {
    let value = if on { "true" } else { "false" };
    EditorField {
        name,
        value_label: label.clone(),
        label,
        input: Input::Toggle,
        value: value.to_owned(),
        note: None,
        choices: vec![choice("false", "false"), choice("true", "true")],
        cyclable: true,
    }
}

fn cost_words(cost: u32, lang: Lang) -> String {
    format!("{} {cost}", lang.pick("cost", "代价"))
}

// ---- the design ---------------------------------------------------------

/// One row of a design's editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KnobRow {
    Commit(Check),
    Renew(Check),
    Token,
    Clock,
    Claim,
    CancelEpoch,
    InputRevision,
    Target(usize),
    Reconcile(usize),
}

/// A design exercise's rows: each open knob, then each target's
/// reconciliation (always the learner's call).
fn knob_rows(exercise: &DesignExercise<'_>, targets: usize) -> Vec<KnobRow> {
    let mut rows = Vec::new();
    for knob in exercise.open {
        match knob {
            Knob::CommitChecks => rows.extend(Check::ALL.map(KnobRow::Commit)),
            Knob::RenewChecks => rows.extend(Check::ALL.map(KnobRow::Renew)),
            Knob::Token => rows.push(KnobRow::Token),
            Knob::LeaseClock => rows.push(KnobRow::Clock),
            Knob::TargetProtect => rows.extend((0..targets).map(KnobRow::Target)),
            Knob::Claim => rows.push(KnobRow::Claim),
            Knob::CancelEpoch => rows.push(KnobRow::CancelEpoch),
            Knob::InputRevision => rows.push(KnobRow::InputRevision),
        }
    }
    rows.extend((0..targets).map(KnobRow::Reconcile));
    rows
}

/// Every open knob as `answer` turns it, the others left out: the answer
/// the design editor edits.
pub(crate) fn design_making(exercise: &DesignExercise<'_>, answer: &DesignAnswer) -> DesignAnswer {
    let (design, targets) = exercise.chosen(answer);
    let open = |knob| exercise.open.contains(&knob);
    DesignAnswer {
        commit_checks: open(Knob::CommitChecks).then_some(design.commit_checks),
        renew_checks: open(Knob::RenewChecks).then_some(design.renew_checks),
        token: open(Knob::Token).then_some(design.token),
        lease_clock: open(Knob::LeaseClock).then_some(design.lease_clock),
        target_protect: open(Knob::TargetProtect).then_some(targets),
        claim: open(Knob::Claim).then_some(design.claim),
        cancel_epoch: open(Knob::CancelEpoch).then_some(design.cancel_epoch),
        input_revision: open(Knob::InputRevision).then_some(design.input_revision),
        reconcile: answer
            .reconcile
            .iter()
            .copied()
            .filter(|t| usize::from(*t) < exercise.start_targets().len())
            .collect(),
    }
}

/// The names of the world's targets, in order.
fn design_target_ids(exercise: &DesignExercise<'_>) -> Vec<String> {
    let count = exercise.start_targets().len();
    match exercise.world.world() {
        Ok(built) => (0..count)
            .map(|i| built.target_id(u8::try_from(i).unwrap_or(u8::MAX)))
            .collect(),
        Err(_) => (0..count).map(|i| format!("t{}", i + 1)).collect(),
    }
}

fn resource(exercise: &DesignExercise<'_>, index: usize) -> ResourceKind {
    exercise
        .resources
        .get(index)
        .copied()
        .unwrap_or(ResourceKind::Generic)
}

/// The design exercise's world in words.
fn design_world(exercise: &DesignExercise<'_>, lang: Lang) -> String {
    let world = exercise.world;
    let targets = exercise.start_targets().len();
    let mut parts = vec![
        lang.pick(
            format!("{} workers", world.workers),
            format!("{} 个 Worker", world.workers),
        ),
        lang.pick(format!("{targets} targets"), format!("{targets} 个目标")),
        format!("TTL {}", world.ttl),
        lang.pick(
            format!("{} job(s)", world.jobs),
            format!("{} 个任务", world.jobs),
        ),
    ];
    for (on, en, zh) in [
        (world.allow_cancel, "cancel", "允许取消"),
        (world.allow_revise, "revise", "允许修改输入"),
        (world.heartbeat, "heartbeat", "心跳续约"),
        (world.restarted, "restarted", "含重启后的进程"),
    ] {
        if on {
            parts.push(lang.pick(en, zh).to_owned());
        }
    }
    let bounds = world.bounds;
    if bounds.max_in_flight > 0 {
        parts.push(lang.pick(
            format!(
                "requests travel up to {} ticks, {} at once",
                bounds.max_delay, bounds.max_in_flight
            ),
            format!(
                "请求在路上最多 {} 个 tick，最多同时 {} 个",
                bounds.max_delay, bounds.max_in_flight
            ),
        ));
    }
    format!(
        "{}{}",
        lang.pick("World: ", "世界："),
        parts.join(lang.pick(", ", "，"))
    )
}

/// The design editor over `answer` (every open knob set).
pub(crate) fn design_editor(
    exercise: &DesignExercise<'_>,
    answer: &DesignAnswer,
    lang: Lang,
) -> Editor {
    let answer = design_making(exercise, answer);
    let (design, targets) = exercise.chosen(&answer);
    let ids = design_target_ids(exercise);
    let check_row = |label: &str, set: CheckSet, check: Check| EditorRow {
        label: label.to_owned(),
        fields: vec![toggle_field(
            "check",
            crate::check_words(check, lang).to_owned(),
            set.contains(check),
        )],
        detail: Some(crate::predicate_cost_words(lang).to_owned()),
        about: None,
    };
    let rows = knob_rows(exercise, targets.len())
        .into_iter()
        .map(|row| match row {
            KnobRow::Commit(check) => check_row(
                lang.pick("commit checks", "提交检查"),
                design.commit_checks,
                check,
            ),
            KnobRow::Renew(check) => check_row(
                lang.pick("renew checks", "续约检查"),
                design.renew_checks,
                check,
            ),
            KnobRow::Token => EditorRow {
                detail: Some(crate::token_cost_words(lang).to_owned()),
                ..knob_row(
                    "token",
                    lang.pick("token", "令牌"),
                    design.token.name(),
                    TokenKind::ALL
                        .iter()
                        .map(|t| choice(t.name(), crate::token_words(*t, lang)))
                        .collect(),
                )
            },
            KnobRow::Clock => clock_row(design.lease_clock, lang),
            KnobRow::Claim => claim_row(&exercise.claims_offered(), design.claim, lang),
            KnobRow::CancelEpoch => EditorRow {
                label: lang.pick("cancel epoch", "取消纪元").to_owned(),
                fields: vec![toggle_field(
                    "cancel_epoch",
                    format!(
                        "{} {}",
                        crate::cancel_epoch_words(lang),
                        cost_words(crate::cancel_epoch_cost(true), lang)
                    ),
                    design.cancel_epoch,
                )],
                detail: Some(crate::cancel_epoch_cost_words(design.cancel_epoch, lang).to_owned()),
                about: None,
            },
            KnobRow::InputRevision => EditorRow {
                label: lang.pick("input revision", "输入修订号").to_owned(),
                fields: vec![toggle_field(
                    "input_revision",
                    format!(
                        "{} {}",
                        crate::input_revision_words(lang),
                        cost_words(crate::input_revision_cost(true), lang)
                    ),
                    design.input_revision,
                )],
                detail: Some(
                    crate::input_revision_cost_words(design.input_revision, lang).to_owned(),
                ),
                about: None,
            },
            KnobRow::Target(index) => target_row(exercise, &ids, &targets, index, lang),
            KnobRow::Reconcile(index) => EditorRow {
                label: lang.pick("reconcile", "对账").to_owned(),
                fields: vec![toggle_field(
                    "reconcile",
                    format!("t{} {}", index + 1, cost_words(RECONCILE_COST, lang)),
                    answer
                        .reconcile
                        .contains(&u8::try_from(index).unwrap_or(u8::MAX)),
                )],
                detail: Some(crate::reconcile_cost_words(lang).to_owned()),
                about: None,
            },
        })
        .collect();
    Editor {
        kind: EditorKind::Design,
        world: design_world(exercise, lang),
        rows,
        problem: None,
        can_add: false,
        focus: None,
    }
}

/// A knob's row: one field over its choices, named as the row.
fn knob_row(name: &'static str, label: &str, value: &str, choices: Vec<Choice>) -> EditorRow {
    EditorRow {
        label: label.to_owned(),
        fields: vec![choice_field(
            name,
            label.to_owned(),
            value,
            choices,
            Input::Choice,
        )],
        detail: None,
        about: None,
    }
}

/// The lease clock's row: each clock with its cost, and what the chosen
/// one costs in reality.
fn clock_row(clock: LeaseClock, lang: Lang) -> EditorRow {
    let label = lang.pick("lease clock", "租约时钟");
    let mut row = knob_row(
        "lease_clock",
        label,
        clock.name(),
        LeaseClock::ALL
            .iter()
            .map(|c| {
                let cost = cost_words(crate::lease_clock_cost(*c), lang);
                choice(
                    c.name(),
                    format!("{} ({cost})", crate::clock_words(*c, lang)),
                )
            })
            .collect(),
    );
    if let Some(field) = row.fields.first_mut() {
        field.value_label = crate::clock_words(clock, lang).to_owned();
        field.note = Some(cost_words(crate::lease_clock_cost(clock), lang));
    }
    row.detail = Some(crate::lease_clock_cost_words(clock, lang).to_owned());
    row
}

/// The claim procedure's row: each the world can run, as its SQL with its
/// cost, and what the chosen one costs in reality.
fn claim_row(offered: &[ClaimProcedure], claim: ClaimProcedure, lang: Lang) -> EditorRow {
    let label = lang.pick("claim", "领取方式");
    let mut row = knob_row(
        "claim",
        label,
        claim.name(),
        offered
            .iter()
            .map(|c| {
                let cost = cost_words(crate::claim_cost(*c), lang);
                choice(
                    c.name(),
                    format!("{} ({cost})", crate::claim_words(*c, lang)),
                )
            })
            .collect(),
    );
    if let Some(field) = row.fields.first_mut() {
        field.value_label = crate::claim_words(claim, lang).to_owned();
        field.note = Some(cost_words(crate::claim_cost(claim), lang));
    }
    row.detail = Some(crate::claim_cost_words(claim, lang).to_owned());
    row
}

/// A target's protection: only what its real resource offers, each with
/// its cost.
fn target_row(
    exercise: &DesignExercise<'_>,
    ids: &[String],
    targets: &[Protect],
    index: usize,
    lang: Lang,
) -> EditorRow {
    let kind = resource(exercise, index);
    let id = ids.get(index).cloned().unwrap_or_default();
    let label = match kind {
        ResourceKind::Generic => format!("{} {id}", lang.pick("target", "目标")),
        kind => format!("{id} {}", kind.title(lang)),
    };
    let protect = targets.get(index).copied().unwrap_or(Protect::None);
    let offers = kind.offers(exercise.fronts);
    let mut field = choice_field(
        "protect",
        label.clone(),
        protect.name(),
        offers
            .iter()
            .map(|o| {
                choice(
                    o.protect.name(),
                    format!(
                        "{} ({})",
                        crate::protect_words(o.protect, lang),
                        cost_words(o.cost, lang)
                    ),
                )
            })
            .collect(),
        Input::Choice,
    );
    field.value_label = crate::protect_words(protect, lang).to_owned();
    let offer = kind.offer(protect, exercise.fronts);
    field.note = offer.map(|o| cost_words(o.cost, lang));
    EditorRow {
        label,
        fields: vec![field],
        detail: offer.map(|o| {
            let sep = crate::words::shared::LABEL_SEP.get(lang);
            format!("{}{sep}{}", kind.title(lang), o.cost_words(lang))
        }),
        about: Some(kind.about(lang).to_owned()),
    }
}

/// `edit` applied to a design answer.
pub(crate) fn edit_design(
    exercise: &DesignExercise<'_>,
    answer: &DesignAnswer,
    edit: &Edit,
) -> Result<DesignAnswer, EditRefused> {
    let mut answer = design_making(exercise, answer);
    let (row, field, wanted) = match edit {
        Edit::Set { row, field, value } => (*row, *field, Wanted::Value(value.as_str())),
        Edit::Cycle {
            row,
            field,
            forward,
        } => (*row, *field, Wanted::Step(*forward)),
        _ => return Err(EditRefused::NoSuchPlace),
    };
    let (_, targets) = exercise.chosen(&answer);
    let knob = knob_rows(exercise, targets.len())
        .get(row as usize)
        .copied()
        .ok_or(EditRefused::NoSuchPlace)?;
    if field != 0 {
        return Err(EditRefused::NoSuchPlace);
    }
    let toggled = |on: bool| match wanted {
        Wanted::Step(_) => Ok(!on),
        Wanted::Value("true") => Ok(true),
        Wanted::Value("false") => Ok(false),
        Wanted::Value(_) => Err(EditRefused::NotAllowed),
    };
    let set_check = |set: Option<CheckSet>, check: Check| -> Result<CheckSet, EditRefused> {
        let set = set.unwrap_or_default();
        let on = toggled(set.contains(check))?;
        Ok(Check::ALL
            .into_iter()
            .filter(|c| if *c == check { on } else { set.contains(*c) })
            .collect())
    };
    match knob {
        KnobRow::Commit(check) => {
            answer.commit_checks = Some(set_check(answer.commit_checks, check)?);
        }
        KnobRow::Renew(check) => answer.renew_checks = Some(set_check(answer.renew_checks, check)?),
        KnobRow::Token => {
            let now = answer.token.unwrap_or(exercise.start.token);
            answer.token = Some(pick(&TokenKind::ALL, now, wanted, |t| t.name())?);
        }
        KnobRow::Clock => {
            let now = answer.lease_clock.unwrap_or(exercise.start.lease_clock);
            answer.lease_clock = Some(pick(&LeaseClock::ALL, now, wanted, |c| c.name())?);
        }
        KnobRow::Claim => {
            let now = answer.claim.unwrap_or(exercise.start.claim);
            let offered = exercise.claims_offered();
            answer.claim = Some(pick(&offered, now, wanted, |c| c.name())?);
        }
        KnobRow::CancelEpoch => {
            let now = answer.cancel_epoch.unwrap_or(exercise.start.cancel_epoch);
            answer.cancel_epoch = Some(toggled(now)?);
        }
        KnobRow::InputRevision => {
            let now = answer
                .input_revision
                .unwrap_or(exercise.start.input_revision);
            answer.input_revision = Some(toggled(now)?);
        }
        KnobRow::Target(index) => {
            let offered: Vec<Protect> = resource(exercise, index)
                .offers(exercise.fronts)
                .into_iter()
                .map(|o| o.protect)
                .collect();
            let mut chosen = targets;
            let now = chosen.get(index).copied().ok_or(EditRefused::NoSuchPlace)?;
            let next = pick(&offered, now, wanted, |p| p.name())?;
            if let Some(slot) = chosen.get_mut(index) {
                *slot = next;
            }
            answer.target_protect = Some(chosen);
        }
        KnobRow::Reconcile(index) => {
            let target = u8::try_from(index).map_err(|_| EditRefused::NoSuchPlace)?;
            let on = toggled(answer.reconcile.contains(&target))?;
            answer.reconcile.retain(|t| *t != target);
            if on {
                answer.reconcile.push(target);
                answer.reconcile.sort_unstable();
            }
        }
    }
    Ok(answer)
}

/// What an edit asks of a field: a value by name, or the next one.
#[derive(Debug, Clone, Copy)]
enum Wanted<'a> {
    Value(&'a str),
    Step(bool),
}

/// The choice `wanted` asks for among `choices`, from `now`: the named one,
/// or the next (previous) one, wrapping; the first when `now` is not among
/// them.
fn pick<T: PartialEq + Copy, N: AsRef<str>>(
    choices: &[T],
    now: T,
    wanted: Wanted<'_>,
    name: impl Fn(T) -> N,
) -> Result<T, EditRefused> {
    match wanted {
        Wanted::Value(value) => choices
            .iter()
            .copied()
            .find(|c| name(*c).as_ref() == value)
            .ok_or(EditRefused::NotAllowed),
        // One choice: nothing to cycle to.
        Wanted::Step(_) if choices.len() < 2 => Err(EditRefused::NotAllowed),
        Wanted::Step(forward) => {
            let count = choices.len();
            let next = match choices.iter().position(|c| *c == now) {
                Some(at) if forward => (at + 1) % count.max(1),
                Some(at) => (at + count - 1) % count.max(1),
                None => 0,
            };
            choices.get(next).copied().ok_or(EditRefused::NotAllowed)
        }
    }
}

// ---- the schedule -------------------------------------------------------

/// A step's fields, in the order of their columns; `request` only in a
/// world where requests travel ([`requests_travel`]).
const STEP_FIELDS: [&str; 8] = [
    "at", "worker", "do", "target", "job", "op", "value", "request",
];

/// What a worker may always do: the lease, the job row, the remote write,
/// a check, a pause, a crash, and the user's cancel.
const WORKER_ACTIONS: [Action; 10] = [
    Action::Claim,
    Action::Renew,
    Action::Write,
    Action::Finish,
    Action::Fail,
    Action::Check,
    Action::Pause,
    Action::Resume,
    Action::Crash,
    Action::Cancel,
];

/// A claim built of statements in a transaction, and the transaction's
/// own statements.
const TRANSACTION_ACTIONS: [Action; 9] = [
    Action::Begin,
    Action::Select,
    Action::SelectForUpdate,
    Action::SelectSkipLocked,
    Action::SelectNowait,
    Action::UpdateClaim,
    Action::ClaimNext,
    Action::Commit,
    Action::Rollback,
];

/// Whether writes travel in `shell`'s world (a `write` with a request is
/// sent, a later `deliver` makes it arrive): its steps send or deliver a
/// request, or a target sits behind a sending gateway, whose check at the
/// send says something only when the request then travels.
pub(crate) fn requests_travel(shell: &Scenario) -> bool {
    shell.steps.iter().any(|s| s.request.is_some())
        || shell
            .targets
            .iter()
            .any(|t| t.protect == Protect::SendingGateway)
}

/// Whether `shell`'s world claims through a transaction: its design's
/// claim is not one atomic statement, or its steps use a transaction's.
fn claims_in_transactions(shell: &Scenario) -> bool {
    shell.design.claim != ClaimProcedure::Atomic
        || shell
            .steps
            .iter()
            .any(|s| TRANSACTION_ACTIONS.contains(&s.action))
}

/// The actions a schedule in `shell`'s world may use, and no other: a
/// worker's always; the user's `revise` where the input may change (the
/// design revises it, or the world's steps do); `register` where a target
/// checks registered tokens; `deliver` where requests travel; the
/// transaction's statements where the world claims through one.
pub fn schedule_actions(shell: &Scenario) -> Vec<Action> {
    let mut actions = WORKER_ACTIONS.to_vec();
    if shell.design.input_revision || shell.steps.iter().any(|s| s.action == Action::Revise) {
        actions.push(Action::Revise);
    }
    if shell
        .targets
        .iter()
        .any(|t| t.protect == Protect::RegisteredToken)
    {
        actions.push(Action::Register);
    }
    if requests_travel(shell) {
        actions.push(Action::Deliver);
    }
    if claims_in_transactions(shell) {
        actions.extend(TRANSACTION_ACTIONS);
    }
    actions
}

/// The actions step `at` may take: the world's, `deliver` only while a
/// write before it sent a request it may deliver (or it is one already).
fn step_actions(shell: &Scenario, schedule: &Schedule, at: usize) -> Vec<Action> {
    let delivers = schedule
        .steps
        .get(at)
        .is_some_and(|s| s.action == Action::Deliver)
        || !deliverable(schedule, at).is_empty();
    let mut actions = schedule_actions(shell);
    actions.retain(|a| *a != Action::Deliver || delivers);
    actions
}

/// The requests a `deliver` at step `at` may deliver, with the writes that
/// sent them: sent before it, and delivered by no other step.
fn deliverable(schedule: &Schedule, at: usize) -> Vec<(u32, &Step)> {
    let steps = &schedule.steps;
    let delivered_elsewhere = |request: u32| {
        steps
            .iter()
            .enumerate()
            .any(|(i, s)| i != at && s.action == Action::Deliver && s.request == Some(request))
    };
    steps
        .iter()
        .take(at)
        .filter(|s| s.action == Action::Write)
        .filter_map(|s| s.request.map(|r| (r, s)))
        .filter(|(r, _)| !delivered_elsewhere(*r))
        .collect()
}

/// Whether a write other than step `except` sends request `name`.
fn sender_named(schedule: &Schedule, name: &str, except: usize) -> bool {
    schedule.steps.iter().enumerate().any(|(i, s)| {
        i != except
            && s.action == Action::Write
            && s.request
                .and_then(|r| schedule.requests.get(r as usize))
                .is_some_and(|n| n == name)
    })
}

/// A request id for a new send by step `at`: its worker's name and the
/// first number no other write sends under.
fn fresh_request(shell: &Scenario, schedule: &Schedule, at: usize) -> String {
    let worker = schedule
        .steps
        .get(at)
        .and_then(|s| s.worker)
        .map_or("r", |w| shell.worker_id(w));
    (1..)
        .map(|n| format!("{worker}-{n}"))
        .find(|name| !sender_named(schedule, name, at))
        .unwrap_or_default()
}

/// A request in words: its id, who sent it where, and when.
fn request_words(shell: &Scenario, schedule: &Schedule, request: u32, write: &Step) -> String {
    let name = schedule
        .requests
        .get(request as usize)
        .map_or("?", String::as_str);
    let worker = write.worker.map_or("?", |w| shell.worker_id(w));
    let target = write.target.map_or("?", |t| shell.target_id(t));
    format!("{name} ({worker} → {target}, t{})", write.at)
}

/// A step's field names in words.
fn step_field_label(name: &str, lang: Lang) -> String {
    match name {
        "at" => "tick",
        "worker" => lang.pick("worker", "Worker"),
        "do" => lang.pick("action", "动作"),
        "target" => lang.pick("target", "目标"),
        "job" => lang.pick("job", "任务"),
        "op" => "op",
        "request" => lang.pick("request", "请求"),
        _ => lang.pick("value", "值"),
    }
    .to_owned()
}

/// The workers a step of `action` may name (`None`: no worker, the user's;
/// a `deliver` is the network's, never a worker's).
fn worker_choices(shell: &Scenario, action: Action) -> Vec<Option<u16>> {
    let mut choices: Vec<Option<u16>> = Vec::new();
    if !action.needs_worker() {
        choices.push(None);
    }
    if action == Action::Deliver {
        return choices;
    }
    choices.extend((0..shell.workers.len()).filter_map(|w| u16::try_from(w).ok().map(Some)));
    choices
}

/// The targets a step of `action` may name: a `register` only those that
/// check registered tokens; a `deliver` none (its write named it).
fn target_choices(shell: &Scenario, action: Action) -> Vec<Option<u16>> {
    let mut choices: Vec<Option<u16>> = Vec::new();
    if !action.needs_target() {
        choices.push(None);
    }
    if action == Action::Deliver {
        return choices;
    }
    choices.extend(
        shell
            .targets
            .iter()
            .enumerate()
            .filter(|(_, t)| action != Action::Register || t.protect == Protect::RegisteredToken)
            .filter_map(|(t, _)| u16::try_from(t).ok().map(Some)),
    );
    choices
}

/// The jobs a step of `action` may name: a `deliver` none (its write's).
fn job_choices(shell: &Scenario, action: Action) -> Vec<Option<u16>> {
    let jobs = if action == Action::Deliver {
        0
    } else {
        shell.jobs.len()
    };
    std::iter::once(None)
        .chain((0..jobs).filter_map(|j| u16::try_from(j).ok().map(Some)))
        .collect()
}

/// `(value, label)` of an optional index among `names`: `""` and `—` for none.
fn named_choices(choices: &[Option<u16>], name: impl Fn(u16) -> String) -> Vec<Choice> {
    choices
        .iter()
        .map(|c| match c {
            Some(i) => choice(name(*i), name(*i)),
            None => choice("", "—"),
        })
        .collect()
}

fn index_value(index: Option<u16>, name: impl Fn(u16) -> String) -> String {
    index.map_or_else(String::new, name)
}

/// The names a write's op (or value) may take from the menu: none, then the
/// ones the schedule already uses.
fn name_field(
    field: &'static str,
    label: String,
    names: &[String],
    now: Option<&str>,
    write: bool,
) -> EditorField {
    let mut choices = vec![choice("", "—")];
    if write {
        choices.extend(names.iter().map(|n| choice(n.clone(), n.clone())));
    }
    let mut built = choice_field(field, label, now.unwrap_or(""), choices, Input::Name);
    // Only a write carries an op or a value; there any name may be typed.
    built.cyclable = write;
    built
}

fn op_name(schedule: &Schedule, step: &Step) -> Option<String> {
    match step.op {
        OpRef::Named(i) => schedule.ops.get(i as usize).cloned(),
        OpRef::JobTarget => None,
    }
}

fn value_name(schedule: &Schedule, step: &Step) -> Option<String> {
    match step.value {
        ValueRef::Named(i) => schedule.values.get(i as usize).cloned(),
        ValueRef::WorkerId => None,
    }
}

/// A step's row: its tick, worker, action, target, job, op and value.
fn step_row(shell: &Scenario, schedule: &Schedule, index: usize, lang: Lang) -> EditorRow {
    let step = &schedule.steps[index.min(schedule.steps.len().saturating_sub(1))];
    let worker_id = |w: u16| shell.worker_id(w).to_owned();
    let target_id = |t: u16| shell.target_id(t).to_owned();
    let job_id = |j: u16| shell.job_id(j).to_owned();
    let write = step.action == Action::Write;
    let label = |name: &str| step_field_label(name, lang);
    let tick = EditorField {
        name: "at",
        label: label("at"),
        input: Input::Number {
            min: 0,
            max: MAX_TIME as u64,
        },
        value: step.at.to_string(),
        value_label: format!("t{}", step.at),
        note: None,
        choices: Vec::new(),
        cyclable: true,
    };
    let mut worker = choice_field(
        "worker",
        label("worker"),
        &index_value(step.worker, worker_id),
        named_choices(&worker_choices(shell, step.action), worker_id),
        Input::Choice,
    );
    if step.worker.is_none() {
        worker.value_label = if step.action == Action::Deliver {
            lang.pick("network", "网络")
        } else {
            "user"
        }
        .to_owned();
    }
    let actions = step_actions(shell, schedule, index);
    let action = choice_field(
        "do",
        label("do"),
        step.action.name(),
        actions.iter().map(|a| choice(a.name(), a.name())).collect(),
        Input::Choice,
    );
    let mut target = choice_field(
        "target",
        label("target"),
        &index_value(step.target, target_id),
        named_choices(&target_choices(shell, step.action), target_id),
        Input::Choice,
    );
    if let Some(t) = step.target {
        target.value_label = format!("→ {}", shell.target_id(t));
    }
    let job = choice_field(
        "job",
        label("job"),
        &index_value(step.job, job_id),
        named_choices(&job_choices(shell, step.action), job_id),
        Input::Choice,
    );
    let op = name_field(
        "op",
        label("op"),
        &schedule.ops,
        op_name(schedule, step).as_deref(),
        write,
    );
    let value = name_field(
        "value",
        label("value"),
        &schedule.values,
        value_name(schedule, step).as_deref(),
        write,
    );
    let mut fields = vec![tick, worker, action, target, job, op, value];
    if requests_travel(shell) {
        fields.push(request_field(shell, schedule, index, label("request")));
    }
    EditorRow {
        label: crate::course::screen::step_label(index as u32, lang),
        fields,
        detail: None,
        about: None,
    }
}

/// Step `index`'s request: a write's is a name typed freely (none: the
/// write takes effect at once; cycled, a new id), a `deliver`'s one of the
/// requests the writes before it sent, any other step's none.
fn request_field(
    shell: &Scenario,
    schedule: &Schedule,
    index: usize,
    label: String,
) -> EditorField {
    let Some(step) = schedule.steps.get(index) else {
        return name_field("request", label, &[], None, false);
    };
    let now = step
        .request
        .and_then(|r| schedule.requests.get(r as usize))
        .cloned();
    match step.action {
        Action::Write => {
            let offered = now
                .clone()
                .unwrap_or_else(|| fresh_request(shell, schedule, index));
            name_field("request", label, &[offered], now.as_deref(), true)
        }
        Action::Deliver => {
            let choices = deliverable(schedule, index)
                .into_iter()
                .map(|(request, write)| {
                    let name = schedule
                        .requests
                        .get(request as usize)
                        .cloned()
                        .unwrap_or_default();
                    choice(name, request_words(shell, schedule, request, write))
                })
                .collect();
            choice_field(
                "request",
                label,
                now.as_deref().unwrap_or(""),
                choices,
                Input::Choice,
            )
        }
        _ => name_field("request", label, &[], None, false),
    }
}

/// The schedule's world in words: its workers, targets and jobs, and the
/// violation asked for.
fn schedule_world(shell: &Scenario, violation: Option<ViolationKind>, lang: Lang) -> String {
    let join = |names: Vec<&str>| {
        if names.is_empty() {
            "—".to_owned()
        } else {
            names.join(lang.pick(", ", "、"))
        }
    };
    let sep = crate::words::shared::LABEL_SEP.get(lang);
    let mut parts = vec![
        format!(
            "{}{sep}{}",
            step_field_label("worker", lang),
            join(shell.workers.iter().map(|w| w.id.as_str()).collect())
        ),
        format!(
            "{}{sep}{}",
            step_field_label("target", lang),
            join(shell.targets.iter().map(|t| t.id.as_str()).collect())
        ),
        format!(
            "{}{sep}{}",
            step_field_label("job", lang),
            join(shell.jobs.iter().map(String::as_str).collect())
        ),
    ];
    if requests_travel(shell) {
        parts.push(
            lang.pick(
                "requests travel: a write with a request is sent, its deliver makes it arrive",
                "请求会在路上：带 request 的 write 发出请求，对应的 deliver 让它到达",
            )
            .to_owned(),
        );
    }
    if let Some(kind) = violation {
        parts.push(format!(
            "{}{}",
            lang.pick("wanted: ", "要求："),
            crate::violation_words(kind, lang)
        ));
    }
    parts.join(" · ")
}

/// The schedule editor over `schedule` in `shell`'s world.
pub(crate) fn schedule_editor(
    shell: &Scenario,
    violation: Option<ViolationKind>,
    schedule: &Schedule,
    focus: Option<u32>,
    lang: Lang,
) -> Editor {
    let problem = schedule_scenario(shell, schedule)
        .err()
        .map(|why| match why {
            crate::course::CourseError::Schedule(reason) => reason.message(lang),
            other => other.message(lang),
        });
    Editor {
        kind: EditorKind::Schedule,
        world: schedule_world(shell, violation, lang),
        rows: (0..schedule.steps.len())
            .map(|index| step_row(shell, schedule, index, lang))
            .collect(),
        problem,
        can_add: schedule.steps.len() < MAX_ANSWER_STEPS,
        focus,
    }
}

/// Moves step `at`, after its tick changed, to where its tick puts it (as
/// little as needed), so the schedule stays in tick order; where it went.
fn keep_in_tick_order(steps: &mut [Step], mut at: usize) -> usize {
    let Some(tick) = steps.get(at).map(|s| s.at) else {
        return at;
    };
    while at > 0 && steps[at - 1].at > tick {
        steps.swap(at - 1, at);
        at -= 1;
    }
    while at + 1 < steps.len() && steps[at + 1].at < tick {
        steps.swap(at, at + 1);
        at += 1;
    }
    at
}

/// A copied step at `at` is a request's send or delivery of its own: a
/// copied write sends nothing (each request is sent once), a copied
/// `deliver` delivers another request sent before it, where there is one.
fn resend_copy(schedule: &mut Schedule, at: usize) {
    let next = deliverable(schedule, at).first().map(|(r, _)| *r);
    if let Some(step) = schedule.steps.get_mut(at) {
        match step.action {
            Action::Write => step.request = None,
            Action::Deliver if next.is_some() => step.request = next,
            _ => {}
        }
    }
}

/// `edit` applied to a schedule in `shell`'s world, and the row its step
/// is on after it.
pub(crate) fn edit_schedule(
    shell: &Scenario,
    schedule: &Schedule,
    edit: &Edit,
) -> Result<(Schedule, Option<u32>), EditRefused> {
    let mut schedule = schedule.clone();
    let steps = &mut schedule.steps;
    let row = |row: u32| -> Result<usize, EditRefused> {
        let index = row as usize;
        (index < steps.len())
            .then_some(index)
            .ok_or(EditRefused::NoSuchPlace)
    };
    let focus = match edit {
        Edit::AddStep { after } => {
            if steps.len() >= MAX_ANSWER_STEPS {
                return Err(EditRefused::Full);
            }
            let after = match after {
                Some(after) => Some(row(*after)?),
                None => steps.len().checked_sub(1),
            };
            let step = match after.and_then(|a| steps.get(a)) {
                Some(current) => Step {
                    at: current.at.saturating_add(1).min(MAX_TIME as u64),
                    note: None,
                    ..current.clone()
                },
                None => Step::new(0, (!shell.workers.is_empty()).then_some(0), Action::Claim),
            };
            let at = after.map_or(0, |a| a + 1);
            steps.insert(at, step);
            let at = keep_in_tick_order(steps, at);
            resend_copy(&mut schedule, at);
            at
        }
        Edit::RemoveStep { row: r } => {
            let at = row(*r)?;
            steps.remove(at);
            at.min(steps.len().saturating_sub(1))
        }
        Edit::MoveStep { row: r, later } => {
            let from = row(*r)?;
            let to = if *later {
                from + 1
            } else {
                from.wrapping_sub(1)
            };
            if to >= steps.len() {
                return Err(EditRefused::NoSuchPlace);
            }
            // Moving past a step of another tick takes that tick, so the
            // schedule stays in time order.
            let neighbour_at = steps[to].at;
            steps.swap(from, to);
            steps[to].at = neighbour_at;
            to
        }
        Edit::Set {
            row: r,
            field,
            value,
        } => {
            let at = row(*r)?;
            set_step_field(shell, &mut schedule, at, *field, Wanted::Value(value))?
        }
        Edit::Cycle {
            row: r,
            field,
            forward,
        } => {
            let at = row(*r)?;
            set_step_field(shell, &mut schedule, at, *field, Wanted::Step(*forward))?
        }
        Edit::Choose { .. } => return Err(EditRefused::NoSuchPlace),
    };
    Ok((schedule, u32::try_from(focus).ok()))
}

/// The field `field` of step `at` as `wanted` asks; the step's row after it.
/// Long because it is one arm per field of a step, each with the rule that
/// field keeps (a tick keeps the schedule in order, an action keeps the
/// worker and drops what it no longer takes, …): split, the rules of one
/// step would be read in several places.
fn set_step_field(
    shell: &Scenario,
    schedule: &mut Schedule,
    at: usize,
    field: u32,
    wanted: Wanted<'_>,
) -> Result<usize, EditRefused> {
    let name = STEP_FIELDS
        .get(field as usize)
        .copied()
        .ok_or(EditRefused::NoSuchPlace)?;
    if name == "request" {
        if !requests_travel(shell) {
            return Err(EditRefused::NoSuchPlace);
        }
        set_request(shell, schedule, at, wanted)?;
        return Ok(at);
    }
    let actions = step_actions(shell, schedule, at);
    let deliver = deliverable(schedule, at).first().map(|(r, _)| *r);
    let workers: Vec<&str> = shell.workers.iter().map(|w| w.id.as_str()).collect();
    let targets: Vec<&str> = shell.targets.iter().map(|t| t.id.as_str()).collect();
    let jobs: Vec<&str> = shell.jobs.iter().map(String::as_str).collect();
    let Schedule {
        steps, ops, values, ..
    } = schedule;
    let step = steps.get_mut(at).ok_or(EditRefused::NoSuchPlace)?;
    let by_index = |choices: &[Option<u16>],
                    now: Option<u16>,
                    ids: &[&str]|
     -> Result<Option<u16>, EditRefused> {
        match wanted {
            Wanted::Value(value) => choices
                .iter()
                .copied()
                .find(|c| c.map_or("", |i| ids.get(usize::from(i)).copied().unwrap_or("")) == value)
                .ok_or(EditRefused::NotAllowed),
            Wanted::Step(_) if choices.len() < 2 && choices.contains(&now) => {
                Err(EditRefused::NotAllowed)
            }
            Wanted::Step(forward) => {
                let count = choices.len();
                let next = match choices.iter().position(|c| *c == now) {
                    Some(p) if forward => (p + 1) % count.max(1),
                    Some(p) => (p + count - 1) % count.max(1),
                    None => 0,
                };
                choices.get(next).copied().ok_or(EditRefused::NotAllowed)
            }
        }
    };
    match name {
        "at" => {
            step.at = match wanted {
                Wanted::Value(value) => value
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|t| *t <= MAX_TIME as u64)
                    .ok_or(EditRefused::NotAllowed)?,
                Wanted::Step(true) => step.at.saturating_add(1).min(MAX_TIME as u64),
                Wanted::Step(false) => step.at.saturating_sub(1),
            };
            return Ok(keep_in_tick_order(steps, at));
        }
        "worker" => {
            let choices = worker_choices(shell, step.action);
            step.worker = by_index(&choices, step.worker, &workers)?;
        }
        "do" => {
            let action = pick(&actions, step.action, wanted, Action::name)?;
            retarget(shell, step, action, deliver);
        }
        "target" => {
            let choices = target_choices(shell, step.action);
            step.target = by_index(&choices, step.target, &targets)?;
        }
        "job" => {
            let choices = job_choices(shell, step.action);
            step.job = by_index(&choices, step.job, &jobs)?;
        }
        _ => {
            if step.action != Action::Write {
                return Err(EditRefused::NotAllowed);
            }
            let is_op = name == "op";
            let names: &mut Vec<String> = if is_op { ops } else { values };
            let now = if is_op {
                match step.op {
                    OpRef::Named(i) => names.get(i as usize).cloned(),
                    OpRef::JobTarget => None,
                }
            } else {
                match step.value {
                    ValueRef::Named(i) => names.get(i as usize).cloned(),
                    ValueRef::WorkerId => None,
                }
            };
            let mut choices: Vec<Option<String>> = vec![None];
            choices.extend(names.iter().cloned().map(Some));
            let next = match wanted {
                Wanted::Value("") => None,
                Wanted::Value(value) if value.len() <= 64 => Some(value.to_owned()),
                Wanted::Value(_) => return Err(EditRefused::NotAllowed),
                Wanted::Step(forward) => {
                    let count = choices.len();
                    let next = match choices.iter().position(|c| *c == now) {
                        Some(p) if forward => (p + 1) % count,
                        Some(p) => (p + count - 1) % count,
                        None => 0,
                    };
                    choices.get(next).cloned().flatten()
                }
            };
            let index = next.map(|name| intern_name(names, name));
            if is_op {
                step.op = index.map_or(OpRef::JobTarget, OpRef::Named);
            } else {
                step.value = index.map_or(ValueRef::WorkerId, ValueRef::Named);
            }
        }
    }
    Ok(at)
}

/// Step `at`'s request set as `wanted`: a write's any name no other write
/// sends (cycled: none, or a new one), and the deliveries of its old
/// request follow it; a `deliver`'s one of the requests it may deliver.
fn set_request(
    shell: &Scenario,
    schedule: &mut Schedule,
    at: usize,
    wanted: Wanted<'_>,
) -> Result<(), EditRefused> {
    let step = schedule.steps.get(at).ok_or(EditRefused::NoSuchPlace)?;
    let now = step.request;
    match step.action {
        Action::Write => {
            let next = match wanted {
                Wanted::Value("") => None,
                Wanted::Value(name)
                    if name.len() <= 64
                        && !name.trim().is_empty()
                        && !name.contains(char::is_control) =>
                {
                    Some(name.to_owned())
                }
                Wanted::Value(_) => return Err(EditRefused::NotAllowed),
                Wanted::Step(_) if now.is_some() => None,
                Wanted::Step(_) => Some(fresh_request(shell, schedule, at)),
            };
            if next
                .as_deref()
                .is_some_and(|name| sender_named(schedule, name, at))
            {
                return Err(EditRefused::NotAllowed);
            }
            let next = next.map(|name| intern_name(&mut schedule.requests, name));
            for (index, step) in schedule.steps.iter_mut().enumerate() {
                if index == at {
                    step.request = next;
                } else if step.action == Action::Deliver && now.is_some() && step.request == now {
                    // A delivery follows its write to the new id; with no
                    // id left, it keeps the old one, which no write sends.
                    step.request = next.or(now);
                }
            }
        }
        Action::Deliver => {
            let offered: Vec<u32> = deliverable(schedule, at)
                .into_iter()
                .map(|(r, _)| r)
                .collect();
            let names = &schedule.requests;
            let name = |r: u32| names.get(r as usize).map_or("", String::as_str);
            let next = pick(&offered, now.unwrap_or(u32::MAX), wanted, name)?;
            if let Some(step) = schedule.steps.get_mut(at) {
                step.request = Some(next);
            }
        }
        _ => return Err(EditRefused::NotAllowed),
    }
    Ok(())
}

/// The index of `name` among `names`, added if new.
fn intern_name(names: &mut Vec<String>, name: String) -> u32 {
    let index = match names.iter().position(|n| *n == name) {
        Some(i) => i,
        None => {
            names.push(name);
            names.len() - 1
        }
    };
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// `step` given `action`, kept well formed for it: its worker stays (a
/// step that needs one and has none gets the first), a write or register
/// gets a target it may name, any other action none; only a write keeps an
/// op and a value, and a request only while it stays a write. A `deliver`
/// is the network's: no worker, target or job, and the request `deliver`.
fn retarget(shell: &Scenario, step: &mut Step, action: Action, deliver: Option<u32>) {
    let was = step.action;
    step.action = action;
    if action != Action::Write || was != Action::Write {
        step.request = None;
    }
    if action == Action::Deliver {
        step.worker = None;
        step.job = None;
        step.request = deliver;
    }
    if step.worker.is_none() && action.needs_worker() {
        step.worker = worker_choices(shell, action).first().copied().flatten();
    }
    let targets = target_choices(shell, action);
    if !action.needs_target() {
        step.target = None;
    } else if !targets.contains(&step.target) {
        step.target = targets.first().copied().flatten();
    }
    if action != Action::Write {
        step.op = OpRef::JobTarget;
        step.value = ValueRef::WorkerId;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::{Act, CourseError, CourseSession, ExerciseScreen};

    const LESSON: &str = "03-check-at-the-resource";
    const BREAK: &str = "break-highest-seen";
    const DESIGN: &str = "design-protect-the-targets";

    fn lessons() -> Result<CourseSession, CourseError> {
        CourseSession::from_sources(&[
            (
                "02-token-in-the-commit",
                include_str!("../../../lessons/02-token-in-the-commit.toml"),
            ),
            (
                LESSON,
                include_str!("../../../lessons/03-check-at-the-resource.toml"),
            ),
        ])
    }

    fn edit(
        course: &mut CourseSession,
        lesson: &str,
        id: &str,
        edit: Edit,
    ) -> Result<ExerciseScreen, CourseError> {
        course.act(lesson, id, &Act::Edit { edit }, Lang::En)
    }

    /// Step `row`'s field `name` of the break exercise set to `value`.
    fn set_step(
        course: &mut CourseSession,
        row: u32,
        name: &str,
        value: &str,
    ) -> Result<ExerciseScreen, CourseError> {
        let field = at(name);
        let value = value.to_owned();
        edit(course, LESSON, BREAK, Edit::Set { row, field, value })
    }

    fn rows(screen: &ExerciseScreen) -> &[EditorRow] {
        screen.editor.as_ref().map_or(&[], |e| e.rows.as_slice())
    }

    fn field<'a>(screen: &'a ExerciseScreen, row: usize, name: &str) -> Option<&'a EditorField> {
        rows(screen)
            .get(row)?
            .fields
            .iter()
            .find(|f| f.name == name)
    }

    fn value(screen: &ExerciseScreen, row: usize, name: &str) -> String {
        field(screen, row, name)
            .map(|f| f.value.clone())
            .unwrap_or_default()
    }

    fn ticks(screen: &ExerciseScreen) -> Vec<String> {
        (0..rows(screen).len())
            .map(|r| value(screen, r, "at"))
            .collect()
    }

    /// The index of a step's field.
    fn at(name: &str) -> u32 {
        STEP_FIELDS.iter().position(|f| *f == name).unwrap_or(99) as u32
    }

    #[test]
    fn a_schedule_starts_from_its_scenario_and_offers_only_its_world() -> Result<(), CourseError> {
        let mut course = lessons()?;
        let screen = course.act(LESSON, BREAK, &Act::Open, Lang::En)?;
        let editor = screen.editor.as_ref().ok_or(CourseError::MissingScenario)?;
        assert_eq!(editor.kind, EditorKind::Schedule);
        assert_eq!(ticks(&screen), ["0", "1", "5", "6", "7"]);
        // Nothing kept yet: the screen's answer is what the editor shows.
        assert_eq!(screen.answer.as_array().map(Vec::len), Some(5));
        assert!(editor.world.contains("A, B"), "{}", editor.world);
        let workers: Vec<&str> = field(&screen, 0, "worker")
            .map(|f| f.choices.iter().map(|c| c.value.as_str()).collect())
            .unwrap_or_default();
        assert_eq!(workers, ["A", "B"]);
        // No target checks registered tokens here: no `register`.
        let actions: Vec<&str> = field(&screen, 0, "do")
            .map(|f| f.choices.iter().map(|c| c.value.as_str()).collect())
            .unwrap_or_default();
        assert!(actions.contains(&"claim") && !actions.contains(&"register"));
        // Nothing travels here: no `deliver`, and no request field.
        assert!(!actions.contains(&"deliver"));
        assert!(field(&screen, 0, "request").is_none());
        let request = Edit::Set {
            row: 0,
            field: at("request"),
            value: "r".into(),
        };
        assert!(edit(&mut course, LESSON, BREAK, request).is_err());
        // A claim carries no op: that field has one choice and cannot cycle.
        let op = field(&screen, 0, "op").ok_or(CourseError::MissingScenario)?;
        assert!(!op.cyclable);
        assert!(
            edit(
                &mut course,
                LESSON,
                BREAK,
                Edit::Cycle {
                    row: 0,
                    field: at("op"),
                    forward: true
                }
            )
            .is_err()
        );
        assert_eq!(value(&screen, 1, "value"), "draft by A");
        assert!(editor.problem.is_none());
        Ok(())
    }

    #[test]
    fn changing_the_action_keeps_the_worker() -> Result<(), CourseError> {
        let mut course = lessons()?;
        let mut screen = course.act(LESSON, BREAK, &Act::Open, Lang::En)?;
        let count = field(&screen, 2, "do").map_or(0, |f| f.choices.len());
        // Round the whole list, past `cancel`: B stays B.
        for _ in 0..count {
            screen = edit(
                &mut course,
                LESSON,
                BREAK,
                Edit::Cycle {
                    row: 2,
                    field: at("do"),
                    forward: true,
                },
            )?;
            assert_eq!(value(&screen, 2, "worker"), "B");
        }
        assert_eq!(value(&screen, 2, "do"), "claim");
        // A write gets a target and loses it again as a claim; its op goes.
        screen = set_step(&mut course, 2, "do", "write")?;
        assert_eq!(value(&screen, 2, "target"), "report");
        // A write's op may be typed, though the schedule names none yet.
        assert!(field(&screen, 2, "op").is_some_and(|f| f.cyclable));
        screen = set_step(&mut course, 2, "op", "publish")?;
        assert_eq!(value(&screen, 2, "op"), "publish");
        screen = set_step(&mut course, 2, "do", "claim")?;
        assert_eq!(value(&screen, 2, "target"), "");
        assert_eq!(value(&screen, 2, "op"), "");
        assert_eq!(value(&screen, 2, "worker"), "B");
        Ok(())
    }

    #[test]
    fn ticks_keep_the_steps_in_order() -> Result<(), CourseError> {
        let mut course = lessons()?;
        // Step 1 (t1) typed to t6: it moves past t5 and t6's step.
        let screen = edit(
            &mut course,
            LESSON,
            BREAK,
            Edit::Set {
                row: 1,
                field: 0,
                value: "6".into(),
            },
        )?;
        assert_eq!(ticks(&screen), ["0", "5", "6", "6", "7"]);
        assert_eq!(screen.editor.as_ref().and_then(|e| e.focus), Some(2));
        assert_eq!(value(&screen, 2, "value"), "draft by A");
        // Bounds: no negative tick, none past the limit, no word.
        for refused in ["-1", "x", &(MAX_TIME as u64 + 1).to_string()] {
            assert!(
                edit(
                    &mut course,
                    LESSON,
                    BREAK,
                    Edit::Set {
                        row: 0,
                        field: 0,
                        value: refused.into()
                    }
                )
                .is_err()
            );
        }
        let screen = edit(
            &mut course,
            LESSON,
            BREAK,
            Edit::Cycle {
                row: 0,
                field: 0,
                forward: false,
            },
        )?;
        assert_eq!(ticks(&screen)[0], "0");
        // Moving a step earlier takes the tick of the step it passes.
        let screen = edit(
            &mut course,
            LESSON,
            BREAK,
            Edit::MoveStep {
                row: 4,
                later: false,
            },
        )?;
        assert_eq!(ticks(&screen), ["0", "5", "6", "6", "6"]);
        assert_eq!(value(&screen, 3, "value"), "late draft by A");
        // The session reads what the editor made: the order holds.
        assert!(screen.editor.as_ref().is_some_and(|e| e.problem.is_none()));
        assert!(course.last_answer(LESSON, BREAK).is_some());
        Ok(())
    }

    #[test]
    fn steps_are_added_removed_and_the_empty_schedule_is_kept_in_the_making()
    -> Result<(), CourseError> {
        let mut course = lessons()?;
        let screen = edit(&mut course, LESSON, BREAK, Edit::AddStep { after: Some(0) })?;
        assert_eq!(ticks(&screen), ["0", "1", "1", "5", "6", "7"]);
        assert_eq!(screen.editor.as_ref().and_then(|e| e.focus), Some(1));
        assert_eq!(value(&screen, 1, "do"), "claim");
        let mut screen = screen;
        while !rows(&screen).is_empty() {
            screen = edit(&mut course, LESSON, BREAK, Edit::RemoveStep { row: 0 })?;
        }
        // Empty: not a last answer, but the editor holds it.
        assert!(course.last_answer(LESSON, BREAK).is_some());
        let screen = course.act(LESSON, BREAK, &Act::Open, Lang::En)?;
        assert!(rows(&screen).is_empty());
        let screen = edit(&mut course, LESSON, BREAK, Edit::AddStep { after: None })?;
        assert_eq!(value(&screen, 0, "do"), "claim");
        assert_eq!(value(&screen, 0, "worker"), "A");
        Ok(())
    }

    #[test]
    fn invalid_places_and_values_are_refused_and_change_nothing() -> Result<(), CourseError> {
        let mut course = lessons()?;
        let before = course.act(LESSON, BREAK, &Act::Open, Lang::En)?;
        let refused = [
            Edit::Set {
                row: 99,
                field: 0,
                value: "1".into(),
            },
            Edit::Set {
                row: 0,
                field: 99,
                value: "1".into(),
            },
            Edit::Set {
                row: 0,
                field: at("worker"),
                value: "Z".into(),
            },
            Edit::Set {
                row: 0,
                field: at("do"),
                value: "register".into(),
            },
            Edit::Cycle {
                row: u32::MAX,
                field: u32::MAX,
                forward: true,
            },
            Edit::RemoveStep { row: 5 },
            Edit::MoveStep {
                row: 0,
                later: false,
            },
            Edit::MoveStep {
                row: 4,
                later: true,
            },
            Edit::AddStep { after: Some(7) },
        ];
        for wrong in refused {
            assert!(
                edit(&mut course, LESSON, BREAK, wrong.clone()).is_err(),
                "{wrong:?}"
            );
        }
        assert_eq!(course.screen(LESSON, BREAK, Lang::En)?, before);
        // A design takes no step edits; a quiz has no editor.
        assert!(edit(&mut course, LESSON, DESIGN, Edit::AddStep { after: None }).is_err());
        assert!(
            edit(
                &mut course,
                LESSON,
                DESIGN,
                Edit::Set {
                    row: 0,
                    field: 1,
                    value: "x".into()
                }
            )
            .is_err()
        );
        Ok(())
    }

    #[test]
    fn a_target_offers_only_what_its_resource_supports_with_the_cost() -> Result<(), CourseError> {
        let mut course = lessons()?;
        let screen = course.act(LESSON, DESIGN, &Act::Open, Lang::En)?;
        let editor = screen.editor.as_ref().ok_or(CourseError::MissingScenario)?;
        assert_eq!(editor.kind, EditorKind::Design);
        assert!(
            screen.answer["target_protect"].is_array(),
            "{}",
            screen.answer
        );
        assert!(
            editor.world.starts_with("World: 2 workers, 2 targets"),
            "{}",
            editor.world
        );
        // Two targets' protections, then their reconciliation.
        let names: Vec<&str> = editor.rows.iter().map(|r| r.fields[0].name).collect();
        assert_eq!(names, ["protect", "protect", "reconcile", "reconcile"]);
        let design = DesignExercise::of(&course.exercise(LESSON, DESIGN)?.1.kind)
            .ok_or(CourseError::MissingScenario)?;
        for (index, row) in editor.rows.iter().take(2).enumerate() {
            let offered: Vec<String> = design.resources[index]
                .offers(design.fronts)
                .iter()
                .map(|o| o.protect.name().to_owned())
                .collect();
            let choices: Vec<String> = row.fields[0]
                .choices
                .iter()
                .map(|c| c.value.clone())
                .collect();
            assert_eq!(choices, offered);
            assert!(
                row.fields[0]
                    .note
                    .as_deref()
                    .is_some_and(|n| n.starts_with("cost "))
            );
            assert_eq!(row.fields[0].cyclable, offered.len() > 1);
        }
        let cost = screen.cost;
        let first = editor.rows[0].fields[0].clone();
        let other = first
            .choices
            .iter()
            .find(|c| c.value != first.value)
            .ok_or(CourseError::MissingScenario)?;
        let screen = edit(
            &mut course,
            LESSON,
            DESIGN,
            Edit::Set {
                row: 0,
                field: 0,
                value: other.value.clone(),
            },
        )?;
        assert_eq!(value(&screen, 0, "protect"), other.value);
        assert_ne!(screen.cost, cost);
        // Not on offer: refused.
        assert!(
            edit(
                &mut course,
                LESSON,
                DESIGN,
                Edit::Set {
                    row: 0,
                    field: 0,
                    value: "nonsense".into()
                }
            )
            .is_err()
        );
        // Reconciliation toggles and costs.
        let before = screen.cost.unwrap_or(0);
        let screen = edit(
            &mut course,
            LESSON,
            DESIGN,
            Edit::Cycle {
                row: 3,
                field: 0,
                forward: true,
            },
        )?;
        assert_eq!(value(&screen, 3, "reconcile"), "true");
        assert_eq!(screen.cost, Some(before + RECONCILE_COST));
        Ok(())
    }

    #[test]
    fn checks_toggle_and_a_reopened_design_restores_the_last_answer() -> Result<(), CourseError> {
        let lesson = "02-token-in-the-commit";
        let id = "design-commit-and-renew";
        let mut course = lessons()?;
        let screen = course.act(lesson, id, &Act::Open, Lang::Zh)?;
        // Four predicates per check set, labelled in the learner's language.
        assert_eq!(rows(&screen).len(), 8);
        assert_eq!(rows(&screen)[0].label, "提交检查");
        let was = value(&screen, 0, "check");
        let screen = edit(
            &mut course,
            lesson,
            id,
            Edit::Cycle {
                row: 0,
                field: 0,
                forward: true,
            },
        )?;
        let now = value(&screen, 0, "check");
        assert_ne!(was, now);
        // A new session over the same progress: the editor shows the kept answer.
        let mut again = lessons()?;
        again
            .load_progress(&course.export_progress())
            .map_err(CourseError::Progress)?;
        let screen = again.act(lesson, id, &Act::Open, Lang::En)?;
        assert_eq!(value(&screen, 0, "check"), now);
        // So does a break's schedule.
        edit(&mut course, LESSON, BREAK, Edit::RemoveStep { row: 0 })?;
        let mut again = lessons()?;
        again
            .load_progress(&course.export_progress())
            .map_err(CourseError::Progress)?;
        let screen = again.act(LESSON, BREAK, &Act::Open, Lang::En)?;
        assert_eq!(ticks(&screen), ["1", "5", "6", "7"]);
        Ok(())
    }

    #[test]
    fn a_solution_shows_the_design_key_on_the_editor_rows() -> Result<(), CourseError> {
        let mut course = lessons()?;
        let answer = serde_json::json!({});
        course.act(
            LESSON,
            DESIGN,
            &Act::HandIn {
                answer: Some(answer),
            },
            Lang::En,
        )?;
        let screen = course.act(LESSON, DESIGN, &Act::Solution, Lang::En)?;
        let rows = screen
            .feedback
            .as_ref()
            .and_then(|f| f.key_rows.clone())
            .unwrap_or_default();
        assert_eq!(rows.len(), 4);
        Ok(())
    }

    /// A world where A's refund is sent through a sending gateway and a
    /// payments service checks nothing when it arrives.
    const TRAVEL: &str = r#"
id = "travel"
order = 1
title = { en = "Travel", zh = "在途" }
summary = { en = "Requests travel.", zh = "请求在路上。" }
concepts = ["C09"]

[[sections]]
title = { en = "Travel", zh = "在途" }
concepts = ["C09"]
body = { en = "Body.", zh = "正文。" }

[scenarios.gateway-world]
id = "gateway-world"
title = { en = "A sending gateway", zh = "发送端网关" }
ttl = 5
workers = ["A", "B"]
design = "sending-gateway"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "write", target = "payments" },
]

[[scenarios.gateway-world.targets]]
id = "payments"

[[exercises]]
id = "break-in-flight"
title = { en = "In flight", zh = "在途" }
kind = "break"
concepts = ["C09"]
scenario = "gateway-world"
violation = "stale"
prompt = { en = "Break it.", zh = "攻破它。" }
hints = [{ en = "Send it.", zh = "发出去。" }, { en = "Late.", zh = "晚些。" }]
takeaway = { en = "Done.", zh = "完成。" }
"#;

    /// A scenario in code: A and B, one target protected by `protect`,
    /// claimed by `claim`, with `steps`.
    fn world(protect: &[Protect], claim: ClaimProcedure, steps: Vec<Step>) -> Scenario {
        let mut shell = Scenario::new("w", 5, &["A", "B"]);
        for (index, protect) in protect.iter().enumerate() {
            shell.add_target(&format!("t{index}"), Some(*protect));
        }
        shell.design.claim = claim;
        shell.steps = steps;
        shell
    }

    #[test]
    fn the_actions_offered_are_the_worlds() {
        let atomic = ClaimProcedure::Atomic;
        let plain = schedule_actions(&world(&[Protect::None], atomic, Vec::new()));
        assert_eq!(plain, WORKER_ACTIONS);
        assert!(plain.contains(&Action::Crash));
        // Requests travel where a target sits behind a sending gateway, or
        // where the world's steps send one.
        let gateway = schedule_actions(&world(&[Protect::SendingGateway], atomic, Vec::new()));
        assert!(gateway.contains(&Action::Deliver));
        assert!(!gateway.contains(&Action::Begin));
        let mut sent = Step::new(1, Some(0), Action::Write);
        sent.target = Some(0);
        sent.request = Some(0);
        let sending = schedule_actions(&world(&[Protect::None], atomic, vec![sent]));
        assert!(sending.contains(&Action::Deliver));
        // Transactions where the design claims through one, or the steps
        // use one; not otherwise.
        for claim in ClaimProcedure::ALL.iter().filter(|c| **c != atomic) {
            let actions = schedule_actions(&world(&[Protect::None], *claim, Vec::new()));
            assert!(
                TRANSACTION_ACTIONS.iter().all(|a| actions.contains(a)),
                "{claim:?}"
            );
            assert!(!actions.contains(&Action::Deliver));
        }
        let begun = vec![Step::new(0, Some(0), Action::Begin)];
        let actions = schedule_actions(&world(&[Protect::None], atomic, begun));
        assert!(actions.contains(&Action::ClaimNext));
        // The user revises the input only where the design or the steps do.
        assert!(!plain.contains(&Action::Revise));
        let revised = Step::new(1, None, Action::Revise);
        let revising = schedule_actions(&world(&[Protect::None], atomic, vec![revised]));
        assert!(revising.contains(&Action::Revise));
        // A world with all of it offers every action, each once.
        let mut everything = world(
            &[Protect::RegisteredToken, Protect::SendingGateway],
            ClaimProcedure::SkipLocked,
            Vec::new(),
        );
        everything.design.input_revision = true;
        let all = schedule_actions(&everything);
        assert_eq!(all.len(), Action::ALL.len());
        assert!(Action::ALL.iter().all(|a| all.contains(a)));
    }

    #[test]
    fn a_write_sends_a_request_and_a_deliver_delivers_only_a_sent_one() -> Result<(), CourseError> {
        const ID: &str = "break-in-flight";
        let mut course = CourseSession::from_sources(&[("travel", TRAVEL)])?;
        let mut go = |edit: Edit| course.act("travel", ID, &Act::Edit { edit }, Lang::En);
        let set = |row: u32, name: &str, value: &str| Edit::Set {
            row,
            field: at(name),
            value: value.to_owned(),
        };
        // No request sent yet: a write's request cycles to a new id, and a
        // step cannot become a delivery.
        let screen = go(Edit::AddStep { after: Some(1) })?;
        assert!(go(set(2, "do", "deliver")).is_err());
        let screen_actions = |screen: &ExerciseScreen, row: usize| -> Vec<String> {
            field(screen, row, "do")
                .map(|f| f.choices.iter().map(|c| c.value.clone()).collect())
                .unwrap_or_default()
        };
        assert!(!screen_actions(&screen, 2).contains(&"deliver".to_owned()));
        let screen = go(Edit::Cycle {
            row: 1,
            field: at("request"),
            forward: true,
        })?;
        assert_eq!(value(&screen, 1, "request"), "A-1");
        // Typed, and refused where another write sends it already.
        go(set(1, "request", "a-refund"))?;
        assert!(go(set(2, "request", "a-refund")).is_err());
        // The copied write becomes the delivery of the request sent before it.
        let screen = go(set(2, "do", "deliver"))?;
        assert_eq!(value(&screen, 2, "request"), "a-refund");
        assert_eq!(value(&screen, 2, "worker"), "");
        assert_eq!(
            field(&screen, 2, "worker").map(|f| f.value_label.as_str()),
            Some("network")
        );
        assert_eq!(value(&screen, 2, "target"), "");
        let offered: Vec<(String, String)> = field(&screen, 2, "request")
            .map(|f| {
                f.choices
                    .iter()
                    .map(|c| (c.value.clone(), c.label.clone()))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(
            offered,
            [(
                "a-refund".to_owned(),
                "a-refund (A → payments, t1)".to_owned()
            )]
        );
        // No write sent `nope`, and a claim carries no request: refused.
        assert!(go(set(2, "request", "nope")).is_err());
        assert!(go(set(0, "request", "a-refund")).is_err());
        // B takes over after A's lease; the request arrives after that.
        go(set(2, "at", "9"))?;
        go(Edit::AddStep { after: Some(0) })?;
        go(set(1, "worker", "B"))?;
        let screen = go(set(1, "at", "6"))?;
        assert_eq!(ticks(&screen), ["0", "1", "6", "9"]);
        assert_eq!(screen.answer[1]["request"], "a-refund");
        assert_eq!(screen.answer[3]["request"], "a-refund");
        assert!(screen.editor.as_ref().is_some_and(|e| e.problem.is_none()));
        // Renamed at its write, the request is renamed at its delivery.
        let screen = go(set(1, "request", "refund-42"))?;
        assert_eq!(value(&screen, 3, "request"), "refund-42");
        // Handed in as the editor shows it, and graded by running it: the
        // delivery lands a superseded generation's refund.
        let screen = course.act("travel", ID, &Act::HandIn { answer: None }, Lang::En)?;
        assert_eq!(screen.standing, crate::course::Standing::Solved);
        // The request survives the answer's way through JSON.
        let mut again = CourseSession::from_sources(&[("travel", TRAVEL)])?;
        again
            .load_progress(&course.export_progress())
            .map_err(CourseError::Progress)?;
        let screen = again.act("travel", ID, &Act::Open, Lang::Zh)?;
        assert_eq!(value(&screen, 3, "request"), "refund-42");
        assert_eq!(
            field(&screen, 3, "worker").map(|f| f.value_label.as_str()),
            Some("网络")
        );
        Ok(())
    }
}
