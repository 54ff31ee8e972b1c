//! Every kind of bad scenario file gives `LINE:COL: message` at the right
//! place, through one helper, [`check_error`].

use sim_core::parse_scenario;

/// Parses `source` and compares the diagnostics, one `LINE:COL: message`
/// per line, with `expect`.
#[track_caller]
fn check_error(source: &str, expect: &str) {
    let diagnostics = match parse_scenario(source.as_bytes()) {
        Ok(_) => panic!("expected an error for:\n{source}"),
        Err(diagnostics) => diagnostics,
    };
    assert_chinese(&diagnostics);
    let actual: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    let expected: Vec<&str> = expect
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(actual, expected, "\nsource:\n{source}");
}

/// Every diagnostic has a Chinese message of its own: not empty, not the
/// English copied, and written in Chinese characters.
#[track_caller]
pub(crate) fn assert_chinese(diagnostics: &[sim_core::Diagnostic]) {
    for diagnostic in diagnostics {
        let zh = diagnostic.message_in(sim_core::Lang::Zh);
        assert!(
            !zh.is_empty() && zh != diagnostic.message,
            "no Chinese for: {}",
            diagnostic.message
        );
        assert!(
            zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "not Chinese: {zh} (for: {})",
            diagnostic.message
        );
    }
}

const HEAD: &str = "id = \"x\"\nttl = 5\nworkers = [\"A\", \"B\"]\n";

#[test]
fn empty_and_non_utf8_files() {
    check_error(
        "",
        "1:1: the file is empty; a scenario needs at least `id`, `ttl`, `workers` and `steps`",
    );
    check_error(
        "  \n\n",
        "1:1: the file is empty; a scenario needs at least `id`, `ttl`, `workers` and `steps`",
    );
    let bytes = b"id = \"x\"\nttl = \xff\n";
    let Err(diagnostics) = parse_scenario(bytes) else {
        panic!("non-UTF-8 accepted");
    };
    assert_chinese(&diagnostics);
    assert_eq!(
        diagnostics[0].to_string(),
        "2:7: the file is not valid UTF-8 (byte 0xff); save it as UTF-8"
    );
}

#[test]
fn toml_syntax_errors_point_at_the_mistake() {
    let Err(diagnostics) = parse_scenario(b"id = \"x\"\nttl = = 5\n") else {
        panic!("bad TOML accepted");
    };
    assert_chinese(&diagnostics);
    assert!(
        diagnostics[0].zh.starts_with("TOML 语法错误："),
        "{diagnostics:?}"
    );
    assert_eq!((diagnostics[0].line, diagnostics[0].col), (2, 7));
    assert!(
        diagnostics[0].message.starts_with("invalid TOML"),
        "{diagnostics:?}"
    );
}

#[test]
fn unknown_keys_suggest_the_closest_known_one() {
    check_error(
        &format!(
            "{HEAD}tll = 3\nsteps = [{{ at = 0, worker = \"A\", do = \"claim\", tagret = \"t\" }}]\n"
        ),
        "
        4:1: unknown key `tll` in the scenario; did you mean `ttl`?
        5:48: unknown key `tagret` in a step; did you mean `target`?
        ",
    );
    check_error(
        &format!("{HEAD}[design]\ncomit_checks = []\n"),
        "5:1: unknown key `comit_checks` in `design`; did you mean `commit_checks`?",
    );
}

#[test]
fn unknown_names_of_every_kind() {
    check_error(
        &format!(
            "{HEAD}design = \"fenced\"\nsteps = [\n  {{ at = 0, worker = \"C\", do = \"claim\" }},\n  {{ at = 0, worker = \"A\", do = \"clam\" }},\n  {{ at = 0, worker = \"A\", do = \"claim\", job = \"q\" }},\n  {{ at = 0, worker = \"A\", do = \"write\", target = \"t\" }},\n]\n"
        ),
        "
        4:10: unknown design preset `fenced`; expected one of `ttl-lock-only`, `client-check`, `idempotency-only`, `fenced-highest-seen`, `fenced-registered`, `db-conditional`, `full`, `sending-gateway`
        6:22: unknown worker `C`; expected one of `A`, `B`
        7:32: unknown action `clam`; did you mean `claim`?
        8:47: unknown job `q`; expected one of `r`
        9:50: unknown target `t`; the scenario has no [[targets]]
        ",
    );
    check_error(
        &format!("{HEAD}[[targets]]\nid = \"t\"\nprotect = \"fencing\"\n[design]\ncommit_checks = [\"owner\", \"lease_until\"]\n"),
        "
        6:11: unknown protection `fencing`; expected one of `none`, `idempotency_key`, `highest_token`, `registered_token`, `gateway`, `versioned`, `sending_gateway`, `approved_intent`
        8:27: unknown check `lease_until`; did you mean `lease`?
        ",
    );
}

