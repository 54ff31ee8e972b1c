//! The explorer screen as data (issue 21): what both front ends show of a
//! search, in the learner's language, so neither decides any of it.
//!
//! - [`ExplorerForm`]: the settings the terminal's explorer screen changes
//!   row by row ([`FormKey`]), stepped within [`EXPLORER_OFFER`]'s bounds,
//!   each drawn as a [`SettingRow`] (label, value, what it means, the
//!   values it allows, whether it counts now).
//! - [`form_fields`]: the page's form — every knob of `fencelab explore`
//!   with its label, its default and range or its choices.
//! - [`world_words`], [`bounds_words`]: a world and its bounds in words.
//! - [`ProgressView`]: a running search's phase, bar and counts.
//! - [`ReportView`]: a finished search in words — its verdict, the
//!   counterexample and how it was shrunk, the world, bounds, limits and
//!   counts.
//!
//! The keys that act on these (a terminal's Enter, a page's button) are
//! each front end's own; the words about the search are here.

use serde::Serialize;

use crate::Lang;
use crate::design::{ClaimProcedure, Preset};
use crate::explore::offer::{EXPLORER_OFFER, NumberSetting};
use crate::explore::settings::{DesignChoice, ExplorerSettings, SettingsError};
use crate::explore::world::World;
use crate::explore::{Method, Move, Phase, Progress, Report, Verdict, safe_sentence};

/// Most shrinking steps listed one per line; a longer sequence keeps its
/// first and last halves of this and one [`ShrinkLine::Elided`] between.
pub const SHRINK_LINES: usize = 8;

/// A row of the explorer form, in the order the screen lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FormKey {
    Design,
    Method,
    Seed,
    Cancel,
    /// The user may revise the job's input once (claims without a lock).
    Revise,
    Heartbeat,
    Restarted,
    Targets,
    /// Delivery delays: requests in flight at once (0: none).
    InFlight,
    /// Delivery delays: ticks a request may travel.
    Delay,
    /// How the workers claim (the claim procedure).
    Claim,
    /// The scheduler may crash a worker holding a row lock.
    Crash,
}

impl FormKey {
    pub const ALL: [FormKey; 12] = [
        FormKey::Design,
        FormKey::Method,
        FormKey::Seed,
        FormKey::Cancel,
        FormKey::Revise,
        FormKey::Heartbeat,
        FormKey::Restarted,
        FormKey::Targets,
        FormKey::InFlight,
        FormKey::Delay,
        FormKey::Claim,
        FormKey::Crash,
    ];
}

/// The explorer's settings as a screen holds them; the knobs it does not
/// show are the offer's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExplorerForm {
    pub design: Preset,
    pub exhaustive: bool,
    pub seed: u64,
    pub cancel: bool,
    /// The explorers draw a revise only where claims take no row lock:
    /// with a claim in a transaction the switch changes nothing.
    pub revise: bool,
    pub heartbeat: bool,
    pub restarted: bool,
    /// Two remote targets with the design's protection, or none.
    pub targets: bool,
    pub max_in_flight: u8,
    pub max_delay: u8,
    pub claim: ClaimProcedure,
    /// Only a worker in a transaction that holds a row lock can crash:
    /// with a claim outside any transaction the switch changes nothing.
    pub crash: bool,
}

/// The values a row allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Allowed {
    /// One of these, in order; stepping goes round.
    Choice { options: Vec<String>, chosen: usize },
    /// On or off.
    Switch { on: bool },
    /// A whole number within the offer's range.
    Range { value: u64, min: u64, max: u64 },
}

/// One row of the form, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettingRow {
    pub key: FormKey,
    pub label: String,
    /// The value as the screen shows it: `◂ 3 ▸` for what steps, `[x]` or
    /// `[ ]` for a switch, `—` for a value that does not count now.
    pub value: String,
    /// What the value means.
    pub note: String,
    pub allowed: Allowed,
    /// The value counts for the next search (a random search's seed, the
    /// delay when requests travel).
    pub applies: bool,
}

fn on_off(on: bool) -> &'static str {
    if on { "[x]" } else { "[ ]" }
}

/// `value` one on or back, kept within what `setting` offers.
fn step_within(value: u64, setting: NumberSetting, forward: bool) -> u64 {
    let next = if forward {
        value.saturating_add(1)
    } else {
        value.saturating_sub(1)
    };
    next.clamp(setting.min, setting.max)
}

/// The option after (`forward`) or before `current` in `all`, going round.
fn step_round<T: Copy + PartialEq>(all: &[T], current: T, forward: bool) -> T {
    let count = all.len();
    let at = all.iter().position(|o| *o == current).unwrap_or(0);
    let next = if forward {
        (at + 1) % count.max(1)
    } else {
        (at + count.saturating_sub(1)) % count.max(1)
    };
    all.get(next).copied().unwrap_or(current)
}

/// [`step_within`] of a setting the world keeps in a byte.
fn step_byte(value: u8, setting: NumberSetting, forward: bool) -> u8 {
    u8::try_from(step_within(u64::from(value), setting, forward)).unwrap_or(value)
}

impl ExplorerForm {
    /// A fresh form on `design` (the offer's first design when none).
    pub fn new(design: Option<Preset>) -> ExplorerForm {
        let offer = EXPLORER_OFFER;
        let bounds = offer.bounds();
        ExplorerForm {
            design: design.unwrap_or_else(|| offer.default_design()),
            exhaustive: false,
            seed: offer.seed.default,
            cancel: false,
            revise: false,
            heartbeat: false,
            restarted: false,
            targets: offer.targets,
            max_in_flight: bounds.max_in_flight,
            max_delay: bounds.max_delay,
            claim: ClaimProcedure::default(),
            crash: false,
        }
    }

    /// The form in the terms every front end's settings share.
    pub fn settings(&self) -> ExplorerSettings {
        ExplorerSettings {
            design: Some(DesignChoice::Preset(self.design)),
            targets: (!self.targets).then(Vec::new),
            seed: Some(self.seed),
            exhaustive: self.exhaustive,
            max_in_flight: Some(u64::from(self.max_in_flight)),
            max_delay: Some(u64::from(self.max_delay)),
            cancel: self.cancel,
            revise: self.revise && self.revise_applies(),
            heartbeat: self.heartbeat,
            restarted: self.restarted,
            claim: Some(self.claim.name().to_owned()),
            crash: self.crash,
            ..ExplorerSettings::default()
        }
    }

