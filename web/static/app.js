// fencelab in the browser: the course map, the lesson reader, exercises,
// the explorer (in a Web Worker) and a sandbox — all over one `Course`
// handle of the wasm crate, which owns the lessons and the progress.
//
// Routes live in the URL fragment: #/ (the front door and the map),
// #/lesson/ID, #/lesson/ID/EXERCISE (scrolled to that exercise),
// #/practice/ID (a lesson's endless practice rounds), #/explore,
// #/sandbox, #/share/CODE (a scenario in the link: share.js). Progress is the terminal's progress record, kept in
// localStorage under STORAGE_KEY; a record that cannot be read is kept
// aside and reported, never silently dropped.

import init, { Course, sandbox, explorerChoices, engineVersion, pageWords, langOfLocale, sandboxSample } from './fencelab_web.js';
import { h, s as svg, clear, inline, paragraphs } from './dom.js';
import { t, tf, setWords, lang, langTag, languages } from './strings.js';
import { renderTimeline } from './timeline.js';
import { shareButton, decodeShare, ShareError } from './share.js';
import { frontDoor } from './frontdoor.js';

const STORAGE_KEY = 'fencelab.progress';
const DAMAGED_KEY = 'fencelab.progress.damaged';

let course = null;
// The text of lessons.json, for the grading worker's own session.
let lessonsText = null;
const main = () => document.getElementById('main');

// ---- messages ---------------------------------------------------------------

function banner(message, actions = []) {
  const node = document.getElementById('banner');
  clear(node).append(h('p', {}, message), ...actions,
    h('button', { type: 'button', onclick: () => { node.hidden = true; } }, t('dismiss')));
  node.hidden = false;
}

function errorText(error) {
  return String(error && error.message ? error.message : error);
}

// ---- storage ----------------------------------------------------------------

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function save() {
  const store = storage();
  if (!store) return;
  try {
    store.setItem(STORAGE_KEY, course.progressJson());
  } catch {
    banner(t('storageFailed'));
  }
}

// ---- the workers -------------------------------------------------------------

/** A module worker started on first use and kept: `send(message)` posts
 * the message with an id and resolves to the worker's `done` answer (or
 * fails with its `error` message). */
function workerChannel(url) {
  let worker = null;
  let requests = 0;
  const waiting = new Map();
  const failAll = (message) => {
    for (const { fail } of waiting.values()) fail(new Error(message));
    waiting.clear();
  };
  return (message) => {
    if (!worker) {
      worker = new Worker(url, { type: 'module' });
      worker.onmessage = (event) => {
        const found = waiting.get(event.data.id);
        if (!found) return;
        waiting.delete(event.data.id);
        if (event.data.kind === 'done') found.ok(event.data);
        else found.fail(new Error(event.data.message));
      };
      worker.onerror = (event) => {
        failAll(event.message || url.pathname);
        worker.terminate();
        worker = null;
      };
    }
    const id = ++requests;
    return new Promise((ok, fail) => {
      waiting.set(id, { ok, fail });
      worker.postMessage({ id, ...message });
    });
  };
}

// The grading worker.
const toGradeWorker = workerChannel(new URL('./grade-worker.js', import.meta.url));

/** Hands `act` to the grading worker's session (a design's hand-in, a
 * worked solution: the explorers run there, off this thread, in the
 * explorer's build of the wasm); takes in the record it wrote and resolves
 * to the exercise's screen. */
function actOffThread(lessonId, exerciseId, act) {
  const sent = course.progressJson();
  return toGradeWorker({ lessons: lessonsText, progress: sent, lesson: lessonId, exercise: exerciseId, act: JSON.stringify(act) })
    .then(({ screen, progress }) => {
      course.takeWorkerProgress(sent, progress);
      return screen;
    });
}

// The practice worker: it draws rounds with the random explorer, which
// only the explorer's build of the wasm carries.
const toPracticeWorker = workerChannel(new URL('./practice-worker.js', import.meta.url));

/** The round of `key` (sim-core's RoundKey, from `practiceView`), drawn
 * off this thread: `{key, scenario}`, the scenario as TOML. */
