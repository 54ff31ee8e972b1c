//! The safety oracle (MODEL.md §5). It knows only which generation each
//! claim was and what took effect; it never asks how a resource checked, so a
//! weak design cannot talk it out of a violation.

use crate::scenario::{JobIdx, TargetIdx};
use crate::trace::{Violation, ViolationKind};

/// How the job ended, as far as the oracle is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Terminal {
    Cancelled,
    /// Finished or failed by this generation (0: by a worker that held none).
    EndedBy(u32),
}

#[derive(Debug, Clone, Default)]
struct JobFacts {
    /// Lease end per granted generation (index = generation - 1).
    leases: Vec<i64>,
    terminal: Option<Terminal>,
    /// Applied remote writes for this job, for reconciliation on cancel.
    remote_effects: Vec<u32>,
    /// The generations granted before the job's input was last revised
    /// (the first `revised_upto`): they worked on an input that is no
    /// longer the job's, so their effects are stale (C15).
    revised_upto: usize,
}

/// A copy of one job's facts, for rolling back a transaction.
#[derive(Debug, Clone)]
pub(crate) struct JobMark {
    generations: usize,
    current_lease: Option<i64>,
    terminal: Option<Terminal>,
}

impl Judgement {
    /// The generation may no longer act: a newer one was granted, the job
    /// ended, or its input was revised.
    pub(crate) fn superseded(&self) -> bool {
        self.stale || self.after_terminal || self.stale_input
    }
}

impl JobMark {
    /// How many generations of the job were granted when the mark was taken.
    pub(crate) fn granted(&self) -> u32 {
        u32::try_from(self.generations).unwrap_or(u32::MAX)
    }
}

/// What the oracle says an effect-capable step would be if it took effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Judgement {
    stale: bool,
    after_terminal: bool,
    /// The job's input was revised after this generation was granted.
    stale_input: bool,
    /// The same generation already applied a higher batch at the target.
    stale_batch: bool,
    /// For a write with a batch: its stream (job, target), generation and
    /// batch, remembered when it takes effect.
    batch: Option<BatchEffect>,
    /// The newest generation granted when the step was judged.
    pub(crate) newest: u32,
}

/// One applied batch of a stream: a job's progress at one target (C18).
/// Writes with batch numbers at the same target for the same job are one
/// stream, whatever their `op`: a later batch supersedes an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BatchEffect {
    pub(crate) job: JobIdx,
    pub(crate) target: TargetIdx,
    pub(crate) generation: u32,
    pub(crate) batch: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct Oracle {
    jobs: Vec<JobFacts>,
    violations: Vec<Violation>,
    should_reject: Vec<u32>,
    may_reject: Vec<u32>,
    reconcile: Vec<u32>,
    reconcile_in_flight: Vec<u32>,
    /// The highest batch applied per stream and generation.
    batches: Vec<BatchEffect>,
}

/// What the oracle hands the trace at the end of a run.
pub(crate) struct Verdicts {
    pub violations: Vec<Violation>,
    pub should_reject: Vec<u32>,
    pub may_reject: Vec<u32>,
    pub reconcile: Vec<u32>,
    pub reconcile_in_flight: Vec<u32>,
    pub generations: Vec<u32>,
}

impl Oracle {
    pub(crate) fn new(jobs: usize) -> Oracle {
        Oracle {
            jobs: vec![JobFacts::default(); jobs],
            violations: Vec::new(),
            should_reject: Vec::new(),
            may_reject: Vec::new(),
            reconcile: Vec::new(),
            reconcile_in_flight: Vec::new(),
            batches: Vec::new(),
        }
    }

    fn facts(&mut self, job: JobIdx) -> Option<&mut JobFacts> {
        self.jobs.get_mut(usize::from(job))
    }

    /// A claim was granted: returns its generation.
    pub(crate) fn grant(&mut self, job: JobIdx, lease_until: i64) -> u32 {
        match self.facts(job) {
            Some(facts) => {
                facts.leases.push(lease_until);
                u32::try_from(facts.leases.len()).unwrap_or(u32::MAX)
            }
            None => 0,
        }
    }

    /// A renew took effect: the row's lease, which belongs to the newest
    /// generation, now ends at `lease_until`.
    pub(crate) fn renewed(&mut self, job: JobIdx, lease_until: i64) {
        if let Some(lease) = self.facts(job).and_then(|facts| facts.leases.last_mut()) {
            *lease = lease_until;
        }
    }

