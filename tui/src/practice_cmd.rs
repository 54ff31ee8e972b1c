//! `fencelab practice`: one practice round drawn from a lesson's practice
//! world, printed as its scenario file (and, for teachers, its key).

use std::process::ExitCode;

use serde::Serialize;
use sim_core::Lang;
use sim_core::course::practice::{PRACTICE_LEVELS, RoundKey, Situation};
use sim_core::course::{CourseSession, MarkKey, Progress, mark_keys};

use crate::course_cmd::{LessonSource, load_lessons};
use crate::report::{EXIT_BAD_INPUT, print_stdout};

/// What `fencelab practice` was asked for.
pub(crate) struct PracticeOptions {
    pub(crate) lesson: Option<String>,
    pub(crate) concept: Option<String>,
    pub(crate) level: u8,
    pub(crate) seed: u32,
    pub(crate) round: u32,
    pub(crate) json: bool,
    pub(crate) answer_key: bool,
    pub(crate) lessons: LessonSource,
    pub(crate) lang: Lang,
}

#[allow(clippy::print_stderr)]
fn refuse(message: &str) -> ExitCode {
    eprintln!("{}", crate::style::inert_lines(message));
    ExitCode::from(EXIT_BAD_INPUT)
}

/// The round's key from the options: the lesson named (or the first with a
/// practice world that practises the concept named, or the course's first
/// practice world), the concept's situation, or the lesson's situations in
/// turn by round.
fn round_key(session: &CourseSession, options: &PracticeOptions) -> Result<RoundKey, String> {
    let lang = options.lang;
    let pools = session.practice_pools();
    let concept_situations = |concept: &str| -> Vec<Situation> {
        Situation::ALL
            .iter()
            .copied()
            .filter(|s| s.concept().eq_ignore_ascii_case(concept))
            .collect()
    };
    if let Some(concept) = &options.concept
        && concept_situations(concept).is_empty()
    {
        let known: Vec<&str> = {
            let mut all: Vec<&str> = Situation::ALL.iter().map(|s| s.concept()).collect();
            all.dedup();
            all
        };
        return Err(lang.pick(
            format!(
                "practice rounds are about concepts {}; `{concept}` is none of them",
                known.join(", ")
            ),
            format!(
                "练习轮次涉及的概念是 {}；`{concept}` 不在其中",
                known.join("、")
            ),
        ));
    }
    let practises = |lesson: &sim_core::course::Lesson| {
        let practice = lesson.practice.as_ref();
        options.concept.as_deref().is_none_or(|concept| {
            practice.is_some_and(|p| {
                p.situations
                    .iter()
                    .any(|s| s.concept().eq_ignore_ascii_case(concept))
            })
        })
    };
    let lesson = match &options.lesson {
        Some(id) => {
            let lesson = session.lesson(id).map_err(|e| e.message(lang))?;
            if lesson.practice.is_none() {
                let with: Vec<&str> = pools.iter().map(|l| l.id.as_str()).collect();
                return Err(lang.pick(
                    format!(
                        "lesson `{id}` has no practice world; these have one: {}",
                        with.join(", ")
                    ),
                    format!(
                        "课程 `{id}` 没有练习世界；有练习世界的是：{}",
                        with.join("、")
                    ),
                ));
            }
            if !practises(lesson) {
                return Err(lang.pick(
                    format!(
                        "lesson `{id}`'s practice rounds are not about {}",
                        options.concept.as_deref().unwrap_or_default()
                    ),
                    format!(
                        "课程 `{id}` 的练习轮次不涉及 {}",
                        options.concept.as_deref().unwrap_or_default()
                    ),
                ));
            }
            lesson
        }
        None => *pools.iter().find(|l| practises(l)).ok_or_else(|| {
            lang.pick(
                "no lesson of this course has a practice world".to_owned(),
                "这门课程没有任何课带练习世界".to_owned(),
            )
        })?,
    };
    let situations = lesson
        .practice
        .as_ref()
        .map(|p| p.situations.clone())
        .unwrap_or_default();
    let of_concept: Vec<Situation> = match &options.concept {
        Some(concept) => situations
            .iter()
            .copied()
            .filter(|s| s.concept().eq_ignore_ascii_case(concept))
            .collect(),
        None => situations,
    };
    let focus = *of_concept
        .get(options.round as usize % of_concept.len().max(1))
        .ok_or_else(|| {
            lang.pick("no situation to practise", "没有可练习的情形")
                .to_owned()
        })?;
    Ok(RoundKey {
        pool: lesson.id.clone(),
        seed: options.seed,
        round: options.round,
        level: options.level,
        focus,
    })
}

