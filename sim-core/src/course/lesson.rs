//! Lesson files (`lessons/README.md`) to [`Lesson`] values, every mistake a
//! diagnostic at its line and column. The format has no field for the
//! answer of a mark, predict, design or break exercise.

use crate::Lang;
use crate::course::error::CourseError;
use crate::course::{CONCEPTS, complete};
use crate::design::Design;
use crate::explore::WorldOptions;
use crate::parse::{Diagnostic, Reader, Value, decode, document, line_col, name, words};
use crate::resource::{MinimalDesign, ResourceKind};
use crate::scenario::{Action, DesignSource, Scenario, Text};
use crate::sqllab::Slot;
use crate::trace::ViolationKind;

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
    /// The world practice rounds are drawn from (`[practice]`), if the
    /// lesson has one.
    pub practice: Option<crate::course::practice::PracticeWorld>,
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
    /// How a worker claims (`Design::claim`): the explorers' workers
    /// follow the procedure chosen.
    Claim,
    /// Whether a granted cancel advances the fence and registers it
    /// (`Design::cancel_epoch`).
    CancelEpoch,
    /// Whether a granted revise of the input advances the fence and
    /// registers it (`Design::input_revision`).
    InputRevision,
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
        /// What stands in front of the targets: a gateway our own service
        /// can sit behind, a dispatcher for resources that check nothing.
        fronts: crate::resource::Fronts,
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

    /// The kind as the exercise screen's heading: what the learner does.
    pub fn heading(&self, lang: Lang) -> &'static str {
        match self {
            ExerciseKind::Mark { .. } => lang.pick("Mark the stale writes", "标出旧写入"),
            ExerciseKind::Predict { .. } => lang.pick("Predict the outcomes", "预测结果"),
            ExerciseKind::Design { .. } => lang.pick("Design the protection", "设计保护"),
            ExerciseKind::Break { .. } => lang.pick("Break the design", "攻破设计"),
            ExerciseKind::Quiz { .. } => lang.pick("Quiz", "测验"),
            ExerciseKind::Sql { .. } => lang.pick("Write the SQL", "写 SQL"),
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
pub(crate) const DESIGN_TARGETS: usize = 2;

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
pub(crate) const SLOT_NAMES: [&str; 4] = ["claim", "renew", "finish", "cancel"];

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
    pub(crate) fn bilingual(&mut self, value: &Value<'_>, what: &Text) -> Option<Text> {
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

    pub(crate) fn concepts(&mut self, value: &Value<'_>, what: &Text) -> Vec<String> {
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
    pub(crate) fn lesson(
        &mut self,
        root: &toml::de::DeTable<'_>,
        span: std::ops::Range<usize>,
    ) -> Option<Lesson> {
        const KEYS: [&str; 9] = [
            "id",
            "order",
            "title",
            "summary",
            "concepts",
            "sections",
            "scenarios",
            "exercises",
            "practice",
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
        let practice = fields.get(8).and_then(|v| self.practice_world(v));
        Some(Lesson {
            id: id?,
            order: u32::try_from(order?).unwrap_or(0),
            title: title?,
            summary: summary?,
            concepts,
            sections,
            scenarios,
            exercises,
            practice,
        })
    }

    /// The lesson's concepts (its `concepts` list, `value`) are exactly
    /// those its sections and exercises name.
    pub(crate) fn concepts_used(
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

    pub(crate) fn scenarios(&mut self, value: &Value<'_>) -> Vec<(String, Scenario)> {
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

    pub(crate) fn scenario_ref(&mut self, value: &Value<'_>, names: &[String]) -> Option<usize> {
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

    pub(crate) fn sections(&mut self, value: &Value<'_>, names: &[String]) -> Vec<Section> {
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

    pub(crate) fn exercises(
        &mut self,
        value: &Value<'_>,
        scenarios: &[(String, Scenario)],
    ) -> Vec<Exercise> {
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

    pub(crate) fn exercise(
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
    pub(crate) fn hints(&mut self, value: &Value<'_>) -> Vec<Text> {
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
    pub(crate) fn reject_other_kinds_keys(
        &mut self,
        fields: &crate::parse::Fields<'_, '_>,
        kind_name: &str,
    ) {
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
    pub(crate) fn scenario_exercise(
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
}