    /// Whether generation `generation`'s lease had ended by database time `db_now`.
    pub(crate) fn lease_expired(&self, job: JobIdx, generation: u32, db_now: i64) -> bool {
        self.jobs
            .get(usize::from(job))
            .and_then(|facts| facts.leases.get((generation as usize).wrapping_sub(1)))
            .is_some_and(|&lease_until| lease_until <= db_now)
    }

    /// Judges a step by a worker holding `generation` (0: none) of `job`,
    /// whatever the step will actually do; records it in `should_reject`.
    pub(crate) fn judge(&mut self, step: u32, job: JobIdx, generation: u32) -> Judgement {
        let judgement = self.judgement(job, generation);
        if judgement.superseded() {
            self.should_reject.push(step);
        }
        judgement
    }

    /// Judges a write to `target`: by [`Oracle::judge_batch`] when it
    /// carries a batch, else by [`Oracle::judge`].
    pub(crate) fn judge_write(
        &mut self,
        step: u32,
        job: JobIdx,
        generation: u32,
        target: TargetIdx,
        batch: Option<u32>,
    ) -> Judgement {
        match batch {
            Some(batch) => self.judge_batch(step, job, generation, target, batch),
            None => self.judge(step, job, generation),
        }
    }

    /// [`Oracle::judge`] for a write carrying batch `batch` to `target`:
    /// besides the generation, an older batch than one its own generation
    /// already applied there is stale progress a safe system must refuse
    /// (`stale_batch`); a repeat of the highest applied batch rewrites
    /// progress already made, which a safe system may refuse or let
    /// through (`may_reject`). A superseded generation is judged `stale`
    /// alone: any write of it must be refused already.
    pub(crate) fn judge_batch(
        &mut self,
        step: u32,
        job: JobIdx,
        generation: u32,
        target: TargetIdx,
        batch: u32,
    ) -> Judgement {
        let mut judgement = self.judgement(job, generation);
        let applied = self
            .batches
            .iter()
            .find(|b| b.job == job && b.target == target && b.generation == generation)
            .map(|b| b.batch);
        let current = !judgement.superseded();
        judgement.stale_batch = current && applied.is_some_and(|highest| batch < highest);
        judgement.batch = Some(BatchEffect {
            job,
            target,
            generation,
            batch,
        });
        if judgement.superseded() || judgement.stale_batch {
            self.should_reject.push(step);
        } else if current && applied == Some(batch) {
            self.may_reject.push(step);
        }
        judgement
    }

    /// Judges a step that changes no protected state (a draft stored beside
    /// the official value, a request only sent): a stale or after-terminal
    /// one is recorded in `may_reject`, since a safe system may refuse it or
    /// let it through, and never becomes a violation.
    pub(crate) fn judge_harmless(&mut self, step: u32, job: JobIdx, generation: u32) {
        let judgement = self.judgement(job, generation);
        if judgement.superseded() {
            self.may_reject.push(step);
        }
    }

    fn judgement(&self, job: JobIdx, generation: u32) -> Judgement {
        let Some(facts) = self.jobs.get(usize::from(job)) else {
            return Judgement::default();
        };
        let newest = facts.leases.len();
        let stale = (generation as usize) < newest;
        let after_terminal = match facts.terminal {
            None => false,
            Some(Terminal::Cancelled) => true,
            Some(Terminal::EndedBy(ender)) => ender != generation,
        };
        Judgement {
            newest: u32::try_from(newest).unwrap_or(u32::MAX),
            stale,
            after_terminal,
            // Judged only where nothing else already says the generation
            // is done: one violation per effect, the first reason.
            stale_input: !stale
                && !after_terminal
                && generation != 0
                && (generation as usize) <= facts.revised_upto,
            ..Judgement::default()
        }
    }

    /// The judged step took effect.
    pub(crate) fn effect(&mut self, step: u32, judgement: Judgement) {
        if judgement.stale {
            self.violations.push(Violation {
                step,
                kind: ViolationKind::Stale,
            });
        }
        if judgement.after_terminal {
            self.violations.push(Violation {
                step,
                kind: ViolationKind::AfterTerminal,
            });
        }
        if judgement.stale_input {
            self.violations.push(Violation {
                step,
                kind: ViolationKind::StaleInput,
            });
        }
        if judgement.stale_batch {
            self.violations.push(Violation {
                step,
                kind: ViolationKind::StaleBatch,
            });
        }
        if let Some(effect) = judgement.batch {
            self.batch_applied(effect);
        }
    }