    /// The world the form describes, validated.
    pub fn world(&self) -> Result<World, SettingsError> {
        self.settings().world()
    }

    pub fn method(&self) -> Method {
        if self.exhaustive {
            Method::Exhaustive
        } else {
            Method::Random {
                seed: self.seed,
                cases: u32::try_from(EXPLORER_OFFER.cases.default).unwrap_or(u32::MAX),
            }
        }
    }

    /// Moves `key`'s value one on (`forward`) or back: a choice goes round,
    /// a switch flips, a number stays within the offer's range.
    pub fn step(&mut self, key: FormKey, forward: bool) {
        let offer = EXPLORER_OFFER;
        match key {
            FormKey::Design => self.design = step_round(&offer.designs, self.design, forward),
            FormKey::Method => self.exhaustive = !self.exhaustive,
            FormKey::Seed => self.seed = step_within(self.seed, offer.seed, forward),
            FormKey::Cancel => self.cancel = !self.cancel,
            FormKey::Revise => self.revise = !self.revise,
            FormKey::Heartbeat => self.heartbeat = !self.heartbeat,
            FormKey::Restarted => self.restarted = !self.restarted,
            FormKey::Targets => self.targets = !self.targets,
            FormKey::InFlight => {
                self.max_in_flight = step_byte(self.max_in_flight, offer.max_in_flight, forward);
            }
            FormKey::Delay => {
                self.max_delay = step_byte(self.max_delay, offer.max_delay, forward);
            }
            FormKey::Claim => {
                self.claim = step_round(&ClaimProcedure::ALL, self.claim, forward);
            }
            FormKey::Crash => self.crash = !self.crash,
        }
    }

    /// Whether digits typed on `key`'s row make its number: the seed of a
    /// random search.
    pub fn takes_digits(&self, key: FormKey) -> bool {
        key == FormKey::Seed && !self.exhaustive
    }

    /// A digit typed on the seed row: it starts a new seed (`fresh`) or is
    /// appended; a digit that would leave the offered range is not taken.
    pub fn type_digit(&mut self, digit: u8, fresh: bool) {
        let kept = if fresh { 0 } else { self.seed };
        self.seed = kept
            .checked_mul(10)
            .and_then(|s| s.checked_add(u64::from(digit)))
            .and_then(|seed| EXPLORER_OFFER.seed.check(seed))
            .unwrap_or(self.seed);
    }

    /// Backspace on the seed row: the last digit goes.
    pub fn erase_digit(&mut self) {
        self.seed /= 10;
    }

    /// Every row, in [`FormKey::ALL`]'s order.
    pub fn rows(&self, lang: Lang) -> Vec<SettingRow> {
        FormKey::ALL.map(|key| self.row(key, lang)).to_vec()
    }

    /// `key`'s row in words. Long because it is one arm per setting, each
    /// with its value, note and bounds in both languages: split, a
    /// setting's words would be apart from its value.
    pub fn row(&self, key: FormKey, lang: Lang) -> SettingRow {
        let offer = EXPLORER_OFFER;
        let switch = |on: bool, label: &str, note: String| SettingRow {
            key,
            label: label.to_owned(),
            value: on_off(on).to_owned(),
            note,
            allowed: Allowed::Switch { on },
            applies: true,
        };
        match key {
            FormKey::Design => self.design_row(lang),
            FormKey::Method => self.method_row(lang),
            FormKey::Seed => {
                let applies = !self.exhaustive;
                let note = if applies {
                    lang.pick(
                        "type digits, Backspace erases · same seed, same schedules",
                        "可输入数字，Backspace 删除 · 同一个种子，同样的调度",
                    )
                } else {
                    lang.pick("exhaustive search needs none", "穷举搜索不需要种子")
                };
                number_row(
                    key,
                    lang.pick("Seed", "种子"),
                    self.seed,
                    offer.seed,
                    applies,
                )
                .with_note(note)
            }
            FormKey::Cancel => switch(
                self.cancel,
                lang.pick("User cancel", "用户取消"),
                lang.pick("the user may cancel the job once", "用户可以取消一次任务")
                    .to_owned(),
            ),
            FormKey::Revise => {
                let applies = self.revise_applies();
                let note = if applies {
                    lang.pick(
                        "the user may revise the job's input once; a result of the old input is stale",
                        "用户可以修改一次任务的输入；按旧输入算出的结果就是过时的",
                    )
                } else {
                    lang.pick(
                        "revisions are drawn only where claims take no row lock",
                        "只有领取不加行锁时，才会生成输入修改",
                    )
                };
                SettingRow {
                    applies,
                    value: if applies {
                        on_off(self.revise).to_owned()
                    } else {
                        "—".to_owned()
                    },
                    ..switch(
                        self.revise,
                        lang.pick("Revise input", "修改输入"),
                        note.to_owned(),
                    )
                }
            }
            FormKey::Heartbeat => switch(
                self.heartbeat,
                lang.pick("Heartbeat", "心跳续约"),
                lang.pick(
                    "workers renew before every write and finish",
                    "Worker 每次写入和完成前都续约",
                )
                .to_owned(),
            ),
            FormKey::Restarted => switch(
                self.restarted,
                lang.pick("Restarted", "重启化身"),
                self.restarted_note(lang),
            ),
            FormKey::Targets => {
                let note = match &self.world().ok() {
                    Some(world) if !world.targets.is_empty() => target_list(world, lang),
                    _ => lang
                        .pick("none: the job table only", "无：只有任务表")
                        .to_owned(),
                };
                switch(self.targets, lang.pick("Targets", "远端目标"), note)
            }
            FormKey::InFlight => {
                let note = if self.max_in_flight == 0 {
                    lang.pick(
                        "no delays: every write takes effect when it is made",
                        "没有延迟：每次写入在发出时立即生效",
                    )
                } else {
                    lang.pick(
                        "requests travelling at once; the scheduler picks when each arrives",
                        "同时在途的请求数；调度器决定每个请求何时到达",
                    )
                };
                number_row(
                    key,
                    lang.pick("In flight", "在途请求"),
                    u64::from(self.max_in_flight),
                    offer.max_in_flight,
                    true,
                )
                .with_note(note)
            }
            FormKey::Delay => number_row(
                key,
                lang.pick("Max delay", "最大延迟"),
                u64::from(self.max_delay),
                offer.max_delay,
                self.max_in_flight > 0,
            )
            .with_note(lang.pick(
                "ticks a request may travel before it arrives",
                "请求到达前最多在途的 tick 数",
            )),
            FormKey::Claim => self.claim_row(lang),
            FormKey::Crash => {
                let applies = self.claim.transactional();
                let note = if applies {
                    lang.pick(
                        "its transaction rolls back and its lock is freed; its requests still travel",
                        "它的事务回滚、锁被释放；它发出的请求仍在途",
                    )
                } else {
                    lang.pick(
                        "only a claim in a transaction holds a lock to crash with",
                        "只有在事务里领取，才会带着锁崩溃",
                    )
                };
                SettingRow {
                    applies,
                    value: if applies {
                        on_off(self.crash).to_owned()
                    } else {
                        "—".to_owned()
                    },
                    ..switch(self.crash, lang.pick("Crash", "崩溃"), note.to_owned())
                }
            }
        }
    }

