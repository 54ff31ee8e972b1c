//! Plain-language explanations of a counterexample, in English and Chinese:
//! which generation was stale, and which check was missing where.

use crate::design::{CheckSet, Protect, TokenKind};
use crate::explore::world::{Op, World};
use crate::scenario::Text;
use crate::trace::ViolationKind;

/// The facts of the violating move, gathered by the caller.
#[derive(Debug, Clone)]
pub(crate) struct Facts<'w> {
    pub world: &'w World,
    pub worker: String,
    pub op: Op,
    pub step: u32,
    pub at: u64,
    pub generation: u32,
    pub newest_generation: u32,
    /// Who holds the newest generation, if a worker does.
    pub newest_holder: Option<String>,
    pub kind: ViolationKind,
    /// Every predicate that was false before the move.
    pub all_failed: CheckSet,
    /// How the job ended before: `Some(true)` cancelled, `Some(false)` ended
    /// by another generation.
    pub cancelled: bool,
    /// For a highest-token target: the tokens compared.
    pub carried_token: Option<u64>,
    pub highest_seen: Option<u64>,
}

fn list(set: CheckSet) -> String {
    let names: Vec<String> = set.iter().map(|c| format!("`{}`", c.name())).collect();
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

fn list_zh(set: CheckSet) -> String {
    let names: Vec<String> = set.iter().map(|c| format!("`{}`", c.name())).collect();
    if names.is_empty() {
        "无".to_owned()
    } else {
        names.join("、")
    }
}

/// The space Chinese text puts before a Latin word (`的 finish`), and none
/// before a Chinese one (`的写入`).
fn latin_gap(word: &str) -> &'static str {
    if word.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        " "
    } else {
        ""
    }
}

/// The violating move in words. Every sentence is written in English and
/// Chinese side by side, so that the two say the same thing.
pub(crate) fn explain(facts: &Facts<'_>) -> Text {
    let design = facts.world.design;
    let (action_en, action_zh, checked) = match facts.op {
        Op::Finish => (
            "finish (the commit)",
            "finish（提交）",
            Some(design.commit_checks),
        ),
        Op::Renew => ("renew", "续约", Some(design.renew_checks)),
        Op::Write(_) => ("write", "写入", None),
        // Never an effect the oracle judges, but named all the same.
        Op::Claim
        | Op::Begin
        | Op::Select
        | Op::SelectForUpdate
        | Op::SelectSkipLocked
        | Op::SelectNowait
        | Op::UpdateClaim
        | Op::Commit => ("claim", "领取", None),
        Op::Check => ("check", "检查", None),
    };
    let target = match facts.op {
        Op::Write(index) => Some((
            facts.world.target_id(index),
            facts
                .world
                .targets
                .get(usize::from(index))
                .copied()
                .unwrap_or(Protect::None),
        )),
        _ => None,
    };
    let (mut en, mut zh) = what_happened(facts, action_en, action_zh, target.as_ref());
    let missing =
        CheckSet::from_bits(facts.all_failed.bits() & !checked.unwrap_or(CheckSet::EMPTY).bits());
    // Every predicate may hold: a revise changes no column they read
    // unless it advances the fence.
    let stale_input = facts.kind == ViolationKind::StaleInput;
    match (checked, target) {
        (_, target) if stale_input => {
            let (why_en, why_zh) = stale_input_reason(facts, target.as_ref());
            en += " ";
            en += &why_en;
            zh += " ";
            zh += &why_zh;
        }
        (Some(checks), _) => {
            let (why_en, why_zh) = checks_reason(facts, action_en, action_zh, checks, missing);
            en += &why_en;
            zh += &why_zh;
        }
        (None, Some((id, protect))) => {
            let (why_en, why_zh) = if facts.generation == 0 && facts.kind == ViolationKind::Stale {
                rolled_back_reason(&id, design.token)
            } else {
                target_reason(facts, &id, protect, missing)
            };
            en += " ";
            en += &why_en;
            zh += " ";
            zh += &why_zh;
        }
        (None, None) => {}
    }
    if design.claim == crate::ClaimProcedure::ReadThenUpdate && facts.kind == ViolationKind::Stale {
        en += " The claims were a plain read and a separate UPDATE (read_then_update): the UPDATE does not look at the row again, so a worker whose read saw the row free takes it over even while another worker's lease is live. One conditional UPDATE, or a row lock from the read to the UPDATE, would have refused the second claim.";
        zh += " 领取是先普通读取、再单独 UPDATE（read_then_update）：UPDATE 不再检查这一行，所以读到空闲的 Worker 即使在别人的租约仍有效时也会接管。用一条条件 UPDATE，或从读取到 UPDATE 一直锁住这一行，就能拒绝第二次领取。";
    }
    // The sentences are joined with a space, which Chinese does not put
    // after its full stop.
    let zh = zh.replace("。 ", "。");
    Text { en, zh }
}

