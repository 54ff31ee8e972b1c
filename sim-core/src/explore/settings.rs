//! The one way a front end's explorer settings become a search: the
//! command line's flags, the terminal's explorer screen and the page's
//! JSON options all fill in an [`ExplorerSettings`], and
//! [`ExplorerSettings::build`] checks every value against
//! [`EXPLORER_OFFER`] and returns the [`World`], [`Method`] and [`Limits`]
//! — or one [`SettingsError`], said in either language.
//!
//! Reading a design file is I/O, so the command line reads it and hands the
//! design over as [`DesignChoice::Given`].

use serde_json::Value;

use crate::Lang;
use crate::design::{ClaimProcedure, Design, Preset, Protect};
use crate::explore::offer::{EXPLORER_OFFER, NumberSetting};
use crate::explore::world::{Bounds, World, WorldError, WorldOptions};
use crate::explore::{Limits, Method};
use crate::scenario::DesignSource;

/// The design explored when the settings name none: `fencelab explore`'s
/// default and the page's JSON options' (docs/explorers.md). The forms
/// start on [`ExplorerOffer::default_design`](super::ExplorerOffer::default_design)
/// instead, the weakest design, so that a first search finds something.
pub const DESIGN_WHEN_UNSET: Preset = Preset::Full;

/// Which design to explore.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DesignChoice {
    Preset(Preset),
    /// A preset's name as typed (the command line, the page's options).
    Named(String),
    /// A design read from a file.
    Given {
        design: Design,
        source: DesignSource,
    },
}

/// The explorer's settings as a front end collects them. `None` is the
/// offered default; a number is checked against the offered range.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExplorerSettings {
    /// `None`: [`DESIGN_WHEN_UNSET`].
    pub design: Option<DesignChoice>,
    pub workers: Option<u64>,
    /// Each remote target's protection by name (`design`: the design's
    /// own); `Some` of an empty list: the job table alone; `None`: two
    /// targets with the design's protection.
    pub targets: Option<Vec<String>>,
    pub ttl: Option<u64>,
    pub jobs: Option<u64>,
    pub seed: Option<u64>,
    pub cases: Option<u64>,
    pub exhaustive: bool,
    pub max_time: Option<u64>,
    pub max_claims: Option<u64>,
    pub max_steps: Option<u64>,
    pub max_in_flight: Option<u64>,
    pub max_delay: Option<u64>,
    pub max_states: Option<u64>,
    pub time_limit_s: Option<u64>,
    pub cancel: bool,
    /// The user may revise a job's input once (C15).
    pub revise: bool,
    pub heartbeat: bool,
    pub restarted: bool,
    /// How the workers claim, by name: `None` is the design's own `claim`.
    pub claim: Option<String>,
    /// The scheduler may crash a worker holding a row lock.
    pub crash: bool,
}

/// A search, ready to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exploration {
    pub world: World,
    pub method: Method,
    pub limits: Limits,
}

/// Why explorer settings cannot become a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsError {
    /// The page's options are not JSON; the parser's detail.
    NotJson(String),
    /// The page's options are JSON, but not an object.
    NotAnObject,
    UnknownDesign {
        name: String,
        suggestion: Option<&'static str>,
    },
    /// A number outside the offered range (or not a whole number).
    OutOfRange {
        key: &'static str,
        min: u64,
        max: u64,
    },
    /// A switch that is neither `true` nor `false`.
    NotAFlag {
        key: &'static str,
    },
    TargetsNotList,
    /// An empty name among the targets (`--targets ,,`): a target whose
    /// protection nobody named.
    EmptyTarget,
    UnknownProtection {
        name: String,
        suggestion: Option<&'static str>,
    },
    UnknownClaim {
        name: String,
        suggestion: Option<&'static str>,
    },
    World(WorldError),
}

