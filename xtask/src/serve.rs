//! `cargo xtask serve [--port N] [--prefix /ringlab/]`: build, then serve `www/` on loopback,
//! at the root or, as GitHub Pages does for a project site, under a path prefix.

use crate::step::Failure;
use crate::{build, settings};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::thread::JoinHandle;
use std::time::Duration;

pub fn run(args: &[String]) -> Result<(), Failure> {
    let settings = settings::load()?;
    let usage = || Failure::new("arguments", "usage: cargo xtask serve [--port N] [--prefix /PATH/]");
    let (mut port, mut prefix) = (settings.serve.port, "/".to_string());
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or_else(usage)?;
        match flag.as_str() {
            "--port" => {
                port = value.parse().map_err(|_| Failure::new("arguments", format!("--port takes a number, got {value:?}")))?
            }
            "--prefix" => prefix = value.clone(),
            _ => return Err(usage()),
        }
    }
    build::run()?;
    let server = Server::start(&settings.serve.host, port, &prefix)?;
    println!("\nringlab playground: {}  (Ctrl-C to stop)", server.url);
    server.thread.join().map_err(|_| Failure::new("serve", "the server thread stopped"))
}

/// A static file server for `www/`, on its own thread.
pub struct Server {
    pub url: String,
    pub thread: JoinHandle<()>,
}

impl Server {
    /// Starts serving `www/` on `host:port` (port 0 picks a free one) at URL path `prefix`
    /// (`"/"`, or `"/ringlab/"` as on GitHub Pages: then nothing outside it is found, so a
    /// root-relative URL in the site fails the page tests).
    ///
    /// One thread per connection, and every response closes its connection: a browser's
    /// idle keep-alive sockets then never hold a worker (tiny_http's pooled workers left a
    /// page load hanging now and then in the page tests).
    pub fn start(host: &str, port: u16, prefix: &str) -> Result<Server, Failure> {
        let prefix = format!("/{}/", prefix.trim_matches('/')).replace("//", "/");
        let listener = TcpListener::bind((host, port)).map_err(|e| {
            Failure::new("start the web server", format!("cannot listen on {host}:{port} ({e}); try another with --port N"))
        })?;
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
        let url = format!("http://{host}:{port}{prefix}");
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let prefix = prefix.clone();
                std::thread::spawn(move || drop(respond(stream, &prefix)));
            }
        });
        Ok(Server { url, thread })
    }
}

/// Answers one `GET` (or `HEAD`) on `stream`, then closes it.
fn respond(mut stream: TcpStream, prefix: &str) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut head = Vec::new();
    let mut reader = BufReader::new(stream.try_clone()?);
    // The request line, then headers up to the blank line (no request here has a body).
    loop {
        let before = head.len();
        if reader.read_until(b'\n', &mut head)? == 0 || head.len() > 16 * 1024 {
            break;
        }
        if &head[before..] == b"\r\n" || &head[before..] == b"\n" {
            break;
        }
    }
    let line = String::from_utf8_lossy(&head);
    let mut words = line.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or("/"));
    let path = target.split(['?', '#']).next().unwrap_or("/");
    // The prefix without its slash redirects to it, as Pages does.
    if prefix.len() > 1 && path == prefix.trim_end_matches('/') {
        let header = format!("HTTP/1.1 301 Moved Permanently\r\nLocation: {prefix}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        stream.write_all(header.as_bytes())?;
        return stream.flush();
    }
    let found = path
        .strip_prefix(prefix)
        .and_then(file_for)
        .and_then(|file| std::fs::read(&file).ok().map(|body| (file, body)));
    let (status, mime, body) = match (method, found) {
        ("GET" | "HEAD", Some((file, body))) => ("200 OK", content_type(&file), body),
        ("GET" | "HEAD", None) => ("404 Not Found", "text/plain; charset=utf-8", b"not found".to_vec()),
        _ => ("405 Method Not Allowed", "text/plain; charset=utf-8", b"GET only".to_vec()),
    };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(header.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()
}

/// The file under `www/` for a URL path below the prefix; `None` for anything that would
/// leave `www/`.
fn file_for(url: &str) -> Option<PathBuf> {
    let relative = Path::new(url.trim_start_matches('/'));
    if !relative.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let path = Path::new("www").join(relative);
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
