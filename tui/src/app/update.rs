//! Key events become [`Message`]s; [`update`] applies a message to the
//! [`App`]. Nothing here does I/O: the runtime saves the progress when it
//! changed, and the tests drive exactly this code.

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use sim_core::course::{Answer, ExerciseKind, grade, solution};

use super::explorer::ExplorerState;
use super::model::{
    App, CourseState, ExerciseState, LessonState, Panel, SandboxState, Screen, Timeline,
};
use super::view;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Message {
    Quit,
    /// Close the overlay, or go back one screen.
    Back,
    ToggleHelp,
    ToggleLang,
    /// Close the notice.
    Dismiss,
    Resize {
        width: u16,
        height: u16,
    },
    /// Time passed while a timeline plays.
    Tick,
    /// Choose in a list.
    Up,
    Down,
    Open,
    ScrollUp,
    ScrollDown,
    PageUp,
    PageDown,
    PrevPage,
    NextPage,
    OpenTimeline,
    StepBack,
    StepForward,
    FirstStep,
    LastStep,
    PlayPause,
    NextCandidate,
    PrevCandidate,
    ToggleMark,
    Submit,
    Hint,
    Solution,
    /// Open the explorer screen.
    Explore,
    /// The explorer: the focused setting's previous or next value.
    PrevValue,
    NextValue,
    /// The explorer: run the search.
    Run,
    /// The explorer: a digit typed on the seed row, or Backspace.
    SeedDigit(u8),
    SeedErase,
    /// The explorer: stop the running search.
    CancelSearch,
    /// A click on a timeline's step.
    SelectStep(usize),
    /// A click on a list's row (the course map, the explorer's settings).
    ClickRow(usize),
}

/// A terminal event as a message. Only key presses count: terminals that
/// report releases and repeats (Windows, the kitty protocol) would
/// otherwise act twice.
pub(crate) fn message_for_event(app: &App, event: &Event) -> Option<Message> {
    match event {
        Event::Key(key) => message_for_key(app, *key),
        Event::Resize(width, height) => Some(Message::Resize {
            width: *width,
            height: *height,
        }),
        Event::Mouse(mouse) => super::mouse::message_for_mouse(app, *mouse),
        _ => None,
    }
}

pub(crate) fn message_for_key(app: &App, key: KeyEvent) -> Option<Message> {
    use Message as M;
    if key.kind != KeyEventKind::Press {
        return None;
    }
    let code = key.code;
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        // Raw mode turns Ctrl-C into a key: it quits like `q`.
        return matches!(code, KeyCode::Char('c')).then_some(M::Quit);
    }
    if app.notice.is_some() {
        return match code {
            KeyCode::Char('q') => Some(M::Quit),
            KeyCode::Enter | KeyCode::Esc | KeyCode::Char(' ') => Some(M::Dismiss),
            _ => None,
        };
    }
    if app.help {
        return match code {
            KeyCode::Char('q') => Some(M::Quit),
            KeyCode::Esc | KeyCode::Enter | KeyCode::Char('?') => Some(M::ToggleHelp),
            _ => None,
        };
    }
    if let Screen::Explorer(state) = app.screen()
        && state.running()
        && code == KeyCode::Esc
    {
        return Some(M::CancelSearch);
    }
    match code {
        KeyCode::Char('q') => return Some(M::Quit),
        KeyCode::Char('?') => return Some(M::ToggleHelp),
        KeyCode::Char('l') => return Some(M::ToggleLang),
        KeyCode::Esc => return Some(M::Back),
        _ => {}
    }
    let timeline_keys = |code: KeyCode| match code {
        KeyCode::Left => Some(M::StepBack),
        KeyCode::Right => Some(M::StepForward),
        KeyCode::Home => Some(M::FirstStep),
        KeyCode::End => Some(M::LastStep),
        KeyCode::Char(' ') => Some(M::PlayPause),
        _ => None,
    };
    let scroll_keys = |code: KeyCode| match code {
        KeyCode::Up | KeyCode::Char('k') => Some(M::ScrollUp),
        KeyCode::Down | KeyCode::Char('j') => Some(M::ScrollDown),
        KeyCode::PageUp => Some(M::PageUp),
        KeyCode::PageDown => Some(M::PageDown),
        _ => None,
    };
    match app.screen() {
        Screen::Course(_) => match code {
            KeyCode::Up | KeyCode::Char('k') => Some(M::Up),
            KeyCode::Down | KeyCode::Char('j') => Some(M::Down),
            KeyCode::Enter | KeyCode::Right => Some(M::Open),
            KeyCode::Char('e') => Some(M::Explore),
            _ => None,
        },
        Screen::Lesson(state) => {
            let exercises_page = app
                .lessons
                .get(state.lesson)
                .is_some_and(|l| state.page >= l.sections.len());
            match code {
                KeyCode::Left => Some(M::PrevPage),
                KeyCode::Right => Some(M::NextPage),
                KeyCode::Up | KeyCode::Char('k') if exercises_page => Some(M::Up),
                KeyCode::Down | KeyCode::Char('j') if exercises_page => Some(M::Down),
                KeyCode::Enter if exercises_page => Some(M::Open),
                KeyCode::Enter => Some(M::NextPage),
                KeyCode::Char(' ') => Some(M::PageDown),
                KeyCode::Char('t') => Some(M::OpenTimeline),
                _ => scroll_keys(code),
            }
        }
        Screen::Sandbox(_) if code == KeyCode::Char('e') => Some(M::Explore),
        Screen::Sandbox(_) => timeline_keys(code).or_else(|| scroll_keys(code)),
        Screen::Explorer(state) => super::explorer::message_for_key(state, code),
        Screen::Exercise(state) => {
            let marking = state.timeline.is_some();
            let own = match code {
                KeyCode::Char('h') => Some(M::Hint),
                KeyCode::Char('s') => Some(M::Solution),
                KeyCode::Enter => Some(M::Submit),
                KeyCode::Char('m') if marking => Some(M::ToggleMark),
                KeyCode::Tab if marking => Some(M::NextCandidate),
                KeyCode::BackTab if marking => Some(M::PrevCandidate),
                _ => None,
            };
            own.or_else(|| if marking { timeline_keys(code) } else { None })
                .or_else(|| scroll_keys(code))
        }
    }
}