    /// Whether the explorers draw a revise of the input under the form's
    /// claim (they do where it takes no row lock; presets' tokens are
    /// never random).
    fn revise_applies(&self) -> bool {
        !self.claim.transactional()
    }

    /// The claim row: the procedure, and the SQL it sends.
    fn claim_row(&self, lang: Lang) -> SettingRow {
        let all = ClaimProcedure::ALL;
        let chosen = all.iter().position(|c| *c == self.claim).unwrap_or(0);
        SettingRow {
            key: FormKey::Claim,
            label: lang.pick("Claim", "领取方式").to_owned(),
            value: format!("◂ {} ▸ {}/{}", self.claim.name(), chosen + 1, all.len()),
            note: crate::claim_words(self.claim, lang).to_owned(),
            allowed: Allowed::Choice {
                options: all.iter().map(|c| c.name().to_owned()).collect(),
                chosen,
            },
            applies: true,
        }
    }

    /// The design row: the preset, and its token, checks and targets.
    fn design_row(&self, lang: Lang) -> SettingRow {
        let note = design_contents(self.design, lang);
        let designs = EXPLORER_OFFER.designs;
        let chosen = designs.iter().position(|d| *d == self.design).unwrap_or(0);
        SettingRow {
            key: FormKey::Design,
            label: lang.pick("Design", "设计").to_owned(),
            value: format!(
                "◂ {} ▸ {}/{}",
                self.design.name(),
                chosen + 1,
                designs.len()
            ),
            note,
            allowed: Allowed::Choice {
                options: designs.iter().map(|d| d.name().to_owned()).collect(),
                chosen,
            },
            applies: true,
        }
    }

    /// The method row: random or exhaustive, and what each does.
    fn method_row(&self, lang: Lang) -> SettingRow {
        let options = [lang.pick("random", "随机"), lang.pick("exhaustive", "穷举")];
        let chosen = usize::from(self.exhaustive);
        let note = if self.exhaustive {
            lang.pick(
                "breadth first over every state within bounds",
                "广度优先遍历界限内的每个状态",
            )
            .to_owned()
        } else {
            let cases = EXPLORER_OFFER.cases.default;
            lang.pick(
                format!("{cases} random schedules, shrunk on failure"),
                format!("{cases} 个随机调度，失败后收缩"),
            )
        };
        SettingRow {
            key: FormKey::Method,
            label: lang.pick("Method", "方法").to_owned(),
            value: format!("◂ {} ▸", options[chosen]),
            note,
            allowed: Allowed::Choice {
                options: options.map(str::to_owned).to_vec(),
                chosen,
            },
            applies: true,
        }
    }

    /// The restarted row's note, naming the workers the world has now.
    fn restarted_note(&self, lang: Lang) -> String {
        let names: Vec<String> = self
            .world()
            .map(|w| w.workers.iter().map(|s| s.id.clone()).collect())
            .unwrap_or_default();
        lang.pick(
            format!(
                "the last worker is A restarted (same owner identity) · now: {}",
                names.join(", ")
            ),
            format!(
                "最后一个 Worker 是 A 重启后的化身（同一身份） · 现在：{}",
                names.join("、")
            ),
        )
    }

    /// The design and method in a line: `ttl-lock-only · random · seed 1`.
    pub fn summary(&self, lang: Lang) -> String {
        let method = if self.exhaustive {
            lang.pick("exhaustive", "穷举").to_owned()
        } else {
            lang.pick(
                format!("random · seed {}", self.seed),
                format!("随机 · 种子 {}", self.seed),
            )
        };
        format!("{} · {method}", self.design.name())
    }

    /// Before a search: the world and the bounds it would run under, in
    /// words; or why the form is not a world.
    pub fn preview(&self, lang: Lang) -> Result<[String; 2], String> {
        match self.world() {
            Ok(world) => Ok([
                world_words(&world, lang),
                bounds_words(&world, self.method(), lang),
            ]),
            Err(why) => Err(why.message(lang)),
        }
    }
}

/// A row for a number: `◂ n ▸`, or `—` when it does not count now.
fn number_row(
    key: FormKey,
    label: &str,
    value: u64,
    setting: NumberSetting,
    applies: bool,
) -> SettingRow {
    SettingRow {
        key,
        label: label.to_owned(),
        value: if applies {
            format!("◂ {value} ▸")
        } else {
            "—".to_owned()
        },
        note: String::new(),
        allowed: Allowed::Range {
            value,
            min: setting.min,
            max: setting.max,
        },
        applies,
    }
}

impl SettingRow {
    fn with_note(mut self, note: &str) -> SettingRow {
        note.clone_into(&mut self.note);
        self
    }
}

/// A field of the page's form: every knob of `fencelab explore` the page
/// offers, in its order, with its label and what it takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FormField {
    /// The key of the options the page sends ([`ExplorerSettings::from_json`]).
    pub key: &'static str,
    pub label: String,
    #[serde(flatten)]
    pub input: FieldInput,
}

/// What a field of the page's form takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "input", rename_all = "snake_case")]
pub enum FieldInput {
    Number {
        default: u64,
        min: u64,
        max: u64,
    },
    Switch,
    /// One of named options (a design preset, a claim procedure): its
    /// name as the value, and what it is made of as the note the page
    /// shows under the menu.
    Menu {
        options: Vec<DesignOption>,
        default: &'static str,
    },
    /// A protection per target (`design`: the design's own), or none.
    Targets {
        count: usize,
        options: Vec<ChoiceWords>,
        /// The switch for no target at all.
        none: String,
    },
}

/// A design the form offers: its name, and what it is made of in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DesignOption {
    pub value: &'static str,
    pub note: String,
}

