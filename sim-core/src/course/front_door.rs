//! The course's front door: the problem in one sentence and the two short
//! stories both front ends open with — A pauses, its lease runs out, B takes
//! over, A wakes and writes — once against a store that checks nothing and
//! once against a store that keeps the highest fencing token it has seen.
//! The stories are scenarios like any other: what A's late write does in
//! each is the engine's answer at run time, never written here.

use crate::Lang;
use crate::parse::parse_scenario;
use crate::scenario::Scenario;
use crate::trace::{Outcome, Trace};

/// The problem, in one sentence.
pub fn problem(lang: Lang) -> &'static str {
    lang.pick(
        "A paused worker can outlive its lease: its late write lands after another worker took over, unless the resource checks a fencing token.",
        "暂停的 Worker 可能活过自己的租约：别人接管之后，它迟到的写入照样生效，除非资源检查 fencing 令牌。",
    )
}

/// The same schedule twice; only the design differs.
const STORY: &str = r#"
ttl = 5
workers = ["A", "B"]
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "pause" },
  { at = 6, worker = "B", do = "claim" },
  { at = 7, worker = "B", do = "write", target = "report", value = "B's report" },
  { at = 9, worker = "A", do = "resume" },
  { at = 9, worker = "A", do = "write", target = "report", value = "A's report" },
]

[[targets]]
id = "report"
"#;

/// One of the two stories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Story {
    /// A bare TTL lock: nothing checks A's late write.
    Unfenced,
    /// The store keeps the highest token it has seen.
    Fenced,
}

impl Story {
    pub const BOTH: [Story; 2] = [Story::Unfenced, Story::Fenced];

    /// The story as a scenario, ready to run.
    pub fn scenario(self) -> Scenario {
        let (id, design, en, zh) = match self {
            Story::Unfenced => (
                "front-door-unfenced",
                "ttl-lock-only",
                "No fencing token",
                "没有 fencing 令牌",
            ),
            Story::Fenced => (
                "front-door-fenced",
                "fenced-highest-seen",
                "With a fencing token",
                "有 fencing 令牌",
            ),
        };
        let text = format!(
            "id = \"{id}\"\ntitle = {{ en = \"{en}\", zh = \"{zh}\" }}\ndesign = \"{design}\"\n{STORY}"
        );
        // The text is this module's own; a test parses both stories. Should
        // it ever fail, an empty scenario shows nothing rather than panicking.
        parse_scenario(text.as_bytes()).unwrap_or_else(|_| Scenario::new(id, 5, &["A", "B"]))
    }
}

/// What A's late write did, from a run of the story: the last step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ending {
    /// The step of A's late write.
    pub step: u32,
    /// The write took effect.
    pub landed: bool,
    /// The oracle calls it a violation (a stale write that landed).
    pub violation: bool,
}

impl Ending {
    pub fn of(scenario: &Scenario, trace: &Trace) -> Option<Ending> {
        let step = u32::try_from(scenario.steps.len().checked_sub(1)?).ok()?;
        let outcome = trace.steps.get(step as usize)?.outcome;
        Some(Ending {
            step,
            landed: outcome == Outcome::Ok,
            violation: trace.violations.iter().any(|v| v.step == step),
        })
    }

    /// The ending in a few words (no full stop: the front ends punctuate).
    pub fn words(self, lang: Lang) -> &'static str {
        match (self.landed, self.violation) {
            (true, true) => lang.pick(
                "A's stale write lands over B's report",
                "A 的旧代次写入覆盖了 B 的报告",
            ),
            (true, false) => lang.pick("A's write lands", "A 的写入生效了"),
            (false, _) => lang.pick(
                "the store refuses A's stale write",
                "存储拒绝了 A 的旧代次写入",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stale_write_lands_without_a_token_and_bounces_with_one() {
        let endings: Vec<Ending> = Story::BOTH
            .iter()
            .map(|story| {
                let scenario = story.scenario();
                assert_eq!(scenario.steps.len(), 6, "{story:?} parses");
                Ending::of(&scenario, &crate::run(&scenario)).unwrap()
            })
            .collect();
        assert!(endings[0].landed && endings[0].violation);
        assert!(!endings[1].landed && !endings[1].violation);
    }
}
