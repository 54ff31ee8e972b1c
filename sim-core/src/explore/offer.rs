//! What the explorer forms of both front ends offer: each setting's default
//! and the values it may take, and the designs and protections to choose
//! from. The terminal's explorer screen and the page's form read these, so
//! the two ask the same questions of the same worlds.

use crate::design::{Preset, Protect};
use crate::explore::Limits;
use crate::explore::world::{
    Bounds, MAX_CLAIMS_BOUND, MAX_DELAY_BOUND, MAX_IN_FLIGHT, MAX_JOBS, MAX_SCHEDULE,
    MAX_TIME_BOUND, MAX_TTL, MAX_WORKERS,
};

/// A number a learner may set: where it starts and how far it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberSetting {
    pub default: u64,
    pub min: u64,
    pub max: u64,
}

impl NumberSetting {
    /// `value`, if the form may offer it.
    pub fn check(self, value: u64) -> Option<u64> {
        (self.min..=self.max).contains(&value).then_some(value)
    }
}

/// The explorer form: every setting and choice, with its default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplorerOffer {
    pub workers: NumberSetting,
    pub ttl: NumberSetting,
    pub jobs: NumberSetting,
    pub seed: NumberSetting,
    /// Random schedules the random explorer tries.
    pub cases: NumberSetting,
    pub max_time: NumberSetting,
    pub max_claims: NumberSetting,
    pub max_steps: NumberSetting,
    /// Requests in flight at once; 0: writes are instantaneous (no delays).
    pub max_in_flight: NumberSetting,
    /// Ticks a request may travel before it must arrive.
    pub max_delay: NumberSetting,
    /// Distinct states the exhaustive explorer visits before it stops
    /// incomplete.
    pub max_states: NumberSetting,
    /// Seconds a search may run before the caller stops it incomplete.
    pub time_limit_s: NumberSetting,
    /// In the order the forms list them; the first is the default (the
    /// weakest design, so the first search finds something).
    pub designs: [Preset; Preset::ALL.len()],
    pub protections: [Protect; Protect::ALL.len()],
    /// Two remote targets with the design's protection, rather than the
    /// job table alone.
    pub targets: bool,
}

/// The one explorer offer.
pub const EXPLORER_OFFER: ExplorerOffer = ExplorerOffer {
    workers: NumberSetting {
        default: 2,
        min: 2,
        max: MAX_WORKERS as u64,
    },
    ttl: NumberSetting {
        default: 3,
        min: 1,
        max: MAX_TTL as u64,
    },
    jobs: NumberSetting {
        default: 1,
        min: 1,
        max: MAX_JOBS as u64,
    },
    seed: NumberSetting {
        default: 1,
        min: 0,
        max: u32::MAX as u64,
    },
    cases: NumberSetting {
        default: 256,
        min: 1,
        max: 1_000_000,
    },
    max_time: NumberSetting {
        default: 12,
        min: 1,
        max: MAX_TIME_BOUND as u64,
    },
    max_claims: NumberSetting {
        default: 3,
        min: 1,
        max: MAX_CLAIMS_BOUND as u64,
    },
    max_steps: NumberSetting {
        default: MAX_SCHEDULE as u64,
        min: 1,
        max: MAX_SCHEDULE as u64,
    },
    max_in_flight: NumberSetting {
        default: 0,
        min: 0,
        max: MAX_IN_FLIGHT as u64,
    },
    max_delay: NumberSetting {
        default: 4,
        min: 0,
        max: MAX_DELAY_BOUND as u64,
    },
    max_states: NumberSetting {
        default: crate::explore::DEFAULT_MAX_STATES,
        min: 100,
        max: 20_000_000,
    },
    time_limit_s: NumberSetting {
        default: 30,
        min: 1,
        max: 3600,
    },
    designs: Preset::ALL,
    protections: Protect::ALL,
    targets: true,
};

impl ExplorerOffer {
    /// The default bounds.
    pub fn bounds(&self) -> Bounds {
        Bounds {
            max_time: u8::try_from(self.max_time.default).unwrap_or(u8::MAX),
            max_claims: u8::try_from(self.max_claims.default).unwrap_or(u8::MAX),
            max_steps: u16::try_from(self.max_steps.default).unwrap_or(u16::MAX),
            max_in_flight: u8::try_from(self.max_in_flight.default).unwrap_or(0),
            max_delay: u8::try_from(self.max_delay.default).unwrap_or(0),
        }
    }

    /// The default caps on a search's work.
    pub fn limits(&self) -> Limits {
        Limits {
            max_states: self.max_states.default,
            time_limit_ms: Some(self.time_limit_s.default.saturating_mul(1000)),
        }
    }

    /// The design a new form starts on.
    pub fn default_design(&self) -> Preset {
        self.designs[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_offered_and_match_the_worlds_own() {
        let offer = EXPLORER_OFFER;
        for setting in [
            offer.workers,
            offer.ttl,
            offer.jobs,
            offer.seed,
            offer.cases,
            offer.max_time,
            offer.max_claims,
            offer.max_steps,
            offer.max_in_flight,
            offer.max_delay,
            offer.max_states,
            offer.time_limit_s,
        ] {
            assert_eq!(setting.check(setting.default), Some(setting.default));
            assert_eq!(setting.check(setting.max + 1), None);
        }
        assert_eq!(offer.bounds(), Bounds::default());
        let options = crate::explore::WorldOptions::new(
            offer.default_design().design(),
            crate::DesignSource::Preset(offer.default_design()),
        );
        assert_eq!(u64::from(options.workers), offer.workers.default);
        assert_eq!(u64::from(options.ttl), offer.ttl.default);
        assert_eq!(u64::from(options.jobs), offer.jobs.default);
    }
}