#[test]
fn requests_are_sent_once_and_delivered_once_after_their_send() {
    check_error(
        &format!(
            "{HEAD}[[targets]]\nid = \"t\"\n[[steps]]\nat = 0\ndo = \"deliver\"\nrequest = \"a\"\n[[steps]]\nat = 1\nworker = \"A\"\ndo = \"write\"\ntarget = \"t\"\nrequest = \"a\"\n[[steps]]\nat = 2\nworker = \"B\"\ndo = \"write\"\ntarget = \"t\"\nrequest = \"a\"\n[[steps]]\nat = 3\ndo = \"deliver\"\nrequest = \"a\"\n[[steps]]\nat = 4\ndo = \"deliver\"\nrequest = \"a\"\n[[steps]]\nat = 5\ndo = \"deliver\"\n[[steps]]\nat = 6\nworker = \"A\"\ndo = \"claim\"\nrequest = \"b\"\n"
        ),
        "
        9:11: no earlier `write` sent request `a`
        21:11: request `a` is already sent by an earlier `write`
        29:11: request `a` is already delivered
        30:1: `deliver` needs a `request`: the id a `write` sent it under
        37:11: `claim` takes no `request`; only `write` and `deliver` do
        ",
    );
}

#[test]
fn steps_missing_what_their_action_needs() {
    check_error(
        &format!(
            "{HEAD}[[targets]]\nid = \"t\"\nprotect = \"none\"\n[[steps]]\nat = 0\ndo = \"claim\"\n[[steps]]\nat = 1\nworker = \"A\"\ndo = \"write\"\n[[steps]]\nworker = \"A\"\ndo = \"finish\"\n[[steps]]\nat = 2\nworker = \"A\"\ndo = \"register\"\ntarget = \"t\"\n[[steps]]\nat = 3\nworker = \"A\"\ndo = \"claim\"\nop = \"x\"\n"
        ),
        "
        7:1: `claim` needs a `worker`
        10:1: `write` needs a `target`
        14:1: this step is missing `at`
        21:10: `register` needs a target with protect = \"registered_token\"; `t` is none
        26:6: `claim` takes no `op`; only `write` does
        ",
    );
}

#[test]
fn time_going_backwards_and_numbers_out_of_range() {
    check_error(
        &format!(
            "{HEAD}steps = [\n  {{ at = 5, worker = \"A\", do = \"claim\" }},\n  {{ at = 3, worker = \"B\", do = \"claim\" }},\n]\n"
        ),
        "6:3: `at` = 3 goes backwards: the step before (line 5) is at 5",
    );
    check_error(
        "id = \"x\"\nttl = -1\nworkers = [\"A\"]\nseed = 1.5\n[clocks]\nA = 99999999999\n",
        "
        2:7: `ttl` must not be negative (found -1)
        4:8: `seed` must be an integer, not a float
        6:5: the offset of `A` must be between -1000000000 and 1000000000 (found 99999999999)
        ",
    );
    check_error(
        "id = \"x\"\nttl = 0\nworkers = [\"A\"]\nsteps = [{ at = 99999999999999999999, worker = \"A\", do = \"claim\" }]\n",
        "
        2:7: `ttl` must be between 1 and 1000000000 (found 0)
        4:17: `at` must be between 0 and 1000000000 (found 99999999999999999999)
        ",
    );
}

#[test]
fn duplicate_and_reserved_ids() {
    check_error(
        "id = \"x\"\nttl = 5\nworkers = [\"A\", \"A\", \"db\", { id = \"A2\", owner = \"A\" }]\njobs = [\"r\", \"r\"]\n[[targets]]\nid = \"t\"\n[[targets]]\nid = \"t\"\n[clocks]\nZ = 1\n",
        "
        3:17: worker `A` is listed twice
        3:22: `db` names the database's clock; give the worker another id
        4:14: job `r` is listed twice
        7:1: target `t` is listed twice
        10:1: unknown clock `Z`: not `db` or a worker; expected one of `db`, `A`, `A2`
        ",
    );
}

