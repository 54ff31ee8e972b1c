//! The step function: replays a validated scenario against the job table, the
//! row locks and the remote targets, and asks the oracle about every effect.
//!
//! The engine never panics on a [`Scenario`] that passed [`Scenario::check`]:
//! every index it uses was validated there, and lookups still go through
//! `get` so that a broken invariant degrades to a no-op rather than a panic.

use crate::design::{Check, CheckSet, LeaseClock, Protect, TokenKind};
use crate::oracle::Oracle;
use crate::scenario::{Action, JobIdx, OpRef, Scenario, Step, TargetIdx, WorkerIdx};
use crate::trace::{JobState, Outcome, Reason, Row, StepTrace, TargetState, Trace};

/// Replays `scenario` from the initial state. Pure: the same scenario always
/// gives the same trace.
pub fn run(scenario: &Scenario) -> Trace {
    let mut engine = Engine::new(scenario);
    for (index, step) in scenario.steps.iter().enumerate() {
        engine.step(index as u32, step);
    }
    engine.finish()
}

/// What a worker holds for one job: the token it carries and the generation
/// the oracle gave its claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Holding {
    token: Option<u64>,
    generation: u32,
}

/// Undo information for a job row a transaction modified.
#[derive(Debug, Clone)]
struct Undo {
    job: JobIdx,
    row: Row,
    oracle: crate::oracle::JobMark,
    holding: Option<Holding>,
}

#[derive(Debug, Clone, Default)]
struct Transaction {
    /// Rows this transaction locked, held until commit or rollback.
    locks: Vec<JobIdx>,
    undo: Vec<Undo>,
    /// Job-table effects made inside the transaction (a rollback takes them back).
    effects: Vec<u32>,
    /// Requests in flight that a claim inside the transaction listed for
    /// reconciliation (a rollback unlists them).
    listed_in_flight: Vec<u32>,
    /// The (worker, job) intents a `finish` inside the transaction
    /// approved: dispatched when it commits, never if it rolls back.
    approved: Vec<(WorkerIdx, JobIdx)>,
}

#[derive(Debug, Clone, Default)]
struct WorkerState {
    current_job: Option<JobIdx>,
    transaction: Option<Transaction>,
    /// The step this actor is waiting on, if its statement waits for a lock.
    waiting: Option<u32>,
    crashed: bool,
}

/// A statement waiting for a row lock.
#[derive(Debug, Clone, Copy)]
struct Waiter {
    actor: usize,
    step: u32,
    job: JobIdx,
    /// The row's last committed version when the statement began to wait:
    /// PostgreSQL evaluated the statement on it, with the time it was sent.
    row: Row,
}

/// A request a `write` sent and no `deliver` has delivered yet: what it
/// carries from the moment it was sent.
#[derive(Debug, Clone, Copy)]
struct InFlight {
    send_step: u32,
    worker: WorkerIdx,
    job: JobIdx,
    target: TargetIdx,
    token: Option<u64>,
    generation: u32,
}

/// A `write` to an `approved_intent` target, recorded and not yet
/// approved: nothing has left the worker.
#[derive(Debug, Clone, Copy)]
struct Intent {
    write_step: u32,
    worker: WorkerIdx,
    job: JobIdx,
    target: TargetIdx,
    token: Option<u64>,
    request: Option<u32>,
}

/// Generates `token = "random"` tokens: SplitMix64, seeded by the scenario.
#[derive(Debug, Clone)]
pub(crate) struct TokenRng(u64);

impl TokenRng {
    pub(crate) fn new(seed: u64) -> TokenRng {
        TokenRng(seed)
    }

    /// A token in `1..1_000_000`: small enough to read on a timeline and to
    /// survive a JavaScript number.
    pub(crate) fn next_token(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        1 + z % 999_999
    }
}

struct Engine<'s> {
    scenario: &'s Scenario,
    rows: Vec<Row>,
    /// The worker whose open transaction holds each row's lock.
    lock_holder: Vec<Option<WorkerIdx>>,
    /// Indexed `worker * jobs + job`.
    holdings: Vec<Option<Holding>>,
    /// What the worker's last read of the row said: claimable or not.
    observed: Vec<Option<bool>>,
    /// Workers, then the user (who only cancels).
    actors: Vec<WorkerState>,
    waiters: Vec<Waiter>,
    targets: Vec<TargetRuntime>,
    /// Per request id: the request while it is in flight.
    in_flight: Vec<Option<InFlight>>,
    /// Intents recorded at `approved_intent` targets, waiting for a commit.
    intents: Vec<Intent>,
    oracle: Oracle,
    rng: TokenRng,
    records: Vec<StepTrace>,
}

#[derive(Debug, Clone)]
struct TargetRuntime {
    state: TargetState,
    /// `idempotency_key`: which operation keys were applied (a bitset).
    applied: Vec<u64>,
    /// `versioned`: each worker's latest draft value.
    latest_draft: Vec<Option<(u32, String)>>,
}

/// How a protected target answers a write: its outcome, why, and which
/// checks failed (`None` where the target checks nothing).
type WriteVerdict = (Outcome, Option<Reason>, Option<CheckSet>);

impl TargetRuntime {
    /// `idempotency_key`: the first write under an operation key applies,
    /// a repeat is a duplicate.
    fn admit_once(&mut self, op_key: usize) -> WriteVerdict {
        let (word, bit) = (op_key / 64, 1u64 << (op_key % 64));
        match self.applied.get_mut(word) {
            Some(bits) if *bits & bit != 0 => (Outcome::Duplicate, None, None),
            Some(bits) => {
                *bits |= bit;
                (Outcome::Ok, None, None)
            }
            None => (Outcome::Ok, None, None),
        }
    }

    /// `highest_token`: a write needs a token no lower than any seen.
    fn admit_highest(&mut self, token: Option<u64>) -> WriteVerdict {
        match (token, self.state.highest) {
            (Some(carried), Some(highest)) if carried < highest => (
                Outcome::Rejected,
                Some(Reason::StaleToken),
                Some(CheckSet::EMPTY.with(Check::Fence)),
            ),
            (Some(carried), _) => {
                self.state.highest = Some(carried);
                (Outcome::Ok, None, Some(CheckSet::EMPTY))
            }
            (None, _) => (
                Outcome::Rejected,
                Some(Reason::StaleToken),
                Some(CheckSet::EMPTY.with(Check::Fence)),
            ),
        }
    }

    /// `registered_token`: a write needs the registered generation's token.
    fn admit_registered(&self, token: Option<u64>) -> WriteVerdict {
        if token.is_some() && token == self.state.registered {
            (Outcome::Ok, None, Some(CheckSet::EMPTY))
        } else {
            (
                Outcome::Rejected,
                Some(Reason::NotRegistered),
                Some(CheckSet::EMPTY.with(Check::Fence)),
            )
        }
    }

