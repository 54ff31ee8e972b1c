//! Lesson files (`lessons/README.md`) to [`Lesson`] values, every mistake a
//! diagnostic at its line and column. The format has no field for the
//! answer of a mark, predict, design or break exercise.

use crate::Lang;
use crate::course::error::CourseError;
use crate::course::{CONCEPTS, complete};
use crate::design::{Design, Preset};
use crate::explore::{Bounds, WorldOptions};
use crate::parse::{Diagnostic, Reader, Value, decode, document, line_col, name, words};
use crate::resource::{MinimalDesign, ResourceKind};
use crate::scenario::{Action, DesignSource, Scenario, Text};
use crate::sqllab::Slot;
use crate::trace::ViolationKind;
use strum::VariantArray as _;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    pub id: String,
    pub order: u32,
    pub title: Text,
    pub summary: Text,
    pub concepts: Vec<String>,
    pub sections: Vec<Section>,
    /// Named scenarios, in file order.
    pub scenarios: Vec<(String, Scenario)>,
    pub exercises: Vec<Exercise>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub title: Text,
    pub body: Text,
    pub concepts: Vec<String>,
    /// Index into [`Lesson::scenarios`].
    pub scenario: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exercise {
    pub id: String,
    pub kind: ExerciseKind,
    pub concepts: Vec<String>,
    /// What a learner calls it (the `id` is for files and links). Optional
    /// for the parser so a draft lesson still loads; `fencelab lint`
    /// requires it.
    pub title: Option<Text>,
    /// The section it practises, counted from 1 as the file says it
    /// (`section = 2`); `None` places it by its concepts
    /// ([`Lesson::section_of`]).
    pub section: Option<u32>,
    pub prompt: Text,
    pub hints: Vec<Text>,
    pub takeaway: Text,
    /// Where the exercise starts in its file, for lint messages.
    pub line: u32,
    pub col: u32,
}

/// A knob of a design exercise the learner may turn.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum Knob {
    CommitChecks,
    RenewChecks,
    Token,
    LeaseClock,
    TargetProtect,
}

crate::names::named!(Knob);

/// A design exercise's minimal design, computed on first use (several
/// exhaustive searches) and then kept: it depends only on the exercise.
/// It takes no part in comparing exercises, which compare by their text.
#[derive(Default, Clone)]
pub struct MinimalMemo(std::sync::OnceLock<Result<Option<MinimalDesign>, CourseError>>);

impl MinimalMemo {
    pub(crate) fn get_or_init(
        &self,
        compute: impl FnOnce() -> Result<Option<MinimalDesign>, CourseError>,
    ) -> &Result<Option<MinimalDesign>, CourseError> {
        self.0.get_or_init(compute)
    }
}

impl PartialEq for MinimalMemo {
    fn eq(&self, _: &MinimalMemo) -> bool {
        true
    }
}

impl Eq for MinimalMemo {}

impl std::fmt::Debug for MinimalMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MinimalMemo")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizOption {
    pub text: Text,
    pub correct: bool,
    pub why: Text,
}

#[derive(Debug, Clone, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum ExerciseKind {
    /// Mark every candidate step that must be rejected.
    Mark {
        scenario: usize,
        candidates: Vec<Action>,
    },
    /// Predict the outcome of the listed steps (all when `None`).
    Predict {
        scenario: usize,
        steps: Option<Vec<u32>>,
    },
    /// Choose the open knobs; the explorers attack the design in `world`.
    Design {
        start: Design,
        start_source: DesignSource,
        open: Vec<Knob>,
        /// The world; its `targets` hold the start protections.
        world: WorldOptions,
        /// The real resource each target stands for (`Generic` when the
        /// world only gives a count), parallel to `world.targets`.
        resources: Vec<ResourceKind>,
        /// The design has a gateway our own service can sit behind.
        gateway: bool,
        /// Its minimal design, once the grader has computed it.
        minimal: MinimalMemo,
    },
    /// Build a schedule in the scenario's world that makes its design violate.
    Break {
        scenario: usize,
        violation: Option<ViolationKind>,
    },
    Quiz {
        multiple: bool,
        options: Vec<QuizOption>,
    },
    /// Write the statements of `slots` (claim, renew, finish, cancel); they
    /// run on a real SQLite against the scenario and the lab's battery of
    /// edge cases (`crate::sqllab`).
    Sql { scenario: usize, slots: Vec<Slot> },
}