/// The first sentence: whose move took effect where, and why it should
/// not have (a stale generation, or a job already ended).
fn what_happened(
    facts: &Facts<'_>,
    action_en: &str,
    action_zh: &str,
    target: Option<&(String, Protect)>,
) -> (String, String) {
    let who = &facts.worker;
    let generation = facts.generation;
    let place_en = target.map_or(String::new(), |(id, protect)| {
        format!(
            " to `{id}` ({})",
            crate::protect_short(*protect, crate::Lang::En)
        )
    });
    let place_zh = target.map_or(String::new(), |(id, protect)| {
        format!(
            "到 `{id}`（{}）",
            crate::protect_short(*protect, crate::Lang::Zh)
        )
    });

    let mut en = format!(
        "Step {} (tick {}): {who}'s {action_en}{place_en} took effect",
        facts.step, facts.at
    );
    let mut zh = format!(
        "第 {} 步（tick {}）：{who} 的{}{action_zh}{place_zh}生效了",
        facts.step,
        facts.at,
        latin_gap(action_zh)
    );
    match facts.kind {
        ViolationKind::Stale => {
            let holder = facts
                .newest_holder
                .clone()
                .unwrap_or_else(|| "another worker".to_owned());
            let holder_zh = facts
                .newest_holder
                .clone()
                .unwrap_or_else(|| "另一个 Worker".to_owned());
            if generation == 0 {
                // Only a request sent under a claim that a crash rolled
                // back arrives holding no generation.
                en += &format!(
                    " though {who}'s claim had been rolled back, so {who} held no generation, and {holder} had since been granted generation {} (the same number, and with monotonic tokens the same token): a stale effect.",
                    facts.newest_generation
                );
                zh += &format!(
                    "，但 {who} 的领取已被回滚，{who} 并不持有任何代次，而 {holder_zh} 之后领取了第 {} 代（同一个编号；令牌单调递增时也是同一个令牌）：这是旧代次的写入。",
                    facts.newest_generation
                );
            } else {
                en += &format!(
                    " while {who} held generation {generation}, after {holder} had been granted generation {}: a stale effect.",
                    facts.newest_generation
                );
                zh += &format!(
                    "，而 {who} 持有的是第 {generation} 代，{holder_zh} 已经领取了第 {} 代：这是旧代次的写入。",
                    facts.newest_generation
                );
            }
        }
        // The explorers draw no input revisions, so they never find this
        // kind; said for completeness.
        ViolationKind::StaleInput => {
            en += ", after the job's input had been revised: a result of the old input.";
            zh += "，但任务的输入已经被修改：这是按旧输入算出的结果。";
        }
        // The explorers' writes carry no batch numbers, so they never
        // find this kind; said for completeness.
        ViolationKind::StaleBatch => {
            en += ", writing older progress over a batch its own generation had already applied.";
            zh += "，用更旧的进度盖掉了同一代已经写入的批次。";
        }
        ViolationKind::AfterTerminal => {
            if facts.cancelled {
                en += " after the user had cancelled the job.";
                zh += "，但用户已经取消了这个任务。";
            } else {
                en += " after another generation had already ended the job.";
                zh += "，但另一代执行者已经结束了这个任务。";
            }
        }
    }
    (en, zh)
}

