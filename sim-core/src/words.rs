//! The page's own words: every word the browser page prints that is not
//! course text (lessons, narration and feedback come from the course and
//! the engine). The page's scripts hold none: they ask the wasm bindings
//! for the catalogue in the learner's language ([`page_words`]) when the
//! page starts and when the language changes, and look words up by key.
//!
//! A key is what the scripts ask for (`t('submit')`); `{name}` in a text is
//! a place the page fills (`tf('solvedOf', { n, m })`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::Lang;

/// A text in both languages, held as a constant of a catalogue: a word is
/// named, so a misspelt name does not compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    pub en: &'static str,
    pub zh: &'static str,
}

impl Words {
    /// The text in `lang`.
    pub fn get(self, lang: Lang) -> &'static str {
        lang.pick(self.en, self.zh)
    }
}

/// A catalogue entry as text held in both languages, for what carries a
/// [`Text`](crate::Text) (a scenario's title).
impl From<Words> for crate::Text {
    fn from(words: Words) -> crate::Text {
        crate::Text {
            en: words.en.to_owned(),
            zh: words.zh.to_owned(),
        }
    }
}

/// Named [`Words`], each `NAME = "English", "中文";`, and `ALL`, every one
/// of them by name, so a test can check them all without a list kept by
/// hand.
macro_rules! catalogue {
    ($($name:ident = $en:literal, $zh:literal;)*) => {
        $(pub const $name: Words = Words { en: $en, zh: $zh };)*
        /// Every entry of this catalogue, by name.
        pub const ALL: &[(&str, Words)] = &[$((stringify!($name), $name)),*];
    };
}

pub mod keys;
pub mod terminal;

/// The words both front ends say: the page by key (in [`PAGE_WORDS`]),
/// the terminal by name ([`terminal`] shows them again).
pub mod shared {
    use super::Words;

    catalogue! {
        YOUR_PROGRESS = "Your progress", "学习进度";
        START_LESSON_1 = "Start lesson 1", "开始第 1 课";
        SEARCHING = "Searching…", "搜索中……";
        ALL_SOLVED = "Every exercise is solved.", "所有练习都已解决。";
        // Between a label and what it labels ("Step 2: …"): Chinese has
        // its own colon.
        LABEL_SEP = ": ", "：";
        // The label of a timeline's axis of ticks. Chinese text calls the
        // unit "tick" (在 tick 6), but an axis is labelled with a word.
        AXIS_TICKS = "tick", "时刻";
    }
}

/// A word of the page: the key the scripts ask for, and its text in each
/// language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageWord {
    pub key: &'static str,
    pub en: &'static str,
    pub zh: &'static str,
}

const fn word(key: &'static str, en: &'static str, zh: &'static str) -> PageWord {
    PageWord { key, en, zh }
}

/// A word of the page that the terminal says too: one text, one place.
const fn shared_word(key: &'static str, words: Words) -> PageWord {
    word(key, words.en, words.zh)
}

/// One line of the timeline's legend: a symbol and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegendItem {
    pub symbol: &'static str,
    pub en: &'static str,
    pub zh: &'static str,
}

/// The page's words in one language, as the page reads them (JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PageCatalogue {
    /// The language's code (`en`, `zh`): what the page sends back to the
    /// engine and its workers.
    pub lang: Lang,
    /// The language's tag for the page's `<html lang>` attribute.
    pub tag: &'static str,
    /// Each key's text.
    pub words: BTreeMap<&'static str, &'static str>,
    /// The timeline's legend, in order: `[symbol, meaning]`.
    pub legend: Vec<(&'static str, &'static str)>,
    /// The languages the page offers, each in its own name, the current
    /// one marked: the page's switch, drawn as it is.
    pub languages: Vec<LanguageChoice>,
}

/// A language the page's switch offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LanguageChoice {
    pub code: Lang,
    pub name: &'static str,
    pub current: bool,
}

