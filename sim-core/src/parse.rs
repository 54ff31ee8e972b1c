//! Scenario files (MODEL.md §6) from TOML, with a diagnostic for every
//! mistake at the line and column where it is.
//!
//! The file is parsed into toml's span-keeping document tree and walked by
//! hand rather than through serde derive: that is what lets every message
//! point at the exact key or value, suggest the closest known name, and
//! report several independent mistakes at once.

use std::collections::HashMap;
use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::design::{Check, CheckSet, Design, LeaseClock, Preset, Protect, TokenKind};
use crate::scenario::{
    Action, DesignSource, MAX_IDS, MAX_STEPS, MAX_TIME, OpRef, Scenario, Step, TargetIdx, Text,
    ValueRef, WorkerIdx, idx16,
};

/// One mistake in a file. `line` and `col` count from 1; `col` counts
/// characters, not bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

/// At most this many diagnostics are reported for one file.
const MAX_DIAGNOSTICS: usize = 20;

/// Parses and validates a scenario file. Never panics, whatever the bytes.
pub fn parse_scenario(bytes: &[u8]) -> Result<Scenario, Vec<Diagnostic>> {
    let text = decode(
        bytes,
        "the file is empty; a scenario needs at least `id`, `ttl`, `workers` and `steps`",
    )?;
    let document = document(text)?;
    let mut reader = Reader {
        text,
        errors: Vec::new(),
    };
    let scenario = reader.scenario(document.get_ref(), document.span());
    if reader.errors.is_empty() {
        scenario.ok_or_else(Vec::new)
    } else {
        Err(reader.into_diagnostics())
    }
}

/// Decodes bytes to text, or the diagnostic for a file that is not UTF-8
/// or is empty.
pub(crate) fn decode<'b>(bytes: &'b [u8], empty_message: &str) -> Result<&'b str, Vec<Diagnostic>> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let valid = &bytes[..error.valid_up_to()];
            // The prefix is valid UTF-8 by construction.
            let prefix = std::str::from_utf8(valid).unwrap_or_default();
            let bad = bytes.get(error.valid_up_to()).copied().unwrap_or(0);
            let (line, col) = line_col(prefix, prefix.len());
            return Err(vec![Diagnostic {
                line,
                col,
                message: format!(
                    "the file is not valid UTF-8 (byte 0x{bad:02x}); save it as UTF-8"
                ),
            }]);
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(vec![Diagnostic {
            line: 1,
            col: 1,
            message: empty_message.to_owned(),
        }]);
    }
    Ok(text)
}

/// Parses TOML text into the span-keeping tree, or the syntax diagnostic.
pub(crate) fn document(text: &str) -> Result<Spanned<DeTable<'_>>, Vec<Diagnostic>> {
    DeTable::parse(text).map_err(|error| {
        let offset = error.span().map_or(0, |span| span.start);
        let (line, col) = line_col(text, offset);
        let message = error.message().lines().next().unwrap_or("invalid TOML");
        vec![Diagnostic {
            line,
            col,
            message: format!("invalid TOML: {}", message.trim()),
        }]
    })
}

/// Parses a design file for the explorers: either a design table at the top
/// level (`token = …`, `commit_checks = […]`, …) or a file with a `design`
/// key — a scenario file works too, and its other keys are not read.
pub fn parse_design(bytes: &[u8]) -> Result<(Design, DesignSource), Vec<Diagnostic>> {
    let text = decode(
        bytes,
        "the file is empty; a design file needs design keys such as `commit_checks`",
    )?;
    let document = document(text)?;
    let mut reader = Reader {
        text,
        errors: Vec::new(),
    };
    let root = document.get_ref();
    let nested = root
        .iter()
        .find(|(key, _)| key.get_ref().as_ref() == "design");
    let resolved = match nested {
        Some((_, value)) => reader.design(value),
        None => {
            let whole = Spanned::new(document.span(), DeValue::Table(root.clone()));
            reader.design(&whole)
        }
    };
    match (resolved, reader.errors.is_empty()) {
        (Some(design), true) => Ok(design),
        _ => Err(reader.into_diagnostics()),
    }
}