#[derive(Serialize)]
struct KeyJson {
    step: u32,
    key: &'static str,
}

#[derive(Serialize)]
struct RoundJson<'a> {
    key: &'a RoundKey,
    /// The round's scenario file (TOML), as `fencelab run` reads it.
    scenario: String,
    candidates: Vec<&'static str>,
    /// The candidate steps, by index: what the learner marks.
    steps: Vec<u32>,
    situations: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer_key: Option<Vec<KeyJson>>,
}

fn key_name(key: MarkKey) -> &'static str {
    match key {
        MarkKey::MustRefuse => "must_refuse",
        MarkKey::MustAllow => "must_allow",
        MarkKey::Either => "either",
    }
}

pub(crate) fn practice_command(options: &PracticeOptions) -> ExitCode {
    let lang = options.lang;
    if !(1..=PRACTICE_LEVELS).contains(&options.level) {
        return refuse(&lang.pick(
            format!("--level must be 1 to {PRACTICE_LEVELS}"),
            format!("--level 必须在 1 到 {PRACTICE_LEVELS} 之间"),
        ));
    }
    let lessons = match load_lessons(&options.lessons, lang) {
        Ok(lessons) => lessons,
        Err(problems) => return refuse(&problems.join("\n")),
    };
    let session = CourseSession::new(
        lessons.into_iter().map(|file| file.lesson).collect(),
        Progress::default(),
    );
    let key = match round_key(&session, options) {
        Ok(key) => key,
        Err(message) => return refuse(&message),
    };
    let round = match session.practice_round(&key) {
        Ok(round) => round,
        Err(error) => return refuse(&error.message(lang)),
    };
    let keys = mark_keys(&round.scenario, &round.candidates);
    let toml = sim_core::scenario_to_toml(&round.scenario);
    if options.json {
        let json = RoundJson {
            key: &key,
            scenario: toml,
            candidates: round.candidates.iter().map(|a| a.name()).collect(),
            steps: keys.iter().map(|(step, _)| *step).collect(),
            situations: round.situations.iter().map(|s| s.name()).collect(),
            answer_key: options.answer_key.then(|| {
                keys.iter()
                    .map(|(step, key)| KeyJson {
                        step: *step,
                        key: key_name(*key),
                    })
                    .collect()
            }),
        };
        return print_stdout(&format!(
            "{}\n",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        ));
    }
    let mut out = String::new();
    let header = match lang {
        Lang::En => format!(
            "# Practice round {} of `{}` · level {} · seed {} · about {}\n# Mark the steps a safe system must refuse (steps {}); grade with\n# fencelab grade, an answer {{\"practice\": {}, \"mark\": [...]}}.\n",
            key.round,
            key.pool,
            key.level,
            key.seed,
            key.focus.words(lang),
            list(&keys),
            serde_json::to_string(&key).unwrap_or_default()
        ),
        Lang::Zh => format!(
            "# `{}` 的练习第 {} 轮 · 第 {} 级 · 种子 {} · 关于：{}\n# 标出一个安全的系统必须拒绝的步骤（可选步骤 {}）；用 fencelab grade 评分，\n# 答案写作 {{\"practice\": {}, \"mark\": [...]}}。\n",
            key.pool,
            key.round,
            key.level,
            key.seed,
            key.focus.words(lang),
            list(&keys),
            serde_json::to_string(&key).unwrap_or_default()
        ),
    };
    out.push_str(&header);
    out.push_str(&toml);
    if options.answer_key {
        out.push_str(lang.pick(
            "\n# The oracle's key, for teachers:\n",
            "\n# 判定器给出的答案（供教师使用）：\n",
        ));
        for (step, key) in &keys {
            let words = match (key, lang) {
                (MarkKey::MustRefuse, Lang::En) => "must be refused",
                (MarkKey::MustAllow, Lang::En) => "must be allowed",
                (MarkKey::Either, Lang::En) => "either: refusing it is allowed",
                (MarkKey::MustRefuse, Lang::Zh) => "必须拒绝",
                (MarkKey::MustAllow, Lang::Zh) => "必须放行",
                (MarkKey::Either, Lang::Zh) => "两可：拒绝也可以",
            };
            out.push_str(&format!("#   step {step}: {words}\n"));
        }
    }
    print_stdout(&out)
}

fn list(keys: &[(u32, MarkKey)]) -> String {
    keys.iter()
        .map(|(step, _)| step.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