/// A value and its words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChoiceWords {
    pub value: &'static str,
    pub words: String,
}

/// What a preset is made of, in words: its token, its commit checks and
/// what its targets check (the note beside the design, in both front ends).
fn design_contents(preset: Preset, lang: Lang) -> String {
    let design = preset.design();
    let checks = design.commit_checks.names();
    let checks = if checks.is_empty() {
        lang.pick("none", "无").to_owned()
    } else {
        checks.join(lang.pick(", ", "、"))
    };
    let (token, targets) = (
        crate::token_words(design.token, lang),
        crate::protect_words(design.target_protect, lang),
    );
    lang.pick(
        format!("token: {token} · commit checks {checks} · targets: {targets}"),
        format!("令牌 {token} · 提交检查 {checks} · 目标 {targets}"),
    )
}

/// The page's explorer form, in `lang`. Long because it lists every field
/// of the form, in its order, each with its words, default and bounds from
/// `EXPLORER_OFFER`: one list reads as the form does.
pub fn form_fields(lang: Lang) -> Vec<FormField> {
    let offer = EXPLORER_OFFER;
    let field = |key, label: &str, input| FormField {
        key,
        label: label.to_owned(),
        input,
    };
    let number = |key, label: &str, setting: NumberSetting| {
        field(
            key,
            label,
            FieldInput::Number {
                default: setting.default,
                min: setting.min,
                max: setting.max,
            },
        )
    };
    let mut targets = vec![ChoiceWords {
        value: "design",
        words: lang.pick("the design's", "设计自带的").to_owned(),
    }];
    targets.extend(offer.protections.iter().map(|p| ChoiceWords {
        value: p.name(),
        words: crate::protect_words(*p, lang).to_owned(),
    }));
    vec![
        field(
            "design",
            lang.pick("Design", "设计"),
            FieldInput::Menu {
                options: offer
                    .designs
                    .iter()
                    .map(|d| DesignOption {
                        value: d.name(),
                        note: design_contents(*d, lang),
                    })
                    .collect(),
                default: offer.default_design().name(),
            },
        ),
        number("workers", lang.pick("Workers", "Worker 数"), offer.workers),
        number("ttl", lang.pick("TTL (ticks)", "TTL（tick）"), offer.ttl),
        number("jobs", lang.pick("Jobs", "任务数"), offer.jobs),
        field(
            "targets",
            lang.pick(
                "Targets (protection per target)",
                "目标（每个目标的保护方式）",
            ),
            FieldInput::Targets {
                count: 2,
                options: targets,
                none: lang
                    .pick("none (job table alone)", "无（只有任务表）")
                    .to_owned(),
            },
        ),
        field(
            "claim",
            lang.pick("How workers claim", "Worker 怎样领取"),
            FieldInput::Menu {
                options: ClaimProcedure::ALL
                    .iter()
                    .map(|c| DesignOption {
                        value: c.name(),
                        note: format!(
                            "{} · {}",
                            crate::claim_words(*c, lang),
                            crate::claim_cost_words(*c, lang)
                        ),
                    })
                    .collect(),
                default: ClaimProcedure::default().name(),
            },
        ),
        field(
            "crash",
            lang.pick(
                "A worker holding a row lock may crash",
                "持有行锁的 Worker 可能崩溃",
            ),
            FieldInput::Switch,
        ),
        field(
            "cancel",
            lang.pick("The user may cancel once", "用户可以取消一次"),
            FieldInput::Switch,
        ),
        field(
            "revise",
            lang.pick(
                "The user may revise the input once (claims without a row lock)",
                "用户可以修改一次输入（领取不加行锁时）",
            ),
            FieldInput::Switch,
        ),
        field(
            "heartbeat",
            lang.pick("Heartbeat renews", "心跳续约"),
            FieldInput::Switch,
        ),
        field(
            "restarted",
            lang.pick("A restarted incarnation", "包含一个重启后的进程"),
            FieldInput::Switch,
        ),
        field(
            "exhaustive",
            lang.pick(
                "Exhaustive (every schedule within bounds)",
                "穷举（界限内的所有调度）",
            ),
            FieldInput::Switch,
        ),
        number("seed", lang.pick("Seed", "种子"), offer.seed),
        number(
            "cases",
            lang.pick("Random cases", "随机调度数"),
            offer.cases,
        ),
        number(
            "max_time",
            lang.pick("Max time", "最大时间"),
            offer.max_time,
        ),
        number(
            "max_claims",
            lang.pick("Max claims", "最多领取次数"),
            offer.max_claims,
        ),
        number(
            "max_in_flight",
            lang.pick(
                "Requests in flight at once (0: no delays)",
                "同时在途的请求数（0：没有延迟）",
            ),
            offer.max_in_flight,
        ),
        number(
            "max_delay",
            lang.pick(
                "Max delay (ticks a request travels)",
                "最大延迟（请求在途的 tick 数）",
            ),
            offer.max_delay,
        ),
    ]
}

/// The world's targets and their protections: `T1 (words), T2 (words)`.
fn target_list(world: &World, lang: Lang) -> String {
    let list: Vec<String> = world
        .targets
        .iter()
        .enumerate()
        .map(|(index, protect)| {
            format!(
                "{} ({})",
                world.target_id(u8::try_from(index).unwrap_or(u8::MAX)),
                crate::protect_words(*protect, lang)
            )
        })
        .collect();
    list.join(lang.pick(", ", "、"))
}

/// A world in a line: its workers, jobs, targets, ttl and switches.
pub fn world_words(world: &World, lang: Lang) -> String {
    lang.pick("World: ", "世界：").to_owned() + &world_parts(world, lang)
}

/// A world in a line that opens with its design (a preset's name, or the
/// custom design's knobs): what `fencelab explore` prints above a report.
pub fn design_and_world_words(world: &World, lang: Lang) -> String {
    // How the workers claim is said by the world's part (with its SQL), not
    // twice: the design's name leaves it out.
    let design = crate::Design {
        claim: crate::ClaimProcedure::Atomic,
        ..world.design
    };
    format!(
        "{} · {}",
        crate::design_words(&design, lang),
        world_parts(world, lang)
    )
}

