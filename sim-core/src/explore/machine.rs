//! The explorers' shared step function over a compact, `Copy` state.
//!
//! It implements the subset of the engine's semantics a world can reach
//! (claims by the design's claim procedure — atomic, or the reads, updates
//! and transactions of the others, with their row locks —, renews, client
//! checks, writes to targets, finishes, the user's cancel) on 56 bytes, so
//! that a breadth-first search can hash and copy states cheaply.
//!
//! A statement that would wait for another transaction's row lock is not
//! offered as a move until the lock is released (the worker is paused
//! meanwhile); one whose condition is false on the row's last committed
//! version runs at once there, as in the engine (§15.4). So a schedule
//! never holds a waiting statement, and each move is one scenario step. Its faithfulness to [`crate::run`] is tested: every
//! counterexample is replayed through the engine and must violate there too,
//! and random schedules must give the same outcomes in both.

use crate::design::{Check, CheckSet, ClaimProcedure, LeaseClock, Protect, TokenKind};
use crate::engine::TokenRng;
use crate::explore::world::{MAX_CLAIMS_BOUND, MAX_JOBS, MAX_TARGETS, MAX_WORKERS, Op, World};
use crate::trace::ViolationKind;

/// The bytes of a state: see the `*_AT` offsets for the layout.
pub(crate) const STATE_BYTES: usize = 56;

const TIME_AT: usize = 0;
/// The cancels left (low bits) and, in `REVISE_LEFT`, whether the user may
/// still revise an input.
const CANCELS_AT: usize = 1;
const REVISE_LEFT: u8 = 0x80;
const GRANTS_AT: usize = 2;
// Then the jobs, the workers and the targets, packed for the world at hand
// (see `Layout`), so a small world's state fits in its first few words.
const JOBS_AT: usize = 3;
const JOB_BYTES: usize = 6;
/// A job's bytes under a transactional claim procedure: one more, the
/// lease of the row's last committed version while an open transaction
/// has changed it (`J_COMMITTED_LEASE`).
const TX_JOB_BYTES: usize = JOB_BYTES + 1;
const WORKER_BYTES: usize = 5;
/// A worker's bytes under a `lock_both_*` claim procedure: one more, what
/// its two reads found and whether its second read waits (`W_BOTH`).
const BOTH_WORKER_BYTES: usize = WORKER_BYTES + 1;
const TARGET_BYTES: usize = 3;
/// Bytes of one slot of the requests in flight (worlds with delays only):
/// which worker's write to which target (0: empty, else `1 + worker * 4 +
/// target`), and the tick it was sent.
pub(crate) const FLIGHT_BYTES: usize = 2;
const F_KEY: usize = 0;
const F_SENT: usize = 1;
const _: () = assert!(
    JOBS_AT + MAX_JOBS * TX_JOB_BYTES + MAX_WORKERS * WORKER_BYTES + MAX_TARGETS * TARGET_BYTES
        <= STATE_BYTES
);

// Fields of a job: owner (0 none, else owner index + 1), lease_until (an i8;
// NO_LEASE = never leased), generations granted, state, terminal (0 none,
// 1 cancelled, 2 + g ended by generation g), grant number of its fence.
const J_OWNER: usize = 0;
const J_LEASE: usize = 1;
const J_GENS: usize = 2;
const J_STATE: usize = 3;
const J_TERMINAL: usize = 4;
const J_FENCE_GRANT: usize = 5;
/// `J_FENCE_GRANT`: the input was revised since the last grant, so the
/// newest generation's results are of an old input (the oracle's
/// `stale_input`). Cleared by the next grant.
const REVISED: u8 = 0x80;
/// `J_FENCE_GRANT`: under `input_revision` a revise advanced the fence, so
/// every later monotonic token is one above its generation. Kept.
const SHIFTED: u8 = 0x40;
/// `J_FENCE_GRANT`: the grant number in the low bits.
const GRANT_BITS: u8 = 0x3f;
// Transactional claim procedures only: while the transaction holding the
// row's lock has claimed it (and not committed), the lease of the version
// other workers read (the last committed one); 0 otherwise. Everything
// else of that version follows from the generation before the holder's
// (see `Machine::committed_row`). Who holds a row's lock follows from the
// workers' program counters (see `Machine::locked_by`).
const J_COMMITTED_LEASE: usize = 6;
// Fields of a worker: program counter, job, generation held (0 none), grant
// number of its claim (its token's draw), done (`DONE_*`).
const W_PC: usize = 0;
const W_JOB: usize = 1;
const W_GEN: usize = 2;
const W_GRANT: usize = 3;
/// `W_GRANT`: the claim came after a revise shifted the fence: the
/// worker's monotonic token is its generation + 1.
const W_SHIFTED: u8 = 0x40;
const W_DONE: usize = 4;
// `lock_both_*` claim procedures only: `FOUND_*`, `WAITING` and `WAIT_SAW`.
const W_BOTH: usize = 5;
/// `W_BOTH`: the first read found its row claimable.
const FOUND_FIRST: u8 = 1;
/// `W_BOTH`: the second read found its row claimable.
const FOUND_SECOND: u8 = 2;
/// `W_BOTH`: the second read waits for another transaction's row lock.
const WAITING: u8 = 4;
/// `W_BOTH`: what the waiting read will find when it runs. PostgreSQL
/// keeps the evaluation made when the statement was sent if the row is
/// unchanged when the lock is released, and it always is here: the holder
/// claims nothing before it holds both rows.
const WAIT_SAW: u8 = 8;
// Fields of a target: the token marks (see `Machine::token_mark`) of the
// highest token seen and of the registered one (0 none), and the applied
// operation ids (a bit per job).
const T_HIGHEST: usize = 0;
const T_REGISTERED: usize = 1;
const T_APPLIED: usize = 2;

/// `W_DONE`: the worker finished its program, gave up, or crashed.
const DONE: u8 = 1;
/// `W_DONE`: the worker crashed inside the transaction that claimed its
/// job, which rolled back: the generation it keeps was never granted (the
/// next claim is granted that number again), so the oracle judges its
/// requests still in flight as sent under no generation, as the engine does.
const DONE_ROLLED_BACK: u8 = 2;

const NO_LEASE: u8 = 0x80;
const STATE_READY: u8 = 0;
const STATE_RUNNING: u8 = 1;
const STATE_DONE: u8 = 2;
const STATE_CANCELLED: u8 = 3;
const TERMINAL_CANCELLED: u8 = 1;
/// A token mark with this bit is a cancel epoch (`cancel_epoch`): the fence
/// a cancel set, one above the fence of the grant in the low bits.
const EPOCH_MARK: u8 = 0x80;

/// The bytes of one job under `claim`.
fn job_bytes(claim: ClaimProcedure) -> usize {
    if claim.transactional() {
        TX_JOB_BYTES
    } else {
        JOB_BYTES
    }
}

/// The bytes of one worker under `claim`.
fn worker_bytes(claim: ClaimProcedure) -> usize {
    if claim.locks_both() {
        BOTH_WORKER_BYTES
    } else {
        WORKER_BYTES
    }
}

/// The bytes a world's state uses before its requests in flight.
pub(crate) fn fixed_bytes(
    claim: ClaimProcedure,
    jobs: usize,
    workers: usize,
    targets: usize,
) -> usize {
    JOBS_AT + jobs * job_bytes(claim) + workers * worker_bytes(claim) + targets * TARGET_BYTES
}

/// A world's state, compact and `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct State {
    bytes: [u8; STATE_BYTES],
}

impl State {
    /// The state as eight-byte words, for fingerprints.
    pub(crate) fn words(&self) -> [u64; STATE_BYTES / 8] {
        let mut words = [0u64; STATE_BYTES / 8];
        for (word, chunk) in words.iter_mut().zip(self.bytes.chunks_exact(8)) {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(chunk);
            *word = u64::from_le_bytes(eight);
        }
        words
    }

