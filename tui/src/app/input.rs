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
//!
//! It also wakes when the terminal is resized (SIGWINCH, through a pipe of
//! its own: the signal may be delivered to any thread, so an interrupted
//! wait is not enough). The loop then drains crossterm's queue at once.
//! Left there until a key arrived, the resize would be handed out alone
//! and swallow that key: crossterm watches the terminal edge-triggered and
//! returns the signal's event without reading the bytes that came with it,
//! which then waited for the next key.

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
    /// The read end of the pipe a SIGWINCH writes to (none if the signal
    /// could not be hooked: a resize then waits for the next wake-up).
    #[cfg(unix)]
    resized: Option<std::os::unix::net::UnixStream>,
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
            Ok(Watch {
                tty,
                resized: resize_pipe(),
            })
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
        let mut fds = vec![PollFd::from_borrowed_fd(fd, PollFlags::IN)];
        if let Some(resized) = &self.resized {
            fds.push(PollFd::from_borrowed_fd(resized.as_fd(), PollFlags::IN));
        }
        let timeout = Timespec {
            tv_sec: i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: i64::from(timeout.subsec_nanos()),
        };
        match poll(&mut fds, Some(&timeout)) {
            Ok(0) => Ok(Input::Idle),
            Ok(_) => {
                let revents = fds[0].revents();
                if fds
                    .get(1)
                    .is_some_and(|f| f.revents().contains(PollFlags::IN))
                {
                    self.empty_resize_pipe();
                }
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

    /// Reads what the resize signals wrote, so the pipe wakes the next
    /// wait only for the next resize.
    #[cfg(unix)]
    fn empty_resize_pipe(&self) {
        use std::io::Read as _;
        if let Some(mut resized) = self.resized.as_ref() {
            let mut bytes = [0_u8; 64];
            while matches!(resized.read(&mut bytes), Ok(n) if n == bytes.len()) {}
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

/// A pipe that SIGWINCH writes a byte to; its non-blocking read end.
#[cfg(unix)]
fn resize_pipe() -> Option<std::os::unix::net::UnixStream> {
    let (read, write) = std::os::unix::net::UnixStream::pair().ok()?;
    read.set_nonblocking(true).ok()?;
    signal_hook::low_level::pipe::register(signal_hook::consts::SIGWINCH, write).ok()?;
    Some(read)
}
