//! Every key the app takes, in one table: per screen (or mode of one) its
//! bindings in the footer's order, each with its keys as the footer writes
//! them, the [`Message`] each key sends, its words in both languages, where
//! it is shown and when it applies. [`message_for_key`] looks a key up here
//! and the footer and the help list the same bindings, so a key is handled
//! exactly where it is listed: the keys a binding handles are read from its
//! label ([`label_keys`]). The exceptions are few and said where they are:
//! Ctrl-C, the overlays' keys, Esc on the first screen and `t` on a search
//! that found nothing to play.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use sim_core::course::{EditorKind, Input, Pick};
use sim_core::words::Words;
use sim_core::words::keys as said;
use sim_core::{Lang, Outcome};

use super::explorer::Run;
use super::layout;
use super::model::{App, Screen, SqlKey, Work};

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
    /// A list's first or last row (Home, End).
    ListStart,
    ListEnd,
    /// The next or previous item of an exercise (Tab, Shift-Tab), wrapping
    /// around: a knob, a step field, a quiz option.
    NextItem,
    PrevItem,
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
    /// The course map's front door: the next unfinished exercise.
    Continue,
    /// The review of every exercise: tries, hints, how far each got.
    Review,
    /// Practice rounds of the lesson chosen (or open).
    Practice,
    /// A practice round solved: draw the next.
    NextRound,
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
    /// Predict: the outcome the learner expects of the current step.
    Predict(Outcome),
    /// Design and break: the current value to the next (or previous) choice.
    Adjust {
        forward: bool,
    },
    AddStep,
    DeleteStep,
    MoveStep {
        later: bool,
    },
    /// Break: a digit typed on the tick field, or Backspace.
    TickDigit(u8),
    TickErase,
    /// Quiz: choose (or unchoose) the current option.
    Choose,
    /// Quiz: choose (or unchoose) the option shown at this position (from
    /// 0; the learner types its number, from 1).
    ChooseAt(u8),
    /// SQL: a key typed into the statement on screen.
    Sql(SqlKey),
    /// SQL: start or stop typing into the statement (keys then act as
    /// commands: grade, hint, solution, help).
    EditSql,
    StopEditSql,
    /// SQL: stop the statements running on SQLite.
    CancelSql,
}

/// One row of the table: keys, what they send, and what they are called.
#[derive(Clone, Copy)]
pub(crate) struct Binding {
    /// The keys as the footer writes them: `↑↓`, `Home/End`, `o r d n w`,
    /// `0-9` (see [`label_keys`]).
    label: &'static str,
    words: KeyWords,
    place: Place,
    when: When,
    sends: Sends,
}

#[derive(Clone, Copy)]
enum KeyWords {
    Said(Words),
    /// The language key is called by the language it switches to.
    OtherLanguage,
    /// An unlisted key is never said.
    Unsaid,
}

/// Where a binding is listed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// In the footer (while it fits) and the help.
    Footer,
    /// At the footer's end, which always fits: help and quit.
    Tail,
    /// Only in the help, after the footer's keys: the vi rows, the keys of
    /// an earlier version, and keys the footer has no room for.
    Help,
    /// Nowhere: an overlay's keys (it lists none), or a key that only
    /// answers why it does nothing here.
    Unlisted,
}

/// The message each key of the label sends.
#[derive(Clone, Copy)]
enum Sends {
    /// One message per key, in the label's order; or one for them all.
    Each(&'static [Message]),
    /// A digit key sends its digit.
    Digit(fn(u8) -> Message),
    /// Any character is typed into the SQL statement.
    Text,
}

/// When a binding applies, beyond its screen and mode: always, or when
/// the screen on top says this holds ([`screen_bindings`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum When {
    Always,
    /// A lesson section with a scenario: its timeline opens.
    Timeline,
    /// A lesson level with exercises to practise, or without.
    Practice,
    NoPractice,
    /// The explorer's focused setting takes digits (the seed).
    Seed,
    /// A finished search found a counterexample to play, or none.
    Counterexample,
    Held,
    /// The editor's focused field is a number, typed.
    Number,
    /// A practice round is finished: the next may be drawn.
    RoundDone,
    /// The lesson chosen (or open) has practice rounds.
    HasPractice,
    /// A quiz of one answer, or of any number.
    Single,
    Multiple,
}