impl Exercise {
    /// What the learner reads as the exercise's name: its `title`, or for a
    /// draft without one (lint reports it) the kind in words — never the id.
    pub fn title(&self, lang: Lang) -> &str {
        self.title
            .as_ref()
            .map_or_else(|| self.kind.label(lang), |title| title.get(lang))
    }
}

impl ExerciseKind {
    pub fn name(&self) -> &'static str {
        self.into()
    }

    /// The kind in the learner's words (the page's strings say the same).
    pub fn label(&self, lang: Lang) -> &'static str {
        match self {
            ExerciseKind::Mark { .. } => lang.pick("mark", "标记"),
            ExerciseKind::Predict { .. } => lang.pick("predict", "预测"),
            ExerciseKind::Design { .. } => lang.pick("design", "设计"),
            ExerciseKind::Break { .. } => lang.pick("break", "攻破"),
            ExerciseKind::Quiz { .. } => lang.pick("quiz", "选择题"),
            ExerciseKind::Sql { .. } => "SQL",
        }
    }

    /// The scenario the exercise is played on, if it has one.
    pub fn scenario(&self) -> Option<usize> {
        match self {
            ExerciseKind::Mark { scenario, .. }
            | ExerciseKind::Predict { scenario, .. }
            | ExerciseKind::Break { scenario, .. } => Some(*scenario),
            // A SQL exercise runs its scenario on SQLite; it shows no timeline.
            _ => None,
        }
    }
}

impl Lesson {
    pub fn scenario(&self, index: usize) -> Option<&Scenario> {
        self.scenarios.get(index).map(|(_, scenario)| scenario)
    }

    pub fn exercise(&self, id: &str) -> Option<&Exercise> {
        self.exercises.iter().find(|exercise| exercise.id == id)
    }
}

const KINDS: [&str; 6] = ["mark", "predict", "design", "break", "quiz", "sql"];

/// How many targets a design exercise's world has unless its `[world]`
/// says otherwise.
const DESIGN_TARGETS: usize = 2;

/// An exercise's keys. The first six belong to every kind; from
/// `scenario` to `options`, each belongs to some kinds only; `title` and
/// `section` (after them, so the indices before stay) belong to every kind;
/// `statements`, last, to `sql` only.
const EXERCISE_KEYS: [&str; 18] = [
    "id",
    "kind",
    "concepts",
    "prompt",
    "hints",
    "takeaway",
    "scenario",
    "candidates",
    "steps",
    "start",
    "open",
    "world",
    "violation",
    "multiple",
    "options",
    "title",
    "section",
    "statements",
];

/// A `sql` exercise's slot names, in [`Slot::VARIANTS`] order.
const SLOT_NAMES: [&str; 4] = ["claim", "renew", "finish", "cancel"];

/// Where `statements` (a `sql` exercise's slots) is in [`EXERCISE_KEYS`].
const STATEMENTS_KEY: usize = 17;

/// Where the keys of some kinds only end in [`EXERCISE_KEYS`].
const KIND_KEYS_END: usize = 15;

/// Parses one lesson file. Never panics, whatever the bytes.
pub fn parse_lesson(bytes: &[u8]) -> Result<Lesson, Vec<Diagnostic>> {
    let text = decode(bytes, &words("the lesson file is empty", "课程文件是空的"))?;
    let document = document(text)?;
    let mut reader = Reader {
        text,
        errors: Vec::new(),
    };
    let lesson = reader.lesson(document.get_ref(), document.span());
    match (lesson, reader.errors.is_empty()) {
        (Some(lesson), true) => Ok(lesson),
        _ => Err(reader.into_diagnostics()),
    }
}

