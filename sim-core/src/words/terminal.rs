//! The terminal app's own words: everything `fencelab` prints that is not
//! course or engine text (lessons, narration and feedback come from the
//! course and the engine; the keys' words are in [`keys`](super::keys)).
//! The terminal holds none: it names a word here and takes it in the
//! learner's language (`terminal::HELP_CLOSES.get(lang)`); a text with
//! places to fill is a function taking the values and the language.

use super::Words;
use crate::Lang;

pub use super::shared::{ALL_SOLVED, LABEL_SEP, SEARCHING, START_LESSON_1, YOUR_PROGRESS};

catalogue! {

    // The progress file: notices when it cannot be read or saved.
    PROGRESS_KEPT_ASIDE = "Your saved progress was kept aside",
        "已保存的进度被放到了一边";
    PROGRESS_UNREADABLE = "Your saved progress could not be read",
        "无法读取已保存的进度";
    PROGRESS_NOT_SAVED = "Progress will not be saved",
        "进度不会被保存";
    PROGRESS_NOT_SAVED_THIS_TIME = "Progress will not be saved this time, so that file is not overwritten.",
        "这次不会保存进度，以免覆盖那个文件。";

    // Saving alongside another fencelab.
    WAITING_FOR_OTHER_SAVER = "Waiting for another fencelab using the same data folder…",
        "正在等待另一个使用同一数据文件夹的 fencelab…";

    // The timeline's key line.
    TIMELINE_LEASE_LEFT_SPENT = "━ lease left ─ spent",
        "━ 租约剩余 ─ 已用";
    TIMELINE_RUNS_ON = "▸ runs on",
        "▸ 延续到图外";
    TIMELINE_PAUSED = "┄ paused",
        "┄ 暂停";
    TIMELINE_IN_FLIGHT = "╲╌→ in flight",
        "╲╌→ 在途";
    TIMELINE_LEGEND_REST = "… ? more",
        "… ? 更多";
    TIMELINE_QUIET_TICKS = "⋯ quiet ticks",
        "⋯ 略去的 tick";

    // The explorer.
    EXPLORER_SOURCE = "explorer",
        "探索器";

    // An exercise's answer panel: design, break (a schedule), SQL.
    TAKEAWAY_LABEL = "Takeaway: ",
        "要点：";
    SCHEDULE_EMPTY = "No steps: a adds one.",
        "没有步骤：按 a 添加一步。";
    DESIGN_NOTHING_TO_CHANGE = "Nothing to change here: Enter asks the explorers about the design as it is.",
        "这里没有可改的选项：按 Enter 让探索器检查现在的设计。";
    SCHEDULE_KEYS = "↑↓ step · Tab field · ←→ or Space change · a add · x delete · [ ] move · t timeline · Enter submit",
        "↑↓ 选步骤 · Tab 选字段 · ←→ 或空格 修改 · a 添加 · x 删除 · [ ] 移动 · t 时间线 · Enter 提交";
    DESIGN_HOW_TO_SUBMIT = "Enter lets the explorers attack this design: every schedule of the world, exhaustively.",
        "按 Enter 让探索器攻击这个设计：穷举这个世界的每一种调度。";
    DESIGN_OPEN_COUNTEREXAMPLE = "t opens the counterexample on the timeline.",
        "按 t 在时间线上打开反例。";
    SCHEDULE_CANNOT_RUN = "⚠ This schedule cannot run: ",
        "⚠ 这个调度无法运行：";
    SCHEDULE_PREVIEW_OUTCOMES = "The preview shows each step's outcome; Enter grades the schedule.",
        "预览显示每一步的结果；按 Enter 给调度评分。";
    SCHEDULE_NO_VIOLATION_YET = "No violation in this schedule yet.",
        "这个调度中还没有违例。";
    SCHEDULE_PREVIEW_VIOLATION = "The preview shows a violation: ",
        "预览中出现违例：";
    SOLUTION_BREAKING_SCHEDULE = "A schedule that breaks it (t opens it on the timeline):",
        "一个能攻破它的调度（按 t 在时间线上打开）：";
    SQL_MODE_RUNNING = "running · Esc cancels",
        "运行中 · Esc 取消";
    SQL_MODE_TYPING = "typing · Esc stops",
        "输入中 · Esc 结束";
    SQL_MODE_COMMANDS = "e edits · Enter runs",
        "e 编辑 · Enter 运行";
    SQL_EMPTY_STATEMENT = "(empty: e starts typing one UPDATE statement)",
        "（空：按 e 开始输入一条 UPDATE 语句）";
    SQL_PARAMETERS_LABEL = "Parameters: ",
        "参数：";
    SQL_CANCELLING = "Cancelling: SQLite stops at its next check…",
        "正在取消：SQLite 会在下一次检查时停止……";
    SQL_RUNNING = "Running your statements on SQLite against every case… Esc cancels.",
        "正在 SQLite 上对每个用例运行你的语句…… 按 Esc 取消。";

    // The course map and its front door.
    COURSE_HEADER = "fencelab · the course",
        "fencelab · 课程";
    COURSE_NEXT_MARK = "◂ next",
        "◂ 下一课";
    COURSE_LESSONS = " Lessons ",
        " 课程 ";
    COURSE_CONCEPTS_LABEL = "Concepts: ",
        "概念：";
    FULL_STOP = ".",
        "。";
    COURSE_STORY = "A pauses past its lease; B takes over; A wakes and writes.",
        "A 暂停到租约过期；B 接管；A 醒来后写入。";
    COURSE_ALL_SOLVED = "Every exercise is solved: review any lesson below.",
        "所有练习都已解决：可以在下面复习任何一课。";
    REVIEW_NO_PRACTICE = "No practice round yet: r on the course map draws one for the lesson chosen.",
        "还没有练习轮次：在课程地图上按 r，为选中的课抽一轮。";

    // The exercise screen.
    DESIGN_PANEL_TITLE = "Your design · ↑↓ choose · Space or ←→ change",
        "你的设计 · ↑↓ 选择 · 空格或 ←→ 修改";
    SOLUTION_KEY_LABEL = "Key: ",
        "答案：";
    LAST_TRY_LABEL = "Your last try:",
        "你上次的作答：";
    HINTS_TITLE = "hints",
        "提示";

    // The explorer.
    EXPLORER_CANCELLING = "Cancelling…",
        "正在取消……";
    EXPLORER_HOW_TO_CANCEL = "c or Esc cancels the search.",
        "按 c 或 Esc 取消搜索。";
    EXPLORER_PLAY_COUNTEREXAMPLE = "t plays it on the timeline, at the step that violates.",
        "按 t 在时间线上播放它，停在违例的那一步。";
    EXPLORER_RESULT = "Result",
        "结果";
    EXPLORER_COULD_NOT_RUN = "Could not run",
        "无法运行";
    EXPLORER_HOW_TO_RUN = "Enter runs the search. Can the scheduler make this design break?",
        "按 Enter 运行搜索。调度器能让这个设计出错吗？";
    EXPLORER_HEADER = "fencelab · explore a design",
        "fencelab · 探索一个设计";
    EXPLORER_SETUP = " Setup ",
        " 设置 ";
    // A scrolled pane's title (the explorer's result, an exercise's
    // panel): there is more below, or it is scrolled to its end.
    MORE_BELOW_PGDN = " ↓ more: PgDn ",
        " ↓ 还有：PgDn ";
    MORE_ABOVE_PGUP = " ↑ PgUp ",
        " ↑ PgUp ";

    // A lesson's pages.
    LESSON_MORE_BELOW = "↓ more",
        "↓ 更多";
    LESSON_ON_TO_NEXT_LEVEL = "→ next level",
        "→ 下一关";
    LESSON_ON_TO_ALL_EXERCISES = "→ all exercises",
        "→ 全部练习";
    LESSON_TIMELINE_LABEL = "timeline: ",
        "时间线：";
    LESSON_ALL_EXERCISES = "all exercises",
        "全部练习";
    LESSON_PRACTISE_IT = " Practise it · Enter ",
        " 练一练 · Enter ";
    LESSON_EXERCISES = " Exercises ",
        " 练习 ";
    LESSON_THE_TASK = " The task ",
        " 题目 ";

    // The help overlay.
    HELP_FLIGHTS = "╲╌→ a request in flight: it leaves the worker where the slope starts and takes effect at → on the target's lane (the trail runs to the edge while it has not arrived). Checks at the worker and a sending gateway happen at the send; every other check at the arrival.",
        "╲╌→ 在途的请求：从斜线起点离开 Worker，在目标那一行的 → 处生效（尚未到达时，轨迹一直延伸到边缘）。Worker 自己的检查和发送端网关在发送时检查；其他检查都在到达时进行。";
    HELP_CLOSES = "Esc or ? closes this help.",
        "按 Esc 或 ? 关闭帮助。";
    HELP_TIMELINE_TITLE = "Reading the timeline",
        "怎样读时间线";
    HELP_STEPS_LABEL = "Steps: ",
        "步骤：";
    HELP_AT_THE_RESOURCE_LABEL = "At the resource: ",
        "资源端：";
    HELP_LEASES_AND_AXIS = "━━ a lease: g2 is generation 2; ━ the time it has left at the current step, ─ the time spent; ┫ where it ended, the number after it is lease_until; ▸ it runs on past the edge. ┄ a paused worker. Axis: every tick with a step is labelled, 7── groups the steps of tick 7, ⋯ stands for quiet ticks. The line under the timeline names what it shows.",
        "━━ 租约：g2 表示第 2 代；━ 是当前步骤时剩下的时间，─ 是已用掉的时间；┫ 是它结束的位置，其后的数字是 lease_until；▸ 表示它延续到图外。┄ 表示暂停中的 Worker。时间轴：每个有步骤的 tick 都标出，7── 把 tick 7 的几个步骤归为一组，⋯ 代表略去的安静 tick。时间线下面一行说明图中的符号。";
    HELP_BREAK_TIMELINE = "Break: the timeline previews your schedule's outcomes, run again after each change; Enter grades it, and ‼ marks a violation once solved. The steps stay in tick order: a step whose tick passes another's moves past it.",
        "攻破：时间线预览你的调度中每一步的结果，每次修改后重新运行；按 Enter 评分，解出之后 ‼ 表示违例。步骤始终按 tick 排序：tick 越过另一步的步骤会移到它后面。";
    HELP_MARK_TIMELINE = "Marks: ○ a step you may mark · ● marked. After a try: ✓ right · ✗ wrong.",
        "标记：○ 可以标记的步骤 · ● 已标记。作答之后：✓ 对 · ✗ 错。";
    HELP_DESIGN = "Design: ↑↓ (or Tab) picks a knob; Space or → changes it ([x] a predicate checked or a target sent to reconciliation, ‹ › a choice: a target offers only what its real resource supports, each with its cost), ← back. Enter lets the explorers try every schedule of the world; the answer must be safe and no costlier than needed. When they break it, t opens the counterexample.",
        "设计：↑↓（或 Tab）选择选项；空格或 → 修改（[x] 表示检查该谓词或把目标交给对账，‹ › 表示可选值：每个目标只提供它的真实资源支持的保护，各有代价），← 反向。Enter 让探索器尝试这个世界的所有调度；答案必须安全，代价也不能超过所需。被攻破时按 t 打开反例。";
    HELP_SCHEDULE = "Schedule: ↑↓ picks a step, Tab a field ([ ] marks it), Space or → changes it and ← back, as in a design (tick, worker, action, target, job, and a write's op and value; a tick can also be typed), a adds a copy one tick later, x deletes, [ and ] move the step past its neighbour (taking its tick). t opens the schedule on its own timeline.",
        "调度：↑↓ 选择步骤，Tab 选择字段（[ ] 标出），空格或 → 修改、← 反向，与设计相同（tick、Worker、动作、目标、任务，以及写入的 op 和值；tick 也可以直接输入），a 在下一 tick 添加一份副本，x 删除，[ 和 ] 把步骤移过相邻的一步（并采用它的 tick）。按 t 在独立的时间线上打开调度。";
    HELP_SQL = "SQL: write each statement as one UPDATE with named parameters (:job, :owner, :token, :now, :ttl). While you type, every key is text; Esc stops typing, e starts again, Tab switches the statement. Enter runs them on a real SQLite against the lesson's scenario and every edge case; a statement SQLite refuses is shown with its line:column and is not counted as a try.",
        "SQL：每条语句写成一条带命名参数（:job、:owner、:token、:now、:ttl）的 UPDATE。输入时每个键都是文字；Esc 结束输入，e 重新开始，Tab 切换语句。Enter 在真实的 SQLite 上，对本课的场景和每个边界用例运行这些语句；SQLite 拒绝的语句会标出行:列，不计入作答次数。";
    HELP_QUIZ = "Quiz: ( ) one answer, [ ] any number. A digit chooses the option with that number; the options stay on screen with the hints. From your second wrong try on, the first wrong option you chose says so; once solved or the solution is open, every option says ✓ true or ✗ false, and why.",
        "测验：( ) 单选，[ ] 多选。数字键选择对应编号的选项；打开提示时选项仍然显示。从第二次答错起，会指出你选错的第一个选项；解出或打开解答之后，每个选项都显示 ✓ 正确 或 ✗ 错误 以及原因。";
    HELP_HINTS_AND_SOLUTION = "h reveals the next hint; s shows the worked solution, computed now, after your first try.",
        "h 显示下一条提示；第一次作答之后，s 显示现场计算的参考解答。";
    HELP_TITLE = "Keys",
        "按键";
    HELP_MORE_BELOW = " ↓ more: ↑↓ scroll ",
        " ↓ 还有：↑↓ 滚动 ";
    HELP_MORE_ABOVE = " ↑ ↑↓ scroll ",
        " ↑ ↑↓ 滚动 ";

    // The review of every exercise.
    REVIEW_LIST_TITLE = " Every exercise · lesson.level ",
        " 全部练习 · 课.关 ";
    REVIEW_NEXT_UNFINISHED_LABEL = "next unfinished: ",
        "下一道未完成：";

    // The sandbox: a scenario on its timeline.
    SANDBOX_CUSTOM_DESIGN = "custom design",
        "自定义设计";
    SANDBOX_NO_STEPS = "no steps",
        "没有步骤";
    SANDBOX_USER = "user",
        "用户";
    SANDBOX_EMPTY_SCENARIO = "This scenario has no steps.",
        "这个场景没有步骤。";
    STEP_NOTE_LABEL = "Note: ",
        "注：";
    SANDBOX_TITLE = "timeline · design",
        "时间线 · 设计";
    SANDBOX_PLAYING = "▶ playing",
        "▶ 播放中";
    SANDBOX_PAUSED = "⏸ paused",
        "⏸ 已暂停";

    // Said while the terminal works.
    SQL_CANCELLED = "Cancelled: nothing graded, not counted as a try.",
        "已取消：没有评分，不计入作答次数。";
    EXPLORER_CANCELLING_SEARCH = "Cancelling the search…", "正在取消搜索……";
    EXPLORER_NOTHING_TO_PLAY = "No counterexample to play: the design held.",
        "没有反例可以播放：这个设计守住了。";

    // Said on the footer, answering a key.
    SQL_WAIT_FOR_RUN = "SQLite is running your statements: Esc cancels.",
        "SQLite 正在运行你的语句：按 Esc 取消。";
    FIRST_SCREEN = "This is the first screen: q quits.",
        "这是第一个界面：按 q 退出。";
    LESSON_LAST_PAGE = "This is the last page of the lesson.",
        "这是本课的最后一页。";
    PAGE_HAS_NO_TIMELINE = "This page has no timeline.",
        "这一页没有时间线。";
    NO_STEP_TO_PREDICT = "No step is asked about.",
        "没有要预测的步骤。";
    NO_STEP_TO_MARK = "No step can be marked.",
        "没有可以标记的步骤。";
    ONLY_CIRCLED_STEPS_MARKED = "Only ○ steps can be marked; Tab jumps to the next.",
        "只有 ○ 步骤可以标记；按 Tab 跳到下一个。";
    STEP_NOT_TO_PREDICT = "This step is not asked about; Tab jumps to the next ? step.",
        "这一步不需要预测；按 Tab 跳到下一个 ? 步骤。";
    LAST_HINT_TRY_AN_ANSWER = "That was the last hint. Now try an answer.",
        "这是最后一条提示。试着作答吧。";
    LAST_HINT_SEE_SOLUTION = "That was the last hint; s shows the worked solution.",
        "这是最后一条提示；按 s 查看参考解答。";
    SQL_RUN_STARTED = "Running your statements on SQLite… Esc cancels.",
        "正在 SQLite 上运行你的语句…… 按 Esc 取消。";
    SQL_CANCELLING_RUN = "Cancelling the run…",
        "正在取消运行……";
    SCHEDULE_FULL = "The schedule is full.",
        "调度已满。";
    NO_COUNTEREXAMPLE_YET = "No counterexample: submit a design the explorers break first.",
        "没有反例：先提交一个被探索器攻破的设计。";
    // Where a break's timeline comes from, in the sandbox's header.
    SOURCE_WORKED_SOLUTION = "worked solution", "参考解答";
    SOURCE_YOUR_SCHEDULE = "your schedule", "你的调度";
    // The title of the counterexample's timeline: what it is to the
    // learner, not the preset the explorer matched.
    COUNTEREXAMPLE_TO_YOUR_DESIGN = "A counterexample to your design",
        "你的设计的一个反例";

    // An exercise's items: a step on the timeline, a list of options.
    YOUR_CALL = "your call",
        "由你预测";
    LIST_KEYS_ONE = "A number or ↑↓ and Space: choose (one) · Enter submit",
        "数字键或 ↑↓ 加空格：选择（单选） · Enter 提交";
    LIST_KEYS_ANY = "A number or ↑↓ and Space: choose or unchoose (any number) · Enter submit",
        "数字键或 ↑↓ 加空格：选中或取消（可多选） · Enter 提交";
    LAST_TRY_ROW = "last try",
        "上次";
    SOLUTION_KEY_ROW = "key",
        "答案";

    // The progress file's notices, their paragraphs.
    PROGRESS_STARTS_FRESH = "You start with fresh progress; nothing was deleted.",
        "你将从新的进度开始；没有删除任何东西。";
    PROGRESS_NO_HOME = "fencelab found no home directory to keep your progress in.",
        "fencelab 找不到可以保存进度的主目录。";
    PROGRESS_CHOOSE_DATA_DIR = "Start it with --data-dir DIR to choose a folder.",
        "用 --data-dir DIR 启动，选一个文件夹。";

    // Said on stderr when the lessons cannot be opened.
    LESSONS_NOT_A_FOLDER = "fencelab: --lessons names a folder of lesson files; without it, the course built into fencelab opens",
        "fencelab：--lessons 应指向存放课程文件的文件夹；不加它则打开 fencelab 内置的课程";

    // The explorer's help, a paragraph each.
    EXPLORER_HELP_WHAT = "The explorer: an adversarial scheduler tries the interleavings of the chosen design — which worker moves next, when time passes (a paused worker), when the user cancels.",
        "探索器：对选定的设计，调度器尝试各种交错——哪个 Worker 先走、时间何时流逝（即暂停的 Worker）、用户何时取消。";
    EXPLORER_HELP_HOW = "Random draws schedules from the seed and shrinks the first failure to a minimal counterexample (evidence, not proof). Exhaustive visits every state within the bounds, breadth first: the shortest counterexample, or safe within bounds.",
        "随机：按种子抽取调度，找到失败后收缩成最短的反例（这是证据，不是证明）。穷举：广度优先遍历界限内的所有状态，给出最短反例，或在界限内证明安全。";
    EXPLORER_HELP_KEYS = "↑↓ choose a setting, ←→ or Space change it (digits type a seed), Enter runs, c or Esc cancels a running search, t plays the counterexample on the timeline. With the mouse: a click focuses a setting, a second click changes it.",
        "↑↓ 选择设置，←→ 或空格更改（数字键输入种子），Enter 运行，c 或 Esc 取消正在运行的搜索，t 在时间线上播放反例。鼠标：点击一项设置选中它，再点击一次更改它。";
}

