// The acts that run the explorers (a design's grade and worked solution, a
// break exercise's worked solution), off the page's thread: the explorers try every
// schedule of the exercise's world, which takes long enough to freeze the
// page. This worker holds its own CourseSession (the same lessons, the
// page's progress as sent), acts there by the session's rules and sends
// back the exercise's screen and its record. The page takes that record in
// (`takeWorkerProgress`), so the try counts once and nothing the page did
// meanwhile is lost, and draws the screen. (A graded try does not cross to
// the page's session: it holds the explorers' counterexample, which has no
// JSON form to come back from; so the screen comes across instead, and this
// session, kept between messages, holds the try the solution is shown
// beside.)

// The explorer's build of the wasm: the page's own leaves the search out.
import init, { Course } from './fencelab_web_explorer.js';

const ready = init();
let course = null;
let lessonsText = null;

self.onmessage = async (event) => {
  const { id, lessons, progress, lesson, exercise, act } = event.data;
  try {
    await ready;
    if (!course || lessonsText !== lessons) {
      course = new Course(lessons);
      lessonsText = lessons;
    }
    course.loadProgress(progress);
    const screen = JSON.parse(course.act(lesson, exercise, act));
    self.postMessage({ id, kind: 'done', screen, progress: course.progressJson() });
  } catch (error) {
    self.postMessage({ id, kind: 'error', message: String(error && error.message ? error.message : error) });
  }
};