/// Line and column (1-based, columns in characters) of byte `offset`.
pub fn line_col(text: &str, offset: usize) -> (u32, u32) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let col = before[line_start..].chars().count() + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(col).unwrap_or(u32::MAX),
    )
}

/// The known name closest to `word`, if it is close enough to be a typo:
/// a few edits away (never as many edits as the word has letters), or the
/// only known name that begins with it or that it begins with.
pub fn closest<'k>(word: &str, known: impl IntoIterator<Item = &'k str>) -> Option<&'k str> {
    let known: Vec<&'k str> = known.into_iter().collect();
    let length = word.chars().count();
    let limit = (length / 3).max(1);
    let by_edits = known
        .iter()
        .map(|candidate| (strsim::damerau_levenshtein(word, candidate), *candidate))
        .filter(|(distance, candidate)| {
            *distance <= limit && *distance < length.max(candidate.chars().count())
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate);
    by_edits.or_else(|| {
        let mut prefixed = known.iter().filter(|candidate| {
            !word.is_empty() && (candidate.starts_with(word) || word.starts_with(**candidate))
        });
        match (prefixed.next(), prefixed.next()) {
            (Some(only), None) => Some(*only),
            _ => None,
        }
    })
}

fn did_you_mean<'k>(word: &str, known: impl IntoIterator<Item = &'k str> + Clone) -> String {
    match closest(word, known.clone()) {
        Some(suggestion) => format!("; did you mean `{suggestion}`?"),
        None => {
            let list: Vec<String> = known.into_iter().map(|k| format!("`{k}`")).collect();
            format!("; expected one of {}", list.join(", "))
        }
    }
}

pub(crate) type Value<'i> = Spanned<DeValue<'i>>;

pub(crate) struct Reader<'t> {
    pub(crate) text: &'t str,
    pub(crate) errors: Vec<(usize, String)>,
}

/// The values of a table's known keys, in the order the keys were asked for.
pub(crate) struct Fields<'a, 'i> {
    values: Vec<Option<&'a Value<'i>>>,
    pub(crate) span: Range<usize>,
}

impl<'a, 'i> Fields<'a, 'i> {
    pub(crate) fn get(&self, index: usize) -> Option<&'a Value<'i>> {
        self.values.get(index).copied().flatten()
    }
}

impl<'t> Reader<'t> {
    pub(crate) fn error(&mut self, span: Range<usize>, message: impl Into<String>) {
        self.errors.push((span.start, message.into()));
    }

    pub(crate) fn into_diagnostics(mut self) -> Vec<Diagnostic> {
        self.errors.sort_by_key(|(offset, _)| *offset);
        self.errors.dedup();
        self.errors.truncate(MAX_DIAGNOSTICS);
        self.errors
            .into_iter()
            .map(|(offset, message)| {
                let (line, col) = line_col(self.text, offset);
                Diagnostic { line, col, message }
            })
            .collect()
    }

    /// Splits a table into its known keys; every other key is an error.
    pub(crate) fn fields<'a, 'i>(
        &mut self,
        table: &'a DeTable<'i>,
        span: Range<usize>,
        known: &[&'static str],
        context: &str,
    ) -> Fields<'a, 'i> {
        let mut values = vec![None; known.len()];
        for (key, value) in table.iter() {
            match known
                .iter()
                .position(|name| *name == key.get_ref().as_ref())
            {
                Some(index) => values[index] = Some(value),
                None => {
                    let hint = did_you_mean(key.get_ref(), known.iter().copied());
                    self.error(
                        key.span(),
                        format!("unknown key `{}` in {context}{hint}", key.get_ref()),
                    );
                }
            }
        }
        Fields { values, span }
    }

    pub(crate) fn table<'a, 'i>(
        &mut self,
        value: &'a Value<'i>,
        what: &str,
    ) -> Option<&'a DeTable<'i>> {
        match value.get_ref() {
            DeValue::Table(table) => Some(table),
            other => {
                self.error(
                    value.span(),
                    format!("{what} must be a table, not {}", type_name(other)),
                );
                None
            }
        }
    }

    pub(crate) fn array<'a, 'i>(
        &mut self,
        value: &'a Value<'i>,
        what: &str,
    ) -> Option<&'a [Value<'i>]> {
        match value.get_ref() {
            DeValue::Array(array) => Some(array),
            other => {
                self.error(
                    value.span(),
                    format!("{what} must be an array, not {}", type_name(other)),
                );
                None
            }
        }
    }