/// Why the job table took a finish or renew: which false predicates the
/// design's `checks` for it leave out.
fn checks_reason(
    facts: &Facts<'_>,
    action_en: &str,
    action_zh: &str,
    checks: CheckSet,
    missing: CheckSet,
) -> (String, String) {
    let checked_zh = if checks.is_empty() {
        "什么都不检查".to_owned()
    } else {
        format!("只检查 {}", list_zh(checks))
    };
    let checked_en = if checks.is_empty() {
        "checks nothing".to_owned()
    } else {
        format!("checks {}", list(checks))
    };
    let mut en = format!(
        " The design's {action_en} {checked_en}; the predicates that were false but not checked: {}.",
        list(missing)
    );
    let mut zh = format!(
        " 这个设计的{}{action_zh}{checked_zh}；为假却没有被检查的谓词：{}。",
        latin_gap(action_zh),
        list_zh(missing)
    );
    if missing.contains(crate::Check::Fence) && !missing.contains(crate::Check::Owner) {
        en += " The owner column cannot tell a restarted process from the old one: only the fencing token orders generations.";
        zh += " owner 列分不清重启后的新进程和旧进程：只有 fencing 令牌能区分执行代次。";
    }
    if missing.contains(crate::Check::State) && facts.kind == ViolationKind::AfterTerminal {
        en += " Checking `state` in the same statement would have refused it.";
        zh += " 在同一条语句里检查 `state` 就能拒绝它。";
    }
    (en, zh)
}

/// Why a result of an old input got through: owner, token, lease and state
/// all still held, since the revise advanced nothing they compare.
fn stale_input_reason(facts: &Facts<'_>, target: Option<&(String, Protect)>) -> (String, String) {
    let (where_en, where_zh) = match target {
        Some((id, _)) => (format!("`{id}`"), format!("`{id}` ")),
        None => ("The commit".to_owned(), "这次提交".to_owned()),
    };
    if facts.world.design.input_revision {
        (
            format!(
                "{where_en} compares nothing a revise advances: only the `fence` predicate, or a registered token, sees the fence the revise moved."
            ),
            format!(
                "{where_zh}没有比对修改会推进的东西：只有 `fence` 条件或登记的令牌，才看得见修改推进了的 fence。"
            ),
        )
    } else {
        (
            format!(
                "{where_en} saw owner, token, lease and state as they were: the revise changed only the input's revision, which nothing compares. A revision that advances the fence too (`input_revision`) would have refused it wherever the fence is checked."
            ),
            format!(
                "{where_zh}看到的 owner、令牌、租约和状态都和原来一样：修改只推进了输入的修订号，而没有任何检查去比对它。让修订同时推进 fence（`input_revision`），凡是检查 fence 的地方都会拒绝它。"
            ),
        )
    }
}

/// Why the target accepted the write, per protection mode: one case, two
/// languages, side by side.
fn target_reason(
    facts: &Facts<'_>,
    id: &str,
    protect: Protect,
    missing: CheckSet,
) -> (String, String) {
    let stale = facts.kind == ViolationKind::Stale;
    match protect {
        Protect::None => (
            format!(
                "`{id}` accepts every write: nothing at the resource checks the generation. A check only inside the worker does not help once it has passed."
            ),
            format!(
                "`{id}` 接受所有写入：资源端没有任何代次检查。只在 Worker 内部做的检查，一旦通过就保护不了后面的写入。"
            ),
        ),
        Protect::IdempotencyKey => (
            format!(
                "`{id}` only checks the operation id, and this operation was new to it. An idempotency key stops repeats of the same action; it does not stop a stale worker's write."
            ),
            format!(
                "`{id}` 只检查操作 ID，而这个操作对它来说是新的。幂等键只能挡住同一动作的重复，挡不住旧代次 Worker 的写入。"
            ),
        ),
        Protect::HighestToken => highest_token_reason(facts, id, stale),
        Protect::RegisteredToken => registered_token_reason(id, stale),
        Protect::Gateway => (
            format!(
                "The gateway checks the design's commit checks ({}), and the predicates that were false but not checked were {}.",
                list(facts.world.design.commit_checks),
                list(missing)
            ),
            format!(
                "网关按设计的提交检查（{}）校验，为假却没有被检查的谓词是 {}。",
                list_zh(facts.world.design.commit_checks),
                list_zh(missing)
            ),
        ),
        Protect::SendingGateway => (
            format!(
                "The sending gateway checked the commit checks ({}) when the request left; `{id}` accepts whatever arrives, and the request arrived after the check had stopped being true. A check at the sender is not a check at the resource.",
                list(facts.world.design.commit_checks),
            ),
            format!(
                "发送网关在请求发出时按提交检查（{}）校验过；`{id}` 接受到达的一切，而请求到达时那次检查早已不再成立。发送端的检查不是资源端的检查。",
                list_zh(facts.world.design.commit_checks),
            ),
        ),
        Protect::ApprovedIntent => (
            format!(
                "`{id}` takes whatever the dispatcher sends, and the dispatcher sends what a commit approved: the commit checks ({}) let this commit through, so its intents went out with it. An outbox is only as safe as the commit that approves it.",
                list(facts.world.design.commit_checks),
            ),
            format!(
                "`{id}` 接受派发器发来的一切，而派发器发出的是提交批准过的意图：提交检查（{}）放过了这次提交，它的意图也就跟着发了出去。发件箱的安全，取决于批准它的那次提交。",
                list_zh(facts.world.design.commit_checks),
            ),
        ),
        Protect::Versioned => (String::new(), String::new()),
    }
}