/// The text of the table: labels and words.
type Str = &'static str;

const fn key(label: Str, words: Words, sends: &'static [Message]) -> Binding {
    bind(label, KeyWords::Said(words), sends)
}

const fn bind(label: Str, words: KeyWords, sends: &'static [Message]) -> Binding {
    Binding {
        label,
        words,
        place: Place::Footer,
        when: When::Always,
        sends: Sends::Each(sends),
    }
}

/// Listed only in the help.
const fn alias(label: Str, words: Words, sends: &'static [Message]) -> Binding {
    key(label, words, sends).placed(Place::Help)
}

/// Digit keys, each sending its digit.
const fn digits(label: Str, words: Words, sends: fn(u8) -> Message) -> Binding {
    Binding {
        sends: Sends::Digit(sends),
        ..key(label, words, &[])
    }
}

/// A key that acts under an overlay, which lists no keys.
const fn unlisted(label: Str, sends: &'static [Message]) -> Binding {
    bind(label, KeyWords::Unsaid, sends).placed(Place::Unlisted)
}

impl Binding {
    const fn placed(self, place: Place) -> Binding {
        Binding { place, ..self }
    }

    const fn when(self, when: When) -> Binding {
        Binding { when, ..self }
    }

    fn words(&self, lang: Lang) -> &'static str {
        match self.words {
            KeyWords::Said(words) => words.get(lang),
            KeyWords::OtherLanguage => lang.other().own_name(),
            KeyWords::Unsaid => "",
        }
    }

    /// The message `code` sends under this binding, labelled `label`.
    fn message(&self, label: &str, code: KeyCode) -> Option<Message> {
        if let (Sends::Text, KeyCode::Char(c)) = (self.sends, code) {
            return Some(Message::Sql(SqlKey::Type(c)));
        }
        let at = label_keys(label).iter().position(|k| *k == code)?;
        match (self.sends, code) {
            (Sends::Each([one]), _) => Some(*one),
            (Sends::Each(each), _) => each.get(at).copied(),
            (Sends::Digit(sends), KeyCode::Char(c)) => {
                c.to_digit(10).and_then(|d| u8::try_from(d).ok()).map(sends)
            }
            _ => None,
        }
    }
}

/// The keys a label names, in its order: its words split at spaces and
/// slashes, each a key's name (`Enter`, `PgUp`), a character, two arrows
/// (`↑↓`), or a range of characters (`1-4`). Unknown words name no key; a
/// test checks every label of the table names only keys.
pub(crate) fn label_keys(label: &str) -> Vec<KeyCode> {
    let mut keys = Vec::new();
    for word in label.split([' ', '/']).filter(|w| !w.is_empty()) {
        let named: &[KeyCode] = match word {
            "↑↓" => &[KeyCode::Up, KeyCode::Down],
            "←→" => &[KeyCode::Left, KeyCode::Right],
            "←" => &[KeyCode::Left],
            "→" => &[KeyCode::Right],
            "Home" => &[KeyCode::Home],
            "End" => &[KeyCode::End],
            "PgUp" => &[KeyCode::PageUp],
            "PgDn" => &[KeyCode::PageDown],
            "Tab" => &[KeyCode::Tab],
            "Shift-Tab" => &[KeyCode::BackTab],
            "Enter" => &[KeyCode::Enter],
            "Esc" => &[KeyCode::Esc],
            "Space" => &[KeyCode::Char(' ')],
            "Backspace" => &[KeyCode::Backspace],
            "Insert" => &[KeyCode::Insert],
            "Delete" => &[KeyCode::Delete],
            _ => &[],
        };
        keys.extend(named);
        let chars: Vec<char> = word.chars().collect();
        match chars[..] {
            [one] if named.is_empty() => keys.push(KeyCode::Char(one)),
            [from, '-', to] => keys.extend((from..=to).map(KeyCode::Char)),
            _ => {}
        }
    }
    keys
}

