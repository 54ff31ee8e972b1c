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

use crate::Lang;
use crate::design::{
    Check, CheckSet, ClaimProcedure, Design, LeaseClock, Preset, Protect, TokenKind,
};
use crate::scenario::{
    Action, DesignSource, MAX_BATCH, MAX_IDS, MAX_STEPS, MAX_TIME, OpRef, Scenario, Step,
    TargetIdx, Text, ValueRef, WorkerIdx, idx16,
};

/// One mistake in a file. `line` and `col` count from 1; `col` counts
/// characters, not bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub line: u32,
    pub col: u32,
    /// In English.
    pub message: String,
    /// The same message in Chinese.
    pub zh: String,
}

impl Diagnostic {
    /// The message in `lang`.
    pub fn message_in(&self, lang: Lang) -> &str {
        lang.pick(&self.message, &self.zh)
    }

    /// `LINE:COL: message` in `lang`.
    pub fn display_in(&self, lang: Lang) -> String {
        format!("{}:{}: {}", self.line, self.col, self.message_in(lang))
    }
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
        &words(
            "the file is empty; a scenario needs at least `id`, `ttl`, `workers` and `steps`",
            "文件是空的；场景至少需要 `id`、`ttl`、`workers` 和 `steps`",
        ),
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
pub(crate) fn decode<'b>(
    bytes: &'b [u8],
    empty_message: &Text,
) -> Result<&'b str, Vec<Diagnostic>> {
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
                zh: format!("文件不是有效的 UTF-8（字节 0x{bad:02x}）；请以 UTF-8 保存"),
            }]);
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(vec![Diagnostic {
            line: 1,
            col: 1,
            message: empty_message.en.clone(),
            zh: empty_message.zh.clone(),
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
            zh: format!("TOML 语法错误：{}", message.trim()),
        }]
    })
}

