//! `fencelab`: the terminal front end. Parses the command line in one layer
//! ([`Cli`]) and hands validated values to the command modules.
//!
//! A library only so that benchmarks reach the app's rendering
//! ([`bench`]); the binary (`main.rs`) calls [`main`].

use sim_core::Lang;
use sim_core::explore::{EXPLORER_OFFER, ExplorerOffer, NumberSetting};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod app;
pub mod bench;
mod course_cmd;
#[doc(hidden)]
pub mod drive;
mod embedded;
mod explore_cmd;
mod input;
mod practice_cmd;
mod replay_cmd;
mod report;
mod run_json;
mod sql_cmd;
pub use sqlbox;
mod style;
mod web_cmd;

/// Learn why a lease needs a fencing token: step through timelines of
/// workers, leases, fences, clocks and remote targets, and watch stale
/// writes get through weak designs.
#[derive(Debug, Parser)]
#[command(
    name = "fencelab",
    version,
    after_help = "Without a command, fencelab opens the course (built into the binary, or\nthe lessons in --lessons DIR) in the terminal; progress is saved after every\nchange.\n\nExamples:\n  fencelab\n  fencelab open examples/01-article-stale-finish.toml\n  fencelab run examples/01-article-stale-finish.toml\n  fencelab run examples/02-ttl-lock-double-execution.toml --json\n  fencelab explore --design fenced-highest-seen\n  fencelab explore --all-presets\n\nColour is used only on a terminal, never when NO_COLOR is set; symbols\n(✓ ✗ ↺ ‼) carry every meaning without it."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Read the course from this lessons folder instead of the one built
    /// into fencelab (without a command; for lesson authors).
    #[arg(long, value_name = "DIR")]
    lessons: Option<PathBuf>,
    /// Where your progress is kept (default: the user data directory,
    /// e.g. ~/.local/share/fencelab).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Open a scenario file on the interactive timeline.
    #[command(
        after_help = "Examples:\n  fencelab open examples/01-article-stale-finish.toml\n\nKeys: ← → step, Home/End, Space play, ? help, q quit. A file with mistakes is\nreported as FILE:LINE:COL: message with exit status 2."
    )]
    Open {
        /// The scenario file (TOML; see docs/scenario-format.md).
        file: PathBuf,
        /// Where your progress (and language) is kept.
        #[arg(long, value_name = "DIR")]
        data_dir: Option<PathBuf>,
    },
    /// Replay a scenario file and show what every step did and which effects were unsafe.
    #[command(
        after_help = "Examples:\n  fencelab run examples/01-article-stale-finish.toml\n  fencelab run my-scenario.toml --json | jq '.violations'\n\nExit status: 0 when the scenario ran (violations or not), 2 when the file is\ninvalid; errors are printed as FILE:LINE:COL: message."
    )]
    Run {
        /// The scenario file (TOML; see docs/scenario-format.md).
        file: PathBuf,
        /// Print the trace as one JSON object (docs/MODEL.md §6) instead of a table.
        #[arg(long)]
        json: bool,
        /// Language of titles and notes: `en` or `zh` (default: from LANG).
        #[arg(long, value_enum)]
        lang: Option<Lang>,
        /// Also run the job-table statements on a real database and show per
        /// step whether it agrees with the model: `sqlite` (embedded, in
        /// memory) or a `postgres://…` URL (one connection per worker).
        #[arg(long, value_name = "sqlite|postgres://URL")]
        db: Option<String>,
    },
    /// Print the SQL of a scenario's job-table steps: the schema, then every
    /// statement with the values bound at its step and the model's row count.
    #[command(
        after_help = "Examples:\n  fencelab sql examples/01-article-stale-finish.toml\n  fencelab sql examples/11-skip-locked-queue.toml --dialect postgres\n\nExit status 2 when the file is invalid (printed as FILE:LINE:COL: message)."
    )]
    Sql {
        /// The scenario file (TOML; see docs/scenario-format.md).
        file: PathBuf,
        /// Which database's spelling.
        #[arg(long, value_enum, default_value = "sqlite")]
        dialect: sim_core::sql::Dialect,
        /// Language of error messages: `en` or `zh` (default: from LANG).
        #[arg(long, value_enum)]
        lang: Option<Lang>,
    },
    /// Attack a design with the interleaving explorers: random schedules
    /// (proptest, shrunk to a minimal counterexample) or every schedule
    /// within bounds (breadth-first).
    #[command(
        after_help = "Examples:\n  fencelab explore --design ttl-lock-only\n  fencelab explore --design fenced-registered --exhaustive\n  fencelab explore --design db-conditional --no-targets --cancel --exhaustive --json\n  fencelab explore --design my-design.toml --targets none,registered_token --out cex.toml\n  fencelab explore --all-presets\n\nThe verdict is SAFE within the stated bounds, or UNSAFE with the shortest\ncounterexample found, as a timeline; --out writes it as a scenario file that\n`fencelab run` replays. Exit status 0 either way, 2 on bad input."
    )]
    Explore(ExploreArgs),
    /// Check the lessons (the built-in course, or a folder): parse every
    /// file, run every scenario, prove every exercise solvable, and print the
    /// concept-coverage table.
    #[command(
        after_help = "Examples:\n  fencelab lint\n  fencelab lint lessons/ --lang zh\n\nExit status: 0 when every check passes, 1 when a lesson parses but fails a\ncheck (an unsolvable exercise, an uncovered concept), 2 when a file is\ninvalid (printed as FILE:LINE:COL: message)."
    )]
    Lint {
        /// A lessons folder (default: the course built into fencelab).
        dir: Option<PathBuf>,
        /// Language of concept names: `en` or `zh` (default: from LANG).
        #[arg(long, value_enum)]
        lang: Option<Lang>,
    },
    /// Grade a learner's answers file against the lessons (for teachers).
    #[command(
        after_help = "Examples:\n  fencelab grade answers.json\n  fencelab grade answers.json --lessons my-course/ --json\n\nThe answers file's format is described in lessons/README.md. Every answer is\ngraded by the simulator now, from the lesson's scenario and design."
    )]
    Grade {
        /// The answers file (JSON).
        answers: PathBuf,
        /// A lessons folder (default: the course built into fencelab).
        #[arg(long, value_name = "DIR")]
        lessons: Option<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Language of the report: `en` or `zh` (default: from LANG).
        #[arg(long, value_enum)]
        lang: Option<Lang>,
    },
    /// Draw one practice round: a fresh timeline of a lesson's practice
    /// world, the same for the same seed and round, printed as its scenario
    /// file (`fencelab run` replays it).
    #[command(
        after_help = "Examples:\n  fencelab practice --seed 7\n  fencelab practice --lesson 05-cancel-and-reconcile --level 3 --seed 7 --round 2\n  fencelab practice --concept C16 --seed 7 --answer-key\n  fencelab practice --seed 7 --json > round.json\n\nThe learner marks the steps a safe system must refuse; `fencelab grade` grades\nan answer {\"practice\": KEY, \"mark\": [...]}, KEY as printed. Exit status 2 on\nbad input."
    )]
    Practice {
        /// The lesson whose practice world to draw from (default: the first
        /// with one that practises --concept, or the course's first).
        #[arg(long, value_name = "ID")]
        lesson: Option<String>,
        /// A concept the round is about (C01, C03, C05, C15, C16).
        #[arg(long, value_name = "C")]
        concept: Option<String>,
        /// How large the round is (1 to 4: workers, targets, steps, delays).
        #[arg(long, default_value_t = 1)]
        level: u8,
        /// The learner's seed.
        #[arg(long)]
        seed: u32,
        /// The round's number (from 0).
        #[arg(long, default_value_t = 0)]
        round: u32,
        /// Print the round as one JSON object.
        #[arg(long)]
        json: bool,
        /// Also print the oracle's key (for teachers).
        #[arg(long)]
        answer_key: bool,
        /// A lessons folder (default: the course built into fencelab).
        #[arg(long, value_name = "DIR")]
        lessons: Option<PathBuf>,
        /// Language of the header and messages: `en` or `zh` (default: from LANG).
        #[arg(long, value_enum)]
        lang: Option<Lang>,
    },
    /// Serve the browser page on 127.0.0.1 only: the page built into
    /// fencelab (when web/dist/ existed at its build), or a folder.
    #[command(
        after_help = "Examples:\n  fencelab web --open\n  fencelab web --port 8123\n  fencelab web --dir web/dist    (a page built after this fencelab)\n\nExit status 2 when this fencelab was built without the page: build the\npage with `cargo xtask web`, then rebuild fencelab."
    )]
    Web {
        /// The port on 127.0.0.1 (0: any free port).
        #[arg(long, default_value_t = 8000)]
        port: u16,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
        /// Serve this folder (e.g. web/dist) instead of the built-in page.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Language of the messages: `en` or `zh` (default: from LANG).
        #[arg(long, value_enum)]
        lang: Option<Lang>,
    },
}