    pub(crate) fn string(&mut self, value: &Value<'_>, what: &str) -> Option<String> {
        match value.get_ref() {
            DeValue::String(text) => Some(text.to_string()),
            other => {
                self.error(
                    value.span(),
                    format!("{what} must be a string, not {}", type_name(other)),
                );
                None
            }
        }
    }

    /// A non-empty identifier.
    pub(crate) fn ident(&mut self, value: &Value<'_>, what: &str) -> Option<String> {
        let text = self.string(value, what)?;
        if text.trim().is_empty() {
            self.error(value.span(), format!("{what} must not be empty"));
            return None;
        }
        if text.chars().count() > 64 || text.chars().any(char::is_control) {
            self.error(
                value.span(),
                format!("{what} must be at most 64 characters, without control characters"),
            );
            return None;
        }
        Some(text)
    }

    pub(crate) fn bool(&mut self, value: &Value<'_>, what: &str) -> Option<bool> {
        match value.get_ref() {
            DeValue::Boolean(flag) => Some(*flag),
            other => {
                self.error(
                    value.span(),
                    format!("{what} must be true or false, not {}", type_name(other)),
                );
                None
            }
        }
    }

    pub(crate) fn integer(
        &mut self,
        value: &Value<'_>,
        what: &str,
        min: i64,
        max: i64,
    ) -> Option<i64> {
        let DeValue::Integer(integer) = value.get_ref() else {
            self.error(
                value.span(),
                format!(
                    "{what} must be an integer, not {}",
                    type_name(value.get_ref())
                ),
            );
            return None;
        };
        let digits = integer.as_str().replace('_', "");
        match i64::from_str_radix(&digits, integer.radix()) {
            Ok(number) if (min..=max).contains(&number) => Some(number),
            Ok(number) if number < 0 && min >= 0 => {
                self.error(
                    value.span(),
                    format!("{what} must not be negative (found {number})"),
                );
                None
            }
            _ => {
                self.error(
                    value.span(),
                    format!(
                        "{what} must be between {min} and {max} (found {})",
                        integer.as_str()
                    ),
                );
                None
            }
        }
    }

    /// A string for both languages, or `{ en = "...", zh = "..." }`.
    pub(crate) fn text(&mut self, value: &Value<'_>, what: &str) -> Option<Text> {
        match value.get_ref() {
            DeValue::String(text) => Some(Text::both(text)),
            DeValue::Table(table) => {
                let fields = self.fields(table, value.span(), &["en", "zh"], what);
                let en = fields
                    .get(0)
                    .and_then(|v| self.string(v, &format!("{what}.en")));
                let zh = fields
                    .get(1)
                    .and_then(|v| self.string(v, &format!("{what}.zh")));
                if en.is_none() && zh.is_none() {
                    self.error(value.span(), format!("{what} needs `en` or `zh`"));
                    return None;
                }
                Some(Text {
                    en: en.unwrap_or_default(),
                    zh: zh.unwrap_or_default(),
                })
            }
            other => {
                self.error(
                    value.span(),
                    format!(
                        "{what} must be a string or a table {{ en = \"…\", zh = \"…\" }}, not {}",
                        type_name(other)
                    ),
                );
                None
            }
        }
    }

    pub(crate) fn required<'a, 'i>(
        &mut self,
        fields: &Fields<'a, 'i>,
        index: usize,
        name: &str,
        context: &str,
    ) -> Option<&'a Value<'i>> {
        let value = fields.get(index);
        if value.is_none() {
            self.error(
                fields.span.clone(),
                format!("{context} is missing `{name}`"),
            );
        }
        value
    }

    /// A name from a closed set, with a suggestion when it is misspelt.
    pub(crate) fn choice<T: Copy>(
        &mut self,
        value: &Value<'_>,
        what: &str,
        options: &[T],
        name: impl Fn(T) -> &'static str,
    ) -> Option<T> {
        let text = self.string(value, what)?;
        let found = options.iter().copied().find(|option| name(*option) == text);
        if found.is_none() {
            let hint = did_you_mean(&text, options.iter().map(|option| name(*option)));
            self.error(value.span(), format!("unknown {what} `{text}`{hint}"));
        }
        found
    }

