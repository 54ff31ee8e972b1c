//! Steps in words, in English and Chinese: what a step did and why, and
//! whether the oracle says it had to be refused. The timeline's detail
//! pane, the graders and screen readers all read these sentences.

use crate::Lang;
use crate::Protect;
use crate::scenario::{Action, JobIdx, Scenario};
use crate::trace::{JobState, Outcome, Reason, Trace, ViolationKind};

fn who(scenario: &Scenario, index: usize, lang: Lang) -> String {
    match scenario.acting_worker(index) {
        Some(worker) => scenario.worker_id(worker).to_owned(),
        None => lang.pick("the user", "用户").to_owned(),
    }
}

/// A name as it stands between Chinese words: spaced on each side where
/// it is Latin ("而 B 在"), not where it is Chinese ("而用户在").
fn zh_mid(name: &str) -> String {
    zh_after(&zh_name(name))
}

/// A name as it stands after a Chinese word: a space before a Latin name
/// ("到 ledger"), none before a Chinese one ("但任务").
fn zh_after(name: &str) -> String {
    if name.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '`') {
        format!(" {name}")
    } else {
        name.to_owned()
    }
}

/// A name as it stands before a Chinese word: a space after a Latin name
/// ("A 的"), none after a Chinese one ("用户的").
fn zh_name(name: &str) -> String {
    if name.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '`' || c == ')') {
        format!("{name} ")
    } else {
        name.to_owned()
    }
}

/// An action in words (the action's own name in SQL terms where that is
/// what it is): what a legend or a step title says.
pub fn action_word(action: Action, lang: Lang) -> &'static str {
    match lang {
        Lang::En => match action {
            Action::Claim => "claim",
            Action::ClaimNext => "claim of the next free job",
            Action::Renew => "renew",
            Action::Write => "write",
            Action::Finish => "finish",
            Action::Fail => "fail",
            Action::Cancel => "cancel",
            Action::Register => "registration",
            Action::Check => "lease check",
            Action::Crash => "crash",
            Action::Pause => "pause",
            Action::Resume => "resume",
            Action::Begin => "BEGIN",
            Action::Select => "unlocked SELECT",
            Action::SelectForUpdate => "SELECT … FOR UPDATE",
            Action::SelectSkipLocked => "SELECT … FOR UPDATE SKIP LOCKED",
            Action::SelectNowait => "SELECT … FOR UPDATE NOWAIT",
            Action::UpdateClaim => "separate claiming UPDATE",
            Action::Commit => "COMMIT",
            Action::Rollback => "ROLLBACK",
            Action::Deliver => "delivery of a request",
            Action::Revise => "input revision",
        },
        Lang::Zh => match action {
            Action::Claim | Action::ClaimNext => "领取",
            Action::Renew => "续约",
            Action::Write => "写入",
            Action::Finish => "提交完成（finish）",
            Action::Fail => "标记失败（fail）",
            Action::Cancel => "取消",
            Action::Register => "登记代次",
            Action::Check => "检查租约",
            Action::Crash => "崩溃",
            Action::Pause => "暂停",
            Action::Resume => "恢复",
            Action::Begin => "开启事务",
            Action::Select => "无锁读取",
            Action::SelectForUpdate => "加锁读取（FOR UPDATE）",
            Action::SelectSkipLocked => "跳过已锁行读取（SKIP LOCKED）",
            Action::SelectNowait => "不等锁的加锁读取（NOWAIT）",
            Action::UpdateClaim => "单独的 UPDATE 领取",
            Action::Commit => "提交事务",
            Action::Rollback => "回滚事务",
            Action::Deliver => "请求送达",
            Action::Revise => "修改输入",
        },
    }
}

/// An action in a word or two, for a legend beside its glyph: English
/// keeps the names a scenario file uses (in words, not `snake_case`);
/// Chinese says what the action does.
pub fn action_short(action: Action, lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => action_word(action, lang),
        Lang::En => match action {
            Action::ClaimNext => "claim next",
            Action::UpdateClaim => "update claim",
            Action::SelectForUpdate => "select for update",
            Action::SelectSkipLocked => "skip locked",
            Action::SelectNowait => "nowait",
            Action::Register => "register",
            Action::Check => "check",
            Action::Begin => "begin",
            Action::Select => "select",
            Action::Commit => "commit",
            Action::Rollback => "rollback",
            Action::Deliver => "deliver",
            Action::Revise => "revise",
            other => action_word(other, lang),
        },
    }
}

/// A granted claim: the step that sent it, its worker and generation, and
/// the step at which it was granted — its own, or for a claim that waited
/// for a row lock, the step that released the lock.
struct Grant {
    claim: usize,
    worker: String,
    generation: u32,
    granted: usize,
}

impl Grant {
    /// "B was granted the newer generation 2 at step 5", saying so when the
    /// claim waited for a lock and was granted only later.
    fn newer(&self, lang: Lang) -> String {
        let Grant {
            claim,
            worker,
            generation,
            granted,
        } = self;
        match (claim == granted, lang) {
            (true, Lang::En) => {
                format!("{worker} was granted the newer generation {generation} at step {claim}")
            }
            (true, Lang::Zh) => format!(
                "{}在第 {claim} 步已经领取了更新的第 {generation} 代",
                zh_mid(worker)
            ),
            (false, Lang::En) => format!(
                "{worker}'s claim, sent at step {claim}, waited for a row lock and was granted the newer generation {generation} at step {granted}"
            ),
            (false, Lang::Zh) => format!(
                "{}在第 {claim} 步发出的领取先等了行锁，到第 {granted} 步才领到更新的第 {generation} 代",
                zh_mid(worker)
            ),
        }
    }
}

/// Every granted claim of `job`, in the order of the steps that sent them.
fn grants<'a>(
    scenario: &'a Scenario,
    trace: &'a Trace,
    job: JobIdx,
) -> impl Iterator<Item = Grant> + 'a {
    trace
        .steps
        .iter()
        .enumerate()
        .filter_map(move |(index, record)| {
            let step = scenario.steps.get(index)?;
            let claims = matches!(
                step.action,
                Action::Claim | Action::ClaimNext | Action::UpdateClaim
            );
            (claims && record.outcome == Outcome::Ok && record.job == Some(job)).then(|| Grant {
                claim: index,
                worker: scenario.worker_id(step.worker.unwrap_or(0)).to_owned(),
                generation: record.generation.unwrap_or(0),
                granted: record.released_by.map_or(index, |step| step as usize),
            })
        })
}

/// The claim that was granted `generation` of `job` before step `before`:
/// the last such grant, since a claim that a rollback undid gave its number
/// to the next one.
fn grant_of(
    scenario: &Scenario,
    trace: &Trace,
    job: JobIdx,
    generation: u32,
    before: usize,
) -> Option<Grant> {
    grants(scenario, trace, job)
        .filter(|grant| grant.generation == generation && grant.granted < before)
        .max_by_key(|grant| (grant.granted, grant.claim))
}

/// The last step before `before` that cancelled or ended `job`.
fn ending_before(scenario: &Scenario, trace: &Trace, job: JobIdx, before: usize) -> Option<usize> {
    (0..before).rev().find(|&index| {
        let (Some(step), Some(record)) = (scenario.steps.get(index), trace.steps.get(index)) else {
            return false;
        };
        record.outcome == Outcome::Ok
            && record.job == Some(job)
            && matches!(step.action, Action::Cancel | Action::Finish | Action::Fail)
    })
}

