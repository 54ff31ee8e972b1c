//! `fencelab sql`: a scenario's job-table steps as a SQL script.

use std::path::Path;
use std::process::ExitCode;

use sim_core::Lang;
use sim_core::sql::Dialect;

use crate::report::{load_scenario_in, print_stdout};
use crate::style::inert_lines;

pub(crate) fn sql_command(path: &Path, dialect: Dialect, lang: Lang) -> ExitCode {
    let scenario = match load_scenario_in(path, lang) {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    let trace = sim_core::run(&scenario);
    // Ids and values come from the file: no control character reaches the terminal raw.
    print_stdout(&inert_lines(&sim_core::sql::script(
        &scenario, &trace, dialect,
    )))
}