use Message as M;
use SqlKey as K;
use When as W;

const FORWARD: Message = M::Adjust { forward: true };
const BACKWARD: Message = M::Adjust { forward: false };
const ROW: &[Message] = &[M::Up, M::Down];
const SCROLLS: &[Message] = &[M::ScrollUp, M::ScrollDown];
const PAGES: &[Message] = &[M::PageUp, M::PageDown];
const ENDS: &[Message] = &[M::ListStart, M::ListEnd];

// Help and quit: the footer ends with them, the help says more.
const HELP: Binding = key("?", said::HELP, &[M::ToggleHelp]).placed(Place::Tail);
const QUIT: Binding = key("q", said::QUIT, &[M::Quit]).placed(Place::Tail);
const THIS_HELP: Binding = alias("?", said::THIS_HELP, &[M::ToggleHelp]);
const QUIT_ANY: Binding = alias("q", said::QUIT_ANYWHERE, &[M::Quit]);
const TAIL: &[Binding] = &[HELP, QUIT, THIS_HELP, QUIT_ANY];

// The bindings several screens share.
const BACK: Binding = key("Esc", said::BACK, &[M::Back]);
const LANG: Binding = bind("l", KeyWords::OtherLanguage, &[M::ToggleLang]);
const CHOOSE: Binding = key("↑↓", said::CHOOSE, ROW);
const OPEN: Binding = key("Enter", said::OPEN, &[M::Open]);
const CONTINUE: Binding = key("n", said::NEXT_UNFINISHED, &[M::Continue]);
const PROGRESS: Binding = key("p", said::PROGRESS, &[M::Review]);
const EXPLORE: Binding = key("e", said::EXPLORE, &[M::Explore]);
const PRACTICE: Binding = key("r", said::PRACTICE, &[M::Practice]).when(W::HasPractice);
const NEXT_ROUND: Binding = key("n", said::NEXT_ROUND, &[M::NextRound]).when(W::RoundDone);
const FIRST_LAST: Binding = key("Home/End", said::FIRST_LAST, ENDS);
const VI_ROWS: Binding = alias("k j", said::AS_UP_DOWN, ROW);
const VI_SCROLL: Binding = alias("k j", said::AS_UP_DOWN, SCROLLS);
const AS_ENTER: Binding = alias("→", said::AS_ENTER, &[M::Open]);
const SCROLL: Binding = key("↑↓", said::SCROLL, SCROLLS);
const BY_PAGE: Binding = alias("PgUp/PgDn", said::SCROLL_BY_A_PAGE, PAGES);
const PAGING: Binding = key("PgUp/PgDn", said::SCROLL, PAGES);
const NEXT_PAGE: Binding = alias("→", said::NEXT_LEVEL, &[M::NextPage]);
const SPACE_PAGE: Binding = alias("Space", said::AS_PGDN, &[M::PageDown]);
const STEP: Binding = key("←→", said::STEP_THROUGH, &[M::StepBack, M::StepForward]);
const START_END: Binding = key("Home/End", said::START_END, STEP_ENDS);
const STEP_ENDS: &[Message] = &[M::FirstStep, M::LastStep];
const PLAY: Binding = key("Space", said::PLAY, &[M::PlayPause]);
const SUBMIT: Binding = key("Enter", said::SUBMIT, &[M::Submit]);
const HINT: Binding = key("h", said::HINT, &[M::Hint]);
const SOLUTION: Binding = key("s", said::SOLUTION, &[M::Solution]);
const CHANGE: Binding = key("←→/Space", said::CHANGE, &[BACKWARD, FORWARD, FORWARD]);
const PREV_ITEM: Binding = alias("Shift-Tab", said::AS_TAB_BACKWARDS, &[M::PrevItem]);
const PREV_ASKED: Binding = Binding {
    sends: Sends::Each(&[M::PrevCandidate]),
    ..PREV_ITEM
};
const PANEL: Binding = alias("↑↓", said::SCROLL_THE_PANEL, SCROLLS);
const TICK: Binding = digits("0-9", said::TYPE_THE_TICK, M::TickDigit)
    .placed(Place::Help)
    .when(W::Number);
