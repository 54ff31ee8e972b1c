// A design's grade, off the page's thread: the explorers try every
// schedule of the exercise's world, which takes long enough to freeze the
// page. This worker holds its own CourseSession (the same lessons, the
// page's progress as sent), grades there — recording the try by the
// session's rules — and sends back the grade and its record. The page
// merges that record into its own session (`mergeProgress`), so the try
// counts once and nothing the page did meanwhile is lost.

import init, { Course } from './fencelab_web.js';

const ready = init();
let course = null;
let lessonsText = null;

self.onmessage = async (event) => {
  const { id, lessons, progress, lesson, exercise, answer } = event.data;
  try {
    await ready;
    if (!course || lessonsText !== lessons) {
      course = new Course(lessons);
      lessonsText = lessons;
    }
    course.loadProgress(progress);
    const result = JSON.parse(course.grade(lesson, exercise, answer));
    self.postMessage({ id, kind: 'done', result, progress: course.progressJson() });
  } catch (error) {
    self.postMessage({ id, kind: 'error', message: String(error && error.message ? error.message : error) });
  }
};