/// What a screen's handler asks of the stack.
enum Nav {
    Stay,
    Push(Screen),
}

/// Applies `message` to `app`.
pub(crate) fn update(app: &mut App, message: Message) {
    use Message as M;
    if !matches!(message, M::Tick | M::Resize { .. }) {
        app.status = None;
    }
    match message {
        M::Quit => {
            app.quit = true;
            return;
        }
        M::Resize { width, height } => {
            app.width = width;
            app.height = height;
        }
        M::Dismiss => {
            app.notice = None;
            return;
        }
        M::ToggleHelp => {
            app.help = !app.help;
            return;
        }
        M::ToggleLang => {
            app.progress.lang = if app.lang() == "zh" { "en" } else { "zh" }.to_owned();
        }
        M::Back => {
            if app.help {
                app.help = false;
            } else if app.screens.len() > 1 {
                app.screens.pop();
            } else {
                app.say(
                    "This is the first screen: q quits.",
                    "这是第一个界面：按 q 退出。",
                );
            }
            return;
        }
        _ => {}
    }
    let Some(mut screen) = app.screens.pop() else {
        app.screens
            .push(Screen::Course(CourseState { selected: 0 }));
        return;
    };
    let nav = match &mut screen {
        Screen::Course(state) => course(app, state, message),
        Screen::Lesson(state) => lesson(app, state, message),
        Screen::Sandbox(state) => sandbox(app, state, message),
        Screen::Exercise(state) => exercise(app, state, message),
        Screen::Explorer(state) => match super::explorer::update(app, state, message) {
            Some(next) => Nav::Push(next),
            None => Nav::Stay,
        },
    };
    app.screens.push(screen);
    if let Nav::Push(next) = nav {
        app.screens.push(next);
    }
}

fn course(app: &mut App, state: &mut CourseState, message: Message) -> Nav {
    let count = app.lessons.len();
    match message {
        Message::Up => state.selected = state.selected.saturating_sub(1),
        Message::Down => state.selected = (state.selected + 1).min(count.saturating_sub(1)),
        Message::Explore => {
            return Nav::Push(Screen::Explorer(Box::new(ExplorerState::new(None))));
        }
        Message::ClickRow(row) if row < count && row != state.selected => state.selected = row,
        Message::ClickRow(row) if row < count => return course(app, state, Message::Open),
        Message::Open => {
            let Some(lesson) = app.lessons.get(state.selected) else {
                return Nav::Stay;
            };
            let page = app
                .progress
                .position
                .as_ref()
                .filter(|p| p.lesson == lesson.id)
                .map_or(0, |p| (p.section as usize).min(lesson.sections.len()));
            app.set_position(state.selected, page);
            return Nav::Push(Screen::Lesson(LessonState {
                lesson: state.selected,
                page,
                scroll: 0,
                exercise: 0,
            }));
        }
        _ => {}
    }
    Nav::Stay
}