function drawRound(key) {
  return toPracticeWorker({ lessons: lessonsText, key, lang: lang() }).then(({ round }) => round);
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = h('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Reads the saved progress; a record that cannot be read is kept aside. */
function loadSaved() {
  const store = storage();
  if (!store) return;
  let text = null;
  try {
    text = store.getItem(STORAGE_KEY);
  } catch {
    return;
  }
  if (text === null) {
    course.setLang(langOfLocale(navigator.language || ''));
    return;
  }
  try {
    course.loadProgress(text);
  } catch (error) {
    try {
      store.setItem(DAMAGED_KEY, text);
      store.removeItem(STORAGE_KEY);
    } catch { /* nothing more to keep */ }
    setWords(pageWords(course.lang()));
    banner(t('damaged') + errorText(error), [
      h('button', { type: 'button', onclick: () => download('fencelab-progress-damaged.json', text) }, t('downloadDamaged')),
    ]);
  }
}

// ---- language -----------------------------------------------------------------

function applyLang() {
  setWords(pageWords(course.lang()));
  document.documentElement.lang = langTag();
  // The switch as the catalogue offers it, the current language pressed;
  // the buttons are kept (only relabelled), so keyboard focus stays on the
  // one the learner pressed.
  const box = document.querySelector('.lang');
  const choices = languages();
  if (box.children.length !== choices.length) clear(box).append(...choices.map(() => h('button', { type: 'button' })));
  choices.forEach((choice, i) => {
    const button = box.children[i];
    Object.assign(button, { textContent: choice.name, onclick: () => switchLang(choice) });
    button.dataset.lang = choice.code;
    button.setAttribute('aria-pressed', String(choice.current));
  });
  document.title = t('pageTitle');
  const skip = document.querySelector('a.skip');
  if (skip) skip.textContent = t('skip');
  const nav = clear(document.getElementById('nav'));
  nav.setAttribute('aria-label', t('mainNav'));
  for (const [href, key] of [['#/', 'course'], ['#/review', 'review'], ['#/explore', 'explorer'], ['#/sandbox', 'sandbox']]) {
    nav.append(h('a', { href }, t(key)));
  }
}

function switchLang(choice) {
  if (choice.current) return;
  course.setLang(choice.code);
  save();
  applyLang();
  route();
}

// ---- the course map -------------------------------------------------------------

function progressBar(done, total, label) {
  return h('div', { class: 'bar-wrap' },
    h('progress', { max: total || 1, value: done, 'aria-label': label }),
    h('span', { class: 'bar-text' }, `${done}/${total} ${label}`));
}

const lessonHref = (lesson, exercise) => `#/lesson/${encodeURIComponent(lesson)}${exercise ? `/${encodeURIComponent(exercise)}` : ''}`;
const practiceHref = (pool) => `#/practice/${encodeURIComponent(pool)}`;

/** Practice's sign: two arrows going round (a fresh round, again and again). */
function practiceIcon() {
  const stroke = { fill: 'none', stroke: 'currentColor', 'stroke-width': 1.7, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
  return svg('svg', { class: 'icon', viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true', focusable: 'false' },
    svg('path', { d: 'M2.6 7A5.5 5.5 0 0 1 12.6 4.4', ...stroke }),
    svg('path', { d: 'M13 1.8v3h-3', ...stroke }),
    svg('path', { d: 'M13.4 9A5.5 5.5 0 0 1 3.4 11.6', ...stroke }),
    svg('path', { d: 'M3 14.2v-3h3', ...stroke }));
}

/** The way into a lesson's practice rounds, in the words its view gives. */
const practiceLink = (pool, words) => h('a', { class: 'practice-link', href: practiceHref(pool) }, practiceIcon(), ' ', words);

/** A row of a lesson's exercises: a mark each (its standing's sign, the
 * course session's), with its title as its name. */
function exerciseMarks(lesson) {
  return h('ul', { class: 'marks' }, lesson.exercises.map((e) => h('li', { class: e.standing },
    h('span', { class: 'sym', 'aria-hidden': 'true' }, e.symbol), ' ',
    h('a', { href: lessonHref(lesson.id, e.id) }, e.title), h('span', { class: 'visually-hidden' }, ` (${e.standing_label})`))));
}

function viewMap() {
  const map = JSON.parse(course.map());
  const door = JSON.parse(course.frontDoor());
  const root = h('div', { class: 'map' }, frontDoor(door, map.lessons[0]?.id, lessonHref),
    h('h2', { class: 'all-lessons' }, t('allLessons')),
    h('p', { class: 'intro' }, t('mapIntro')));
  const list = h('ol', { class: 'lessons' });
  for (const lesson of map.lessons) {
    const total = lesson.exercises.length;
    list.append(h('li', { class: lesson.done ? 'lesson-card done' : 'lesson-card' },
      h('h3', {}, h('a', { href: lessonHref(lesson.id) }, `${lesson.order}. ${lesson.title}`)),
      h('p', {}, inline(lesson.summary)),
      progressBar(lesson.completed, total, t('exercisesDone')),
      progressBar(lesson.sections_read, lesson.sections, t('sectionsRead')),
      exerciseMarks(lesson),
      lesson.practice ? h('p', { class: 'practice-entry' }, practiceLink(lesson.id, lesson.practice)) : null,
      // Concept codes and ids are for teachers and the curious: on demand.
      h('details', { class: 'course-details' }, h('summary', {}, t('courseDetails')),
        h('p', { class: 'chips' }, lesson.concepts.map((c) => h('span', { class: 'chip', title: c.name }, `${c.id} ${c.name}`))),
        h('p', { class: 'muted' }, [lesson.id, ...lesson.exercises.map((e) => e.id)].join(' · ')))));
  }
  root.append(list, progressPanel(map));
  return root;
}

function progressPanel(map) {
  const input = h('input', { type: 'file', accept: 'application/json,.json', class: 'visually-hidden', id: 'import-file' });
  // A refused file is said where the learner is, beside the button.
  const refused = h('p', { class: 'verdict bad import-error', role: 'alert', hidden: true });
  input.addEventListener('change', async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    const text = await file.text();
    try {
      course.loadProgress(text);
      save();
      applyLang();
      route();
      banner(t('imported'));
    } catch (error) {
      refused.textContent = t('importFailed') + errorText(error);
      refused.hidden = false;
    }
  });
  const levels = ['basic', 'intermediate', 'senior'].map((level) => {
    const box = h('input', { type: 'checkbox', id: `self-${level}`, checked: map.self_check[level] ? true : null });
    box.addEventListener('change', () => { course.setSelfCheck(level, box.checked); save(); });
    return h('label', { for: `self-${level}` }, box, ` ${t(level)}`);
  });
  return h('section', { class: 'progress-panel', 'aria-label': t('progressTitle') },
    h('h2', {}, t('progressTitle')),
    h('p', {}, t('progressNote')),
    h('div', { class: 'buttons' },
      h('button', { type: 'button', onclick: () => download('fencelab-progress.json', course.progressJson()) }, t('exportProgress')),
      h('label', { class: 'button', for: 'import-file', tabindex: 0, role: 'button',
        onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); input.click(); } } }, t('importProgress')),
      input,
      h('button', { type: 'button', onclick: () => {
        if (window.confirm(t('resetConfirm'))) { course.resetProgress(); save(); route(); }
      } }, t('resetProgress'))),
    refused,
    h('fieldset', { class: 'self-check' }, h('legend', {}, t('selfCheck')), h('p', { class: 'muted' }, t('selfCheckNote')), levels));
}

// The review: every exercise in course order (lesson, level, file, as the
// map lists them) with tries, hints and standing, and the next unfinished
// one — all the course session's (sim-core), as the terminal's review.
function viewReview() {
  const map = JSON.parse(course.map());
  const rows = map.lessons.flatMap((lesson) => lesson.exercises.map((e) => ({ lesson, e })));
  const { next } = map;
  const practice = JSON.parse(course.practiceReview());
  return h('article', { class: 'review' },
    h('h1', {}, t('review')),
    h('p', {}, tf('solvedOf', { n: map.completed, m: map.total })),
    next ? h('a', { class: 'button primary next-unfinished', href: lessonHref(next.lesson, next.exercise) }, `${t('nextUnfinished')} →`)
      : h('p', { class: 'verdict good' }, t('allSolved')),
    // Practice first: below the course's every exercise it would be out of sight.
    practiceReview(practice),
    h('table', { class: 'review-table' },
      h('tr', {}, ['where', 'exercise', 'triesCol', 'hintsCol', 'stateCol'].map((key) => h('th', { scope: 'col' }, t(key)))),
      rows.map(({ lesson, e }) => h('tr', { class: e.standing },
        h('td', {}, `${lesson.order}.${e.level + 1}`),
        h('th', { scope: 'row' }, h('a', { href: lessonHref(lesson.id, e.id) }, e.title)),
        h('td', {}, e.tries),
        h('td', {}, e.hints),
        // The symbol stays beside its words (a no-break space).
        h('td', {}, `${e.symbol}\u00a0${e.standing_label}`)))));
}

/** The review's practice: the streak and rounds over every pool, the
 * counts per concept and each pool's standing, all sim-core's words. */
function practiceReview(practice) {
  return h('section', { class: 'practice-review' },
    h('h2', {}, practiceIcon(), ' ', practice.heading),
    h('p', { class: 'practice-streak' }, practice.streak_line),
    practice.concepts.length ? h('ul', { class: 'practice-concepts' }, practice.concepts.map((c) => h('li', { title: c.concept },
      h('strong', {}, c.name), `${t('labelSep')}${c.words}`))) : null,
    h('ul', { class: 'practice-pools' }, practice.pools.map((pool) => h('li', {},
      h('a', { href: practiceHref(pool.pool) }, pool.pool_title), h('span', { class: 'muted' }, `${t('labelSep')}${pool.standing_line}`)))));
}

// ---- the lesson reader ----------------------------------------------------------

// A level's marker on the path, by its state (the course session's).
const MARKERS = { done: '●', current: '◉', open: '○' };

