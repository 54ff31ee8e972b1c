//! The explorer screen's model: the learner picks a design, a few world
//! toggles and a method, and runs the explorers of `sim_core::explore` on
//! it (MODEL.md §7). Its keys and messages are
//! [`update::explorer`](super::update::explorer)'s.
//!
//! The search itself never runs inside `update`: starting one leaves a
//! [`Command::Start`] in `App::outbox`, which the runtime takes, runs on
//! a background thread ([`run_search`]) and answers with [`SearchEvent`]s
//! that it hands to `update::explorer::receive`. Both functions are pure,
//! so the tests run the same search synchronously and feed the same
//! events. Elapsed time is measured by the runtime and arrives inside the
//! events.

use sim_core::Preset;
use sim_core::explore::{
    Control, DesignChoice, EXPLORER_OFFER, ExplorerSettings, Method, Progress, Report,
    SettingsError, World,
};

/// Random schedules the random explorer tries (sim-core's offer).
pub(crate) const RANDOM_CASES: u32 = EXPLORER_OFFER.cases.default as u32;
/// The seed a new explorer screen starts with (sim-core's offer).
pub(crate) const DEFAULT_SEED: u64 = EXPLORER_OFFER.seed.default;

/// The rows of the setup panel, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Setting {
    Design,
    Method,
    Seed,
    Cancel,
    Heartbeat,
    Restarted,
    Targets,
    /// Delivery delays: requests in flight at once (0: none).
    InFlight,
    /// Delivery delays: ticks a request may travel.
    Delay,
}

impl Setting {
    pub(crate) const ALL: [Setting; 9] = [
        Setting::Design,
        Setting::Method,
        Setting::Seed,
        Setting::Cancel,
        Setting::Heartbeat,
        Setting::Restarted,
        Setting::Targets,
        Setting::InFlight,
        Setting::Delay,
    ];
}

/// Where the search is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Run {
    /// Nothing run yet for these settings.
    Idle,
    Running {
        id: u64,
        method: Method,
        max_steps: u16,
        progress: Progress,
        elapsed_ms: u64,
        /// Cancel was asked for; the search stops at its next progress call.
        cancelling: bool,
    },
    Done {
        report: Box<Report>,
        elapsed_ms: u64,
    },
    /// The world could not be built or the search refused it.
    Failed(SettingsError),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExplorerState {
    /// The focused setup row (an index into [`Setting::ALL`]).
    pub(crate) row: usize,
    /// An index into [`Preset::ALL`].
    pub(crate) preset: usize,
    pub(crate) exhaustive: bool,
    pub(crate) seed: u64,
    /// The next digit typed starts a new seed (the row was just focused),
    /// so typing `42` over `1` gives 42, not 142.
    pub(crate) seed_fresh: bool,
    pub(crate) cancel: bool,
    pub(crate) heartbeat: bool,
    pub(crate) restarted: bool,
    /// Two remote targets with the design's protection, or none.
    pub(crate) targets: bool,
    /// The delivery-delay bounds (`--max-in-flight`, `--max-delay`), in
    /// the ranges of sim-core's offer.
    pub(crate) max_in_flight: u8,
    pub(crate) max_delay: u8,
    pub(crate) run: Run,
    /// The result panel's scroll.
    pub(crate) scroll: u16,
}

impl ExplorerState {
    /// A fresh screen, on `preset` (the weakest design when none).
    pub(crate) fn new(preset: Option<Preset>) -> ExplorerState {
        let preset = preset
            .and_then(|p| Preset::ALL.iter().position(|q| *q == p))
            .unwrap_or_else(|| {
                let first = EXPLORER_OFFER.default_design();
                Preset::ALL.iter().position(|q| *q == first).unwrap_or(0)
            });
        ExplorerState {
            row: 0,
            preset,
            exhaustive: false,
            seed: DEFAULT_SEED,
            seed_fresh: true,
            cancel: false,
            heartbeat: false,
            restarted: false,
            targets: EXPLORER_OFFER.targets,
            max_in_flight: EXPLORER_OFFER.bounds().max_in_flight,
            max_delay: EXPLORER_OFFER.bounds().max_delay,
            run: Run::Idle,
            scroll: 0,
        }
    }

