//! Whether the terminal's input is still there.
//!
//! crossterm 0.28 reads its input in a loop that never ends when a read
//! returns 0 bytes (end of input, a pty whose other side closed) or fails
//! with anything but `WouldBlock`/`Interrupted`: an orphaned app spun in
//! `read(0)` at full speed and never looked at its signal flag again. So
//! the event loop asks poll(2) itself, on the same descriptor crossterm
//! reads (standard input when it is a terminal, else `/dev/tty`), and
//! calls crossterm only when a key is really waiting. A hang-up or an
//! error on the descriptor means the learner's terminal is gone.

use std::io;
use std::time::Duration;

/// What the terminal's input holds after a wait.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// Bytes are waiting: crossterm may read them.
    Ready,
    /// Nothing within the timeout, or a signal arrived.
    Idle,
    /// The terminal hung up, or its input ended or failed.
    Gone,
}

/// The descriptor crossterm reads keys from.
#[derive(Debug)]
pub(crate) struct Watch {
    #[cfg(unix)]
    tty: Tty,
}

#[cfg(unix)]
#[derive(Debug)]
enum Tty {
    Stdin,
    Opened(std::fs::File),
}

impl Watch {
    pub(crate) fn new() -> io::Result<Watch> {
        #[cfg(unix)]
        {
            use std::io::IsTerminal as _;
            let tty = if io::stdin().is_terminal() {
                Tty::Stdin
            } else {
                Tty::Opened(std::fs::File::open("/dev/tty")?)
            };
            Ok(Watch { tty })
        }
        #[cfg(not(unix))]
        Ok(Watch {})
    }

    /// Waits up to `timeout` for input.
    #[cfg(unix)]
    pub(crate) fn wait(&self, timeout: Duration) -> io::Result<Input> {
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        use std::os::fd::AsFd as _;
        let stdin = io::stdin();
        let fd = match &self.tty {
            Tty::Stdin => stdin.as_fd(),
            Tty::Opened(file) => file.as_fd(),
        };
        let mut fds = [PollFd::from_borrowed_fd(fd, PollFlags::IN)];
        let timeout = Timespec {
            tv_sec: i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: i64::from(timeout.subsec_nanos()),
        };
        match poll(&mut fds, Some(&timeout)) {
            Ok(0) => Ok(Input::Idle),
            Ok(_) => {
                let revents = fds[0].revents();
                if revents.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL) {
                    Ok(Input::Gone)
                } else if revents.contains(PollFlags::IN) {
                    Ok(Input::Ready)
                } else {
                    Ok(Input::Idle)
                }
            }
            // A signal: the event loop looks at its flag next.
            Err(rustix::io::Errno::INTR) => Ok(Input::Idle),
            Err(error) => Err(error.into()),
        }
    }

    /// Waits up to `timeout` for input (crossterm's own wait where poll(2)
    /// is not available).
    #[cfg(not(unix))]
    pub(crate) fn wait(&self, timeout: Duration) -> io::Result<Input> {
        Ok(if ratatui::crossterm::event::poll(timeout)? {
            Input::Ready
        } else {
            Input::Idle
        })
    }
}