/// The world's workers, jobs, targets, ttl and switches, joined by ` · `.
fn world_parts(world: &World, lang: Lang) -> String {
    let workers: Vec<&str> = world.workers.iter().map(|w| w.id.as_str()).collect();
    let targets = if world.targets.is_empty() {
        lang.pick("none (job table only)", "无（只有任务表）")
            .to_owned()
    } else {
        target_list(world, lang)
    };
    let mut out = match lang {
        Lang::En => format!(
            "workers {} · {} job{} · targets {targets} · ttl {}",
            workers.join(", "),
            world.jobs,
            if world.jobs == 1 { "" } else { "s" },
            world.ttl
        ),
        Lang::Zh => format!(
            "Worker {} · {} 个任务 · 目标 {targets} · ttl {}",
            workers.join("、"),
            world.jobs,
            world.ttl
        ),
    };
    if world.design.claim != ClaimProcedure::Atomic {
        out += &lang.pick(
            format!(
                " · claims: {}",
                crate::claim_words(world.design.claim, lang)
            ),
            format!(" · 领取：{}", crate::claim_words(world.design.claim, lang)),
        );
    }
    if world.allow_cancel {
        out += lang.pick(" · the user may cancel", " · 用户可取消");
    }
    if world.allow_revise {
        out += lang.pick(" · the user may revise the input", " · 用户可修改输入");
    }
    if world.heartbeat {
        out += lang.pick(" · heartbeat renews", " · 心跳续约");
    }
    if world.crashes {
        out += crashes_words(lang);
    }
    out
}

/// A world whose workers may crash, as a world's line adds it.
pub fn crashes_words(lang: Lang) -> &'static str {
    lang.pick(
        " · a worker holding a lock may crash",
        " · 持有锁的 Worker 可能崩溃",
    )
}

/// A world's bounds and the method, in a line.
pub fn bounds_words(world: &World, method: Method, lang: Lang) -> String {
    let b = world.bounds;
    let method = match method {
        Method::Random { seed, cases } => lang.pick(
            format!("random, seed {seed}, up to {cases} cases"),
            format!("随机，种子 {seed}，最多 {cases} 个调度"),
        ),
        Method::Exhaustive => lang
            .pick("exhaustive breadth-first search", "穷举广度优先搜索")
            .to_owned(),
    };
    // The delay bounds are stated only where delays are allowed, so a
    // world without them reads as before.
    let delays = match (b.max_in_flight, lang) {
        (0, _) => String::new(),
        (n, Lang::Zh) => format!(" · 在途 ≤ {n} · 延迟 ≤ {}", b.max_delay),
        (n, Lang::En) => format!(" · in flight ≤ {n} · delay ≤ {}", b.max_delay),
    };
    lang.pick(
        format!(
            "Bounds: time ≤ {} · claims ≤ {} · moves per schedule ≤ {}{delays} · {method}",
            b.max_time, b.max_claims, b.max_steps
        ),
        format!(
            "界限：时间 ≤ {} · 领取 ≤ {} · 每个调度 ≤ {} 步{delays} · {method}",
            b.max_time, b.max_claims, b.max_steps
        ),
    )
}

/// Milliseconds as seconds to a tenth: `1.2 s`.
fn seconds(ms: u64) -> String {
    format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
}

/// A running search: what it is doing, how far along its bar is (`done`
/// of `total`), its counts and the time so far, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProgressView {
    pub title: String,
    pub done: u64,
    pub total: u64,
    pub counts: String,
    pub elapsed: String,
}

impl ProgressView {
    /// `progress` of a search by `method` over schedules of at most
    /// `max_steps` moves, `elapsed_ms` in (measured by the caller).
    pub fn new(
        progress: &Progress,
        method: Method,
        max_steps: u16,
        elapsed_ms: u64,
        lang: Lang,
    ) -> ProgressView {
        let elapsed = format!("{}{}", lang.pick("elapsed ", "用时 "), seconds(elapsed_ms));
        let (title, done, total, counts) = match (progress.phase, method) {
            (Phase::Shrinking, _) => (
                lang.pick("Shrinking the failing schedule…", "正在收缩失败的调度……"),
                1,
                1,
                lang.pick(
                    format!(
                        "{} shrink steps · schedule {} failed",
                        progress.shrink_steps, progress.cases
                    ),
                    format!(
                        "收缩 {} 步 · 第 {} 个调度失败",
                        progress.shrink_steps, progress.cases
                    ),
                ),
            ),
            (Phase::Searching, Method::Random { cases, .. }) => (
                lang.pick("Trying random schedules…", "正在尝试随机调度……"),
                u64::from(progress.cases),
                u64::from(cases),
                lang.pick(
                    format!(
                        "{} of {cases} cases · {} transitions",
                        progress.cases, progress.transitions
                    ),
                    format!(
                        "{} / {cases} 个调度 · {} 次转移",
                        progress.cases, progress.transitions
                    ),
                ),
            ),
            (Phase::Searching, Method::Exhaustive) => (
                lang.pick(
                    "Visiting every state, breadth first…",
                    "正在广度优先遍历所有状态……",
                ),
                u64::from(progress.depth),
                u64::from(max_steps),
                lang.pick(
                    format!(
                        "depth {} of at most {max_steps} · {} states · {} transitions",
                        progress.depth, progress.states, progress.transitions
                    ),
                    format!(
                        "深度 {} / 至多 {max_steps} · {} 个状态 · {} 次转移",
                        progress.depth, progress.states, progress.transitions
                    ),
                ),
            ),
        };
        ProgressView {
            title: title.to_owned(),
            done,
            total,
            counts,
            elapsed,
        }
    }
}

/// How a verdict is shown: good news, bad news, or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    Good,
    Bad,
    Warn,
}

/// A finished search in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportView {
    /// The verdict in a few words (`‼ UNSAFE`, `✓ SAFE within bounds`).
    pub title: String,
    pub tone: Tone,
    /// The preset's name, or `custom`.
    pub design: &'static str,
    /// The first line: the counterexample's length and the step that
    /// violates, how; or the verdict's sentence.
    pub summary: String,
    pub counterexample: Option<FoundView>,
    /// The failing schedules met while shrinking; none without shrinking.
    pub shrinking: Option<ShrinkView>,
    pub world: String,
    pub bounds: String,
    pub limits: String,
    /// What the search did, and how long it took.
    pub stats: String,
}

/// A counterexample in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FoundView {
    /// Its moves, as a schedule's labels.
    pub schedule: String,
    /// Why it breaks the design.
    pub explanation: String,
    /// The scenario step that violates.
    pub step: u32,
}

/// How a failing schedule was shrunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShrinkView {
    /// The lengths in a line: `Shrinking: 9 → 7 → 5 moves`.
    pub head: String,
    pub lines: Vec<ShrinkLine>,
}

