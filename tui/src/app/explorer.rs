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
    Control, EXPLORER_OFFER, ExplorerForm, FormKey, Method, Progress, Report, SettingsError, World,
};

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

/// The screen: sim-core's form (the settings, their rows and how they
/// step), and what is the terminal's own — the focused row, the search
/// and the result's scroll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExplorerState {
    /// The focused setup row (an index into [`FormKey::ALL`]).
    pub(crate) row: usize,
    pub(crate) form: ExplorerForm,
    /// The next digit typed starts a new seed (the row was just focused),
    /// so typing `42` over `1` gives 42, not 142.
    pub(crate) seed_fresh: bool,
    pub(crate) run: Run,
    /// The result panel's scroll.
    pub(crate) scroll: u16,
}

impl ExplorerState {
    /// A fresh screen, on `preset` (the offer's first design when none).
    pub(crate) fn new(preset: Option<Preset>) -> ExplorerState {
        ExplorerState {
            row: 0,
            form: ExplorerForm::new(preset),
            seed_fresh: true,
            run: Run::Idle,
            scroll: 0,
        }
    }

    pub(crate) fn running(&self) -> bool {
        matches!(self.run, Run::Running { .. })
    }

    pub(crate) fn setting(&self) -> FormKey {
        FormKey::ALL
            .get(self.row)
            .copied()
            .unwrap_or(FormKey::Design)
    }

    /// Moves the focused setting one value on (`forward`) or back.
    pub(crate) fn change(&mut self, forward: bool) {
        self.form.step(self.setting(), forward);
        // A result belongs to the settings it was computed for.
        self.run = Run::Idle;
        self.scroll = 0;
    }
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