    pub(crate) fn preset(&self) -> Preset {
        Preset::ALL
            .get(self.preset)
            .copied()
            .unwrap_or(Preset::TtlLockOnly)
    }

    pub(crate) fn method(&self) -> Method {
        if self.exhaustive {
            Method::Exhaustive
        } else {
            Method::Random {
                seed: self.seed,
                cases: RANDOM_CASES,
            }
        }
    }

    /// The screen's settings in sim-core's terms; the rest are the offer's
    /// defaults.
    pub(crate) fn settings(&self) -> ExplorerSettings {
        ExplorerSettings {
            design: Some(DesignChoice::Preset(self.preset())),
            targets: (!self.targets).then(Vec::new),
            seed: Some(self.seed),
            exhaustive: self.exhaustive,
            max_in_flight: Some(u64::from(self.max_in_flight)),
            max_delay: Some(u64::from(self.max_delay)),
            cancel: self.cancel,
            heartbeat: self.heartbeat,
            restarted: self.restarted,
            ..ExplorerSettings::default()
        }
    }

    /// The world the settings describe, validated by sim-core.
    pub(crate) fn world(&self) -> Result<World, SettingsError> {
        self.settings().world()
    }

    pub(crate) fn running(&self) -> bool {
        matches!(self.run, Run::Running { .. })
    }

    pub(crate) fn setting(&self) -> Setting {
        Setting::ALL
            .get(self.row)
            .copied()
            .unwrap_or(Setting::Design)
    }

    /// Moves the focused setting one value on (`forward`) or back.
    pub(crate) fn change(&mut self, forward: bool) {
        let count = Preset::ALL.len();
        match self.setting() {
            Setting::Design => {
                self.preset = if forward {
                    (self.preset + 1) % count
                } else {
                    (self.preset + count - 1) % count
                };
            }
            Setting::Method => self.exhaustive = !self.exhaustive,
            Setting::Seed => {
                self.seed = if forward {
                    self.seed.saturating_add(1)
                } else {
                    self.seed.saturating_sub(1)
                };
            }
            Setting::Cancel => self.cancel = !self.cancel,
            Setting::Heartbeat => self.heartbeat = !self.heartbeat,
            Setting::Restarted => self.restarted = !self.restarted,
            Setting::Targets => self.targets = !self.targets,
            Setting::InFlight => {
                self.max_in_flight =
                    step_within(self.max_in_flight, EXPLORER_OFFER.max_in_flight, forward);
            }
            Setting::Delay => {
                self.max_delay = step_within(self.max_delay, EXPLORER_OFFER.max_delay, forward);
            }
        }
        // A result belongs to the settings it was computed for.
        self.run = Run::Idle;
        self.scroll = 0;
    }
}

/// `value` one on or back, kept within the range `setting` offers.
fn step_within(value: u8, setting: sim_core::explore::NumberSetting, forward: bool) -> u8 {
    let next = if forward {
        u64::from(value).saturating_add(1)
    } else {
        u64::from(value).saturating_sub(1)
    };
    u8::try_from(next.clamp(setting.min, setting.max)).unwrap_or(value)
}

/// A search for the runtime to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SearchRequest {
    pub(crate) id: u64,
    pub(crate) world: World,
    pub(crate) method: Method,
}

/// What `update` asks of the runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Command {
    Start(SearchRequest),
    /// Make search `id`'s progress callback answer "stop".
    Cancel(u64),
}

/// What a running search tells the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SearchEvent {
    Progress {
        id: u64,
        progress: Progress,
        elapsed_ms: u64,
    },
    Finished {
        id: u64,
        result: Result<Box<Report>, SettingsError>,
        elapsed_ms: u64,
    },
}

/// The caps of a search from this screen: `fencelab explore`'s defaults.
pub(crate) fn search_limits() -> sim_core::explore::Limits {
    EXPLORER_OFFER.limits()
}

/// Runs `request` to the end, or until `control` says stop (the runtime's
/// control stops it at [`search_limits`]' time limit). The runtime's
/// background thread calls this; the tests call it directly.
pub(crate) fn run_search(
    request: &SearchRequest,
    control: &mut dyn Control,
) -> Result<Box<Report>, SettingsError> {
    sim_core::explore::explore_limited(
        &request.world,
        request.method,
        None,
        search_limits(),
        control,
    )
    .map(Box::new)
    .map_err(SettingsError::World)
}