/// The last granted `revise` of `job` before step `before` that came after
/// `generation` of it was granted: what makes that generation's later
/// results ones of an old input.
fn revised_since_grant(
    scenario: &Scenario,
    trace: &Trace,
    job: JobIdx,
    generation: u32,
    before: usize,
) -> Option<usize> {
    let granted = grant_of(scenario, trace, job, generation, before)?.granted;
    (granted + 1..before).rev().find(|&index| {
        let (Some(step), Some(record)) = (scenario.steps.get(index), trace.steps.get(index)) else {
            return false;
        };
        step.action == Action::Revise && record.outcome == Outcome::Ok && record.job == Some(job)
    })
}

/// What the step did, and why, in one or two sentences; for a step the
/// oracle says had to be refused (or whose lease had expired) followed by
/// [`safety_reason`].
pub fn describe_step(scenario: &Scenario, trace: &Trace, index: usize, lang: Lang) -> String {
    let mut text = describe_outcome(scenario, trace, index, lang);
    let Some(record) = trace.steps.get(index) else {
        return text;
    };
    if trace.should_reject.contains(&(index as u32)) || record.expired == Some(true) {
        text += lang.pick(" ", "");
        text += &safety_reason(scenario, trace, index, lang);
    }
    text
}

/// What the step asks for, before its result is known: the question of a
/// predict exercise ("Tick 7: A's finish. What will it do?").
pub fn describe_pending(scenario: &Scenario, index: usize, lang: Lang) -> String {
    let Some(step) = scenario.steps.get(index) else {
        return String::new();
    };
    let actor = who(scenario, index, lang);
    let act = act_with_batch(scenario, index, lang);
    let target = target_of(scenario, index).map(|t| scenario.target_id(t));
    let at = step.at;
    let a = zh_name(&actor);
    match (target, lang) {
        (Some(target), Lang::Zh) => {
            format!("tick {at}：{a}对 `{target}` 的{act}。结果会是什么？")
        }
        (None, Lang::Zh) => format!("tick {at}：{a}的{act}。结果会是什么？"),
        (Some(target), Lang::En) => {
            format!("Tick {at}: {actor}'s {act} to `{target}`. What will it do?")
        }
        (None, Lang::En) => format!("Tick {at}: {actor}'s {act}. What will it do?"),
    }
}

/// What the step did, and why, without the oracle's verdict: the detail a
/// mark exercise may show before it is solved, since the verdict is its key.
pub fn describe_outcome(scenario: &Scenario, trace: &Trace, index: usize, lang: Lang) -> String {
    let (Some(step), Some(record)) = (scenario.steps.get(index), trace.steps.get(index)) else {
        return String::new();
    };
    let actor = who(scenario, index, lang);
    let at = step.at;
    if record.outcome == Outcome::Noop
        && let Some(said) = worker_event(step.action, &actor, at, lang)
    {
        return said;
    }
    let act = act_with_batch(scenario, index, lang);
    let target = target_of(scenario, index)
        .map(|t| scenario.target_id(t).to_owned())
        .unwrap_or_default();
    let mut text = match lang {
        Lang::En => {
            let place = if target.is_empty() {
                String::new()
            } else {
                format!(" to `{target}`")
            };
            format!("Tick {at}: {actor}'s {act}{place}")
        }
        Lang::Zh => {
            let a = zh_name(&actor);
            if target.is_empty() {
                format!("tick {at}：{a}的{act}")
            } else {
                format!("tick {at}：{a}对 `{target}` 的{act}")
            }
        }
    };
    // A statement that waited for a row lock ran later: say so first, and
    // when, so its result is not read as its own step's.
    if let Some(ran) = record.waited_until {
        text += &match lang {
            Lang::En => format!(" waited for a row lock, then at tick {ran}"),
            Lang::Zh => format!("先等行锁，到 tick {ran} "),
        };
    }
    let outcome = match (record.outcome, lang) {
        (Outcome::Ok, Lang::En) => " took effect".to_owned(),
        (Outcome::Ok, Lang::Zh) => "生效了".to_owned(),
        (Outcome::Rejected, Lang::En) => " was refused".to_owned(),
        (Outcome::Rejected, Lang::Zh) => "被拒绝".to_owned(),
        (Outcome::Duplicate, Lang::En) => {
            " was a duplicate: the operation id had already been applied, so nothing new happened"
                .to_owned()
        }
        (Outcome::Duplicate, Lang::Zh) => {
            "是重复请求：这个操作 ID 已经执行过，没有新的效果".to_owned()
        }
        (Outcome::Noop, Lang::En) => " changed nothing".to_owned(),
        (Outcome::Noop, Lang::Zh) => "没有改变任何东西".to_owned(),
        (Outcome::Waiting, Lang::En) => {
            " is still waiting for a row lock another transaction holds".to_owned()
        }
        (Outcome::Waiting, Lang::Zh) => "仍在等待另一个事务持有的行锁".to_owned(),
    };
    text += &outcome;
    let mut details = outcome_details(scenario, step, record, lang);
    details.extend(intent_details(scenario, trace, index, lang));
    if !details.is_empty() {
        text += lang.pick(" (", "（");
        text += &details.join(lang.pick("; ", "；"));
        text += lang.pick(")", "）");
    }
    text += lang.pick(".", "。");
    text
}

/// An outbox's intents: for a `write` recorded as one, which commit sent
/// it (or that none did); for the step whose commit approved intents,
/// which ones it sent.
fn intent_details(scenario: &Scenario, trace: &Trace, index: usize, lang: Lang) -> Option<String> {
    let record = trace.steps.get(index)?;
    if record.reason == Some(Reason::Intent) {
        return Some(match (record.approved_step, lang) {
            (Some(by), Lang::En) => format!("the commit at step {by} approved it and it was sent"),
            (Some(by), Lang::Zh) => format!("第 {by} 步的提交批准了它，它随之发出"),
            (None, Lang::En) => "no commit approved it, so it was never sent".to_owned(),
            (None, Lang::Zh) => "没有提交批准它，所以它从未发出".to_owned(),
        });
    }
    // Only a finish, or the commit of the transaction it is in, approves.
    let step = scenario.steps.get(index)?;
    if !matches!(step.action, Action::Finish | Action::Commit) {
        return None;
    }
    let approved: Vec<String> = trace
        .steps
        .iter()
        .enumerate()
        .filter(|(_, r)| r.approved_step == Some(index as u32))
        .map(|(i, _)| i.to_string())
        .collect();
    if approved.is_empty() {
        return None;
    }
    Some(match lang {
        Lang::En => format!(
            "it approved the intent{} of step{} {}, and the dispatcher sent {}",
            if approved.len() == 1 { "" } else { "s" },
            if approved.len() == 1 { "" } else { "s" },
            approved.join(", "),
            if approved.len() == 1 { "it" } else { "them" },
        ),
        Lang::Zh => format!(
            "它批准了第 {} 步的意图，派发器随之发出",
            approved.join("、")
        ),
    })
}