// One level at a time: a section and the exercises that practise it, under
// the lesson's path (● done, ◉ where to go on, ○ open). #/lesson/ID/N opens
// level N; #/lesson/ID/EXERCISE the level holding it; #/lesson/ID the
// current one.
function viewLesson(id, arg) {
  const lesson = JSON.parse(course.lesson(id));
  const levels = lesson.sections;
  let at = /^\d+$/.test(arg ?? '') ? arg - 1 : arg ? lesson.exercises.find((e) => e.id === arg)?.level : levels.findIndex((l) => l.state === 'current');
  if (!levels[at]) at = 0;
  const section = levels[at];
  const go = (n) => lessonHref(lesson.id, String(n + 1));
  const root = h('article', { class: 'lesson' },
    h('p', {}, h('a', { href: '#/' }, t('back'))),
    h('h1', {}, `${lesson.order}. ${lesson.title}`),
    h('p', { class: 'summary' }, inline(lesson.summary)),
    h('ol', { class: 'level-path', 'aria-label': t('levels') }, levels.map((l, i) => h('li', { class: l.state },
      h('a', { href: go(i), 'aria-current': i === at ? 'step' : null, title: l.title }, `${MARKERS[l.state]} ${i + 1}`)))));
  if (section) {
    const block = h('section', { class: 'section' },
      h('h2', {}, `${tf('levelN', { n: at + 1 })} · ${section.title}`),
      paragraphs(section.body));
    if (section.scenario) {
      block.append(renderTimeline(JSON.parse(course.scenarioTimeline(lesson.id, section.scenario))).element);
    }
    // Shown is read: the level is done once its exercises are too.
    course.markRead(lesson.id, at);
    save();
    root.append(block);
  }
  for (const exercise of lesson.exercises) {
    if (exercise.level === at) root.append(viewExercise(lesson, exercise));
  }
  root.append(h('p', { class: 'level-nav buttons' },
    at > 0 ? h('a', { class: 'button', href: go(at - 1) }, `← ${t('prevLevel')}`) : null,
    at + 1 < levels.length ? h('a', { class: 'button', href: go(at + 1) }, `${t('nextLevel')} →`) : h('a', { class: 'button', href: '#/review' }, `${t('review')} →`)));
  if (lesson.practice) root.append(h('p', { class: 'practice-entry lesson-practice' }, practiceLink(lesson.id, lesson.practice)));
  return root;
}

// ---- exercises ----------------------------------------------------------------------

// An exercise is the course session's screen (sim-core's ExerciseScreen,
// from `course.act`), drawn: its standing, the line on what to do next, the
// hints, the buttons, the item marks and the feedback are the session's,
// in the learner's language; the page keeps no course rule. Each of the
// learner's actions is one act; the screen after it is drawn again. The
// answer in the making is the session's too (kept by `change` acts, saved
// with the progress), so it comes back as the learner left it.

// The exercises on screen: each one's leave act, sent when the page moves on.
let onScreen = [];
let shownHash = null;

/** The feedback's lines (a quiz's are drawn on its options instead). */
function feedbackItems(items) {
  if (!items.length) return null;
  return h('ul', { class: 'grade-items' }, items.map((item) => h('li', { class: item.right ? 'right' : 'wrong' },
    h('span', { class: 'sym' }, item.right ? '✓' : '✗'), ' ', item.label ? `${item.label}${t('labelSep')}` : '', inline(item.text))));
}

/** A feedback block: a try's grade, or the worked solution with the
 * learner's last try beside it. `keyView` draws a key the session gives as
 * an answer (a design's knobs, a schedule, statements). */
function drawFeedback(node, feedback, keyView) {
  clear(node).append(h('p', { class: `verdict ${feedback.tone}`, tabindex: -1 }, `${feedback.head} — `, inline(feedback.summary)));
  const items = feedbackItems(feedback.items);
  if (items) node.append(items);
  if (feedback.key) node.append(h('p', { class: 'key' }, `${t('key')}: `, keyView?.(feedback.key_answer, feedback) ?? feedback.key));
  if (feedback.counterexample) {
    const played = feedback.counterexample.timeline;
    // The explanation is the verdict's sentence above: said once.
    node.append(h('h4', {}, t('counterexample')),
      renderTimeline(played, { initial: feedback.counterexample.step }).element);
    if (played.toml) node.append(shareButton(() => played.toml));
  }
  if (feedback.timeline) node.append(h('h4', {}, t('yourSchedule')), renderTimeline(feedback.timeline).element);
  if (feedback.takeaway) node.append(h('p', { class: 'takeaway' }, h('strong', {}, `${t('takeaway')}: `), inline(feedback.takeaway)));
  if (feedback.your_try) {
    const yours = h('div', { class: 'your-try' });
    drawFeedback(yours, feedback.your_try, keyView);
    // Beside the solution it is not the block's verdict: no focus, no live role.
    const verdict = yours.querySelector('.verdict');
    verdict.className = `your-verdict ${feedback.your_try.tone}`;
    verdict.removeAttribute('tabindex');
    node.append(yours);
  }
}

/** An exercise of `lesson` (`{id}`), `exercise` being `{id, kind,
 * concepts}`. `opened`, for a practice round: the screen it opened with
 * (`screen`), what comes after its feedback (`after`) and a function told
 * every screen drawn (`onDraw`). */