const TICK_ERASE: Binding =
    alias("Backspace", said::ERASE_A_DIGIT, &[M::TickErase]).when(W::Number);

const COURSE: &[Binding] = &[
    CHOOSE, OPEN, CONTINUE, EXPLORE, LANG, PRACTICE, PROGRESS, FIRST_LAST, VI_ROWS, AS_ENTER, BACK,
];
const REVIEW: &[Binding] = &[
    CHOOSE, OPEN, CONTINUE, BACK, LANG, FIRST_LAST, VI_ROWS, AS_ENTER,
];

/// A lesson's exercises page: a list.
const LESSON_LIST: &[Binding] = &[
    CHOOSE, OPEN, PREV_PAGE, PRACTICE, BACK, LANG, PROGRESS, FIRST_LAST, VI_ROWS, BY_PAGE,
    NEXT_PAGE, SPACE_PAGE,
];
const PREV_PAGE: Binding = key("←", said::PAGE, &[M::PrevPage]);

/// A lesson's page of text: its level's exercises open from it.
const LESSON_PAGE: &[Binding] = &[
    LEVEL,
    EXERCISE,
    SCROLL,
    SCENARIO,
    BACK,
    LANG,
    PROGRESS,
    NEXT_EX,
    VI_SCROLL,
    BY_PAGE,
    NEXT_PAGE,
    SPACE_PAGE,
    ENTER_PAGE,
    PREV_EX,
    PRACTICE_HELP,
];
/// Listed in the help only: the lesson page's footer is full.
const PRACTICE_HELP: Binding = PRACTICE.placed(Place::Help);
const LEVEL: Binding = key("←→", said::LEVEL, &[M::PrevPage, M::NextPage]);
const EXERCISE: Binding = key("Enter", said::EXERCISE, &[M::Open]).when(W::Practice);
const TIMELINE: Binding = key("t", said::TIMELINE, &[M::OpenTimeline]);
const SCENARIO: Binding = TIMELINE.when(W::Timeline);
const NEXT_EX: Binding = key("Tab", said::NEXT_EXERCISE, &[M::NextItem]).when(W::Practice);
const ENTER_PAGE: Binding = alias("Enter", said::NEXT_LEVEL, &[M::NextPage]).when(W::NoPractice);
const PREV_EX: Binding = PREV_ITEM.when(W::Practice);

const SANDBOX: &[Binding] = &[
    STEP, START_END, PLAY, SCROLL, BACK, LANG, EXPLORE, VI_SCROLL, BY_PAGE,
];

const EXPLORER: &[Binding] = &[
    RUN, FOUND, NONE_FOUND, SETTING, VALUE, BACK, LANG, VI_ROWS, SPACE_NEXT, R_RUN, SET_ENDS,
    RESULT, SEED, SEED_ERASE,
];
const RUN: Binding = key("Enter", said::RUN, &[M::Run]);
const FOUND: Binding = TIMELINE.when(W::Counterexample);
/// A search that found none answers that it has nothing to play.
const NONE_FOUND: Binding = TIMELINE.placed(Place::Unlisted).when(W::Held);
const SETTING: Binding = key("↑↓", said::SETTING, ROW);
const VALUE: Binding = key("←→", said::CHANGE, &[M::PrevValue, M::NextValue]);
const SPACE_NEXT: Binding = alias("Space", said::AS_RIGHT, &[M::NextValue]);
const R_RUN: Binding = alias("r", said::AS_ENTER, &[M::Run]);
const SET_ENDS: Binding = alias("Home/End", said::FIRST_LAST_SETTING, ENDS);
const RESULT: Binding = alias("PgUp/PgDn", said::SCROLL_THE_RESULT, PAGES);
const SEED: Binding = digits("0-9", said::TYPE_A_SEED, M::SeedDigit)
    .placed(Place::Help)
    .when(W::Seed);