    fn batch_applied(&mut self, effect: BatchEffect) {
        let known = self.batches.iter_mut().find(|b| {
            b.job == effect.job && b.target == effect.target && b.generation == effect.generation
        });
        match known {
            Some(known) => known.batch = known.batch.max(effect.batch),
            None => self.batches.push(effect),
        }
    }

    pub(crate) fn remote_effect(&mut self, job: JobIdx, step: u32) {
        if let Some(facts) = self.facts(job) {
            facts.remote_effects.push(step);
        }
    }

    /// A finish or fail by `generation` committed.
    pub(crate) fn ended(&mut self, job: JobIdx, generation: u32) {
        if let Some(facts) = self.facts(job) {
            facts.terminal.get_or_insert(Terminal::EndedBy(generation));
        }
    }

    /// The user's cancel took effect: what the job already did remotely is
    /// listed for reconciliation, since cancelling undoes none of it (C15, C16).
    pub(crate) fn cancelled(&mut self, job: JobIdx) {
        let Some(facts) = self.jobs.get_mut(usize::from(job)) else {
            return;
        };
        facts.terminal.get_or_insert(Terminal::Cancelled);
        self.reconcile.append(&mut facts.remote_effects);
    }

    /// The user's `revise` took effect: every generation granted so far
    /// worked on the old input. What they already did stays (it was right
    /// for the input it had); what they do from now on is stale.
    pub(crate) fn revised(&mut self, job: JobIdx) {
        if let Some(facts) = self.facts(job) {
            facts.revised_upto = facts.leases.len();
        }
    }

    /// A request sent by step `step` was still in flight when its job was
    /// cancelled or taken over: nobody can say yet what it will do, so it is
    /// listed for reconciliation, marked in flight.
    /// Returns whether it was newly listed.
    pub(crate) fn pending(&mut self, step: u32) -> bool {
        if self.reconcile_in_flight.contains(&step) {
            return false;
        }
        self.reconcile.push(step);
        self.reconcile_in_flight.push(step);
        true
    }

    /// A rolled-back takeover never happened: the requests it listed are
    /// again the current holder's, and nothing about them needs checking.
    pub(crate) fn unlist_pending(&mut self, steps: &[u32]) {
        if !steps.is_empty() {
            self.reconcile.retain(|step| !steps.contains(step));
            self.reconcile_in_flight
                .retain(|step| !steps.contains(step));
        }
    }

    pub(crate) fn mark(&self, job: JobIdx) -> JobMark {
        let facts = self.jobs.get(usize::from(job));
        JobMark {
            generations: facts.map_or(0, |f| f.leases.len()),
            current_lease: facts.and_then(|f| f.leases.last().copied()),
            terminal: facts.and_then(|f| f.terminal),
        }
    }

    /// A transaction rolled back: its claims were never granted, its commits never made.
    pub(crate) fn restore(&mut self, job: JobIdx, mark: &JobMark) {
        if let Some(facts) = self.facts(job) {
            facts.leases.truncate(mark.generations);
            if let (Some(lease), Some(before)) = (facts.leases.last_mut(), mark.current_lease) {
                *lease = before;
            }
            facts.terminal = mark.terminal;
        }
    }

    /// Effects that a rollback took back are not violations.
    pub(crate) fn forget_effects(&mut self, steps: &[u32]) {
        if !steps.is_empty() {
            self.violations.retain(|v| !steps.contains(&v.step));
        }
    }

    pub(crate) fn into_verdicts(mut self) -> Verdicts {
        self.reconcile.sort_unstable();
        self.reconcile_in_flight.sort_unstable();
        let generations = self
            .jobs
            .iter()
            .map(|facts| u32::try_from(facts.leases.len()).unwrap_or(u32::MAX))
            .collect();
        Verdicts {
            violations: self.violations,
            should_reject: self.should_reject,
            may_reject: self.may_reject,
            reconcile: self.reconcile,
            reconcile_in_flight: self.reconcile_in_flight,
            generations,
        }
    }
}