/// What happens to a worker itself — a pause, a resume, a crash — in its
/// own words: these steps change no state, yet they are the story (the
/// pause is why a lease runs out under a worker that still believes in it).
fn worker_event(action: Action, actor: &str, at: u64, lang: Lang) -> Option<String> {
    Some(match (action, lang) {
        (Action::Pause, Lang::En) => format!(
            "Tick {at}: {actor} pauses (a GC pause, a stalled VM): it still holds its lease and token in memory, and does nothing until it resumes."
        ),
        (Action::Pause, Lang::Zh) => format!(
            "tick {at}：{actor} 暂停了（比如 GC 停顿、虚拟机被挂起）：它内存里还拿着租约和令牌，恢复之前什么都不做。"
        ),
        (Action::Resume, Lang::En) => format!(
            "Tick {at}: {actor} resumes where it stopped, with the lease and token it had; it cannot tell how long it was away."
        ),
        (Action::Resume, Lang::Zh) => format!(
            "tick {at}：{actor} 从停下的地方继续，手里还是原来的租约和令牌；它无从知道自己停了多久。"
        ),
        (Action::Crash, Lang::En) => format!(
            "Tick {at}: {actor} crashes: it stops for good and clears nothing; its lease runs out by itself."
        ),
        (Action::Crash, Lang::Zh) => {
            format!("tick {at}：{actor} 崩溃了：它永远停下，什么也不会清理；它的租约只能自己到期。")
        }
        _ => return None,
    })
}

/// The parenthesised details of a step's outcome: how long it waited, what
/// a claim granted, which checks failed, the reason, what a check learned.
fn outcome_details(
    scenario: &Scenario,
    step: &crate::Step,
    record: &crate::StepTrace,
    lang: Lang,
) -> Vec<String> {
    let failed: Vec<&str> = record.failed_checks.map(|f| f.names()).unwrap_or_default();
    let mut details: Vec<String> = Vec::new();
    if let Some(released) = record.released_by {
        let released = released as usize;
        let by = who(scenario, released, lang);
        let act = scenario
            .steps
            .get(released)
            .map_or("", |s| action_word(s.action, lang));
        details.push(match lang {
            Lang::En => format!("{by}'s {act} at step {released} released the lock"),
            Lang::Zh => format!("第 {released} 步{}的{act}释放了锁", zh_mid(&by)),
        });
    }
    if matches!(
        step.action,
        Action::Claim | Action::ClaimNext | Action::UpdateClaim
    ) && record.outcome == Outcome::Ok
    {
        let generation = record.generation.unwrap_or(0);
        let token = record
            .token
            .map_or_else(|| lang.pick("none", "无").to_owned(), |t| t.to_string());
        let until = record.lease_until.unwrap_or(0);
        details.push(match lang {
            Lang::En => {
                format!("generation {generation}, token {token}, lease until {until}")
            }
            Lang::Zh => {
                format!("第 {generation} 代，令牌 {token}，租约到 tick {until}")
            }
        });
    }
    if !failed.is_empty() {
        details.push(match lang {
            Lang::En => {
                format!("failed checks: {}", failed.join(", "))
            }
            Lang::Zh => {
                format!("不成立的检查：{}", failed.join("、"))
            }
        });
    }
    if let Some(reason) = record.reason {
        // A job already ended: name how, from the row the step read.
        let ended = (reason == Reason::Terminal)
            .then(|| record.row.map(|row| row.state))
            .flatten()
            .and_then(|state| ended_state_words(state, lang));
        let said = ended.unwrap_or_else(|| reason_words(reason, lang));
        if !said.is_empty() {
            details.push(said.to_owned());
        }
    }
    if let Some(valid) = record.lease_valid {
        details.push(match (valid, lang) {
            (true, Lang::En) => {
                "the worker believes its lease is valid — a belief that guards nothing by itself"
                    .to_owned()
            }
            (true, Lang::Zh) => {
                "Worker 认为自己的租约有效——但这个判断本身保护不了任何东西".to_owned()
            }
            (false, Lang::En) => "the worker learns its lease is gone".to_owned(),
            (false, Lang::Zh) => "Worker 得知租约已经失效".to_owned(),
        });
    }
    details
}

/// How a job in a terminal state ended, for a step refused as `terminal`.
fn ended_state_words(state: JobState, lang: Lang) -> Option<&'static str> {
    Some(match state {
        JobState::Done => lang.pick(
            "the job had already finished: its state is `done`",
            "任务已经完成：状态是 `done`",
        ),
        JobState::Failed => lang.pick(
            "the job had already failed: its state is `failed`",
            "任务已经失败：状态是 `failed`",
        ),
        JobState::Cancelled => lang.pick(
            "the job had been cancelled: its state is `cancelled`",
            "任务已被取消：状态是 `cancelled`",
        ),
        JobState::Ready | JobState::Running => return None,
    })
}

fn reason_words(reason: Reason, lang: Lang) -> &'static str {
    match lang {
        Lang::En => match reason {
            Reason::LeaseHeld => "another worker's lease had not expired",
            Reason::Terminal => "the job had already ended or been cancelled",
            Reason::NoneAvailable => "no claimable, unlocked row was left",
            Reason::Claimable => "the row read as claimable",
            Reason::NotClaimable => "the row did not read as claimable",
            Reason::Blocked => {
                "the worker was still waiting for a row lock, so this step did not run"
            }
            Reason::Crashed => "the worker had crashed",
            Reason::Deadlock => {
                "waiting would have closed a lock cycle: the database aborted the statement and rolled the transaction back"
            }
            Reason::LockNotAvailable => {
                "another transaction held the row's lock and NOWAIT does not wait: the database failed the statement at once, and an open transaction was rolled back"
            }
            Reason::AlreadyInTransaction => "a transaction was already open",
            Reason::NoTransaction => "no transaction was open",
            Reason::StaleToken => "the target had seen a higher token",
            Reason::StaleBatch => {
                "the target's progress revision was already at this (token, batch) pair or past it"
            }
            Reason::NotRegistered => "the target has another generation registered",
            Reason::NotHigher => "the token was not higher than the registered one",
            Reason::Draft => "the target stored a draft; the official reference did not change",
            Reason::Sent => "the request was sent; the target decides when it arrives",
            Reason::NotSent => "no request was in flight: it was refused at send or never sent",
            Reason::Intent => {
                "recorded as an intent: nothing was sent; it goes out only if the worker's commit succeeds"
            }
        },
        Lang::Zh => match reason {
            Reason::LeaseHeld => "别人的租约还没到期",
            Reason::Terminal => "任务已经结束或被取消",
            Reason::NoneAvailable => "没有可领取且未被锁住的行",
            Reason::Claimable => "读到的行可以领取",
            Reason::NotClaimable => "读到的行不可领取",
            Reason::Blocked => "这个 Worker 还在等行锁，这一步没有执行",
            Reason::Crashed => "这个 Worker 已经崩溃",
            Reason::Deadlock => "等待会形成死锁，数据库中止了语句并回滚事务",
            Reason::LockNotAvailable => {
                "另一个事务持有这一行的锁，NOWAIT 不等待：数据库立即让语句失败，打开的事务也被回滚"
            }
            Reason::AlreadyInTransaction => "已经在事务中",
            Reason::NoTransaction => "没有打开的事务",
            Reason::StaleToken => "目标见过更高的令牌",
            Reason::StaleBatch => "目标记录的进度（令牌，批次）已经到了这一批或更后面",
            Reason::NotRegistered => "目标登记的是另一代",
            Reason::NotHigher => "令牌不高于已登记的代次",
            Reason::Draft => "目标只保存了一个草稿版本，正式引用没有变",
            Reason::Sent => "请求已发出，目标在请求到达时才做决定",
            Reason::NotSent => "没有在途的请求：发送时已被拒绝，或从未发出",
            Reason::Intent => "记成了一条意图，什么都没发出；只有 Worker 的提交成功，它才会被发出",
        },
    }
}