    pub(crate) fn scenario(
        &mut self,
        document: &DeTable<'_>,
        span: Range<usize>,
    ) -> Option<Scenario> {
        const KEYS: [&str; 11] = [
            "id",
            "title",
            "description",
            "ttl",
            "workers",
            "jobs",
            "design",
            "steps",
            "targets",
            "clocks",
            "seed",
        ];
        let start = span.start;
        let fields = self.fields(document, span, &KEYS, "the scenario");
        let id = self
            .required(&fields, 0, "id", "the scenario")
            .and_then(|v| self.ident(v, "`id`"));
        let title = fields.get(1).and_then(|v| self.text(v, "`title`"));
        let description = fields.get(2).and_then(|v| self.text(v, "`description`"));
        let ttl = self
            .required(&fields, 3, "ttl", "the scenario")
            .and_then(|v| self.integer(v, "`ttl`", 1, MAX_TIME));
        let seed = fields
            .get(10)
            .and_then(|v| self.integer(v, "`seed`", 0, i64::MAX));

        let mut scenario = Scenario::new(id.as_deref().unwrap_or("scenario"), 1, &[]);
        scenario.ttl = ttl.unwrap_or(1) as u64;
        scenario.title = title.unwrap_or_else(|| Text::both(&scenario.id));
        scenario.description = description;
        scenario.seed = seed.unwrap_or(0) as u64;

        if let Some(workers) = self.required(&fields, 4, "workers", "the scenario") {
            self.workers(workers, &mut scenario);
        }
        if let Some(jobs) = fields.get(5) {
            self.jobs(jobs, &mut scenario);
        }
        if let Some(design) = fields.get(6) {
            let resolved = self.design(design);
            if let Some((design, source)) = resolved {
                scenario.set_design(design, source);
            }
        }
        if let Some(targets) = fields.get(8) {
            self.targets(targets, &mut scenario);
        }
        if let Some(clocks) = fields.get(9) {
            self.clocks(clocks, &mut scenario);
        }
        if let Some(steps) = fields.get(7) {
            self.steps(steps, &mut scenario);
        }
        if let Err(problem) = scenario.check()
            && self.errors.is_empty()
        {
            self.error(start..start, problem);
        }
        Some(scenario)
    }

    pub(crate) fn workers(&mut self, value: &Value<'_>, scenario: &mut Scenario) {
        let Some(entries) = self.array(value, "`workers`") else {
            return;
        };
        if entries.is_empty() {
            self.error(value.span(), "`workers` needs at least one worker");
        }
        if entries.len() > MAX_IDS {
            self.error(value.span(), format!("at most {MAX_IDS} workers"));
            return;
        }
        for entry in entries {
            let (id, owner) = match entry.get_ref() {
                DeValue::Table(table) => {
                    let fields = self.fields(table, entry.span(), &["id", "owner"], "a worker");
                    let id = self
                        .required(&fields, 0, "id", "a worker")
                        .and_then(|v| self.ident(v, "a worker's `id`"));
                    let owner = fields
                        .get(1)
                        .and_then(|v| self.ident(v, "a worker's `owner`"));
                    (id, owner)
                }
                _ => (self.ident(entry, "a worker id"), None),
            };
            let Some(id) = id else { continue };
            if id == "db" {
                self.error(
                    entry.span(),
                    "`db` names the database's clock; give the worker another id",
                );
            } else if scenario.workers.iter().any(|w| w.id == id) {
                self.error(entry.span(), format!("worker `{id}` is listed twice"));
            } else {
                let owner = owner.unwrap_or_else(|| id.clone());
                scenario.add_worker(&id, &owner);
            }
        }
    }