const SEED_ERASE: Binding = alias("Backspace", said::ERASE_A_DIGIT, &[M::SeedErase]).when(W::Seed);

const EXPLORER_RUNNING: &[Binding] = &[CANCEL_C, CANCEL_ESC, LANG_ALIAS];
const LANG_ALIAS: Binding = LANG.placed(Place::Help);
const CANCEL_C: Binding = key("c", said::CANCEL, &[M::CancelSearch]);
const CANCEL_ESC: Binding = key("Esc", said::CANCEL, &[M::CancelSearch]);

const MARK: &[Binding] = &[
    NEXT_ROUND, NEXT_MARK, MARK_STEP, SUBMIT, STEP, HINT, BACK, SOLUTION, PLAY, START_END, LANG,
    PANEL, VI_SCROLL, BY_PAGE, PREV_ASKED,
];
const NEXT_MARK: Binding = key("Tab", said::NEXT_CIRCLE, &[M::NextCandidate]);
const MARK_STEP: Binding = key("m", said::MARK, &[M::ToggleMark]);

const PREDICT: &[Binding] = &[
    NEXT_GUESS, GUESS, SUBMIT, STEP, HINT, BACK, SOLUTION, PLAY, START_END, LANG, PANEL, VI_SCROLL,
    BY_PAGE, PREV_ASKED,
];
const NEXT_GUESS: Binding = key("Tab", said::NEXT_QUESTION, &[M::NextCandidate]);
// The outcomes by name are beside the step (o took effect · r refused …).
const GUESS: Binding = key("o r d n w", said::PREDICT, &OUTCOMES);
const OUTCOMES: [Message; 5] = [
    M::Predict(Outcome::Ok),
    M::Predict(Outcome::Rejected),
    M::Predict(Outcome::Duplicate),
    M::Predict(Outcome::Noop),
    M::Predict(Outcome::Waiting),
];

const DESIGN: &[Binding] = &[
    KNOB, CHANGE, SUBMIT, COUNTER, HINT, BACK, SOLUTION, NEXT_KNOB, FIRST_LAST, PAGING, LANG,
    VI_ROWS, TICK, TICK_ERASE, PREV_ITEM,
];
const KNOB: Binding = key("↑↓", said::KNOB, ROW);
const COUNTER: Binding = key("t", said::COUNTEREXAMPLE, &[M::OpenTimeline]);
const NEXT_KNOB: Binding = key("Tab", said::NEXT_KNOB, &[M::NextItem]);

/// A break exercise's schedule; `+ = -` and Insert/Delete are the keys of
/// an earlier version, kept: harmless aliases.
const SCHEDULE: &[Binding] = &[
    STEP_ROW, FIELD, CHANGE, SUBMIT, ADD, DELETE, MOVE, TIMELINE, HINT, BACK, SOLUTION, FIRST_LAST,
    PAGING, LANG, VI_ROWS, PLUS_MINUS, INS_DEL, TICK, TICK_ERASE, PREV_ITEM,
];
const STEP_ROW: Binding = key("↑↓", said::STEP_ROW, ROW);
const FIELD: Binding = key("Tab", said::FIELD, &[M::NextItem]);
const ADD: Binding = key("a", said::ADD, &[M::AddStep]);
const DELETE: Binding = key("x", said::DELETE, &[M::DeleteStep]);
const MOVE: Binding = key("[ ]", said::MOVE, &[EARLIER, LATER]);
const EARLIER: Message = M::MoveStep { later: false };
const LATER: Message = M::MoveStep { later: true };
const PLUS_MINUS: Binding = alias("+ = -", said::AS_RIGHT_RIGHT_LEFT, OLD_CHANGE);
const OLD_CHANGE: &[Message] = &[FORWARD, FORWARD, BACKWARD];
const INS_DEL: Binding = alias("Insert/Delete", said::AS_A_X, ADD_DELETE);
const ADD_DELETE: &[Message] = &[M::AddStep, M::DeleteStep];