    /// `check_batch`: whether a write carrying `token` and batch `batch`
    /// is not above the highest (token, batch) pair applied here (C18).
    /// A write without a token sorts below every token, as SQL's `NULL`
    /// fails `fence < :f`.
    fn batch_is_stale(&self, token: Option<u64>, batch: u32) -> bool {
        self.state
            .progress
            .is_some_and(|highest| (token, batch) <= highest)
    }

    /// `versioned`: a write is only a draft until the worker's finish
    /// switches to its latest one.
    fn keep_draft(&mut self, index: u32, worker: WorkerIdx, value_text: &str) -> WriteVerdict {
        self.state.drafts.push((index, value_text.to_owned()));
        if let Some(latest) = self.latest_draft.get_mut(usize::from(worker)) {
            *latest = Some((index, value_text.to_owned()));
        }
        (Outcome::Ok, Some(Reason::Draft), None)
    }
}

impl<'s> Engine<'s> {
    fn new(scenario: &'s Scenario) -> Engine<'s> {
        let jobs = scenario.jobs.len();
        let workers = scenario.workers.len();
        let op_keys = scenario.ops.len() + jobs * scenario.targets.len();
        Engine {
            scenario,
            rows: vec![Row::INITIAL; jobs],
            lock_holder: vec![None; jobs],
            holdings: vec![None; workers * jobs],
            observed: vec![None; workers * jobs],
            actors: vec![WorkerState::default(); workers + 1],
            waiters: Vec::new(),
            targets: scenario
                .targets
                .iter()
                .map(|_| TargetRuntime {
                    state: TargetState::default(),
                    applied: vec![0; op_keys.div_ceil(64)],
                    latest_draft: vec![None; workers],
                })
                .collect(),
            in_flight: vec![None; scenario.requests.len()],
            intents: Vec::new(),
            oracle: Oracle::new(jobs),
            rng: TokenRng::new(scenario.seed),
            records: Vec::with_capacity(scenario.steps.len()),
        }
    }

    fn finish(self) -> Trace {
        let verdicts = self.oracle.into_verdicts();
        Trace {
            steps: self.records,
            violations: verdicts.violations,
            should_reject: verdicts.should_reject,
            may_reject: verdicts.may_reject,
            reconcile: verdicts.reconcile,
            reconcile_in_flight: verdicts.reconcile_in_flight,
            final_rows: self.rows,
            generations: verdicts.generations,
            final_targets: self.targets.into_iter().map(|t| t.state).collect(),
        }
    }

    fn user_actor(&self) -> usize {
        self.scenario.workers.len()
    }

    fn actor_of(&self, step: &Step) -> usize {
        step.worker.map_or(self.user_actor(), usize::from)
    }

    fn slot(&self, worker: WorkerIdx, job: JobIdx) -> usize {
        usize::from(worker) * self.scenario.jobs.len() + usize::from(job)
    }

    fn holding(&self, worker: WorkerIdx, job: JobIdx) -> Option<Holding> {
        self.holdings.get(self.slot(worker, job)).copied().flatten()
    }

    fn row(&self, job: JobIdx) -> Row {
        self.rows
            .get(usize::from(job))
            .copied()
            .unwrap_or(Row::INITIAL)
    }

    fn db_now(&self, at: u64) -> i64 {
        at as i64 + self.scenario.db_offset
    }

    /// The time the design's lease clock reads for `worker` at true time `at`.
    fn lease_now(&self, worker: Option<WorkerIdx>, at: u64) -> i64 {
        match (self.scenario.design.lease_clock, worker) {
            (LeaseClock::Worker, Some(w)) => {
                at as i64
                    + self
                        .scenario
                        .worker_offsets
                        .get(usize::from(w))
                        .copied()
                        .unwrap_or(0)
            }
            _ => self.db_now(at),
        }
    }

    fn step(&mut self, index: u32, step: &Step) {
        self.records.push(StepTrace::BLANK);
        let actor = self.actor_of(step);
        let Some(state) = self.actors.get(actor) else {
            return;
        };
        if state.crashed {
            self.record(index).reason = Some(Reason::Crashed);
            return;
        }
        if state.waiting.is_some() && step.action != Action::Crash {
            self.record(index).reason = Some(Reason::Blocked);
            return;
        }
        let job = self.resolve_job(step);
        self.record(index).job = Some(job);
        if step.action.needs_row_lock()
            && let Some(holder) = self.lock_holder.get(usize::from(job)).copied().flatten()
            && Some(holder) != step.worker
        {
            if !self.matches_committed_row(step, job) {
                self.run_on_committed_row(index, step, job);
            } else if step.action.waits_for_row_lock() {
                self.wait_for_lock(index, actor, job, usize::from(holder), step.at);
            } else {
                self.lock_not_available(index, actor, step.at);
            }
            return;
        }
        self.execute(index, step, job, step.at);
    }

    /// `NOWAIT` on a row another transaction has locked: the statement
    /// fails at once instead of waiting, and — like every failed statement
    /// inside a transaction, the deadlock victim's included — its
    /// transaction is rolled back (PostgreSQL aborts it; the application
    /// ends it with `ROLLBACK`).
    fn lock_not_available(&mut self, index: u32, actor: usize, at: u64) {
        let record = self.record(index);
        record.outcome = Outcome::Rejected;
        record.reason = Some(Reason::LockNotAvailable);
        record.rows = Some(0);
        if let Ok(worker) = WorkerIdx::try_from(actor) {
            self.end_transaction(worker, false, at);
        }
    }

    /// Whether the statement's `WHERE` holds on the row's last committed
    /// version. PostgreSQL evaluates a statement on that version first and
    /// waits for another transaction's lock only on a row it matched; an
    /// `update_claim` the worker does not send (its read did not see the
    /// row claimable) never reaches the row at all.
    fn matches_committed_row(&self, step: &Step, job: JobIdx) -> bool {
        let reader = step.worker.unwrap_or(WorkerIdx::MAX);
        let row = self.visible_row(reader, job);
        let now = self.lease_now(step.worker, step.at);
        let holds = |checks: CheckSet| match step.worker {
            Some(worker) => self
                .failed_checks_on(row, checks, worker, job, now)
                .is_empty(),
            None => checks.is_empty(),
        };
        match step.action {
            Action::Claim => row.state.is_open() && lease_over(row, now),
            Action::Renew => holds(self.scenario.design.renew_checks),
            Action::Finish | Action::Fail => holds(self.scenario.design.commit_checks),
            Action::Cancel | Action::Revise => row.state.is_open(),
            Action::UpdateClaim => step.worker.is_some_and(|worker| {
                self.observed.get(self.slot(worker, job)).copied().flatten() == Some(true)
            }),
            // Their `WHERE` names only the row: it always matches, so a
            // `select_nowait` on a row another transaction locked fails.
            Action::SelectForUpdate | Action::SelectNowait => true,
            _ => true,
        }
    }

    /// A statement that matched no row on the committed version does not
    /// wait: it runs at once against that version and changes nothing (its
    /// `WHERE` is false there, so the row is only read, never written).
    fn run_on_committed_row(&mut self, index: u32, step: &Step, job: JobIdx) {
        let reader = step.worker.unwrap_or(WorkerIdx::MAX);
        let committed = self.visible_row(reader, job);
        let Some(slot) = self.rows.get_mut(usize::from(job)) else {
            return;
        };
        let current = std::mem::replace(slot, committed);
        self.execute(index, step, job, step.at);
        if let Some(slot) = self.rows.get_mut(usize::from(job)) {
            *slot = current;
        }
    }

    fn record(&mut self, index: u32) -> &mut StepTrace {
        let position = index as usize;
        if position >= self.records.len() {
            self.records.resize(position + 1, StepTrace::BLANK);
        }
        &mut self.records[position]
    }

    /// MODEL.md §4: a step's job is the one it names, else the worker's
    /// current job, else the first job.
    fn resolve_job(&self, step: &Step) -> JobIdx {
        step.job
            .or_else(|| {
                step.worker
                    .and_then(|w| self.actors.get(usize::from(w)))
                    .and_then(|state| state.current_job)
            })
            .unwrap_or(0)
    }

    fn wait_for_lock(&mut self, index: u32, actor: usize, job: JobIdx, holder: usize, at: u64) {
        if self.closes_wait_cycle(actor, holder) {
            let record = self.record(index);
            record.outcome = Outcome::Rejected;
            record.reason = Some(Reason::Deadlock);
            record.rows = Some(0);
            if let Ok(worker) = WorkerIdx::try_from(actor) {
                self.end_transaction(worker, false, at);
            }
            return;
        }
        self.record(index).outcome = Outcome::Waiting;
        if let Some(state) = self.actors.get_mut(actor) {
            state.waiting = Some(index);
        }
        // The user's actor never holds a lock, so any index reads as "another".
        let reader = WorkerIdx::try_from(actor).unwrap_or(WorkerIdx::MAX);
        let row = self.visible_row(reader, job);
        self.waiters.push(Waiter {
            actor,
            step: index,
            job,
            row,
        });
    }

    /// Whether `actor` waiting for `holder` would close a cycle: `holder`
    /// (transitively) waits for a lock `actor` holds.
    fn closes_wait_cycle(&self, actor: usize, holder: usize) -> bool {
        let mut current = holder;
        for _ in 0..self.actors.len() {
            if current == actor {
                return true;
            }
            let Some(waiter) = self.waiters.iter().find(|w| w.actor == current) else {
                return false;
            };
            match self
                .lock_holder
                .get(usize::from(waiter.job))
                .copied()
                .flatten()
            {
                Some(next) => current = usize::from(next),
                None => return false,
            }
        }
        false
    }

    fn execute(&mut self, index: u32, step: &Step, job: JobIdx, at: u64) {
        let Some(worker) = step.worker else {
            match step.action {
                Action::Cancel => self.cancel(index, job),
                Action::Revise => self.revise(index, job),
                Action::Deliver => self.deliver(index, step, at),
                _ => {}
            }
            return;
        };
        match step.action {
            Action::Claim => self.claim(index, worker, job, at),
            Action::ClaimNext => match self.next_claimable(step, worker, at) {
                Some(next) => {
                    self.record(index).job = Some(next);
                    self.claim(index, worker, next, at);
                }
                None => self.none_available(index),
            },
            Action::Renew => self.renew(index, worker, job, at),
            Action::Finish => self.commit_end(index, worker, job, at, JobState::Done),
            Action::Fail => self.commit_end(index, worker, job, at, JobState::Failed),
            Action::Cancel => self.cancel(index, job),
            Action::Revise => self.revise(index, job),
            Action::Write => {
                if let Some(target) = step.target {
                    self.write(index, step, worker, job, target, at);
                }
            }
            Action::Deliver => self.deliver(index, step, at),
            Action::Register => {
                if let Some(target) = step.target {
                    self.register(index, worker, job, target, at);
                }
            }
            Action::Check => self.check(index, worker, job, at),
            Action::Crash => self.crash(index, worker, at),
            Action::Pause | Action::Resume => {}
            Action::Begin => self.begin(index, worker),
            Action::Commit | Action::Rollback => {
                self.close_transaction(index, worker, step.action == Action::Commit, at);
            }
            Action::Select => self.select(index, worker, job, at),
            Action::SelectForUpdate | Action::SelectNowait => {
                self.select_for_update(index, worker, job, at);
            }
            Action::SelectSkipLocked => self.select_skip_locked(index, step, worker, at),
            Action::UpdateClaim => self.update_claim(index, worker, job, at),
        }
    }

    /// `check`: whether the worker's lease still holds, without changing it.
    fn check(&mut self, index: u32, worker: WorkerIdx, job: JobIdx, at: u64) {
        let now = self.lease_now(Some(worker), at);
        let holding = self.holding(worker, job);
        let row = self.visible_row(worker, job);
        let failed = self.failed_checks_on(row, CheckSet::ALL, worker, job, now);
        self.annotate_holding(index, worker, job, at);
        let record = self.record(index);
        record.lease_valid = Some(failed.is_empty());
        record.token = holding.and_then(|h| h.token);
        record.row = Some(row);
    }

    /// `BEGIN`: opens a transaction, unless one is already open.
    fn begin(&mut self, index: u32, worker: WorkerIdx) {
        let record_reason;
        match self.actors.get_mut(usize::from(worker)) {
            Some(state) if state.transaction.is_none() => {
                state.transaction = Some(Transaction::default());
                record_reason = None;
            }
            _ => record_reason = Some(Reason::AlreadyInTransaction),
        }
        let record = self.record(index);
        record.job = None;
        match record_reason {
            None => record.outcome = Outcome::Ok,
            reason => record.reason = reason,
        }
    }

    /// `COMMIT` or `ROLLBACK`: ends the open transaction, if there is one.
    fn close_transaction(&mut self, index: u32, worker: WorkerIdx, commit: bool, at: u64) {
        self.record(index).job = None;
        if self.in_transaction(worker) {
            self.record(index).outcome = Outcome::Ok;
            self.end_transaction(worker, commit, at);
        } else {
            self.record(index).reason = Some(Reason::NoTransaction);
        }
    }

    /// A plain `SELECT`: the worker reads the row and remembers whether it
    /// looked claimable, taking no lock.
    fn select(&mut self, index: u32, worker: WorkerIdx, job: JobIdx, at: u64) {
        let claimable = self.observe(worker, job, at);
        self.set_current_job(worker, job);
        let row = self.visible_row(worker, job);
        let record = self.record(index);
        record.reason = Some(claimable_reason(claimable));
        record.row = Some(row);
    }

    /// `SELECT ... FOR UPDATE` (and `NOWAIT` on a row it may lock): the
    /// read of [`Self::select`], holding the row's lock until the
    /// transaction ends.
    fn select_for_update(&mut self, index: u32, worker: WorkerIdx, job: JobIdx, at: u64) {
        let claimable = self.observe(worker, job, at);
        self.take_lock(worker, job);
        self.set_current_job(worker, job);
        let row = self.row(job);
        let record = self.record(index);
        record.outcome = Outcome::Ok;
        record.reason = Some(claimable_reason(claimable));
        record.row = Some(row);
    }

    /// `SELECT ... FOR UPDATE SKIP LOCKED`: locks the first claimable job
    /// no one else has locked, or finds none.
    fn select_skip_locked(&mut self, index: u32, step: &Step, worker: WorkerIdx, at: u64) {
        match self.next_claimable(step, worker, at) {
            Some(next) => {
                self.observe(worker, next, at);
                self.take_lock(worker, next);
                self.set_current_job(worker, next);
                let row = self.row(next);
                let record = self.record(index);
                record.job = Some(next);
                record.outcome = Outcome::Ok;
                record.reason = Some(Reason::Claimable);
                record.row = Some(row);
            }
            None => self.none_available(index),
        }
    }

    /// The `UPDATE` after a read: it claims only when the worker's last read
    /// saw the job claimable, and a claim uses that read up.
    fn update_claim(&mut self, index: u32, worker: WorkerIdx, job: JobIdx, at: u64) {
        let slot = self.slot(worker, job);
        let believed = self.observed.get(slot).copied().flatten();
        if believed == Some(true) {
            if let Some(seen) = self.observed.get_mut(slot) {
                *seen = None;
            }
            self.grant(index, worker, job, at);
        } else {
            let record = self.record(index);
            record.reason = Some(Reason::NotClaimable);
            record.rows = Some(0);
        }
    }

    fn none_available(&mut self, index: u32) {
        let record = self.record(index);
        record.job = None;
        record.reason = Some(Reason::NoneAvailable);
        record.rows = Some(0);
    }

    fn in_transaction(&self, worker: WorkerIdx) -> bool {
        self.actors
            .get(usize::from(worker))
            .is_some_and(|state| state.transaction.is_some())
    }

    fn set_current_job(&mut self, worker: WorkerIdx, job: JobIdx) {
        if let Some(state) = self.actors.get_mut(usize::from(worker)) {
            state.current_job = Some(job);
        }
    }

    /// The row as `worker` reads it without waiting: the changes of another
    /// worker's open transaction stay invisible until it commits (PostgreSQL's
    /// read committed: a plain read sees the last committed version); its own
    /// are visible. Only a plain `select` or a `check` ever reads a row
    /// another transaction changed: every other statement waits for its lock.
    fn visible_row(&self, worker: WorkerIdx, job: JobIdx) -> Row {
        let committed = self
            .lock_holder
            .get(usize::from(job))
            .copied()
            .flatten()
            .filter(|holder| *holder != worker)
            .and_then(|holder| self.actors.get(usize::from(holder)))
            .and_then(|state| state.transaction.as_ref())
            .and_then(|transaction| transaction.undo.iter().find(|undo| undo.job == job))
            .map(|undo| undo.row);
        committed.unwrap_or_else(|| self.row(job))
    }

    /// Whether the row may be claimed now, as `worker` reads it: lease over
    /// and not terminal.
    fn claimable(&self, worker: WorkerIdx, job: JobIdx, at: u64) -> bool {
        let row = self.visible_row(worker, job);
        row.state.is_open() && lease_over(row, self.lease_now(Some(worker), at))
    }

    /// A read by `worker`: remembers and returns whether the row looked claimable.
    fn observe(&mut self, worker: WorkerIdx, job: JobIdx, at: u64) -> bool {
        let claimable = self.claimable(worker, job, at);
        let slot = self.slot(worker, job);
        if let Some(seen) = self.observed.get_mut(slot) {
            *seen = Some(claimable);
        }
        claimable
    }

    /// `SKIP LOCKED`: the first claimable job no other transaction has locked.
    fn next_claimable(&self, step: &Step, worker: WorkerIdx, at: u64) -> Option<JobIdx> {
        let candidates: Box<dyn Iterator<Item = JobIdx>> = match step.job {
            Some(job) => Box::new(std::iter::once(job)),
            None => Box::new(0..crate::scenario::idx16(self.scenario.jobs.len())),
        };
        let mut candidates = candidates;
        candidates.find(|&job| {
            let locked_by_other = self
                .lock_holder
                .get(usize::from(job))
                .copied()
                .flatten()
                .is_some_and(|holder| holder != worker);
            !locked_by_other && self.claimable(worker, job, at)
        })
    }

    /// Inside a transaction, a statement on a row keeps its lock until the end.
    fn take_lock(&mut self, worker: WorkerIdx, job: JobIdx) {
        let Some(transaction) = self
            .actors
            .get_mut(usize::from(worker))
            .and_then(|state| state.transaction.as_mut())
        else {
            return;
        };
        if let Some(holder) = self.lock_holder.get_mut(usize::from(job)) {
            if holder.is_none() {
                transaction.locks.push(job);
            }
            *holder = Some(worker);
        }
    }

    /// Before a transaction first modifies a row: remember how to undo it.
    fn before_modify(&mut self, index: u32, worker: WorkerIdx, job: JobIdx) {
        if !self.in_transaction(worker) {
            return;
        }
        self.take_lock(worker, job);
        let row = self.row(job);
        let oracle = self.oracle.mark(job);
        let holding = self.holding(worker, job);
        if let Some(transaction) = self
            .actors
            .get_mut(usize::from(worker))
            .and_then(|state| state.transaction.as_mut())
        {
            if !transaction.undo.iter().any(|undo| undo.job == job) {
                transaction.undo.push(Undo {
                    job,
                    row,
                    oracle,
                    holding,
                });
            }
            transaction.effects.push(index);
        }
    }

    fn claim(&mut self, index: u32, worker: WorkerIdx, job: JobIdx, at: u64) {
        let row = self.row(job);
        // An UPDATE locks only the rows its WHERE clause matched, so a refused
        // claim takes no lock.
        if !row.state.is_open() || !lease_over(row, self.lease_now(Some(worker), at)) {
            let reason = if row.state.is_open() {
                Reason::LeaseHeld
            } else {
                Reason::Terminal
            };
            let record = self.record(index);
            record.outcome = Outcome::Rejected;
            record.reason = Some(reason);
            record.rows = Some(0);
            record.row = Some(row);
            return;
        }
        self.grant(index, worker, job, at);
    }

    /// Writes a claim into the row unconditionally: `claim` after its
    /// predicates held, `update_claim` on the strength of an earlier read.
    fn grant(&mut self, index: u32, worker: WorkerIdx, job: JobIdx, at: u64) {
        self.before_modify(index, worker, job);
        let now = self.lease_now(Some(worker), at);
        let ttl = self.scenario.ttl as i64;
        let owner = self
            .scenario
            .workers
            .get(usize::from(worker))
            .map(|w| w.owner);
        let token_kind = self.scenario.design.token;
        let fence = match token_kind {
            TokenKind::Random => self.rng.next_token(),
            TokenKind::Monotonic | TokenKind::None => self.row(job).fence.saturating_add(1),
        };
        let row = Row {
            owner,
            lease_until: Some(now + ttl),
            fence,
            state: JobState::Running,
        };
        if let Some(slot) = self.rows.get_mut(usize::from(job)) {
            *slot = row;
        }
        let token = (token_kind != TokenKind::None).then_some(fence);
        let generation = self.oracle.grant(job, now + ttl);
        self.list_in_flight(job, generation, Some(worker));
        let slot = self.slot(worker, job);
        if let Some(holding) = self.holdings.get_mut(slot) {
            *holding = Some(Holding { token, generation });
        }
        self.set_current_job(worker, job);
        if self.scenario.design.register_on_claim {
            for (target, spec) in self.targets.iter_mut().zip(&self.scenario.targets) {
                if spec.protect == Protect::RegisteredToken {
                    target.state.registered = token;
                }
            }
        }
        let record = self.record(index);
        record.outcome = Outcome::Ok;
        record.token = token;
        record.generation = Some(generation);
        record.rows = Some(1);
        record.lease_until = row.lease_until;
        record.row = Some(row);
    }

    /// The predicates of `checks` that are false for `worker` on the row.
    fn failed_checks(
        &self,
        checks: CheckSet,
        worker: WorkerIdx,
        job: JobIdx,
        now: i64,
    ) -> CheckSet {
        self.failed_checks_on(self.row(job), checks, worker, job, now)
    }

    /// [`Self::failed_checks`] on `row` as the worker reads it.
    fn failed_checks_on(
        &self,
        row: Row,
        checks: CheckSet,
        worker: WorkerIdx,
        job: JobIdx,
        now: i64,
    ) -> CheckSet {
        let token = self.holding(worker, job).and_then(|h| h.token);
        self.failed_checks_for(row, checks, worker, token, now)
    }

    /// The predicates of `checks` that are false on `row` for `worker`
    /// carrying `token` (a request carries the token it was sent with).
    fn failed_checks_for(
        &self,
        row: Row,
        checks: CheckSet,
        worker: WorkerIdx,
        token: Option<u64>,
        now: i64,
    ) -> CheckSet {
        let identity = self
            .scenario
            .workers
            .get(usize::from(worker))
            .map(|w| w.owner);
        checks
            .iter()
            .filter(|check| match check {
                Check::Owner => row.owner.is_none() || row.owner != identity,
                Check::Fence => token != Some(row.fence),
                Check::Lease => lease_over(row, now),
                Check::State => row.state != JobState::Running,
            })
            .collect()
    }

    /// Fills `generation` and `expired` for a step by a worker about its job.
    fn annotate_holding(&mut self, index: u32, worker: WorkerIdx, job: JobIdx, at: u64) {
        let Some(holding) = self.holding(worker, job) else {
            return;
        };
        let expired = self
            .oracle
            .lease_expired(job, holding.generation, self.db_now(at));
        let record = self.record(index);
        record.generation = Some(holding.generation);
        record.expired = Some(expired);
    }

    /// Asks the oracle about an effect-capable step before it runs.
    fn judge(&mut self, index: u32, worker: WorkerIdx, job: JobIdx) -> crate::oracle::Judgement {
        let generation = self.holding(worker, job).map_or(0, |h| h.generation);
        let judgement = self.oracle.judge(index, job, generation);
        self.record(index).newest_generation = Some(judgement.newest);
        judgement
    }

    /// A conditional `UPDATE` of the job row by `worker`: `apply` runs when
    /// every predicate of `checks` holds; the outcome is recorded either way.
    fn guarded_update(
        &mut self,
        index: u32,
        worker: WorkerIdx,
        job: JobIdx,
        at: u64,
        checks: CheckSet,
        apply: impl FnOnce(&mut Self, i64),
    ) {
        let now = self.lease_now(Some(worker), at);
        let failed = self.failed_checks(checks, worker, job, now);
        let judgement = self.judge(index, worker, job);
        self.annotate_holding(index, worker, job, at);
        let token = self.holding(worker, job).and_then(|h| h.token);
        let applied = failed.is_empty();
        if applied {
            self.before_modify(index, worker, job);
            apply(self, now);
            self.oracle.effect(index, judgement);
        }
        let row = self.row(job);
        let record = self.record(index);
        record.outcome = if applied {
            Outcome::Ok
        } else {
            Outcome::Rejected
        };
        record.rows = Some(u8::from(applied));
        record.row = Some(row);
        record.token = token;
        record.failed_checks = Some(failed);
    }

    fn renew(&mut self, index: u32, worker: WorkerIdx, job: JobIdx, at: u64) {
        let checks = self.scenario.design.renew_checks;
        self.guarded_update(index, worker, job, at, checks, |engine, now| {
            let lease_until = now + engine.scenario.ttl as i64;
            if let Some(row) = engine.rows.get_mut(usize::from(job)) {
                row.lease_until = Some(lease_until);
            }
            engine.oracle.renewed(job, lease_until);
            engine.record(index).lease_until = Some(lease_until);
        });
    }

    /// `finish` (to `done`) or `fail` (to `failed`): the commit.
    fn commit_end(&mut self, index: u32, worker: WorkerIdx, job: JobIdx, at: u64, end: JobState) {
        let checks = self.scenario.design.commit_checks;
        self.guarded_update(index, worker, job, at, checks, |engine, _| {
            if let Some(row) = engine.rows.get_mut(usize::from(job)) {
                row.state = end;
            }
            let generation = engine.holding(worker, job).map_or(0, |h| h.generation);
            engine.oracle.ended(job, generation);
            if end == JobState::Done {
                engine.switch_official_values(worker);
                engine.approve_intents(index, worker, job);
            }
        });
    }

    /// A `finish` approves the worker's intents for the job: dispatched now,
    /// or when the transaction it is in commits.
    fn approve_intents(&mut self, index: u32, worker: WorkerIdx, job: JobIdx) {
        if let Some(transaction) = self
            .actors
            .get_mut(usize::from(worker))
            .and_then(|state| state.transaction.as_mut())
        {
            transaction.approved.push((worker, job));
        } else {
            self.dispatch_intents(index, worker, job);
        }
    }

    /// The dispatcher sends the approved intents of `worker` for `job`,
    /// during step `index` (the commit): a request goes in flight, anything
    /// else lands at once. The target checks nothing; the oracle judges the
    /// effect by the generation that committed.
    fn dispatch_intents(&mut self, index: u32, worker: WorkerIdx, job: JobIdx) {
        let generation = self.holding(worker, job).map_or(0, |h| h.generation);
        let (approved, waiting): (Vec<Intent>, Vec<Intent>) = self
            .intents
            .iter()
            .partition(|intent| intent.worker == worker && intent.job == job);
        self.intents = waiting;
        for intent in approved {
            if let Some(record) = self.records.get_mut(intent.write_step as usize) {
                record.approved_step = Some(index);
            }
            if let Some(request) = intent.request {
                if let Some(slot) = self.in_flight.get_mut(request as usize) {
                    *slot = Some(InFlight {
                        send_step: intent.write_step,
                        worker,
                        job,
                        target: intent.target,
                        token: intent.token,
                        generation,
                    });
                }
                continue;
            }
            let Some(sent) = self.scenario.steps.get(intent.write_step as usize) else {
                continue;
            };
            // Landing at once, it is judged with the commit that approved
            // it (the same generation at the same moment): that commit's
            // violation, if any, is this effect's too, so none is added.
            let value_text = self.scenario.value_text(sent.value, worker);
            if let Some(runtime) = self.targets.get_mut(usize::from(intent.target)) {
                runtime.state.value = Some((value_text, index));
            }
            self.oracle.remote_effect(job, index);
        }
    }

    /// A committed finish makes the worker's latest drafts official.
    fn switch_official_values(&mut self, worker: WorkerIdx) {
        for (target, spec) in self.targets.iter_mut().zip(&self.scenario.targets) {
            if spec.protect != Protect::Versioned {
                continue;
            }
            if let Some(Some((step, value))) = target.latest_draft.get(usize::from(worker)) {
                target.state.value = Some((value.clone(), *step));
            }
        }
    }

    fn cancel(&mut self, index: u32, job: JobIdx) {
        let epoch = self.scenario.design.cancel_epoch;
        self.user_update(index, job, epoch, |engine| {
            if let Some(row) = engine.rows.get_mut(usize::from(job)) {
                row.state = JobState::Cancelled;
            }
            engine.oracle.cancelled(job);
        });
    }

    /// The user's `revise`: the input of an open job changes. Under the
    /// design's `input_revision` the fence advances with it and is
    /// registered like a cancel epoch; the oracle judges whatever the
    /// generations granted so far do from now on as stale, and their
    /// requests still in flight go to reconciliation. A job that has ended
    /// keeps its input (`terminal`).
    fn revise(&mut self, index: u32, job: JobIdx) {
        let advance = self.scenario.design.input_revision;
        self.user_update(index, job, advance, |engine| engine.oracle.revised(job));
    }

    /// A statement of the user's on `job` (a cancel, a revise): on an open
    /// job it takes effect (`change`, then the fence advanced and
    /// registered when `advance_fence`, and the job's requests in flight
    /// listed for reconciliation); on an ended one it changes nothing
    /// (`terminal`).
    fn user_update(
        &mut self,
        index: u32,
        job: JobIdx,
        advance_fence: bool,
        change: impl FnOnce(&mut Self),
    ) {
        let open = self.row(job).state.is_open();
        let record = self.record(index);
        if open {
            record.outcome = Outcome::Ok;
            record.rows = Some(1);
            if advance_fence && let Some(row) = self.rows.get_mut(usize::from(job)) {
                row.fence = row.fence.saturating_add(1);
            }
            change(self);
            if advance_fence {
                self.register_epoch(job);
            }
            self.list_in_flight(job, u32::MAX, None);
        } else {
            record.reason = Some(Reason::Terminal);
            record.rows = Some(0);
        }
        let row = self.row(job);
        self.record(index).row = Some(row);
    }

    /// A cancel under `cancel_epoch`: the row's new fence is registered
    /// where claims register tokens, so the old generation's token no
    /// longer matches there.
    fn register_epoch(&mut self, job: JobIdx) {
        if !self.scenario.design.register_on_claim {
            return;
        }
        let fence = self.row(job).fence;
        let epoch = (self.scenario.design.token != TokenKind::None).then_some(fence);
        for (target, spec) in self.targets.iter_mut().zip(&self.scenario.targets) {
            if spec.protect == Protect::RegisteredToken {
                target.state.registered = epoch;
            }
        }
    }

    /// Lists for reconciliation every request of `job` in flight whose
    /// generation is older than `newer` (`u32::MAX`: all of them, on cancel).
    /// A takeover by `claimer` inside a transaction remembers what it listed,
    /// so that a rollback can unlist it.
    fn list_in_flight(&mut self, job: JobIdx, newer: u32, claimer: Option<WorkerIdx>) {
        let mut listed = Vec::new();
        for request in self.in_flight.iter().flatten() {
            if request.job == job
                && request.generation < newer
                && self.oracle.pending(request.send_step)
            {
                listed.push(request.send_step);
            }
        }
        if let Some(transaction) = claimer
            .and_then(|worker| self.actors.get_mut(usize::from(worker)))
            .and_then(|state| state.transaction.as_mut())
        {
            transaction.listed_in_flight.extend(listed);
        }
    }

    /// A `write`: instantaneous, or with a request id only sent. What is
    /// checked at send is the worker's own state and a sending gateway;
    /// everything else is checked when the request arrives.
    fn write(
        &mut self,
        index: u32,
        step: &Step,
        worker: WorkerIdx,
        job: JobIdx,
        target: TargetIdx,
        at: u64,
    ) {
        let Some(spec) = self.scenario.targets.get(usize::from(target)) else {
            return;
        };
        let protect = spec.protect;
        let holding = self.holding(worker, job);
        let token = holding.and_then(|h| h.token);
        if protect == Protect::ApprovedIntent {
            // Nothing leaves the worker: the intent waits for the commit.
            self.annotate_holding(index, worker, job, at);
            self.oracle
                .judge_harmless(index, job, holding.map_or(0, |h| h.generation));
            self.intents.push(Intent {
                write_step: index,
                worker,
                job,
                target,
                token,
                request: step.request,
            });
            let record = self.record(index);
            record.token = token;
            record.outcome = Outcome::Noop;
            record.reason = Some(Reason::Intent);
            return;
        }
        let Some(request) = step.request else {
            // Check and effect in one instant. A draft changes no protected
            // state: the oracle only notes whether it was stale.
            let generation = holding.map_or(0, |h| h.generation);
            let judgement = if protect == Protect::Versioned {
                self.oracle.judge_harmless(index, job, generation);
                None
            } else {
                let judgement = self
                    .oracle
                    .judge_write(index, job, generation, target, step.batch);
                self.record(index).newest_generation = Some(judgement.newest);
                Some(judgement)
            };
            self.annotate_holding(index, worker, job, at);
            let gateway_failed = matches!(protect, Protect::Gateway | Protect::SendingGateway)
                .then(|| {
                    let now = self.lease_now(Some(worker), at);
                    self.failed_checks(self.scenario.design.commit_checks, worker, job, now)
                });
            self.arrive(
                index,
                step,
                worker,
                job,
                target,
                token,
                judgement,
                gateway_failed,
            );
            return;
        };
        self.annotate_holding(index, worker, job, at);
        // Sending changes no protected state; the arrival is judged.
        self.oracle
            .judge_harmless(index, job, holding.map_or(0, |h| h.generation));
        let refused = (protect == Protect::SendingGateway).then(|| {
            let now = self.lease_now(Some(worker), at);
            self.failed_checks(self.scenario.design.commit_checks, worker, job, now)
        });
        let record = self.record(index);
        record.token = token;
        match refused {
            Some(failed) if !failed.is_empty() => {
                record.outcome = Outcome::Rejected;
                record.failed_checks = Some(failed);
            }
            failed => {
                record.outcome = Outcome::Noop;
                record.reason = Some(Reason::Sent);
                record.failed_checks = failed;
                if let Some(slot) = self.in_flight.get_mut(request as usize) {
                    *slot = Some(InFlight {
                        send_step: index,
                        worker,
                        job,
                        target,
                        token,
                        generation: holding.map_or(0, |h| h.generation),
                    });
                }
            }
        }
    }

    /// A `deliver`: the request arrives and the target decides now, by its
    /// state now; the oracle judges it by the generations and terminal facts
    /// now, with the generation the request was sent with.
    fn deliver(&mut self, index: u32, step: &Step, at: u64) {
        let request = step
            .request
            .and_then(|r| self.in_flight.get_mut(r as usize))
            .and_then(Option::take);
        let Some(request) = request else {
            self.record(index).reason = Some(Reason::NotSent);
            self.record(index).job = None;
            return;
        };
        let scenario = self.scenario;
        let Some(sent) = scenario.steps.get(request.send_step as usize) else {
            return;
        };
        if let Some(send_record) = self.records.get_mut(request.send_step as usize) {
            send_record.request_step = Some(index);
        }
        let (worker, job, target) = (request.worker, request.job, request.target);
        let protect = scenario
            .targets
            .get(usize::from(target))
            .map_or(Protect::None, |t| t.protect);
        let judgement = if protect == Protect::Versioned {
            self.oracle.judge_harmless(index, job, request.generation);
            None
        } else {
            let judgement =
                self.oracle
                    .judge_write(index, job, request.generation, target, sent.batch);
            self.record(index).newest_generation = Some(judgement.newest);
            Some(judgement)
        };
        let expired = self
            .oracle
            .lease_expired(job, request.generation, self.db_now(at));
        let gateway_failed = (protect == Protect::Gateway).then(|| {
            let now = self.lease_now(Some(worker), at);
            self.failed_checks_for(
                self.row(job),
                scenario.design.commit_checks,
                worker,
                request.token,
                now,
            )
        });
        let record = self.record(index);
        record.job = Some(job);
        record.request_step = Some(request.send_step);
        record.generation = (request.generation > 0).then_some(request.generation);
        record.expired = record.generation.map(|_| expired);
        self.arrive(
            index,
            sent,
            worker,
            job,
            target,
            request.token,
            judgement,
            gateway_failed,
        );
    }

    /// The target decides on a write arriving now (a plain write arrives as
    /// it is sent); an applied one is an effect. A sending gateway checked
    /// at send, so what reaches the target here is accepted.
    #[allow(clippy::too_many_arguments)]
    fn arrive(
        &mut self,
        index: u32,
        sent: &Step,
        worker: WorkerIdx,
        job: JobIdx,
        target: TargetIdx,
        token: Option<u64>,
        judgement: Option<crate::oracle::Judgement>,
        gateway_failed: Option<CheckSet>,
    ) {
        let Some(spec) = self.scenario.targets.get(usize::from(target)) else {
            return;
        };
        let protect = spec.protect;
        let op_key = match sent.op {
            OpRef::Named(named) => named as usize,
            OpRef::JobTarget => {
                self.scenario.ops.len()
                    + usize::from(job) * self.scenario.targets.len()
                    + usize::from(target)
            }
        };
        let value_text = self.scenario.value_text(sent.value, worker);
        let Some(runtime) = self.targets.get_mut(usize::from(target)) else {
            return;
        };
        // The batch check sits behind the target's protection (its refusal
        // is said first) but is decided before an idempotency key is used
        // up, so a refused batch can still be sent again.
        let batch = sent
            .batch
            .filter(|_| spec.check_batch && protect != Protect::Versioned);
        let stale_batch = batch.is_some_and(|batch| runtime.batch_is_stale(token, batch));
        let (outcome, reason, failed) = match protect {
            Protect::None => (Outcome::Ok, None, None),
            // Refused below: the key is not consulted, so not used up.
            Protect::IdempotencyKey if stale_batch => (Outcome::Ok, None, None),
            Protect::IdempotencyKey => runtime.admit_once(op_key),
            Protect::HighestToken => runtime.admit_highest(token),
            Protect::RegisteredToken => runtime.admit_registered(token),
            Protect::Gateway | Protect::SendingGateway => match gateway_failed {
                Some(failed) if !failed.is_empty() => (Outcome::Rejected, None, Some(failed)),
                failed => (Outcome::Ok, None, failed),
            },
            // Only an approved intent is ever dispatched here.
            Protect::ApprovedIntent => (Outcome::Ok, None, None),
            Protect::Versioned => runtime.keep_draft(index, worker, &value_text),
        };
        let (outcome, reason) = if outcome == Outcome::Ok && stale_batch {
            (Outcome::Rejected, Some(Reason::StaleBatch))
        } else {
            (outcome, reason)
        };
        if outcome == Outcome::Ok && protect != Protect::Versioned {
            if let Some(batch) = batch {
                runtime.state.progress = Some((token, batch));
            }
            runtime.state.value = Some((value_text, index));
            if let Some(judgement) = judgement {
                self.oracle.effect(index, judgement);
                self.oracle.remote_effect(job, index);
            }
        }
        let record = self.record(index);
        record.outcome = outcome;
        record.reason = reason;
        record.failed_checks = failed;
        record.token = token;
    }

    fn register(&mut self, index: u32, worker: WorkerIdx, job: JobIdx, target: TargetIdx, at: u64) {
        let token = self.holding(worker, job).and_then(|h| h.token);
        self.annotate_holding(index, worker, job, at);
        let Some(runtime) = self.targets.get_mut(usize::from(target)) else {
            return;
        };
        let accepted = match (token, runtime.state.registered) {
            (Some(carried), Some(registered)) => carried > registered,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if accepted {
            runtime.state.registered = token;
        }
        let record = self.record(index);
        record.token = token;
        if accepted {
            record.outcome = Outcome::Ok;
        } else {
            record.outcome = Outcome::Rejected;
            record.reason = Some(Reason::NotHigher);
            record.failed_checks = Some(CheckSet::EMPTY.with(Check::Fence));
        }
    }

    fn crash(&mut self, index: u32, worker: WorkerIdx, at: u64) {
        let actor = usize::from(worker);
        // The process is gone: its waiting statement never completes, and the
        // database notices the closed connection and rolls its transaction back.
        if let Some(step) = self.actors.get_mut(actor).and_then(|s| s.waiting.take()) {
            self.waiters.retain(|waiter| waiter.actor != actor);
            let record = self.record(step);
            record.outcome = Outcome::Noop;
            record.reason = Some(Reason::Crashed);
        }
        if self.in_transaction(worker) {
            self.end_transaction(worker, false, at);
        }
        if let Some(state) = self.actors.get_mut(actor) {
            state.crashed = true;
        }
        self.record(index).job = None;
    }

    /// Commit or roll back `worker`'s transaction, release its locks and run
    /// the statements that waited for them.
    fn end_transaction(&mut self, worker: WorkerIdx, commit: bool, at: u64) {
        let Some(transaction) = self
            .actors
            .get_mut(usize::from(worker))
            .and_then(|state| state.transaction.take())
        else {
            return;
        };
        if !commit {
            // Undo in reverse order of first modification; the row stayed
            // locked, so nobody else changed it in between.
            for undo in transaction.undo.iter().rev() {
                if let Some(row) = self.rows.get_mut(usize::from(undo.job)) {
                    *row = undo.row;
                }
                self.oracle.restore(undo.job, &undo.oracle);
                // A claim that never happened granted no generation: a
                // request sent under it still travels, held by nobody,
                // though the next claim is granted the same number.
                let granted = undo.oracle.granted();
                for request in self.in_flight.iter_mut().flatten() {
                    if request.job == undo.job && request.generation > granted {
                        request.generation = 0;
                    }
                }
                let slot = self.slot(worker, undo.job);
                if let Some(holding) = self.holdings.get_mut(slot) {
                    *holding = undo.holding;
                }
            }
            self.oracle.forget_effects(&transaction.effects);
            self.oracle.unlist_pending(&transaction.listed_in_flight);
        } else {
            // The commit is the step being run: the last one recorded.
            let commit = u32::try_from(self.records.len().saturating_sub(1)).unwrap_or(u32::MAX);
            for (owner, job) in &transaction.approved {
                self.dispatch_intents(commit, *owner, *job);
            }
        }
        for job in &transaction.locks {
            if let Some(holder) = self.lock_holder.get_mut(usize::from(*job)) {
                *holder = None;
            }
        }
        self.run_waiters(at);
    }

    /// Runs, in arrival order, every waiting statement whose row is free.
    fn run_waiters(&mut self, at: u64) {
        let scenario = self.scenario;
        // Waiters run inside the step that released their lock: the last
        // step recorded.
        let releasing = u32::try_from(self.records.len().saturating_sub(1)).ok();
        let mut position = 0;
        while position < self.waiters.len() {
            let waiter = self.waiters[position];
            let free = self
                .lock_holder
                .get(usize::from(waiter.job))
                .copied()
                .flatten()
                .is_none_or(|holder| usize::from(holder) == waiter.actor);
            if !free {
                position += 1;
                continue;
            }
            self.waiters.remove(position);
            if let Some(state) = self.actors.get_mut(waiter.actor) {
                state.waiting = None;
            }
            let Some(step) = scenario.steps.get(waiter.step as usize) else {
                continue;
            };
            let record = self.record(waiter.step);
            record.outcome = Outcome::Noop;
            record.waited_until = Some(at);
            record.released_by = releasing;
            // PostgreSQL re-evaluates a statement that waited only when the
            // row changed meanwhile (a newer committed version), reading the
            // clock again; on an unchanged row (the holder only locked it, or
            // rolled back) its first evaluation stands, made with the time
            // it was sent (docs/scenario-format.md §10.2).
            // With the worker's clock, the time is the reading the worker
            // sent with the statement: a re-evaluation cannot read it again.
            let when = if self.row(waiter.job) == waiter.row
                || self.scenario.design.lease_clock == LeaseClock::Worker
            {
                step.at
            } else {
                at
            };
            self.execute(waiter.step, step, waiter.job, when);
            // Running it may have released or taken locks: start over.
            position = 0;
        }
    }
}

/// `lease_until IS NULL OR lease_until <= now`: the claim predicate, and
/// the negation of the `lease` predicate.
fn lease_over(row: Row, now: i64) -> bool {
    row.lease_until.is_none_or(|until| until <= now)
}

fn claimable_reason(claimable: bool) -> Reason {
    if claimable {
        Reason::Claimable
    } else {
        Reason::NotClaimable
    }
}

#[cfg(test)]
mod tests {
    use super::TokenRng;

    #[test]
    fn random_tokens_repeat_per_seed_and_stay_small() {
        let mut first = TokenRng::new(7);
        let mut second = TokenRng::new(7);
        for _ in 0..1000 {
            let token = first.next_token();
            assert_eq!(token, second.next_token());
            assert!((1..1_000_000).contains(&token));
        }
        assert_ne!(TokenRng::new(1).next_token(), TokenRng::new(2).next_token());
    }
}
