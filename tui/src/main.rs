//! `fencelab`: the terminal front end. Parses the command line in one layer
//! ([`Cli`]) and hands validated values to the command modules.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod report;
mod style;

/// Learn why a lease needs a fencing token: step through timelines of
/// workers, leases, fences, clocks and remote targets, and watch stale
/// writes get through weak designs.
#[derive(Debug, Parser)]
#[command(
    name = "fencelab",
    version,
    after_help = "Examples:\n  fencelab run examples/01-article-stale-finish.toml\n  fencelab run examples/02-ttl-lock-only.toml --json\n\nColour is used only on a terminal, never when NO_COLOR is set; symbols\n(✓ ✗ ↺ ‼) carry every meaning without it."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
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
        #[arg(long, value_parser = ["en", "zh"])]
        lang: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Run { file, json, lang }) => {
            report::run_command(&file, json, &lang.unwrap_or_else(default_lang))
        }
        None => {
            use clap::CommandFactory;
            let mut command = Cli::command();
            let help = command.render_help();
            #[allow(clippy::print_stdout)]
            {
                println!("{help}");
            }
            ExitCode::SUCCESS
        }
    }
}

/// `zh` when the environment's locale is Chinese, else `en`.
fn default_lang() -> String {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
        .unwrap_or_default();
    if locale.starts_with("zh") { "zh" } else { "en" }.to_owned()
}