function viewExercise(lesson, exercise, opened = {}) {
  const box = h('section', { class: `exercise kind-${exercise.kind}`, id: `ex-${exercise.id}` });
  const heading = h('h3');
  const status = h('p', { class: 'exercise-status' });
  const next = h('p', { class: 'exercise-next muted' });
  const hints = h('ol', { class: 'hints' });
  const feedback = h('div', { class: 'feedback', 'aria-live': 'polite' });
  const body = h('div', { class: 'exercise-body' });
  const hintButton = h('button', { type: 'button' });
  const solutionButton = h('button', { type: 'button' });
  const solutionNote = h('span', { class: 'muted' });
  let kind = null;

  // The screen after an act. A hint, a change or an edit of the answer
  // leaves the feedback shown as it is (a worker's session may hold it).
  // The acts sim-core says run the explorers: this page's wasm has no
  // search, so they go to the grading worker, whose build has it.
  let searchActs = [];
  const draw = (screen, act) => {
    searchActs = screen.search_acts ?? [];
    clear(heading).append(screen.title, ' ', h('span', { class: 'muted kind' }, `· ${screen.kind_label}`));
    status.textContent = screen.standing_label;
    next.textContent = screen.status;
    clear(hints).append(...screen.hints.map((text) => h('li', {}, inline(text))));
    hintButton.textContent = screen.hint_button;
    hintButton.disabled = !screen.more_hints;
    solutionButton.textContent = screen.solution_button;
    solutionButton.disabled = !screen.solution_open;
    solutionButton.title = screen.solution_note ?? '';
    solutionNote.textContent = screen.solution_note ?? '';
    if (act !== 'hint' && act !== 'change' && act !== 'edit') {
      if (screen.feedback) drawFeedback(feedback, screen.feedback, kind?.keyView);
      else clear(feedback);
    }
    kind?.screen?.(screen);
    opened.onDraw?.(screen);
  };
  // One act, on this thread or (what runs the explorers, SQL) in a
  // worker's session; the screen after it is drawn and the progress saved.
  const act = async (what) => {
    const elsewhere = kind?.elsewhere?.(what)
      ?? (searchActs.includes(what.act) ? actOffThread(lesson.id, exercise.id, what) : null);
    const screen = elsewhere ? await elsewhere : JSON.parse(course.act(lesson.id, exercise.id, JSON.stringify(what)));
    save();
    draw(screen, what.act);
    return screen;
  };
  // After a hand-in, focus goes to the verdict (it has tabindex=-1, in an
  // aria-live region), not back to <body>.
  const focusVerdict = () => feedback.querySelector('.verdict')?.focus();
  const refuse = (error) => {
    clear(feedback).append(h('p', { class: 'verdict bad', tabindex: -1 }, errorText(error)));
    focusVerdict();
  };
  // A hand-in that takes a while (a design's: the explorers run in the
  // worker) shows the kind's busy line meanwhile, the page usable; one
  // act at a time.
  let checking = false;
  const handIn = async (what) => {
    if (checking) return;
    checking = true;
    const buttons = [...body.querySelectorAll('button.primary')];
    const slow = what.act === 'hand_in' && kind?.busy;
    if (slow) {
      for (const button of buttons) button.disabled = true;
      box.setAttribute('aria-busy', 'true');
      clear(feedback).append(h('p', { class: 'busy', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' ', kind.busy));
    }
    try {
      await act(what);
      focusVerdict();
    } catch (error) {
      refuse(error);
    } finally {
      checking = false;
      if (slow) {
        box.removeAttribute('aria-busy');
        for (const button of buttons) button.disabled = false;
      }
    }
  };
  const ctx = {
    // No answer: the session hands in the one in the making.
    submit: (answer) => handIn({ act: 'hand_in', answer }),
    // The answer in the making; one the session cannot read yet (a break
    // step half edited) is simply not kept.
    change: (answer) => act({ act: 'change', answer }).catch(() => {}),
    act,
  };
  hintButton.addEventListener('click', () => act({ act: 'hint' }).catch((error) => banner(errorText(error))));
  solutionButton.addEventListener('click', () => handIn({ act: 'solution' }));

  const screen = opened.screen ?? JSON.parse(course.act(lesson.id, exercise.id, '{"act":"open"}'));
  onScreen.push(() => act({ act: 'leave' }).catch(() => {}));
  const builders = { mark: itemsExercise, predict: itemsExercise, quiz: itemsExercise, design: editorExercise, break: editorExercise, sql: sqlExercise };
  kind = builders[exercise.kind]?.(lesson, exercise, body, { ...ctx, answer: screen.answer }) ?? null;
  draw(screen, 'open');

  box.append(heading,
    h('details', { class: 'course-details' }, h('summary', {}, t('courseDetails')),
      exercise.concepts.length ? h('p', { class: 'chips' }, exercise.concepts.map((c) => h('span', { class: 'chip' }, `${c.id} ${c.name}`))) : null,
      h('p', { class: 'muted' }, exercise.details ?? exercise.id)),
    h('p', { class: 'prompt' }, inline(screen.task)),
    // The verdict comes right after the answer and before the hint and
    // solution buttons: focus goes to it after a hand-in, and Tab then
    // reaches what a learner does next, not the next exercise.
    status, next, body, feedback, ...(opened.after ? [opened.after] : []),
    h('div', { class: 'buttons' }, hintButton, solutionButton, solutionNote),
    hints);
  return box;
}

// ---- practice rounds ---------------------------------------------------------------

// A lesson's endless practice (#/practice/ID): sim-core's practice view
// (what practice is, the round to play, the learner's standing) and the
// round itself, drawn in the practice worker from the view's key and
// opened by the course session, which checks it and serves it as a mark
// exercise: the same screen, timeline and feedback as a lesson's. Once
// the session says the round is finished, "Next round" draws the next
// one (its key from a fresh view: level and concept are the session's).
let openedRound = null;
function viewPractice(pool) {
  const view = JSON.parse(course.practiceView(pool));
  const roundLine = h('p', { class: 'practice-round-line' });
  const standing = h('p', { class: 'practice-standing muted' });
  const slot = h('div', { class: 'practice-slot' });
  const nextButton = h('button', { type: 'button', class: 'primary practice-next', hidden: true });
  const after = h('p', { class: 'buttons practice-next-row' }, nextButton);
  const root = h('article', { class: 'practice' },
    h('p', {}, h('a', { href: '#/' }, t('back')), ' · ', h('a', { href: lessonHref(pool) }, view.pool_title)),
    h('h1', {}, practiceIcon(), ' ', view.heading, ' ', h('span', { class: 'practice-pool' }, view.pool_title)),
    h('p', { class: 'intro' }, view.about),
    h('div', { class: 'practice-status' }, roundLine, standing),
    slot);
  // The words of the view (or of the round's screen, which carries it).
  const tell = (shown) => {
    roundLine.textContent = shown.round_line;
    standing.textContent = shown.standing_line;
    nextButton.textContent = shown.next_button;
    nextButton.hidden = !shown.round_finished;
  };
  tell(view);
  let drawing = false;
  // `fresh`: draw the view's round even when the one open is finished
  // (Next round); else a finished round open in this session is shown
  // again as it is (a language switch, coming back to it).
  const openRound = async (fresh) => {
    if (drawing) return;
    drawing = true;
    nextButton.hidden = true;
    const now = JSON.parse(course.practiceView(pool));
    tell({ ...now, round_finished: false });
    for (const leave of onScreen.splice(0)) leave();
    clear(slot).append(h('p', { class: 'busy', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' ', t('practiceDrawing')));
    try {
      const keyJson = JSON.stringify(now.key);
      // The session still holds the round: a finished one, or the very
      // round of this key (one key, one round), opened as it is.
      const kept = !fresh && (now.round_finished || keyJson === openedRound);
      let screen = null;
      if (kept) {
        try {
          screen = JSON.parse(course.act(now.lesson, now.exercise, '{"act":"open"}'));
        } catch { /* not open any more: drawn below */ }
      }
      if (!screen) {
        const round = await drawRound(now.key);
        // The learner went elsewhere meanwhile: nothing is opened.
        if (!root.isConnected) return;
        screen = JSON.parse(course.openPractice(JSON.stringify(round.key), round.scenario));
        openedRound = JSON.stringify(round.key);
        save();
      }
      // For teachers: the round's key, as `fencelab practice` and
      // `fencelab grade` take it.
      const details = `${screen.lesson} · ${screen.exercise} · ${openedRound}`;
      const box = viewExercise({ id: screen.lesson }, { id: screen.exercise, kind: screen.kind, concepts: [], details },
        { screen, after, onDraw: (shown) => { if (shown.practice) tell(shown.practice); } });
      clear(slot).append(box);
      if (fresh) {
        const heading = box.querySelector('h3');
        heading.setAttribute('tabindex', '-1');
        heading.focus();
      }
    } catch (error) {
      clear(slot).append(h('p', { class: 'verdict bad', role: 'alert' }, t('practiceFailed') + errorText(error)));
    } finally {
      drawing = false;
    }
  };
  nextButton.addEventListener('click', () => openRound(true));
  openRound(false);
  return root;
}

// A SQL exercise's screen and its SQLite load only when one opens (sql.js).
function sqlExercise(lesson, exercise, body, ctx) {
  const kind = {};
  import('./sql.js').then((sql) => sql.sqlExercise(kind, { course, lessons: lessonsText }, lesson, exercise, body, ctx), (error) => banner(errorText(error)));
  return kind;
}

/** An item's verdict and, once the session gives it, its reason. */
function itemMarks(item) {
  return [item?.verdict_label && h('span', { class: `item-verdict ${item.verdict}` }, ` ${item.verdict_label}`),
    item?.why && h('p', { class: 'why' }, inline(item.why))].filter(Boolean);
}

// A verdict and a key's sign as marks on the timeline.
const VERDICT_CELLS = { right: { text: '✓', cls: 'right' }, true: { text: '✓', cls: 'right' }, wrong: { text: '✗', cls: 'wrong' }, false: { text: '✗', cls: 'wrong' } };
const KEY_CELLS = { must: 'wrong', either: 'marked', leave: '' };

// Mark, predict and quiz: the screen's items (`screen.items`), drawn alike
// as `screen.choosing` says — on the exercise's timeline (steps) or as a
// list (options, in this learner's order, numbered by position), each with
// a box (any number), a radio (one) or a choice (each item one of
// `choices`), and what the session may say of it. Each click or choice is
// one edit act (`{edit: 'choose', item, value}`): the session toggles the
// item, chooses it alone or sets its value, and the controls are drawn
// from the screen after it; the hand-in sends no answer.
function itemsExercise(lesson, exercise, body, { submit, act }) {
  let choosing = null;
  let items = [];
  let shape = null;
  let timeline = null;
  const controls = new Map();
  const marks = new Map();
  const choose = (item, value = null) => act({ act: 'edit', edit: { edit: 'choose', item, value } }).catch((error) => banner(errorText(error)));
  const rows = () => {
    const verdicts = items.filter((item) => item.verdict);
    const keyed = items.filter((item) => item.key);
    return [
      { label: choosing.row_label, cells: new Map(items.map((item) => [item.index, { text: [...item.sign][0], cls: item.chosen ? 'marked' : 'unmarked' }])) },
      // The verdicts the session gives (none before it names an item), the key beside the solution.
      verdicts.length ? { label: '✓ / ✗', cells: new Map(verdicts.map((item) => [item.index, VERDICT_CELLS[item.verdict]])) } : null,
      keyed.length ? { label: t('key'), cells: new Map(keyed.map((item) => [item.index, { text: item.key.sign, cls: KEY_CELLS[item.key.tone] }])) } : null,
    ].filter(Boolean);
  };
  const activate = (index) => {
    const control = controls.get(index);
    if (!control) return;
    if (choosing.pick === 'each') control.focus();
    else choose(index);
  };
  const draw = () => {
    const data = choosing.on_timeline ? JSON.parse(course.exerciseTimeline(lesson.id, exercise.id)) : null;
    const type = choosing.pick === 'one' ? 'radio' : 'checkbox';
    const list = h('ul', { class: 'items' });
    controls.clear();
    marks.clear();
    items.forEach((item, position) => {
      const id = `item-${exercise.id}-${item.index}`;
      // A step chosen is shown on the timeline too.
      const onchange = (event) => { timeline?.select(item.index); choose(item.index, choosing.pick === 'each' ? event.target.value || null : null); };
      const control = choosing.pick === 'each'
        ? h('select', { id, onchange }, h('option', { value: '' }, t('choose')),
          choosing.choices.map((c) => h('option', { value: c.value, selected: item.value === c.value ? true : null }, c.label)))
        : h('input', { type, name: `items-${exercise.id}`, id, value: item.index, checked: item.chosen ? true : null, onchange });
      controls.set(item.index, control);
      marks.set(item.index, h('span', { class: 'item-marks' }));
      const said = data ? `${item.label}${t('labelSep')}${data.steps[item.index]?.narration ?? ''}` : `${position + 1}. ${item.text}`;
      list.append(h('li', {}, control, ' ', h('label', { for: id }, inline(said)), marks.get(item.index)));
    });
    timeline = data && renderTimeline(data, { extra: rows(), onActivate: activate, help: choosing.timeline_help, initial: timeline ? timeline.current() : 0 });
    clear(body).append(...[timeline?.element, h('p', {}, choosing.prompt), list,
      h('button', { type: 'button', class: 'primary', onclick: () => submit() }, t('submit'))].filter(Boolean));
  };
  return {
    screen(screen) {
      ({ choosing, items } = screen);
      // What the timeline may show changed, or a row came (or went): the
      // drawing's height changes, so draw anew.
      const now = `${screen.reveal.shows} ${rows().length}`;
      if (now !== shape) draw();
      else timeline?.setExtra(rows());
      shape = now;
      for (const item of items) {
        const control = controls.get(item.index);
        if (choosing.pick === 'each') control.value = item.value ?? '';
        else control.checked = item.chosen;
        clear(marks.get(item.index)).append(...itemMarks(item));
      }
    },
  };
}

// A design's knobs and a break's schedule: sim-core's editor
// (`screen.editor`), drawn as rows of fields. Each change is one edit act
// (`{act:'edit', edit}`) on this thread, and the editor is drawn again from
// the screen after it; the rules (what each field may take, that steps stay
// in tick order) are the editor's. A design's hand-in and solution run the
// explorers, in the grade worker.

// Each typed name's list of the names in use gets an id of its own.
let nameLists = 0;

/** A field's control: a checkbox, a tick, a typed name or a choice. */
function fieldControl(field, name, set) {
  const change = (event) => set(event.target.type === 'checkbox' ? String(event.target.checked) : event.target.value);
  const { input, min, max } = field.input;
  if (input === 'toggle') {
    return h('label', {}, h('input', { type: 'checkbox', 'aria-label': name, checked: field.value === 'true' ? true : null, onchange: change }), ` ${field.label}`);
  }
  if (input === 'number') return h('input', { type: 'number', class: 'at', min, max, value: field.value, 'aria-label': name, onchange: change });
  if (input === 'name') {
    const known = field.choices.filter((c) => c.value);
    const list = known.length ? h('datalist', { id: `names-${nameLists += 1}` }, known.map((c) => h('option', { value: c.value }))) : null;
    return [h('input', { type: 'text', size: 8, value: field.value, 'aria-label': name, list: list?.id, disabled: field.cyclable ? null : true, onchange: change }), list];
  }
  return h('select', { 'aria-label': name, disabled: field.cyclable ? null : true, onchange: change },
    field.choices.map((c) => h('option', { value: c.value, selected: c.value === field.value ? true : null }, c.label)));
}

/** Rows of fields as a table (cards on a narrow screen); a text that
 * repeats the one above it (a check set's name, a cost) is said once.
 * `cell(field, name, row, index, at)` draws field `at` of row `index`
 * (`name`: its unique label); `buttons(index, count)` a row's buttons. */
function editorTable(kind, rows, cell, buttons) {
  const heads = kind === 'schedule' && rows.length ? rows[0].fields.map((f) => f.label) : null;
  const said = (row, index) => ['label', 'detail', 'about'].map((key) => (index && row[key] === rows[index - 1][key] ? '' : row[key]));
  return h('div', { class: 'editor-scroll' }, h('table', { class: `editor editor-${kind}` },
    heads ? h('thead', {}, h('tr', {}, h('th'), heads.map((label) => h('th', { scope: 'col' }, label)), buttons ? h('th') : null)) : null,
    h('tbody', {}, rows.map((row, index) => {
      const [label, detail, about] = said(row, index);
      return h('tr', {}, h('th', { scope: 'row' }, label),
        row.fields.map((field, at) => h('td', { 'data-label': heads ? field.label : null },
          cell(field, field.label === row.label ? row.label : `${row.label} ${field.label}`, row, index, at))),
        detail || about ? h('td', { class: 'muted' }, [detail, about].filter(Boolean).join(' — ')) : null,
        buttons?.(index, rows.length));
    }))));
}

/** A field as the key shows it: ✓ or ✗ beside a checked name, else its value. */
const keyCell = (field) => (field.input.input === 'toggle' ? `${field.value === 'true' ? '✓' : '✗'} ${field.label}` : field.value_label);

function editorExercise(lesson, exercise, body, { submit, act }) {
  const design = exercise.kind === 'design';
  let shown = null;
  // Where focus goes after the next screen: a row (the editor's, when it
  // moved the step) and its field or button.
  let focusing = null;
  const world = h('p', { class: 'editor-world' });
  const rows = h('div');
  const total = h('p', { class: 'design-total', 'aria-live': 'polite' });
  const preview = h('div', { class: 'break-preview' });
  // Sent once focus has settled (a typed tick or name changes as focus
  // leaves it: the redraw keeps focus where the learner took it), in order;
  // a hand-in waits for them.
  let edits = Promise.resolve();
  const edit = (row, what, edited) => {
    edits = edits.then(() => new Promise((ok) => { setTimeout(ok); })).then(() => {
      focusing = { row, what };
      return act({ act: 'edit', edit: edited });
    }).catch((error) => { draw(shown); banner(errorText(error)); });
  };
  const focusAt = (row, what) => {
    const node = rows.querySelector(`[data-at="${row}/${what}"]`);
    return node?.matches('span') ? node.querySelector('input, select') : node;
  };
  const button = (index, what, text, label, edited, disabled) => h('button', { type: 'button', 'data-at': `${index}/${what}`, 'aria-label': label, disabled: disabled ? true : null, onclick: () => edit(index, what, edited) }, text);
  const stepButtons = (index, count) => {
    const name = (key) => `${shown.editor.rows[index].label} ${t(key)}`;
    return h('td', { class: 'row-buttons' },
      button(index, 'up', '↑', name('moveUp'), { edit: 'move_step', row: index, later: false }, index === 0),
      button(index, 'down', '↓', name('moveDown'), { edit: 'move_step', row: index, later: true }, index === count - 1),
      button(index, 'remove', '✕', name('removeStep'), { edit: 'remove_step', row: index }));
  };
  const addButton = h('button', { type: 'button', 'data-at': 'add', onclick: () => edit(null, 0, { edit: 'add_step', after: null }) }, t('addStep'));
  const area = h('textarea', { id: `break-${exercise.id}`, rows: 6, spellcheck: 'false', class: 'code' });
  const jsonProblem = h('p', { class: 'verdict bad', role: 'alert', hidden: true });
  // The whole schedule pasted as JSON: one change of the answer.
  area.addEventListener('change', () => {
    let answer;
    try {
      answer = JSON.parse(area.value);
    } catch (error) {
      jsonProblem.hidden = false;
      jsonProblem.textContent = t('breakJsonError') + errorText(error);
      return;
    }
    act({ act: 'change', answer }).then(() => { jsonProblem.hidden = true; }, (error) => {
      jsonProblem.hidden = false;
      jsonProblem.textContent = errorText(error);
    });
  });
  const draw = (screen) => {
    shown = screen;
    const was = rows.contains(document.activeElement) && document.activeElement.closest('[data-at]')?.dataset.at;
    const { editor } = screen;
    world.textContent = editor.world;
    const cell = (field, name, row, index, at) => h('span', { 'data-at': `${index}/${at}` },
      fieldControl(field, name, (value) => edit(index, at, { edit: 'set', row: index, field: at, value })));
    clear(rows).append(editorTable(editor.kind, editor.rows, cell, editor.kind === 'schedule' ? stepButtons : null));
    total.textContent = screen.cost_label ?? '';
    addButton.disabled = !editor.can_add;
    if (editor.kind === 'schedule') {
      area.value = JSON.stringify(screen.answer, null, 1);
      clear(preview).append(h('h4', {}, t('previewTitle')),
        screen.preview ? renderTimeline(screen.preview).element : h('p', { class: 'verdict bad' }, t('previewError') + (editor.problem ?? '')));
    }
    const edited = focusing;
    focusing = null;
    if (was && was !== `${edited?.row}/${edited?.what}`) {
      focusAt(...was.split('/'))?.focus();
    } else if (edited) {
      // The edited control again, on the row its step went to.
      const row = editor.focus ?? edited.row;
      [focusAt(row, edited.what), focusAt(row, edited.what === 'up' ? 'down' : 'up'), focusAt(row, 'remove'), addButton]
        .find((node) => node && !node.disabled)?.focus();
    }
  };
  body.append(...(design ? [world, h('p', {}, t('designPrompt')), rows, total]
    : [renderTimeline(JSON.parse(course.exerciseTimeline(lesson.id, exercise.id))).element, world, rows,
      h('div', { class: 'buttons' }, addButton), preview,
      h('details', { class: 'break-json' }, h('summary', {}, 'JSON'), h('label', { for: area.id }, t('breakPrompt')), area, jsonProblem)]),
  h('button', { type: 'button', class: 'primary', onclick: () => edits.then(() => submit(shown.answer)) }, t('submit')));
  return {
    busy: design ? t('checkingDesign') : null,
    keyView: (key, feedback) => (feedback.key_rows ? editorTable('design', feedback.key_rows, keyCell)
      // A schedule key: its steps in words, and the JSON the editor takes.
      : [key.map((step) => `${t('tick')} ${step.at}${t('labelSep')}${[step.worker, step.do, step.target && `→ ${step.target}`, step.request].filter(Boolean).join(' ')}`).join('; '),
        h('details', { class: 'break-json' }, h('summary', {}, 'JSON'), h('pre', { class: 'code key-json' }, JSON.stringify(key, null, 1)))]),
    screen: draw,
  };
}


// ---- the explorer ---------------------------------------------------------------------

let worker = null;

function viewExplore() {
  // Every field, its label, default and range or choices: the simulator's
  // explorer screen (the same offer as `fencelab explore`).
  const { fields } = JSON.parse(explorerChoices(lang()));
  const field = (label, input) => h('div', { class: 'field' }, h('label', { for: input.id }, label), input);
  const id = (key) => `x-${key.replaceAll('_', '-')}`;
  const inputs = {};
  let targets = [];
  let noTargets = null;
  const controls = fields.map((f) => {
    if (f.input === 'number') return field(f.label, inputs[f.key] = h('input', { type: 'number', id: id(f.key), value: f.default, min: f.min, max: f.max }));
    if (f.input === 'switch') {
      const box = inputs[f.key] = h('input', { type: 'checkbox', id: id(f.key) });
      return h('label', { for: box.id }, box, ` ${f.label}`);
    }
    if (f.input === 'menu') {
      // The chosen option's contents (a design's, a claim's SQL) under its menu.
      const note = h('small', { class: 'muted design-note', id: id(`${f.key}-note`) });
      const menu = inputs[f.key] = h('select', { id: id(f.key), 'aria-describedby': note.id },
        f.options.map((d) => h('option', { value: d.value, selected: d.value === f.default ? true : null }, d.value)));
      const describe = () => { note.textContent = f.options.find((d) => d.value === menu.value)?.note ?? ''; };
      menu.addEventListener('change', describe);
      describe();
      return h('div', { class: 'design-field' }, field(f.label, menu), note);
    }
    targets = Array.from({ length: f.count }, (_, i) => h('select', { id: `x-target-${i}` }, f.options.map((o) => h('option', { value: o.value }, o.words))));
    noTargets = h('input', { type: 'checkbox', id: 'x-no-targets' });
    return h('fieldset', {}, h('legend', {}, f.label), targets.map((sel, i) => field(`t${i + 1}`, sel)), h('label', { for: 'x-no-targets' }, noTargets, ` ${f.none}`));
  });
  const bar = h('progress', { max: 1, 'aria-label': t('running') });
  const barText = h('span', { class: 'bar-text', 'aria-live': 'polite' });
  const status = h('div', { class: 'explore-status', hidden: true }, bar, barText);
  const result = h('div', { class: 'explore-result', 'aria-live': 'polite' });
  const runButton = h('button', { type: 'button', class: 'primary' }, t('run'));
  const cancelButton = h('button', { type: 'button', disabled: true }, t('cancelRun'));

  const options = () => {
    const value = {};
    for (const [key, input] of Object.entries(inputs)) {
      value[key] = input.type === 'checkbox' ? input.checked : input.tagName === 'SELECT' ? input.value : Number(input.value);
    }
    if (noTargets?.checked) value.targets = [];
    else if (targets.some((sel) => sel.value !== 'design')) value.targets = targets.map((sel) => sel.value);
    return value;
  };
  const finish = () => { runButton.disabled = false; cancelButton.disabled = true; status.hidden = true; };
  cancelButton.addEventListener('click', () => {
    worker?.terminate();
    worker = null;
    finish();
    clear(result).append(h('p', { class: 'verdict' }, `⏹ ${t('cancelled')}`));
  });
  runButton.addEventListener('click', () => {
    worker?.terminate();
    worker = new Worker(new URL('./explore-worker.js', import.meta.url), { type: 'module' });
    runButton.disabled = true;
    cancelButton.disabled = false;
    status.hidden = false;
    bar.removeAttribute('value');
    barText.textContent = t('running');
    clear(result);
    worker.onmessage = (event) => {
      const message = event.data;
      if (message.kind === 'progress') {
        // The simulator's words for the search so far, and its bar.
        const p = message.progress;
        bar.max = p.total;
        bar.value = p.done;
        barText.textContent = `${p.title} ${p.counts}`;
      } else if (message.kind === 'done') {
        finish();
        worker.terminate();
        worker = null;
        showReport(result, message.report);
      } else {
        finish();
        worker.terminate();
        worker = null;
        clear(result).append(h('p', { class: 'verdict bad' }, message.message));
      }
    };
    worker.onerror = (event) => {
      finish();
      clear(result).append(h('p', { class: 'verdict bad' }, event.message || 'worker error'));
    };
    worker.postMessage({ options: options(), lang: lang() });
  });

  return h('div', { class: 'explore' },
    h('h1', {}, t('exploreTitle')), h('p', { class: 'intro' }, t('exploreIntro')),
    h('form', { class: 'explore-form', onsubmit: (e) => e.preventDefault() },
      controls, h('div', { class: 'buttons' }, runButton, cancelButton)),
    status, result);
}

/** A finished search: the simulator's report in words (`view`), and the counterexample's timeline. */
function showReport(node, report) {
  const { view } = report;
  const found = view.counterexample;
  clear(node).append(
    h('p', { class: `verdict ${view.tone}` }, `${view.title} — ${view.design}`),
    h('p', {}, inline(view.summary)),
    // The explanation is not repeated here: the counterexample's timeline
    // below opens with it, under its title.
    ...(found ? [h('p', { class: 'code' }, found.schedule)] : []),
    h('p', { class: 'muted' }, view.stats));
  if (report.timeline) {
    node.append(renderTimeline(report.timeline, { initial: found ? found.step : 0, openNarration: true }).element,
      shareButton(() => report.timeline.toml));
  }
}

// ---- the sandbox ------------------------------------------------------------------------

// The sandbox's text outlives leaving it: kept in the browser as it is typed.
const SANDBOX_KEY = 'fencelab.sandbox';

function viewSandbox(text = storage()?.getItem(SANDBOX_KEY) ?? sandboxSample(), title = t('sandboxTitle'), shared = false) {
  const area = h('textarea', { id: 'sandbox-text', rows: 16, spellcheck: 'false', class: 'code' });
  area.value = text;
  // A shared scenario is the link's, not the learner's draft, until edited.
  const keep = () => { try { storage()?.setItem(SANDBOX_KEY, area.value); } catch { /* full or blocked: the text stays on screen */ } };
  area.addEventListener('input', keep);
  const out = h('div', { class: 'sandbox-out', 'aria-live': 'polite' });
  const fileInput = h('input', { type: 'file', id: 'sandbox-file', accept: '.toml,text/plain', class: 'visually-hidden' });
  const runIt = () => {
    try {
      clear(out).append(renderTimeline(JSON.parse(sandbox(area.value, lang())), { openNarration: true }).element);
    } catch (error) {
      clear(out).append(h('p', { class: 'verdict bad' }, t('sandboxError')), h('pre', { class: 'errors' }, errorText(error)));
    }
  };
  fileInput.addEventListener('change', async () => {
    const file = fileInput.files && fileInput.files[0];
    if (file) {
      area.value = await file.text();
      // The menu no longer names an example: the text is the file's.
      picker.value = '';
      keep();
      runIt();
    }
  });
  if (shared) runIt();
  // Examples: the scenarios the lessons' sections show in full (never an
  // exercise's, whose timeline would give its key away), as the simulator
  // writes them back to TOML.
  const picker = h('select', { id: 'sandbox-example' }, h('option', { value: '' }, t('sandboxPick')));
  for (const { id } of JSON.parse(course.map()).lessons) {
    const lesson = JSON.parse(course.lesson(id));
    const shown = new Set(lesson.sections.map((section) => section.scenario).filter(Boolean));
    const options = lesson.scenarios.filter((scenario) => shown.has(scenario.name))
      .map((scenario) => h('option', { value: `${lesson.id}/${scenario.name}` }, scenario.title));
    if (options.length) picker.append(h('optgroup', { label: `${lesson.order}. ${lesson.title}` }, options));
  }
  picker.addEventListener('change', () => {
    if (!picker.value) return;
    const [lessonId, name] = picker.value.split('/');
    const toml = JSON.parse(course.scenarioTimeline(lessonId, name)).toml;
    if (toml) { area.value = toml; keep(); runIt(); }
  });
  return h('div', { class: 'sandbox' },
    h('h1', {}, title),
    h('p', {}, t('sandboxIntro'), ' ', h('a', { href: 'scenario-format.md', target: '_blank', rel: 'noopener' }, t('scenarioFormat'))),
    h('p', { class: 'field' }, h('label', { for: 'sandbox-example' }, `${t('sandboxExample')} `), picker),
    h('label', { for: 'sandbox-text', class: 'visually-hidden' }, t('sandboxTitle')), area,
    h('div', { class: 'buttons' },
      h('button', { type: 'button', class: 'primary', onclick: runIt }, t('runScenario')),
      shareButton(() => area.value),
      h('label', { class: 'button', for: 'sandbox-file', tabindex: 0, role: 'button',
        onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); fileInput.click(); } } }, t('openFile')),
      fileInput),
    out);
}