    fn byte(&self, index: usize) -> u8 {
        self.bytes[index]
    }

    fn set_byte(&mut self, index: usize, value: u8) {
        self.bytes[index] = value;
    }

    pub fn time(&self) -> u8 {
        self.byte(TIME_AT)
    }
}

/// One choice of the adversarial scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// The worker runs the next step of its program.
    Worker(u8),
    /// Time advances one tick (every paused worker stays paused).
    Tick,
    /// The user cancels the job.
    Cancel(u8),
    /// The network delivers the request in this slot of the requests in
    /// flight (worlds with delays).
    Deliver(u8),
    /// The worker crashes (worlds with crashes): its open transaction
    /// rolls back, releasing its row lock, and it takes no more steps.
    Crash(u8),
    /// The user revises the job's input (worlds with revisions).
    Revise(u8),
}

impl Move {
    /// A one-byte code, for parent links in the search.
    pub(crate) fn code(self) -> u8 {
        match self {
            Move::Worker(worker) => worker,
            Move::Tick => 0x40,
            Move::Cancel(job) => 0x80 | job,
            Move::Deliver(slot) => 0x20 | slot,
            Move::Crash(worker) => 0x10 | worker,
            Move::Revise(job) => 0x48 | job,
        }
    }

    pub(crate) fn from_code(code: u8) -> Move {
        match code {
            0x40 => Move::Tick,
            c if c & 0x80 != 0 => Move::Cancel(c & 0x7f),
            c if c & 0x48 == 0x48 => Move::Revise(c & 0x07),
            c if c & 0x20 != 0 => Move::Deliver(c & 0x1f),
            c if c & 0x10 != 0 => Move::Crash(c & 0x0f),
            c => Move::Worker(c),
        }
    }
}

/// What a move did, in the engine's vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveResult {
    /// The program step the worker ran (`None` for ticks and cancels).
    pub op: Option<Op>,
    /// `true`: it took effect (an accepted write, a granted claim, …).
    pub applied: bool,
    /// The predicates that were false, restricted to the design's set (or,
    /// at a token-checking target, `fence`).
    pub failed: CheckSet,
    /// The oracle's verdict if the move was an unsafe effect.
    pub violation: Option<ViolationKind>,
    /// The statement would have closed a cycle of row locks: the database
    /// refused it (`deadlock`) and rolled its transaction back.
    pub deadlock: bool,
}

impl MoveResult {
    const NOTHING: MoveResult = MoveResult {
        op: None,
        applied: false,
        failed: CheckSet::EMPTY,
        violation: None,
        deadlock: false,
    };
}

/// A world prepared for stepping: its program, tokens and owner table.
#[derive(Debug, Clone)]
pub struct Machine {
    pub(crate) world: World,
    program: Vec<Op>,
    /// The token of the k-th grant (index k, from 1) under the design's kind.
    tokens: [Option<u64>; MAX_CLAIMS_BOUND as usize + 1],
    /// Each worker's owner identity as the `owner` column stores it (index + 1).
    identities: [u8; MAX_WORKERS],
    /// Each worker's lease-clock offset under the design's lease clock.
    lease_offsets: [i16; MAX_WORKERS],
    workers_at: usize,
    targets_at: usize,
    /// Where the requests in flight start (worlds with delays).
    flights_at: usize,
    /// Slots for requests in flight: 0 in a world without delays.
    flight_slots: u8,
    /// The design's `cancel_epoch`, kept beside the layout for the hot path.
    cancel_epoch: bool,
    /// The bytes of one job (one more under a transactional claim).
    job_bytes: usize,
    /// The bytes of one worker (one more under `lock_both_*`).
    worker_bytes: usize,
    /// The claim locks both jobs' rows (`lock_both_*`).
    locks_both: bool,
    /// Under `lock_both_own_order`: each worker locks its favourite row
    /// first (worker `w`'s is job `w % 2`), not the lower id.
    own_order: bool,
    /// The design's claim procedure is not `atomic`.
    procedure: bool,
    /// The claim procedure takes row locks in transactions.
    locking: bool,
    /// Where the claim's read, its `update_claim` and its `commit` sit in
    /// the program (`u8::MAX` where it has none).
    read_at: u8,
    update_at: u8,
    commit_at: u8,
}

/// A claim waiting on a row lock whose holder's lease has ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocked {
    /// The worker whose claim waits.
    pub waiter: u8,
    /// The worker whose open transaction holds the lock.
    pub holder: u8,
    /// When the lease ended, by the waiter's lease clock.
    pub lease_until: i16,
}

/// A job row as a worker reads it: the current version, or the last
/// committed one while another worker's open transaction has changed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RowView {
    owner: u8,
    fence: u64,
    lease: Option<i16>,
    state: u8,
}

