//! Key events become [`Message`]s; [`update`] applies a message to the
//! [`App`]. Nothing here does I/O: the runtime saves the progress when it
//! changed, and the tests drive exactly this code.

pub(crate) mod explorer;
pub(crate) mod mouse;

use ratatui::crossterm::event::Event;
use sim_core::course::{
    Act, Answer, CourseError, Edit, EditRefused, EditorKind, FeedbackView, Input, Tone,
};
use sim_core::words::terminal as words;

use super::explorer::ExplorerState;
pub(crate) use super::keys::{Message, message_for_key};
use super::model::{
    App, CourseState, ExerciseState, LessonState, Panel, ReviewState, SandboxState, Screen,
    SqlCommand, SqlRequest, SqlRunning, SqlWork, Timeline, Work,
};
use super::{layout, measure};

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
        Event::Mouse(mouse) => mouse::message_for_mouse(app, *mouse),
        _ => None,
    }
}

/// What a screen's handler asks of the stack.
enum Nav {
    Stay,
    Push(Screen),
    /// Several screens at once, the last on top.
    PushAll(Vec<Screen>),
}

/// Applies `message` to `app`.
pub(crate) fn update(app: &mut App, message: Message) {
    use Message as M;
    if !matches!(message, M::Tick | M::Resize { .. }) {
        app.status = None;
    }
    // A click cannot leave or change an exercise whose statements run.
    let waits = matches!(
        message,
        M::Quit
            | M::Resize { .. }
            | M::Tick
            | M::CancelSql
            | M::ToggleLang
            | M::ToggleHelp
            | M::Dismiss
    ) || app.help;
    if app.sql_running() && !waits {
        app.say(words::SQL_WAIT_FOR_RUN);
        return;
    }
    if app_wide(app, message) {
        return;
    }
    on_screen(app, message);
}

/// The messages every screen answers alike: quitting, the window's size,
/// the notice, the help overlay, the language and going back. `true`: the
/// message is done with; else the screen on top has it too.
fn app_wide(app: &mut App, message: Message) -> bool {
    use Message as M;
    match message {
        M::Quit => {
            app.quit = true;
            return true;
        }
        M::Resize { width, height } => {
            app.width = width;
            app.height = height;
        }
        M::Dismiss => {
            app.notice = None;
            return true;
        }
        M::ToggleHelp => {
            app.help = !app.help;
            app.help_scroll = 0;
            return true;
        }
        M::ScrollUp | M::ScrollDown | M::PageUp | M::PageDown if app.help => {
            let max = measure::help_scroll_max(app);
            let page = app.height.saturating_sub(4).max(1);
            scroll(&mut app.help_scroll, message, max, page);
            return true;
        }
        M::ToggleLang => {
            let other = app.lang().other();
            app.session.set_lang(other);
            // Every open exercise's screen in the new language, one under
            // a timeline opened from it too.
            for screen in &mut app.screens {
                if let Screen::Exercise(state) = screen
                    && let Ok(again) =
                        app.session
                            .screen(&state.screen.lesson, &state.screen.exercise, other)
                {
                    state.screen = again;
                }
            }
        }
        M::Back => {
            back(app);
            return true;
        }
        _ => {}
    }
    false
}

/// Closes the help overlay, or the screen on top (an exercise keeping its
/// answer for when it is reopened); the first screen stays.
fn back(app: &mut App) {
    if app.help {
        app.help = false;
    } else if app.screens.len() > 1 {
        // Back on the map from a lesson: a relaunch opens the map too.
        if matches!(app.screens.last(), Some(Screen::Lesson(_)))
            && matches!(
                app.screens.get(app.screens.len() - 2),
                Some(Screen::Course(_))
            )
        {
            app.session.leave_lesson();
        }
        // Leaving an exercise keeps its answer for when it is reopened.
        if let Some(Screen::Exercise(mut state)) = app.screens.pop() {
            // The session keeps the answer (the progress record, for the
            // next run and the page) and drops the feedback shown.
            keep_answer(app, &mut state);
            let _ = act(app, &mut state, &Act::Leave);
            app.drafts
                .insert((state.lesson, state.exercise), state.work);
        }
    } else {
        app.say(words::FIRST_SCREEN);
    }
}