impl SettingsError {
    /// The problem in words, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        use SettingsError as E;
        match (self, lang) {
            (E::NotJson(why), Lang::En) => format!("options are not JSON: {why}"),
            (E::NotJson(why), Lang::Zh) => format!("选项不是 JSON：{why}"),
            (E::NotAnObject, Lang::En) => "the options must be a JSON object".to_owned(),
            (E::NotAnObject, Lang::Zh) => "选项必须是一个 JSON 对象".to_owned(),
            (E::UnknownDesign { name, suggestion }, _) => {
                let hint = hint(*suggestion, &Preset::ALL.map(Preset::name), lang);
                match lang {
                    Lang::En => format!("unknown design preset `{name}`; {hint}"),
                    Lang::Zh => format!("未知的预设设计 `{name}`；{hint}"),
                }
            }
            (E::OutOfRange { key, min, max }, Lang::En) => {
                format!("`{key}` must be an integer between {min} and {max}")
            }
            (E::OutOfRange { key, min, max }, Lang::Zh) => {
                format!("`{key}` 必须是 {min} 到 {max} 之间的整数")
            }
            (E::NotAFlag { key }, Lang::En) => format!("`{key}` must be true or false"),
            (E::NotAFlag { key }, Lang::Zh) => format!("`{key}` 必须是 true 或 false"),
            (E::TargetsNotList, Lang::En) => {
                "`targets` must be a list of protection names".to_owned()
            }
            (E::TargetsNotList, Lang::Zh) => "`targets` 必须是保护方式名称的列表".to_owned(),
            (E::EmptyTarget, _) => {
                let names = quoted(&protection_names());
                match lang {
                    Lang::En => format!(
                        "a target without a protection (an empty name in the list); name one for each target: {names}"
                    ),
                    Lang::Zh => format!(
                        "有目标没有写保护方式（列表里有空名字）；请为每个目标写一个：{names}"
                    ),
                }
            }
            (E::UnknownProtection { name, suggestion }, _) => {
                let hint = hint(*suggestion, &protection_names(), lang);
                match lang {
                    Lang::En => format!("unknown target protection `{name}`; {hint}"),
                    Lang::Zh => format!("未知的目标保护方式 `{name}`；{hint}"),
                }
            }
            (E::UnknownClaim { name, suggestion }, _) => {
                let hint = hint(
                    *suggestion,
                    &ClaimProcedure::ALL.map(ClaimProcedure::name),
                    lang,
                );
                match lang {
                    Lang::En => format!("unknown claim procedure `{name}`; {hint}"),
                    Lang::Zh => format!("未知的领取方式 `{name}`；{hint}"),
                }
            }
            (E::World(error), _) => error.message(lang),
        }
    }
}

/// In English; [`SettingsError::message`] gives either language.
impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for SettingsError {}

/// "did you mean `x`?", or the names to choose from.
fn hint(suggestion: Option<&str>, names: &[&str], lang: Lang) -> String {
    match (suggestion, lang) {
        (Some(name), Lang::En) => format!("did you mean `{name}`?"),
        (Some(name), Lang::Zh) => format!("你是想写 `{name}` 吗？"),
        (None, Lang::En) => format!("choose one of: {}", quoted(names)),
        (None, Lang::Zh) => format!("可选：{}", quoted(names)),
    }
}

/// Names as a reader types them: `` `a`, `b` ``.
fn quoted(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    quoted.join(", ")
}

/// What a target list may name: every protection, and `design`.
fn protection_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Protect::ALL.map(Protect::name).to_vec();
    names.push("design");
    names
}

/// `value` if `setting` offers it, else the error naming `key`.
fn offered(
    key: &'static str,
    value: Option<u64>,
    setting: NumberSetting,
) -> Result<u64, SettingsError> {
    match value {
        None => Ok(setting.default),
        Some(number) => setting.check(number).ok_or(SettingsError::OutOfRange {
            key,
            min: setting.min,
            max: setting.max,
        }),
    }
}

/// A checked number in the type the world keeps it in (every offered range
/// fits it).
fn narrow<T: TryFrom<u64>>(
    key: &'static str,
    value: Option<u64>,
    setting: NumberSetting,
) -> Result<T, SettingsError> {
    let number = offered(key, value, setting)?;
    T::try_from(number).map_err(|_| SettingsError::OutOfRange {
        key,
        min: setting.min,
        max: setting.max,
    })
}

