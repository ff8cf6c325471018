//! The driver every text protocol runs on (UAI for Ataxx, UHP for Hive): it reads the input on its
//! own thread, runs long commands (searches, perft) as background jobs with a stop flag, and keeps
//! answering while they run.
//!
//! A protocol implements [`Protocol`]: it says how each command treats a running job
//! ([`Protocol::disposition`]) and handles the command ([`Protocol::handle`]), possibly returning a
//! [`Task`] that the driver runs on a thread of its own. [`run`] is the loop:
//!
//! - the input is read by a thread that does nothing else, so a command is seen as soon as its line
//!   ends, whatever runs; a line longer than [`MAX_LINE_BYTES`] is dropped (reported through
//!   [`Protocol::input_error`]) without being held in memory, as is a line that is not UTF-8;
//! - a [`Disposition::Now`] command (UAI's `isready`) is handled at once, even while a job runs;
//! - a [`Disposition::StopFirst`] command (UAI's `stop`, `position`, `go`) first raises the running
//!   job's stop flag and waits for the job to end (a search prints its `bestmove`), then is handled;
//! - a [`Disposition::Quit`] command, and the end of the input, stop the job the same way and end
//!   the loop.
//!
//! Jobs must look at their stop flag often (the search does every 1024 nodes, perft every few
//! thousand leaves), so that a stop takes effect within milliseconds. The stop flag is the only
//! way a job ends early: the driver never abandons a thread.
//!
//! ```
//! use plyscope::protocol::driver::{run, Disposition, Output, Protocol, Task};
//!
//! /// Answers `ping` with `pong`; `count` counts until stopped.
//! struct Ping;
//! impl Protocol for Ping {
//!     fn disposition(&self, cmd: &str) -> Disposition {
//!         match cmd {
//!             "ping" => Disposition::Now,
//!             "quit" => Disposition::Quit,
//!             _ => Disposition::StopFirst,
//!         }
//!     }
//!     fn handle(&mut self, words: &[&str], out: &Output) -> Option<Task> {
//!         match words[0] {
//!             "ping" => out.line("pong"),
//!             "count" => {
//!                 return Some(Box::new(|job| {
//!                     let mut n = 0u64;
//!                     while !job.stopped() && n < 1000 {
//!                         n += 1;
//!                     }
//!                     job.out.line(&format!("counted {n}"));
//!                 }))
//!             }
//!             _ => {}
//!         }
//!         None
//!     }
//! }
//!
//! let out = plyscope::protocol::driver::SharedBuffer::default();
//! run(Ping, &b"ping\ncount\nping\nquit\n"[..], out.clone());
//! let text = out.text();
//! assert!(text.starts_with("pong\n") && text.contains("counted "));
//! ```

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The longest input line read, in bytes (4 MiB: a UAI `position ... moves` line of 10^5 moves fits).
/// Longer lines are dropped and reported, without being held in memory.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// How many characters of an unknown or malformed input are shown back in a message.
pub const MAX_ECHO_CHARS: usize = crate::core::SHOWN_CHARS;

/// `text` quoted and cut to [`MAX_ECHO_CHARS`] characters, so that a huge line is never echoed
/// back whole (the same as [`crate::core::shown`]).
pub use crate::core::shown;