/// The request for a larger window, with the one it has.
pub fn too_small(width: u16, height: u16, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "fencelab needs a larger window (80×24 is best; this one is {width}×{height}). q quits."
        ),
        Lang::Zh => {
            format!("fencelab 需要更大的窗口（最好 80×24；现在是 {width}×{height}）。按 q 退出。")
        }
    }
}

/// The help on a prediction's timeline, with the keys that set each
/// outcome (`o took effect`, …).
pub fn predict_help(keys: &[String], lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "Predict: ? a step whose result you predict (hidden until solved); the guess row shows your prediction by the key that sets it: {}; Tab moves on to the next ? step. The last-try row: ✓ right · ✗ wrong.",
            keys.join(", ")
        ),
        Lang::Zh => format!(
            "预测：? 表示要你预测结果的步骤（解出之前隐藏）；「预测」一行用设置它的按键字母显示你的预测：{}；按 Tab 跳到下一个 ? 步骤。「上次」一行：✓ 对 · ✗ 错。",
            keys.join("、")
        ),
    }
}

/// The help's line of step glyphs, `C claim · W write …`, as a sentence.
pub fn steps_legend(legend: &[String], lang: Lang) -> String {
    let full_stop = FULL_STOP.get(lang);
    format!(
        "{}{}{full_stop}",
        HELP_STEPS_LABEL.get(lang),
        legend.join(" · ")
    )
}