impl ExplorerSettings {
    /// The page's options (JSON text): the same knobs as `fencelab
    /// explore`, under the names of [`ExplorerSettings`]' fields (`design`
    /// a preset name, `targets` a list of protection names, the switches
    /// `true` or `false`). A `null` or absent key is the default; other
    /// keys are ignored.
    pub fn from_json(text: &str) -> Result<ExplorerSettings, SettingsError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| SettingsError::NotJson(e.to_string()))?;
        ExplorerSettings::from_value(&value)
    }

    /// [`ExplorerSettings::from_json`] of a parsed value.
    pub fn from_value(options: &Value) -> Result<ExplorerSettings, SettingsError> {
        let empty = serde_json::Map::new();
        let map = match options {
            Value::Null => &empty,
            Value::Object(map) => map,
            _ => return Err(SettingsError::NotAnObject),
        };
        let field = |key: &str| map.get(key).filter(|value| !value.is_null());
        let number = |key: &'static str, setting: NumberSetting| match field(key) {
            None => Ok(None),
            Some(value) => value.as_u64().map(Some).ok_or(SettingsError::OutOfRange {
                key,
                min: setting.min,
                max: setting.max,
            }),
        };
        let flag = |key: &'static str| match field(key) {
            None => Ok(false),
            Some(value) => value.as_bool().ok_or(SettingsError::NotAFlag { key }),
        };
        let design = match field("design") {
            None => None,
            Some(Value::String(name)) => Some(DesignChoice::Named(name.clone())),
            Some(other) => {
                return Err(SettingsError::UnknownDesign {
                    name: other.to_string(),
                    suggestion: None,
                });
            }
        };
        let targets = match field("targets") {
            None => None,
            Some(Value::Array(names)) => Some(
                names
                    .iter()
                    .map(|name| name.as_str().map(str::to_owned))
                    .collect::<Option<Vec<String>>>()
                    .ok_or(SettingsError::TargetsNotList)?,
            ),
            Some(_) => return Err(SettingsError::TargetsNotList),
        };
        let claim = match field("claim") {
            None => None,
            Some(Value::String(name)) => Some(name.clone()),
            Some(other) => {
                return Err(SettingsError::UnknownClaim {
                    name: other.to_string(),
                    suggestion: None,
                });
            }
        };
        let offer = EXPLORER_OFFER;
        Ok(ExplorerSettings {
            design,
            workers: number("workers", offer.workers)?,
            targets,
            ttl: number("ttl", offer.ttl)?,
            jobs: number("jobs", offer.jobs)?,
            seed: number("seed", offer.seed)?,
            cases: number("cases", offer.cases)?,
            exhaustive: flag("exhaustive")?,
            max_time: number("max_time", offer.max_time)?,
            max_claims: number("max_claims", offer.max_claims)?,
            max_steps: number("max_steps", offer.max_steps)?,
            max_in_flight: number("max_in_flight", offer.max_in_flight)?,
            max_delay: number("max_delay", offer.max_delay)?,
            max_states: number("max_states", offer.max_states)?,
            time_limit_s: number("time_limit_s", offer.time_limit_s)?,
            cancel: flag("cancel")?,
            revise: flag("revise")?,
            heartbeat: flag("heartbeat")?,
            restarted: flag("restarted")?,
            claim,
            crash: flag("crash")?,
        })
    }

    /// The design and where it came from, with the claim procedure the
    /// settings name, if any (a design it changes is no preset's).
    fn design(&self) -> Result<(Design, DesignSource), SettingsError> {
        let (mut design, mut source) = self.named_design()?;
        if let Some(name) = &self.claim {
            let claim = ClaimProcedure::from_name(name.trim()).ok_or_else(|| {
                SettingsError::UnknownClaim {
                    name: name.clone(),
                    suggestion: crate::closest(name, ClaimProcedure::ALL.map(ClaimProcedure::name)),
                }
            })?;
            if claim != design.claim {
                design.claim = claim;
                source = DesignSource::Table;
            }
        }
        Ok((design, source))
    }

    /// The design the settings name, and where it came from.
    fn named_design(&self) -> Result<(Design, DesignSource), SettingsError> {
        let preset = match &self.design {
            None => DESIGN_WHEN_UNSET,
            Some(DesignChoice::Preset(preset)) => *preset,
            Some(DesignChoice::Named(name)) => {
                Preset::from_name(name).ok_or_else(|| SettingsError::UnknownDesign {
                    name: name.clone(),
                    suggestion: crate::closest(name, Preset::ALL.map(Preset::name)),
                })?
            }
            Some(DesignChoice::Given { design, source }) => return Ok((*design, *source)),
        };
        Ok((preset.design(), DesignSource::Preset(preset)))
    }

    /// The validated world.
    pub fn world(&self) -> Result<World, SettingsError> {
        let offer = EXPLORER_OFFER;
        let (design, source) = self.design()?;
        let mut options = WorldOptions::new(design, source);
        options.workers = narrow("workers", self.workers, offer.workers)?;
        options.ttl = narrow("ttl", self.ttl, offer.ttl)?;
        options.jobs = narrow("jobs", self.jobs, offer.jobs)?;
        // A claim that locks both rows needs their two jobs: unless the
        // settings say how many, that is how many there are.
        if self.jobs.is_none() && design.claim.locks_both() {
            options.jobs = 2;
        }
        options.seed = offered("seed", self.seed, offer.seed)?;
        options.allow_cancel = self.cancel;
        options.allow_revise = self.revise;
        options.heartbeat = self.heartbeat;
        options.restarted = self.restarted;
        options.crashes = self.crash;
        options.bounds = Bounds {
            max_time: narrow("max_time", self.max_time, offer.max_time)?,
            max_claims: narrow("max_claims", self.max_claims, offer.max_claims)?,
            max_steps: narrow("max_steps", self.max_steps, offer.max_steps)?,
            max_in_flight: narrow("max_in_flight", self.max_in_flight, offer.max_in_flight)?,
            max_delay: narrow("max_delay", self.max_delay, offer.max_delay)?,
        };
        if let Some(names) = &self.targets {
            options.targets = Some(
                names
                    .iter()
                    .map(|name| protection(name.trim(), design.target_protect))
                    .collect::<Result<_, _>>()?,
            );
        }
        options.world().map_err(SettingsError::World)
    }

    /// Random schedules from the seed, or every schedule.
    pub fn method(&self) -> Result<Method, SettingsError> {
        let offer = EXPLORER_OFFER;
        let seed = offered("seed", self.seed, offer.seed)?;
        let cases = narrow("cases", self.cases, offer.cases)?;
        Ok(if self.exhaustive {
            Method::Exhaustive
        } else {
            Method::Random { seed, cases }
        })
    }

    /// The caps on the search's work.
    pub fn limits(&self) -> Result<Limits, SettingsError> {
        let offer = EXPLORER_OFFER;
        Ok(Limits {
            max_states: offered("max_states", self.max_states, offer.max_states)?,
            time_limit_ms: Some(
                offered("time_limit_s", self.time_limit_s, offer.time_limit_s)?
                    .saturating_mul(1000),
            ),
        })
    }

    /// The world, method and limits together.
    pub fn build(&self) -> Result<Exploration, SettingsError> {
        Ok(Exploration {
            world: self.world()?,
            method: self.method()?,
            limits: self.limits()?,
        })
    }
}

