// The page's own words, in English and Chinese. Lesson text comes from
// the course itself.

export const STRINGS = {
  en: {
    pageTitle: 'fencelab — leases, fencing tokens and stale writes',
    skip: 'Skip to content', mainNav: 'Main',
    kindMark: 'mark', kindPredict: 'predict', kindDesign: 'design', kindBreak: 'break', kindQuiz: 'quiz', kindSql: 'SQL',
    outcomeOk: 'ok', outcomeRejected: 'rejected', outcomeDuplicate: 'duplicate', outcomeNoop: 'noop', outcomeWaiting: 'waiting',
    worldWorkers: '{n} workers', worldTargets: '{n} targets', worldTtl: 'TTL {n}', worldJobs: '{n} job(s)',
    worldCancel: 'cancel', worldHeartbeat: 'heartbeat', worldRestarted: 'restarted', listSep: ', ',
    seedWord: 'seed', targetDesign: 'design',
    course: 'Course', explorer: 'Explorer', sandbox: 'Sandbox',
    startLesson1: 'Start lesson 1', continueNext: 'Continue', continueWhere: 'lesson {n} · {title}',
    storyReplay: 'Play again', storyIntro: 'Two short stories with the same schedule, run just now by the simulator in your browser:',
    allDone: 'Every exercise is complete: review any lesson below.', allLessons: 'All lessons',
    courseDetails: 'Concepts and ids', tries1: '1 try', notStarted: 'not started', selfCheckNote: 'Tick each level you reach in lesson 11’s self-check: basic knows the problem, intermediate fixes the database, senior accounts for every resource.', sandboxExample: 'Start from an example:', sandboxPick: 'choose a lesson’s scenario…',
    knobCommit: 'The commit checks', knobRenew: 'The renew checks', knobToken: 'The token claims hand out', knobClock: 'Whose clock judges a lease',
    keyNothing: 'none', reconcileWord: 'reconcile', violationStale: 'wanted: an outdated generation’s effect takes place', violationAfterTerminal: 'wanted: an effect after the job ended', triesN: '{n} tries', stepNumber: 'step {n}',
    bootFailed: 'The simulator could not start in this browser: ',
    mapIntro: 'A lease lets another worker take over a job; it does not stop the old one. Only a fencing token, checked where the write lands, keeps stale writes out. Every verdict below is computed by the simulator running in your browser.',
    lesson: 'Lesson', sectionsRead: 'sections read', exercisesDone: 'exercises done',
    open: 'Open',
    progressTitle: 'Your progress', exportProgress: 'Export progress', importProgress: 'Import progress',
    resetProgress: 'Reset progress', resetConfirm: 'Forget all progress in this browser?',
    imported: 'Progress imported.', importFailed: 'That file is not a progress record this page can read: ',
    progressNote: 'Progress is kept in this browser only; the file is the same as the terminal app’s progress file.',
    damaged: 'Your saved progress could not be read, so the page started fresh. The damaged copy is kept; you can download it. Reason: ',
    downloadDamaged: 'Download the damaged copy', dismiss: 'Dismiss',
    storageFailed: 'Progress cannot be saved in this browser (storage is unavailable).',
    back: '← All lessons', concepts: 'Concepts',
    review: 'Progress', solvedOf: '{n} of {m} solved', nextUnfinished: 'Next unfinished', allSolved: 'Every exercise is solved.', where: 'Lesson.level', hintsCol: 'Hints', triesCol: 'Tries', stateCol: 'State', solved: 'solved', revealed: 'solution shown', tried: 'tried', levels: 'Levels', levelN: 'Level {n}', prevLevel: 'Previous level', nextLevel: 'Next level', exercise: 'Exercise',
    timeline: 'Timeline', step: 'Step', tick: 'tick', play: '▶ Play', pause: '‖ Pause', prev: '◀ Previous', next: 'Next ▶', last: 'Last »',
    timelineHelp: 'Click a step or use ← → (Home, End) when the timeline has focus.',
    narration: 'Every step in words', jobTable: 'Job table after this step', targets: 'Targets at the end',
    stepSql: 'The SQL of this step', sqlNotSent: 'not sent: the worker was blocked, had crashed, or had not seen the row claimable', rowChanged: 'row changed', rowsChanged: 'rows changed',
    owner: 'owner', leaseUntil: 'lease until', fence: 'fence', state: 'state', value: 'value', protect: 'protection',
    legend: 'Legend', jobs: 'job table',
    legendItems: [['✓', 'took effect'], ['✗', 'rejected'], ['↺', 'duplicate (no new effect)'], ['·', 'changed nothing'], ['◷', 'waiting for a row lock'], ['‼', 'violation: a stale or after-terminal effect'], ['?', 'outcome hidden: predict it'], ['▬', 'a lease (generation, until tick); paler: time spent'], ['›', 'a lease running on past the timeline\'s edge'], ['┈', 'paused or crashed'], ['↘', 'a request in flight: from its send to its arrival']],
    violation: 'violation', violations: 'violations', noViolations: 'No violation: every effect was safe.',
    hint: 'Hint', showHint: 'Show a hint', nextHint: 'Next hint', noMoreHints: 'No more hints.',
    submit: 'Check my answer', checkingDesign: 'Checking your design: the explorers try every schedule…', solution: 'Show the solution', solutionAfterAttempt: 'The solution opens after your first attempt.',
    takeaway: 'Takeaway', attempts: 'attempts', completed: 'completed',
    markPrompt: 'Mark every step that must be rejected (click it on the timeline or tick it here):',
    marked: 'marked as must be rejected', yourMarks: 'your marks',
    predictPrompt: 'Predict each step’s outcome:', choose: 'choose…',
    quizMultiple: 'Choose every correct option:', quizSingle: 'Choose one option:',
    designPrompt: 'Choose the design; the exhaustive explorer then attacks it in this world. The answer must be safe and no costlier than needed:',
    designWorld: 'World',
    designCost: 'cost {n}', designReconcile: 'send to reconciliation (its effects stay possible) · cost {n}', designTotal: 'Total cost: {n}',
    breakPrompt: 'Edit the schedule until the design breaks, then check it. (The same steps as JSON, for pasting:)',
    breakJsonError: 'The schedule is not valid JSON: ',
    right: 'right', wrong: 'wrong', correct: 'Correct', notYet: 'Not yet',
    counterexample: 'Counterexample', yourSchedule: 'Your schedule',
    key: 'The key',
    exploreTitle: 'Explorer: attack a design with every schedule',
    exploreIntro: 'An adversarial scheduler chooses which worker moves, when time passes (a worker that does not move while time passes is paused) and when the user cancels. The random explorer samples schedules from a seed and shrinks the first failure; the exhaustive explorer visits every state within bounds.',
    design: 'Design', workers: 'Workers', ttl: 'TTL (ticks)', jobsCount: 'Jobs', targetsField: 'Targets (protection per target)',
    noTargets: 'none (job table alone)', cancel: 'The user may cancel once', heartbeat: 'Heartbeat renews', restarted: 'A restarted incarnation',
    exhaustive: 'Exhaustive (every schedule within bounds)', seed: 'Seed', cases: 'Random cases', maxTime: 'Max time', maxClaims: 'Max claims', maxInFlight: 'Requests in flight at once (0: no delays)', maxDelay: 'Max delay (ticks a request travels)',
    run: 'Run the explorer', cancelRun: 'Cancel', running: 'Searching…', shrinking: 'Shrinking…',
    cancelled: 'Cancelled: the worker was stopped, no verdict.', verdict: 'Verdict', safe: 'SAFE within bounds', unsafe: 'UNSAFE', incomplete: 'INCOMPLETE (a limit stopped the search)',
    states: 'states', casesDone: 'cases', depth: 'depth', elapsed: 'ms in the worker', schedule: 'Schedule',
    sandboxTitle: 'Sandbox: run your own scenario',
    sandboxIntro: 'Paste or open a scenario file (the format of docs/scenario-format.md) and run it.',
    openFile: 'Open a file', runScenario: 'Run', sandboxError: 'The scenario has mistakes (LINE:COL: message):',
    notFound: 'There is nothing here. ', toMap: 'Go to the course map',
    selfCheck: 'Self-check', basic: 'basic', intermediate: 'intermediate', senior: 'senior',
    share: 'Share', shareLink: 'Share link', shareMade: 'Copy this link:', shareCopied: 'Link copied; it is also below.',
    shareTitle: 'A shared scenario', shareOpening: 'Opening the shared scenario…',
    shareGarbage: 'This share link is damaged: it does not hold a compressed scenario file.',
    shareTooLong: 'This share link is too long (at most 12000 characters); share the scenario as a file instead.',
    shareTooBig: 'This share link unpacks to more than 64 KB; share the scenario as a file instead.',
    editorCaption: 'The schedule, one step a row', editorAt: 'tick', editorWorker: 'worker', editorDo: 'action',
    editorTarget: 'target', editorJob: 'job', editorOp: 'op', editorValue: 'value', editorMove: 'move',
    addStep: '+ Add a step', removeStep: 'Remove', moveUp: 'Up', moveDown: 'Down', stepN: 'step',
    previewTitle: 'Preview of your schedule (outcomes only; checking it tells whether it breaks the design)',
    previewError: 'The schedule cannot run yet: ', none: '—',
  },
  zh: {
    pageTitle: 'fencelab —— 租约、fencing 令牌与旧代次的写入',
    skip: '跳到正文', mainNav: '主导航',
    kindMark: '标记', kindPredict: '预测', kindDesign: '设计', kindBreak: '攻破', kindQuiz: '选择题', kindSql: 'SQL',
    outcomeOk: '生效', outcomeRejected: '被拒绝', outcomeDuplicate: '重复', outcomeNoop: '无效果', outcomeWaiting: '等待中',
    worldWorkers: '{n} 个 Worker', worldTargets: '{n} 个目标', worldTtl: 'TTL {n}', worldJobs: '{n} 个任务',
    worldCancel: '允许取消', worldHeartbeat: '心跳续约', worldRestarted: '含重启后的进程', listSep: '，',
    seedWord: '种子', targetDesign: '设计自带',
    course: '课程', explorer: '探索器', sandbox: '沙盒',
    startLesson1: '开始第 1 课', continueNext: '继续', continueWhere: '第 {n} 课 · {title}',
    storyReplay: '再播一遍', storyIntro: '同一个调度的两个小故事，刚刚由你浏览器里的模拟器运行得出：',
    allDone: '所有练习都已完成：可以复习下面任何一课。', allLessons: '全部课程',
    courseDetails: '概念编号与 id', tries1: '已尝试 1 次', notStarted: '未开始', selfCheckNote: '在第 11 课的自我检查中达到哪一层，就勾选哪一层：基础层知道问题在哪，中级层修好了数据库，高级层对每个资源都有交代。', sandboxExample: '从一个示例开始：', sandboxPick: '选择某一课的场景……',
    knobCommit: '提交时检查', knobRenew: '续约时检查', knobToken: '领取时发放的令牌', knobClock: '由谁的时钟判断租约',
    keyNothing: '无', reconcileWord: '对账', violationStale: '要求：旧代次的操作生效', violationAfterTerminal: '要求：任务结束之后仍有操作生效', triesN: '已尝试 {n} 次', stepNumber: '第 {n} 步',
    bootFailed: '模拟器无法在这个浏览器中启动：',
    mapIntro: '租约让别的 Worker 可以接手任务，却不会让旧的 Worker 停下。只有在写入落地处检查的 fencing 令牌才能挡住旧代次的写入。下面每个结论都由在你浏览器里运行的模拟器计算得出。',
    lesson: '第', sectionsRead: '节已读', exercisesDone: '个练习已完成',
    open: '打开',
    progressTitle: '学习进度', exportProgress: '导出进度', importProgress: '导入进度',
    resetProgress: '清空进度', resetConfirm: '要清除这个浏览器里的全部进度吗？',
    imported: '进度已导入。', importFailed: '这个文件不是本页能读取的进度记录：',
    progressNote: '进度只保存在这个浏览器里；导出的文件与终端应用的进度文件相同。',
    damaged: '已保存的进度无法读取，页面从头开始。损坏的副本已保留，可以下载。原因：',
    downloadDamaged: '下载损坏的副本', dismiss: '关闭',
    storageFailed: '这个浏览器无法保存进度（存储不可用）。',
    back: '← 全部课程', concepts: '概念',
    review: '学习进度', solvedOf: '已解决 {n}/{m}', nextUnfinished: '下一道未完成', allSolved: '所有练习都已解决。', where: '课.关', hintsCol: '提示', triesCol: '尝试', stateCol: '状态', solved: '已解决', revealed: '看过解答', tried: '尝试过', levels: '关卡', levelN: '第 {n} 关', prevLevel: '上一关', nextLevel: '下一关', exercise: '练习',
    timeline: '时间线', step: '步骤', tick: 'tick', play: '▶ 播放', pause: '‖ 暂停', prev: '◀ 上一步', next: '下一步 ▶', last: '最后一步 »',
    timelineHelp: '点击某一步，或在时间线获得焦点时使用 ← →（Home、End）。',
    narration: '逐步文字说明', jobTable: '这一步之后的任务表', targets: '结束时的目标',
    stepSql: '这一步的 SQL', sqlNotSent: '未发送：Worker 被阻塞、已崩溃，或未看到这一行可领取', rowChanged: '行被改动', rowsChanged: '行被改动',
    owner: 'owner', leaseUntil: '租约到', fence: 'fence', state: '状态', value: '值', protect: '保护方式',
    legend: '图例', jobs: '任务表',
    legendItems: [['✓', '生效'], ['✗', '被拒绝'], ['↺', '重复（没有新效果）'], ['·', '没有改变'], ['◷', '在等行锁'], ['‼', '违例：旧代次或任务结束后的效果'], ['?', '结果已隐藏：请预测'], ['▬', '租约（代次，到期 tick）；变淡：已用掉'], ['›', '租约延续到时间线之外'], ['┈', '暂停或崩溃'], ['↘', '在途的请求：从发出到到达']],
    violation: '次违例', violations: '次违例', noViolations: '没有违例：每个效果都是安全的。',
    hint: '提示', showHint: '显示提示', nextHint: '下一条提示', noMoreHints: '没有更多提示了。',
    submit: '检查答案', checkingDesign: '正在检查你的设计：探索器在尝试每一种调度……', solution: '查看解答', solutionAfterAttempt: '先尝试一次，才能查看解答。',
    takeaway: '要点', attempts: '次尝试', completed: '已完成',
    markPrompt: '标出每一个必须被拒绝的步骤（在时间线上点击，或在这里勾选）：',
    marked: '已标为必须拒绝', yourMarks: '你的标记',
    predictPrompt: '预测每一步的结果：', choose: '请选择……',
    quizMultiple: '选出所有正确的选项：', quizSingle: '选择一个选项：',
    designPrompt: '选择设计；穷举探索器随后会在这个世界里攻击它。答案必须安全，代价也不能超过所需：',
    designWorld: '世界',
    designCost: '代价 {n}', designReconcile: '交给对账（它的效果仍可能发生）· 代价 {n}', designTotal: '总代价：{n}',
    breakPrompt: '编辑调度，直到设计被攻破，然后检查。（同样的步骤的 JSON 形式，可粘贴：）',
    breakJsonError: '调度不是合法的 JSON：',
    right: '正确', wrong: '错误', correct: '正确', notYet: '还没有',
    counterexample: '反例', yourSchedule: '你的调度',
    key: '答案',
    exploreTitle: '探索器：用所有调度攻击一个设计',
    exploreIntro: '一个对抗性的调度器决定哪个 Worker 行动、时间何时流逝（时间流逝时不动的 Worker 就是暂停了）以及用户何时取消。随机探索器按种子抽样调度并缩减第一个失败；穷举探索器访问界限内的每个状态。',
    design: '设计', workers: 'Worker 数', ttl: 'TTL（tick）', jobsCount: '任务数', targetsField: '目标（每个目标的保护方式）',
    noTargets: '无（只有任务表）', cancel: '用户可以取消一次', heartbeat: '心跳续约', restarted: '包含一个重启后的进程',
    exhaustive: '穷举（界限内的所有调度）', seed: '种子', cases: '随机调度数', maxTime: '最大时间', maxClaims: '最多领取次数', maxInFlight: '同时在途的请求数（0：没有延迟）', maxDelay: '最大延迟（请求在途的 tick 数）',
    run: '运行探索器', cancelRun: '取消', running: '搜索中……', shrinking: '缩减中……',
    cancelled: '已取消：Worker 已停止，没有结论。', verdict: '结论', safe: '在界限内安全', unsafe: '不安全', incomplete: '未完成（搜索被上限截停）',
    states: '个状态', casesDone: '个调度', depth: '深度', elapsed: '毫秒（在 Worker 中）', schedule: '调度',
    sandboxTitle: '沙盒：运行你自己的场景',
    sandboxIntro: '粘贴或打开一个场景文件（格式见 docs/scenario-format.md）并运行。',
    openFile: '打开文件', runScenario: '运行', sandboxError: '场景有错误（行:列: 信息）：',
    notFound: '这里什么都没有。', toMap: '回到课程',
    selfCheck: '自我检查', basic: '基础', intermediate: '中级', senior: '高级',
    share: '分享', shareLink: '分享链接', shareMade: '复制这个链接：', shareCopied: '链接已复制；下方也有。',
    shareTitle: '分享的场景', shareOpening: '正在打开分享的场景……',
    shareGarbage: '这个分享链接已损坏：其中没有压缩的场景文件。',
    shareTooLong: '这个分享链接太长（最多 12000 个字符）；请以文件形式分享场景。',
    shareTooBig: '这个分享链接解压后超过 64 KB；请以文件形式分享场景。',
    editorCaption: '调度，每行一步', editorAt: 'tick', editorWorker: 'Worker', editorDo: '动作',
    editorTarget: '目标', editorJob: '任务', editorOp: 'op', editorValue: '值', editorMove: '移动',
    addStep: '+ 添加一步', removeStep: '删除', moveUp: '上移', moveDown: '下移', stepN: '步骤',
    previewTitle: '你的调度预览（只显示结果；检查答案才会判断它是否攻破了设计）',
    previewError: '这个调度还不能运行：', none: '—',
  },
};

let current = 'en';

export function setLang(lang) {
  current = lang === 'zh' ? 'zh' : 'en';
}

export function lang() {
  return current;
}

/** The page's word for `key` in the current language. */
export function t(key) {
  return STRINGS[current][key] ?? STRINGS.en[key] ?? key;
}

/** `t(key)` with every `{name}` replaced by `values[name]`. */
export function tf(key, values) {
  return t(key).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** The key of an exercise kind's name (`mark` → `kindMark`). */
export function kindKey(kind) {
  return KIND_KEYS[kind] ?? 'exercise';
}

/** The key of an outcome's name (`rejected` → `outcomeRejected`). */
export function outcomeKey(outcome) {
  return OUTCOME_KEYS[outcome];
}

// Spelled out, so that a test can find every key the page uses.
const KIND_KEYS = { mark: 'kindMark', predict: 'kindPredict', design: 'kindDesign', break: 'kindBreak', quiz: 'kindQuiz' };
const OUTCOME_KEYS = { ok: 'outcomeOk', rejected: 'outcomeRejected', duplicate: 'outcomeDuplicate', noop: 'outcomeNoop', waiting: 'outcomeWaiting' };