    pub(crate) fn jobs(&mut self, value: &Value<'_>, scenario: &mut Scenario) {
        let Some(entries) = self.array(value, "`jobs`") else {
            return;
        };
        if entries.is_empty() || entries.len() > MAX_IDS {
            self.error(
                value.span(),
                format!("`jobs` needs between 1 and {MAX_IDS} job ids"),
            );
            return;
        }
        scenario.jobs.clear();
        scenario.jobs_listed = true;
        for entry in entries {
            let Some(id) = self.ident(entry, "a job id") else {
                continue;
            };
            if scenario.jobs.contains(&id) {
                self.error(entry.span(), format!("job `{id}` is listed twice"));
            } else {
                scenario.jobs.push(id);
            }
        }
        if scenario.jobs.is_empty() {
            scenario.jobs.push("r".to_owned());
        }
    }

    pub(crate) fn design(&mut self, value: &Value<'_>) -> Option<(Design, DesignSource)> {
        if let DeValue::String(_) = value.get_ref() {
            let preset = self.choice(value, "design preset", &Preset::ALL, Preset::name)?;
            return Some((preset.design(), DesignSource::Preset(preset)));
        }
        let table = match value.get_ref() {
            DeValue::Table(table) => table,
            other => {
                self.error(
                    value.span(),
                    format!(
                        "`design` must be a preset name or a table, not {}",
                        type_name(other)
                    ),
                );
                return None;
            }
        };
        const KEYS: [&str; 8] = [
            "base",
            "token",
            "commit_checks",
            "renew_checks",
            "lease_clock",
            "register_on_claim",
            "target_protect",
            "worker_checks",
        ];
        let fields = self.fields(table, value.span(), &KEYS, "`design`");
        let base = fields
            .get(0)
            .and_then(|v| self.choice(v, "design preset", &Preset::ALL, Preset::name))
            .unwrap_or(Preset::Full);
        let mut design = base.design();
        if let Some(token) = fields
            .get(1)
            .and_then(|v| self.choice(v, "token kind", &TokenKind::ALL, TokenKind::name))
        {
            design.token = token;
        }
        if let Some(checks) = fields
            .get(2)
            .and_then(|v| self.checks(v, "`commit_checks`"))
        {
            design.commit_checks = checks;
        }
        if let Some(checks) = fields.get(3).and_then(|v| self.checks(v, "`renew_checks`")) {
            design.renew_checks = checks;
        }
        if let Some(clock) = fields
            .get(4)
            .and_then(|v| self.choice(v, "lease clock", &LeaseClock::ALL, LeaseClock::name))
        {
            design.lease_clock = clock;
        }
        if let Some(flag) = fields
            .get(5)
            .and_then(|v| self.bool(v, "`register_on_claim`"))
        {
            design.register_on_claim = flag;
        }
        if let Some(protect) = fields
            .get(6)
            .and_then(|v| self.choice(v, "protection", &Protect::ALL, Protect::name))
        {
            design.target_protect = protect;
        }
        if let Some(flag) = fields.get(7).and_then(|v| self.bool(v, "`worker_checks`")) {
            design.worker_checks = flag;
        }
        Some((design, DesignSource::Table))
    }

    pub(crate) fn checks(&mut self, value: &Value<'_>, what: &str) -> Option<CheckSet> {
        let entries = self.array(value, what)?;
        let mut set = CheckSet::EMPTY;
        for entry in entries {
            let Some(check) = self.choice(entry, "check", &Check::ALL, Check::name) else {
                continue;
            };
            if set.contains(check) {
                self.error(
                    entry.span(),
                    format!("`{}` is listed twice in {what}", check.name()),
                );
            }
            set = set.with(check);
        }
        Some(set)
    }

    pub(crate) fn targets(&mut self, value: &Value<'_>, scenario: &mut Scenario) {
        let Some(entries) = self.array(value, "`targets`") else {
            return;
        };
        if entries.len() > MAX_IDS {
            self.error(value.span(), format!("at most {MAX_IDS} targets"));
            return;
        }
        for entry in entries {
            let Some(table) = self.table(entry, "a target") else {
                continue;
            };
            let fields = self.fields(table, entry.span(), &["id", "protect"], "a target");
            let id = self
                .required(&fields, 0, "id", "a target")
                .and_then(|v| self.ident(v, "a target's `id`"));
            let protect = fields
                .get(1)
                .and_then(|v| self.choice(v, "protection", &Protect::ALL, Protect::name));
            let Some(id) = id else { continue };
            if scenario.targets.iter().any(|t| t.id == id) {
                self.error(entry.span(), format!("target `{id}` is listed twice"));
            } else {
                scenario.add_target(&id, protect);
            }
        }
    }