/// A quiz's keys: a digit per option (one chooses, several toggle).
const QUIZ: &[Binding] = &[
    CHOOSE_ONE, CHOOSE_ANY, SUBMIT, OPTION, CURRENT, HINT, BACK, SOLUTION, NEXT_OPT, FIRST_LAST,
    PAGING, LANG, VI_ROWS, PREV_ITEM,
];
const CHOOSE_ONE: Binding = digits("1-9", said::CHOOSE, choose_at).when(W::Single);
const CHOOSE_ANY: Binding = digits("1-9", said::CHOOSE_UNCHOOSE, choose_at).when(W::Multiple);
const OPTION: Binding = key("↑↓", said::OPTION, ROW);
const CURRENT: Binding = key("Space", said::CHOOSE, &[M::Choose]);
const NEXT_OPT: Binding = key("Tab", said::NEXT_OPTION, &[M::NextItem]);

/// A SQL exercise, not typing: the statements are graded, the slots
/// switched, the panel scrolled; e types again.
const SQL: &[Binding] = &[
    RUN_CASES, EDIT, NEXT_SLOT, SCROLL, HINT, BACK, SOLUTION, LANG, VI_SCROLL, BY_PAGE, PREV_ITEM,
];
const RUN_CASES: Binding = key("Enter", said::RUN_THE_CASES, &[M::Submit]);
const EDIT: Binding = key("e", said::EDIT, &[M::EditSql]);
const NEXT_SLOT: Binding = key("Tab", said::NEXT_STATEMENT, &[M::NextItem]);

/// While a statement is typed every printable key is text (no help, no
/// quit: Ctrl-C still quits); only Esc and the editing keys act.
const SQL_TYPING: &[Binding] = &[
    STOP_EDIT, NEXT_SLOT, NEW_LINE, CURSOR, LINE, LINE_ENDS, ERASE_LEFT, ERASE_NEXT, TYPE,
    TYPE_SPACE, PREV_ITEM,
];
const STOP_EDIT: Binding = key("Esc", said::DONE_TYPING, &[M::StopEditSql]);
const NEW_LINE: Binding = key("Enter", said::NEW_LINE, &[M::Sql(K::Type('\n'))]);
const CURSOR: Binding = key("←→", said::MOVE, &[M::Sql(K::Left), M::Sql(K::Right)]);
const LINE: Binding = key("↑↓", said::LINE, &[M::Sql(K::Up), M::Sql(K::Down)]);
const LINE_ENDS: Binding = key("Home/End", said::LINE_START_END, SQL_ENDS);
const SQL_ENDS: &[Message] = &[M::Sql(K::Home), M::Sql(K::End)];
const ERASE_LEFT: Binding = key("Backspace", said::ERASE_LEFT, &[BACKSPACE]);
const BACKSPACE: Message = M::Sql(K::Backspace);
const ERASE_NEXT: Binding = key("Delete", said::ERASE_RIGHT, &[M::Sql(K::Delete)]);
const TYPE: Binding = Binding {
    sends: Sends::Text,
    ..key("!-~", said::TYPE, &[])
};
const TYPE_SPACE: Binding = alias("Space", said::TYPE_A_SPACE, &[M::Sql(K::Type(' '))]);

/// While the statements run on SQLite the exercise waits: Esc cancels the
/// run; language, help and quit still work.
const SQL_RUNNING: &[Binding] = &[CANCEL_RUN, LANG];
const CANCEL_RUN: Binding = key("Esc", said::CANCEL_THE_RUN, &[M::CancelSql]);

