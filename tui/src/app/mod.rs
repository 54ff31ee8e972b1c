//! `fencelab` with no arguments: the course in the terminal, and
//! `fencelab open FILE`: one scenario's timeline.
//!
//! The Elm architecture: one [`model::App`], key and mouse events mapped to
//! [`update::Message`]s, [`update::update`] applying them, and a pure
//! [`view::view`]. This module is the runtime around them: it reads the
//! files before the terminal changes (bad input is `FILE:LINE:COL` on
//! stderr and exit status 2), owns the terminal (raw mode, the alternate
//! screen and mouse capture, all given back on quit, on a panic, on
//! SIGTERM, SIGHUP and SIGINT, and when its input ends or the terminal
//! closes: see [`input`]), saves the progress after every change (off the
//! UI thread: [`saver`]), and runs the searches
//! the explorer screen asks for on background threads, handing their
//! progress and reports to [`update::explorer::receive`], and a SQL exercise's
//! statements the same way ([`sql_run`]).

pub(crate) mod explorer;
pub(crate) mod input;
pub(crate) mod keys;
pub(crate) mod layout;
pub(crate) mod measure;
pub(crate) mod model;
pub(crate) mod persist;
pub(crate) mod saver;
pub(crate) mod sql_run;
pub(crate) mod text;
pub(crate) mod theme;
pub(crate) mod timeline;
pub(crate) mod update;
pub(crate) mod view;

#[cfg(test)]
mod tests;

use std::io::{self, IsTerminal as _, Stdout, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use self::explorer::{Command, SearchEvent, SearchRequest};
use self::input::{Input, Watch};
use self::model::App;
use self::persist::{Loaded, Notice, Store};
use self::saver::{Ending, Saving};
use self::theme::Theme;
use self::update::{Message, message_for_event, update};
use crate::report::EXIT_BAD_INPUT;

/// What to open.
#[derive(Debug)]
pub(crate) enum Launch {
    /// The course: built in, or from a lessons folder.
    Course {
        lessons: crate::course_cmd::LessonSource,
    },
    /// One scenario file in the sandbox.
    Open { file: PathBuf },
}

/// How often a playing timeline moves on.
const PLAY_INTERVAL: Duration = Duration::from_millis(700);
/// How long to wait for a key before looking at the signal flag again.
const IDLE_POLL: Duration = Duration::from_millis(200);
/// How often a running search's progress is shown.
const SEARCH_POLL: Duration = Duration::from_millis(50);
/// The exit code's signal number when the terminal's input is gone: a
/// closed terminal is a hang-up (SIGHUP is 1 everywhere).
const INPUT_GONE: usize = 1;

#[allow(clippy::print_stderr)]
fn complain(lines: &[String]) {
    for line in lines {
        // A message may quote the file.
        eprintln!("{}", crate::style::inert_lines(line));
    }
}

/// What the files held: a course, or one scenario and where it came from.
pub(crate) enum Opened {
    Course(Vec<sim_core::course::Lesson>),
    Scenario(String, Box<sim_core::Scenario>),
}

/// Reads what `launch` names. Bad input is reported on stderr (as
/// `FILE:LINE:COL: message`, in `lang`) and becomes the exit code.
pub(crate) fn open(launch: &Launch, lang: sim_core::Lang) -> Result<Opened, ExitCode> {
    match launch {
        Launch::Course { lessons } => match crate::course_cmd::load_lessons(lessons, lang) {
            Ok(files) => Ok(Opened::Course(
                files.into_iter().map(|f| f.lesson).collect(),
            )),
            Err(mut problems) => {
                if matches!(lessons, crate::course_cmd::LessonSource::Folder(dir) if !dir.is_dir())
                {
                    let said = sim_core::words::terminal::LESSONS_NOT_A_FOLDER;
                    problems.push(said.get(lang).to_owned());
                }
                complain(&problems);
                Err(ExitCode::from(EXIT_BAD_INPUT))
            }
        },
        Launch::Open { file } => crate::report::load_scenario_in(file, lang)
            .map(|scenario| Opened::Scenario(file.display().to_string(), Box::new(scenario))),
    }
}

/// The app over what was opened, with the progress `store` holds (a
/// damaged file kept aside and a notice about it).
pub(crate) fn start(opened: Opened, store: Option<&mut Store>, theme: Theme) -> App {
    let loaded = match store {
        Some(store) => store.load(),
        None => Loaded {
            progress: Default::default(),
            notice: Some(Notice::NoHome),
        },
    };
    let mut app = match opened {
        Opened::Course(lessons) => App::course(lessons, loaded.progress, theme),
        Opened::Scenario(source, scenario) => {
            App::sandbox(source, *scenario, loaded.progress, theme)
        }
    };
    app.notice = loaded.notice;
    // A learner without a quiz seed gets one now, saved with the progress:
    // their options keep one shuffled order from here on.
    app.session.seed_if_missing(fresh_seed());
    app
}

/// A seed from the operating system's randomness; should that fail, the
/// clock and the process id (only the order of quiz options depends on it).
fn fresh_seed() -> u32 {
    getrandom::u32().unwrap_or_else(|_| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.subsec_nanos());
        nanos ^ std::process::id().rotate_left(16)
    })
}

