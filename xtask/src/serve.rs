//! `cargo xtask serve [--port N] [--csp] [--prefix /ringlab/]`: build, then serve `www/` on
//! loopback, at the root or, as GitHub Pages does for a project site, under a path prefix.
//!
//! A static file server with bounds a hostile client cannot get past: the request head is
//! read with a byte limit (newline or not), at most [`Limits::connections`] connections are
//! served at once (others are refused with 503 and closed), each connection has one deadline
//! for reading and writing, and accept errors back off instead of spinning.

use crate::step::Failure;
use crate::{build, settings};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The policy `--csp` sends: the page's own scripts, styles and wasm, and data: images.
pub const CSP: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

pub fn run(args: &[String]) -> Result<(), Failure> {
    let settings = settings::load()?;
    let usage = || Failure::new("arguments", "usage: cargo xtask serve [--port N] [--csp] [--prefix /PATH/]");
    let mut port = settings.serve.port;
    let mut options = Options::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => {
                let n = args.next().ok_or_else(usage)?;
                port = n.parse().map_err(|_| Failure::new("arguments", format!("--port takes a number, got {n:?}")))?;
            }
            "--csp" => options.csp = true,
            "--prefix" => options.prefix = normal_prefix(args.next().ok_or_else(usage)?),
            _ => return Err(usage()),
        }
    }
    build::run()?;
    let server = Server::start_with(&settings.serve.host, port, options)?;
    println!("\nringlab playground: {}  (Ctrl-C to stop)", server.url);
    server.thread.join().map_err(|_| Failure::new("serve", "the server thread stopped"))
}

/// The bounds on what one client can hold.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most bytes of request line and headers together.
    pub head_bytes: usize,
    /// Most connections served at once (one thread each).
    pub connections: usize,
    /// Time a connection has to send its request and take the whole answer.
    pub deadline: Duration,
    /// Pause after a failed `accept` (e.g. out of file descriptors).
    pub accept_backoff: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            head_bytes: 8 * 1024,
            connections: 64,
            deadline: Duration::from_secs(10),
            accept_backoff: Duration::from_millis(100),
        }
    }
}

/// How to serve.
#[derive(Clone, Debug)]
pub struct Options {
    pub limits: Limits,
    /// Send [`CSP`] as the `Content-Security-Policy` of every answer.
    pub csp: bool,
    /// The folder served.
    pub root: PathBuf,
    /// The URL path it is served at: `"/"`, or `"/ringlab/"` as GitHub Pages serves a project
    /// site (then nothing outside it is found, so a root-relative URL fails the page tests).
    pub prefix: String,
}

impl Default for Options {
    fn default() -> Options {
        Options { limits: Limits::default(), csp: false, root: PathBuf::from("www"), prefix: "/".into() }
    }
}

/// `ringlab`, `/ringlab` or `/ringlab/` as `/ringlab/`; empty as `/`.
pub fn normal_prefix(prefix: &str) -> String {
    let inner = prefix.trim_matches('/');
    if inner.is_empty() {
        "/".into()
    } else {
        format!("/{inner}/")
    }
}

/// A static file server, on its own thread.
pub struct Server {
    pub url: String,
    pub thread: JoinHandle<()>,
}

impl Server {
    /// Starts serving with these options.
    ///
    /// Every response closes its connection: a browser's idle keep-alive sockets then never
    /// hold a worker.
    pub fn start_with(host: &str, port: u16, options: Options) -> Result<Server, Failure> {
        let listener = TcpListener::bind((host, port)).map_err(|e| {
            Failure::new(
                "start the web server",
                format!("cannot listen on {host}:{port} ({e}); try another with --port N"),
            )
        })?;
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
        let url = format!("http://{host}:{port}{}", options.prefix);
        let options = Arc::new(options);
        let thread = std::thread::spawn(move || accept_loop(listener, options));
        Ok(Server { url, thread })
    }
}