/// The hints panel's title: how many of them are open.
pub fn hints_title(revealed: usize, total: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Hints · {revealed} of {total}"),
        Lang::Zh => format!("提示 · {revealed}/{total}"),
    }
}

/// The schedule panel's title: how many steps it has.
pub fn schedule_title(steps: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Your schedule · {steps} steps"),
        Lang::Zh => format!("你的调度 · {steps} 步"),
    }
}

/// An exercise's header: its lesson, its level and its title.
pub fn exercise_header(
    lesson: u32,
    level: usize,
    levels: usize,
    title: &str,
    lang: Lang,
) -> String {
    match lang {
        Lang::En => format!("Lesson {lesson} · level {level} of {levels} · {title}"),
        Lang::Zh => format!("第 {lesson} 课 · 第 {level}/{levels} 关 · {title}"),
    }
}

/// A lesson's header: its number and title.
pub fn lesson_header(lesson: u32, title: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Lesson {lesson} · {title}"),
        Lang::Zh => format!("第 {lesson} 课 · {title}"),
    }
}

/// Which level of how many a lesson's path is at.
pub fn level_of(level: usize, levels: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("level {level} of {levels}"),
        Lang::Zh => format!("第 {level}/{levels} 关"),
    }
}

/// A level in the course map's list of a lesson's levels, after its mark.
pub fn level_line(mark: &str, level: usize, title: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{mark} level {level} · {title}"),
        Lang::Zh => format!("{mark} 第 {level} 关 · {title}"),
    }
}