/// The keys of a scenario file's top level.
const SCENARIO_KEYS: [&str; 11] = [
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

/// Parses a design file for the explorers: either a design table at the top
/// level (`token = …`, `commit_checks = […]`, …) or a file with a `design`
/// key. A scenario file works too: its other keys are not read, and one
/// without `design` has a scenario's default design, `full`.
pub fn parse_design(bytes: &[u8]) -> Result<(Design, DesignSource), Vec<Diagnostic>> {
    let text = decode(
        bytes,
        &words(
            "the file is empty; a design file needs design keys such as `commit_checks`",
            "文件是空的；设计文件需要设计键，例如 `commit_checks`",
        ),
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
            let table: DeTable<'_> = root
                .iter()
                .filter(|(key, _)| !SCENARIO_KEYS.contains(&key.get_ref().as_ref()))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect();
            if table.is_empty() {
                // Only a scenario's keys (the file is not empty): its design
                // is the one `fencelab run` gives a scenario without one.
                Some((Design::default(), DesignSource::Default))
            } else {
                reader.design(&Spanned::new(document.span(), DeValue::Table(table)))
            }
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

/// A message in English and Chinese.
pub(crate) fn words(en: impl Into<String>, zh: impl Into<String>) -> Text {
    Text {
        en: en.into(),
        zh: zh.into(),
    }
}

/// A name that reads the same in both languages, such as `` `ttl` ``.
pub(crate) fn name(text: &str) -> Text {
    Text::both(text)
}

pub(crate) fn did_you_mean<'k>(
    word: &str,
    known: impl IntoIterator<Item = &'k str> + Clone,
) -> Text {
    match closest(word, known.clone()) {
        Some(suggestion) => words(
            format!("; did you mean `{suggestion}`?"),
            format!("；你是不是想写 `{suggestion}`？"),
        ),
        None => {
            let list: Vec<String> = known.into_iter().map(|k| format!("`{k}`")).collect();
            if list.is_empty() {
                // Nothing to choose from: no dangling "expected one of".
                return words("", "");
            }
            words(
                format!("; expected one of {}", list.join(", ")),
                format!("；应为以下之一：{}", list.join("、")),
            )
        }
    }
}

pub(crate) type Value<'i> = Spanned<DeValue<'i>>;

pub(crate) struct Reader<'t> {
    pub(crate) text: &'t str,
    pub(crate) errors: Vec<(usize, Text)>,
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
    pub(crate) fn error(&mut self, span: Range<usize>, message: Text) {
        self.errors.push((span.start, message));
    }

    pub(crate) fn into_diagnostics(mut self) -> Vec<Diagnostic> {
        self.errors.sort_by_key(|(offset, _)| *offset);
        self.errors.dedup();
        self.errors.truncate(MAX_DIAGNOSTICS);
        self.errors
            .into_iter()
            .map(|(offset, message)| {
                let (line, col) = line_col(self.text, offset);
                Diagnostic {
                    line,
                    col,
                    message: message.en,
                    zh: spaced(&message.zh),
                }
            })
            .collect()
    }

    /// Splits a table into its known keys; every other key is an error.
    pub(crate) fn fields<'a, 'i>(
        &mut self,
        table: &'a DeTable<'i>,
        span: Range<usize>,
        known: &[&'static str],
        context: &Text,
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
                    let key_name = key.get_ref();
                    self.error(
                        key.span(),
                        words(
                            format!("unknown key `{key_name}` in {}{}", context.en, hint.en),
                            format!("{}中没有键 `{key_name}`{}", context.zh, hint.zh),
                        ),
                    );
                }
            }
        }
        Fields { values, span }
    }

    pub(crate) fn table<'a, 'i>(
        &mut self,
        value: &'a Value<'i>,
        what: &Text,
    ) -> Option<&'a DeTable<'i>> {
        match value.get_ref() {
            DeValue::Table(table) => Some(table),
            other => {
                self.error(
                    value.span(),
                    words(
                        format!("{} must be a table, not {}", what.en, type_name(other)),
                        format!("{}必须是表，而不是{}", what.zh, type_name_zh(other)),
                    ),
                );
                None
            }
        }
    }

    pub(crate) fn array<'a, 'i>(
        &mut self,
        value: &'a Value<'i>,
        what: &Text,
    ) -> Option<&'a [Value<'i>]> {
        match value.get_ref() {
            DeValue::Array(array) => Some(array),
            other => {
                self.error(
                    value.span(),
                    words(
                        format!("{} must be an array, not {}", what.en, type_name(other)),
                        format!("{}必须是数组，而不是{}", what.zh, type_name_zh(other)),
                    ),
                );
                None
            }
        }
    }

    pub(crate) fn string(&mut self, value: &Value<'_>, what: &Text) -> Option<String> {
        match value.get_ref() {
            DeValue::String(text) => Some(text.to_string()),
            other => {
                self.error(
                    value.span(),
                    words(
                        format!("{} must be a string, not {}", what.en, type_name(other)),
                        format!("{}必须是字符串，而不是{}", what.zh, type_name_zh(other)),
                    ),
                );
                None
            }
        }
    }

    /// A non-empty identifier.
    pub(crate) fn ident(&mut self, value: &Value<'_>, what: &Text) -> Option<String> {
        let text = self.string(value, what)?;
        if text.trim().is_empty() {
            self.error(
                value.span(),
                words(
                    format!("{} must not be empty", what.en),
                    format!("{}不能为空", what.zh),
                ),
            );
            return None;
        }
        if text.chars().count() > 64 || text.chars().any(char::is_control) {
            self.error(
                value.span(),
                words(
                    format!(
                        "{} must be at most 64 characters, without control characters",
                        what.en
                    ),
                    format!("{}最多 64 个字符，且不能含控制字符", what.zh),
                ),
            );
            return None;
        }
        Some(text)
    }

    pub(crate) fn bool(&mut self, value: &Value<'_>, what: &Text) -> Option<bool> {
        match value.get_ref() {
            DeValue::Boolean(flag) => Some(*flag),
            other => {
                self.error(
                    value.span(),
                    words(
                        format!(
                            "{} must be true or false, not {}",
                            what.en,
                            type_name(other)
                        ),
                        format!(
                            "{}必须是true 或 false，而不是{}",
                            what.zh,
                            type_name_zh(other)
                        ),
                    ),
                );
                None
            }
        }
    }

    pub(crate) fn integer(
        &mut self,
        value: &Value<'_>,
        what: &Text,
        min: i64,
        max: i64,
    ) -> Option<i64> {
        let DeValue::Integer(integer) = value.get_ref() else {
            self.error(
                value.span(),
                words(
                    format!(
                        "{} must be an integer, not {}",
                        what.en,
                        type_name(value.get_ref())
                    ),
                    format!(
                        "{}必须是整数，而不是{}",
                        what.zh,
                        type_name_zh(value.get_ref())
                    ),
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
                    words(
                        format!("{} must not be negative (found {number})", what.en),
                        format!("{}不能为负数（实际为 {number}）", what.zh),
                    ),
                );
                None
            }
            _ => {
                self.error(
                    value.span(),
                    words(
                        format!(
                            "{} must be between {min} and {max} (found {})",
                            what.en,
                            integer.as_str()
                        ),
                        format!(
                            "{}必须在 {min} 到 {max} 之间（实际为 {}）",
                            what.zh,
                            integer.as_str()
                        ),
                    ),
                );
                None
            }
        }
    }

    /// A string for both languages, or `{ en = "...", zh = "..." }`.
    pub(crate) fn text(&mut self, value: &Value<'_>, what: &Text) -> Option<Text> {
        match value.get_ref() {
            DeValue::String(text) => Some(Text::both(text)),
            DeValue::Table(table) => {
                let fields = self.fields(table, value.span(), &["en", "zh"], what);
                let en = fields.get(0).and_then(|v| {
                    self.string(
                        v,
                        &words(format!("{}.en", what.en), format!("{}.en", what.zh)),
                    )
                });
                let zh = fields.get(1).and_then(|v| {
                    self.string(
                        v,
                        &words(format!("{}.zh", what.en), format!("{}.zh", what.zh)),
                    )
                });
                if en.is_none() && zh.is_none() {
                    self.error(
                        value.span(),
                        words(
                            format!("{} needs `en` or `zh`", what.en),
                            format!("{}需要 `en` 或 `zh`", what.zh),
                        ),
                    );
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
                    words(
                        format!(
                            "{} must be a string or a table {{ en = \"…\", zh = \"…\" }}, not {}",
                            what.en,
                            type_name(other)
                        ),
                        format!(
                            "{}必须是字符串或表 {{ en = \"…\", zh = \"…\" }}，而不是{}",
                            what.zh,
                            type_name_zh(other)
                        ),
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
        context: &Text,
    ) -> Option<&'a Value<'i>> {
        let value = fields.get(index);
        if value.is_none() {
            self.error(
                fields.span.clone(),
                words(
                    format!("{} is missing `{name}`", context.en),
                    format!("{}缺少 `{name}`", context.zh),
                ),
            );
        }
        value
    }

    /// A name from a closed set, with a suggestion when it is misspelt.
    pub(crate) fn choice<T: Copy>(
        &mut self,
        value: &Value<'_>,
        what: &Text,
        options: &[T],
        name: impl Fn(T) -> &'static str,
    ) -> Option<T> {
        let text = self.string(value, what)?;
        let found = options.iter().copied().find(|option| name(*option) == text);
        if found.is_none() {
            let hint = did_you_mean(&text, options.iter().map(|option| name(*option)));
            self.error(
                value.span(),
                words(
                    format!("unknown {} `{text}`{}", what.en, hint.en),
                    format!("未知的{} `{text}`{}", what.zh, hint.zh),
                ),
            );
        }
        found
    }

    pub(crate) fn scenario(
        &mut self,
        document: &DeTable<'_>,
        span: Range<usize>,
    ) -> Option<Scenario> {
        let start = span.start;
        let the_scenario = words("the scenario", "场景");
        let fields = self.fields(document, span, &SCENARIO_KEYS, &the_scenario);
        let id = self
            .required(&fields, 0, "id", &the_scenario)
            .and_then(|v| self.ident(v, &name("`id`")));
        let title = fields.get(1).and_then(|v| self.text(v, &name("`title`")));
        let description = fields
            .get(2)
            .and_then(|v| self.text(v, &name("`description`")));
        let ttl = self
            .required(&fields, 3, "ttl", &the_scenario)
            .and_then(|v| self.integer(v, &name("`ttl`"), 1, MAX_TIME));
        let seed = fields
            .get(10)
            .and_then(|v| self.integer(v, &name("`seed`"), 0, i64::MAX));

        let mut scenario = Scenario::new(id.as_deref().unwrap_or("scenario"), 1, &[]);
        scenario.ttl = ttl.unwrap_or(1) as u64;
        scenario.title = title.unwrap_or_else(|| Text::both(&scenario.id));
        scenario.description = description;
        scenario.seed = seed.unwrap_or(0) as u64;

        if let Some(workers) = self.required(&fields, 4, "workers", &the_scenario) {
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
            self.error(
                start..start,
                words(problem.message(Lang::En), problem.message(Lang::Zh)),
            );
        }
        Some(scenario)
    }

    pub(crate) fn workers(&mut self, value: &Value<'_>, scenario: &mut Scenario) {
        let Some(entries) = self.array(value, &name("`workers`")) else {
            return;
        };
        if entries.is_empty() {
            self.error(
                value.span(),
                words(
                    "`workers` needs at least one worker",
                    "`workers` 至少需要一个 Worker",
                ),
            );
        }
        if entries.len() > MAX_IDS {
            self.error(
                value.span(),
                words(
                    format!("at most {MAX_IDS} workers"),
                    format!("最多 {MAX_IDS} 个 Worker"),
                ),
            );
            return;
        }
        for entry in entries {
            let (id, owner) = match entry.get_ref() {
                DeValue::Table(table) => {
                    let a_worker = words("a worker", "Worker");
                    let fields = self.fields(table, entry.span(), &["id", "owner"], &a_worker);
                    let id = self
                        .required(&fields, 0, "id", &a_worker)
                        .and_then(|v| self.ident(v, &words("a worker's `id`", "Worker 的 `id`")));
                    let owner = fields.get(1).and_then(|v| {
                        self.ident(v, &words("a worker's `owner`", "Worker 的 `owner`"))
                    });
                    (id, owner)
                }
                _ => (
                    self.ident(entry, &words("a worker id", "Worker 的 id")),
                    None,
                ),
            };
            let Some(id) = id else { continue };
            if id == "db" {
                self.error(
                    entry.span(),
                    words(
                        "`db` names the database's clock; give the worker another id",
                        "`db` 是数据库时钟的名字；请给这个 Worker 另取一个 id",
                    ),
                );
            } else if scenario.workers.iter().any(|w| w.id == id) {
                self.error(
                    entry.span(),
                    words(
                        format!("worker `{id}` is listed twice"),
                        format!("Worker `{id}` 被列了两次"),
                    ),
                );
            } else {
                let owner = owner.unwrap_or_else(|| id.clone());
                scenario.add_worker(&id, &owner);
            }
        }
    }

    pub(crate) fn jobs(&mut self, value: &Value<'_>, scenario: &mut Scenario) {
        let Some(entries) = self.array(value, &name("`jobs`")) else {
            return;
        };
        if entries.is_empty() || entries.len() > MAX_IDS {
            self.error(
                value.span(),
                words(
                    format!("`jobs` needs between 1 and {MAX_IDS} job ids"),
                    format!("`jobs` 需要 1 到 {MAX_IDS} 个任务 id"),
                ),
            );
            return;
        }
        scenario.jobs.clear();
        scenario.jobs_listed = true;
        for entry in entries {
            let Some(id) = self.ident(entry, &words("a job id", "任务 id")) else {
                continue;
            };
            if scenario.jobs.contains(&id) {
                self.error(
                    entry.span(),
                    words(
                        format!("job `{id}` is listed twice"),
                        format!("任务 `{id}` 被列了两次"),
                    ),
                );
            } else {
                scenario.jobs.push(id);
            }
        }
        if scenario.jobs.is_empty() {
            scenario.jobs.push("r".to_owned());
        }
    }

    /// A scenario's `design`: a preset name, or a table of a `base` preset
    /// and the knobs it changes, every mistake with its position and its
    /// words in both languages, in the file's order.
    pub(crate) fn design(&mut self, value: &Value<'_>) -> Option<(Design, DesignSource)> {
        if let DeValue::String(_) = value.get_ref() {
            let preset = self.choice(
                value,
                &words("design preset", "设计预设"),
                &Preset::ALL,
                Preset::name,
            )?;
            return Some((preset.design(), DesignSource::Preset(preset)));
        }
        let table = match value.get_ref() {
            DeValue::Table(table) => table,
            other => {
                self.error(
                    value.span(),
                    words(
                        format!(
                            "`design` must be a preset name or a table, not {}",
                            type_name(other)
                        ),
                        format!("`design` 必须是预设名或表，而不是{}", type_name_zh(other)),
                    ),
                );
                return None;
            }
        };
        const KEYS: [&str; 11] = [
            "base",
            "token",
            "commit_checks",
            "renew_checks",
            "lease_clock",
            "register_on_claim",
            "target_protect",
            "worker_checks",
            "cancel_epoch",
            "claim",
            "input_revision",
        ];
        let fields = self.fields(table, value.span(), &KEYS, &name("`design`"));
        let base = fields
            .get(0)
            .and_then(|v| {
                self.choice(
                    v,
                    &words("design preset", "设计预设"),
                    &Preset::ALL,
                    Preset::name,
                )
            })
            .unwrap_or(Preset::Full);
        let mut design = base.design();
        self.design_knobs(&fields, &mut design);
        Some((design, DesignSource::Table))
    }

    /// Sets each knob the `design` table names (its fields in the order of
    /// [`Reader::design`]'s keys) on `design`.
    fn design_knobs(&mut self, fields: &Fields<'_, '_>, design: &mut Design) {
        if let Some(token) = fields.get(1).and_then(|v| {
            self.choice(
                v,
                &words("token kind", "令牌类型"),
                &TokenKind::ALL,
                TokenKind::name,
            )
        }) {
            design.token = token;
        }
        if let Some(checks) = fields
            .get(2)
            .and_then(|v| self.checks(v, &name("`commit_checks`")))
        {
            design.commit_checks = checks;
        }
        if let Some(checks) = fields
            .get(3)
            .and_then(|v| self.checks(v, &name("`renew_checks`")))
        {
            design.renew_checks = checks;
        }
        if let Some(clock) = fields.get(4).and_then(|v| {
            self.choice(
                v,
                &words("lease clock", "租约时钟"),
                &LeaseClock::ALL,
                LeaseClock::name,
            )
        }) {
            design.lease_clock = clock;
        }
        if let Some(flag) = fields
            .get(5)
            .and_then(|v| self.bool(v, &name("`register_on_claim`")))
        {
            design.register_on_claim = flag;
        }
        if let Some(protect) = fields.get(6).and_then(|v| {
            self.choice(
                v,
                &words("protection", "保护方式"),
                &Protect::ALL,
                Protect::name,
            )
        }) {
            design.target_protect = protect;
        }
        if let Some(flag) = fields
            .get(7)
            .and_then(|v| self.bool(v, &name("`worker_checks`")))
        {
            design.worker_checks = flag;
        }
        if let Some(flag) = fields
            .get(8)
            .and_then(|v| self.bool(v, &name("`cancel_epoch`")))
        {
            design.cancel_epoch = flag;
        }
        if let Some(flag) = fields
            .get(10)
            .and_then(|v| self.bool(v, &name("`input_revision`")))
        {
            design.input_revision = flag;
        }
        if let Some(claim) = fields.get(9).and_then(|v| {
            self.choice(
                v,
                &words("claim procedure", "领取方式"),
                &ClaimProcedure::ALL,
                ClaimProcedure::name,
            )
        }) {
            design.claim = claim;
        }
    }

    pub(crate) fn checks(&mut self, value: &Value<'_>, what: &Text) -> Option<CheckSet> {
        let entries = self.array(value, what)?;
        let mut set = CheckSet::EMPTY;
        for entry in entries {
            let Some(check) = self.choice(entry, &words("check", "检查"), &Check::ALL, Check::name)
            else {
                continue;
            };
            if set.contains(check) {
                self.error(
                    entry.span(),
                    words(
                        format!("`{}` is listed twice in {}", check.name(), what.en),
                        format!("`{}` 在 {} 中被列了两次", check.name(), what.zh),
                    ),
                );
            }
            set = set.with(check);
        }
        Some(set)
    }

    pub(crate) fn targets(&mut self, value: &Value<'_>, scenario: &mut Scenario) {
        let Some(entries) = self.array(value, &name("`targets`")) else {
            return;
        };
        if entries.len() > MAX_IDS {
            self.error(
                value.span(),
                words(
                    format!("at most {MAX_IDS} targets"),
                    format!("最多 {MAX_IDS} 个目标"),
                ),
            );
            return;
        }
        for entry in entries {
            let a_target = words("a target", "目标");
            let Some(table) = self.table(entry, &a_target) else {
                continue;
            };
            let fields = self.fields(
                table,
                entry.span(),
                &["id", "protect", "check_batch"],
                &a_target,
            );
            let id = self
                .required(&fields, 0, "id", &a_target)
                .and_then(|v| self.ident(v, &words("a target's `id`", "目标的 `id`")));
            let protect = fields.get(1).and_then(|v| {
                self.choice(
                    v,
                    &words("protection", "保护方式"),
                    &Protect::ALL,
                    Protect::name,
                )
            });
            let check_batch = fields.get(2).and_then(|v| {
                self.bool(
                    v,
                    &words("a target's `check_batch`", "目标的 `check_batch`"),
                )
            });
            let Some(id) = id else { continue };
            if scenario.targets.iter().any(|t| t.id == id) {
                self.error(
                    entry.span(),
                    words(
                        format!("target `{id}` is listed twice"),
                        format!("目标 `{id}` 被列了两次"),
                    ),
                );
            } else {
                let added = scenario.add_target(&id, protect);
                if let Some(target) = scenario.targets.get_mut(usize::from(added)) {
                    target.check_batch = check_batch.unwrap_or(false);
                }
            }
        }
    }

    pub(crate) fn clocks(&mut self, value: &Value<'_>, scenario: &mut Scenario) {
        let Some(table) = self.table(value, &name("`clocks`")) else {
            return;
        };
        for (key, offset) in table.iter() {
            let node = key.get_ref().as_ref();
            let Some(offset) = self.integer(
                offset,
                &words(
                    format!("the offset of `{node}`"),
                    format!("`{node}` 的偏移"),
                ),
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
                    words(
                        format!("unknown clock `{node}`: not `db` or a worker{}", hint.en),
                        format!("未知的时钟 `{node}`：既不是 `db` 也不是 Worker{}", hint.zh),
                    ),
                );
            }
        }
    }

    pub(crate) fn steps(&mut self, value: &Value<'_>, scenario: &mut Scenario) {
        let Some(entries) = self.array(value, &name("`steps`")) else {
            return;
        };
        if entries.len() > MAX_STEPS {
            self.error(
                value.span(),
                words(
                    format!("at most {MAX_STEPS} steps"),
                    format!("最多 {MAX_STEPS} 步"),
                ),
            );
            return;
        }
        let mut ops = HashMap::new();
        let mut values = HashMap::new();
        let mut delivered = Vec::new();
        let mut previous_at: Option<(u64, usize)> = None;
        for entry in entries {
            let Some(step) = self.step(entry, scenario, &mut ops, &mut values, &mut delivered)
            else {
                continue;
            };
            if let Some((before, line_of)) = previous_at
                && step.at < before
            {
                let (line, _) = line_col(self.text, line_of);
                self.error(
                    entry.span(),
                    words(
                        format!(
                            "`at` = {} goes backwards: the step before (line {line}) is at {before}",
                            step.at
                        ),
                        format!(
                            "`at` = {} 让时间倒退了：前一步（第 {line} 行）在 tick {before}",
                            step.at
                        ),
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
        delivered: &mut Vec<bool>,
    ) -> Option<Step> {
        const KEYS: [&str; 10] = [
            "at", "worker", "do", "job", "target", "op", "value", "note", "request", "batch",
        ];
        let a_step = words("a step", "步骤");
        let this_step = words("this step", "这一步");
        let table = self.table(entry, &a_step)?;
        let fields = self.fields(table, entry.span(), &KEYS, &a_step);
        let at = self
            .required(&fields, 0, "at", &this_step)
            .and_then(|v| self.integer(v, &name("`at`"), 0, MAX_TIME));
        let action = self
            .required(&fields, 2, "do", &this_step)
            .and_then(|v| self.choice(v, &words("action", "动作"), &Action::ALL, Action::name));
        let note = fields.get(7).and_then(|v| self.text(v, &name("`note`")));
        let worker = self.step_reference(
            fields.get(1),
            words("worker", "Worker"),
            scenario.workers.iter().map(|w| w.id.as_str()),
            // Every id in `workers` was refused (`db`, a repeat, not an
            // identifier), each with its own error above.
            Some(words(
                "; `workers` gives no usable worker",
                "；`workers` 里没有可用的 Worker",
            )),
        )?;
        let job = self.step_reference(
            fields.get(3),
            words("job", "任务"),
            scenario.jobs.iter().map(String::as_str),
            None,
        )?;
        let target = self.step_reference(
            fields.get(4),
            words("target", "目标"),
            scenario.targets.iter().map(|t| t.id.as_str()),
            Some(words(
                "; the scenario has no [[targets]]",
                "；场景里没有 [[targets]]",
            )),
        )?;
        let (at, action) = (at?, action?);
        self.step_fits_action(entry, &fields, scenario, action, worker, target)?;
        let mut step = Step::new(at as u64, worker, action);
        step.job = job;
        step.target = target;
        step.note = note;
        self.write_names(&fields, scenario, ops, values, &mut step)?;
        self.request_name(&fields, entry, scenario, &mut step, delivered)?;
        if let Some(value) = fields.get(9) {
            step.batch = Some(self.batch(value, action)?);
        }
        Some(step)
    }

    /// A `write`'s `batch`: a number from 1, the holder's step within its
    /// generation (C18). A `deliver` carries its `write`'s. `None` once
    /// reported.
    fn batch(&mut self, value: &Value<'_>, action: Action) -> Option<u32> {
        if action != Action::Write {
            let name = action.name();
            self.error(
                value.span(),
                words(
                    format!(
                        "`{name}` takes no `batch`; only `write` does (a `deliver` carries its `write`'s)"
                    ),
                    format!("`{name}` 不接受 `batch`；只有 `write` 接受（`deliver` 带的是它那个 `write` 的批次）"),
                ),
            );
            return None;
        }
        let batch = self.integer(value, &name("`batch`"), 1, i64::from(MAX_BATCH))?;
        u32::try_from(batch).ok()
    }

    /// A step's `request`: a `write` may send one under a new id, a
    /// `deliver` must name one an earlier `write` sent and no `deliver` has
    /// delivered yet (`delivered`, per request id). `None` once reported.
    fn request_name(
        &mut self,
        fields: &Fields<'_, '_>,
        entry: &Value<'_>,
        scenario: &mut Scenario,
        step: &mut Step,
        delivered: &mut Vec<bool>,
    ) -> Option<()> {
        let action = step.action.name();
        let Some(value) = fields.get(8) else {
            if step.action == Action::Deliver {
                self.error(
                    entry.span(),
                    words(
                        "`deliver` needs a `request`: the id a `write` sent it under",
                        "`deliver` 需要 `request`：某个 `write` 发出请求时用的 ID",
                    ),
                );
                return None;
            }
            return Some(());
        };
        if !matches!(step.action, Action::Write | Action::Deliver) {
            self.error(
                value.span(),
                words(
                    format!("`{action}` takes no `request`; only `write` and `deliver` do"),
                    format!("`{action}` 不接受 `request`；只有 `write` 和 `deliver` 接受"),
                ),
            );
            return None;
        }
        let id = self.ident(value, &name("`request`"))?;
        let known = scenario.requests.iter().position(|known| *known == id);
        match (step.action, known) {
            (Action::Write, Some(_)) => {
                self.error(
                    value.span(),
                    words(
                        format!("request `{id}` is already sent by an earlier `write`"),
                        format!("请求 `{id}` 已经由前面的 `write` 发出"),
                    ),
                );
                None
            }
            (Action::Write, None) => {
                step.request = Some(scenario.intern_request(&id));
                delivered.push(false);
                Some(())
            }
            (_, None) => {
                self.error(
                    value.span(),
                    words(
                        format!("no earlier `write` sent request `{id}`"),
                        format!("前面没有 `write` 发出请求 `{id}`"),
                    ),
                );
                None
            }
            (_, Some(index)) => {
                if delivered.get(index).copied().unwrap_or(true) {
                    self.error(
                        value.span(),
                        words(
                            format!("request `{id}` is already delivered"),
                            format!("请求 `{id}` 已经送达"),
                        ),
                    );
                    return None;
                }
                if let Some(flag) = delivered.get_mut(index) {
                    *flag = true;
                }
                step.request = Some(u32::try_from(index).unwrap_or(u32::MAX));
                Some(())
            }
        }
    }

    /// The index of a step's `worker`, `job` or `target` (`key`) among
    /// `ids`: `Some(None)` when the step names none, `None` once an unknown
    /// name is reported. `if_none_exist` is the hint when `ids` is empty.
    fn step_reference<'k>(
        &mut self,
        value: Option<&Value<'_>>,
        noun: Text,
        ids: impl IntoIterator<Item = &'k str> + Clone,
        if_none_exist: Option<Text>,
    ) -> Option<Option<u16>> {
        let Some(value) = value else {
            return Some(None);
        };
        let id = self.ident(value, &name(&format!("`{}`", noun.en)))?;
        if let Some(index) = ids.clone().into_iter().position(|known| known == id) {
            return Some(Some(idx16(index)));
        }
        let hint = match if_none_exist {
            Some(hint) if ids.clone().into_iter().next().is_none() => hint,
            _ => did_you_mean(&id, ids),
        };
        self.error(
            value.span(),
            words(
                format!("unknown {} `{id}`{}", noun.en, hint.en),
                format!("未知的{} `{id}`{}", noun.zh, hint.zh),
            ),
        );
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
            self.error(
                entry.span(),
                words(
                    format!("`{name}` needs a `worker`"),
                    format!("`{name}` 需要一个 `worker`"),
                ),
            );
            return None;
        }
        match (action.needs_target(), fields.get(4)) {
            (true, None) => {
                self.error(
                    entry.span(),
                    words(
                        format!("`{name}` needs a `target`"),
                        format!("`{name}` 需要一个 `target`"),
                    ),
                );
                return None;
            }
            (false, Some(value)) => {
                self.error(
                    value.span(),
                    words(
                        format!("`{name}` takes no `target`"),
                        format!("`{name}` 不接受 `target`"),
                    ),
                );
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
                words(
                    format!(
                        "`register` needs a target with protect = \"registered_token\"; `{}` is {}",
                        spec.id,
                        spec.protect.name()
                    ),
                    format!(
                        "`register` 需要 protect = \"registered_token\" 的目标；`{}` 是 {}",
                        spec.id,
                        spec.protect.name()
                    ),
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
                    words(
                        format!("`{name}` takes no `{key}`; only `write` does"),
                        format!("`{name}` 不接受 `{key}`；只有 `write` 接受"),
                    ),
                );
                return None;
            }
            let text = match value.get_ref() {
                DeValue::Integer(integer) if key == "value" => integer.as_str().to_owned(),
                _ => self.ident(value, &Text::both(&format!("`{key}`")))?,
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

/// `zh` with a space wherever a Chinese character meets a Latin letter, a
/// digit or a backtick: the Chinese messages are built from parts (`` `ttl` ``
/// + 必须…), and this keeps the spacing the rest of the Chinese text uses.
fn spaced(zh: &str) -> String {
    let is_han = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
    let is_latin = |c: char| c.is_ascii_alphanumeric() || c == '`';
    let mut out = String::with_capacity(zh.len() + 8);
    let mut previous: Option<char> = None;
    for c in zh.chars() {
        if let Some(p) = previous
            && ((is_han(p) && is_latin(c)) || (is_latin(p) && is_han(c)))
        {
            out.push(' ');
        }
        out.push(c);
        previous = Some(c);
    }
    out
}

fn type_name_zh(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "字符串",
        DeValue::Integer(_) => "整数",
        DeValue::Float(_) => "浮点数",
        DeValue::Boolean(_) => "布尔值",
        DeValue::Datetime(_) => "日期时间",
        DeValue::Array(_) => "数组",
        DeValue::Table(_) => "表",
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
    fn chinese_messages_are_spaced_between_scripts() {
        assert_eq!(spaced("未知的Worker `Z`"), "未知的 Worker `Z`");
        assert_eq!(spaced("`ttl`必须是整数"), "`ttl` 必须是整数");
        assert_eq!(
            spaced("最多 64 个字符，而不是表"),
            "最多 64 个字符，而不是表"
        );
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