fn accept_loop(listener: TcpListener, options: Arc<Options>) {
    let active = Arc::new(AtomicUsize::new(0));
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(_) => {
                std::thread::sleep(options.limits.accept_backoff);
                continue;
            }
        };
        let Some(slot) = Slot::take(&active, options.limits.connections) else {
            refuse_busy(stream);
            continue;
        };
        let mine = Arc::clone(&options);
        let spawned = std::thread::Builder::new().spawn(move || {
            let _slot = slot;
            drop(respond(stream, &mine));
        });
        if spawned.is_err() {
            std::thread::sleep(options.limits.accept_backoff);
        }
    }
}

/// One of the bounded connection places; given back when dropped (even on a panic).
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(active: &Arc<AtomicUsize>, max: usize) -> Option<Slot> {
        active.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < max).then_some(n + 1)).ok()?;
        Some(Slot(Arc::clone(active)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Says 503 without waiting on the client, and closes.
fn refuse_busy(mut stream: TcpStream) {
    let _ = stream.set_nonblocking(true);
    let _ = stream.write_all(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
}

/// What reading the request head gave.
enum Head {
    Complete(Vec<u8>),
    /// Over the byte limit; `true` if no line had ended yet (a request line too long).
    TooLarge {
        no_newline: bool,
    },
    /// The client closed, stalled past the deadline, or failed.
    Gone,
}

/// Reads up to the blank line that ends the head, never more than `limit` bytes and never
/// past `deadline`.
fn read_head(stream: &mut TcpStream, limit: usize, deadline: Instant) -> Head {
    let mut head = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        let Some(left) = deadline.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) else {
            return Head::Gone;
        };
        if stream.set_read_timeout(Some(left)).is_err() {
            return Head::Gone;
        }
        // Never read past the limit, so one read cannot overshoot it.
        let room = (limit + 1 - head.len()).min(chunk.len());
        let n = match stream.read(&mut chunk[..room]) {
            Ok(0) | Err(_) => return Head::Gone,
            Ok(n) => n,
        };
        head.extend_from_slice(&chunk[..n]);
        if let Some(end) = head_end(&head) {
            head.truncate(end);
            return Head::Complete(head);
        }
        if head.len() > limit {
            return Head::TooLarge { no_newline: !head.contains(&b'\n') };
        }
    }
}

/// The length of the head up to and including its blank line, if it is all here.
fn head_end(bytes: &[u8]) -> Option<usize> {
    let crlf = bytes.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    let lf = bytes.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    crlf.into_iter().chain(lf).min()
}

/// Answers one `GET` (or `HEAD`) on `stream`, then closes it.
fn respond(mut stream: TcpStream, options: &Options) -> std::io::Result<()> {
    let deadline = Instant::now() + options.limits.deadline;
    let head = match read_head(&mut stream, options.limits.head_bytes, deadline) {
        Head::Complete(head) => head,
        Head::TooLarge { no_newline } => {
            let status = if no_newline { "414 URI Too Long" } else { "431 Request Header Fields Too Large" };
            answer(&mut stream, options, deadline, status, None)?;
            return linger(stream, deadline);
        }
        Head::Gone => return Ok(()),
    };
    let line = String::from_utf8_lossy(&head);
    let mut words = line.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or("/"));
    let path = target.split(['?', '#']).next().unwrap_or("/");
    if !matches!(method, "GET" | "HEAD") {
        return answer(&mut stream, options, deadline, "405 Method Not Allowed", None);
    }
    let prefix = options.prefix.as_str();
    // The prefix without its slash redirects to it, as Pages does.
    if prefix.len() > 1 && path == prefix.trim_end_matches('/') {
        let header = format!(
            "HTTP/1.1 301 Moved Permanently\r\nLocation: {prefix}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        return write_by(&mut stream, header.as_bytes(), deadline);
    }
    let found = path
        .strip_prefix(prefix)
        .and_then(|rest| file_for(&options.root, rest))
        .and_then(|file| std::fs::read(&file).ok().map(|body| (file, body)));
    let head_only = method == "HEAD";
    match found {
        Some((file, body)) => {
            answer(&mut stream, options, deadline, "200 OK", Some((content_type(&file), &body, head_only)))
        }
        None => answer(&mut stream, options, deadline, "404 Not Found", None),
    }
}

/// Closes after an early answer without resetting the connection: reads (and drops) what the
/// client is still sending, up to a bound, so the answer reaches it.
fn linger(mut stream: TcpStream, deadline: Instant) -> std::io::Result<()> {
    stream.shutdown(std::net::Shutdown::Write)?;
    let until = deadline.min(Instant::now() + Duration::from_secs(1));
    let mut sink = [0u8; 4096];
    let mut drained = 0usize;
    while drained < 256 * 1024 {
        let Some(left) = until.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) else {
            break;
        };
        stream.set_read_timeout(Some(left))?;
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
    Ok(())
}

/// Writes a status and an optional `(type, body, head only)`, within the deadline.
fn answer(
    stream: &mut TcpStream,
    options: &Options,
    deadline: Instant,
    status: &str,
    content: Option<(&str, &[u8], bool)>,
) -> std::io::Result<()> {
    let (mime, body, head_only) = content.unwrap_or(("text/plain; charset=utf-8", status.as_bytes(), false));
    let csp = if options.csp { format!("Content-Security-Policy: {CSP}\r\n") } else { String::new() };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n{csp}Connection: close\r\n\r\n",
        body.len()
    );
    // One write of head and body, without Nagle's wait: a head written alone is held back
    // until the client acknowledges it, and Linux delays that acknowledgement up to 40 ms, a
    // stall on every file a page loads that a real host does not have.
    stream.set_nodelay(true)?;
    let mut answer = header.into_bytes();
    if !head_only {
        answer.extend_from_slice(body);
    }
    write_by(stream, &answer, deadline)?;
    stream.flush()
}