/// A line of a [`ShrinkView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "line", rename_all = "snake_case")]
pub enum ShrinkLine {
    Schedule {
        moves: usize,
        schedule: String,
    },
    /// Schedules left out between the first and last ones.
    Elided,
}

fn schedule(report: &Report, moves: &[Move]) -> String {
    crate::explore::schedule_labels(&report.world, moves).join(" ")
}

impl ReportView {
    /// `report` in `lang`; `elapsed_ms` measured by the caller.
    pub fn new(report: &Report, elapsed_ms: u64, lang: Lang) -> ReportView {
        let (summary, tone) = match (&report.counterexample, report.verdict) {
            (Some(found), _) => (
                lang.pick(
                    format!(
                        "‼ UNSAFE — a counterexample of {} moves; step {} violates ({}):",
                        found.moves.len(),
                        found.step,
                        crate::violation_words(found.kind, lang)
                    ),
                    format!(
                        "‼ 不安全 —— 反例共 {} 步，第 {} 步违例（{}）：",
                        found.moves.len(),
                        found.step,
                        crate::violation_words(found.kind, lang)
                    ),
                ),
                Tone::Bad,
            ),
            (None, Verdict::Safe) => (format!("✓ {}", safe_sentence(report, lang)), Tone::Good),
            (None, _) => (format!("■ {}", safe_sentence(report, lang)), Tone::Warn),
        };
        let (states, limit_s) = (
            report.limits.max_states,
            report.limits.time_limit_ms.unwrap_or_default() / 1000,
        );
        ReportView {
            title: report_title(report, lang).to_owned(),
            tone,
            design: Preset::of(&report.world.design).map_or("custom", Preset::name),
            summary,
            counterexample: report.counterexample.as_ref().map(|found| FoundView {
                schedule: schedule(report, &found.moves),
                explanation: found.explanation.get(lang).to_owned(),
                step: found.step,
            }),
            shrinking: shrink_view(report, lang),
            world: world_words(&report.world, lang),
            bounds: bounds_words(&report.world, report.method, lang),
            limits: match lang {
                Lang::En => format!("Limits: states ≤ {states} · {limit_s} s"),
                Lang::Zh => format!("上限：状态 ≤ {states} · {limit_s} 秒"),
            },
            stats: stats_words(report, elapsed_ms, lang),
        }
    }
}

/// The verdict in a few words.
fn report_title(report: &Report, lang: Lang) -> &'static str {
    match (report.verdict, report.method) {
        (Verdict::Unsafe, _) => lang.pick("‼ UNSAFE", "‼ 不安全"),
        (Verdict::Safe, Method::Exhaustive) => lang.pick("✓ SAFE within bounds", "✓ 在界限内安全"),
        (Verdict::Safe, Method::Random { .. }) => {
            lang.pick("✓ no violation found", "✓ 没有找到违例")
        }
        (Verdict::Cancelled, _) => lang.pick("■ Cancelled", "■ 已取消"),
        (Verdict::Incomplete, _) => lang.pick("◌ Incomplete", "◌ 未完成"),
    }
}

/// The failing schedules met while shrinking, one per line; a long history
/// keeps its first and last ones.
fn shrink_view(report: &Report, lang: Lang) -> Option<ShrinkView> {
    let history = &report.shrink_history;
    if history.is_empty() {
        return None;
    }
    let lengths: Vec<String> = history.iter().map(|m| m.len().to_string()).collect();
    let head = lang.pick(
        format!("Shrinking: {} moves", lengths.join(" → ")),
        format!("收缩：{} 步", lengths.join(" → ")),
    );
    let count = history.len();
    let half = SHRINK_LINES / 2;
    let mut lines = Vec::new();
    for (index, moves) in history.iter().enumerate() {
        if count <= SHRINK_LINES || index < half || index + half >= count {
            lines.push(ShrinkLine::Schedule {
                moves: moves.len(),
                schedule: schedule(report, moves),
            });
        } else if index == half {
            lines.push(ShrinkLine::Elided);
        }
    }
    Some(ShrinkView { head, lines })
}