/** A share link: the scenario it holds, in the sandbox; a clear message when it holds none. */
function viewShare(code) {
  const view = h('div', { class: 'sandbox' }, h('h1', {}, t('shareTitle')), h('p', { 'aria-live': 'polite' }, t('shareOpening')));
  decodeShare(code).then((text) => {
    view.replaceWith(viewSandbox(text, t('shareTitle'), true));
  }, (error) => {
    clear(view).append(h('h1', {}, t('shareTitle')),
      h('p', { class: 'verdict bad share-error', role: 'alert' }, `✗ ${error instanceof ShareError ? t(error.key) : t('shareGarbage')}`),
      h('p', {}, h('a', { href: '#/sandbox' }, t('sandbox')), ' · ', h('a', { href: '#/' }, t('toMap'))));
  });
  return view;
}

// ---- routing ------------------------------------------------------------------------------

function route() {
  let view;
  let page;
  stopKeeping();
  // Moving on leaves the exercises on screen (their feedback goes, their
  // answers stay); a redraw of the same place (another language) keeps it.
  const leaving = location.hash === shownHash ? [] : onScreen;
  onScreen = [];
  shownHash = location.hash;
  for (const leave of leaving) leave();
  try {
    const hash = location.hash.replace(/^#\/?/, '');
    const parts = hash.split('/');
    page = parts[0];
    const arg = parts[1] === undefined ? undefined : decodeURIComponent(parts[1]);
    if (page === 'share') view = viewShare(parts.slice(1).join('/'));
    else if (page === '' || page === undefined) view = viewMap();
    else if (page === 'lesson' && arg) view = viewLesson(arg, parts[2] && decodeURIComponent(parts[2]));
    else if (page === 'practice' && arg) view = viewPractice(arg);
    else if (page === 'review') view = viewReview();
    else if (page === 'explore') view = viewExplore();
    else if (page === 'sandbox') view = viewSandbox();
    else throw new Error(t('notFound'));
  } catch (error) {
    view = h('div', {}, h('p', { class: 'verdict bad' }, errorText(error)), h('p', {}, h('a', { href: '#/' }, t('toMap'))));
  }
  clear(main()).append(view);
  for (const link of document.querySelectorAll('#nav a')) {
    const target = link.getAttribute('href').replace(/^#\/?/, '');
    link.toggleAttribute('aria-current', target === (page ?? '') || (target === '' && (page === 'lesson' || page === 'practice')) || (target === 'sandbox' && page === 'share'));
  }
  if (document.activeElement && document.activeElement !== document.body && !main().contains(document.activeElement)) main().focus();
  window.scrollTo(0, 0);
  // #/lesson/ID/EXERCISE: Continue's link lands on that exercise's heading.
  const parts = location.hash.replace(/^#\/?/, '').split('/');
  if (parts[0] === 'lesson' && parts[2] !== undefined) {
    const heading = document.getElementById(`ex-${decodeURIComponent(parts[2])}`)?.querySelector('h3');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.scrollIntoView({ block: 'start' });
      heading.focus({ preventScroll: true });
      keepInView(heading);
    }
  }
}

// What the page draws after it landed (a preview above, the SQL engine's
// module) grows the page above the target and pushed it out of view: until
// the page settles (a few seconds) or the learner moves on their own, every
// change of size brings the target back.
let stopKeeping = () => {};
function keepInView(target) {
  stopKeeping();
  const watch = new ResizeObserver(() => target.scrollIntoView({ block: 'start' }));
  const events = ['wheel', 'keydown', 'pointerdown', 'touchstart'];
  const timer = setTimeout(() => stopKeeping(), 3000);
  stopKeeping = () => {
    watch.disconnect();
    clearTimeout(timer);
    for (const event of events) window.removeEventListener(event, stopKeeping, true);
    stopKeeping = () => {};
  };
  for (const event of events) window.addEventListener(event, stopKeeping, true);
  watch.observe(main());
}

async function boot() {
  try {
    // The wasm and the course (data, fetched beside it) load together;
    // Promise.all handles either failing first, so no rejection goes unhandled.
    const lessons = fetch('lessons.json').then((response) => {
      if (!response.ok) throw new Error(`lessons.json: ${response.status} ${response.statusText}`);
      return response.text();
    });
    const wasm = init().then(() => performance.mark('fencelab:wasm'));
    const [text] = await Promise.all([lessons, wasm]);
    course = new Course(text);
    lessonsText = text;
    performance.mark('fencelab:course');
  } catch (error) {
    // Without the wasm there are no words: the page's own fallback says it.
    const failed = document.getElementById('boot-failed');
    failed.append(errorText(error));
    failed.hidden = false;
    clear(main()).append(failed);
    return;
  }
  loadSaved();
  // A learner without a quiz seed gets one now, from the browser's real
  // randomness (sim-core has none), kept with the progress.
  if (course.seedIfMissing(crypto.getRandomValues(new Uint32Array(1))[0])) save();
  applyLang();
  document.getElementById('version').textContent = `fencelab ${JSON.parse(engineVersion())}`;
  window.addEventListener('hashchange', route);
  route();
  performance.mark('fencelab:interactive');
}

window.addEventListener('error', (event) => banner(String(event.message)));
window.addEventListener('unhandledrejection', (event) => banner(errorText(event.reason)));
boot();