/// A target's protection by name; `design` is the design's own.
fn protection(name: &str, design_protect: Protect) -> Result<Protect, SettingsError> {
    if name.is_empty() {
        return Err(SettingsError::EmptyTarget);
    }
    if name == "design" {
        return Ok(design_protect);
    }
    Protect::from_name(name).ok_or_else(|| SettingsError::UnknownProtection {
        name: name.to_owned(),
        suggestion: crate::closest(name, protection_names()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_settings_are_the_offered_defaults_on_the_full_design() {
        let built = ExplorerSettings::default().build().unwrap();
        let offer = EXPLORER_OFFER;
        assert_eq!(built.world.design, Preset::Full.design());
        assert_eq!(built.world.workers.len() as u64, offer.workers.default);
        assert_eq!(u64::from(built.world.ttl), offer.ttl.default);
        assert_eq!(u64::from(built.world.jobs), offer.jobs.default);
        assert_eq!(built.world.seed, offer.seed.default);
        assert_eq!(built.world.bounds, offer.bounds());
        assert_eq!(
            built.world.targets,
            vec![Preset::Full.design().target_protect; 2]
        );
        assert_eq!(
            built.method,
            Method::Random {
                seed: offer.seed.default,
                cases: offer.cases.default as u32
            }
        );
        assert_eq!(built.limits, offer.limits());
    }

    /// Sets one number of the settings.
    type Set = fn(&mut ExplorerSettings, u64);

    #[test]
    fn every_number_out_of_its_offered_range_is_refused_by_name() {
        let offer = EXPLORER_OFFER;
        let cases: [(&str, NumberSetting, Set); 14] = [
            ("workers", offer.workers, |s, v| s.workers = Some(v)),
            ("ttl", offer.ttl, |s, v| s.ttl = Some(v)),
            ("jobs", offer.jobs, |s, v| s.jobs = Some(v)),
            ("seed", offer.seed, |s, v| s.seed = Some(v)),
            ("cases", offer.cases, |s, v| s.cases = Some(v)),
            ("max_time", offer.max_time, |s, v| s.max_time = Some(v)),
            ("max_claims", offer.max_claims, |s, v| {
                s.max_claims = Some(v)
            }),
            ("max_steps", offer.max_steps, |s, v| s.max_steps = Some(v)),
            ("max_in_flight", offer.max_in_flight, |s, v| {
                s.max_in_flight = Some(v);
            }),
            ("max_delay", offer.max_delay, |s, v| s.max_delay = Some(v)),
            ("max_states", offer.max_states, |s, v| {
                s.max_states = Some(v)
            }),
            ("time_limit_s", offer.time_limit_s, |s, v| {
                s.time_limit_s = Some(v);
            }),
            // The same key through the page's JSON.
            ("workers", offer.workers, |s, v| {
                *s = ExplorerSettings::from_json(&format!(r#"{{"workers":{v}}}"#)).unwrap();
            }),
            ("max_delay", offer.max_delay, |s, v| {
                *s = ExplorerSettings::from_json(&format!(r#"{{"max_delay":{v}}}"#)).unwrap();
            }),
        ];
        for (key, setting, set) in cases {
            let mut settings = ExplorerSettings::default();
            set(&mut settings, setting.max);
            assert!(settings.build().is_ok(), "{key} at its maximum");
            set(&mut settings, setting.max + 1);
            let error = settings.build().unwrap_err();
            assert_eq!(
                error,
                SettingsError::OutOfRange {
                    key,
                    min: setting.min,
                    max: setting.max
                }
            );
        }
        let error = ExplorerSettings::from_json(r#"{"workers":9}"#)
            .and_then(|s| s.build())
            .unwrap_err();
        assert_eq!(
            error.message(Lang::En),
            "`workers` must be an integer between 2 and 4"
        );
        assert_eq!(
            error.message(Lang::Zh),
            "`workers` 必须是 2 到 4 之间的整数"
        );
    }

    /// `claim` overrides the design's claim procedure (its world is then
    /// no preset's), by name, from the command line or the page's options.
    #[test]
    fn the_claim_procedure_by_name_with_a_suggestion() {
        let world = ExplorerSettings::default().world().unwrap();
        assert_eq!(world.design.claim, ClaimProcedure::Atomic);
        let settings =
            ExplorerSettings::from_json(r#"{"design":"ttl-lock-only","claim":"skip_locked"}"#)
                .unwrap();
        let world = settings.world().unwrap();
        assert_eq!(world.design.claim, ClaimProcedure::SkipLocked);
        assert_eq!(world.design_source, DesignSource::Table);
        assert_eq!(Preset::of(&world.design), None);
        let same = ExplorerSettings {
            claim: Some("atomic".to_owned()),
            ..ExplorerSettings::default()
        };
        assert_eq!(
            same.world().unwrap(),
            ExplorerSettings::default().world().unwrap()
        );
        let error = ExplorerSettings {
            claim: Some("read_then_updte".to_owned()),
            ..ExplorerSettings::default()
        }
        .world()
        .unwrap_err();
        assert_eq!(
            error.message(Lang::En),
            "unknown claim procedure `read_then_updte`; did you mean `read_then_update`?"
        );
        assert!(error.message(Lang::Zh).contains("未知的领取方式"));
        let several_jobs = ExplorerSettings {
            claim: Some("held_across_work".to_owned()),
            jobs: Some(2),
            ..ExplorerSettings::default()
        };
        assert_eq!(
            several_jobs.world().unwrap_err(),
            SettingsError::World(WorldError::ClaimJobs)
        );
    }

    #[test]
    fn designs_and_targets_by_name_with_a_suggestion() {
        let named = |name: &str| ExplorerSettings {
            design: Some(DesignChoice::Named(name.to_owned())),
            ..ExplorerSettings::default()
        };
        let world = named("sending-gateway").world().unwrap();
        assert_eq!(world.design, Preset::SendingGateway.design());
        let error = named("fencd-registered").world().unwrap_err();
        assert_eq!(
            error.message(Lang::En),
            "unknown design preset `fencd-registered`; did you mean `fenced-registered`?"
        );
        assert!(
            error
                .message(Lang::Zh)
                .contains("你是想写 `fenced-registered` 吗")
        );
        let listed = |names: &[&str]| ExplorerSettings {
            design: Some(DesignChoice::Preset(Preset::FencedRegistered)),
            targets: Some(names.iter().map(|n| (*n).to_owned()).collect()),
            ..ExplorerSettings::default()
        };
        let world = listed(&["none", "design"]).world().unwrap();
        assert_eq!(
            world.targets,
            vec![
                Protect::None,
                Preset::FencedRegistered.design().target_protect
            ]
        );
        assert!(listed(&[]).world().unwrap().targets.is_empty());
        let error = listed(&["gatewy"]).world().unwrap_err();
        assert_eq!(
            error.message(Lang::En),
            "unknown target protection `gatewy`; did you mean `gateway`?"
        );
        assert_eq!(
            listed(&["none", ""]).world(),
            Err(SettingsError::EmptyTarget)
        );
        assert_eq!(listed(&[" "]).world(), Err(SettingsError::EmptyTarget));
    }

    #[test]
    fn the_pages_json_is_read_strictly() {
        let read = ExplorerSettings::from_json;
        assert!(matches!(read("{"), Err(SettingsError::NotJson(_))));
        assert_eq!(read("[]"), Err(SettingsError::NotAnObject));
        assert_eq!(read("null"), Ok(ExplorerSettings::default()));
        assert_eq!(
            read(r#"{"cancel":"yes"}"#),
            Err(SettingsError::NotAFlag { key: "cancel" })
        );
        assert_eq!(
            read(r#"{"targets":"none"}"#),
            Err(SettingsError::TargetsNotList)
        );
        assert_eq!(
            read(r#"{"targets":[1]}"#),
            Err(SettingsError::TargetsNotList)
        );
        assert!(matches!(
            read(r#"{"ttl":1.5}"#),
            Err(SettingsError::OutOfRange { key: "ttl", .. })
        ));
        let settings = read(
            r#"{"design":"ttl-lock-only","exhaustive":true,"cancel":true,"targets":[],"seed":null,"max_states":500}"#,
        )
        .unwrap();
        let built = settings.build().unwrap();
        assert_eq!(built.method, Method::Exhaustive);
        assert!(built.world.allow_cancel && built.world.targets.is_empty());
        assert_eq!(built.world.seed, EXPLORER_OFFER.seed.default);
        assert_eq!(built.limits.max_states, 500);
    }
}
