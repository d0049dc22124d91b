//! What a reader did with each line of a text: read it (it places a server or sets something
//! the placement uses), or passed over it (known not to change the placement), and why.
//!
//! Every reader takes a [`Lines`] and notes each line as it visits it, on the same path that
//! reads: [`from_config`](super::from_config) passes one that keeps nothing, and
//! [`check`](super::check) keeps the notes for its report. So the report cannot disagree with
//! the reading: it is the reading, written down.
//!
//! A line is noted once however many times the reader visits it (an nginx line with two
//! directives, a long libketama line read in pieces): a line that is read anywhere is read.
//! Blank lines (only spaces and tabs) are never listed.

use serde::Serialize;
use std::borrow::Cow;

/// What became of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineStatus {
    /// Known not to change the placement (a comment, a timeout, another section...).
    PassedOver,
    /// Read: it places a server, or sets something the placement uses.
    Read,
    /// The line the text was refused on.
    Refused,
}

/// One line of a [`ConfigCheck`](super::ConfigCheck): its 1-based number, what became of it
/// and why, in plain words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineNote {
    pub line: usize,
    pub status: LineStatus,
    pub why: String,
}

type Note = (LineStatus, Cow<'static, str>);

/// The notes of one reading (see the module's doc).
#[derive(Debug, Default)]
pub struct Lines {
    /// By line (0-based), when kept: `None` for a blank line, `Some(None)` for one not noted yet.
    notes: Option<Vec<Option<Option<Note>>>>,
    section: Option<String>,
}

impl Lines {
    /// A sink that keeps nothing ([`from_config`](super::from_config)'s).
    pub fn ignore() -> Lines {
        Lines::default()
    }

    /// A sink that keeps a note for every non-blank line of `text`.
    pub fn keep(text: &str) -> Lines {
        let notes = text.lines().map(|l| (!l.trim().is_empty()).then_some(None)).collect();
        Lines { notes: Some(notes), section: None }
    }

    /// Whether notes are kept (a reader may skip work that only notes).
    pub fn keeping(&self) -> bool {
        self.notes.is_some()
    }

    /// Line `line` (1-based) is read.
    pub fn read(&mut self, line: usize, why: impl Into<Cow<'static, str>>) {
        self.note(line, LineStatus::Read, why);
    }

    /// Line `line` (1-based) is passed over.
    pub fn pass(&mut self, line: usize, why: impl Into<Cow<'static, str>>) {
        self.note(line, LineStatus::PassedOver, why);
    }

    /// Lines `first..=last` (a directive over several lines) get one note.
    pub fn span(&mut self, first: usize, last: usize, status: LineStatus, why: Cow<'static, str>) {
        if self.keeping() {
            for line in first..=last {
                self.note(line, status, why.clone());
            }
        }
    }

    /// The section read, when the text has several to choose from.
    pub fn section(&mut self, name: &str) {
        if self.keeping() {
            self.section = Some(name.to_string());
        }
    }

    /// The stronger note wins (read over passed over), and the first of equal ones: the
    /// line's first reason is the one shown.
    pub(crate) fn note(&mut self, line: usize, status: LineStatus, why: impl Into<Cow<'static, str>>) {
        let Some(slot) = self.notes.as_mut().and_then(|n| n.get_mut(line.wrapping_sub(1))) else { return };
        let Some(note) = slot else { return };
        if note.as_ref().is_none_or(|(s, _)| status > *s) {
            *note = Some((status, why.into()));
        }
    }

    /// The section noted, if any.
    pub(crate) fn section_read(&self) -> Option<&str> {
        self.section.as_deref()
    }

    /// The notes, in line order: only the lines noted.
    pub(crate) fn into_notes(self) -> Vec<LineNote> {
        let notes = self.notes.unwrap_or_default();
        notes
            .into_iter()
            .enumerate()
            .filter_map(|(i, n)| {
                n.flatten().map(|(status, why)| LineNote { line: i + 1, status, why: why.into_owned() })
            })
            .collect()
    }
}
