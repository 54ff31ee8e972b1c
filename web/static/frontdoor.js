// The front door: the problem in one sentence, two short stories played as
// animations, and one button — Start lesson 1, or Continue at the next
// unfinished exercise once the learner has begun. Both stories are
// scenarios the wasm crate runs when the page asks (`Course.frontDoor`):
// their steps, leases, outcomes and endings are the engine's, this file
// only places them. With prefers-reduced-motion the stories are drawn
// whole, without movement (style.css).

import { h, s, inline } from './dom.js';
import { t, tf, legendItems } from './strings.js';

const COL = 36;
const LANE = 34;
const LEASE_LANE = 16;
const LABEL = 66;
/** Room for the tick axis above the lanes. */
const TOP = 22;
/** Seconds between two steps of a story. */
const BEAT = 0.9;

/** The y of each lane's top, and the drawing's height. */
function lanesOf(data) {
  let y = TOP;
  const lanes = data.lanes.map((lane) => {
    const height = lane.kind === 'lease' ? LEASE_LANE : LANE;
    const placed = { ...lane, y, height };
    y += height;
    return placed;
  });
  return { lanes, bottom: y + 6 };
}

/** What a step's symbol means, for its tooltip (the timeline's legend words). */
function symbolWords(mark) {
  const [, words] = legendItems().find(([symbol]) => symbol === mark.symbol) ?? [];
  return words ?? '';
}

/** One story: the drawing, its key, then its steps in words; `offset` beats before it starts. */
function storyFigure(story, offset) {
  const data = story.timeline;
  const { lanes, bottom } = lanesOf(data);
  const width = LABEL + data.columns.length * COL + 8;
  const x = (column) => LABEL + column * COL + COL / 2;
  const mid = (lane) => lanes[lane].y + lanes[lane].height / 2;
  const beat = (index) => `${(offset + index) * BEAT}s`;
  const svg = s('svg', {
    class: 'story-svg', viewBox: `0 0 ${width} ${bottom}`, width, height: bottom,
    role: 'img', 'aria-label': `${data.title}${t('labelSep')}${story.ending}`,
  });
  // The tick axis: each tick over the steps it holds (a group of steps
  // that share one tick gets one label), `⋯` over quiet ticks.
  svg.append(s('text', { class: 'story-axis', x: 4, y: 14 }, t('axisTicks')));
  for (const label of data.tick_labels) {
    const at = x(label.column) + ((label.span - 1) * COL) / 2;
    svg.append(s('text', { class: 'story-axis', x: at, y: 14, 'text-anchor': 'middle' }, label.text,
      label.words ? s('title', {}, label.words) : null));
  }
  lanes.forEach((lane) => {
    if (lane.kind !== 'lease') svg.append(s('line', { class: 'story-lane', x1: LABEL, x2: width - 4, y1: lane.y + lane.height / 2, y2: lane.y + lane.height / 2 }));
    if (lane.label) svg.append(s('text', { class: 'story-label', x: 4, y: lane.y + lane.height / 2 + 4 }, lane.label));
  });
  // A lease grows while its story reaches it, and stops where it ran out.
  for (const lease of data.leases) {
    const lane = lanes[lease.lane];
    const firstStep = data.steps.findIndex((step) => step.column >= lease.start_column);
    const bar = s('rect', {
      class: `story-lease end-${lease.end}`, x: x(lease.start_column) - COL / 2 + 2, y: lane.y + 3,
      width: Math.max(6, (lease.end_column - lease.start_column) * COL), height: lane.height - 6, rx: 3,
    }, s('title', {}, lease.words));
    bar.style.setProperty('--at', beat(Math.max(0, firstStep)));
    svg.append(bar);
  }
  for (const idle of data.idle) {
    const line = s('line', {
      class: 'story-idle', x1: x(idle.from_column), x2: x(idle.to_column), y1: mid(idle.lane), y2: mid(idle.lane),
    }, s('title', {}, idle.words));
    const firstStep = data.steps.findIndex((step) => step.column >= idle.from_column);
    line.style.setProperty('--at', beat(Math.max(0, firstStep)));
    svg.append(line);
  }
  // Numbered from 0, as the narration counts steps ("at step 2").
  const captions = h('ol', { class: 'story-steps', start: 0 });
  data.steps.forEach((step, index) => {
    const ending = index === story.ending_step;
    const cls = ending ? (story.violation ? ' ending landed' : story.landed ? ' ending' : ' ending refused') : '';
    const group = s('g', { class: `story-step${cls}` });
    group.style.setProperty('--at', beat(index));
    const actorY = step.actor === null || step.actor === undefined ? null : mid(step.actor);
    const resourceY = step.resource === null || step.resource === undefined ? null : mid(step.resource);
    if (actorY !== null && resourceY !== null && resourceY !== actorY) {
      group.append(s('line', { class: 'story-arrow', x1: x(step.column), x2: x(step.column), y1: actorY, y2: resourceY }));
    }
    if (actorY !== null) {
      group.append(s('circle', { class: 'story-dot', cx: x(step.column), cy: actorY, r: 11 }),
        s('text', { class: 'story-glyph', x: x(step.column), y: actorY + 4 }, step.glyph, s('title', {}, step.word)));
    }
    if (resourceY !== null || actorY !== null) {
      const y = resourceY ?? actorY;
      group.append(s('text', { class: `story-symbol mark-${step.mark}`, x: x(step.column) + (resourceY === null ? 14 : 0), y: y + 5 },
        step.symbol, s('title', {}, symbolWords(step))));
    }
    svg.append(group);
    const item = h('li', { class: `story-caption${cls}` }, inline(step.narration));
    item.style.setProperty('--at', beat(index));
    captions.append(item);
  });
  const outcome = h('p', { class: `story-outcome ${story.violation ? 'bad' : 'good'}` },
    h('span', { class: 'sym', 'aria-hidden': 'true' }, `${story.symbol} `), story.ending);
  outcome.style.setProperty('--at', beat(data.steps.length));
  // The key to what this story shows: its actions, then its symbols.
  const key = new Map();
  for (const step of data.steps) key.set(step.glyph, step.word);
  for (const step of data.steps) if (step.symbol.trim()) key.set(step.symbol, symbolWords(step));
  const legend = h('p', { class: 'story-legend muted' },
    [...key].map(([symbol, words]) => h('span', {}, h('b', { 'aria-hidden': 'true' }, symbol), ` ${words}`)));
  return h('figure', { class: 'story' },
    h('figcaption', {}, h('h2', {}, data.title)),
    h('div', { class: 'story-scroll' }, svg),
    legend, captions, outcome);
}