/// Why the oracle says the step had to be refused — or why it did not
/// have to be.
pub fn safety_reason(scenario: &Scenario, trace: &Trace, index: usize, lang: Lang) -> String {
    let Some(record) = trace.steps.get(index) else {
        return String::new();
    };
    let actor = who(scenario, index, lang);
    let generation = record.generation.unwrap_or(0);
    let reasons = refusal_reasons(scenario, trace, index, &actor, lang);
    let must = trace.should_reject.contains(&(index as u32));
    let happened = trace.is_violation(index as u32);
    if must {
        must_refuse_sentence(&reasons, happened, record.outcome, lang)
    } else if let Some(newer) =
        newer_grant(scenario, trace, index).filter(|grant| grant.generation > generation)
    {
        // Superseded, yet the oracle protects nothing here.
        let sends = scenario
            .steps
            .get(index)
            .is_some_and(|step| step.action == Action::Write && step.request.is_some());
        let why = match (stores_draft(scenario, index), sends) {
            (true, _) => lang.pick(
                "it only stores a draft, and only a committed finish makes a draft official",
                "它只存了一份草稿，只有提交成功的完成才会让草稿转正",
            ),
            (false, true) => lang.pick(
                "it only sends a request, which is judged where and when it arrives",
                "它只是发出一个请求，请求到达时才在目标端被评判",
            ),
            (false, false) => {
                lang.pick("it changes no protected state", "它不改变任何受保护的状态")
            }
        };
        let newer = newer.newer(lang);
        match lang {
            Lang::En => format!(
                "{actor} holds generation {generation}, but {newer}. Still, nothing readers see depends on this step: {why}. Refusing it is conservative, and letting it through breaks no safety: either is correct."
            ),
            Lang::Zh => format!(
                "{}持有第 {generation} 代，而{newer}。不过读者看到的东西不取决于这一步：{why}。拒绝它是保守的做法，放行它也不会破坏安全：两种处理都正确。",
                zh_name(&actor)
            ),
        }
    } else if let Some(end) = ended_by_own_generation(scenario, trace, index, generation) {
        own_end_sentence(scenario, index, end, &actor, generation, lang)
    } else if let Some(repeated) = newer_batch(scenario, trace, index)
        .filter(|applied| Some(applied.batch) == batch_of(scenario, index))
    {
        let (step, batch, target) = (repeated.step, repeated.batch, &repeated.target);
        match lang {
            Lang::En => format!(
                "{actor}'s own generation ({generation}) had already applied batch {batch} to `{target}` at step {step}: this repeats progress already made. Refusing it is conservative, and letting it through writes nothing newer over it: either is correct."
            ),
            Lang::Zh => format!(
                "{}自己这一代（第 {generation} 代）在第 {step} 步已经把批次 {batch} 写进 `{target}`：这一步只是重复已有的进度。拒绝它是保守的做法，放行它也不会拿旧进度盖掉新进度：两种处理都正确。",
                zh_name(&actor)
            ),
        }
    } else if record.expired == Some(true) {
        let waiting = waiting_claim(scenario, trace, index).map(|(claim, claimer, granted)| {
            match (granted, lang) {
                (Some(granted), Lang::En) => format!(
                    " ({claimer}'s claim from step {claim} was still waiting for a row lock; it was granted only at step {granted}.)"
                ),
                (Some(granted), Lang::Zh) => format!(
                    "（{}在第 {claim} 步发出的领取这时还在等行锁，到第 {granted} 步才被授予。）",
                    zh_name(&claimer)
                ),
                (None, Lang::En) => format!(
                    " ({claimer}'s claim from step {claim} was still waiting for a row lock.)"
                ),
                (None, Lang::Zh) => {
                    format!("（{}在第 {claim} 步发出的领取这时还在等行锁。）", zh_name(&claimer))
                }
            }
        });
        let waiting = waiting.unwrap_or_default();
        match lang {
            Lang::En => format!(
                "{actor}'s lease had run out, but no newer generation had been granted: refusing it is conservative, and letting it through breaks no safety. Either is correct.{waiting}"
            ),
            Lang::Zh => format!(
                "{}的租约已经到期，但还没有更新的代次被领取：拒绝它是保守的做法，放行它也不会破坏安全。两种处理都正确。{waiting}",
                zh_name(&actor)
            ),
        }
    } else {
        match lang {
            Lang::En => format!(
                "{actor} holds the newest generation ({generation}) and the job was still open: nothing requires refusing it."
            ),
            Lang::Zh => format!(
                "{}持有最新的第 {generation} 代，任务也还没有结束：这一步不该被拒绝。",
                zh_name(&actor)
            ),
        }
    }
}

/// A step by the generation that had itself finished or failed the job at
/// step `end`: a repeat of that commit changes nothing new; another action
/// is no repeat, and the sentence names what ended the job.
fn own_end_sentence(
    scenario: &Scenario,
    index: usize,
    end: usize,
    actor: &str,
    generation: u32,
    lang: Lang,
) -> String {
    let ending = scenario.steps.get(end).map_or(Action::Finish, |s| s.action);
    let action = scenario
        .steps
        .get(index)
        .map_or(Action::Finish, |s| s.action);
    let ended = ended_words(ending, lang);
    let state = match ending {
        Action::Fail => "failed",
        _ => "done",
    };
    let a = zh_name(actor);
    if action == ending {
        let act = action_word(action, lang);
        match lang {
            Lang::En => format!(
                "{actor}'s own generation ({generation}) had already {ended} the job at step {end}, so repeating the {act} changes nothing new and nothing requires refusing it. If it is refused (zero rows), that does not mean the right was lost: read the row to see the job is already `{state}`."
            ),
            Lang::Zh => format!(
                "{a}自己这一代（第 {generation} 代）已经在第 {end} 步{ended}，重复这一步不会带来新变化，也没有什么要求拒绝它。即使它被拒绝（影响 0 行），也不说明执行权丢了：读一下那一行，就能看到任务已经是 `{state}`。"
            ),
        }
    } else {
        let act = action_word(action, lang);
        let table = matches!(action, Action::Finish | Action::Fail | Action::Renew);
        match (table, lang) {
            (true, Lang::En) => format!(
                "{actor}'s own generation ({generation}) had already {ended} the job at step {end}; this {act} is no repeat of that. It is neither stale nor after a cancel or another generation's end, so the oracle does not require refusing it; a statement that checks the state changes zero rows here, because an ended job stays `{state}`."
            ),
            (true, Lang::Zh) => format!(
                "{a}自己这一代（第 {generation} 代）已经在第 {end} 步{ended}；这次{act}并不是在重复那一步。它既不属于旧代次，也不在取消或另一代结束任务之后，所以安全上不要求拒绝它；检查状态的语句在这里影响 0 行，因为已结束的任务保持 `{state}`。"
            ),
            (false, Lang::En) => format!(
                "{actor}'s own generation ({generation}) had already {ended} the job at step {end}; this {act} is no repeat of that. It is neither stale nor after a cancel or another generation's end, so the oracle does not require refusing it."
            ),
            (false, Lang::Zh) => format!(
                "{a}自己这一代（第 {generation} 代）已经在第 {end} 步{ended}；这次{act}并不是在重复那一步。它既不属于旧代次，也不在取消或另一代结束任务之后，所以安全上不要求拒绝它。"
            ),
        }
    }
}