/// Where a protocol's answers go; cloned freely (the driver and a running job share it). Each
/// [`Output::line`] writes one whole line and flushes it; write errors are ignored (the other side
/// has gone, and the end of the input will follow).
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// An output writing to `w`.
    pub fn new<W: Write + Send + 'static>(w: W) -> Output {
        Output {
            inner: Arc::new(Mutex::new(Box::new(w))),
        }
    }

    /// Writes `text` and a newline, and flushes.
    pub fn line(&self, text: &str) {
        let mut w = match self.inner.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// A running job's handles: its stop flag and the output.
pub struct Job {
    /// Raised by the driver when the job must end (a `stop`, a new command, `quit`, end of input).
    pub stop: Arc<AtomicBool>,
    /// Where the job writes its answers.
    pub out: Output,
}

impl Job {
    /// Whether the job has been told to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A long command's work, run by the driver on its own thread.
pub type Task = Box<dyn FnOnce(&Job) + Send + 'static>;

/// How a command treats a job that is running when it arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disposition {
    /// Handled at once; the job keeps running (UAI's `isready`).
    Now,
    /// The job is told to stop and has ended before the command is handled (UAI's `stop`,
    /// `position`, `go`: the stopped search prints its `bestmove` first, as Stockfish does).
    StopFirst,
    /// Like [`Disposition::StopFirst`], then the session ends after the command is handled.
    Quit,
}

/// Input that could not be read as a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// The line is not UTF-8 text.
    NotUtf8,
    /// The line is longer than [`MAX_LINE_BYTES`]; it had this many bytes (counted up to its end).
    TooLong(usize),
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::NotUtf8 => write!(f, "the line is not UTF-8 text"),
            InputError::TooLong(n) => write!(
                f,
                "the line is too long ({n} bytes; at most {MAX_LINE_BYTES} are read): ignored"
            ),
        }
    }
}

/// A text protocol over the driver.
pub trait Protocol {
    /// Writes what the engine says before any command (UHP's `id` line); nothing by default.
    fn greet(&mut self, _out: &Output) {}

    /// How the command whose first word is `cmd` treats a running job.
    fn disposition(&self, cmd: &str) -> Disposition;

    /// Handles a command (`words` is the line split on whitespace, never empty), writing its
    /// answers to `out`. A long command returns the work to run in the background; the driver
    /// starts it once this returns.
    fn handle(&mut self, words: &[&str], out: &Output) -> Option<Task>;

    /// Reports a line that could not be read (by default as UAI's `info string error: ...`).
    fn input_error(&mut self, error: &InputError, out: &Output) {
        out.line(&format!("info string error: {error}"));
    }
}

/// One event from the input thread.
enum Event {
    Line(String),
    Bad(InputError),
    End,
}

/// Reads one line of at most `max` bytes into `buf` (without its end of line). Returns `Ok(None)`
/// at the end of the input, `Ok(Some(n))` with the line's full length otherwise: when `n > max`
/// the line was dropped and `buf` is empty.
fn read_line_bounded<R: BufRead>(
    r: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let (done, used) = {
            let chunk = match r.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !any {
                    return Ok(None);
                }
                (true, 0)
            } else {
                any = true;
                match chunk.iter().position(|&b| b == b'\n') {
                    Some(i) => {
                        if total + i <= max {
                            buf.extend_from_slice(&chunk[..i]);
                        }
                        total += i;
                        (true, i + 1)
                    }
                    None => {
                        if total + chunk.len() <= max {
                            buf.extend_from_slice(chunk);
                        } else {
                            buf.clear();
                        }
                        total += chunk.len();
                        (false, chunk.len())
                    }
                }
            }
        };
        r.consume(used);
        if done {
            if total > max {
                buf.clear();
            } else if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Some(total));
        }
    }
}

/// The input thread: reads lines and sends them on until the end of the input (or a read error,
/// or nobody listening).
fn reader<R: Read>(input: R, tx: mpsc::Sender<Event>) {
    let mut r = BufReader::new(input);
    let mut buf = Vec::new();
    loop {
        let ev = match read_line_bounded(&mut r, &mut buf, MAX_LINE_BYTES) {
            Ok(None) | Err(_) => Event::End,
            Ok(Some(n)) if n > MAX_LINE_BYTES => Event::Bad(InputError::TooLong(n)),
            Ok(Some(_)) => match String::from_utf8(std::mem::take(&mut buf)) {
                Ok(s) => Event::Line(s),
                Err(_) => Event::Bad(InputError::NotUtf8),
            },
        };
        let end = matches!(ev, Event::End);
        if tx.send(ev).is_err() || end {
            return;
        }
    }
}

/// The job running, if any.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl Running {
    /// Raises the stop flag and waits for the job to end.
    fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.handle.join();
    }
}