/// The sandbox's heading of a step: its number and tick.
pub fn sandbox_step(step: usize, tick: u64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Step {step} · tick {tick}"),
        Lang::Zh => format!("第 {step} 步 · tick {tick}"),
    }
}

/// Where the sandbox's timeline is (steps are numbered from 0, as the
/// panel, the narration and the scenario's JSON number them: `step 3 / 5`
/// is the fourth of six), and whether it plays.
pub fn sandbox_position(step: usize, last: usize, playing: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("step {step} / {last} · {playing}"),
        Lang::Zh => format!("第 {step} 步 / {last} · {playing}"),
    }
}

/// How many exercises are solved, of how many.
pub fn solved_of(solved: usize, total: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{solved} of {total} solved"),
        Lang::Zh => format!("已解决 {solved}/{total}"),
    }
}

/// The course map's header: exercises done, and the language shown.
pub fn course_counts(done: usize, total: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{done}/{total} exercises · English"),
        Lang::Zh => format!("练习 {done}/{total} · 中文"),
    }
}

/// A lesson's standing on the course map.
pub fn lesson_standing(
    solved: usize,
    exercises: usize,
    read: usize,
    levels: usize,
    lang: Lang,
) -> String {
    match lang {
        Lang::En => {
            format!("Exercises solved: {solved} of {exercises} · levels read: {read} of {levels}")
        }
        Lang::Zh => format!("已解决练习 {solved}/{exercises} · 已读关卡 {read}/{levels}"),
    }
}