/// Step `index`'s action in words, with the batch a write (or the
/// delivery of its request) carries: "write (batch 3)".
fn act_with_batch(scenario: &Scenario, index: usize, lang: Lang) -> String {
    let act = scenario
        .steps
        .get(index)
        .map_or("", |step| action_word(step.action, lang));
    match (batch_of(scenario, index), lang) {
        (Some(batch), Lang::En) => format!("{act} (batch {batch})"),
        (Some(batch), Lang::Zh) => format!("{act}（批次 {batch}）"),
        (None, _) => act.to_owned(),
    }
}

/// The batch number a `write` carries, or the `write` whose request a
/// `deliver` delivers.
fn batch_of(scenario: &Scenario, index: usize) -> Option<u32> {
    let step = scenario.steps.get(index)?;
    match step.action {
        Action::Write => step.batch,
        Action::Deliver => scenario.sender_of(index)?.batch,
        _ => None,
    }
}

/// The target a `write`, or the `write` a `deliver` delivers, writes to.
fn target_of(scenario: &Scenario, index: usize) -> Option<crate::TargetIdx> {
    let step = scenario.steps.get(index)?;
    step.target
        .or_else(|| scenario.sender_of(index).and_then(|s| s.target))
}

/// An applied batch: the step that applied it and its number.
struct AppliedBatch {
    step: usize,
    batch: u32,
    target: String,
}

impl AppliedBatch {
    /// "A's own generation 1 had already applied batch 3 to `report` at
    /// step 6: batch 2 is older progress".
    fn older_than(&self, actor: &str, generation: u32, batch: u32, lang: Lang) -> String {
        let AppliedBatch {
            step,
            batch: newer,
            target,
        } = self;
        match lang {
            Lang::En => format!(
                "{actor}'s own generation {generation} had already applied batch {newer} to `{target}` at step {step}: batch {batch} is older progress, and writing it would undo newer work"
            ),
            Lang::Zh => format!(
                "{}自己这一代（第 {generation} 代）在第 {step} 步已经把批次 {newer} 写进 `{target}`：批次 {batch} 是更旧的进度，写进去会盖掉更新的成果",
                zh_name(actor)
            ),
        }
    }
}

/// The highest batch that step `index`'s own generation had applied to
/// its target for its job before it, when no lower than its own batch.
fn newer_batch(scenario: &Scenario, trace: &Trace, index: usize) -> Option<AppliedBatch> {
    let batch = batch_of(scenario, index)?;
    let record = trace.steps.get(index)?;
    let (job, generation, target) = (record.job?, record.generation?, target_of(scenario, index)?);
    (0..index)
        .filter_map(|earlier| {
            let applied = trace.steps.get(earlier)?;
            let earlier_batch = batch_of(scenario, earlier)?;
            (applied.outcome == Outcome::Ok
                && applied.reason.is_none()
                && applied.job == Some(job)
                && applied.generation == Some(generation)
                && target_of(scenario, earlier) == Some(target)
                && earlier_batch >= batch)
                .then_some((earlier, earlier_batch))
        })
        .max_by_key(|&(_, earlier_batch)| earlier_batch)
        .map(|(step, batch)| AppliedBatch {
            step,
            batch,
            target: scenario.target_id(target).to_owned(),
        })
}

/// What a step that ended a job did to it, as a verb phrase: "finished"
/// or "failed" (en, followed by "the job"); zh says it whole.
fn ended_words(ending: Action, lang: Lang) -> &'static str {
    match (ending, lang) {
        (Action::Fail, Lang::En) => "failed",
        (Action::Fail, Lang::Zh) => "把任务标记为失败",
        (Action::Cancel, Lang::En) => "cancelled",
        (Action::Cancel, Lang::Zh) => "取消了任务",
        (_, Lang::En) => "finished",
        (_, Lang::Zh) => "完成了任务",
    }
}

/// Why a step had to be refused (`reasons`), and what it did instead:
/// took effect (`happened`, a violation), was refused, or did nothing for
/// another reason (its `outcome` says which).
fn must_refuse_sentence(
    reasons: &[String],
    happened: bool,
    outcome: Outcome,
    lang: Lang,
) -> String {
    let verdict = match (happened, outcome, lang) {
        (true, _, Lang::En) => "It had to be refused, and it took effect: a violation.",
        (true, _, Lang::Zh) => "它必须被拒绝，却生效了：这是一次违例。",
        (false, Outcome::Rejected, Lang::En) => "It had to be refused, and it was.",
        (false, Outcome::Rejected, Lang::Zh) => "它必须被拒绝，也确实被拒绝了。",
        (false, Outcome::Waiting, Lang::En) => {
            "It had to be refused; it never ran, still waiting for a lock."
        }
        (false, Outcome::Waiting, Lang::Zh) => "它必须被拒绝；它一直在等锁，没有执行。",
        (false, _, Lang::En) => "It had to be refused; it changed nothing, so no harm was done.",
        (false, _, Lang::Zh) => "它必须被拒绝；它没有改变任何东西，所以没有造成损害。",
    };
    let joined = capitalized(&reasons.join(lang.pick("; ", "；")));
    match lang {
        Lang::En => {
            format!("{joined}. {verdict}")
        }
        Lang::Zh => {
            format!("{joined}。{verdict}")
        }
    }
}

/// Step `index` is a write to a versioned target: it stores a draft,
/// which is not what readers see until a commit switches it.
fn stores_draft(scenario: &Scenario, index: usize) -> bool {
    scenario.steps.get(index).is_some_and(|step| {
        step.action == Action::Write
            && step
                .target
                .and_then(|t| scenario.targets.get(usize::from(t)))
                .is_some_and(|t| t.protect == Protect::Versioned)
    })
}

/// The newest claim of step `index`'s job granted before it. Counted from
/// the trace, because the oracle records the newest generation only on
/// steps that can be effects; a claim that waited for a lock counts from
/// the step that granted it.
fn newer_grant(scenario: &Scenario, trace: &Trace, index: usize) -> Option<Grant> {
    let job = trace.steps.get(index)?.job?;
    grants(scenario, trace, job)
        .filter(|grant| grant.granted < index)
        .max_by_key(|grant| (grant.granted, grant.claim))
}

/// A claim of step `index`'s job sent before it and not yet granted when
/// it ran: one still waiting for a row lock. With the step that granted it
/// later, if any.
fn waiting_claim(
    scenario: &Scenario,
    trace: &Trace,
    index: usize,
) -> Option<(usize, String, Option<usize>)> {
    let job = trace.steps.get(index)?.job?;
    (0..index).find_map(|earlier| {
        let step = scenario.steps.get(earlier)?;
        let record = trace.steps.get(earlier)?;
        let claims = matches!(
            step.action,
            Action::Claim | Action::ClaimNext | Action::UpdateClaim
        );
        let granted_later = record
            .released_by
            .filter(|&released| released as usize > index && record.outcome == Outcome::Ok);
        let still_waiting = record.outcome == Outcome::Waiting;
        (claims && record.job == Some(job) && (granted_later.is_some() || still_waiting)).then(
            || {
                (
                    earlier,
                    scenario.worker_id(step.worker.unwrap_or(0)).to_owned(),
                    granted_later.map(|released| released as usize),
                )
            },
        )
    })
}