/**
 * The front door as a section: `door` is `Course.frontDoor()` parsed;
 * `lessonHref(lessonId, exerciseId)` makes the link Start or Continue follows.
 */
export function frontDoor(door, firstLesson, lessonHref) {
  // Side by side and at the same time: one schedule, two endings.
  const figures = door.stories.map((story) => storyFigure(story, 0));
  const stories = h('div', { class: 'stories playing' }, figures);
  const replay = h('button', { type: 'button', class: 'replay', onclick: () => {
    // Restarting a CSS animation: take the class off, let the browser see
    // it gone (a layout read), put it back.
    stories.classList.remove('playing');
    void stories.offsetWidth;
    stories.classList.add('playing');
  } }, t('storyReplay'));
  let action;
  if (door.next && door.started) {
    action = h('a', { class: 'button primary start', href: lessonHref(door.next.lesson, door.next.exercise) },
      `${t('continueNext')}${t('labelSep')}${tf('continueWhere', { n: door.next.lesson_order, title: door.next.title })}`);
  } else if (door.next || firstLesson) {
    action = h('a', { class: 'button primary start', href: lessonHref(firstLesson) }, t('startLesson1'));
  } else {
    action = h('p', {}, t('allDone'));
  }
  return h('section', { class: 'front-door', 'aria-labelledby': 'door-title' },
    h('h1', { id: 'door-title' }, door.problem),
    // The way in comes before the stories, so a phone shows it at once.
    h('div', { class: 'buttons door-buttons' }, action),
    h('p', { class: 'muted' }, t('storyIntro')),
    stories,
    h('div', { class: 'buttons' }, replay));
}