/// Hands `message` to the screen on top, then opens what it asks for.
fn on_screen(app: &mut App, message: Message) {
    let Some(mut screen) = app.screens.pop() else {
        app.screens
            .push(Screen::Course(CourseState { selected: 0 }));
        return;
    };
    let nav = match &mut screen {
        Screen::Course(state) => course(app, state, message),
        Screen::Lesson(state) => lesson(app, state, message),
        Screen::Review(state) => review(app, state, message),
        Screen::Sandbox(state) => sandbox(app, state, message),
        Screen::Exercise(state) => exercise(app, state, message),
        Screen::Explorer(state) => match explorer::update(app, state, message) {
            Some(next) => Nav::Push(next),
            None => Nav::Stay,
        },
    };
    app.screens.push(screen);
    match nav {
        Nav::Stay => {}
        Nav::Push(next) => app.screens.push(next),
        Nav::PushAll(next) => app.screens.extend(next),
    }
}

fn course(app: &mut App, state: &mut CourseState, message: Message) -> Nav {
    let count = app.lessons().len();
    match message {
        Message::Up => state.selected = state.selected.saturating_sub(1),
        Message::Down => state.selected = (state.selected + 1).min(count.saturating_sub(1)),
        Message::ListStart => state.selected = 0,
        Message::ListEnd => state.selected = count.saturating_sub(1),
        Message::Explore => {
            return Nav::Push(Screen::Explorer(Box::new(ExplorerState::new(None))));
        }
        Message::Continue => {
            let Some((lesson, exercise)) = app.session.next_unfinished_after(None) else {
                app.say(words::ALL_SOLVED);
                return Nav::Stay;
            };
            state.selected = lesson;
            return open_in_lesson(app, lesson, exercise);
        }
        Message::Review => return Nav::Push(Screen::Review(ReviewState::default())),
        Message::Practice => {
            let Some(pool) = app.lessons().get(state.selected).map(|l| l.id.clone()) else {
                return Nav::Stay;
            };
            if let Some(round) = app.practice_state(&pool) {
                return Nav::Push(Screen::Exercise(Box::new(round)));
            }
        }
        Message::ClickRow(row) if row < count && row != state.selected => state.selected = row,
        Message::ClickRow(row) if row < count => return course(app, state, Message::Open),
        Message::Open => {
            let Some(lesson) = app.lessons().get(state.selected) else {
                return Nav::Stay;
            };
            let page = app.session.resume_page(&lesson.id) as usize;
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
    let Some(lesson) = app.lessons().get(state.lesson) else {
        return Nav::Stay;
    };
    let pages = lesson.sections.len() + 1;
    let exercises = lesson.exercises.len();
    let max_scroll = measure::lesson_max_scroll(app, state);
    let page_rows = layout::lesson_page_rows(app, state);
    let level = layout::level_exercises(lesson, state.page);
    let on_section = state.page < lesson.sections.len();
    if on_section && !level.is_empty() && !level.contains(&state.exercise) {
        // A section page's choice is among its own level's exercises.
        state.exercise = level[0];
    }
    match message {
        Message::Review => return Nav::Push(Screen::Review(ReviewState::default())),
        Message::Practice => {
            let pool = lesson.id.clone();
            if let Some(round) = app.practice_state(&pool) {
                return Nav::Push(Screen::Exercise(Box::new(round)));
            }
        }
        Message::NextItem | Message::PrevItem if on_section && !level.is_empty() => {
            let at = level.iter().position(|e| *e == state.exercise).unwrap_or(0);
            let next = if message == Message::NextItem {
                (at + 1) % level.len()
            } else {
                (at + level.len() - 1) % level.len()
            };
            state.exercise = level[next];
        }
        Message::PrevPage if state.page > 0 => turn_to(app, state, state.page - 1),
        Message::NextPage if state.page + 1 < pages => turn_to(app, state, state.page + 1),
        Message::NextPage => {
            app.say(words::LESSON_LAST_PAGE);
        }
        Message::Up => state.exercise = state.exercise.saturating_sub(1),
        Message::Down => state.exercise = (state.exercise + 1).min(exercises.saturating_sub(1)),
        Message::ListStart => state.exercise = 0,
        Message::ListEnd => state.exercise = exercises.saturating_sub(1),
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
        Message::OpenTimeline => return open_section_timeline(app, state),
        _ => {}
    }
    Nav::Stay
}

/// Turns the lesson to `page`, at its top, on its level's first exercise.
fn turn_to(app: &mut App, state: &mut LessonState, page: usize) {
    state.page = page;
    state.scroll = 0;
    app.set_position(state.lesson, state.page);
    state.exercise = first_of_level(app, state);
}

/// The sandbox on the timeline of the section on screen, if it has one.
fn open_section_timeline(app: &mut App, state: &LessonState) -> Nav {
    let Some(lesson) = app.lessons().get(state.lesson) else {
        return Nav::Stay;
    };
    let section_scenario = lesson
        .sections
        .get(state.page)
        .and_then(|s| s.scenario)
        .and_then(|i| lesson.scenarios.get(i))
        .map(|(name, scenario)| (name.clone(), scenario.clone()));
    let lesson_label = words::lesson_label(lesson.order, app.lang());
    match section_scenario {
        Some((name, scenario)) => Nav::Push(Screen::Sandbox(Box::new(SandboxState {
            source: format!("{lesson_label} · {name}"),
            timeline: Timeline::new(scenario),
            detail_scroll: 0,
        }))),
        None => {
            app.say(words::PAGE_HAS_NO_TIMELINE);
            Nav::Stay
        }
    }
}

/// The first exercise of the level on screen (the first of all on the
/// exercises page, which lists them all).
fn first_of_level(app: &App, state: &LessonState) -> usize {
    app.lessons()
        .get(state.lesson)
        .filter(|l| state.page < l.sections.len())
        .and_then(|l| layout::level_exercises(l, state.page).first().copied())
        .unwrap_or(0)
}

/// Opens exercise `exercise` of lesson `lesson` with its level's page
/// under it, so Esc goes where it would had the learner walked there.
fn open_in_lesson(app: &mut App, lesson: usize, exercise: usize) -> Nav {
    let page = app
        .lessons()
        .get(lesson)
        .map_or(0, |l| l.level_of(exercise));
    if app.session.read_first(lesson, exercise) {
        // The level's text first; the exercise is the one Enter opens.
        app.set_position(lesson, page);
        return Nav::PushAll(vec![Screen::Lesson(LessonState {
            lesson,
            page,
            scroll: 0,
            exercise,
        })]);
    }
    let Some(next) = app.exercise_state(lesson, exercise) else {
        return Nav::Stay;
    };
    app.set_position(lesson, page);
    Nav::PushAll(vec![
        Screen::Lesson(LessonState {
            lesson,
            page,
            scroll: 0,
            exercise,
        }),
        Screen::Exercise(Box::new(next)),
    ])
}

/// The review screen: every exercise, and the way to the next unfinished.
fn review(app: &mut App, state: &mut ReviewState, message: Message) -> Nav {
    // The review's rows are the course order's (lesson, exercise) pairs.
    let rows = app.session.course_order();
    let count = rows.len();
    match message {
        Message::Up => state.selected = state.selected.saturating_sub(1),
        Message::Down => state.selected = (state.selected + 1).min(count.saturating_sub(1)),
        Message::ListStart => state.selected = 0,
        Message::ListEnd => state.selected = count.saturating_sub(1),
        Message::ClickRow(row) if row < count && row != state.selected => state.selected = row,
        Message::Open | Message::ClickRow(_) => {
            if let Some(&(lesson, exercise)) = rows.get(state.selected) {
                return open_in_lesson(app, lesson, exercise);
            }
        }
        Message::Continue => {
            let Some((lesson, exercise)) = app.session.next_unfinished_after(None) else {
                app.say(words::ALL_SOLVED);
                return Nav::Stay;
            };
            if let Some(at) = rows.iter().position(|at| *at == (lesson, exercise)) {
                state.selected = at;
            }
            return open_in_lesson(app, lesson, exercise);
        }
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
    let (max, page) = measure::sandbox_detail_scroll(app, state);
    scroll(&mut state.detail_scroll, message, max, page);
    Nav::Stay
}

/// An exercise's message, then its answer in the making handed to the
/// session ([`Act::Change`]) when it changed, so the screen drawn is the
/// session's for this answer, in the learner's language.
fn exercise(app: &mut App, state: &mut ExerciseState, message: Message) -> Nav {
    if message == Message::NextRound {
        // Only offered once the round is finished (the key's `when`).
        let pool = (state.screen.practice.as_ref())
            .filter(|p| p.round_finished)
            .map(|p| p.pool.clone());
        if let Some(next) = pool.and_then(|pool| app.practice_state(&pool)) {
            *state = next;
        }
        return Nav::Stay;
    }
    let nav = exercise_message(app, state, message);
    keep_answer(app, state);
    // The focused line (a knob, a step, an option) comes into view after
    // every key but a scrolling one: those may take it out of view to show
    // the task's or the feedback's rest below.
    let scrolls = [
        Message::ScrollUp,
        Message::ScrollDown,
        Message::PageUp,
        Message::PageDown,
    ];
    if !scrolls.contains(&message) {
        state.panel_scroll = measure::exercise_panel_follow(app, state);
    }
    nav
}

/// The session's screen for the answer in the making: [`Act::Change`] when
/// the answer changed (an empty one is drawn but not kept as the last
/// answer; one it cannot read, a schedule that cannot run, is neither).
fn keep_answer(app: &mut App, state: &mut ExerciseState) {
    if let Some(answer) = state.answer()
        && let Some(answer) = answer_json(app, state, answer)
        && answer != state.screen.answer
    {
        let _ = act(app, state, &Act::Change { answer });
    }
}

/// `answer` as the session reads it (an answers file's value for the
/// exercise's kind).
fn answer_json(app: &App, state: &ExerciseState, answer: Answer) -> Option<serde_json::Value> {
    let (lesson, exercise) = app.lesson_exercise(state.lesson, state.exercise)?;
    Some(sim_core::course::answer_to_json(
        lesson,
        &exercise.kind,
        &answer,
    ))
}

/// Applies `act` to the exercise through the session; the screen it
/// answers with is what the exercise draws from now on.
fn act(app: &mut App, state: &mut ExerciseState, act: &Act) -> Result<(), CourseError> {
    let lang = app.lang();
    state.screen = app
        .session
        .act(&state.screen.lesson, &state.screen.exercise, act, lang)?;
    Ok(())
}

fn exercise_message(app: &mut App, state: &mut ExerciseState, message: Message) -> Nav {
    let Some((lesson, _)) = app.lesson_exercise(state.lesson, state.exercise) else {
        return Nav::Stay;
    };
    let lesson_label = words::lesson_label(lesson.order, app.lang());

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
    if let Some(nav) = edit(app, state, message, &lesson_label) {
        return nav;
    }
    match message {
        Message::NextCandidate
        | Message::PrevCandidate
        | Message::ToggleMark
        | Message::Predict(_) => on_timeline(app, state, message),
        Message::Submit => submit(app, state),
        Message::CancelSql => cancel_sql(app, state),
        Message::Hint => hint(app, state),
        // Shown: on to the panel's scrolling below; refused: stay as we are.
        Message::Solution if !show_solution(app, state) => {
            return Nav::Stay;
        }
        _ => {}
    }
    // The list panels' ↑↓ choose rows; over the hints or the solution they scroll.
    let message = match message {
        Message::Up => Message::ScrollUp,
        Message::Down => Message::ScrollDown,
        other => other,
    };
    let (max, page) = measure::exercise_panel_scroll(app, state);
    scroll(&mut state.panel_scroll, message, max, page);
    state.panel_scroll = state.panel_scroll.min(max);
    Nav::Stay
}

/// The mark and predict keys: moving between the steps asked about (the
/// screen's items), marking one, predicting its outcome; the choice goes to
/// the session ([`Edit::Choose`]).
fn on_timeline(app: &mut App, state: &mut ExerciseState, message: Message) {
    let asked: Vec<u32> = state.screen.items.iter().map(|item| item.index).collect();
    match message {
        Message::NextCandidate | Message::PrevCandidate => {
            let predicts = state.sets_each();
            if let Some(timeline) = state.timeline.as_mut() {
                let cursor = timeline.cursor as u32;
                // Past the last asked step, Tab wraps to the first (and
                // Shift-Tab the other way), as Tab does in every list.
                let found = if message == Message::NextCandidate {
                    (asked.iter().find(|c| **c > cursor))
                        .or_else(|| asked.first())
                        .copied()
                } else {
                    (asked.iter().rev().find(|c| **c < cursor))
                        .or_else(|| asked.last())
                        .copied()
                };
                match found {
                    Some(step) => {
                        timeline.cursor = step as usize;
                        timeline.playing = false;
                        state.panel = Panel::Step;
                        state.panel_scroll = 0;
                    }
                    None if predicts => {
                        app.say(words::NO_STEP_TO_PREDICT);
                    }
                    None => app.say(words::NO_STEP_TO_MARK),
                }
            }
        }
        Message::ToggleMark => {
            if let Some(timeline) = state.timeline.as_ref() {
                let step = timeline.cursor as u32;
                if asked.contains(&step) {
                    choose(app, state, step, None);
                    state.panel = Panel::Step;
                } else {
                    app.say(words::ONLY_CIRCLED_STEPS_MARKED);
                }
            }
        }
        Message::Predict(outcome) if state.sets_each() => {
            if let Some(timeline) = state.timeline.as_mut() {
                let step = timeline.cursor as u32;
                if asked.contains(&step) {
                    // The cursor stays: the learner sees the prediction land
                    // on this step and moves on with Tab when ready.
                    timeline.playing = false;
                    state.panel = Panel::Step;
                    state.panel_scroll = 0;
                    choose(app, state, step, Some(outcome.name()));
                } else {
                    app.say(words::STEP_NOT_TO_PREDICT);
                }
            }
        }
        _ => {}
    }
}

/// Item `item` chosen through the session ([`Edit::Choose`]): toggled,
/// chosen alone, or set to `value`, as the screen's items are chosen. The
/// item is one on screen, so the session has no cause to refuse it; were
/// it refused, nothing would change, which is all a key could do.
fn choose(app: &mut App, state: &mut ExerciseState, item: u32, value: Option<&str>) {
    let value = value.map(str::to_owned);
    let _ = act(
        app,
        state,
        &Act::Edit {
            edit: Edit::Choose { item, value },
        },
    );
}

/// The next hint, as the session's order allows, on the hints panel.
fn hint(app: &mut App, state: &mut ExerciseState) {
    match act(app, state, &Act::Hint) {
        Ok(_) => {}
        Err(CourseError::NoMoreHints { attempted: false }) => {
            app.say(words::LAST_HINT_TRY_AN_ANSWER);
        }
        Err(CourseError::NoMoreHints { attempted: true }) => {
            app.say(words::LAST_HINT_SEE_SOLUTION);
        }
        Err(other) => app.say(other.message(app.lang())),
    }
    state.panel = Panel::Hints;
    // The newest hint is last; a quiz's options and an editor follow the
    // hints, so there the panel starts at the top and scrolls only to keep
    // the option, knob or step in view.
    let under_hints = state.on_list() || matches!(state.work, Work::Editor(_));
    state.panel_scroll = if under_hints { 0 } else { u16::MAX };
}

/// The worked solution on its panel, once the session opens it (after a
/// try; shown already, it is not computed again). Returns whether it is
/// shown.
fn show_solution(app: &mut App, state: &mut ExerciseState) -> bool {
    let shown = state
        .screen
        .feedback
        .as_ref()
        .is_some_and(|feedback| feedback.tone == Tone::Solution);
    if !shown {
        if !state.screen.solution_open {
            app.status.clone_from(&state.screen.solution_note);
            return false;
        }
        if let Err(why) = act(app, state, &Act::Solution) {
            let lang = app.lang();
            app.say(words::no_worked_solution(&why.message(lang), lang));
            return false;
        }
    }
    state.panel = Panel::Solution;
    state.panel_scroll = 0;
    true
}

/// Hands the answer in ([`Act::HandIn`]): the session grades it and
/// records the try. A `sql` answer runs first, off the UI thread.
fn submit(app: &mut App, state: &mut ExerciseState) {
    if let Some(why) = state.screen.editor.as_ref().and_then(|e| e.problem.clone()) {
        app.say(words::schedule_cannot_run(&why, app.lang()));
        return;
    }
    if let Work::Sql(work) = &mut state.work
        && start_sql(app, work, &state.screen.lesson, &state.screen.exercise)
    {
        return;
    }
    // A SQL exercise's statements as typed; else the answer in the making
    // the session holds (the items' choices, the editor's).
    let answer = (state.answer()).and_then(|answer| answer_json(app, state, answer));
    let handed = act(app, state, &Act::HandIn { answer });
    after_hand_in(app, state, handed);
}

/// A `sql` exercise's statements back from SQLite (`sql_run`): handed in
/// with their run ([`sim_core::course::CourseSession::hand_in`]), graded as
/// any answer is.
pub(crate) fn grade_sql_run(
    app: &mut App,
    state: &mut ExerciseState,
    run: sim_core::sqllab::PlanRun,
) {
    let Work::Sql(work) = &state.work else {
        return;
    };
    let answer = Answer::Sql(sim_core::course::SqlAnswer {
        statements: work.statements(),
        run: Some(run),
    });
    let lang = app.lang();
    let handed = app
        .session
        .hand_in(&state.screen.lesson, &state.screen.exercise, &answer, lang)
        .map(|screen| state.screen = screen);
    after_hand_in(app, state, handed);
}

/// After a hand-in: the session's line on what to do next on the footer
/// (the try's verdict is the feedback's, the standing the header's), or
/// why nothing was graded.
fn after_hand_in(app: &mut App, state: &mut ExerciseState, handed: Result<(), CourseError>) {
    if let Work::Sql(work) = &mut state.work {
        work.refused.clear();
    }
    match handed {
        // A practice round finished: the footer's keys, with the one that
        // draws the next round, say more than the status would.
        Ok(()) if (state.screen.practice.as_ref()).is_some_and(|p| p.round_finished) => {
            app.status = None;
            state.panel = Panel::Step;
            state.panel_scroll = 0;
        }
        Ok(()) => {
            app.status = Some(state.screen.status.clone());
            state.panel = Panel::Step;
            state.panel_scroll = 0;
        }
        // An empty answer: said as it is, nothing was graded or counted.
        // Back on the step panel, where the answer is entered.
        Err(why @ CourseError::Answer(sim_core::course::AnswerError::Empty(_))) => {
            app.say(format!("✗ {}", why.message(app.lang())));
            state.panel = Panel::Step;
        }
        // Refused by the box: shown by the editor, not graded, not counted.
        Err(CourseError::SqlRefused(refused)) => {
            app.say(sim_core::sqllab::SlotRefusal::status(&refused, app.lang()));
            if let Work::Sql(work) = &mut state.work {
                if let Some(first) = refused.first()
                    && let Some(at) = work.slots.iter().position(|s| *s == first.slot)
                {
                    work.slot = at;
                }
                work.refused = refused;
            }
            state.panel = Panel::Step;
        }
        Err(why) => {
            let lang = app.lang();
            app.say(words::could_not_grade(&why.message(lang), lang));
        }
    }
}

/// A `sql` answer: nothing written is an answer for the session to call
/// empty, without running (`false`: hand it in as it is). Else the runtime
/// is asked to run the statements against the exercise's plan off the UI
/// thread (`sql_run`), and the grade comes when they finish; the session
/// keeps them as the last answer meanwhile ([`Act::Change`]), saved even
/// if the app quits before they finish.
fn start_sql(app: &mut App, work: &mut SqlWork, lesson_id: &str, exercise_id: &str) -> bool {
    let statements = work.statements();
    if statements.values().all(|s| s.trim().is_empty()) {
        return false;
    }
    let plan = match app.session.sql_plan(lesson_id, exercise_id) {
        Ok(plan) => plan,
        Err(why) => {
            let lang = app.lang();
            app.say(words::could_not_grade(&why.message(lang), lang));
            return true;
        }
    };
    app.sql_runs.started += 1;
    let id = app.sql_runs.started;
    work.refused.clear();
    work.running = Some(SqlRunning {
        id,
        cancelling: false,
    });
    app.sql_runs.commands.push(SqlCommand::Start(SqlRequest {
        id,
        plan,
        statements,
    }));
    app.say(words::SQL_RUN_STARTED);
    true
}

/// Esc while the statements run: the runtime stops the box.
fn cancel_sql(app: &mut App, state: &mut ExerciseState) {
    if let Work::Sql(work) = &mut state.work
        && let Some(running) = &mut work.running
    {
        if !running.cancelling {
            running.cancelling = true;
            app.sql_runs.commands.push(SqlCommand::Cancel(running.id));
        }
        app.say(words::SQL_CANCELLING_RUN);
    }
}

/// The editing keys of the design, break and quiz panels. `None`: not one
/// of them, so the shared keys (hints, scrolling) apply.
fn edit(app: &mut App, state: &mut ExerciseState, message: Message, source: &str) -> Option<Nav> {
    // Over the hints or the solution, ↑↓ scroll the panel instead; but a
    // quiz shows its options under its hints, and a design or a break its
    // editor, so they stay theirs to choose.
    let quiz = state.on_list();
    let under_hints = quiz || matches!(state.work, Work::Editor(_));
    let moves_rows = state.panel == Panel::Step || (under_hints && state.panel == Panel::Hints);
    // A design's knobs and a break's schedule are not drawn over the
    // solution: an editing key first brings them back, changing nothing
    // unseen.
    let edits = matches!(
        message,
        Message::Adjust { .. }
            | Message::NextItem
            | Message::PrevItem
            | Message::AddStep
            | Message::DeleteStep
            | Message::MoveStep { .. }
    );
    if edits && !moves_rows && matches!(state.work, Work::Editor(_)) {
        state.panel = Panel::Step;
        state.panel_scroll = 0;
        return Some(Nav::Stay);
    }
    // Nor is a knob or step turned that the page keys scrolled out of
    // view: the first editing key brings it back into view.
    if edits && matches!(state.work, Work::Editor(_)) {
        // Measured only for an editing key: the panel is laid out anew.
        let shown = measure::exercise_panel_follow(app, state);
        if shown != state.panel_scroll {
            state.panel_scroll = shown;
            return Some(Nav::Stay);
        }
    }
    let edited = match &mut state.work {
        Work::Items { cursor } if quiz => {
            let count = state.screen.items.len();
            match list_key(cursor, count, message, moves_rows) {
                None => false,
                Some(false) => true,
                Some(true) => {
                    // The choice is the option shown there, by its authored
                    // index; no option there: nothing is chosen, the options
                    // are on screen already (rows move), the panel stays.
                    if let Some(item) = state.screen.items.get(*cursor).map(|i| i.index) {
                        choose(app, state, item, None);
                    }
                    true
                }
            }
        }
        Work::Items { .. } => false,
        Work::Sql(work) => edit_sql(work, message),
        Work::Editor(work) if message == Message::OpenTimeline => {
            return Some(match work.kind {
                EditorKind::Design => open_counterexample(app, state.last_try(), source),
                EditorKind::Schedule => open_schedule(app, state, source),
            });
        }
        Work::Editor(_) => {
            return edit_answer(app, state, message, moves_rows).then_some(Nav::Stay);
        }
    };
    if !edited {
        return None;
    }
    // A quiz or an editor keeps its hints open above what it is answering.
    if !(under_hints && state.panel == Panel::Hints) {
        state.panel = Panel::Step;
    }
    Some(Nav::Stay)
}

/// A SQL panel's edit: type, start or stop typing, or move between the
/// statements. `false`: the message is not one.
fn edit_sql(work: &mut SqlWork, message: Message) -> bool {
    match message {
        Message::Sql(key) => work.edit(key),
        Message::EditSql => work.editing = true,
        Message::StopEditSql => work.editing = false,
        Message::NextItem | Message::PrevItem => {
            work.slot = wrap(work.slot, work.slots.len(), message == Message::NextItem);
        }
        _ => return false,
    }
    true
}

/// A quiz's list keys over its `count` options: the cursor moved
/// (`Some(false)`), or the option at the cursor to be chosen
/// (`Some(true)`: the session toggles it, or chooses it alone). `None`:
/// the message is not one.
fn list_key(cursor: &mut usize, count: usize, message: Message, moves_rows: bool) -> Option<bool> {
    match message {
        // Over the worked solution the options are not on screen: an
        // option key first brings them back, choosing nothing blind.
        Message::Choose | Message::ChooseAt(_) | Message::NextItem | Message::PrevItem
            if !moves_rows => {}
        Message::Up if moves_rows => *cursor = cursor.saturating_sub(1),
        Message::Down if moves_rows => *cursor = (*cursor + 1).min(count.saturating_sub(1)),
        Message::ListStart if moves_rows => *cursor = 0,
        Message::ListEnd if moves_rows => *cursor = count.saturating_sub(1),
        Message::NextItem | Message::PrevItem => {
            *cursor = wrap(*cursor, count, message == Message::NextItem);
        }
        Message::Choose => return Some(true),
        Message::ChooseAt(at) => {
            *cursor = usize::from(at);
            return Some(true);
        }
        _ => return None,
    }
    Some(false)
}

/// The position after (or before) `at` among `count`, wrapping around.
fn wrap(at: usize, count: usize, forward: bool) -> usize {
    match count {
        0 => 0,
        _ if forward => (at + 1) % count,
        _ => (at + count - 1) % count,
    }
}

/// The editor's keys: the cursor moved, or an edit sent to the session
/// ([`Act::Edit`]), whose screen the cursor then follows. `false`: the
/// message is not one. Long because it is one arm per editor message
/// (cursor, cycle, typed digits, add, remove, move): each is a few lines,
/// and one match is the editor's whole key handling in one place.
fn edit_answer(
    app: &mut App,
    state: &mut ExerciseState,
    message: Message,
    moves_rows: bool,
) -> bool {
    let Work::Editor(work) = &mut state.work else {
        return false;
    };
    let rows = state
        .screen
        .editor
        .as_ref()
        .map_or(&[][..], |e| &e.rows[..]);
    let (row, field) = (work.row as u32, work.field as u32);
    let now = rows.get(work.row).and_then(|r| r.fields.get(work.field));
    let typing = matches!(message, Message::TickDigit(_) | Message::TickErase);
    let edit = match message {
        Message::TickDigit(_) | Message::TickErase if !moves_rows => return false,
        Message::TickDigit(_) | Message::TickErase => {
            let Some(Input::Number { max, .. }) = now.map(|f| f.input) else {
                return false;
            };
            let was: u64 = now.and_then(|f| f.value.parse().ok()).unwrap_or(0);
            let value = match message {
                Message::TickDigit(digit) => (if work.fresh_number { 0 } else { was })
                    .saturating_mul(10)
                    .saturating_add(u64::from(digit))
                    .min(max),
                _ => was / 10,
            };
            Some(Edit::Set {
                row,
                field,
                value: value.to_string(),
            })
        }
        Message::Up if moves_rows => {
            work.row = work.row.saturating_sub(1);
            None
        }
        Message::Down if moves_rows => {
            work.row = (work.row + 1).min(rows.len().saturating_sub(1));
            None
        }
        Message::ListStart if moves_rows => {
            work.row = 0;
            None
        }
        Message::ListEnd if moves_rows => {
            work.row = rows.len().saturating_sub(1);
            None
        }
        // A row of several fields (a step): its next field that can change;
        // of one (a knob): the next row.
        Message::NextItem | Message::PrevItem => {
            let forward = message == Message::NextItem;
            match rows.get(work.row).map(|r| &r.fields) {
                Some(fields) if fields.len() > 1 => {
                    for _ in 0..fields.len() {
                        work.field = wrap(work.field, fields.len(), forward);
                        if fields.get(work.field).is_some_and(|f| f.cyclable) {
                            break;
                        }
                    }
                }
                _ => work.row = wrap(work.row, rows.len(), forward),
            }
            None
        }
        Message::Adjust { forward } => Some(Edit::Cycle {
            row,
            field,
            forward,
        }),
        Message::AddStep => Some(Edit::AddStep {
            after: (!rows.is_empty()).then_some(row),
        }),
        Message::DeleteStep => Some(Edit::RemoveStep { row }),
        Message::MoveStep { later } => Some(Edit::MoveStep { row, later }),
        _ => return false,
    };
    // Any other key leaves the number: the next digit typed starts anew.
    work.fresh_number = !typing;
    let edited = match edit {
        None => false,
        Some(edit) => match act(app, state, &Act::Edit { edit }) {
            Ok(()) => true,
            Err(CourseError::Edit(EditRefused::Full)) => {
                app.say(words::SCHEDULE_FULL);
                false
            }
            // Nothing to change there (one choice, no step past the
            // edge): nothing changes.
            Err(_) => false,
        },
    };
    if let Work::Editor(work) = &mut state.work {
        work.follow(&app.session, &state.screen, edited);
    }
    true
}

/// Design: the timeline of the counterexample the explorers found against
/// the last design submitted, if they found one.
fn open_counterexample(app: &mut App, grade: Option<&FeedbackView>, source: &str) -> Nav {
    let found = grade.and_then(|g| g.counterexample.as_ref()).map(|c| {
        // Titled as what it is to the learner, not after the preset the
        // explorer matched (a design the learner never picked).
        let mut scenario = c.scenario.clone();
        scenario.title = words::COUNTEREXAMPLE_TO_YOUR_DESIGN.into();
        scenario
    });
    match found {
        Some(scenario) => Nav::Push(Screen::Sandbox(Box::new(SandboxState {
            source: source.to_owned(),
            timeline: Timeline::new(scenario),
            detail_scroll: 0,
        }))),
        None => {
            app.say(words::NO_COUNTEREXAMPLE_YET);
            Nav::Stay
        }
    }
}

/// Break: the timeline of the worked solution's schedule while it is
/// shown, else of the learner's.
fn open_schedule(app: &mut App, state: &ExerciseState, source: &str) -> Nav {
    let solved = (state.panel == Panel::Solution)
        .then_some(state.screen.feedback.as_ref())
        .flatten()
        .filter(|f| f.tone == Tone::Solution)
        .and_then(|s| s.schedule.clone());
    let preview = match &state.work {
        Work::Editor(work) => work.preview.as_ref().map(|t| t.scenario.clone()),
        _ => None,
    };
    let (label, found) = match solved {
        Some(scenario) => (words::SOURCE_WORKED_SOLUTION, Some(scenario)),
        None => (words::SOURCE_YOUR_SCHEDULE, preview),
    };
    match found {
        Some(scenario) => Nav::Push(Screen::Sandbox(Box::new(SandboxState {
            source: format!("{source} · {}", label.get(app.lang())),
            timeline: Timeline::new(scenario),
            detail_scroll: 0,
        }))),
        None => {
            let why = state.screen.editor.as_ref().and_then(|e| e.problem.clone());
            let why = why.unwrap_or_default();
            app.say(words::schedule_cannot_run(&why, app.lang()));
            Nav::Stay
        }
    }
}