/// The step before `index` at which `generation` itself finished or failed
/// step `index`'s job, if it did.
fn ended_by_own_generation(
    scenario: &Scenario,
    trace: &Trace,
    index: usize,
    generation: u32,
) -> Option<usize> {
    let job = trace.steps.get(index)?.job?;
    ending_before(scenario, trace, job, index).filter(|&end| {
        scenario
            .steps
            .get(end)
            .is_some_and(|s| s.action != Action::Cancel)
            && trace.steps.get(end).and_then(|r| r.generation) == Some(generation)
    })
}

/// Why step `index` had to be refused: a newer generation had been granted
/// (and to whom), the job had been cancelled or ended (and where).
fn refusal_reasons(
    scenario: &Scenario,
    trace: &Trace,
    index: usize,
    actor: &str,
    lang: Lang,
) -> Vec<String> {
    let Some(record) = trace.steps.get(index) else {
        return Vec::new();
    };
    let job = record.job.unwrap_or(0);
    let generation = record.generation.unwrap_or(0);
    let newest = record.newest_generation.unwrap_or(generation);
    let mut reasons = Vec::new();
    if newest > generation {
        let a = zh_name(actor);
        let holder = grant_of(scenario, trace, job, newest, index);
        // A worker whose claims were all refused holds no generation
        // either, and has no undone claim to speak of.
        // A delivery acts for the worker whose write sent it.
        let acting = match scenario.steps.get(index) {
            Some(step) if step.action == Action::Deliver => scenario.sender_of(index),
            step => step,
        };
        let worker_id = acting
            .and_then(|step| step.worker)
            .map(|worker| scenario.worker_id(worker));
        let never_granted = generation == 0
            && !grants(scenario, trace, job)
                .any(|grant| Some(grant.worker.as_str()) == worker_id && grant.claim < index);
        reasons.push(match (holder, lang) {
            (Some(grant), Lang::En) if never_granted => format!(
                "{actor} was never granted a generation of this job, but {} was granted generation {} at step {}",
                grant.worker, grant.generation, grant.granted
            ),
            (Some(grant), Lang::Zh) if never_granted => format!(
                "{a}从没领取到这个任务的任何一代，而{}在第 {} 步领取了第 {} 代",
                zh_mid(&grant.worker),
                grant.granted,
                grant.generation
            ),
            // Only a request sent under a claim that a rollback undid
            // arrives holding no generation (a worker that never claimed
            // has no job to act on).
            (Some(grant), Lang::En) if generation == 0 => format!(
                "{actor}'s claim was rolled back, so {actor} holds no generation, but {} was granted generation {} at step {}: the number {actor}'s undone claim had, and with monotonic tokens its token too",
                grant.worker, grant.generation, grant.granted
            ),
            (Some(grant), Lang::Zh) if generation == 0 => format!(
                "{a}的领取已被回滚，{a}不持有任何代次，而{}在第 {} 步领取了第 {} 代：正是{}那次被撤销的领取用过的编号，令牌单调递增时连令牌也一样",
                zh_mid(&grant.worker),
                grant.granted,
                grant.generation,
                zh_mid(actor)
            ),
            (Some(grant), Lang::En) => format!(
                "{actor} holds generation {generation}, but {}",
                grant.newer(lang)
            ),
            (Some(grant), Lang::Zh) => {
                format!("{a}持有第 {generation} 代，而{}", grant.newer(lang))
            }
            (None, Lang::En) => format!(
                "{actor} holds generation {generation}, but generation {newest} was already granted"
            ),
            (None, Lang::Zh) => format!("{a}持有第 {generation} 代，而第 {newest} 代已经被领取"),
        });
    }
    let ended = ending_before(scenario, trace, job, index).filter(|&end| {
        let ender = trace.steps.get(end).and_then(|r| r.generation);
        scenario
            .steps
            .get(end)
            .is_some_and(|s| s.action == Action::Cancel)
            || ender != Some(generation)
    });
    let cancelled_or_ended = trace
        .violations
        .iter()
        .any(|v| v.step == index as u32 && v.kind == ViolationKind::AfterTerminal)
        || ended.is_some() && trace.should_reject.contains(&(index as u32));
    let revised = (newest <= generation && !cancelled_or_ended)
        .then(|| revised_since_grant(scenario, trace, job, generation, index))
        .flatten()
        .filter(|_| trace.should_reject.contains(&(index as u32)));
    if let Some(revise) = revised {
        reasons.push(match lang {
            Lang::En => format!(
                "the user had revised the job's input at step {revise}, after {actor}'s generation {generation} was granted: {actor}'s result is one of the old input"
            ),
            Lang::Zh => format!(
                "用户在第 {revise} 步修改了任务的输入，那是在{}领取第 {generation} 代之后：{}的结果是按旧输入算的",
                zh_mid(actor),
                zh_name(actor)
            ),
        });
    }
    let stale_batch = trace
        .violations
        .iter()
        .any(|v| v.step == index as u32 && v.kind == ViolationKind::StaleBatch)
        || newest <= generation
            && !cancelled_or_ended
            && revised.is_none()
            && trace.should_reject.contains(&(index as u32));
    if stale_batch
        && let Some(newer) = newer_batch(scenario, trace, index)
        && let Some(batch) = batch_of(scenario, index)
        && newer.batch > batch
    {
        reasons.push(newer.older_than(actor, generation, batch, lang));
    }
    if cancelled_or_ended && let Some(end) = ended {
        let ending = scenario.steps.get(end).map_or(Action::Finish, |s| s.action);
        reasons.push(match (ending, lang) {
            (Action::Cancel, Lang::En) => format!("the user had cancelled the job at step {end}"),
            (Action::Cancel, Lang::Zh) => format!("用户在第 {end} 步已经取消了任务"),
            (_, Lang::En) => format!(
                "another generation had already {} the job at step {end}",
                ended_words(ending, lang)
            ),
            (_, Lang::Zh) => format!("另一代执行者在第 {end} 步已经{}", ended_words(ending, lang)),
        });
    }
    reasons
}

/// The sentence with its first letter in capitals.
fn capitalized(sentence: &str) -> String {
    let mut chars = sentence.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// An outcome in a word or two, the learner's (files and JSON spell it
/// by its name): the same words as the timeline's legend.
pub fn outcome_label(outcome: Outcome, lang: Lang) -> &'static str {
    crate::MarkKind::of(outcome).words(lang)
}

/// A reason in a few words, for tables (the name with spaces in English).
pub fn reason_label(reason: Reason, lang: Lang) -> String {
    match lang {
        Lang::En => reason.name().replace('_', " "),
        Lang::Zh => match reason {
            Reason::LeaseHeld => "租约未到期",
            Reason::Terminal => "任务已结束",
            Reason::NoneAvailable => "没有可领取的行",
            Reason::Claimable => "可领取",
            Reason::NotClaimable => "不可领取",
            Reason::Blocked => "仍在等行锁",
            Reason::Crashed => "已崩溃",
            Reason::Deadlock => "死锁",
            Reason::LockNotAvailable => "行已被锁",
            Reason::AlreadyInTransaction => "已在事务中",
            Reason::NoTransaction => "没有事务",
            Reason::StaleToken => "令牌比已见的低",
            Reason::StaleBatch => "批次不更新",
            Reason::NotRegistered => "未登记",
            Reason::NotHigher => "令牌不更高",
            Reason::Draft => "草稿",
            Reason::Sent => "已发出",
            Reason::NotSent => "未发出",
            Reason::Intent => "记为意图",
        }
        .to_owned(),
    }
}

