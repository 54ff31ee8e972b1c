//! Designs: which predicates guard the job table, what token a claim hands out,
//! which clock decides leases, and how remote targets protect themselves.
//! A design is plain data; the named presets are designs too (MODEL.md §6).

use std::fmt;

/// One predicate of a conditional `UPDATE` on the job row (MODEL.md §2).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum Check {
    /// `owner = <the worker's owner identity>`
    Owner,
    /// `fence = <the token the worker carries>`; false when it carries none
    /// (SQL's `fence = NULL` matches no row).
    Fence,
    /// `lease_until > now`
    Lease,
    /// `state = 'running'`
    State,
}

crate::names::named!(Check);

impl Check {
    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of [`Check`]s, stored as bits so a trace entry stays small.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CheckSet(u8);

impl CheckSet {
    pub const EMPTY: CheckSet = CheckSet(0);
    pub const ALL: CheckSet = CheckSet(0b1111);

    pub fn with(self, check: Check) -> CheckSet {
        CheckSet(self.0 | check.bit())
    }

    pub fn contains(self, check: Check) -> bool {
        self.0 & check.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Check> {
        Check::ALL
            .into_iter()
            .filter(move |check| self.contains(*check))
    }

    pub fn names(self) -> Vec<&'static str> {
        self.iter().map(Check::name).collect()
    }

    /// The raw bits (owner = 1, fence = 2, lease = 4, state = 8), for compact
    /// state encodings.
    pub fn bits(self) -> u8 {
        self.0
    }

    pub fn from_bits(bits: u8) -> CheckSet {
        CheckSet(bits & CheckSet::ALL.0)
    }
}

impl FromIterator<Check> for CheckSet {
    fn from_iter<I: IntoIterator<Item = Check>>(iter: I) -> Self {
        iter.into_iter().fold(CheckSet::EMPTY, CheckSet::with)
    }
}

impl fmt::Debug for CheckSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.names()).finish()
    }
}

/// What a granted claim hands the worker.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum TokenKind {
    /// `fence + 1`: orders generations.
    Monotonic,
    /// A seeded pseudo-random number: the pitfall (C23); it cannot order
    /// generations.
    Random,
    /// The worker carries nothing (the `fence` column still counts claims).
    None,
}

crate::names::named!(TokenKind);

/// Whose clock a lease decision reads (MODEL.md §1).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum LeaseClock {
    /// The database's clock: one time source for every decision (C13).
    Db,
    /// The acting worker's local clock: the clock-skew pitfall.
    Worker,
}

crate::names::named!(LeaseClock);

/// How a remote target decides whether to accept a write (MODEL.md §3).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum Protect {
    None,
    IdempotencyKey,
    HighestToken,
    RegisteredToken,
    /// The trusted gateway is the writer: it checks `commit_checks` and
    /// applies the write in one step, so a request in flight is checked
    /// when it arrives.
    Gateway,
    Versioned,
    /// A gateway that checks `commit_checks` when it *sends* a request and
    /// forwards it; the target accepts whatever arrives. For a plain
    /// (instantaneous) write it is the same as `gateway`.
    SendingGateway,
    /// An outbox: a write is recorded as an intent beside the job row and
    /// nothing leaves the worker; a committed `finish` approves the
    /// worker's intents for the job, and a dispatcher sends only those
    /// (at once, or as requests that `deliver` steps land). The target
    /// accepts whatever arrives: the commit is the check.
    ApprovedIntent,
}

crate::names::named!(Protect);

/// How a worker claims a job: the statements its claim is made of. The
/// explorers' generated workers follow it (docs/explorers.md, "Claim
/// procedures"); a hand-written scenario writes its own steps instead.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum ClaimProcedure {
    /// One conditional `UPDATE … RETURNING` (`claim`, or `claim_next` with
    /// several jobs).
    #[default]
    Atomic,
    /// A plain `select`, later a separate unconditional `update_claim`: two
    /// workers can both read the row claimable and both claim it.
    ReadThenUpdate,
    /// `begin`, `select_for_update`, `update_claim`, `commit`, then the work
    /// outside the transaction: the row lock serialises the claim.
    SelectForUpdate,
    /// `begin`, `select_skip_locked`, `update_claim`, `commit`: a queue
    /// claim that passes over rows other claims have locked.
    SkipLocked,
    /// `begin`, `select_for_update`, `update_claim`, the work, and `commit`
    /// only at the end: safe for the row, but a paused holder's lock blocks
    /// every takeover, however long ago its lease ended.
    HeldAcrossWork,
    /// `begin`, `select_nowait`, `update_claim`, `commit`, then the work:
    /// `SELECT … FOR UPDATE NOWAIT` never waits behind another claim's
    /// lock; it fails at once (`lock_not_available`), its transaction
    /// rolls back, and the worker starts its claim over later.
    Nowait,
    /// Two jobs: `begin`, `select_for_update` of each row in the worker's
    /// own order (its favourite first), `update_claim` of the first of
    /// them it read claimable, `commit`. Two workers that favour different
    /// rows each lock one and wait for the other's: a deadlock, and the
    /// database rolls one transaction back.
    LockBothOwnOrder,
    /// Two jobs: the same, but every worker locks the rows in id order
    /// (`… WHERE id IN (…) ORDER BY id FOR UPDATE`), so no lock cycle, and
    /// no deadlock, can form.
    LockBothIdOrder,
}

crate::names::named!(ClaimProcedure);