/// A notice over the screen: its line of keys, and keys that close it too.
const NOTICE: &[Binding] = &[
    key("Enter", said::CONTINUE, &[M::Dismiss]),
    key("q", said::QUIT, &[M::Quit]),
    unlisted("Esc/Space", &[M::Dismiss]),
];

/// The help overlay: it closes, or scrolls.
const HELP_OPEN: &[Binding] = &[
    unlisted("q", &[M::Quit]),
    unlisted("Esc/Enter/?", &[M::ToggleHelp]),
    unlisted("↑↓", SCROLLS),
    unlisted("k j", SCROLLS),
    unlisted("PgUp/PgDn", PAGES),
];

/// The label of the digit keys that pick a quiz's options, by how many.
const DIGIT_LABELS: [&str; 9] = ["1", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7", "1-8", "1-9"];

/// By the number shown beside the option, in this learner's order.
fn choose_at(digit: u8) -> Message {
    M::ChooseAt(digit.saturating_sub(1))
}

/// The bindings of the screen on top as `(label, binding)`, help and quit
/// first (they take precedence), the screen's in the footer's order. Long
/// because it is one arm per screen and mode, each naming its table: the
/// one place that says which keys apply where.
fn screen_bindings(app: &App) -> Vec<(&'static str, &'static Binding)> {
    let mut facts = Vec::new();
    let mut options = 0;
    let mut tail = TAIL;
    let table = match app.screen() {
        Screen::Course(state) => {
            if (app.lessons().get(state.selected)).is_some_and(|l| l.practice.is_some()) {
                facts.push(When::HasPractice);
            }
            COURSE
        }
        Screen::Review(_) => REVIEW,
        Screen::Sandbox(_) => SANDBOX,
        Screen::Lesson(state) => {
            let lesson = app.lessons().get(state.lesson);
            if lesson.is_some_and(|l| l.practice.is_some()) {
                facts.push(When::HasPractice);
            }
            if lesson.is_some_and(|l| state.page >= l.sections.len()) {
                LESSON_LIST
            } else {
                if (lesson.and_then(|l| l.sections.get(state.page)))
                    .is_some_and(|s| s.scenario.is_some())
                {
                    facts.push(When::Timeline);
                }
                let practice =
                    lesson.is_some_and(|l| !layout::level_exercises(l, state.page).is_empty());
                facts.push(if practice {
                    When::Practice
                } else {
                    When::NoPractice
                });
                LESSON_PAGE
            }
        }
        Screen::Explorer(state) if state.running() => EXPLORER_RUNNING,
        Screen::Explorer(state) => {
            if state.form.takes_digits(state.setting()) {
                facts.push(When::Seed);
            }
            if let Run::Done { report, .. } = &state.run {
                let found = report.counterexample.is_some();
                facts.push(if found {
                    When::Counterexample
                } else {
                    When::Held
                });
            }
            EXPLORER
        }
        Screen::Exercise(state) => match &state.work {
            Work::Items { .. } if state.on_list() => {
                let any = (state.screen.choosing.as_ref()).is_some_and(|c| c.pick == Pick::Any);
                facts.push(if any { When::Multiple } else { When::Single });
                options = state.screen.items.len();
                QUIZ
            }
            Work::Items { .. } if state.sets_each() => PREDICT,
            Work::Items { .. } => {
                if (state.screen.practice.as_ref()).is_some_and(|p| p.round_finished) {
                    facts.push(When::RoundDone);
                }
                MARK
            }
            Work::Sql(work) if work.running.is_some() => SQL_RUNNING,
            Work::Sql(work) if work.editing => {
                tail = &[];
                SQL_TYPING
            }
            Work::Sql(_) => SQL,
            Work::Editor(work) => {
                if (state.editor_field()).is_some_and(|f| matches!(f.input, Input::Number { .. })) {
                    facts.push(When::Number);
                }
                match work.kind {
                    EditorKind::Design => DESIGN,
                    EditorKind::Schedule => SCHEDULE,
                }
            }
        },
    };
    // `1-9`: a quiz's options, as many as it has.
    let digits = DIGIT_LABELS[options.clamp(1, DIGIT_LABELS.len()) - 1];
    tail.iter()
        .chain(table)
        .filter(|b| b.when == When::Always || facts.contains(&b.when))
        .map(|b| (if b.label == "1-9" { digits } else { b.label }, b))
        .collect()
}

/// A key event as a message: the first binding that takes the key, of the
/// notice or the help overlay while one is open, else of the screen. Only
/// key presses count: terminals that report releases and repeats
/// (Windows, the kitty protocol) would otherwise act twice.
pub(crate) fn message_for_key(app: &App, key: KeyEvent) -> Option<Message> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        // Raw mode turns Ctrl-C into a key: it quits like `q`.
        return matches!(key.code, KeyCode::Char('c')).then_some(M::Quit);
    }
    let overlay = if app.notice.is_some() {
        Some(NOTICE)
    } else {
        app.help.then_some(HELP_OPEN)
    };
    let bindings = match overlay {
        Some(table) => table.iter().map(|b| (b.label, b)).collect(),
        None => screen_bindings(app),
    };
    bindings
        .into_iter()
        .find_map(|(label, binding)| binding.message(label, key.code))
}