/// The front door's way on: the next unfinished exercise's lesson.
pub fn continue_at(lesson: u32, title: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Continue: lesson {lesson} · {title}"),
        Lang::Zh => format!("继续：第 {lesson} 课 · {title}"),
    }
}

/// A lesson by its number, as a timeline opened from it names its source.
pub fn lesson_label(lesson: u32, lang: Lang) -> String {
    match lang {
        Lang::En => format!("lesson {lesson}"),
        Lang::Zh => format!("第 {lesson} 课"),
    }
}

/// Why the worked solution cannot be shown.
pub fn no_worked_solution(why: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("No worked solution: {why}"),
        Lang::Zh => format!("没有参考解答：{why}"),
    }
}

/// Why a schedule cannot be handed in or opened on its timeline.
pub fn schedule_cannot_run(why: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("This schedule cannot run: {why}"),
        Lang::Zh => format!("这个调度无法运行：{why}"),
    }
}

/// Why an answer was not graded.
pub fn could_not_grade(why: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Could not grade: {why}"),
        Lang::Zh => format!("无法评分：{why}"),
    }
}

/// A step's choice and the keys that change it.
pub fn choice_and_keys(choice: &str, letters: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{choice} · {letters} changes it"),
        Lang::Zh => format!("{choice} · 按 {letters} 修改"),
    }
}

