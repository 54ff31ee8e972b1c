//! sim-core's exploration machine as a `stateright` model, so that an
//! independent model checker can cross-check (and be benchmarked against)
//! sim-core's breadth-first explorer on the very same step function.
//!
//! Shared by `it/stateright_peer.rs` and `benches/explore.rs` through
//! `#[path = "../peer/mod.rs"] mod peer;`.

use sim_core::explore::{Machine, Move, State, World, WorldError};
use stateright::{Model, Property};

/// Name of the one safety property.
pub(crate) const NO_VIOLATION: &str = "no stale or after-terminal effect";

/// A state of the peer model: sim-core's compact state plus whether the move
/// that reached it was an unsafe effect (the oracle judges moves, stateright
/// judges states, so the verdict is carried into the successor).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PeerState {
    pub(crate) state: State,
    pub(crate) violated: bool,
}

/// sim-core's [`Machine`] behind stateright's [`Model`] trait.
#[derive(Debug, Clone)]
pub(crate) struct Peer {
    machine: Machine,
}

impl Peer {
    pub(crate) fn new(world: World) -> Result<Peer, WorldError> {
        Ok(Peer {
            machine: Machine::new(world)?,
        })
    }
}

impl Model for Peer {
    type State = PeerState;
    type Action = Move;

    fn init_states(&self) -> Vec<PeerState> {
        vec![PeerState {
            state: self.machine.initial(),
            violated: false,
        }]
    }

    fn actions(&self, state: &PeerState, actions: &mut Vec<Move>) {
        // A violating state ends its schedule, as in sim-core's search.
        if state.violated {
            actions.clear();
            return;
        }
        self.machine.moves(&state.state, actions);
    }

    fn next_state(&self, last: &PeerState, action: Move) -> Option<PeerState> {
        let mut next = *last;
        let result = self.machine.apply(&mut next.state, action);
        next.violated = result.violation.is_some();
        // Always `Some`: stateright drops `None` successors (meaning "no
        // change"), while sim-core counts self-loops as transitions.
        Some(next)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        // At least one property is essential: with none, stateright's BFS
        // stops after the initial states ("no discoveries awaited").
        vec![Property::always(NO_VIOLATION, |_, state: &PeerState| {
            !state.violated
        })]
    }
}