/// Writes in chunks, giving up at the deadline: a client that reads slowly cannot hold the
/// thread longer than that.
fn write_by(stream: &mut TcpStream, bytes: &[u8], deadline: Instant) -> std::io::Result<()> {
    for chunk in bytes.chunks(16 * 1024) {
        let left = deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::TimedOut, "connection deadline"))?;
        stream.set_write_timeout(Some(left))?;
        stream.write_all(chunk)?;
    }
    Ok(())
}

/// The file under `root` for a URL path; `None` for anything that would leave it.
fn file_for(root: &Path, url: &str) -> Option<PathBuf> {
    let relative = Path::new(url.trim_start_matches('/'));
    if !relative.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let path = root.join(relative);
    Some(if path.is_dir() { path.join("index.html") } else { path })
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::ErrorKind;

    /// A folder with an index page, served with `limits` (and CSP if asked).
    fn serve(limits: Limits, csp: bool) -> (Server, std::net::SocketAddr) {
        serve_at(limits, csp, "/")
    }

    fn serve_at(limits: Limits, csp: bool, prefix: &str) -> (Server, std::net::SocketAddr) {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("ringlab-serve-test-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("index.html"), "<p>hello</p>").unwrap();
        let options = Options { limits, csp, root, prefix: normal_prefix(prefix) };
        let server = Server::start_with("127.0.0.1", 0, options).unwrap();
        let addr = server.url.trim_start_matches("http://").split('/').next().unwrap().parse().unwrap();
        (server, addr)
    }

    /// Everything the server sends until it closes (the client gives up after 20 s, which only
    /// a broken server reaches).
    fn read_all(stream: &mut TcpStream) -> String {
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
                Err(e) => panic!("the server neither answered nor closed: {e}"),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    fn small() -> Limits {
        Limits { head_bytes: 1024, connections: 4, deadline: Duration::from_millis(500), ..Limits::default() }
    }

    #[test]
    fn serves_a_file_with_the_csp_only_when_asked() {
        for csp in [false, true] {
            let (_server, addr) = serve(small(), csp);
            let mut stream = TcpStream::connect(addr).unwrap();
            stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
            let reply = read_all(&mut stream);
            assert!(reply.starts_with("HTTP/1.1 200 OK"), "{reply}");
            assert!(reply.ends_with("<p>hello</p>"));
            let header = format!("Content-Security-Policy: {CSP}\r\n");
            assert_eq!(reply.contains(&header), csp, "{reply}");
        }
    }

    #[test]
    fn under_a_prefix_only_the_prefix_is_served() {
        let (server, addr) = serve_at(small(), false, "ringlab");
        assert!(server.url.ends_with("/ringlab/"), "{}", server.url);
        let get = |path: &str| {
            let mut stream = TcpStream::connect(addr).unwrap();
            stream.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes()).unwrap();
            read_all(&mut stream)
        };
        assert!(get("/ringlab/").ends_with("<p>hello</p>"));
        assert!(get("/ringlab/index.html").starts_with("HTTP/1.1 200 OK"));
        assert!(get("/index.html").starts_with("HTTP/1.1 404"), "a root-relative URL is not found");
        let moved = get("/ringlab");
        assert!(moved.starts_with("HTTP/1.1 301") && moved.contains("Location: /ringlab/"), "{moved}");
        assert_eq!(normal_prefix(""), "/");
        assert_eq!(normal_prefix("/a/b/"), "/a/b/");
    }

    #[test]
    fn a_request_line_without_a_newline_is_cut_at_the_byte_limit() {
        let (_server, addr) = serve(small(), false);
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(&[b'A'; 1200]).unwrap();
        let reply = read_all(&mut stream);
        assert!(reply.starts_with("HTTP/1.1 414"), "{reply:?}");
    }

    #[test]
    fn endless_headers_are_cut_at_the_byte_limit() {
        let (_server, addr) = serve(small(), false);
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(b"GET / HTTP/1.1\r\n").unwrap();
        stream.write_all(&b"X-Filler: yes\r\n".repeat(100)).unwrap();
        let reply = read_all(&mut stream);
        assert!(reply.starts_with("HTTP/1.1 431"), "{reply:?}");
    }

    #[test]
    fn an_endless_stream_of_bytes_is_closed() {
        let (_server, addr) = serve(small(), false);
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.set_write_timeout(Some(Duration::from_secs(20))).unwrap();
        // Sends until the server closes; 64 MiB would take a broken server a long while to eat.
        let sent = (0..64 * 1024).try_for_each(|_| stream.write_all(&[b'A'; 1024]));
        assert!(sent.is_err(), "the server read 64 MiB of request line");
    }

    #[test]
    fn a_silent_or_trickling_client_is_cut_at_the_deadline() {
        let (_server, addr) = serve(small(), false);
        let mut silent = TcpStream::connect(addr).unwrap();
        silent.write_all(b"GET / HTTP/1.1\r\n").unwrap();
        assert_eq!(read_all(&mut silent), "", "closed without an answer");

        // One byte every 50 ms would take 100 s to finish; the 500 ms deadline cuts it.
        let mut trickle = TcpStream::connect(addr).unwrap();
        let cut = (0..2000).any(|_| {
            std::thread::sleep(Duration::from_millis(50));
            trickle.write_all(b"G").is_err()
        });
        assert!(cut, "a trickling client held its connection");
    }

    #[test]
    fn connections_past_the_bound_are_refused_while_the_others_wait() {
        let limits = Limits { connections: 2, deadline: Duration::from_secs(5), ..small() };
        let (_server, addr) = serve(limits, false);
        let held: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
        let mut third = TcpStream::connect(addr).unwrap();
        let reply = read_all(&mut third);
        assert!(reply.starts_with("HTTP/1.1 503"), "{reply:?}");
        drop(held);
    }
}
