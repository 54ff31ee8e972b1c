//! A `sql` exercise's statements run on SQLite off the UI thread, so that
//! a statement that runs long never freezes the app: `q`, Esc, signals and
//! a closed terminal are answered while it runs.
//!
//! Submitting keeps the statements as the exercise's last answer (saved
//! like every change) and leaves a [`SqlCommand::Start`] (the model's) in
//! [`App::sql_runs`]. The runtime ([`Runner`], driven by the event loop)
//! runs `sqlbox::battery::run_stoppable` on a thread of its own with a
//! [`Stop`] it keeps, and hands the finished run to [`receive`], which
//! grades it through the session as a submit always did. Esc asks for
//! [`SqlCommand::Cancel`]: the runtime sets the stop, the box ends the
//! statement at its next progress check and the thread ends. The tests
//! run the same [`run`] synchronously and feed [`receive`] its answer.

use sim_core::words::terminal as words;
use std::sync::mpsc::{Receiver, Sender, channel};

use sim_core::sqllab::PlanRun;
use sqlbox::Stop;

use super::model::{App, Screen, SqlCommand, SqlRequest, Work};

/// A finished run: what the box did, or that it was cancelled.
#[derive(Debug, Clone)]
pub(crate) struct SqlDone {
    pub(crate) id: u64,
    pub(crate) run: PlanRun,
    /// The stop was set: the run is not graded, whatever it holds.
    pub(crate) cancelled: bool,
}

/// Runs `request` to the end or until `stop` is set. The runtime's thread
/// calls this; the tests call it directly.
pub(crate) fn run(request: &SqlRequest, stop: &Stop) -> SqlDone {
    let run = sqlbox::battery::run_stoppable(&request.plan, &request.statements, stop);
    SqlDone {
        id: request.id,
        run,
        cancelled: stop.is_stopped(),
    }
}

/// Runs the runs asked for in `app` here and now, in order, and hands each
/// back (one cancelled before it ran stops at once): what the runtime's
/// threads do, for the tests and the front-end driver, which have none.
pub(crate) fn settle(app: &mut App) {
    let commands = std::mem::take(&mut app.sql_runs.commands);
    let cancelled: Vec<u64> = commands
        .iter()
        .filter_map(|command| match command {
            SqlCommand::Cancel(id) => Some(*id),
            SqlCommand::Start(_) => None,
        })
        .collect();
    for command in commands {
        if let SqlCommand::Start(request) = command {
            let stop = Stop::new();
            if cancelled.contains(&request.id) {
                stop.stop();
            }
            let done = run(&request, &stop);
            receive(app, done);
        }
    }
}

/// Hands a finished run to the exercise that asked for it (the screen on
/// top: nothing else can be opened while it waits), which grades it.
pub(crate) fn receive(app: &mut App, done: SqlDone) {
    let Some(Screen::Exercise(mut state)) = app.screens.pop() else {
        // Not waiting (it cannot happen: the screen stays while it runs).
        return;
    };
    let asked = matches!(&state.work, Work::Sql(work)
        if work.running.is_some_and(|running| running.id == done.id));
    if asked {
        if let Work::Sql(work) = &mut state.work {
            work.running = None;
        }
        if done.cancelled {
            app.say(words::SQL_CANCELLED);
        } else {
            super::update::grade_sql_run(app, &mut state, done.run);
        }
    }
    app.screens.push(Screen::Exercise(state));
}

/// The runs on background threads, for the event loop.
pub(crate) struct Runner {
    sender: Sender<SqlDone>,
    done: Receiver<SqlDone>,
    running: Vec<(u64, Stop)>,
}

impl Runner {
    pub(crate) fn new() -> Runner {
        let (sender, done) = channel();
        Runner {
            sender,
            done,
            running: Vec::new(),
        }
    }

    pub(crate) fn is_running(&self) -> bool {
        !self.running.is_empty()
    }

    pub(crate) fn command(&mut self, command: SqlCommand) {
        match command {
            SqlCommand::Start(request) => {
                let stop = Stop::new();
                self.running.push((request.id, stop.clone()));
                let sender = self.sender.clone();
                std::thread::spawn(move || {
                    // The app may have quit; then nobody listens.
                    let _ = sender.send(run(&request, &stop));
                });
            }
            SqlCommand::Cancel(id) => {
                for (running, stop) in &self.running {
                    if *running == id {
                        stop.stop();
                    }
                }
            }
        }
    }

    /// The next finished run, if any, forgotten as running.
    pub(crate) fn finished(&mut self) -> Option<SqlDone> {
        let done = self.done.try_recv().ok()?;
        self.running.retain(|(id, _)| *id != done.id);
        Some(done)
    }

    /// Stops every run (the app is quitting).
    pub(crate) fn stop_all(&self) {
        for (_, stop) in &self.running {
            stop.stop();
        }
    }
}