/// A step that is no item, and how to reach the next one (marked `blank`).
pub fn not_an_item(said: &str, blank: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{said} · Tab jumps to the next {blank}"),
        Lang::Zh => format!("{said} · 按 Tab 跳到下一个 {blank}"),
    }
}

/// A progress file that could not be read as progress, and why.
pub fn progress_unreadable(file: &str, why: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("fencelab could not read {file}: {why}."),
        Lang::Zh => format!("fencelab 无法读取 {file}：{why}。"),
    }
}

/// Where the unreadable progress file was kept.
pub fn progress_kept_as(kept: &str, dir: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("The file is kept, untouched, as {kept} in {dir}."),
        Lang::Zh => format!("这个文件原样保留为 {dir} 中的 {kept}。"),
    }
}

/// Why the unreadable progress file could not be moved aside.
pub fn progress_not_moved_aside(error: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Moving it aside failed too ({error})."),
        Lang::Zh => format!("把它移到一边也失败了（{error}）。"),
    }
}

/// The footer when a save failed, in the system's words.
pub fn progress_save_failed(error: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Progress not saved: {error}"),
        Lang::Zh => format!("进度没有保存：{error}"),
    }
}

/// The last word on the way out when the last save failed.
pub fn farewell_not_saved(error: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("fencelab: progress not saved: {error}"),
        Lang::Zh => format!("fencelab：进度没有保存：{error}"),
    }
}

/// The last word on the way out when the progress waits in a file of its
/// own for the next start.
pub fn farewell_pending(path: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "fencelab: another fencelab was using the same data folder, so your progress \
             is kept in {path}; it is merged into progress.json when fencelab next starts."
        ),
        Lang::Zh => format!(
            "fencelab：另一个 fencelab 正在使用同一数据文件夹，你的进度已保存在 {path}；\
             下次启动 fencelab 时会合并进 progress.json。"
        ),
    }
}