pub(crate) fn run(launch: Launch, data_dir: Option<PathBuf>) -> ExitCode {
    let theme = Theme::from_env();
    let mut store = data_dir.or_else(Store::default_dir).map(Store::new);
    // Mistakes in the file are reported in the learner's saved language,
    // read without touching the progress file (a damaged one is set aside
    // only once the app starts).
    let lang = store.as_ref().map_or(sim_core::Lang::En, Store::saved_lang);
    // Everything that can fail on input fails here, before the terminal changes.
    let opened = match open(&launch, lang) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    if !io::stdout().is_terminal() {
        complain(&[
            "fencelab: the course needs a terminal; `fencelab run FILE` prints a timeline as text"
                .to_owned(),
        ]);
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let mut app = start(opened, store.as_mut(), theme);
    let mut saving = store.map(Saving::start);

    let signal = termination_signal();
    install_panic_hook();
    let mut terminal = match enter() {
        Ok(terminal) => terminal,
        Err(error) => {
            leave();
            complain(&[format!(
                "fencelab: cannot start the terminal interface: {error}"
            )]);
            return ExitCode::FAILURE;
        }
    };
    let result = match Watch::new() {
        Ok(input) => event_loop(&mut terminal, &mut app, saving.as_mut(), &signal, &input),
        Err(error) => Err(error),
    };
    leave();
    // The last save, also when drawing failed because the terminal is
    // gone: bounded, and never half-way (see `saver`).
    let ending = saving.map_or(Ending::Nothing, |saving| saving.finish(&app));
    if let Some(words) = ending.farewell(app.lang()) {
        // Nobody may be left to read it (a closed terminal).
        let _ = writeln!(io::stderr(), "{}", crate::style::inert_lines(&words));
    }
    match result {
        Ok(0) => ExitCode::SUCCESS,
        Ok(signal) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)),
        Err(error) => {
            complain(&[format!("fencelab: {error}")]);
            ExitCode::FAILURE
        }
    }
}

/// Runs until `q` (returns 0), a termination signal (returns its number)
/// or the end of the terminal's input (returns [`INPUT_GONE`]). The
/// progress is saved after every change; the caller saves it once more
/// on the way out.
fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    mut saving: Option<&mut Saving>,
    signal: &AtomicUsize,
    input: &Watch,
) -> io::Result<usize> {
    let size = terminal.size()?;
    update(
        app,
        Message::Resize {
            width: size.width,
            height: size.height,
        },
    );
    let mut next_tick = Instant::now() + PLAY_INTERVAL;
    let mut searches = Searches::new();
    let result = loop {
        match step(terminal, app, signal, input, &mut next_tick, &mut searches) {
            Ok(Some(code)) => break Ok(code),
            Ok(None) => {}
            Err(error) => break Err(error),
        }
        if let Some(saving) = saving.as_mut() {
            saving.turn(app);
        }
    };
    searches.cancel_all();
    result
}

/// One turn of the event loop: draw, wait for an event, apply it. Returns
/// the exit code once the app quits or a signal arrives.
fn step(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    signal: &AtomicUsize,
    input: &Watch,
    next_tick: &mut Instant,
    searches: &mut Searches,
) -> io::Result<Option<usize>> {
    {
        let caught = signal.load(Ordering::Relaxed);
        if caught != 0 {
            return Ok(Some(caught));
        }
        terminal.draw(|frame| view::view(frame, app))?;
        if app.quit {
            return Ok(Some(0));
        }
        let poll = if searches.running.is_empty() && !searches.sql.is_running() {
            IDLE_POLL
        } else {
            SEARCH_POLL
        };
        let timeout = if app.playing() {
            next_tick
                .saturating_duration_since(Instant::now())
                .min(poll)
        } else {
            poll
        };
        match input.wait(timeout)? {
            Input::Gone => return Ok(Some(INPUT_GONE)),
            // crossterm reads only what poll(2) saw waiting, then hands out
            // every event it parsed from it (a paste is many). When no key
            // woke us, its queue is drained too: a resize is waiting there,
            // which would swallow the next key (see `input`).
            Input::Idle | Input::Ready => {
                while event::poll(Duration::ZERO)? {
                    let event = event::read()?;
                    if let Some(message) = message_for_event(app, &event) {
                        if message == Message::PlayPause {
                            *next_tick = Instant::now() + PLAY_INTERVAL;
                        }
                        update(app, message);
                    }
                }
            }
        }
        if app.playing() && Instant::now() >= *next_tick {
            update(app, Message::Tick);
            *next_tick = Instant::now() + PLAY_INTERVAL;
        }
        for command in std::mem::take(&mut app.outbox) {
            searches.command(command);
        }
        while let Ok(event) = searches.events.try_recv() {
            if let SearchEvent::Finished { id, .. } = &event {
                searches.running.retain(|(running, _)| running != id);
            }
            update::explorer::receive(app, event);
        }
        for command in std::mem::take(&mut app.sql_runs.commands) {
            searches.sql.command(command);
        }
        while let Some(done) = searches.sql.finished() {
            sql_run::receive(app, done);
        }
        Ok(None)
    }
}