#[derive(Debug, clap::Args)]
struct ExploreArgs {
    /// A design preset (ttl-lock-only, client-check, idempotency-only,
    /// fenced-highest-seen, fenced-registered, db-conditional, full) or a
    /// TOML file with a design table.
    #[arg(long, value_name = "PRESET|FILE")]
    design: Option<String>,
    /// Number of workers (2 to 4).
    #[arg(long, default_value_t = offered(OFFER.workers), value_parser = clap::value_parser!(u8).range(span(OFFER.workers)))]
    workers: u8,
    /// Protection of each remote target, comma-separated (none,
    /// idempotency_key, highest_token, registered_token, gateway, versioned,
    /// or `design` for the design's default). Default: two targets with the
    /// design's default protection.
    #[arg(long, value_name = "MODE,...")]
    targets: Option<String>,
    /// No remote targets: explore the job table alone.
    #[arg(long, conflicts_with = "targets")]
    no_targets: bool,
    /// Lease length in ticks (1 to 15).
    #[arg(long, default_value_t = offered(OFFER.ttl), value_parser = clap::value_parser!(u8).range(span(OFFER.ttl)))]
    ttl: u8,
    /// Seed of the random explorer (and of `token = "random"`), 0 to 4294967295.
    #[arg(long, default_value_t = OFFER.seed.default, value_parser = clap::value_parser!(u64).range(OFFER.seed.min..=OFFER.seed.max))]
    seed: u64,
    /// Random schedules to try before answering SAFE.
    #[arg(long, default_value_t = offered(OFFER.cases), value_parser = clap::value_parser!(u32).range(span(OFFER.cases)))]
    cases: u32,
    /// Search every schedule within the bounds, breadth-first (the shortest
    /// counterexample, or a proof within bounds).
    #[arg(long)]
    exhaustive: bool,
    /// Time never advances past this tick (at most 48).
    #[arg(long, default_value_t = offered(OFFER.max_time), value_parser = clap::value_parser!(u8).range(span(OFFER.max_time)))]
    max_time: u8,
    /// At most this many claims are granted (1 to 8).
    #[arg(long, default_value_t = offered(OFFER.max_claims), value_parser = clap::value_parser!(u8).range(span(OFFER.max_claims)))]
    max_claims: u8,
    /// At most this many scheduler moves in one schedule (1 to 64).
    #[arg(long, default_value_t = offered(OFFER.max_steps), value_parser = clap::value_parser!(u16).range(span(OFFER.max_steps)))]
    max_steps: u16,
    /// Delivery delays: at most this many requests in flight (0 to 3; 0:
    /// writes are instantaneous).
    #[arg(long, default_value_t = offered(OFFER.max_in_flight), value_parser = clap::value_parser!(u8).range(span(OFFER.max_in_flight)))]
    max_in_flight: u8,
    /// A request arrives at most this many ticks after it was sent (0 to 15).
    #[arg(long, default_value_t = offered(OFFER.max_delay), value_parser = clap::value_parser!(u8).range(span(OFFER.max_delay)))]
    max_delay: u8,
    /// Stop, incomplete, after this many distinct states (exhaustive search).
    #[arg(long, default_value_t = OFFER.max_states.default, value_parser = clap::value_parser!(u64).range(OFFER.max_states.min..=OFFER.max_states.max))]
    max_states: u64,
    /// Stop, incomplete, after this many seconds.
    #[arg(long, default_value_t = OFFER.time_limit_s.default, value_parser = clap::value_parser!(u64).range(OFFER.time_limit_s.min..=OFFER.time_limit_s.max))]
    time_limit: u64,
    /// Number of jobs (1 to 3); with several, workers claim the next free one.
    #[arg(long, default_value_t = offered(OFFER.jobs), value_parser = clap::value_parser!(u8).range(span(OFFER.jobs)))]
    jobs: u8,
    /// Let the user revise a job's input once, at any moment (C15): with
    /// claims that take no row lock and tokens that are not random.
    #[arg(long)]
    revise: bool,
    /// Let the user cancel a job once, at any moment.
    #[arg(long)]
    cancel: bool,
    /// Workers renew their lease before every write and before finishing.
    #[arg(long)]
    heartbeat: bool,
    /// Make the last worker a restarted incarnation of the first (same owner).
    #[arg(long)]
    restarted: bool,
    /// How the workers claim (default: the design's `claim`, else atomic):
    /// atomic, read_then_update, select_for_update, skip_locked,
    /// held_across_work, nowait, or (with 2 jobs) lock_both_own_order or
    /// lock_both_id_order.
    #[arg(long, value_name = "PROCEDURE")]
    claim: Option<String>,
    /// Let the scheduler crash a worker whose open transaction holds a row
    /// lock: the transaction rolls back and its lock is freed.
    #[arg(long)]
    crash: bool,
    /// Write the counterexample, if any, as a scenario file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print one JSON object (verdict, bounds, stats, explanation, counterexample).
    #[arg(long)]
    json: bool,
    /// Explore every preset (and the telling custom designs) exhaustively and
    /// print the classification table. Each row has its own world, so the
    /// world's options are refused beside it; the limits and --json apply.
    #[arg(long, conflicts_with_all = [
        "design", "workers", "targets", "no_targets", "ttl", "seed", "cases", "exhaustive",
        "max_time", "max_claims", "max_steps", "max_in_flight", "max_delay", "jobs", "cancel", "revise",
        "heartbeat", "restarted", "claim", "crash", "out",
    ])]
    all_presets: bool,
    /// Language of explanations: `en` or `zh` (default: from LANG).
    #[arg(long, value_enum)]
    lang: Option<Lang>,
}