/// The page's words in `lang`.
pub fn page_words(lang: Lang) -> PageCatalogue {
    PageCatalogue {
        lang,
        tag: lang.html_tag(),
        words: PAGE_WORDS
            .iter()
            .map(|word| (word.key, lang.pick(word.en, word.zh)))
            .collect(),
        legend: LEGEND
            .iter()
            .map(|item| (item.symbol, lang.pick(item.en, item.zh)))
            .collect(),
        languages: Lang::ALL
            .iter()
            .map(|code| LanguageChoice {
                code: *code,
                name: code.own_name(),
                current: *code == lang,
            })
            .collect(),
    }
}

/// The scenario the page's sandbox opens with: a stale finish after a
/// takeover, the article's story, to edit and run.
pub const SANDBOX_SAMPLE: &str = r#"id = "my-scenario"
title = { en = "Stale finish after takeover", zh = "接管后旧代次的提交" }
ttl = 5
workers = ["A", "B"]
design = "ttl-lock-only"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "pause" },
  { at = 6, worker = "B", do = "claim" },
  { at = 7, worker = "A", do = "resume" },
  { at = 7, worker = "A", do = "finish" },
  { at = 8, worker = "B", do = "finish" },
]
"#;

/// Every word of the page. The page's scripts (web/static) ask for them by
/// key; the SQL exercise's words (`sql…`) are read by sql.js.
pub const PAGE_WORDS: &[PageWord] = &[
    word(
        "pageTitle",
        "fencelab — leases, fencing tokens and stale writes",
        "fencelab —— 租约、fencing 令牌与旧代次的写入",
    ),
    word("skip", "Skip to content", "跳到正文"),
    word("mainNav", "Main", "主导航"),
    word("kindMark", "mark", "标记"),
    word("kindPredict", "predict", "预测"),
    word("kindDesign", "design", "设计"),
    word("kindBreak", "break", "攻破"),
    word("kindQuiz", "quiz", "选择题"),
    word("kindSql", "SQL", "SQL"),
    word("course", "Course", "课程"),
    word("explorer", "Explorer", "探索器"),
    word("sandbox", "Sandbox", "沙盒"),
    shared_word("startLesson1", shared::START_LESSON_1),
    word("continueNext", "Continue", "继续"),
    word(
        "continueWhere",
        "lesson {n} · {title}",
        "第 {n} 课 · {title}",
    ),
    word("storyReplay", "Play again", "再播一遍"),
    word(
        "storyIntro",
        "Two short stories with the same schedule, run just now by the simulator in your browser:",
        "同一个调度的两个小故事，刚刚由你浏览器里的模拟器运行得出：",
    ),
    word(
        "allDone",
        "Every exercise is complete: review any lesson below.",
        "所有练习都已完成：可以复习下面任何一课。",
    ),
    word("allLessons", "All lessons", "全部课程"),
    word("courseDetails", "Concepts and ids", "概念编号与 id"),
    word("tries1", "1 try", "已尝试 1 次"),
    word("notStarted", "not started", "未开始"),
    word(
        "selfCheckNote",
        "Tick each level you reach in lesson 11’s self-check: basic knows the problem, intermediate fixes the database, senior accounts for every resource.",
        "在第 11 课的自我检查中达到哪一层，就勾选哪一层：基础层知道问题在哪，中级层修好了数据库，高级层对每个资源都有交代。",
    ),
    shared_word("labelSep", shared::LABEL_SEP),
    shared_word("axisTicks", shared::AXIS_TICKS),
    word(
        "sandboxExample",
        "Start from an example:",
        "从一个示例开始：",
    ),
    word(
        "sandboxPick",
        "choose a lesson’s scenario…",
        "选择某一课的场景……",
    ),
    word("triesN", "{n} tries", "已尝试 {n} 次"),
    word("stepNumber", "step {n}", "第 {n} 步"),
    word(
        "mapIntro",
        "A lease lets another worker take over a job; it does not stop the old one. Only a fencing token, checked where the write lands, keeps stale writes out. Every verdict below is computed by the simulator running in your browser.",
        "租约让别的 Worker 可以接手任务，却不会让旧的 Worker 停下。只有在写入落地处检查的 fencing 令牌才能挡住旧代次的写入。下面每个结论都由在你浏览器里运行的模拟器计算得出。",
    ),
    word("lesson", "Lesson", "第"),
    word("sectionsRead", "sections read", "节已读"),
    word("exercisesDone", "exercises done", "个练习已完成"),
    word("open", "Open", "打开"),
    shared_word("progressTitle", shared::YOUR_PROGRESS),
    word("exportProgress", "Export progress", "导出进度"),
    word("importProgress", "Import progress", "导入进度"),
    word("resetProgress", "Reset progress", "清空进度"),
    word(
        "resetConfirm",
        "Forget all progress in this browser?",
        "要清除这个浏览器里的全部进度吗？",
    ),
    word("imported", "Progress imported.", "进度已导入。"),
    word(
        "importFailed",
        "That file is not a progress record this page can read: ",
        "这个文件不是本页能读取的进度记录：",
    ),
    word(
        "progressNote",
        "Progress is kept in this browser only; the file is the same as the terminal app’s progress file.",
        "进度只保存在这个浏览器里；导出的文件与终端应用的进度文件相同。",
    ),
    word(
        "damaged",
        "Your saved progress could not be read, so the page started fresh. The damaged copy is kept; you can download it. Reason: ",
        "已保存的进度无法读取，页面从头开始。损坏的副本已保留，可以下载。原因：",
    ),
    word(
        "downloadDamaged",
        "Download the damaged copy",
        "下载损坏的副本",
    ),
    word("dismiss", "Dismiss", "关闭"),
    word(
        "storageFailed",
        "Progress cannot be saved in this browser (storage is unavailable).",
        "这个浏览器无法保存进度（存储不可用）。",
    ),
    word("back", "← All lessons", "← 全部课程"),
    word("concepts", "Concepts", "概念"),
    word("review", "Progress", "学习进度"),
    word("solvedOf", "{n} of {m} solved", "已解决 {n}/{m}"),
    word("nextUnfinished", "Next unfinished", "下一道未完成"),
    shared_word("allSolved", shared::ALL_SOLVED),
    word("where", "Lesson.level", "课.关"),
    word("hintsCol", "Hints", "提示"),
    word("triesCol", "Tries", "尝试"),
    word("stateCol", "State", "状态"),
    word("solved", "solved", "已解决"),
    word("revealed", "solution shown", "看过解答"),
    word("tried", "tried", "尝试过"),
    word("levels", "Levels", "关卡"),
    word("levelN", "Level {n}", "第 {n} 关"),
    word("prevLevel", "Previous level", "上一关"),
    word("nextLevel", "Next level", "下一关"),
    word("exercise", "Exercise", "练习"),
    word("timeline", "Timeline", "时间线"),
    word("step", "Step", "步骤"),
    word("tick", "tick", "tick"),
    word("play", "▶ Play", "▶ 播放"),
    word("pause", "‖ Pause", "‖ 暂停"),
    word("prev", "◀ Previous", "◀ 上一步"),
    word("next", "Next ▶", "下一步 ▶"),
    word("last", "Last »", "最后一步 »"),
    word(
        "timelineHelp",
        "Click a step or use ← → (Home, End) when the timeline has focus.",
        "点击某一步，或在时间线获得焦点时使用 ← →（Home、End）。",
    ),
    word("narration", "Every step in words", "逐步文字说明"),
    word(
        "jobTable",
        "Job table after this step",
        "这一步之后的任务表",
    ),
    word("targets", "Targets at the end", "结束时的目标"),
    word("stepSql", "The SQL of this step", "这一步的 SQL"),
    word(
        "sqlNotSent",
        "not sent: the worker was blocked, had crashed, or had not seen the row claimable",
        "未发送：Worker 被阻塞、已崩溃，或未看到这一行可领取",
    ),
    word("rowChanged", "row changed", "行被改动"),
    word("rowsChanged", "rows changed", "行被改动"),
    word("owner", "owner", "owner"),
    word("leaseUntil", "lease until", "租约到"),
    word("fence", "fence", "fence"),
    word("state", "state", "状态"),
    word("value", "value", "值"),
    word("protect", "protection", "保护方式"),
    word("legend", "Legend", "图例"),
    word("jobs", "job table", "任务表"),
    word("violation", "violation", "次违例"),
    word("violations", "violations", "次违例"),
    word(
        "noViolations",
        "No violation: every effect was safe.",
        "没有违例：每个效果都是安全的。",
    ),
    word("hint", "Hint", "提示"),
    word("showHint", "Show a hint", "显示提示"),
    word("nextHint", "Next hint", "下一条提示"),
    word("noMoreHints", "No more hints.", "没有更多提示了。"),
    word("submit", "Check my answer", "检查答案"),
    word(
        "checkingDesign",
        "Checking your design: the explorers try every schedule…",
        "正在检查你的设计：探索器在尝试每一种调度……",
    ),
    word("solution", "Show the solution", "查看解答"),
    word(
        "solutionAfterAttempt",
        "The solution opens after your first attempt.",
        "先尝试一次，才能查看解答。",
    ),
    word("takeaway", "Takeaway", "要点"),
    word("attempts", "attempts", "次尝试"),
    word("completed", "completed", "已完成"),
    word("choose", "choose…", "请选择……"),
    word(
        "designPrompt",
        "Choose the design; the exhaustive explorer then attacks it in this world. The answer must be safe and no costlier than needed:",
        "选择设计；穷举探索器随后会在这个世界里攻击它。答案必须安全，代价也不能超过所需：",
    ),
    word("designTotal", "Total cost: {n}", "总代价：{n}"),
    word(
        "breakPrompt",
        "Edit the schedule until the design breaks, then check it. (The same steps as JSON, for pasting:)",
        "编辑调度，直到设计被攻破，然后检查。（同样的步骤的 JSON 形式，可粘贴：）",
    ),
    word(
        "breakJsonError",
        "The schedule is not valid JSON: ",
        "调度不是合法的 JSON：",
    ),
    word("right", "right", "正确"),
    word("wrong", "wrong", "错误"),
    word("correct", "Correct", "正确"),
    word("notYet", "Not yet", "还没有"),
    word("counterexample", "Counterexample", "反例"),
    word("yourSchedule", "Your schedule", "你的调度"),
    word("key", "The key", "答案"),
    word(
        "exploreTitle",
        "Explorer: attack a design with every schedule",
        "探索器：用所有调度攻击一个设计",
    ),
    word(
        "exploreIntro",
        "An adversarial scheduler chooses which worker moves, when time passes (a worker that does not move while time passes is paused) and when the user cancels. The random explorer samples schedules from a seed and shrinks the first failure; the exhaustive explorer visits every state within bounds.",
        "一个对抗性的调度器决定哪个 Worker 行动、时间何时流逝（时间流逝时不动的 Worker 就是暂停了）以及用户何时取消。随机探索器按种子抽样调度并缩减第一个失败；穷举探索器访问界限内的每个状态。",
    ),
    word("run", "Run the explorer", "运行探索器"),
    word("cancelRun", "Cancel", "取消"),
    shared_word("running", shared::SEARCHING),
    word(
        "cancelled",
        "Cancelled: the worker was stopped, no verdict.",
        "已取消：Worker 已停止，没有结论。",
    ),
    word("verdict", "Verdict", "结论"),
    word(
        "sandboxTitle",
        "Sandbox: run your own scenario",
        "沙盒：运行你自己的场景",
    ),
    word(
        "sandboxIntro",
        "Paste or open a scenario file and run it.",
        "粘贴或打开一个场景文件并运行。",
    ),
    word(
        "scenarioFormat",
        "The scenario format, every field",
        "场景文件的格式：每个字段",
    ),
    word("openFile", "Open a file", "打开文件"),
    word("runScenario", "Run", "运行"),
    word(
        "sandboxError",
        "The scenario has mistakes (LINE:COL: message):",
        "场景有错误（行:列: 信息）：",
    ),
    word("notFound", "There is nothing here. ", "这里什么都没有。"),
    word("toMap", "Go to the course map", "回到课程"),
    word("selfCheck", "Self-check", "自我检查"),
    word("basic", "basic", "基础"),
    word("intermediate", "intermediate", "中级"),
    word("senior", "senior", "高级"),
    word("share", "Share", "分享"),
    word("shareLink", "Share link", "分享链接"),
    word("shareMade", "Copy this link:", "复制这个链接："),
    word(
        "shareCopied",
        "Link copied; it is also below.",
        "链接已复制；下方也有。",
    ),
    word("shareTitle", "A shared scenario", "分享的场景"),
    word(
        "shareOpening",
        "Opening the shared scenario…",
        "正在打开分享的场景……",
    ),
    word(
        "shareGarbage",
        "This share link is damaged: it does not hold a compressed scenario file.",
        "这个分享链接已损坏：其中没有压缩的场景文件。",
    ),
    word(
        "shareTooLong",
        "This share link is too long (at most 12000 characters); share the scenario as a file instead.",
        "这个分享链接太长（最多 12000 个字符）；请以文件形式分享场景。",
    ),
    word(
        "shareTooBig",
        "This share link unpacks to more than 64 KB; share the scenario as a file instead.",
        "这个分享链接解压后超过 64 KB；请以文件形式分享场景。",
    ),
    word(
        "practiceDrawing",
        "Drawing a fresh round for you…",
        "正在为你抽取新的一轮……",
    ),
    word(
        "practiceFailed",
        "The round could not be drawn: ",
        "这一轮没能抽取出来：",
    ),
    word("addStep", "+ Add a step", "+ 添加一步"),
    word("removeStep", "Remove", "删除"),
    word("moveUp", "Up", "上移"),
    word("moveDown", "Down", "下移"),
    word(
        "previewTitle",
        "Preview of your schedule (outcomes only; checking it tells whether it breaks the design)",
        "你的调度预览（只显示结果；检查答案才会判断它是否攻破了设计）",
    ),
    word(
        "previewError",
        "The schedule cannot run yet: ",
        "这个调度还不能运行：",
    ),
    word(
        "sqlParams",
        "Parameters a statement may name:",
        "语句可用的参数：",
    ),
    word("sqlRun", "Check on SQLite", "在 SQLite 上检查"),
    word("sqlLoading", "Loading SQLite…", "正在加载 SQLite…"),
    word(
        "sqlReady",
        "SQLite {version}, compiled to WebAssembly, runs in this page (ready in {ms} ms).",
        "SQLite {version}（编译为 WebAssembly）在本页中运行（{ms} 毫秒就绪）。",
    ),
    word(
        "sqlFailed",
        "SQLite could not start in this browser: ",
        "SQLite 无法在此浏览器中启动：",
    ),
    word(
        "sqlRunning",
        "Running your statements on SQLite…",
        "正在 SQLite 上运行你的语句…",
    ),
    word(
        "sqlRestarted",
        "SQLite did not answer within {s} s, so it was stopped and a fresh one started. Your statements were not graded and the try does not count.",
        "SQLite 在 {s} 秒内没有回答，已被停止并重新启动。你的语句没有评分，也不计入作答次数。",
    ),
];