impl Reader<'_> {
    /// A text that must exist in both languages.
    fn bilingual(&mut self, value: &Value<'_>, what: &Text) -> Option<Text> {
        let text = self.text(value, what)?;
        if !complete(&text) {
            self.error(
                value.span(),
                words(
                    format!("{} needs non-empty `en` and `zh`", what.en),
                    format!("{}需要非空的 `en` 和 `zh`", what.zh),
                ),
            );
        }
        Some(text)
    }

    fn concepts(&mut self, value: &Value<'_>, what: &Text) -> Vec<String> {
        let Some(entries) = self.array(value, what) else {
            return Vec::new();
        };
        let mut concepts: Vec<String> = Vec::new();
        for entry in entries {
            let Some(id) = self.string(entry, &words("a concept id", "概念 id")) else {
                continue;
            };
            if !CONCEPTS.iter().any(|(known, _, _)| *known == id) {
                self.error(
                    entry.span(),
                    words(
                        format!("unknown concept `{id}`; concepts are C01 to C27"),
                        format!("未知的概念 `{id}`；概念编号为 C01 到 C27"),
                    ),
                );
            } else if concepts.contains(&id) {
                self.error(
                    entry.span(),
                    words(
                        format!("concept `{id}` is listed twice"),
                        format!("概念 `{id}` 被列了两次"),
                    ),
                );
            } else {
                concepts.push(id);
            }
        }
        concepts
    }

    /// Reads a lesson's top-level keys in order (id, order, titles,
    /// concepts, sections, scenarios, exercises), each mistake said in both
    /// languages at its position.
    fn lesson(
        &mut self,
        root: &toml::de::DeTable<'_>,
        span: std::ops::Range<usize>,
    ) -> Option<Lesson> {
        const KEYS: [&str; 8] = [
            "id",
            "order",
            "title",
            "summary",
            "concepts",
            "sections",
            "scenarios",
            "exercises",
        ];
        let fields = self.fields(root, span, &KEYS, &words("the lesson", "课程"));
        let id = self
            .required(&fields, 0, "id", &words("the lesson", "课程"))
            .and_then(|v| self.ident(v, &name("`id`")));
        let order = self
            .required(&fields, 1, "order", &words("the lesson", "课程"))
            .and_then(|v| self.integer(v, &name("`order`"), 0, 10_000));
        let title = self
            .required(&fields, 2, "title", &words("the lesson", "课程"))
            .and_then(|v| self.bilingual(v, &name("`title`")));
        let summary = self
            .required(&fields, 3, "summary", &words("the lesson", "课程"))
            .and_then(|v| self.bilingual(v, &name("`summary`")));
        let concepts = self
            .required(&fields, 4, "concepts", &words("the lesson", "课程"))
            .map(|v| self.concepts(v, &name("`concepts`")))
            .unwrap_or_default();
        let scenarios = fields.get(6).map(|v| self.scenarios(v)).unwrap_or_default();
        let names: Vec<String> = scenarios.iter().map(|(name, _)| name.clone()).collect();
        let sections = match self.required(&fields, 5, "sections", &words("the lesson", "课程")) {
            Some(value) => self.sections(value, &names),
            None => Vec::new(),
        };
        let exercises = match self.required(&fields, 7, "exercises", &words("the lesson", "课程"))
        {
            Some(value) => self.exercises(value, &scenarios),
            None => Vec::new(),
        };
        if let Some(value) = fields.get(4) {
            self.concepts_used(value, &concepts, &sections, &exercises);
        }
        Some(Lesson {
            id: id?,
            order: u32::try_from(order?).unwrap_or(0),
            title: title?,
            summary: summary?,
            concepts,
            sections,
            scenarios,
            exercises,
        })
    }

    /// The lesson's concepts (its `concepts` list, `value`) are exactly
    /// those its sections and exercises name.
    fn concepts_used(
        &mut self,
        value: &Value<'_>,
        concepts: &[String],
        sections: &[Section],
        exercises: &[Exercise],
    ) {
        let used: Vec<&String> = sections
            .iter()
            .flat_map(|s| &s.concepts)
            .chain(exercises.iter().flat_map(|e| &e.concepts))
            .collect();
        for concept in &used {
            if !concepts.contains(concept) {
                self.error(
                    value.span(),
                    words(
                        format!("`concepts` lacks `{concept}`, which a section or exercise names"),
                        format!("`concepts` 缺少 `{concept}`，而某个小节或练习用到了它"),
                    ),
                );
                break;
            }
        }
        for concept in concepts {
            if !used.contains(&concept) {
                self.error(
                    value.span(),
                    words(
                        format!("`{concept}` is listed, but no section or exercise covers it"),
                        format!("列出了 `{concept}`，但没有小节或练习讲到它"),
                    ),
                );
            }
        }
    }

    fn scenarios(&mut self, value: &Value<'_>) -> Vec<(String, Scenario)> {
        let Some(table) = self.table(value, &name("`scenarios`")) else {
            return Vec::new();
        };
        let mut named: Vec<(usize, String, Scenario)> = Vec::new();
        for (key, entry) in table.iter() {
            let name = key.get_ref().to_string();
            let Some(inner) = self.table(
                entry,
                &words(format!("scenario `{name}`"), format!("场景 `{name}`")),
            ) else {
                continue;
            };
            let before = self.errors.len();
            let Some(scenario) = self.scenario(inner, entry.span()) else {
                continue;
            };
            if self.errors.len() == before && scenario.id != name {
                self.error(
                    key.span(),
                    words(
                        format!(
                            "scenario `{name}` has id `{}`; they must be equal",
                            scenario.id
                        ),
                        format!("场景 `{name}` 的 id 是 `{}`；两者必须相同", scenario.id),
                    ),
                );
            }
            named.push((key.span().start, name, scenario));
        }
        // The document tree orders keys by name; keep the file's order.
        named.sort_by_key(|(start, _, _)| *start);
        named
            .into_iter()
            .map(|(_, name, scenario)| (name, scenario))
            .collect()
    }

    fn scenario_ref(&mut self, value: &Value<'_>, names: &[String]) -> Option<usize> {
        let name = self.string(value, &name("`scenario`"))?;
        let found = names.iter().position(|known| *known == name);
        if found.is_none() {
            let hint = match crate::parse::closest(&name, names.iter().map(String::as_str)) {
                Some(near) => words(
                    format!("; did you mean `{near}`?"),
                    format!("；你是不是想写 `{near}`？"),
                ),
                None if names.is_empty() => words(
                    "; the lesson has no [scenarios.…] tables",
                    "；课程里没有 [scenarios.…] 表",
                ),
                None => words(
                    format!("; the lesson's scenarios are: {}", names.join(", ")),
                    format!("；课程里的场景有：{}", names.join("、")),
                ),
            };
            self.error(
                value.span(),
                words(
                    format!("unknown scenario `{name}`{}", hint.en),
                    format!("未知的场景 `{name}`{}", hint.zh),
                ),
            );
        }
        found
    }

    fn sections(&mut self, value: &Value<'_>, names: &[String]) -> Vec<Section> {
        let Some(entries) = self.array(value, &name("`sections`")) else {
            return Vec::new();
        };
        if entries.is_empty() {
            self.error(
                value.span(),
                words(
                    "a lesson needs at least one section",
                    "课程至少需要一个小节",
                ),
            );
        }
        let mut sections = Vec::new();
        for entry in entries {
            let Some(table) = self.table(entry, &words("a section", "小节")) else {
                continue;
            };
            let fields = self.fields(
                table,
                entry.span(),
                &["title", "concepts", "body", "scenario"],
                &words("a section", "小节"),
            );
            let title = self
                .required(&fields, 0, "title", &words("this section", "这一节"))
                .and_then(|v| self.bilingual(v, &words("the section's `title`", "小节的 `title`")));
            let concepts = self
                .required(&fields, 1, "concepts", &words("this section", "这一节"))
                .map(|v| self.concepts(v, &words("the section's `concepts`", "小节的 `concepts`")))
                .unwrap_or_default();
            let body = self
                .required(&fields, 2, "body", &words("this section", "这一节"))
                .and_then(|v| self.bilingual(v, &words("the section's `body`", "小节的 `body`")));
            let scenario = fields.get(3).and_then(|v| self.scenario_ref(v, names));
            if let (Some(title), Some(body)) = (title, body) {
                sections.push(Section {
                    title,
                    body,
                    concepts,
                    scenario,
                });
            }
        }
        sections
    }

    fn exercises(&mut self, value: &Value<'_>, scenarios: &[(String, Scenario)]) -> Vec<Exercise> {
        let Some(entries) = self.array(value, &name("`exercises`")) else {
            return Vec::new();
        };
        if entries.is_empty() {
            self.error(
                value.span(),
                words(
                    "a lesson needs at least one exercise",
                    "课程至少需要一道练习",
                ),
            );
        }
        let mut exercises: Vec<Exercise> = Vec::new();
        for entry in entries {
            let Some(exercise) = self.exercise(entry, scenarios) else {
                continue;
            };
            if exercises.iter().any(|e| e.id == exercise.id) {
                self.error(
                    entry.span(),
                    words(
                        format!("exercise `{}` is defined twice", exercise.id),
                        format!("练习 `{}` 被定义了两次", exercise.id),
                    ),
                );
            }
            exercises.push(exercise);
        }
        exercises
    }

    fn exercise(
        &mut self,
        entry: &Value<'_>,
        scenarios: &[(String, Scenario)],
    ) -> Option<Exercise> {
        let table = self.table(entry, &words("an exercise", "练习"))?;
        let fields = self.fields(
            table,
            entry.span(),
            &EXERCISE_KEYS,
            &words("an exercise", "练习"),
        );
        let id = self
            .required(&fields, 0, "id", &words("this exercise", "这道练习"))
            .and_then(|v| self.ident(v, &words("the exercise's `id`", "练习的 `id`")));
        let kind_name = self
            .required(&fields, 1, "kind", &words("this exercise", "这道练习"))
            .and_then(|v| self.choice(v, &words("exercise kind", "练习类型"), &KINDS, |k| k));
        let concepts = self
            .required(&fields, 2, "concepts", &words("this exercise", "这道练习"))
            .map(|v| self.concepts(v, &words("the exercise's `concepts`", "练习的 `concepts`")))
            .unwrap_or_default();
        let prompt = self
            .required(&fields, 3, "prompt", &words("this exercise", "这道练习"))
            .and_then(|v| self.bilingual(v, &words("the exercise's `prompt`", "练习的 `prompt`")));
        let hints = self
            .required(&fields, 4, "hints", &words("this exercise", "这道练习"))
            .map(|v| self.hints(v))
            .unwrap_or_default();
        let takeaway = self
            .required(&fields, 5, "takeaway", &words("this exercise", "这道练习"))
            .and_then(|v| {
                self.bilingual(v, &words("the exercise's `takeaway`", "练习的 `takeaway`"))
            });
        let title = fields
            .get(KIND_KEYS_END)
            .and_then(|v| self.bilingual(v, &words("the exercise's `title`", "练习的 `title`")));
        // Whether the lesson has that many sections is lint's to say.
        let section = fields
            .get(KIND_KEYS_END + 1)
            .and_then(|v| {
                self.integer(
                    v,
                    &words("the exercise's `section`", "练习的 `section`"),
                    1,
                    1_000,
                )
            })
            .and_then(|n| u32::try_from(n).ok());
        let kind_name = kind_name?;
        self.reject_other_kinds_keys(&fields, kind_name);
        let kind = match kind_name {
            "mark" | "predict" | "break" | "sql" => {
                self.scenario_exercise(&fields, kind_name, scenarios)?
            }
            "design" => self.design_exercise(&fields)?,
            _ => self.quiz(&fields)?,
        };
        let (line, col) = line_col(self.text, entry.span().start);
        Some(Exercise {
            id: id?,
            kind,
            concepts,
            title,
            section,
            prompt: prompt?,
            hints,
            takeaway: takeaway?,
            line,
            col,
        })
    }

    /// An exercise's hints: at least two, from a nudge to almost the answer.
    fn hints(&mut self, value: &Value<'_>) -> Vec<Text> {
        let entries = self.array(value, &name("`hints`")).unwrap_or_default();
        if entries.len() < 2 {
            self.error(
                value.span(),
                words(
                    "an exercise needs at least two hints, from a nudge to almost the answer",
                    "练习至少需要两条提示，从轻轻一点到几乎给出答案",
                ),
            );
        }
        entries
            .iter()
            .filter_map(|hint| self.bilingual(hint, &words("a hint", "提示")))
            .collect()
    }

    /// Keys that belong to other kinds are mistakes, not silently ignored.
    fn reject_other_kinds_keys(&mut self, fields: &crate::parse::Fields<'_, '_>, kind_name: &str) {
        let allowed: &[usize] = match kind_name {
            "mark" => &[6, 7],
            "predict" => &[6, 8],
            "design" => &[9, 10, 11],
            "break" => &[6, 12],
            "sql" => &[6, STATEMENTS_KEY],
            _ => &[13, 14],
        };
        for (index, key) in EXERCISE_KEYS.iter().enumerate().skip(6) {
            if let Some(value) = fields.get(index)
                && index != KIND_KEYS_END
                && index != KIND_KEYS_END + 1
                && !allowed.contains(&index)
            {
                self.error(
                    value.span(),
                    words(
                        format!("a `{kind_name}` exercise takes no `{key}`"),
                        format!("`{kind_name}` 练习不接受 `{key}`"),
                    ),
                );
            }
        }
    }

    /// A `mark`, `predict`, `break` or `sql` exercise: each is about one of the
    /// lesson's scenarios.
    fn scenario_exercise(
        &mut self,
        fields: &crate::parse::Fields<'_, '_>,
        kind_name: &str,
        scenarios: &[(String, Scenario)],
    ) -> Option<ExerciseKind> {
        let names: Vec<String> = scenarios.iter().map(|(name, _)| name.clone()).collect();
        let value = self.required(
            fields,
            6,
            "scenario",
            &words(
                format!("this `{kind_name}` exercise"),
                format!("这道 `{kind_name}` 练习"),
            ),
        )?;
        let scenario = self.scenario_ref(value, &names)?;
        let kind = match kind_name {
            "mark" => {
                let candidates = match fields.get(7) {
                    None => vec![Action::Write, Action::Finish, Action::Fail, Action::Renew],
                    Some(value) => self.candidates(value)?,
                };
                ExerciseKind::Mark {
                    scenario,
                    candidates,
                }
            }
            "predict" => {
                let count = scenarios.get(scenario).map_or(0, |(_, s)| s.steps.len());
                let steps = match fields.get(8) {
                    None => None,
                    Some(value) => Some(self.step_indices(value, count)?),
                };
                ExerciseKind::Predict { scenario, steps }
            }
            "sql" => ExerciseKind::Sql {
                scenario,
                slots: self.slots(fields.get(STATEMENTS_KEY))?,
            },
            _ => {
                let violation = fields.get(12).and_then(|v| {
                    self.choice(
                        v,
                        &words("violation kind", "违规类型"),
                        &[ViolationKind::Stale, ViolationKind::AfterTerminal],
                        ViolationKind::name,
                    )
                });
                ExerciseKind::Break {
                    scenario,
                    violation,
                }
            }
        };
        Some(kind)
    }

    fn candidates(&mut self, value: &Value<'_>) -> Option<Vec<Action>> {
        let entries = self.array(value, &name("`candidates`"))?;
        let mut actions = Vec::new();
        for entry in entries {
            let action =
                self.choice(entry, &words("action", "动作"), &Action::ALL, Action::name)?;
            if !action.can_have_effect() {
                self.error(
                    entry.span(),
                    words(
                        format!(
                            "`{}` never has an effect to reject; candidates are write, finish, fail and renew",
                            action.name()
                        ),
                        format!(
                            "`{}` 从不产生可拒绝的效果；候选动作是 write、finish、fail 和 renew",
                            action.name()
                        ),
                    ),
                );
            }
            actions.push(action);
        }
        if actions.is_empty() {
            self.error(
                value.span(),
                words(
                    "`candidates` needs at least one action",
                    "`candidates` 至少需要一个动作",
                ),
            );
        }
        Some(actions)
    }

    fn step_indices(&mut self, value: &Value<'_>, count: usize) -> Option<Vec<u32>> {
        let entries = self.array(value, &name("`steps`"))?;
        let mut steps = Vec::new();
        for entry in entries {
            let max = i64::try_from(count).unwrap_or(0) - 1;
            let index = self.integer(entry, &words("a step index", "步骤序号"), 0, max.max(0))?;
            if count == 0 {
                self.error(
                    entry.span(),
                    words("the scenario has no steps", "场景里没有步骤"),
                );
            }
            steps.push(u32::try_from(index).unwrap_or(0));
        }
        if steps.is_empty() {
            self.error(
                value.span(),
                words(
                    "`steps` needs at least one step index",
                    "`steps` 至少需要一个步骤序号",
                ),
            );
        }
        Some(steps)
    }

    fn design_exercise(&mut self, fields: &crate::parse::Fields<'_, '_>) -> Option<ExerciseKind> {
        let (start, start_source) = match fields.get(9) {
            Some(value) => self.design(value)?,
            None => (
                Preset::TtlLockOnly.design(),
                DesignSource::Preset(Preset::TtlLockOnly),
            ),
        };
        let open = self.open_knobs(fields)?;
        let mut world = WorldOptions::new(start, start_source);
        let (resources, gateway) = match fields.get(11) {
            Some(value) => self.world_table(value, &mut world)?,
            None => (vec![ResourceKind::Generic; DESIGN_TARGETS], false),
        };
        // A real resource starts with the start design's protection only
        // when it offers it; otherwise with none.
        world.targets = Some(
            resources
                .iter()
                .map(|kind| {
                    kind.offer(start.target_protect, gateway)
                        .map_or(crate::design::Protect::None, |o| o.protect)
                })
                .collect(),
        );
        if let Err(problem) = world.world() {
            self.error(
                fields.span.clone(),
                words(
                    format!("the design exercise's world is invalid: {problem}"),
                    format!("设计练习的世界设置无效：{}", problem.message(Lang::Zh)),
                ),
            );
            return None;
        }
        Some(ExerciseKind::Design {
            start,
            start_source,
            open,
            world,
            resources,
            gateway,
            minimal: MinimalMemo::default(),
        })
    }

    /// The knobs a design exercise lets the learner turn: at least one.
    fn open_knobs(&mut self, fields: &crate::parse::Fields<'_, '_>) -> Option<Vec<Knob>> {
        let open_value = self.required(
            fields,
            10,
            "open",
            &words("this `design` exercise", "这道 `design` 练习"),
        )?;
        let entries = self.array(open_value, &name("`open`"))?;
        let mut open = Vec::new();
        for entry in entries {
            if let Some(knob) = self.choice(
                entry,
                &words("design knob", "设计旋钮"),
                &Knob::ALL,
                Knob::name,
            ) {
                open.push(knob);
            }
        }
        if open.is_empty() {
            self.error(
                open_value.span(),
                words(
                    "`open` needs at least one knob the learner may turn",
                    "`open` 至少需要一个学习者可以调节的旋钮",
                ),
            );
        }
        Some(open)
    }

    /// A design exercise's `[world]` table, read into `world`; returns the
    /// resource each target stands for (a count gives anonymous targets,
    /// a list of kind names real ones) and whether the design has a gateway.
    fn world_table(
        &mut self,
        value: &Value<'_>,
        world: &mut WorldOptions,
    ) -> Option<(Vec<ResourceKind>, bool)> {
        let table = self.table(value, &name("`world`"))?;
        let mut targets = vec![ResourceKind::Generic; DESIGN_TARGETS];
        const WORLD: [&str; 11] = [
            "workers",
            "targets",
            "ttl",
            "cancel",
            "restarted",
            "jobs",
            "max_time",
            "max_claims",
            "heartbeat",
            "max_steps",
            "gateway",
        ];
        let world_fields = self.fields(table, value.span(), &WORLD, &name("`world`"));
        let number = |reader: &mut Self, index: usize, name: &str, min: i64, max: i64| {
            world_fields
                .get(index)
                .and_then(|v| reader.integer(v, &Text::both(&format!("`world.{name}`")), min, max))
        };
        if let Some(workers) = number(self, 0, "workers", 2, 4) {
            world.workers = workers as u8;
        }
        match world_fields.get(1) {
            Some(list) if matches!(list.get_ref(), toml::de::DeValue::Array(_)) => {
                targets = self.target_kinds(list)?;
            }
            Some(_) => {
                if let Some(count) = number(self, 1, "targets", 0, 4) {
                    targets = vec![ResourceKind::Generic; count as usize];
                }
            }
            None => {}
        }
        let gateway = world_fields
            .get(10)
            .and_then(|v| self.bool(v, &name("`world.gateway`")))
            .unwrap_or(false);
        if let Some(ttl) = number(self, 2, "ttl", 1, 15) {
            world.ttl = ttl as u8;
        }
        if let Some(jobs) = number(self, 5, "jobs", 1, 3) {
            world.jobs = jobs as u8;
        }
        let mut bounds = Bounds::default();
        if let Some(time) = number(self, 6, "max_time", 1, 48) {
            bounds.max_time = time as u8;
        }
        if let Some(claims) = number(self, 7, "max_claims", 1, 8) {
            bounds.max_claims = claims as u8;
        }
        if let Some(steps) = number(self, 9, "max_steps", 1, 64) {
            bounds.max_steps = steps as u16;
        }
        world.bounds = bounds;
        for (index, flag) in [
            (3, &mut world.allow_cancel),
            (4, &mut world.restarted),
            (8, &mut world.heartbeat),
        ] {
            if let Some(value) = world_fields
                .get(index)
                .and_then(|v| self.bool(v, &name(&format!("`world.{}`", WORLD[index]))))
            {
                *flag = value;
            }
        }
        Some((targets, gateway))
    }

    /// `world.targets` as a list of kind names: the resources, at most 4.
    fn target_kinds(&mut self, list: &Value<'_>) -> Option<Vec<ResourceKind>> {
        let entries = self.array(list, &name("`world.targets`"))?;
        if entries.len() > 4 {
            self.error(
                list.span(),
                words(
                    "`world.targets` lists at most 4 resources",
                    "`world.targets` 最多列出 4 个资源",
                ),
            );
        }
        Some(
            entries
                .iter()
                .filter_map(|entry| {
                    self.choice(
                        entry,
                        &words("resource kind", "资源类型"),
                        &ResourceKind::ALL,
                        ResourceKind::name,
                    )
                })
                .take(4)
                .collect(),
        )
    }

    /// A `sql` exercise's `statements`: distinct slot names, at least one
    /// (default claim, renew and finish).
    fn slots(&mut self, value: Option<&Value<'_>>) -> Option<Vec<Slot>> {
        let Some(value) = value else {
            return Some(vec![Slot::Claim, Slot::Renew, Slot::Finish]);
        };
        let entries = self.array(value, &name("`statements`"))?;
        let mut slots = Vec::new();
        for entry in entries {
            let named = self.choice(entry, &name("statement"), &SLOT_NAMES, |k| k)?;
            for slot in Slot::VARIANTS {
                if slot.name() == named && !slots.contains(slot) {
                    slots.push(*slot);
                }
            }
        }
        // A name listed twice counts once; an empty list is lint's to report.
        Some(slots)
    }

    fn quiz(&mut self, fields: &crate::parse::Fields<'_, '_>) -> Option<ExerciseKind> {
        let multiple = fields
            .get(13)
            .and_then(|v| self.bool(v, &name("`multiple`")))
            .unwrap_or(false);
        let value = self.required(
            fields,
            14,
            "options",
            &words("this `quiz` exercise", "这道 `quiz` 练习"),
        )?;
        let entries = self.array(value, &name("`options`"))?;
        let mut options = Vec::new();
        for entry in entries {
            let Some(table) = self.table(entry, &words("a quiz option", "测验选项")) else {
                continue;
            };
            let option_fields = self.fields(
                table,
                entry.span(),
                &["text", "correct", "why"],
                &words("a quiz option", "测验选项"),
            );
            let text = self
                .required(&option_fields, 0, "text", &words("this option", "这个选项"))
                .and_then(|v| self.bilingual(v, &words("the option's `text`", "选项的 `text`")));
            let correct = self
                .required(
                    &option_fields,
                    1,
                    "correct",
                    &words("this option", "这个选项"),
                )
                .and_then(|v| self.bool(v, &name("`correct`")));
            let why = self
                .required(&option_fields, 2, "why", &words("this option", "这个选项"))
                .and_then(|v| self.bilingual(v, &words("the option's `why`", "选项的 `why`")));
            if let (Some(text), Some(correct), Some(why)) = (text, correct, why) {
                options.push(QuizOption { text, correct, why });
            }
        }
        let correct = options.iter().filter(|o| o.correct).count();
        if options.len() < 2 {
            self.error(
                value.span(),
                words("a quiz needs at least two options", "测验至少需要两个选项"),
            );
        } else if correct == 0 {
            self.error(
                value.span(),
                words(
                    "a quiz needs at least one correct option",
                    "测验至少需要一个正确选项",
                ),
            );
        } else if !multiple && correct > 1 {
            self.error(
                value.span(),
                words("a single-choice quiz needs exactly one correct option (or set `multiple = true`)", "单选测验必须恰好有一个正确选项（或设置 `multiple = true`）"),
            );
        }
        Some(ExerciseKind::Quiz { multiple, options })
    }
}