/// Why a target took a request sent under a claim that rolled back: the
/// token it carries was handed out again, so no token check can tell.
fn rolled_back_reason(id: &str, token: TokenKind) -> (String, String) {
    let (why_en, why_zh) = if token == TokenKind::Monotonic {
        (
            format!(
                "the rollback took the fence back, and the next claim was granted the same token, so no token check at `{id}` can tell the old request from the new holder's"
            ),
            format!(
                "回滚把 fence 退了回去，下一次领取又拿到了同一个令牌，所以 `{id}` 的任何令牌检查都分不出旧请求和新持有者的请求"
            ),
        )
    } else {
        (
            format!("it names no generation, and `{id}` cannot know that"),
            format!("它不代表任何代次，而 `{id}` 无从得知"),
        )
    };
    (
        format!(
            "The token it carried came from a claim that was never committed: {why_en}. Commit the claim in a short transaction before anything leaves the worker."
        ),
        format!(
            "它携带的令牌来自一次从未提交的领取：{why_zh}。应当先在短事务里提交领取，再让任何东西离开 Worker。"
        ),
    )
}

/// Why a highest-token target took the write: random tokens do not order,
/// the new generation had not written there yet, or (the job ended) it
/// compares tokens only.
fn highest_token_reason(facts: &Facts<'_>, id: &str, stale: bool) -> (String, String) {
    if facts.world.design.token == TokenKind::Random && facts.highest_seen.is_some() {
        (
            format!(
                "`{id}` keeps the highest token it has seen ({}), and the stale token {} was not lower: random tokens cannot order generations.",
                facts
                    .highest_seen
                    .map_or("none".to_owned(), |t| t.to_string()),
                facts
                    .carried_token
                    .map_or("none".to_owned(), |t| t.to_string())
            ),
            format!(
                "`{id}` 记录见过的最高令牌（{}），旧代次的令牌 {} 并不比它低：随机令牌无法排序执行代次。",
                facts
                    .highest_seen
                    .map_or("无".to_owned(), |t| t.to_string()),
                facts
                    .carried_token
                    .map_or("无".to_owned(), |t| t.to_string())
            ),
        )
    } else if stale {
        (
            format!(
                "`{id}` rejects only tokens lower than the highest it has seen, and the new generation had not written here yet. Registering the new generation at the target on takeover, or a gateway that checks atomically, would have refused it."
            ),
            format!(
                "`{id}` 只拒绝低于已见最高令牌的请求，而新一代还没有在这里写过。接管时在目标端登记新代次，或由网关原子校验，才能立即拒绝。"
            ),
        )
    } else {
        (
            format!("`{id}` compares tokens only; it cannot know the job was cancelled or ended."),
            format!("`{id}` 只比较令牌，不知道任务已被取消或结束。"),
        )
    }
}

/// Why a registered-token target took the write: the new generation was
/// never registered, or (the job ended) a registration says nothing of it.
fn registered_token_reason(id: &str, stale: bool) -> (String, String) {
    if stale {
        (
            format!(
                "The new generation was never registered at `{id}` (register_on_claim is off and no `register` step ran)."
            ),
            format!("新一代从未在 `{id}` 登记（register_on_claim 关闭，也没有 `register` 步骤）。"),
        )
    } else {
        (
            format!(
                "`{id}` checks that the token is the registered generation, and it was: a registered token says who holds the job, not whether the job was cancelled. Only a check that reads `state`, or a registered number the cancel itself changes, refuses it."
            ),
            format!(
                "`{id}` 检查令牌是否是登记的代次，而它确实是：登记的令牌只说明谁持有任务，不说明任务是否已被取消。只有读取 `state` 的检查，或者取消本身会改变的登记数字，才能拒绝它。"
            ),
        )
    }
}