/// The timeline's legend: every symbol a diagram may show, and its meaning.
pub const LEGEND: &[LegendItem] = &[
    LegendItem {
        symbol: "✓",
        en: "took effect",
        zh: "生效",
    },
    LegendItem {
        symbol: "✗",
        en: "refused",
        zh: "被拒绝",
    },
    LegendItem {
        symbol: "↺",
        en: "duplicate",
        zh: "重复",
    },
    LegendItem {
        symbol: "·",
        en: "changed nothing",
        zh: "没有改变",
    },
    LegendItem {
        symbol: "◷",
        en: "waiting for a lock",
        zh: "在等行锁",
    },
    LegendItem {
        symbol: "‼",
        en: "violation: a stale or after-terminal effect",
        zh: "违例：旧代次或任务结束后的效果",
    },
    LegendItem {
        symbol: "?",
        en: "outcome hidden: predict it",
        zh: "结果已隐藏：待预测",
    },
    LegendItem {
        symbol: "▬",
        en: "a lease (generation, until tick); paler: time spent",
        zh: "租约（代次，到期 tick）；变淡：已用掉",
    },
    LegendItem {
        symbol: "›",
        en: "a lease running on past the timeline's edge",
        zh: "租约延续到时间线之外",
    },
    LegendItem {
        symbol: "┈",
        en: "paused or crashed",
        zh: "暂停或崩溃",
    },
    LegendItem {
        symbol: "↘",
        en: "a request in flight: from its send to its arrival",
        zh: "在途的请求：从发出到到达",
    },
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn every_word_has_both_languages_and_one_key() {
        assert!(
            PAGE_WORDS.len() > 100,
            "the page's words: {}",
            PAGE_WORDS.len()
        );
        let mut keys = BTreeSet::new();
        for word in PAGE_WORDS {
            assert!(
                !word.key.is_empty() && word.key.chars().all(|c| c.is_ascii_alphanumeric()),
                "key `{}`",
                word.key
            );
            assert!(keys.insert(word.key), "`{}` is defined twice", word.key);
            assert!(!word.en.trim().is_empty(), "`{}` has no English", word.key);
            assert!(!word.zh.trim().is_empty(), "`{}` has no Chinese", word.key);
        }
        for item in LEGEND {
            assert!(!item.symbol.is_empty(), "a legend line without its symbol");
            assert!(
                !item.en.trim().is_empty() && !item.zh.trim().is_empty(),
                "legend `{}`",
                item.symbol
            );
        }
    }

    /// Every named entry has both texts, and Chinese ends a sentence or a
    /// label with its own punctuation where English does (`.` → `。`,
    /// `:` → `：`).
    #[test]
    fn every_named_word_has_both_languages_and_chinese_punctuation() {
        let catalogues = [shared::ALL, terminal::ALL, keys::ALL];
        for (name, words) in catalogues.into_iter().flatten() {
            assert!(!words.en.trim().is_empty(), "`{name}` has no English");
            assert!(!words.zh.trim().is_empty(), "`{name}` has no Chinese");
            let (en, zh) = (words.en.trim_end(), words.zh.trim_end());
            for (ascii, chinese) in [('.', '。'), (':', '：')] {
                if en.ends_with(ascii) {
                    assert!(
                        zh.ends_with(chinese),
                        "`{name}`: {zh:?} should end in {chinese}"
                    );
                }
            }
        }
        for lang in Lang::ALL {
            let stop = lang.pick('.', '。');
            for legend in [&["C claim".to_owned()][..], &[]] {
                let said = terminal::steps_legend(legend, lang);
                assert!(said.ends_with(stop), "{said:?}");
            }
            // The texts with places to fill that are sentences.
            for said in [
                terminal::progress_unreadable("progress.json", "why", lang),
                terminal::progress_kept_as("progress.json.bad-1", "dir", lang),
                terminal::progress_not_moved_aside("error", lang),
                terminal::farewell_pending("path", lang),
            ] {
                assert!(said.ends_with(stop), "{said:?}");
            }
        }
    }

    #[test]
    fn the_sandbox_sample_runs_and_shows_the_stale_finish() {
        let scenario = crate::parse_scenario(SANDBOX_SAMPLE.as_bytes());
        let Ok(scenario) = scenario else {
            panic!("the sandbox's sample does not parse: {scenario:?}");
        };
        assert_eq!(scenario.title.get(Lang::Zh), "接管后旧代次的提交");
        assert!(
            !crate::run(&scenario).violations.is_empty(),
            "the sample shows a violation"
        );
    }

    #[test]
    fn a_text_names_the_same_places_in_both_languages() {
        let places = |text: &str| -> BTreeSet<String> {
            text.split('{')
                .skip(1)
                .filter_map(|rest| rest.split_once('}'))
                .map(|(name, _)| name.to_owned())
                .collect()
        };
        for word in PAGE_WORDS {
            assert_eq!(places(word.en), places(word.zh), "`{}`", word.key);
        }
    }

    #[test]
    fn the_catalogue_holds_every_word_in_the_language_asked() {
        for lang in Lang::ALL {
            let catalogue = page_words(lang);
            assert_eq!(catalogue.words.len(), PAGE_WORDS.len());
            assert_eq!(catalogue.legend.len(), LEGEND.len());
            assert_eq!(
                catalogue.words.get("submit"),
                Some(&lang.pick("Check my answer", "检查答案"))
            );
        }
        let json = serde_json::to_value(page_words(Lang::Zh)).unwrap_or_default();
        assert_eq!(json["lang"], "zh");
        assert_eq!(json["tag"], "zh-Hans");
        assert_eq!(json["words"]["skip"], "跳到正文");
        assert_eq!(json["legend"][0], serde_json::json!(["✓", "生效"]));
    }
}
