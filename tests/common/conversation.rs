//! Talking to a protocol engine line by line, as a GUI does: send a line, wait for an answer, send
//! the next. Works in-process (the driver on a thread, its input a channel) and with the `plyscope`
//! binary (its standard input and output as pipes).
//!
//! Waiting never asserts how fast anything is: [`Conversation::wait_for`] gives up only after
//! [`PATIENCE`], a bound meant to catch a hang, not to measure speed.

use plyscope::protocol::driver::SharedBuffer;
use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long to wait for an answer before calling the engine hung: far beyond anything a working
/// engine needs on a loaded machine.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// The read end of an in-process pipe: the bytes sent through the channel, then the end of input
/// once every sender is gone.
pub struct ChannelReader {
    rx: mpsc::Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.is_empty() {
            match self.rx.recv() {
                Ok(b) => self.pending = b,
                Err(_) => return Ok(0),
            }
        }
        let n = self.pending.len().min(buf.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

struct ChannelWriter(mpsc::Sender<Vec<u8>>);

impl Write for ChannelWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .send(buf.to_vec())
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

enum Engine {
    Thread(JoinHandle<()>),
    /// The process and the thread copying its standard output.
    Process(Child, JoinHandle<()>),
}

/// A conversation with an engine.
pub struct Conversation {
    input: Option<Box<dyn Write + Send>>,
    out: SharedBuffer,
    engine: Option<Engine>,
    /// Lines already returned by `wait_for`.
    seen: usize,
}

impl Conversation {
    /// Runs `run(input, output)` on a thread: the driver of an in-process protocol.
    pub fn in_process(
        run: impl FnOnce(ChannelReader, SharedBuffer) + Send + 'static,
    ) -> Conversation {
        let (tx, rx) = mpsc::channel();
        let out = SharedBuffer::default();
        let o = out.clone();
        let h = std::thread::spawn(move || {
            run(
                ChannelReader {
                    rx,
                    pending: Vec::new(),
                },
                o,
            )
        });
        Conversation {
            input: Some(Box::new(ChannelWriter(tx))),
            out,
            engine: Some(Engine::Thread(h)),
            seen: 0,
        }
    }

    /// Starts the `plyscope` binary with `args`, its standard input and output piped.
    pub fn binary(args: &[&str]) -> Conversation {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plyscope"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("plyscope runs");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let out = SharedBuffer::default();
        let mut o = out.clone();
        let copier = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let _ = o.write_all(&buf[..n]);
            }
        });
        Conversation {
            input: Some(Box::new(stdin)),
            out,
            engine: Some(Engine::Process(child, copier)),
            seen: 0,
        }
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        let w = self.input.as_mut().expect("input still open");
        // The engine may have quit already; what it answered is checked by the caller.
        let _ = w.write_all(line.as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }

    /// Sends raw bytes as they are.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let w = self.input.as_mut().expect("input still open");
        let _ = w.write_all(bytes);
        let _ = w.flush();
    }

    /// Every complete line written so far.
    pub fn lines(&self) -> Vec<String> {
        let text = self.out.text();
        let complete = text.rfind('\n').map_or("", |i| &text[..i]);
        complete.lines().map(str::to_string).collect()
    }

    /// Waits for a line, not returned by an earlier call, that satisfies `pred`; returns the
    /// lines up to and including it. Panics with everything said so far after [`PATIENCE`].
    pub fn wait_for(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let t = Instant::now();
        loop {
            let lines = self.lines();
            if let Some(i) = lines[self.seen..].iter().position(|l| pred(l)) {
                let got = lines[self.seen..self.seen + i + 1].to_vec();
                self.seen += i + 1;
                return got;
            }
            assert!(
                t.elapsed() < PATIENCE,
                "no {what} after {PATIENCE:?}; the engine said: {lines:#?}"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Waits for a line starting with `prefix` (see [`Conversation::wait_for`]).
    pub fn wait_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.wait_for(prefix, |l| l.starts_with(prefix))
    }

    /// Closes the input (the end of the input for the engine) without waiting.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// Closes the input and waits for the engine to end; returns every line it wrote and how
    /// long it took to end after the input closed. Panics if it has not ended after [`PATIENCE`].
    pub fn finish(mut self) -> (Vec<String>, Duration) {
        self.input = None;
        let t = Instant::now();
        match self.engine.take().unwrap() {
            Engine::Thread(h) => {
                while !h.is_finished() {
                    assert!(
                        t.elapsed() < PATIENCE,
                        "the driver did not return: {:#?}",
                        self.lines()
                    );
                    std::thread::sleep(Duration::from_millis(1));
                }
                h.join().expect("the driver does not panic");
            }
            Engine::Process(mut child, copier) => {
                loop {
                    if let Some(status) = child.try_wait().unwrap() {
                        assert!(status.success(), "exit status {status}");
                        break;
                    }
                    if t.elapsed() > PATIENCE {
                        let _ = child.kill();
                        panic!("the engine did not exit: {:#?}", self.lines());
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                let took = t.elapsed();
                // The copier ends with the pipe, once it has every byte the engine wrote.
                copier.join().unwrap();
                return (self.lines(), took);
            }
        }
        (self.lines(), t.elapsed())
    }
}

impl Drop for Conversation {
    fn drop(&mut self) {
        if let Some(Engine::Process(child, _)) = self.engine.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
