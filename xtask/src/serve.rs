//! `cargo xtask serve [--port N]`: build, then serve `www/` on loopback.

use crate::step::Failure;
use crate::{build, settings};
use std::path::{Component, Path, PathBuf};
use std::thread::JoinHandle;

pub fn run(args: &[String]) -> Result<(), Failure> {
    let settings = settings::load()?;
    let port = match args {
        [] => settings.serve.port,
        [flag, n] if flag == "--port" => {
            n.parse().map_err(|_| Failure::new("arguments", format!("--port takes a number, got {n:?}")))?
        }
        _ => return Err(Failure::new("arguments", "usage: cargo xtask serve [--port N]")),
    };
    build::run()?;
    let server = Server::start(&settings.serve.host, port)?;
    println!("\nringlab playground: {}  (Ctrl-C to stop)", server.url);
    server.thread.join().map_err(|_| Failure::new("serve", "the server thread stopped"))
}

/// A static file server for `www/`, on its own thread.
pub struct Server {
    pub url: String,
    pub thread: JoinHandle<()>,
}

impl Server {
    /// Starts serving `www/` on `host:port` (port 0 picks a free one).
    pub fn start(host: &str, port: u16) -> Result<Server, Failure> {
        let name = "start the web server";
        let server = tiny_http::Server::http((host, port)).map_err(|e| {
            Failure::new(name, format!("cannot listen on {host}:{port} ({e}); try another with --port N"))
        })?;
        let port = server.server_addr().to_ip().map(|a| a.port()).unwrap_or(port);
        // A few threads, so one slow download (the wasm) never holds up a page's other files.
        let server = std::sync::Arc::new(server);
        let workers: Vec<JoinHandle<()>> = (0..4)
            .map(|_| {
                let server = server.clone();
                std::thread::spawn(move || {
                    while let Ok(request) = server.recv() {
                        let _ = respond(request);
                    }
                })
            })
            .collect();
        let thread = std::thread::spawn(move || workers.into_iter().for_each(|w| drop(w.join())));
        Ok(Server { url: format!("http://{host}:{port}/"), thread })
    }
}

fn respond(request: tiny_http::Request) -> std::io::Result<()> {
    let url = request.url().split(['?', '#']).next().unwrap_or("/").to_string();
    match file_for(&url).and_then(|path| std::fs::read(&path).ok().map(|body| (path, body))) {
        Some((path, body)) => {
            let mime = content_type(&path);
            let response = tiny_http::Response::from_data(body)
                .with_header(header("Content-Type", mime))
                .with_header(header("Cache-Control", "no-store"));
            request.respond(response)
        }
        None => request.respond(tiny_http::Response::from_string("not found").with_status_code(404)),
    }
}

/// The file under `www/` for a URL path; `None` for anything that would leave `www/`.
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

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("static header is valid")
}