fn lesson(app: &mut App, state: &mut LessonState, message: Message) -> Nav {
    let Some(lesson) = app.lessons.get(state.lesson) else {
        return Nav::Stay;
    };
    let pages = lesson.sections.len() + 1;
    let exercises = lesson.exercises.len();
    let section_scenario = lesson
        .sections
        .get(state.page)
        .and_then(|s| s.scenario)
        .and_then(|i| lesson.scenarios.get(i))
        .map(|(name, scenario)| (name.clone(), scenario.clone()));
    let lesson_label = format!("lesson {}", lesson.order);
    let max_scroll = view::lesson::max_scroll(app, state);
    let page_rows = view::lesson::page_rows(app);
    match message {
        Message::PrevPage if state.page > 0 => {
            state.page -= 1;
            state.scroll = 0;
            app.set_position(state.lesson, state.page);
        }
        Message::NextPage if state.page + 1 < pages => {
            state.page += 1;
            state.scroll = 0;
            app.set_position(state.lesson, state.page);
        }
        Message::NextPage => {
            app.say(
                "This is the last page of the lesson.",
                "这是本课的最后一页。",
            );
        }
        Message::Up => state.exercise = state.exercise.saturating_sub(1),
        Message::Down => state.exercise = (state.exercise + 1).min(exercises.saturating_sub(1)),
        Message::ClickRow(row) if row >= exercises => {}
        Message::ClickRow(row) if row != state.exercise => state.exercise = row,
        Message::ScrollUp => state.scroll = state.scroll.saturating_sub(1),
        Message::ScrollDown => state.scroll = (state.scroll + 1).min(max_scroll),
        Message::PageUp => state.scroll = state.scroll.saturating_sub(page_rows),
        Message::PageDown => state.scroll = state.scroll.saturating_add(page_rows).min(max_scroll),
        Message::Resize { .. } | Message::ToggleLang => state.scroll = state.scroll.min(max_scroll),
        Message::Open | Message::ClickRow(_) => {
            if let Some(next) = app.exercise_state(state.lesson, state.exercise) {
                return Nav::Push(Screen::Exercise(Box::new(next)));
            }
        }
        Message::OpenTimeline => match section_scenario {
            Some((name, scenario)) => {
                return Nav::Push(Screen::Sandbox(Box::new(SandboxState {
                    source: format!("{lesson_label} · {name}"),
                    timeline: Timeline::new(scenario),
                    detail_scroll: 0,
                })));
            }
            None => app.say("This page has no timeline.", "这一页没有时间线。"),
        },
        _ => {}
    }
    Nav::Stay
}

/// Keys every timeline shares. Returns whether the message was one of them.
fn step_keys(timeline: &mut Timeline, message: Message) -> bool {
    match message {
        Message::StepBack => timeline.back(),
        Message::StepForward => {
            timeline.forward();
        }
        Message::FirstStep => timeline.first(),
        Message::LastStep => timeline.last(),
        Message::SelectStep(index) => {
            timeline.cursor = index.min(timeline.len().saturating_sub(1));
        }
        Message::PlayPause => {
            if !timeline.playing && timeline.cursor + 1 >= timeline.len() {
                timeline.first();
            }
            timeline.playing = !timeline.playing && timeline.len() > 1;
            return true;
        }
        Message::Tick => {
            if timeline.playing && !timeline.forward() {
                timeline.playing = false;
            }
            return true;
        }
        _ => return false,
    }
    timeline.playing = false;
    true
}

fn scroll(value: &mut u16, message: Message, max: u16, page: u16) {
    match message {
        Message::ScrollUp => *value = value.saturating_sub(1),
        Message::ScrollDown => *value = value.saturating_add(1).min(max),
        Message::PageUp => *value = value.saturating_sub(page),
        Message::PageDown => *value = value.saturating_add(page).min(max),
        Message::Resize { .. } | Message::ToggleLang => *value = (*value).min(max),
        _ => {}
    }
}

fn sandbox(app: &mut App, state: &mut SandboxState, message: Message) -> Nav {
    if message == Message::Explore {
        let preset = sim_core::Preset::of(&state.timeline.scenario.design);
        return Nav::Push(Screen::Explorer(Box::new(ExplorerState::new(preset))));
    }
    let before = state.timeline.cursor;
    if step_keys(&mut state.timeline, message) {
        if state.timeline.cursor != before {
            state.detail_scroll = 0;
        }
        return Nav::Stay;
    }
    let (max, page) = view::sandbox::detail_scroll_limits(app, state);
    scroll(&mut state.detail_scroll, message, max, page);
    Nav::Stay
}