impl ClaimProcedure {
    /// Whether the claim runs in a transaction that locks the row.
    pub fn transactional(self) -> bool {
        matches!(
            self,
            ClaimProcedure::SelectForUpdate
                | ClaimProcedure::SkipLocked
                | ClaimProcedure::HeldAcrossWork
                | ClaimProcedure::Nowait
                | ClaimProcedure::LockBothOwnOrder
                | ClaimProcedure::LockBothIdOrder
        )
    }

    /// Whether the claim locks both jobs of a two-job world, one row after
    /// the other, before it claims one of them.
    pub fn locks_both(self) -> bool {
        matches!(
            self,
            ClaimProcedure::LockBothOwnOrder | ClaimProcedure::LockBothIdOrder
        )
    }

    /// Whether the claim can run in a world of `jobs` jobs: one that reads
    /// a named row needs one job, one that locks both rows needs two.
    pub fn runs_with_jobs(self, jobs: u8) -> bool {
        if self.locks_both() {
            jobs == 2
        } else {
            jobs <= 1 || !self.single_job()
        }
    }

    /// Whether the claim names one job (it reads that row): worlds with
    /// several jobs claim atomically (`claim_next`) or with `skip_locked`.
    pub fn single_job(self) -> bool {
        matches!(
            self,
            ClaimProcedure::ReadThenUpdate
                | ClaimProcedure::SelectForUpdate
                | ClaimProcedure::HeldAcrossWork
                | ClaimProcedure::Nowait
        )
    }
}

/// A complete design. Scenario files may give a preset name or a table whose
/// omitted fields come from a base preset (`full` unless `base` says otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Design {
    pub token: TokenKind,
    pub commit_checks: CheckSet,
    pub renew_checks: CheckSet,
    pub lease_clock: LeaseClock,
    pub register_on_claim: bool,
    pub target_protect: Protect,
    /// Explorer workers `check` their lease before each write (client-side only).
    pub worker_checks: bool,
    /// A granted cancel advances the job's epoch: `fence + 1`, registered at
    /// every `registered_token` target when `register_on_claim`, so that
    /// token-checking targets and the `fence` predicate refuse the old
    /// generation's later writes and commits (the article's `cancel_epoch`).
    pub cancel_epoch: bool,
    /// A granted `revise` (the job's input changed) advances the job's
    /// input revision *and* its fence, registered like a cancel epoch, so
    /// that the `fence` predicate and token-checking targets refuse the
    /// results of a generation that worked on the old input (C15). Off,
    /// the revision advances alone and nothing compares it.
    pub input_revision: bool,
    /// How the explorers' workers claim (`atomic` unless a design table
    /// says otherwise). The engine runs a scenario's own steps whatever it
    /// says.
    pub claim: ClaimProcedure,
}

/// The named presets of MODEL.md §6, in teaching order (weakest first).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "kebab-case")]
pub enum Preset {
    TtlLockOnly,
    ClientCheck,
    IdempotencyOnly,
    FencedHighestSeen,
    FencedRegistered,
    DbConditional,
    Full,
    /// `full`'s checks made by a gateway that sends requests instead of
    /// writing: safe while writes are instantaneous, not when they travel.
    SendingGateway,
}

crate::names::named!(Preset);

impl Preset {
    pub fn design(self) -> Design {
        let unchecked = Design {
            token: TokenKind::Monotonic,
            commit_checks: CheckSet::EMPTY,
            renew_checks: CheckSet::EMPTY,
            lease_clock: LeaseClock::Db,
            register_on_claim: true,
            target_protect: Protect::None,
            worker_checks: false,
            cancel_epoch: false,
            input_revision: false,
            claim: ClaimProcedure::Atomic,
        };
        let checked = Design {
            commit_checks: CheckSet::ALL,
            renew_checks: CheckSet::ALL,
            ..unchecked
        };
        match self {
            Preset::TtlLockOnly => unchecked,
            Preset::ClientCheck => Design {
                worker_checks: true,
                ..unchecked
            },
            Preset::IdempotencyOnly => Design {
                target_protect: Protect::IdempotencyKey,
                ..unchecked
            },
            Preset::FencedHighestSeen => Design {
                target_protect: Protect::HighestToken,
                ..checked
            },
            Preset::FencedRegistered => Design {
                target_protect: Protect::RegisteredToken,
                ..checked
            },
            Preset::DbConditional => checked,
            Preset::Full => Design {
                target_protect: Protect::Gateway,
                ..checked
            },
            Preset::SendingGateway => Design {
                target_protect: Protect::SendingGateway,
                ..checked
            },
        }
    }

    /// The preset whose design this is exactly, if any.
    pub fn of(design: &Design) -> Option<Preset> {
        Preset::ALL
            .into_iter()
            .find(|preset| preset.design() == *design)
    }
}

impl Default for Design {
    /// Secure by default: a scenario without a design uses `full`.
    fn default() -> Self {
        Preset::Full.design()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for preset in Preset::ALL {
            assert_eq!(Preset::from_name(preset.name()), Some(preset));
            assert_eq!(Preset::of(&preset.design()), Some(preset));
        }
        for check in Check::ALL {
            assert_eq!(Check::from_name(check.name()), Some(check));
        }
        assert_eq!(Preset::from_name("fenced"), None);
    }

    #[test]
    fn check_set_lists_in_fixed_order() {
        let set: CheckSet = [Check::State, Check::Owner].into_iter().collect();
        assert_eq!(set.names(), vec!["owner", "state"]);
        assert!(!set.contains(Check::Fence));
        assert_eq!(CheckSet::from_bits(0xff), CheckSet::ALL);
    }
}