impl Machine {
    /// Prepares a validated world.
    pub fn new(world: World) -> Result<Machine, crate::explore::WorldError> {
        world.validate()?;
        let mut tokens = [None; MAX_CLAIMS_BOUND as usize + 1];
        if world.design.token == TokenKind::Random {
            // The engine draws one token per granted claim, in grant order.
            let mut rng = TokenRng::new(world.seed);
            for token in tokens.iter_mut().skip(1) {
                *token = Some(rng.next_token());
            }
        }
        let mut identities = [0u8; MAX_WORKERS];
        let mut lease_offsets = [0i16; MAX_WORKERS];
        for (index, worker) in world.workers.iter().enumerate() {
            identities[index] = worker.owner + 1;
            lease_offsets[index] = i16::from(match world.design.lease_clock {
                LeaseClock::Db => world.db_offset,
                LeaseClock::Worker => worker.clock_offset,
            });
        }
        let claim = world.design.claim;
        let job_bytes = job_bytes(claim);
        let program = world.program();
        let at = |wanted: fn(Op) -> bool| {
            program
                .iter()
                .position(|op| wanted(*op))
                .and_then(|index| u8::try_from(index).ok())
                .unwrap_or(u8::MAX)
        };
        let read_at = at(Op::is_claim_read);
        let update_at = at(|op| op == Op::UpdateClaim);
        let commit_at = at(|op| op == Op::Commit);
        let workers_at = JOBS_AT + usize::from(world.jobs) * job_bytes;
        let targets_at = workers_at + world.workers.len() * worker_bytes(claim);
        let flights_at = targets_at + world.targets.len() * TARGET_BYTES;
        Ok(Machine {
            program,
            tokens,
            identities,
            lease_offsets,
            workers_at,
            targets_at,
            flights_at,
            flight_slots: world.bounds.max_in_flight,
            cancel_epoch: world.design.cancel_epoch,
            job_bytes,
            worker_bytes: worker_bytes(claim),
            locks_both: claim.locks_both(),
            own_order: claim == ClaimProcedure::LockBothOwnOrder,
            procedure: claim != ClaimProcedure::Atomic,
            locking: claim.transactional(),
            read_at,
            update_at,
            commit_at,
            world,
        })
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// Whether the claim procedure takes row locks, so that a statement
    /// can wait (and a takeover be blocked).
    pub fn locks(&self) -> bool {
        self.locking
    }

    /// Whether a claim can close a lock cycle: only claims that lock both
    /// rows in each worker's own order (`lock_both_own_order`).
    pub fn can_deadlock(&self) -> bool {
        self.locks_both && self.own_order
    }

    pub fn program(&self) -> &[Op] {
        &self.program
    }

    fn job(&self, state: &State, job: u8, field: usize) -> u8 {
        state.byte(JOBS_AT + usize::from(job) * self.job_bytes + field)
    }

    fn set_job(&self, state: &mut State, job: u8, field: usize, value: u8) {
        state.set_byte(JOBS_AT + usize::from(job) * self.job_bytes + field, value);
    }

    fn worker(&self, state: &State, worker: u8, field: usize) -> u8 {
        state.byte(self.workers_at + usize::from(worker) * self.worker_bytes + field)
    }

    fn set_worker(&self, state: &mut State, worker: u8, field: usize, value: u8) {
        state.set_byte(
            self.workers_at + usize::from(worker) * self.worker_bytes + field,
            value,
        );
    }

    fn target(&self, state: &State, target: u8, field: usize) -> u8 {
        state.byte(self.targets_at + usize::from(target) * TARGET_BYTES + field)
    }

    fn set_target(&self, state: &mut State, target: u8, field: usize, value: u8) {
        state.set_byte(
            self.targets_at + usize::from(target) * TARGET_BYTES + field,
            value,
        );
    }

    fn flight(&self, state: &State, slot: u8, field: usize) -> u8 {
        state.byte(self.flights_at + usize::from(slot) * FLIGHT_BYTES + field)
    }

    fn set_flight(&self, state: &mut State, slot: u8, field: usize, value: u8) {
        state.set_byte(
            self.flights_at + usize::from(slot) * FLIGHT_BYTES + field,
            value,
        );
    }

    /// The request in flight in `slot`: `(worker, target, tick sent)`.
    pub fn in_flight(&self, state: &State, slot: u8) -> Option<(u8, u8, u8)> {
        if slot >= self.flight_slots {
            return None;
        }
        let key = self.flight(state, slot, F_KEY);
        (key != 0).then(|| {
            (
                (key - 1) / 4,
                (key - 1) % 4,
                self.flight(state, slot, F_SENT),
            )
        })
    }

    /// Whether this world's writes travel (a send, then a delivery).
    pub fn delays(&self) -> bool {
        self.flight_slots > 0
    }

    /// Adds a request to the slots, kept sorted by key (empty slots last)
    /// so that the same requests in flight are one state. `false`: full.
    fn send(&self, state: &mut State, worker: u8, target: u8) -> bool {
        let key = 1 + worker * 4 + target;
        let sent = state.time();
        let Some(free) = (0..self.flight_slots).find(|&s| self.flight(state, s, F_KEY) == 0) else {
            return false;
        };
        let mut slot = free;
        while slot > 0 && self.flight(state, slot - 1, F_KEY) > key {
            for field in [F_KEY, F_SENT] {
                let moved = self.flight(state, slot - 1, field);
                self.set_flight(state, slot, field, moved);
            }
            slot -= 1;
        }
        self.set_flight(state, slot, F_KEY, key);
        self.set_flight(state, slot, F_SENT, sent);
        true
    }

    /// Removes the request in `slot`, closing the gap.
    fn take_flight(&self, state: &mut State, slot: u8) {
        for next in slot + 1..self.flight_slots {
            for field in [F_KEY, F_SENT] {
                let moved = self.flight(state, next, field);
                self.set_flight(state, next - 1, field, moved);
            }
        }
        self.set_flight(state, self.flight_slots - 1, F_KEY, 0);
        self.set_flight(state, self.flight_slots - 1, F_SENT, 0);
    }

    fn lease_until(&self, state: &State, job: u8) -> Option<i16> {
        let raw = self.job(state, job, J_LEASE);
        (raw != NO_LEASE).then_some(i16::from(raw as i8))
    }

    /// Whether the worker has finished its program or given up.
    pub fn worker_done(&self, state: &State, worker: u8) -> bool {
        self.worker(state, worker, W_DONE) != 0
    }

    pub fn initial(&self) -> State {
        let mut state = State {
            bytes: [0; STATE_BYTES],
        };
        let revise = if self.world.allow_revise {
            REVISE_LEFT
        } else {
            0
        };
        state.set_byte(CANCELS_AT, u8::from(self.world.allow_cancel) | revise);
        for job in 0..self.world.jobs {
            self.set_job(&mut state, job, J_LEASE, NO_LEASE);
        }
        state
    }

    fn workers(&self) -> u8 {
        self.world.workers.len() as u8
    }

    /// The next program step of `worker`, if it has one.
    pub fn next_op(&self, state: &State, worker: u8) -> Option<Op> {
        if self.worker_done(state, worker) {
            return None;
        }
        self.program
            .get(usize::from(self.worker(state, worker, W_PC)))
            .copied()
    }

    /// The moves the scheduler may make, in a fixed order: workers, then
    /// the tick, then cancels. Appends to `moves` (cleared first).
    pub fn moves(&self, state: &State, moves: &mut Vec<Move>) {
        moves.clear();
        let grants_left = state.byte(GRANTS_AT) < self.world.bounds.max_claims;
        let mut tick = state.time() < self.world.bounds.max_time;
        // A write needs a free slot to be sent.
        let slots_full = self.delays() && self.flight(state, self.flight_slots - 1, F_KEY) != 0;
        if self.procedure {
            self.procedure_worker_moves(state, slots_full, moves);
        }
        if self.delays() {
            // A request in flight for `max_delay` ticks must be delivered
            // before time moves on.
            if !self.procedure {
                for worker in 0..self.workers() {
                    match self.next_op(state, worker) {
                        None => {}
                        Some(Op::Claim) if !grants_left => {}
                        Some(Op::Write(target)) if slots_full && self.sends(target) => {}
                        Some(_) => moves.push(Move::Worker(worker)),
                    }
                }
            }
            for slot in 0..self.flight_slots {
                if let Some((_, _, sent)) = self.in_flight(state, slot) {
                    moves.push(Move::Deliver(slot));
                    tick &= state.time().saturating_sub(sent) < self.world.bounds.max_delay;
                }
            }
        } else if !self.procedure {
            for worker in 0..self.workers() {
                match self.next_op(state, worker) {
                    None => {}
                    Some(Op::Claim) if !grants_left => {}
                    Some(_) => moves.push(Move::Worker(worker)),
                }
            }
        }
        if tick {
            moves.push(Move::Tick);
        }
        if state.byte(CANCELS_AT) & REVISE_LEFT != 0 {
            for job in 0..self.world.jobs {
                if is_open(self.job(state, job, J_STATE)) {
                    moves.push(Move::Revise(job));
                }
            }
        }
        if state.byte(CANCELS_AT) & !REVISE_LEFT > 0 {
            for job in 0..self.world.jobs {
                // A cancel waits for another transaction's row lock: the
                // locked row's last committed version is always open.
                if is_open(self.job(state, job, J_STATE)) && self.lock_holder(state, job).is_none()
                {
                    moves.push(Move::Cancel(job));
                }
            }
        }
        if self.world.crashes && self.locking {
            // A crash that releases no lock is a pause that never ends,
            // which the scheduler makes already: only a lock holder's crash
            // is a move of its own.
            // A worker whose read waits does not crash meanwhile (the
            // adversary gives that schedule up: its crash frees its rows
            // as a crash of a worker that does not wait does).
            for worker in 0..self.workers() {
                if self.locks_of(state, worker) != 0 && !self.waiting(state, worker) {
                    moves.push(Move::Crash(worker));
                }
            }
        }
    }

    /// The workers' moves under a claim procedure other than `atomic`: a
    /// claim's read only while the claims under way leave room in the
    /// claim bound (so `update_claim` never passes it), and no statement
    /// that would wait for another transaction's row lock.
    fn procedure_worker_moves(&self, state: &State, slots_full: bool, moves: &mut Vec<Move>) {
        let under_way = (0..self.workers())
            .filter(|&worker| {
                self.next_op(state, worker) == Some(Op::UpdateClaim)
                    || self.at_second_read(state, worker)
            })
            .count() as u8;
        let reads_left =
            state.byte(GRANTS_AT).saturating_add(under_way) < self.world.bounds.max_claims;
        for worker in 0..self.workers() {
            let Some(op) = self.next_op(state, worker) else {
                continue;
            };
            if self.waiting(state, worker) {
                continue;
            }
            let allowed = match op {
                Op::Write(target) => !slots_full || !self.sends(target),
                op if op.is_claim_read() && !self.at_second_read(state, worker) => reads_left,
                _ => true,
            };
            // A `lock_both_*` second read is a move even where it would
            // wait: it begins to wait, or closes a lock cycle.
            if allowed && (!self.waits(state, worker, op) || self.at_second_read(state, worker)) {
                moves.push(Move::Worker(worker));
            }
        }
    }

    /// Whether a write to `target` sends a request (with delays, it needs
    /// a free slot): every target's but an outbox's, which keeps an intent.
    pub(crate) fn sends(&self, target: u8) -> bool {
        self.world.targets.get(usize::from(target)) != Some(&Protect::ApprovedIntent)
    }

    /// Whether `worker`'s statement `op` would wait for another
    /// transaction's row lock: it needs the lock, and its condition holds
    /// on the row's last committed version (§15.4; otherwise it runs at
    /// once there and changes nothing).
    fn waits(&self, state: &State, worker: u8, op: Op) -> bool {
        if !self.locking {
            return false;
        }
        let checks = match op {
            // Their `WHERE` names only the row (`update_claim` is sent only
            // after a read that saw the row claimable): they always wait.
            Op::SelectForUpdate | Op::UpdateClaim => None,
            Op::Renew => Some(self.world.design.renew_checks),
            Op::Finish => Some(self.world.design.commit_checks),
            _ => return false,
        };
        let job = self.op_job(state, worker);
        if self
            .lock_holder(state, job)
            .is_none_or(|holder| holder == worker)
        {
            return false;
        }
        checks.is_none_or(|checks| {
            let row = self.visible_row(state, worker, job);
            self.false_predicates_on(state, worker, row).bits() & checks.bits() == 0
        })
    }

    /// A takeover that waits on a held lock: a worker whose claim (`SELECT
    /// … FOR UPDATE`) waits for another transaction's row lock although
    /// the job is open and its lease has ended. Safe, but live no more:
    /// nothing ends the wait but the holder's commit.
    pub fn blocked_takeover(&self, state: &State) -> Option<Blocked> {
        if !self.locking {
            return None;
        }
        (0..self.workers()).find_map(|waiter| {
            let job = self.op_job(state, waiter);
            if self.next_op(state, waiter) != Some(Op::SelectForUpdate)
                || self.waiting(state, waiter)
                || !self.waits(state, waiter, Op::SelectForUpdate)
                || !is_open(self.job(state, job, J_STATE))
            {
                return None;
            }
            let lease_until = self
                .lease_until(state, job)
                .filter(|until| *until <= self.lease_now(state, waiter))?;
            Some(Blocked {
                waiter,
                holder: self.lock_holder(state, job)?,
                lease_until,
            })
        })
    }

    /// Whether `worker` is inside its claim procedure's transaction.
    fn in_transaction(&self, state: &State, worker: u8) -> bool {
        let pc = self.worker(state, worker, W_PC);
        self.locking && !self.worker_done(state, worker) && pc >= 1 && pc <= self.commit_at
    }

    /// The jobs whose row locks `worker`'s open transaction holds, a bit
    /// per job: taken by its reads (`select_skip_locked` only when it found
    /// a row) and held until its `commit`.
    fn locks_of(&self, state: &State, worker: u8) -> u8 {
        if !self.in_transaction(state, worker) {
            return 0;
        }
        let pc = self.worker(state, worker, W_PC);
        if self.locks_both {
            let (first, second) = self.both_order(worker);
            let mut locks = 0;
            if pc > self.read_at {
                locks |= 1 << first;
            }
            if pc > self.read_at + 1 {
                locks |= 1 << second;
            }
            return locks;
        }
        let holds = pc > self.read_at
            && (self.worker(state, worker, W_GEN) != 0
                || pc == self.update_at
                || self.world.design.claim != ClaimProcedure::SkipLocked);
        if holds {
            1 << self.worker(state, worker, W_JOB)
        } else {
            0
        }
    }

    /// The worker whose open transaction holds `job`'s row lock.
    fn lock_holder(&self, state: &State, job: u8) -> Option<u8> {
        if !self.locking {
            return None;
        }
        (0..self.workers()).find(|&worker| self.locks_of(state, worker) & (1 << job) != 0)
    }

    /// The order in which `worker` locks the two rows under `lock_both_*`:
    /// its favourite first (`lock_both_own_order`), or by id.
    fn both_order(&self, worker: u8) -> (u8, u8) {
        if self.own_order && worker % 2 == 1 {
            (1, 0)
        } else {
            (0, 1)
        }
    }

    /// Whether `worker`'s next step is the second read of `lock_both_*`.
    fn at_second_read(&self, state: &State, worker: u8) -> bool {
        self.locks_both
            && !self.worker_done(state, worker)
            && self.worker(state, worker, W_PC) == self.read_at + 1
    }

    /// The lock cycle `victim`'s next statement would close, if it would:
    /// the worker whose read waits for the row `victim` holds (`held`),
    /// and the row that worker holds and `victim` asks for (`wanted`).
    pub fn deadlock_cycle(&self, state: &State, victim: u8) -> Option<(u8, u8, u8)> {
        if !self.at_second_read(state, victim) {
            return None;
        }
        let wanted = self.op_job(state, victim);
        let holder = self
            .lock_holder(state, wanted)
            .filter(|h| *h != victim && self.waiting(state, *h))?;
        Some((holder, self.op_job(state, holder), wanted))
    }

    /// Whether `worker`'s second read waits for another transaction's lock.
    pub fn waiting(&self, state: &State, worker: u8) -> bool {
        self.locks_both && self.worker(state, worker, W_BOTH) & WAITING != 0
    }

    /// The job `worker`'s next statement is about: under `lock_both_*` the
    /// row its read locks next; otherwise (and after the claim) its job.
    fn op_job(&self, state: &State, worker: u8) -> u8 {
        if self.locks_both && self.in_transaction(state, worker) {
            let pc = self.worker(state, worker, W_PC);
            let (first, second) = self.both_order(worker);
            if pc == self.read_at {
                return first;
            }
            if pc == self.read_at + 1 {
                return second;
            }
        }
        self.worker(state, worker, W_JOB)
    }

    /// The job a scenario step of `worker`'s next statement names, where
    /// the engine could not tell it from the worker's current job: the
    /// reads of `lock_both_*` and its `update_claim`.
    pub(crate) fn step_job(&self, state: &State, worker: u8) -> Option<u8> {
        if !self.locks_both || !self.in_transaction(state, worker) {
            return None;
        }
        match self.next_op(state, worker) {
            Some(Op::SelectForUpdate) => Some(self.op_job(state, worker)),
            Some(Op::UpdateClaim) => Some(self.both_claimed(state, worker)),
            _ => None,
        }
    }

    /// The row `lock_both_*`'s `update_claim` claims: the first of its
    /// order that its read found claimable.
    fn both_claimed(&self, state: &State, worker: u8) -> u8 {
        let (first, second) = self.both_order(worker);
        if self.worker(state, worker, W_BOTH) & FOUND_FIRST != 0 {
            first
        } else {
            second
        }
    }

    /// The job row as it is now, uncommitted changes included.
    #[inline]
    fn current_row(&self, state: &State, job: u8) -> RowView {
        RowView {
            owner: self.job(state, job, J_OWNER),
            fence: self.fence(state, job),
            lease: self.lease_until(state, job),
            state: self.job(state, job, J_STATE),
        }
    }

    /// The row as `reader` reads it: another worker's uncommitted claim
    /// (a transaction that holds the lock and was granted a generation in
    /// it) is invisible; its own changes are visible (read committed).
    fn visible_row(&self, state: &State, reader: u8, job: u8) -> RowView {
        match self.lock_holder(state, job) {
            Some(holder)
                if holder != reader
                    && self.worker(state, holder, W_GEN) != 0
                    && self.worker(state, holder, W_JOB) == job =>
            {
                self.committed_row(state, job, holder)
            }
            _ => self.current_row(state, job),
        }
    }

    /// The last committed version of a row `holder`'s open transaction
    /// claimed: the previous generation's row (its holder's owner and
    /// token) or the initial one, with the lease kept aside at the claim.
    /// It was open (the holder's read saw it claimable) and no one could
    /// change it since.
    fn committed_row(&self, state: &State, job: u8, holder: u8) -> RowView {
        let raw = self.job(state, job, J_COMMITTED_LEASE);
        let lease = (raw != NO_LEASE).then_some(i16::from(raw as i8));
        let previous = self.worker(state, holder, W_GEN).saturating_sub(1);
        if previous == 0 {
            return RowView {
                owner: 0,
                fence: 0,
                lease,
                state: STATE_READY,
            };
        }
        let before = self.holder_of(state, job, previous);
        let fence = match self.world.design.token {
            TokenKind::Random => before
                .and_then(|worker| {
                    self.plain_token(self.worker(state, worker, W_GRANT) & GRANT_BITS)
                })
                .unwrap_or(0),
            TokenKind::Monotonic | TokenKind::None => u64::from(previous),
        };
        RowView {
            owner: before.map_or(0, |worker| {
                self.identities[usize::from(worker) % MAX_WORKERS]
            }),
            fence,
            lease,
            state: STATE_RUNNING,
        }
    }

    /// The worker granted `generation` of `job`: not one whose claim of
    /// that number was rolled back when it crashed.
    fn holder_of(&self, state: &State, job: u8, generation: u8) -> Option<u8> {
        (0..self.workers()).find(|&worker| {
            self.worker(state, worker, W_JOB) == job
                && self.worker(state, worker, W_GEN) == generation
                && self.worker(state, worker, W_DONE) != DONE_ROLLED_BACK
        })
    }

    /// Whether `worker` reads `job` as claimable: open, its lease over.
    fn claimable_for(&self, state: &State, worker: u8, job: u8) -> bool {
        let row = self.visible_row(state, worker, job);
        is_open(row.state)
            && row
                .lease
                .is_none_or(|until| until <= self.lease_now(state, worker))
    }

    /// Whether no job can ever be claimed again.
    fn all_ended(&self, state: &State) -> bool {
        (0..self.world.jobs).all(|job| !is_open(self.job(state, job, J_STATE)))
    }

    /// The worker stops: inside its transaction it goes on to the
    /// `commit` first (it does not leave the row locked behind it).
    fn give_up(&self, state: &mut State, worker: u8) {
        if self.in_transaction(state, worker) {
            self.set_worker(state, worker, W_PC, self.commit_at);
        } else {
            self.set_worker(state, worker, W_DONE, DONE);
        }
    }

    /// Applies `chosen` to `state` in place.
    pub fn apply(&self, state: &mut State, chosen: Move) -> MoveResult {
        match chosen {
            Move::Tick => {
                state.set_byte(TIME_AT, state.time().saturating_add(1));
                MoveResult::NOTHING
            }
            Move::Revise(job) => self.revise(state, job),
            Move::Cancel(job) => {
                state.set_byte(CANCELS_AT, state.byte(CANCELS_AT).saturating_sub(1));
                let applied = is_open(self.job(state, job, J_STATE));
                if applied {
                    self.set_job(state, job, J_STATE, STATE_CANCELLED);
                    if self.job(state, job, J_TERMINAL) == 0 {
                        self.set_job(state, job, J_TERMINAL, TERMINAL_CANCELLED);
                    }
                    if self.world.design.cancel_epoch && self.world.design.register_on_claim {
                        self.register_epoch(state, job);
                    }
                }
                MoveResult {
                    applied,
                    ..MoveResult::NOTHING
                }
            }
            Move::Deliver(slot) => match self.in_flight(state, slot) {
                Some((worker, target, _)) => {
                    self.take_flight(state, slot);
                    self.arrive(state, worker, target)
                }
                None => MoveResult::NOTHING,
            },
            Move::Worker(worker) => match self.next_op(state, worker) {
                Some(op) => {
                    let mut result = self.run_op(state, worker, op);
                    result.op = Some(op);
                    result
                }
                None => MoveResult::NOTHING,
            },
            Move::Crash(worker) => {
                self.crash(state, worker);
                MoveResult::NOTHING
            }
        }
    }

    /// A crash: the database rolls back the worker's open transaction —
    /// a claim made in it never happened: the row goes back to its last
    /// committed version, and no generation was granted — and frees its
    /// lock; the worker takes no more steps. Its requests in flight still
    /// travel, and what it registered at targets stays (remote state is
    /// no part of the transaction).
    fn crash(&self, state: &mut State, worker: u8) {
        // The reads that wait for this worker's rows run once it is gone.
        let released = self.locks_of(state, worker);
        self.crash_rolls_back(state, worker);
        if self.locks_both && released != 0 {
            for waiter in 0..self.workers() {
                let awaited = self.op_job(state, waiter);
                if self.waiting(state, waiter) && released & (1 << awaited) != 0 {
                    self.run_waiting_read(state, waiter);
                }
            }
        }
    }

    fn crash_rolls_back(&self, state: &mut State, worker: u8) {
        let generation = self.worker(state, worker, W_GEN);
        if !self.in_transaction(state, worker) || generation == 0 {
            self.set_worker(state, worker, W_DONE, DONE);
            return;
        }
        let job = self.worker(state, worker, W_JOB);
        let committed = self.committed_row(state, job, worker);
        let previous = generation - 1;
        let fence_grant = self
            .holder_of(state, job, previous)
            .filter(|_| previous != 0)
            .map_or(0, |holder| self.worker(state, holder, W_GRANT) & GRANT_BITS);
        let committed_lease = self.job(state, job, J_COMMITTED_LEASE);
        self.set_job(state, job, J_OWNER, committed.owner);
        self.set_job(state, job, J_LEASE, committed_lease);
        self.set_job(state, job, J_GENS, previous);
        self.set_job(state, job, J_STATE, committed.state);
        // The row was open when the claim read it: no terminal fact yet.
        self.set_job(state, job, J_TERMINAL, 0);
        self.set_job(state, job, J_FENCE_GRANT, fence_grant);
        self.set_job(state, job, J_COMMITTED_LEASE, 0);
        self.set_worker(state, worker, W_DONE, DONE_ROLLED_BACK);
    }

    /// The user's revise of an open job's input: the newest generation's
    /// results from now on are of an old input; under `input_revision` the
    /// fence advances with it (every later token too) and is registered
    /// like a cancel epoch. (Worlds with revisions have monotonic tokens.)
    #[inline(never)]
    fn revise(&self, state: &mut State, job: u8) -> MoveResult {
        state.set_byte(CANCELS_AT, state.byte(CANCELS_AT) & !REVISE_LEFT);
        let applied = is_open(self.job(state, job, J_STATE));
        if applied {
            let bits = self.job(state, job, J_FENCE_GRANT);
            if self.world.design.input_revision {
                if self.world.design.register_on_claim {
                    // Registered before the shift: one above the fence now.
                    self.register_epoch(state, job);
                }
                self.set_job(state, job, J_FENCE_GRANT, bits | REVISED | SHIFTED);
            } else {
                self.set_job(state, job, J_FENCE_GRANT, bits | REVISED);
            }
        }
        MoveResult {
            applied,
            ..MoveResult::NOTHING
        }
    }

    /// A cancel under `cancel_epoch` (or a revise under `input_revision`):
    /// its epoch, one above the job's fence, registered at every
    /// `registered_token` target.
    #[inline(never)]
    fn register_epoch(&self, state: &mut State, job: u8) {
        let mark = match self.world.design.token {
            TokenKind::Monotonic => EPOCH_MARK | self.counter_fence(state, job),
            TokenKind::Random => EPOCH_MARK | (self.job(state, job, J_FENCE_GRANT) & GRANT_BITS),
            TokenKind::None => 0,
        };
        for (target, protect) in self.world.targets.iter().enumerate() {
            if *protect == Protect::RegisteredToken {
                self.set_target(state, target as u8, T_REGISTERED, mark);
            }
        }
    }

    /// The time the design's lease clock reads for `worker`.
    fn lease_now(&self, state: &State, worker: u8) -> i16 {
        i16::from(state.time()) + self.lease_offsets[usize::from(worker) % MAX_WORKERS]
    }

    /// The token `worker` carries, if any.
    #[inline]
    fn carried_token(&self, state: &State, worker: u8) -> Option<u64> {
        // A worker's own mark is never a cancel epoch.
        self.plain_token(self.token_mark(state, worker))
    }

    /// A one-byte stand-in for the token `worker` carries, as targets store
    /// it: the generation for monotonic tokens (the token itself), the grant
    /// number for random ones (an index into the drawn tokens), 0 for none.
    fn token_mark(&self, state: &State, worker: u8) -> u8 {
        if self.worker(state, worker, W_GEN) == 0 {
            return 0;
        }
        let grant = self.worker(state, worker, W_GRANT);
        match self.world.design.token {
            TokenKind::Monotonic => {
                self.worker(state, worker, W_GEN) + u8::from(grant & W_SHIFTED != 0)
            }
            TokenKind::Random => grant & GRANT_BITS,
            TokenKind::None => 0,
        }
    }

    #[inline]
    fn token_of_mark(&self, mark: u8) -> Option<u64> {
        if mark & EPOCH_MARK != 0 {
            // One above the fence of the grant (or generation) in the low bits.
            return Some(self.plain_token(mark & !EPOCH_MARK).unwrap_or(0) + 1);
        }
        self.plain_token(mark)
    }

    /// The token a plain (non-epoch) mark stands for.
    #[inline]
    fn plain_token(&self, mark: u8) -> Option<u64> {
        if mark == 0 {
            return None;
        }
        match self.world.design.token {
            TokenKind::Monotonic => Some(u64::from(mark)),
            TokenKind::Random => self.tokens.get(usize::from(mark)).copied().flatten(),
            TokenKind::None => None,
        }
    }

    /// A counter's fence before any cancel epoch: the generations granted,
    /// one more once a revise under `input_revision` advanced it.
    fn counter_fence(&self, state: &State, job: u8) -> u8 {
        let shifted = self.job(state, job, J_FENCE_GRANT) & SHIFTED != 0;
        self.job(state, job, J_GENS) + u8::from(shifted)
    }

    /// The job row's `fence` column.
    fn fence(&self, state: &State, job: u8) -> u64 {
        let claimed = match self.world.design.token {
            TokenKind::Random => self
                .token_of_mark(self.job(state, job, J_FENCE_GRANT) & GRANT_BITS)
                .unwrap_or(0),
            _ => u64::from(self.counter_fence(state, job)),
        };
        // A cancel under `cancel_epoch` advanced the fence once; nothing
        // can claim a cancelled job again.
        let epoch = self.cancel_epoch && self.job(state, job, J_STATE) == STATE_CANCELLED;
        claimed + u64::from(epoch)
    }

    /// The four predicates for `worker` on its job's current row; returns
    /// the false ones.
    pub(crate) fn false_predicates(&self, state: &State, worker: u8) -> CheckSet {
        let job = self.worker(state, worker, W_JOB);
        self.false_predicates_on(state, worker, self.current_row(state, job))
    }

    /// The four predicates for `worker` on `row`; returns the false ones.
    #[inline]
    fn false_predicates_on(&self, state: &State, worker: u8, row: RowView) -> CheckSet {
        let now = self.lease_now(state, worker);
        let identity = self.identities[usize::from(worker) % MAX_WORKERS];
        let mut failed = CheckSet::EMPTY;
        if row.owner == 0 || row.owner != identity {
            failed = failed.with(Check::Owner);
        }
        if self.carried_token(state, worker) != Some(row.fence) {
            failed = failed.with(Check::Fence);
        }
        if row.lease.is_none_or(|until| until <= now) {
            failed = failed.with(Check::Lease);
        }
        if row.state != STATE_RUNNING {
            failed = failed.with(Check::State);
        }
        failed
    }

    /// The four predicates for `worker` on its job's row as it reads it
    /// (see [`Machine::visible_row`]).
    fn false_predicates_read(&self, state: &State, worker: u8) -> CheckSet {
        let job = self.worker(state, worker, W_JOB);
        if !self.locking {
            return self.false_predicates(state, worker);
        }
        self.false_predicates_on(state, worker, self.visible_row(state, worker, job))
    }

    /// The generation `worker`'s effects hold: none (0) once a crash rolled
    /// back the claim that granted it, since that claim never happened,
    /// though the next claim is granted the same number (and, with
    /// monotonic tokens, the same token).
    #[inline]
    fn held_generation(&self, state: &State, worker: u8) -> u8 {
        if self.worker(state, worker, W_DONE) == DONE_ROLLED_BACK {
            0
        } else {
            self.worker(state, worker, W_GEN)
        }
    }

    /// The oracle on an effect by `worker` (MODEL.md §5).
    fn judge(&self, state: &State, worker: u8) -> Option<ViolationKind> {
        let job = self.worker(state, worker, W_JOB);
        let generation = self.held_generation(state, worker);
        if generation < self.job(state, job, J_GENS) {
            return Some(ViolationKind::Stale);
        }
        match self.job(state, job, J_TERMINAL) {
            0 => {}
            TERMINAL_CANCELLED => return Some(ViolationKind::AfterTerminal),
            ended if ended - 2 != generation => return Some(ViolationKind::AfterTerminal),
            _ => {}
        }
        // The worker holds the newest generation: revised since its grant.
        (generation != 0 && self.job(state, job, J_FENCE_GRANT) & REVISED != 0)
            .then_some(ViolationKind::StaleInput)
    }

    fn run_op(&self, state: &mut State, worker: u8, op: Op) -> MoveResult {
        let design = self.world.design;
        match op {
            Op::Claim => self.claim(state, worker),
            Op::Begin => {
                self.advance(state, worker);
                MoveResult {
                    applied: true,
                    ..MoveResult::NOTHING
                }
            }
            Op::SelectForUpdate if self.locks_both => self.lock_both_read(state, worker),
            Op::Select | Op::SelectForUpdate | Op::SelectSkipLocked | Op::SelectNowait => {
                self.claim_read(state, worker, op)
            }
            Op::UpdateClaim => {
                let job = if self.locks_both {
                    self.both_claimed(state, worker)
                } else {
                    self.worker(state, worker, W_JOB)
                };
                self.grant(state, worker, job);
                self.advance(state, worker);
                MoveResult {
                    applied: true,
                    ..MoveResult::NOTHING
                }
            }
            Op::Commit => self.commit(state, worker),
            Op::Check => {
                let all_failed = self.false_predicates_read(state, worker);
                if all_failed.is_empty() {
                    self.advance(state, worker);
                } else {
                    // The client-side check says the lease is gone: give up.
                    self.give_up(state, worker);
                }
                MoveResult {
                    applied: all_failed.is_empty(),
                    failed: all_failed,
                    ..MoveResult::NOTHING
                }
            }
            Op::Renew => {
                let result = self.guarded(state, worker, design.renew_checks);
                if result.applied {
                    let job = self.worker(state, worker, W_JOB);
                    let until = self.lease_now(state, worker) + i16::from(self.world.ttl);
                    self.set_job(state, job, J_LEASE, until as i8 as u8);
                    self.advance(state, worker);
                } else if self.world.stop_on_renew_failure {
                    self.give_up(state, worker);
                } else {
                    self.advance(state, worker);
                }
                result
            }
            // An intent travels nowhere: nothing is sent until the commit.
            Op::Write(target) if !self.sends(target) => {
                self.advance(state, worker);
                MoveResult::NOTHING
            }
            Op::Write(target) if self.delays() => {
                // With every slot taken the write waits (`moves` does not
                // offer it); it is never dropped.
                if let Some(result) = self.send_write(state, worker, target) {
                    self.advance(state, worker);
                    return result;
                }
                MoveResult::NOTHING
            }
            Op::Write(target) => {
                let result = self.write(state, worker, target);
                self.advance(state, worker);
                result
            }
            Op::Finish => {
                let result = self.guarded(state, worker, design.commit_checks);
                if result.applied {
                    let job = self.worker(state, worker, W_JOB);
                    self.set_job(state, job, J_STATE, STATE_DONE);
                    if self.job(state, job, J_TERMINAL) == 0 {
                        self.set_job(
                            state,
                            job,
                            J_TERMINAL,
                            2 + self.worker(state, worker, W_GEN),
                        );
                    }
                }
                self.give_up(state, worker);
                result
            }
        }
    }

    /// A conditional update of the worker's job row: whether every
    /// predicate of `checks` holds, and what the oracle says if it does.
    /// Under another transaction's row lock it runs only where its
    /// condition is false on the last committed version (it would wait
    /// otherwise, and `moves` does not offer it): there, and changes nothing.
    fn guarded(&self, state: &State, worker: u8, checks: CheckSet) -> MoveResult {
        let failed =
            CheckSet::from_bits(self.false_predicates_read(state, worker).bits() & checks.bits());
        MoveResult {
            applied: failed.is_empty(),
            failed,
            violation: if failed.is_empty() {
                self.judge(state, worker)
            } else {
                None
            },
            ..MoveResult::NOTHING
        }
    }

    fn advance(&self, state: &mut State, worker: u8) {
        let pc = self.worker(state, worker, W_PC);
        self.set_worker(state, worker, W_PC, pc.saturating_add(1));
        if usize::from(pc) + 1 >= self.program.len() {
            self.set_worker(state, worker, W_DONE, DONE);
        }
    }

    /// An atomic claim: of the only job, or with several jobs of the first
    /// claimable one (`claim_next`). Refused, the worker retries later;
    /// when no job can ever be claimed again it gives up.
    fn claim(&self, state: &mut State, worker: u8) -> MoveResult {
        let now = self.lease_now(state, worker);
        let claimable = (0..self.world.jobs).find(|&job| {
            is_open(self.job(state, job, J_STATE))
                && self
                    .lease_until(state, job)
                    .is_none_or(|until| until <= now)
        });
        let Some(job) = claimable else {
            if self.all_ended(state) {
                self.set_worker(state, worker, W_DONE, DONE);
            }
            return MoveResult::NOTHING;
        };
        self.grant(state, worker, job);
        self.advance(state, worker);
        MoveResult {
            applied: true,
            ..MoveResult::NOTHING
        }
    }

    /// The read that starts a claim procedure: a plain `select` (no lock),
    /// `select_for_update` (locks the row, claimable or not) or
    /// `select_skip_locked` (locks the first claimable row no one else has
    /// locked). Claimable: on to `update_claim`. Not: a plain read is
    /// retried later, a transaction goes on to its `commit` and starts over.
    fn claim_read(&self, state: &mut State, worker: u8, op: Op) -> MoveResult {
        let found = match op {
            Op::SelectSkipLocked => (0..self.world.jobs).find(|&job| {
                self.lock_holder(state, job)
                    .is_none_or(|holder| holder == worker)
                    && self.claimable_for(state, worker, job)
            }),
            Op::SelectNowait => {
                let job = self.worker(state, worker, W_JOB);
                if self.lock_holder(state, job).is_some() {
                    // Another transaction holds the row (the worker holds
                    // none before its read): `lock_not_available`, and the
                    // transaction, which holds nothing yet, rolls back. The
                    // worker starts its claim over.
                    self.set_worker(state, worker, W_PC, 0);
                    return MoveResult::NOTHING;
                }
                self.claimable_for(state, worker, job).then_some(job)
            }
            _ => {
                let job = self.worker(state, worker, W_JOB);
                self.claimable_for(state, worker, job).then_some(job)
            }
        };
        if let Some(job) = found {
            self.set_worker(state, worker, W_JOB, job);
            self.advance(state, worker);
        } else if op != Op::Select {
            self.set_worker(state, worker, W_PC, self.commit_at);
        } else if self.all_ended(state) {
            self.set_worker(state, worker, W_DONE, DONE);
        }
        MoveResult {
            // The engine's `ok`: a row was locked.
            applied: matches!(op, Op::SelectForUpdate | Op::SelectNowait)
                || (op == Op::SelectSkipLocked && found.is_some()),
            ..MoveResult::NOTHING
        }
    }

    /// A read of `lock_both_*`: `SELECT … FOR UPDATE` of the next row in
    /// the worker's order. The first never waits here (`moves` offers it
    /// only on a free row). The second, on a row another transaction holds,
    /// begins to wait, unless that holder's own read already waits for the
    /// row this worker holds: then this statement would close the cycle,
    /// and the database refuses it (`deadlock`) and rolls its transaction
    /// back (§15.4): the worker holds nothing and starts its claim over,
    /// and the holder's waiting read runs at once.
    fn lock_both_read(&self, state: &mut State, worker: u8) -> MoveResult {
        let job = self.op_job(state, worker);
        let second = self.at_second_read(state, worker);
        if let Some(holder) = self.lock_holder(state, job).filter(|h| *h != worker) {
            if self.waiting(state, holder) {
                self.set_worker(state, worker, W_BOTH, 0);
                self.set_worker(state, worker, W_PC, 0);
                self.run_waiting_read(state, holder);
                return MoveResult {
                    deadlock: true,
                    ..MoveResult::NOTHING
                };
            }
            let saw = if self.claimable_for(state, worker, job) {
                WAIT_SAW
            } else {
                0
            };
            let found = self.worker(state, worker, W_BOTH);
            self.set_worker(state, worker, W_BOTH, found | WAITING | saw);
            return MoveResult::NOTHING;
        }
        let claimable = self.claimable_for(state, worker, job);
        self.lock_both_found(state, worker, second, claimable);
        MoveResult {
            // The engine's `ok`: the row was locked.
            applied: true,
            ..MoveResult::NOTHING
        }
    }

    /// A `lock_both_*` read has locked its row and found it `claimable` or
    /// not: on to the next read, or after the second to `update_claim`
    /// (or, when neither row was claimable, to the `commit`).
    fn lock_both_found(&self, state: &mut State, worker: u8, second: bool, claimable: bool) {
        let mut found = self.worker(state, worker, W_BOTH) & (FOUND_FIRST | FOUND_SECOND);
        if claimable {
            found |= if second { FOUND_SECOND } else { FOUND_FIRST };
        }
        self.set_worker(state, worker, W_BOTH, found);
        if second && found == 0 {
            self.set_worker(state, worker, W_PC, self.commit_at);
        } else {
            self.advance(state, worker);
        }
    }

    /// The lock `waiter`'s second read waits for was released (the holder
    /// rolled back, by a deadlock or a crash): the read runs now, with the
    /// evaluation made when it was sent (the row is unchanged).
    fn run_waiting_read(&self, state: &mut State, waiter: u8) {
        let both = self.worker(state, waiter, W_BOTH);
        self.lock_both_found(state, waiter, true, both & WAIT_SAW != 0);
    }

    /// `commit`: the transaction's claim becomes the committed row. After a
    /// claim the worker goes on (`held_across_work`: it is done); after a
    /// read that found nothing it starts over, or stops when no job can
    /// ever be claimed again.
    fn commit(&self, state: &mut State, worker: u8) -> MoveResult {
        if self.locks_both {
            self.set_worker(state, worker, W_BOTH, 0);
        }
        if self.worker(state, worker, W_GEN) != 0 {
            let job = self.worker(state, worker, W_JOB);
            self.set_job(state, job, J_COMMITTED_LEASE, 0);
            self.advance(state, worker);
        } else if self.all_ended(state) {
            self.set_worker(state, worker, W_DONE, DONE);
        } else {
            self.set_worker(state, worker, W_PC, 0);
        }
        MoveResult {
            applied: true,
            ..MoveResult::NOTHING
        }
    }

    /// Writes a claim into `job`'s row for `worker` (a granted `claim`, or
    /// `update_claim` on the strength of its read). Inside a transaction
    /// the committed version's lease is kept aside for other readers.
    fn grant(&self, state: &mut State, worker: u8, job: u8) {
        if self.in_transaction(state, worker) {
            let lease = self.job(state, job, J_LEASE);
            self.set_job(state, job, J_COMMITTED_LEASE, lease);
        }
        let now = self.lease_now(state, worker);
        let grant = state.byte(GRANTS_AT) + 1;
        state.set_byte(GRANTS_AT, grant);
        let generation = self.job(state, job, J_GENS) + 1;
        let identity = self.identities[usize::from(worker) % MAX_WORKERS];
        self.set_job(state, job, J_OWNER, identity);
        let until = now + i16::from(self.world.ttl);
        self.set_job(state, job, J_LEASE, until as i8 as u8);
        self.set_job(state, job, J_GENS, generation);
        self.set_job(state, job, J_STATE, STATE_RUNNING);
        // A new generation reads the input as it is now (the revise is
        // behind it); a shifted fence stays shifted, and so is its token.
        let shifted = self.job(state, job, J_FENCE_GRANT) & SHIFTED;
        self.set_job(state, job, J_FENCE_GRANT, grant | shifted);
        self.set_worker(state, worker, W_JOB, job);
        self.set_worker(state, worker, W_GEN, generation);
        let token_shifted = if shifted != 0 { W_SHIFTED } else { 0 };
        self.set_worker(state, worker, W_GRANT, grant | token_shifted);
        if self.world.design.register_on_claim {
            let mark = self.token_mark(state, worker);
            for (target, protect) in self.world.targets.iter().enumerate() {
                if *protect == Protect::RegisteredToken {
                    self.set_target(state, target as u8, T_REGISTERED, mark);
                }
            }
        }
    }

    /// A write that travels, at send: a sending gateway checks now (and a
    /// refusal sends nothing); otherwise the request goes in flight.
    /// `None`: no free slot, nothing happened.
    fn send_write(&self, state: &mut State, worker: u8, target: u8) -> Option<MoveResult> {
        if self.world.targets.get(usize::from(target)) == Some(&Protect::SendingGateway) {
            let failed = CheckSet::from_bits(
                self.false_predicates(state, worker).bits()
                    & self.world.design.commit_checks.bits(),
            );
            if !failed.is_empty() {
                return Some(MoveResult {
                    failed,
                    ..MoveResult::NOTHING
                });
            }
        }
        self.send(state, worker, target)
            .then_some(MoveResult::NOTHING)
    }

    /// A request arriving at its target: the target decides now; a sending
    /// gateway checked at send, so what arrives there is accepted.
    fn arrive(&self, state: &mut State, worker: u8, target: u8) -> MoveResult {
        if self.world.targets.get(usize::from(target)) == Some(&Protect::SendingGateway) {
            // The target takes whatever arrives; a target the design sends
            // to reconciliation expects it.
            let reconciled = self.world.reconciled & (1 << target) != 0;
            return MoveResult {
                applied: true,
                violation: if reconciled {
                    None
                } else {
                    self.judge(state, worker)
                },
                ..MoveResult::NOTHING
            };
        }
        self.write(state, worker, target)
    }

    // Inlined into the instantaneous write, the explorers' hot path.
    #[inline(always)]
    fn write(&self, state: &mut State, worker: u8, target: u8) -> MoveResult {
        let protect = self
            .world
            .targets
            .get(usize::from(target))
            .copied()
            .unwrap_or(Protect::None);
        let mark = self.token_mark(state, worker);
        let token = self.token_of_mark(mark);
        let job = self.worker(state, worker, W_JOB);
        let (applied, failed) = match protect {
            Protect::None => (true, CheckSet::EMPTY),
            Protect::IdempotencyKey => {
                let bit = 1u8 << job;
                let applied = self.target(state, target, T_APPLIED) & bit;
                if applied == 0 {
                    self.set_target(
                        state,
                        target,
                        T_APPLIED,
                        self.target(state, target, T_APPLIED) | bit,
                    );
                }
                (applied == 0, CheckSet::EMPTY)
            }
            Protect::HighestToken => {
                let highest = self.token_of_mark(self.target(state, target, T_HIGHEST));
                match (token, highest) {
                    (Some(carried), Some(seen)) if carried < seen => {
                        (false, CheckSet::EMPTY.with(Check::Fence))
                    }
                    (Some(_), _) => {
                        self.set_target(state, target, T_HIGHEST, mark);
                        (true, CheckSet::EMPTY)
                    }
                    (None, _) => (false, CheckSet::EMPTY.with(Check::Fence)),
                }
            }
            Protect::RegisteredToken => {
                let registered = self.token_of_mark(self.target(state, target, T_REGISTERED));
                let accepted = token.is_some() && registered == token;
                (
                    accepted,
                    if accepted {
                        CheckSet::EMPTY
                    } else {
                        CheckSet::EMPTY.with(Check::Fence)
                    },
                )
            }
            Protect::Gateway | Protect::SendingGateway => {
                let all_failed = self.false_predicates(state, worker);
                let failed =
                    CheckSet::from_bits(all_failed.bits() & self.world.design.commit_checks.bits());
                (failed.is_empty(), failed)
            }
            // An intent is no effect: it leaves only with a committed
            // finish, which is judged as the commit it is (`guarded`).
            Protect::ApprovedIntent => {
                return MoveResult::NOTHING;
            }
            // A draft is no effect; the switch at a committed finish is.
            Protect::Versioned => {
                return MoveResult {
                    applied: true,
                    ..MoveResult::NOTHING
                };
            }
        };
        let reconciled = self.world.reconciled & (1 << target) != 0;
        MoveResult {
            applied,
            failed,
            violation: if applied && !reconciled {
                self.judge(state, worker)
            } else {
                None
            },
            op: None,
            deadlock: false,
        }
    }
}

fn is_open(state: u8) -> bool {
    state == STATE_READY || state == STATE_RUNNING
}

/// What the explanation of a violating move needs to know about the state
/// before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Before {
    pub generation: u8,
    pub newest_generation: u8,
    pub newest_holder: Option<u8>,
    pub cancelled: bool,
    pub carried_token: Option<u64>,
    pub highest_seen: Option<u64>,
    /// The predicates that were false among all four, whatever the design
    /// checked: what a complete check would have caught.
    pub all_failed: CheckSet,
}

impl Machine {
    pub(crate) fn before(&self, state: &State, worker: u8, target: Option<u8>) -> Before {
        let job = self.worker(state, worker, W_JOB);
        let newest = self.job(state, job, J_GENS);
        let newest_holder = self.holder_of(state, job, newest).filter(|_| newest != 0);
        Before {
            generation: self.held_generation(state, worker),
            newest_generation: newest,
            newest_holder,
            cancelled: self.job(state, job, J_TERMINAL) == TERMINAL_CANCELLED,
            carried_token: self.carried_token(state, worker),
            highest_seen: target.and_then(|t| self.token_of_mark(self.target(state, t, T_HIGHEST))),
            all_failed: self.false_predicates(state, worker),
        }
    }
}