/// A kind of violation in a word (its name in English).
pub fn violation_label(kind: ViolationKind, lang: Lang) -> &'static str {
    match lang {
        Lang::En => kind.name(),
        Lang::Zh => match kind {
            ViolationKind::Stale => "旧代次生效",
            ViolationKind::AfterTerminal => "结束后生效",
            ViolationKind::StaleBatch => "旧批次生效",
            ViolationKind::StaleInput => "旧输入生效",
        },
    }
}

/// How a line of a trace's summary reads: good news, a violation, or work
/// left to do (reconciliation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SummaryTone {
    Good,
    Bad,
    Todo,
}

/// A line of a trace's summary; `item` lines belong to the heading above.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SummaryLine {
    pub tone: SummaryTone,
    pub item: bool,
    pub text: String,
}

/// What a replay came to, in lines: the violations (or none), the steps
/// refused as they had to be, and the two reconciliation lists — remote
/// effects a cancel did not undo, and requests still travelling at a
/// cancel or a takeover (nobody could yet say what they would do).
pub fn trace_summary(scenario: &Scenario, trace: &Trace, lang: Lang) -> Vec<SummaryLine> {
    let line = |tone, item, text: String| SummaryLine { tone, item, text };
    let mut out = Vec::new();
    if trace.violations.is_empty() {
        out.push(line(
            SummaryTone::Good,
            false,
            lang.pick(
                "✓ no violations: no stale, after-terminal or old-input effect took place, nor an older batch over a newer one",
                "✓ 没有违例：没有旧代次的效果，没有任务结束后的效果，没有旧输入的结果，也没有旧批次盖掉新批次",
            )
            .to_owned(),
        ));
    } else {
        let count = trace.violations.len();
        out.push(line(
            SummaryTone::Bad,
            false,
            match lang {
                Lang::En => format!("‼ {count} violation{}:", if count == 1 { "" } else { "s" }),
                Lang::Zh => format!("‼ {count} 次违例："),
            },
        ));
        for violation in &trace.violations {
            out.push(line(
                SummaryTone::Bad,
                true,
                violation_line(scenario, trace, violation, lang),
            ));
        }
    }
    let steps = |list: &[u32]| {
        let list: Vec<String> = list.iter().map(u32::to_string).collect();
        match lang {
            Lang::En => format!("steps {}", list.join(", ")),
            Lang::Zh => format!("第 {} 步", list.join("、")),
        }
    };
    let refused: Vec<u32> = trace
        .should_reject
        .iter()
        .copied()
        .filter(|step| !trace.is_violation(*step))
        .collect();
    if !refused.is_empty() {
        let steps = steps(&refused);
        out.push(line(
            SummaryTone::Good,
            false,
            match lang {
                Lang::En => format!("✓ refused as they had to be: {steps}"),
                Lang::Zh => format!("✓ 必须拒绝的都被拒绝了：{steps}"),
            },
        ));
    }
    let made: Vec<u32> = trace
        .reconcile
        .iter()
        .copied()
        .filter(|step| !trace.reconcile_in_flight.contains(step))
        .collect();
    if !made.is_empty() {
        let steps = steps(&made);
        out.push(line(
            SummaryTone::Todo,
            false,
            match lang {
                Lang::En => format!(
                    "↻ to reconcile (remote effects made before the cancel; cancelling did not undo them): {steps}"
                ),
                Lang::Zh => format!(
                    "↻ 列为待核对，需要对账（取消之前已经产生的远端效果；取消并没有撤销它们）：{steps}"
                ),
            },
        ));
    }
    if !trace.reconcile_in_flight.is_empty() {
        let steps = steps(&trace.reconcile_in_flight);
        out.push(line(
            SummaryTone::Todo,
            false,
            match lang {
                Lang::En => format!(
                    "↻ to reconcile (requests still in flight when the job was cancelled or taken over; nobody could yet say what they would do): {steps}"
                ),
                Lang::Zh => format!(
                    "↻ 列为待核对，需要对账（任务被取消或被接管时仍在途的请求；当时谁也说不准它们会做什么）：{steps}"
                ),
            },
        ));
    }
    out
}

/// A violation in one line, as `fencelab run` lists it: which step took
/// effect (who, which action, where), although what, and its kind.
pub fn violation_line(
    scenario: &Scenario,
    trace: &Trace,
    violation: &crate::trace::Violation,
    lang: Lang,
) -> String {
    let index = violation.step;
    let at = index as usize;
    let action = scenario.steps.get(at).map_or("?", |s| s.action.name());
    let who = who(scenario, at, lang);
    let generation = trace.steps.get(at).and_then(|r| r.generation).unwrap_or(0);
    let kind = violation.kind.name();
    let target = target_of(scenario, at).map(|t| scenario.target_id(t));
    match lang {
        Lang::En => {
            let why = match violation.kind {
                ViolationKind::Stale if generation == 0 => format!(
                    "{who} held no generation (a claim rolled back, or none made), but a generation had been granted by then"
                ),
                ViolationKind::Stale => format!(
                    "{who} held generation {generation}, but a newer generation had already been granted"
                ),
                ViolationKind::AfterTerminal => {
                    "the job had already been cancelled or ended by another generation".to_owned()
                }
                ViolationKind::StaleInput => format!(
                    "the job's input had been revised after {who}'s generation {generation} was granted: a result of the old input"
                ),
                ViolationKind::StaleBatch => match newer_batch(scenario, trace, at) {
                    Some(newer) => format!(
                        "{who}'s own generation {generation} had already applied batch {} there at step {}",
                        newer.batch, newer.step
                    ),
                    None => format!(
                        "{who}'s own generation {generation} had already applied a higher batch there"
                    ),
                },
            };
            let target = target.map(|t| format!(" to {t}")).unwrap_or_default();
            format!("step {index} ({who} {action}{target}) took effect although {why} [{kind}]")
        }
        Lang::Zh => {
            let why = match violation.kind {
                ViolationKind::Stale if generation == 0 => format!(
                    "{}不持有任何代次（领取被回滚，或从未领取），而那时已经有代次被领取",
                    zh_name(&who)
                ),
                ViolationKind::Stale => format!(
                    "{}持有的是第 {generation} 代，而更新的代次已经被领取",
                    zh_name(&who)
                ),
                ViolationKind::AfterTerminal => "任务已经被取消，或已被另一代执行者结束".to_owned(),
                ViolationKind::StaleInput => format!(
                    "{}的第 {generation} 代领取之后，任务的输入已经被修改：这是按旧输入算出的结果",
                    zh_name(&who)
                ),
                ViolationKind::StaleBatch => match newer_batch(scenario, trace, at) {
                    Some(newer) => format!(
                        "{}自己这一代（第 {generation} 代）在第 {} 步已经把批次 {} 写到了那里",
                        zh_name(&who),
                        newer.step,
                        newer.batch
                    ),
                    None => format!(
                        "{}自己这一代（第 {generation} 代）已经在那里写过更高的批次",
                        zh_name(&who)
                    ),
                },
            };
            // The action is its file name (Latin): spaced from the Chinese
            // around it; a name is spaced only where it is Latin.
            let target = target
                .map(|t| format!(" 到{}", zh_after(t)))
                .unwrap_or_default();
            format!(
                "第 {index} 步（{}的 {action}{target}）生效了，但{} [{kind}]",
                zh_name(&who),
                zh_after(&why)
            )
        }
    }
}