fn exercise(app: &mut App, state: &mut ExerciseState, message: Message) -> Nav {
    let Some((lesson, exercise)) = app.lesson_exercise(state.lesson, state.exercise) else {
        return Nav::Stay;
    };
    let (lesson_id, exercise_id) = (lesson.id.clone(), exercise.id.clone());
    let hint_count = exercise.hints.len();
    let kind = exercise.kind.name();
    let is_mark = matches!(exercise.kind, ExerciseKind::Mark { .. });
    let record = app
        .progress
        .exercise(&lesson_id, &exercise_id)
        .cloned()
        .unwrap_or_default();

    if let Some(timeline) = state.timeline.as_mut() {
        let before = timeline.cursor;
        if step_keys(timeline, message) {
            if timeline.cursor != before {
                state.panel = Panel::Step;
                state.panel_scroll = 0;
            }
            return Nav::Stay;
        }
    }
    match message {
        Message::NextCandidate | Message::PrevCandidate => {
            if let Some(timeline) = state.timeline.as_mut() {
                let cursor = timeline.cursor as u32;
                let found = if message == Message::NextCandidate {
                    state.candidates.iter().find(|c| **c > cursor).copied()
                } else {
                    state
                        .candidates
                        .iter()
                        .rev()
                        .find(|c| **c < cursor)
                        .copied()
                };
                match found {
                    Some(step) => {
                        timeline.cursor = step as usize;
                        timeline.playing = false;
                        state.panel = Panel::Step;
                        state.panel_scroll = 0;
                    }
                    None => app.say("No more ○ steps that way.", "这个方向没有 ○ 步骤了。"),
                }
            }
        }
        Message::ToggleMark => {
            if let Some(timeline) = state.timeline.as_ref() {
                let step = timeline.cursor as u32;
                if state.candidates.contains(&step) {
                    if !state.marks.remove(&step) {
                        state.marks.insert(step);
                    }
                    state.panel = Panel::Step;
                } else {
                    app.say(
                        "Only ○ steps can be marked; Tab jumps to the next.",
                        "只有 ○ 步骤可以标记；按 Tab 跳到下一个。",
                    );
                }
            }
        }
        Message::Submit if is_mark => {
            let answer = Answer::Mark(state.marks.iter().copied().collect());
            let graded = app
                .lesson_exercise(state.lesson, state.exercise)
                .map(|(lesson, exercise)| grade(lesson, exercise, &answer));
            match graded {
                Some(Ok(result)) => {
                    app.progress
                        .record_attempt(&lesson_id, &exercise_id, result.correct);
                    if result.correct {
                        app.say(
                            "✓ Complete. s shows the worked solution.",
                            "✓ 完成。按 s 查看参考解答。",
                        );
                    } else {
                        app.say(
                            "Not yet: step through with ← → to see each verdict.",
                            "还不对：用 ← → 逐步查看每一步的判定。",
                        );
                    }
                    state.grade = Some(result);
                    state.panel = Panel::Step;
                    state.panel_scroll = 0;
                }
                Some(Err(why)) => app.say(
                    format!("Could not grade: {why}"),
                    format!("无法评分：{why}"),
                ),
                None => {}
            }
        }
        Message::Submit => {
            app.say(
                format!("Answering {kind} exercises here comes next."),
                format!("在这里作答 {kind} 练习即将支持。"),
            );
        }
        Message::Hint => {
            if record.hints_used as usize >= hint_count {
                if record.attempts == 0 {
                    app.say(
                        "That was the last hint. Now try an answer.",
                        "这是最后一条提示。试着作答吧。",
                    );
                } else {
                    app.say(
                        "That was the last hint; s shows the worked solution.",
                        "这是最后一条提示；按 s 查看参考解答。",
                    );
                }
            } else {
                app.progress
                    .exercise_mut(&lesson_id, &exercise_id)
                    .hints_used += 1;
            }
            state.panel = Panel::Hints;
            state.panel_scroll = u16::MAX;
        }
        Message::Solution => {
            if record.attempts == 0 {
                if is_mark {
                    app.say(
                        "Answer first (Enter); then s shows the worked solution.",
                        "先作答（Enter），然后按 s 查看参考解答。",
                    );
                } else {
                    app.say(
                        format!("The worked solution follows an answer: answering {kind} exercises here comes next."),
                        format!("参考解答在作答之后显示：在这里作答 {kind} 练习即将支持。"),
                    );
                }
            } else {
                if state.solution.is_none() {
                    let computed = app
                        .lesson_exercise(state.lesson, state.exercise)
                        .map(|(lesson, exercise)| solution(lesson, exercise));
                    match computed {
                        Some(Ok(result)) => state.solution = Some(result),
                        Some(Err(why)) => {
                            app.say(
                                format!("No worked solution: {why}"),
                                format!("没有参考解答：{why}"),
                            );
                            return Nav::Stay;
                        }
                        None => return Nav::Stay,
                    }
                }
                app.progress
                    .exercise_mut(&lesson_id, &exercise_id)
                    .solution_seen = true;
                state.panel = Panel::Solution;
                state.panel_scroll = 0;
            }
        }
        _ => {}
    }
    let (max, page) = view::exercise::panel_scroll_limits(app, state);
    scroll(&mut state.panel_scroll, message, max, page);
    state.panel_scroll = state.panel_scroll.min(max);
    Nav::Stay
}