    pub(crate) fn clocks(&mut self, value: &Value<'_>, scenario: &mut Scenario) {
        let Some(table) = self.table(value, "`clocks`") else {
            return;
        };
        for (key, offset) in table.iter() {
            let node = key.get_ref().as_ref();
            let Some(offset) = self.integer(
                offset,
                &format!("the offset of `{node}`"),
                -MAX_TIME,
                MAX_TIME,
            ) else {
                continue;
            };
            if node == "db" {
                scenario.db_offset = offset;
            } else if let Some(index) = scenario.workers.iter().position(|w| w.id == node) {
                scenario.worker_offsets[index] = offset;
            } else {
                let known =
                    std::iter::once("db").chain(scenario.workers.iter().map(|w| w.id.as_str()));
                let hint = did_you_mean(node, known);
                self.error(
                    key.span(),
                    format!("unknown clock `{node}`: not `db` or a worker{hint}"),
                );
            }
        }
    }

    pub(crate) fn steps(&mut self, value: &Value<'_>, scenario: &mut Scenario) {
        let Some(entries) = self.array(value, "`steps`") else {
            return;
        };
        if entries.len() > MAX_STEPS {
            self.error(value.span(), format!("at most {MAX_STEPS} steps"));
            return;
        }
        let mut ops = HashMap::new();
        let mut values = HashMap::new();
        let mut previous_at: Option<(u64, usize)> = None;
        for entry in entries {
            let Some(step) = self.step(entry, scenario, &mut ops, &mut values) else {
                continue;
            };
            if let Some((before, line_of)) = previous_at
                && step.at < before
            {
                let (line, _) = line_col(self.text, line_of);
                self.error(
                    entry.span(),
                    format!(
                        "`at` = {} goes backwards: the step before (line {line}) is at {before}",
                        step.at
                    ),
                );
            }
            previous_at = Some((step.at, entry.span().start));
            scenario.steps.push(step);
        }
    }

    pub(crate) fn step(
        &mut self,
        entry: &Value<'_>,
        scenario: &mut Scenario,
        ops: &mut HashMap<String, u32>,
        values: &mut HashMap<String, u32>,
    ) -> Option<Step> {
        const KEYS: [&str; 8] = ["at", "worker", "do", "job", "target", "op", "value", "note"];
        let table = self.table(entry, "a step")?;
        let fields = self.fields(table, entry.span(), &KEYS, "a step");
        let at = self
            .required(&fields, 0, "at", "this step")
            .and_then(|v| self.integer(v, "`at`", 0, MAX_TIME));
        let action = self
            .required(&fields, 2, "do", "this step")
            .and_then(|v| self.choice(v, "action", &Action::ALL, Action::name));
        let note = fields.get(7).and_then(|v| self.text(v, "`note`"));
        let worker = self.step_reference(
            fields.get(1),
            "worker",
            scenario.workers.iter().map(|w| w.id.as_str()),
            None,
        )?;
        let job = self.step_reference(
            fields.get(3),
            "job",
            scenario.jobs.iter().map(String::as_str),
            None,
        )?;
        let target = self.step_reference(
            fields.get(4),
            "target",
            scenario.targets.iter().map(|t| t.id.as_str()),
            Some("; the scenario has no [[targets]]"),
        )?;
        let (at, action) = (at?, action?);
        self.step_fits_action(entry, &fields, scenario, action, worker, target)?;
        let mut step = Step::new(at as u64, worker, action);
        step.job = job;
        step.target = target;
        step.note = note;
        self.write_names(&fields, scenario, ops, values, &mut step)?;
        Some(step)
    }