/// The explorer's defaults and ranges: the same ones the terminal's explorer
/// screen and the page's form offer (sim-core decides them once).
const OFFER: ExplorerOffer = EXPLORER_OFFER;

/// A setting's default in the argument's own type (every offered default
/// fits it; `Default` is only the unreachable fallback).
fn offered<T: TryFrom<u64> + Default>(setting: NumberSetting) -> T {
    T::try_from(setting.default).unwrap_or_default()
}

/// The values a setting may take, as clap's ranged parsers want them.
fn span(setting: NumberSetting) -> std::ops::RangeInclusive<i64> {
    let bound = |value: u64| i64::try_from(value).unwrap_or(i64::MAX);
    bound(setting.min)..=bound(setting.max)
}

/// The `fencelab` command: parses the arguments and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Run {
            file,
            json,
            lang,
            db,
        }) => match db {
            None => report::run_command(&file, json, lang.unwrap_or_else(default_lang)),
            Some(db) => replay_cmd::run_on_db(&file, &db, json, lang.unwrap_or_else(default_lang)),
        },
        Some(Command::Sql {
            file,
            dialect,
            lang,
        }) => sql_cmd::sql_command(&file, dialect, lang.unwrap_or_else(default_lang)),
        Some(Command::Lint { dir, lang }) => course_cmd::lint_command(
            &course_cmd::LessonSource::from_arg(dir),
            lang.unwrap_or_else(default_lang),
        ),
        Some(Command::Grade {
            answers,
            lessons,
            json,
            lang,
        }) => course_cmd::grade_command(
            &answers,
            &course_cmd::LessonSource::from_arg(lessons),
            json,
            lang.unwrap_or_else(default_lang),
        ),
        Some(Command::Practice {
            lesson,
            concept,
            level,
            seed,
            round,
            json,
            answer_key,
            lessons,
            lang,
        }) => practice_cmd::practice_command(&practice_cmd::PracticeOptions {
            lesson,
            concept,
            level,
            seed,
            round,
            json,
            answer_key,
            lessons: course_cmd::LessonSource::from_arg(lessons),
            lang: lang.unwrap_or_else(default_lang),
        }),
        Some(Command::Explore(args)) => {
            explore_cmd::explore_command(&explore_cmd::ExploreOptions {
                design: args.design,
                workers: args.workers,
                targets: args.targets,
                no_targets: args.no_targets,
                ttl: args.ttl,
                seed: args.seed,
                cases: args.cases,
                exhaustive: args.exhaustive,
                max_time: args.max_time,
                max_claims: args.max_claims,
                max_steps: args.max_steps,
                max_in_flight: args.max_in_flight,
                max_delay: args.max_delay,
                max_states: args.max_states,
                time_limit_s: args.time_limit,
                jobs: args.jobs,
                cancel: args.cancel,
                revise: args.revise,
                heartbeat: args.heartbeat,
                restarted: args.restarted,
                claim: args.claim,
                crash: args.crash,
                out: args.out,
                json: args.json,
                all_presets: args.all_presets,
                lang: args.lang.unwrap_or_else(default_lang),
            })
        }
        Some(Command::Web {
            port,
            open,
            dir,
            lang,
        }) => web_cmd::web_command(port, open, dir, lang.unwrap_or_else(default_lang)),
        Some(Command::Open { file, data_dir }) => {
            app::run(app::Launch::Open { file }, data_dir.or(cli.data_dir))
        }
        None => app::run(
            app::Launch::Course {
                lessons: course_cmd::LessonSource::from_arg(cli.lessons),
            },
            cli.data_dir,
        ),
    }
}

/// `zh` when the environment's locale is Chinese, else `en`.
fn default_lang() -> Lang {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
        .unwrap_or_default();
    Lang::of_locale(&locale)
}