/// What the search did: its counts for its method, and how long it took.
fn stats_words(report: &Report, elapsed_ms: u64, lang: Lang) -> String {
    let s = report.stats;
    let took = seconds(elapsed_ms);
    match report.method {
        Method::Random { .. } => lang.pick(
            format!(
                "cases {} · transitions {} · shrink steps {} · {took}",
                s.cases, s.transitions, s.shrink_steps
            ),
            format!(
                "调度 {} · 转移 {} · 收缩 {} 步 · {took}",
                s.cases, s.transitions, s.shrink_steps
            ),
        ),
        Method::Exhaustive => lang.pick(
            format!(
                "states {} · transitions {} · depth {} · {took}",
                s.states, s.transitions, s.depth
            ),
            format!(
                "状态 {} · 转移 {} · 深度 {} · {took}",
                s.states, s.transitions, s.depth
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::{Limits, RunToEnd, explore_limited, schedule_labels};

    fn explored(form: &ExplorerForm) -> Report {
        let world = form.world().unwrap();
        explore_limited(
            &world,
            form.method(),
            None,
            Limits::default(),
            &mut RunToEnd,
        )
        .unwrap()
    }

    fn has_cjk(text: &str) -> bool {
        // Ideographs, or full-width punctuation (`TTL（tick）`).
        text.chars()
            .any(|c| matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}'))
    }

    #[test]
    fn numbers_step_within_the_offer_and_choices_go_round() {
        let offer = EXPLORER_OFFER;
        let mut form = ExplorerForm::new(None);
        assert_eq!(form.design, offer.default_design());
        for _ in 0..=offer.max_in_flight.max + 2 {
            form.step(FormKey::InFlight, true);
        }
        assert_eq!(u64::from(form.max_in_flight), offer.max_in_flight.max);
        for _ in 0..=offer.max_in_flight.max + 2 {
            form.step(FormKey::InFlight, false);
        }
        assert_eq!(u64::from(form.max_in_flight), offer.max_in_flight.min);
        for _ in 0..=offer.max_delay.max + 2 {
            form.step(FormKey::Delay, true);
        }
        assert_eq!(u64::from(form.max_delay), offer.max_delay.max);
        form.seed = offer.seed.max;
        form.step(FormKey::Seed, true);
        assert_eq!(form.seed, offer.seed.max);
        form.seed = offer.seed.min;
        form.step(FormKey::Seed, false);
        assert_eq!(form.seed, offer.seed.min);
        // The designs go round, both ways, back to the start.
        let start = form.design;
        for _ in 0..offer.designs.len() {
            form.step(FormKey::Design, true);
        }
        assert_eq!(form.design, start);
        form.step(FormKey::Design, false);
        assert_eq!(Some(&form.design), offer.designs.last());
        form.step(FormKey::Method, true);
        assert_eq!(form.method(), Method::Exhaustive);
        for key in [
            FormKey::Cancel,
            FormKey::Heartbeat,
            FormKey::Restarted,
            FormKey::Targets,
        ] {
            let before = form.row(key, Lang::En).allowed;
            form.step(key, false);
            assert_ne!(form.row(key, Lang::En).allowed, before, "{key:?}");
        }
        assert!(form.world().is_ok(), "{form:?}");
    }

    #[test]
    fn the_revise_row_counts_only_for_claims_without_a_lock() {
        let mut form = ExplorerForm::new(Some(Preset::FencedRegistered));
        form.step(FormKey::Revise, true);
        assert!(form.row(FormKey::Revise, Lang::En).applies);
        assert!(form.world().expect("a world").allow_revise);
        form.claim = ClaimProcedure::SelectForUpdate;
        let row = form.row(FormKey::Revise, Lang::Zh);
        assert!(!row.applies && row.note.contains("行锁"), "{row:?}");
        assert!(!form.world().expect("a world").allow_revise);
    }

    #[test]
    fn the_claim_row_goes_round_the_procedures_and_the_crash_row_follows_it() {
        let mut form = ExplorerForm::new(Some(Preset::FencedHighestSeen));
        let mut seen = Vec::new();
        for _ in 0..ClaimProcedure::ALL.len() {
            seen.push(form.claim);
            let row = form.row(FormKey::Crash, Lang::En);
            assert_eq!(row.applies, form.claim.transactional(), "{:?}", form.claim);
            form.crash = true;
            let world = form.world().expect("a world");
            assert_eq!(world.design.claim, form.claim);
            assert!(world.crashes);
            assert_eq!(
                world_words(&world, Lang::En).contains("claims: "),
                form.claim != ClaimProcedure::Atomic
            );
            form.step(FormKey::Claim, true);
        }
        assert_eq!(form.claim, ClaimProcedure::Atomic, "round and back");
        assert_eq!(seen, ClaimProcedure::ALL.to_vec());
        form.step(FormKey::Claim, false);
        assert_eq!(Some(&form.claim), ClaimProcedure::ALL.last());
        // Held across the work, the crash switch counts, and its note says
        // what a crash does.
        form.claim = ClaimProcedure::HeldAcrossWork;
        let row = form.row(FormKey::Crash, Lang::Zh);
        assert!(row.applies && row.note.contains("回滚"), "{row:?}");
    }

    #[test]
    fn digits_make_a_seed_within_the_offer() {
        let mut form = ExplorerForm::new(None);
        assert!(form.takes_digits(FormKey::Seed));
        assert!(!form.takes_digits(FormKey::Design));
        form.type_digit(4, true);
        form.type_digit(2, false);
        assert_eq!(form.seed, 42);
        form.type_digit(7, true);
        assert_eq!(form.seed, 7);
        form.seed = EXPLORER_OFFER.seed.max;
        form.type_digit(9, false);
        assert_eq!(form.seed, EXPLORER_OFFER.seed.max, "past the range: kept");
        form.erase_digit();
        assert_eq!(form.seed, EXPLORER_OFFER.seed.max / 10);
        form.step(FormKey::Method, true);
        assert!(
            !form.takes_digits(FormKey::Seed),
            "exhaustive needs no seed"
        );
    }

    #[test]
    fn rows_say_labels_values_and_bounds_in_both_languages() {
        let mut form = ExplorerForm::new(Some(Preset::SendingGateway));
        for lang in [Lang::En, Lang::Zh] {
            let rows = form.rows(lang);
            assert_eq!(rows.iter().map(|r| r.key).collect::<Vec<_>>(), FormKey::ALL);
            for row in &rows {
                assert!(!row.label.is_empty() && !row.note.is_empty(), "{row:?}");
                assert_eq!(has_cjk(&row.label), lang == Lang::Zh, "{row:?}");
            }
        }
        let en = form.rows(Lang::En);
        let zh = form.rows(Lang::Zh);
        assert_eq!(
            en[0].value, zh[0].value,
            "a preset's name is not translated"
        );
        assert!(en[0].value.contains("sending-gateway"));
        assert_ne!(en[1].value, zh[1].value, "the method is said in words");
        let in_flight = form.row(FormKey::InFlight, Lang::En);
        assert_eq!(
            in_flight.allowed,
            Allowed::Range {
                value: 0,
                min: EXPLORER_OFFER.max_in_flight.min,
                max: EXPLORER_OFFER.max_in_flight.max
            }
        );
        // The delay counts only once requests travel; the seed only for a
        // random search.
        assert!(!form.row(FormKey::Delay, Lang::En).applies);
        assert_eq!(form.row(FormKey::Delay, Lang::En).value, "—");
        form.step(FormKey::InFlight, true);
        assert!(form.row(FormKey::Delay, Lang::En).applies);
        assert_eq!(
            form.row(FormKey::Delay, Lang::En).value,
            format!("◂ {} ▸", form.max_delay)
        );
        assert_eq!(
            form.row(FormKey::Seed, Lang::En).value,
            format!("◂ {} ▸", form.seed)
        );
        form.step(FormKey::Method, true);
        assert_eq!(form.row(FormKey::Seed, Lang::En).value, "—");
        // The targets' note names the world's targets; without them, none.
        let world = form.world().unwrap();
        let note = form.row(FormKey::Targets, Lang::En).note;
        assert!(note.contains(&world.target_id(0)), "{note}");
        form.step(FormKey::Targets, true);
        assert_eq!(
            form.row(FormKey::Targets, Lang::En).note,
            "none: the job table only"
        );
        let [world_line, bounds_line] = form.preview(Lang::Zh).unwrap();
        assert!(world_line.starts_with("世界："), "{world_line}");
        assert!(bounds_line.contains("在途 ≤ 1"), "{bounds_line}");
    }

    #[test]
    fn the_pages_fields_are_the_offer() {
        let offer = EXPLORER_OFFER;
        let fields = form_fields(Lang::Zh);
        let number = |key: &str| {
            fields
                .iter()
                .find(|f| f.key == key)
                .map(|f| f.input.clone())
                .unwrap()
        };
        assert_eq!(
            number("max_delay"),
            FieldInput::Number {
                default: offer.max_delay.default,
                min: offer.max_delay.min,
                max: offer.max_delay.max
            }
        );
        assert!(fields.iter().all(|f| has_cjk(&f.label)), "{fields:?}");
        // Every key is one the options reader takes.
        for field in &fields {
            let value = match &field.input {
                FieldInput::Number { default, .. } => serde_json::json!(default),
                FieldInput::Switch => serde_json::json!(true),
                FieldInput::Menu { default, .. } => serde_json::json!(default),
                FieldInput::Targets { options, .. } => {
                    serde_json::json!([options[0].value, options[1].value])
                }
            };
            let options = serde_json::json!({ field.key: value });
            let settings = ExplorerSettings::from_value(&options).unwrap();
            assert_ne!(settings, ExplorerSettings::default(), "{}", field.key);
            assert!(settings.build().is_ok(), "{}", field.key);
        }
    }

    #[test]
    fn progress_says_the_phase_and_fills_its_bar_by_the_method() {
        let progress = Progress {
            phase: Phase::Searching,
            cases: 12,
            states: 3456,
            transitions: 99,
            shrink_steps: 0,
            depth: 5,
        };
        let random = Method::Random {
            seed: 1,
            cases: 256,
        };
        let view = ProgressView::new(&progress, random, 20, 1234, Lang::En);
        assert_eq!((view.done, view.total), (12, 256));
        assert_eq!(view.counts, "12 of 256 cases · 99 transitions");
        assert_eq!(view.elapsed, "elapsed 1.2 s");
        let view = ProgressView::new(&progress, Method::Exhaustive, 20, 0, Lang::Zh);
        assert_eq!((view.done, view.total), (5, 20));
        assert!(view.counts.contains("3456 个状态"), "{}", view.counts);
        let shrinking = Progress {
            phase: Phase::Shrinking,
            shrink_steps: 7,
            ..progress
        };
        let view = ProgressView::new(&shrinking, random, 20, 0, Lang::En);
        assert_eq!((view.done, view.total), (1, 1));
        assert!(view.title.starts_with("Shrinking"));
        assert!(view.counts.starts_with("7 shrink steps"));
    }

    #[test]
    fn a_found_counterexample_in_words() {
        let mut form = ExplorerForm::new(Some(Preset::TtlLockOnly));
        form.step(FormKey::Method, true);
        let report = explored(&form);
        let found = report
            .counterexample
            .as_ref()
            .expect("ttl-lock-only breaks");
        let en = ReportView::new(&report, 2500, Lang::En);
        assert_eq!(en.title, "‼ UNSAFE");
        assert_eq!(en.tone, Tone::Bad);
        assert_eq!(en.design, "ttl-lock-only");
        assert!(
            en.summary.contains(&format!(
                "a counterexample of {} moves; step {} violates",
                found.moves.len(),
                found.step
            )),
            "{}",
            en.summary
        );
        let shown = en.counterexample.as_ref().unwrap();
        assert_eq!(
            shown.schedule,
            schedule_labels(&report.world, &found.moves).join(" ")
        );
        assert_eq!(shown.explanation, found.explanation.get(Lang::En));
        assert_eq!(shown.step, found.step);
        assert!(en.shrinking.is_none(), "breadth first needs no shrinking");
        assert_eq!(
            en.stats,
            format!(
                "states {} · transitions {} · depth {} · 2.5 s",
                report.stats.states, report.stats.transitions, report.stats.depth
            )
        );
        assert!(en.bounds.contains("exhaustive breadth-first search"));
        let zh = ReportView::new(&report, 2500, Lang::Zh);
        assert_eq!(zh.title, "‼ 不安全");
        assert!(has_cjk(&zh.summary) && has_cjk(&zh.world) && has_cjk(&zh.stats));
        assert_eq!(
            zh.counterexample.unwrap().explanation,
            found.explanation.get(Lang::Zh)
        );
    }

    #[test]
    fn a_random_failure_is_shrunk_and_a_long_history_elided() {
        let form = ExplorerForm::new(Some(Preset::TtlLockOnly));
        let mut report = explored(&form);
        assert!(!report.shrink_history.is_empty(), "a random search shrinks");
        let view = ReportView::new(&report, 0, Lang::En).shrinking.unwrap();
        let lengths: Vec<String> = report
            .shrink_history
            .iter()
            .map(|m| m.len().to_string())
            .collect();
        assert_eq!(
            view.head,
            format!("Shrinking: {} moves", lengths.join(" → "))
        );
        // A history longer than the lines shown keeps its ends.
        let first = report.shrink_history[0].clone();
        let last = report.shrink_history.last().cloned().unwrap();
        report.shrink_history = std::iter::repeat_n(first.clone(), SHRINK_LINES)
            .chain(std::iter::repeat_n(last.clone(), SHRINK_LINES))
            .collect();
        let lines = ReportView::new(&report, 0, Lang::En)
            .shrinking
            .unwrap()
            .lines;
        assert_eq!(lines.len(), SHRINK_LINES + 1);
        assert_eq!(lines[SHRINK_LINES / 2], ShrinkLine::Elided);
        assert_eq!(
            lines[0],
            ShrinkLine::Schedule {
                moves: first.len(),
                schedule: schedule(&report, &first)
            }
        );
        assert_eq!(
            lines.last(),
            Some(&ShrinkLine::Schedule {
                moves: last.len(),
                schedule: schedule(&report, &last)
            })
        );
    }

    #[test]
    fn a_design_that_holds_says_so_by_its_method() {
        let mut form = ExplorerForm::new(Some(Preset::Full));
        let random = ReportView::new(&explored(&form), 0, Lang::En);
        assert_eq!(random.title, "✓ no violation found");
        assert_eq!(random.tone, Tone::Good);
        assert!(random.summary.contains("evidence, not proof"));
        assert!(random.counterexample.is_none());
        form.step(FormKey::Method, true);
        let report = explored(&form);
        let exhaustive = ReportView::new(&report, 0, Lang::Zh);
        assert_eq!(exhaustive.title, "✓ 在界限内安全");
        assert_eq!(
            exhaustive.summary,
            format!("✓ {}", safe_sentence(&report, Lang::Zh))
        );
        assert!(exhaustive.stats.contains(&report.stats.states.to_string()));
    }
}