    /// The index of a step's `worker`, `job` or `target` (`key`) among
    /// `ids`: `Some(None)` when the step names none, `None` once an unknown
    /// name is reported. `if_none_exist` is the hint when `ids` is empty.
    fn step_reference<'k>(
        &mut self,
        value: Option<&Value<'_>>,
        key: &str,
        ids: impl IntoIterator<Item = &'k str> + Clone,
        if_none_exist: Option<&str>,
    ) -> Option<Option<u16>> {
        let Some(value) = value else {
            return Some(None);
        };
        let id = self.ident(value, &format!("`{key}`"))?;
        if let Some(index) = ids.clone().into_iter().position(|known| known == id) {
            return Some(Some(idx16(index)));
        }
        let hint = match if_none_exist {
            Some(hint) if ids.clone().into_iter().next().is_none() => hint.to_owned(),
            _ => did_you_mean(&id, ids),
        };
        self.error(value.span(), format!("unknown {key} `{id}`{hint}"));
        None
    }

    /// Reports a step whose worker or target does not fit its action:
    /// `None` once reported.
    fn step_fits_action(
        &mut self,
        entry: &Value<'_>,
        fields: &Fields<'_, '_>,
        scenario: &Scenario,
        action: Action,
        worker: Option<WorkerIdx>,
        target: Option<TargetIdx>,
    ) -> Option<()> {
        let name = action.name();
        if action.needs_worker() && worker.is_none() {
            self.error(entry.span(), format!("`{name}` needs a `worker`"));
            return None;
        }
        match (action.needs_target(), fields.get(4)) {
            (true, None) => {
                self.error(entry.span(), format!("`{name}` needs a `target`"));
                return None;
            }
            (false, Some(value)) => {
                self.error(value.span(), format!("`{name}` takes no `target`"));
                return None;
            }
            _ => {}
        }
        if action == Action::Register
            && let Some(spec) = target.and_then(|t| scenario.targets.get(usize::from(t)))
            && spec.protect != Protect::RegisteredToken
            && let Some(value) = fields.get(4)
        {
            self.error(
                value.span(),
                format!(
                    "`register` needs a target with protect = \"registered_token\"; `{}` is {}",
                    spec.id,
                    spec.protect.name()
                ),
            );
            return None;
        }
        Some(())
    }

    /// A `write` step's `op` and `value` names, interned into the
    /// scenario's tables (`ops` and `values` map a name to its index);
    /// other actions take neither. `None` once an error is reported.
    fn write_names(
        &mut self,
        fields: &Fields<'_, '_>,
        scenario: &mut Scenario,
        ops: &mut HashMap<String, u32>,
        values: &mut HashMap<String, u32>,
        step: &mut Step,
    ) -> Option<()> {
        let name = step.action.name();
        for (index, key) in [(5, "op"), (6, "value")] {
            let Some(value) = fields.get(index) else {
                continue;
            };
            if step.action != Action::Write {
                self.error(
                    value.span(),
                    format!("`{name}` takes no `{key}`; only `write` does"),
                );
                return None;
            }
            let text = match value.get_ref() {
                DeValue::Integer(integer) if key == "value" => integer.as_str().to_owned(),
                _ => self.ident(value, &format!("`{key}`"))?,
            };
            if key == "op" {
                let next = u32::try_from(ops.len()).unwrap_or(u32::MAX);
                let named = *ops.entry(text.clone()).or_insert(next);
                if named as usize == scenario.ops.len() {
                    scenario.ops.push(text);
                }
                step.op = OpRef::Named(named);
            } else {
                let next = u32::try_from(values.len()).unwrap_or(u32::MAX);
                let named = *values.entry(text.clone()).or_insert(next);
                if named as usize == scenario.values.len() {
                    scenario.values.push(text);
                }
                step.value = ValueRef::Named(named);
            }
        }
        Some(())
    }
}

fn type_name(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let text = "ab\n领取 x";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, text.find('x').unwrap_or(0)), (2, 4));
        assert_eq!(line_col(text, 4), (2, 1), "inside a character: its start");
    }

    #[test]
    fn closest_suggests_only_near_names() {
        assert_eq!(closest("clam", ["claim", "renew"]), Some("claim"));
        assert_eq!(closest("tll", ["ttl", "title"]), Some("ttl"));
        assert_eq!(closest("zzzzzz", ["claim", "renew"]), None);
        assert_eq!(closest("Z", ["A", "db"]), None, "one letter is no typo");
        assert_eq!(closest("lease_until", ["owner", "lease"]), Some("lease"));
        assert_eq!(
            closest("fenced", ["fenced-highest-seen", "fenced-registered"]),
            None,
            "ambiguous"
        );
    }
}