/// `(keys, what they do)` of the bindings placed `place`.
fn listed(app: &App, place: Place) -> Vec<(&'static str, &'static str)> {
    // On the first screen Esc only answers that q quits: not listed.
    let first = app.screens.len() < 2;
    screen_bindings(app)
        .into_iter()
        .filter(|(label, b)| b.place == place && !(first && *label == "Esc"))
        .map(|(label, b)| (label, b.words(app.lang())))
        .collect()
}

/// The footer's keys for the current screen, most useful first.
pub(crate) fn footer_keys(app: &App) -> Vec<(&'static str, &'static str)> {
    listed(app, Place::Footer)
}

/// The footer's last keys, help and quit (none while a statement is typed:
/// `?` and `q` are text then).
pub(crate) fn footer_tail(app: &App) -> Vec<(&'static str, &'static str)> {
    listed(app, Place::Tail)
}

/// Every key the help lists for the current screen: the footer's, then
/// help and quit and the keys only the help lists.
pub(crate) fn help_keys(app: &App) -> Vec<(&'static str, &'static str)> {
    let mut keys = footer_keys(app);
    keys.extend(listed(app, Place::Help));
    keys
}

/// The notice's line of keys.
pub(crate) fn notice_keys(lang: Lang) -> Vec<(&'static str, &'static str)> {
    (NOTICE.iter())
        .filter(|b| b.place == Place::Footer)
        .map(|b| (b.label, b.words(lang)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every label names only keys, and one message per key or one for all.
    #[test]
    fn every_label_names_its_keys() {
        let tables = [
            TAIL,
            COURSE,
            REVIEW,
            LESSON_LIST,
            LESSON_PAGE,
            SANDBOX,
            EXPLORER,
            EXPLORER_RUNNING,
            MARK,
            PREDICT,
            DESIGN,
            SCHEDULE,
            QUIZ,
            SQL,
            SQL_TYPING,
            SQL_RUNNING,
            NOTICE,
            HELP_OPEN,
        ];
        for binding in tables.iter().flat_map(|t| t.iter()) {
            let label = binding.label;
            for word in label.split([' ', '/']).filter(|w| !w.is_empty()) {
                assert!(
                    !label_keys(word).is_empty(),
                    "{label:?}: unknown key {word:?}"
                );
            }
            let keys = label_keys(label);
            if let Sends::Each(each) = binding.sends {
                assert!(
                    each.len() == 1 || each.len() == keys.len(),
                    "{label:?}: {} keys, {} messages",
                    keys.len(),
                    each.len()
                );
            }
        }
    }
}