/// Runs `protocol` on `input` until a [`Disposition::Quit`] command or the end of the input,
/// writing answers to `output`. Returns once any running job has stopped; the input thread is
/// left to end with the input (a process about to exit need not wait for its standard input).
pub fn run<P, R, W>(mut protocol: P, input: R, output: W)
where
    P: Protocol,
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let out = Output::new(output);
    protocol.greet(&out);
    let (tx, rx) = mpsc::channel();
    let _reader = std::thread::Builder::new()
        .name("protocol input".into())
        .spawn(move || reader(input, tx));
    let mut running: Option<Running> = None;
    loop {
        // A job that ended on its own is joined at once (its thread's result is nothing).
        if running.as_ref().is_some_and(|r| r.handle.is_finished()) {
            if let Some(r) = running.take() {
                let _ = r.handle.join();
            }
        }
        let line = match rx.recv() {
            Ok(Event::Line(l)) => l,
            Ok(Event::Bad(e)) => {
                protocol.input_error(&e, &out);
                continue;
            }
            Ok(Event::End) | Err(_) => break,
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            continue;
        };
        let disposition = protocol.disposition(cmd);
        if disposition != Disposition::Now {
            if let Some(r) = running.take() {
                r.stop();
            }
        }
        let task = protocol.handle(&words, &out);
        if disposition == Disposition::Quit {
            break;
        }
        if let Some(task) = task {
            if let Some(r) = running.take() {
                // A Now command started a job while one ran: the older one ends first.
                r.stop();
            }
            let stop = Arc::new(AtomicBool::new(false));
            let job = Job {
                stop: stop.clone(),
                out: out.clone(),
            };
            match std::thread::Builder::new()
                .name("protocol job".into())
                .spawn(move || task(&job))
            {
                Ok(handle) => running = Some(Running { stop, handle }),
                Err(e) => out.line(&format!("info string error: cannot start a thread: {e}")),
            }
        }
    }
    if let Some(r) = running.take() {
        r.stop();
    }
}

/// A warning about words after a command that takes none (or fewer), or `None` if there are none:
/// `ignored "x y" after isready`.
pub fn extra_words(cmd: &str, extra: &[&str]) -> Option<String> {
    if extra.is_empty() {
        return None;
    }
    Some(format!("ignored {} after {cmd}", shown(&extra.join(" "))))
}

/// An in-memory output that can be read while the driver writes to it (for tests and examples).
#[derive(Clone, Default)]
pub struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// Everything written so far, as text (bytes that are not UTF-8 are replaced).
    pub fn text(&self) -> String {
        let b = match self.0.lock() {
            Ok(b) => b,
            Err(p) => p.into_inner(),
        };
        String::from_utf8_lossy(&b).into_owned()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut b = match self.0.lock() {
            Ok(b) => b,
            Err(p) => p.into_inner(),
        };
        b.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Option<usize>> {
        let mut r = BufReader::with_capacity(3, input);
        let mut buf = Vec::new();
        let mut got = Vec::new();
        loop {
            let n = read_line_bounded(&mut r, &mut buf, max).unwrap();
            got.push(n);
            if n.is_none() {
                return got;
            }
        }
    }

    #[test]
    fn lines_are_bounded() {
        assert_eq!(
            lines(b"ab\r\nabcdefgh\nxyz", 5),
            vec![Some(3), Some(8), Some(3), None]
        );
        let mut r = BufReader::with_capacity(2, &b"abcdefgh\nok\n"[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line_bounded(&mut r, &mut buf, 4).unwrap(), Some(8));
        assert!(buf.is_empty());
        assert_eq!(read_line_bounded(&mut r, &mut buf, 4).unwrap(), Some(2));
        assert_eq!(buf, b"ok");
    }

    #[test]
    fn echoes_are_cut() {
        assert_eq!(shown("abc"), "\"abc\"");
        let long = "é".repeat(1000);
        let s = shown(&long);
        assert!(s.len() < 200 && s.ends_with("(2000 bytes in all)"), "{s}");
        assert_eq!(extra_words("isready", &[]), None);
        assert_eq!(
            extra_words("isready", &["now", "please"]).unwrap(),
            "ignored \"now please\" after isready"
        );
    }
}
