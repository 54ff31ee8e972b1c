//! Entry points for the benchmarks (`benches/render.rs`): the app's real
//! start-up and drawing paths, into a ratatui `TestBackend` instead of a
//! terminal. Not an interface for anything else.

use std::path::Path;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use sim_core::Scenario;

use crate::app::model::{App, Screen};
use crate::app::persist::Store;
use crate::app::theme::Theme;
use crate::app::update::{Message, update};
use crate::app::{Launch, Opened, open, start, view};

/// The app at a fixed size, drawn into memory.
#[derive(Debug)]
pub struct Frames {
    app: App,
    terminal: Terminal<TestBackend>,
}

impl Frames {
    fn new(mut app: App, width: u16, height: u16) -> std::io::Result<Frames> {
        update(&mut app, Message::Resize { width, height });
        let terminal = Terminal::new(TestBackend::new(width, height))?;
        Ok(Frames { app, terminal })
    }

    /// `fencelab open FILE`'s timeline of `scenario`, at its first step.
    pub fn sandbox(scenario: Scenario, width: u16, height: u16) -> std::io::Result<Frames> {
        let app = start(
            Opened::Scenario("bench".to_owned(), Box::new(scenario)),
            None,
            Theme { color: true },
        );
        Frames::new(app, width, height)
    }

    /// What `fencelab` does before its first frame: read the lessons in
    /// `lessons` and the progress in `data_dir`, and build the course.
    pub fn course(
        lessons: &Path,
        data_dir: &Path,
        width: u16,
        height: u16,
    ) -> std::io::Result<Frames> {
        let launch = Launch::Course {
            lessons: crate::course_cmd::LessonSource::Folder(lessons.to_path_buf()),
        };
        let opened = open(&launch, sim_core::Lang::En)
            .map_err(|_| std::io::Error::other(format!("cannot open {}", lessons.display())))?;
        let mut store = Store::new(data_dir.to_path_buf());
        let app = start(opened, Some(&mut store), Theme { color: true });
        Frames::new(app, width, height)
    }

    /// Draws one frame; returns the number of cells drawn.
    pub fn draw(&mut self) -> std::io::Result<usize> {
        let app = &self.app;
        let frame = self.terminal.draw(|frame| view::view(frame, app))?;
        Ok(frame.buffer.content.len())
    }

    /// The sandbox timeline's next step (back to the first after the last).
    pub fn step(&mut self) {
        let at_end = match self.app.screen() {
            Screen::Sandbox(state) => state.timeline.cursor + 1 >= state.timeline.len(),
            _ => false,
        };
        let message = if at_end {
            Message::FirstStep
        } else {
            Message::StepForward
        };
        update(&mut self.app, message);
    }
}