#[test]
fn missing_top_level_keys_and_wrong_types() {
    check_error(
        "title = 3\nworkers = \"A\"\n",
        "
        1:1: the scenario is missing `id`
        1:1: the scenario is missing `ttl`
        1:9: `title` must be a string or a table { en = \"…\", zh = \"…\" }, not an integer
        2:11: `workers` must be an array, not a string
        ",
    );
}

/// `explore --design FILE` takes a scenario file (docs/explorers.md): one
/// with `design` gives that design, one without it the scenario's default
/// (`full`, as `fencelab run` gives it), and the scenario's own keys are
/// not read as design keys (issue 20: "1:1: unknown key `id` in `design`").
#[test]
fn a_scenario_file_is_a_design_file() {
    use sim_core::{Design, DesignSource, Preset, parse_design};
    let steps = "steps = [{ at = 0, worker = \"A\", do = \"claim\" }]\n";
    let without = format!("{HEAD}{steps}");
    assert_eq!(
        parse_design(without.as_bytes()),
        Ok((Design::default(), DesignSource::Default))
    );
    assert_eq!(Design::default(), Preset::Full.design());
    let scenario = parse_scenario(without.as_bytes()).unwrap();
    assert_eq!(
        (scenario.design, scenario.design_source),
        (Design::default(), DesignSource::Default),
        "the design `fencelab run` gives the same file"
    );
    let with = format!("{HEAD}design = \"client-check\"\n{steps}");
    assert_eq!(
        parse_design(with.as_bytes()),
        Ok((
            Preset::ClientCheck.design(),
            DesignSource::Preset(Preset::ClientCheck)
        ))
    );
    // Design keys at the top level beside a scenario's keys: the design
    // keys are read, the scenario's are not.
    let mixed = format!("{HEAD}token = \"random\"\n");
    let (design, source) = parse_design(mixed.as_bytes()).unwrap();
    assert_eq!(design.token, sim_core::TokenKind::Random);
    assert_eq!(source, DesignSource::Table);
    // A key that is neither is still an unknown design key, located.
    let typo = format!("{HEAD}tokn = \"random\"\n");
    let diagnostics = parse_design(typo.as_bytes()).unwrap_err();
    assert_chinese(&diagnostics);
    assert_eq!(
        diagnostics[0].to_string(),
        "4:1: unknown key `tokn` in `design`; did you mean `token`?"
    );
}

/// `db` is the database clock's name, so it cannot be a worker; a step
/// naming it then finds no worker at all, and says so instead of "expected
/// one of " and an empty list (issue 20).
#[test]
fn a_step_naming_a_worker_when_none_is_usable() {
    check_error(
        "id = \"x\"\nttl = 5\nworkers = [\"db\"]\nsteps = [{ at = 0, worker = \"db\", do = \"claim\" }]\n",
        "
        3:12: `db` names the database's clock; give the worker another id
        4:29: unknown worker `db`; `workers` gives no usable worker
        ",
    );
}

#[test]
fn batch_numbers_and_the_batch_check() {
    let steps = |step: &str| {
        format!(
            "{HEAD}steps = [\n  {{ at = 0, worker = \"A\", do = \"claim\" }},\n  {step},\n]\n\n[[targets]]\nid = \"t\"\n"
        )
    };
    check_error(
        &steps(r#"{ at = 1, worker = "A", do = "renew", batch = 2 }"#),
        "6:49: `renew` takes no `batch`; only `write` does (a `deliver` carries its `write`'s)",
    );
    check_error(
        &steps(r#"{ at = 1, worker = "A", do = "write", target = "t", batch = 0 }"#),
        "6:63: `batch` must be between 1 and 1000000 (found 0)",
    );
    check_error(
        &steps(r#"{ at = 1, worker = "A", do = "write", target = "t", batch = "3" }"#),
        "6:63: `batch` must be an integer, not a string",
    );
    check_error(
        &format!(
            "{}check_batch = \"yes\"\n",
            steps(r#"{ at = 1, worker = "A", do = "write", target = "t" }"#)
        ),
        "11:15: a target's `check_batch` must be true or false, not a string",
    );
}