/// The searches running on background threads. Each one's progress
/// callback reads its cancel flag and sends its progress, at most every
/// [`SEARCH_POLL`], with the time since it started: sim-core reads no clock.
/// Beside them, the SQL exercises' runs ([`sql_run::Runner`]).
struct Searches {
    sender: Sender<SearchEvent>,
    events: Receiver<SearchEvent>,
    running: Vec<(u64, Arc<AtomicBool>)>,
    sql: sql_run::Runner,
}

impl Searches {
    fn new() -> Searches {
        let (sender, events) = channel();
        Searches {
            sender,
            events,
            running: Vec::new(),
            sql: sql_run::Runner::new(),
        }
    }

    fn command(&mut self, command: Command) {
        match command {
            Command::Start(request) => {
                let cancel = Arc::new(AtomicBool::new(false));
                self.running.push((request.id, Arc::clone(&cancel)));
                let sender = self.sender.clone();
                std::thread::spawn(move || search_thread(&request, &cancel, &sender));
            }
            Command::Cancel(id) => {
                for (running, flag) in &self.running {
                    if *running == id {
                        flag.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    }

    /// Asks every search and SQL run to stop (the app is quitting).
    fn cancel_all(&self) {
        for (_, flag) in &self.running {
            flag.store(true, Ordering::Relaxed);
        }
        self.sql.stop_all();
    }
}

fn search_thread(request: &SearchRequest, cancel: &AtomicBool, sender: &Sender<SearchEvent>) {
    let started = Instant::now();
    let elapsed_ms = || u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mut last_sent: Option<Instant> = None;
    let id = request.id;
    let mut control = |progress: &sim_core::explore::Progress| {
        if cancel.load(Ordering::Relaxed) {
            return false;
        }
        if last_sent.is_none_or(|at| at.elapsed() >= SEARCH_POLL) {
            last_sent = Some(Instant::now());
            // The app may have quit; then nobody listens.
            let _ = sender.send(SearchEvent::Progress {
                id,
                progress: *progress,
                elapsed_ms: elapsed_ms(),
            });
        }
        true
    };
    let limit = explorer::search_limits().time_limit_ms.unwrap_or(u64::MAX);
    let mut control = crate::explore_cmd::TimeLimited {
        observe: &mut control,
        started: Instant::now(),
        limit: std::time::Duration::from_millis(limit),
        out_of_time: false,
    };
    let result = explorer::run_search(request, &mut control);
    let _ = sender.send(SearchEvent::Finished {
        id,
        result,
        elapsed_ms: elapsed_ms(),
    });
}

fn enter() -> io::Result<Terminal<CrosstermBackend<Stdout>>> {
    enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, Hide, EnableMouseCapture)?;
    Terminal::new(CrosstermBackend::new(io::stdout()))
}

/// Gives the terminal back: no mouse capture, cooked mode, the main
/// screen, the cursor. Safe to call more than once.
fn leave() {
    let _ = execute!(io::stdout(), DisableMouseCapture);
    let _ = disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, Show);
}

/// A panic restores the terminal first, then prints its message, so the
/// message lands on the learner's screen instead of the alternate one.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        leave();
        previous(info);
    }));
}

/// The number of the termination signal caught, 0 until one is. crossterm
/// does not handle signals, so the event loop polls this flag.
fn termination_signal() -> Arc<AtomicUsize> {
    let caught = Arc::new(AtomicUsize::new(0));
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
        for signal in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
            let _ = signal_hook::flag::register_usize(signal, Arc::clone(&caught), signal as usize);
        }
    }
    caught
}
