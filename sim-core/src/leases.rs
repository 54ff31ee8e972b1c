//! The leases a trace granted, as spans of steps and ticks: what a timeline
//! draws on a worker's lane. Shared so that the terminal and the browser
//! draw the same bars.

use crate::design::LeaseClock;
use crate::scenario::{Action, JobIdx, Scenario, WorkerIdx};
use crate::trace::{Outcome, Trace};

/// Why a lease ended before its `lease_until`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaseClose {
    /// The job was finished or failed (a cancel leaves the lease running).
    Ended,
    /// A newer claim took the row.
    Replaced,
}

impl LeaseClose {
    pub fn name(self) -> &'static str {
        match self {
            LeaseClose::Ended => "ended",
            LeaseClose::Replaced => "replaced",
        }
    }
}

/// One lease the job table granted, in ticks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    pub worker: WorkerIdx,
    pub job: JobIdx,
    pub generation: u32,
    /// The claim that granted it.
    pub start_step: usize,
    /// The step at which it was granted: the claim's own, or for a claim
    /// that waited for a row lock, the step that released the lock.
    pub granted_step: usize,
    /// `lease_until` as written (in the lease clock's time), after renewals.
    pub until: i64,
    /// `until` in true time (the lease clock may be skewed).
    pub expiry: i64,
    /// The step that ended it early (a finish, a fail, a newer claim).
    pub closed: Option<(usize, LeaseClose)>,
}

/// The leases granted in `trace`, in the order of their claims.
pub fn leases(scenario: &Scenario, trace: &Trace) -> Vec<Lease> {
    let mut spans: Vec<Lease> = Vec::new();
    // Per job: the lease that holds its row now.
    let mut active: Vec<Option<usize>> = vec![None; scenario.jobs.len()];
    let offset = |worker: WorkerIdx| match scenario.design.lease_clock {
        LeaseClock::Worker => scenario
            .worker_offsets
            .get(usize::from(worker))
            .copied()
            .unwrap_or(0),
        LeaseClock::Db => scenario.db_offset,
    };
    // A statement that waited for a row lock ran inside the step that
    // released it (a claim is granted there): visit the steps in the order
    // they took effect, each waiter right after the step that released it.
    let mut order: Vec<usize> = (0..trace.steps.len().min(scenario.steps.len())).collect();
    order.sort_by_key(|&index| {
        let released = trace.steps.get(index).and_then(|r| r.released_by);
        (
            released.map_or(index, |step| step as usize),
            released.is_some(),
            index,
        )
    });
    for index in order {
        let (Some(step), Some(record)) = (scenario.steps.get(index), trace.steps.get(index)) else {
            continue;
        };
        if record.outcome != Outcome::Ok {
            continue;
        }
        let Some(job) = record.job else { continue };
        let Some(slot) = active.get_mut(usize::from(job)) else {
            continue;
        };
        match step.action {
            Action::Claim | Action::ClaimNext | Action::UpdateClaim => {
                let (Some(worker), Some(generation)) = (step.worker, record.generation) else {
                    continue;
                };
                if let Some(previous) = slot.take()
                    && let Some(span) = spans.get_mut(previous)
                {
                    span.closed.get_or_insert((index, LeaseClose::Replaced));
                }
                let until = record
                    .lease_until
                    .unwrap_or_else(|| i64::try_from(step.at).unwrap_or(i64::MAX));
                spans.push(Lease {
                    worker,
                    job,
                    generation,
                    start_step: index,
                    granted_step: record.released_by.map_or(index, |step| step as usize),
                    until,
                    expiry: until.saturating_sub(offset(worker)),
                    closed: None,
                });
                *slot = Some(spans.len() - 1);
            }
            Action::Renew => {
                if let (Some(current), Some(until)) = (*slot, record.lease_until)
                    && let Some(span) = spans.get_mut(current)
                    && Some(span.worker) == step.worker
                {
                    span.until = until;
                    span.expiry = until.saturating_sub(offset(span.worker));
                }
            }
            // A cancel marks the job cancelled and leaves its lease in the
            // row: the old holder's lease runs on (what lesson 5 shows), and
            // only a check of the state stops its late effects.
            Action::Finish | Action::Fail => {
                if let Some(current) = slot.take()
                    && let Some(span) = spans.get_mut(current)
                {
                    span.closed.get_or_insert((index, LeaseClose::Ended));
                }
            }
            _ => {}
        }
    }
    spans
}