/// A job state in a word (its name in English).
pub fn job_state_label(state: JobState, lang: Lang) -> &'static str {
    match lang {
        Lang::En => state.name(),
        Lang::Zh => match state {
            JobState::Ready => "就绪",
            JobState::Running => "运行中",
            JobState::Done => "已完成",
            JobState::Cancelled => "已取消",
            JobState::Failed => "已失败",
        },
    }
}

/// A kind of violation in the learner's words, short enough for a step's
/// heading ("stale" and "after_terminal" are the files' spelling).
pub fn violation_words(kind: ViolationKind, lang: Lang) -> &'static str {
    match kind {
        ViolationKind::Stale => lang.pick("stale effect", "旧代次生效"),
        ViolationKind::AfterTerminal => lang.pick("effect after the job ended", "任务结束后生效"),
        ViolationKind::StaleBatch => lang.pick("older batch took effect", "旧批次生效"),
        ViolationKind::StaleInput => {
            lang.pick("result of an old input took effect", "旧输入的结果生效")
        }
    }
}

/// What a target's protection does, in a few words.
pub fn protect_words(protect: Protect, lang: Lang) -> &'static str {
    match protect {
        Protect::None => lang.pick("no protection", "不设保护"),
        Protect::IdempotencyKey => lang.pick("idempotency key", "幂等键"),
        Protect::HighestToken => lang.pick("highest token seen", "记住见过的最大令牌"),
        Protect::RegisteredToken => lang.pick("registered token", "核对登记的令牌"),
        Protect::Gateway => lang.pick("gateway checks the job row", "网关核对任务行"),
        Protect::SendingGateway => lang.pick("gateway checks, then forwards", "网关核对后转发"),
        Protect::ApprovedIntent => lang.pick(
            "sends only what a commit approved",
            "只派发提交批准过的意图",
        ),
        Protect::Versioned => lang.pick("versioned write", "按版本条件写入"),
    }
}

/// A target's protection in one or two words: a lane's second line,
/// where a whole phrase does not fit.
pub fn protect_short(protect: Protect, lang: Lang) -> &'static str {
    match protect {
        Protect::None => lang.pick("no check", "不检查"),
        Protect::IdempotencyKey => lang.pick("idempotency key", "幂等键"),
        Protect::HighestToken => lang.pick("highest token", "最大令牌"),
        Protect::RegisteredToken => lang.pick("registered token", "登记的令牌"),
        Protect::Gateway => lang.pick("gateway", "网关"),
        Protect::SendingGateway => lang.pick("checks at send", "发送时检查"),
        Protect::ApprovedIntent => lang.pick("approved intents", "批准后派发"),
        Protect::Versioned => lang.pick("versioned", "按版本写入"),
    }
}

/// A kind of token in a few words.
pub fn token_words(token: crate::TokenKind, lang: Lang) -> &'static str {
    match token {
        crate::TokenKind::Monotonic => lang.pick("increasing number", "递增编号"),
        crate::TokenKind::Random => lang.pick("random number", "随机数"),
        crate::TokenKind::None => lang.pick("no token", "不发令牌"),
    }
}

/// How a worker claims, as the SQL it sends, in one short line (what the
/// statements cost and risk is [`crate::claim_cost_words`]).
pub fn claim_words(claim: crate::ClaimProcedure, lang: Lang) -> &'static str {
    use crate::ClaimProcedure as C;
    match claim {
        C::Atomic => lang.pick(
            "UPDATE … WHERE <claimable> RETURNING fence",
            "UPDATE … WHERE <可领取> RETURNING fence",
        ),
        C::ReadThenUpdate => lang.pick(
            "SELECT, then UPDATE … WHERE id = :job",
            "先 SELECT，再 UPDATE … WHERE id = :job",
        ),
        C::SelectForUpdate => "BEGIN; SELECT … FOR UPDATE; UPDATE …; COMMIT",
        C::SkipLocked => "BEGIN; SELECT … SKIP LOCKED; UPDATE …; COMMIT",
        C::HeldAcrossWork => lang.pick(
            "BEGIN; … FOR UPDATE; UPDATE …; <work>; COMMIT",
            "BEGIN; … FOR UPDATE; UPDATE …; <干活>; COMMIT",
        ),
        C::Nowait => "BEGIN; SELECT … NOWAIT; UPDATE …; COMMIT",
        C::LockBothOwnOrder => lang.pick(
            "BEGIN; … FOR UPDATE each row, own order; UPDATE …; COMMIT",
            "BEGIN; 按自己的顺序逐行 … FOR UPDATE; UPDATE …; COMMIT",
        ),
        C::LockBothIdOrder => lang.pick(
            "BEGIN; … ORDER BY id FOR UPDATE; UPDATE …; COMMIT",
            "BEGIN; … ORDER BY id FOR UPDATE; UPDATE …; COMMIT",
        ),
    }
}

/// A design as a reader names it: a preset's name, or its knobs in the
/// files' spelling (what `--commit-checks` and a design table take), so a
/// command line can be read back from it.
pub fn design_words(design: &crate::Design, lang: Lang) -> String {
    if let Some(preset) = crate::Preset::of(design) {
        return preset.name().to_owned();
    }
    let list = |names: Vec<&str>| {
        if names.is_empty() {
            lang.pick("none", "无").to_owned()
        } else {
            names.join(lang.pick(", ", "、"))
        }
    };
    let commit = list(design.commit_checks.names());
    let renew = list(design.renew_checks.names());
    let (token, clock, targets) = (
        design.token.name(),
        design.lease_clock.name(),
        design.target_protect.name(),
    );
    // Said only when on (or not the default), so other designs read short.
    let epoch = match (design.cancel_epoch, lang) {
        (false, _) => "",
        (true, Lang::En) => "; a cancel advances the epoch",
        (true, Lang::Zh) => "；取消推进纪元",
    };
    let revision = match (design.input_revision, lang) {
        (false, _) => "",
        (true, Lang::En) => "; a revise advances the fence",
        (true, Lang::Zh) => "；修改输入推进 fence",
    };
    let claim = match (design.claim, lang) {
        (crate::ClaimProcedure::Atomic, _) => String::new(),
        (claim, Lang::En) => format!("; claim {}", claim.name()),
        (claim, Lang::Zh) => format!("；领取方式 {}", claim.name()),
    };
    match lang {
        Lang::En => format!(
            "custom (commit: {commit}; renew: {renew}; token {token}; lease clock {clock}; targets {targets}{epoch}{revision}{claim})"
        ),
        Lang::Zh => format!(
            "自定义（提交检查：{commit}；续约检查：{renew}；令牌 {token}；租约时钟 {clock}；目标 {targets}{epoch}{revision}{claim}）"
        ),
    }
}

/// Whose clock judges a lease, in a few words.
pub fn clock_words(clock: crate::LeaseClock, lang: Lang) -> &'static str {
    match clock {
        crate::LeaseClock::Db => lang.pick("the database's clock", "数据库的时钟"),
        crate::LeaseClock::Worker => lang.pick("each worker's own clock", "各 Worker 自己的时钟"),
    }
}

/// What a predicate of a conditional statement asks, in a few words.
pub fn check_words(check: crate::Check, lang: Lang) -> &'static str {
    match check {
        crate::Check::Owner => lang.pick("same owner", "owner 相同"),
        crate::Check::Fence => lang.pick("same fence token", "fence 令牌相同"),
        crate::Check::Lease => lang.pick("lease not yet expired", "租约尚未到期"),
        crate::Check::State => lang.pick("job still running", "任务仍在运行"),
    }
}
