//! The benchmark table: rows gathered from several sources (criterion, the throughput loop,
//! and later wasm and page runs), each a figure beside its comparison and its goal.

use std::fmt::Write as _;

/// What a row's ratio must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Goal {
    /// The ratio must be at most this (a cost relative to a baseline).
    AtMost(f64),
    /// The ratio must be at least this (a speed-up over a competitor).
    AtLeast(f64),
    /// The value itself must be at most this (e.g. bytes per point); no ratio.
    ValueAtMost(f64),
    /// A budget: the value must be at most this, and `cargo xtask bench` fails (after
    /// writing the report) when it is not, or was not measured (a value of NaN).
    Budget(f64),
    /// Shown for context; no goal.
    None,
}

/// One figure of the table.
#[derive(Clone, Debug)]
pub struct Row {
    /// What was measured, and how (e.g. "`locate`, per call (criterion)").
    pub figure: String,
    /// The figure's value.
    pub value: f64,
    /// Its unit ("ns", "B/point", "instructions").
    pub unit: &'static str,
    /// What it is compared with, and that figure, if anything.
    pub comparison: Option<(String, f64)>,
    /// The ratio the goal is about (value ÷ comparison for costs, comparison ÷ value for
    /// speed-ups, or a median of per-round ratios when measured side by side).
    pub ratio: Option<f64>,
    pub goal: Goal,
}

impl Row {
    /// A figure reported without a goal, beside what it is compared with, if anything.
    pub fn reported(
        figure: impl Into<String>,
        value: f64,
        unit: &'static str,
        comparison: Option<(String, f64)>,
    ) -> Row {
        Row { figure: figure.into(), value, unit, comparison, ratio: None, goal: Goal::None }
    }
}

impl Row {
    /// A cost compared with a baseline: ratio = value ÷ baseline, goal "at most".
    pub fn cost(figure: &str, value: f64, unit: &'static str, baseline: (&str, f64), at_most: Option<f64>) -> Row {
        Row {
            figure: figure.to_string(),
            value,
            unit,
            comparison: Some((baseline.0.to_string(), baseline.1)),
            ratio: Some(value / baseline.1),
            goal: at_most.map_or(Goal::None, Goal::AtMost),
        }
    }

    /// A speed compared with a competitor: ratio = competitor ÷ value, goal "at least".
    pub fn speedup(figure: &str, value: f64, unit: &'static str, competitor: (&str, f64), at_least: f64) -> Row {
        Row {
            figure: figure.to_string(),
            value,
            unit,
            comparison: Some((competitor.0.to_string(), competitor.1)),
            ratio: Some(competitor.1 / value),
            goal: Goal::AtLeast(at_least),
        }
    }

    /// Replaces the ratio (e.g. with the median of per-round ratios).
    pub fn with_ratio(mut self, ratio: Option<f64>) -> Row {
        if ratio.is_some() {
            self.ratio = ratio;
        }
        self
    }

    /// Whether the goal is met (None when there is no goal).
    pub fn met(&self) -> Option<bool> {
        match self.goal {
            Goal::AtMost(g) => self.ratio.map(|r| r <= g),
            Goal::AtLeast(g) => self.ratio.map(|r| r >= g),
            Goal::ValueAtMost(g) | Goal::Budget(g) => Some(self.value <= g),
            Goal::None => None,
        }
    }
}

/// The whole table: when and where it was measured, the rows, and notes under it.
#[derive(Debug, Default)]
pub struct Table {
    pub date: String,
    pub machine: String,
    /// The other site measured in the same run (`main (abc1234)`), if any.
    pub against: Option<String>,
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
}

impl Table {
    /// The rows over their budget, or whose budgeted figure was not measured.
    pub fn over_budget(&self) -> Vec<&Row> {
        self.rows.iter().filter(|r| matches!(r.goal, Goal::Budget(_)) && r.met() == Some(false)).collect()
    }

    /// The table as Markdown (also readable as plain text in a terminal).
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "Measured {} on {}.\n", self.date, self.machine);
        if let Some(against) = &self.against {
            let _ = writeln!(
                out,
                "Beside `{against}`: its site built from that commit, served on loopback and measured in the same \
                 run (loads alternating where a median is taken). Its figure is under \"compared with\", the ratio \
                 ours over its; the budgets judge ours alone.\n"
            );
        }
        out.push_str("| figure | value | compared with | ratio | goal | met |\n|---|---|---|---|---|---|\n");
        for row in &self.rows {
            let comparison =
                row.comparison.as_ref().map_or(String::new(), |(what, v)| format!("{what}: {}", number(*v, row.unit)));
            let ratio = row.ratio.map_or(String::new(), |r| format!("{r:.2}×"));
            let goal = match row.goal {
                Goal::AtMost(g) => format!("≤ {g}×"),
                Goal::AtLeast(g) => format!("≥ {g}×"),
                Goal::ValueAtMost(g) => format!("≤ {g} {}", row.unit),
                Goal::Budget(g) => format!("budget ≤ {g} {}", row.unit),
                Goal::None => String::new(),
            };
            let met = match row.met() {
                Some(true) => "yes",
                Some(false) => "**no**",
                None => "",
            };
            let _ = writeln!(
                out,
                "| {} | {} | {comparison} | {ratio} | {goal} | {met} |",
                row.figure,
                number(row.value, row.unit)
            );
        }
        for note in &self.notes {
            let _ = writeln!(out, "\n{note}");
        }
        out
    }
}

fn number(value: f64, unit: &str) -> String {
    if value.is_nan() {
        return "not measured".into();
    }
    if unit == "modules" {
        return format!("{value:.0} {unit}");
    }
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.digits$} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_are_judged_on_the_right_side() {
        let cost = Row::cost("locate", 3.0, "ns", ("hash", 2.0), Some(1.5));
        assert_eq!(cost.ratio, Some(1.5));
        assert_eq!(cost.met(), Some(true));
        let slow = Row::cost("locate", 3.1, "ns", ("hash", 2.0), Some(1.5));
        assert_eq!(slow.met(), Some(false));
        let fast = Row::speedup("locate", 4.0, "ns", ("hashring", 20.0), 5.0);
        assert_eq!(fast.ratio, Some(5.0));
        assert_eq!(fast.met(), Some(true));
        let memory = Row {
            figure: "memory".into(),
            value: 12.5,
            unit: "B/point",
            comparison: None,
            ratio: None,
            goal: Goal::ValueAtMost(12.0),
        };
        assert_eq!(memory.met(), Some(false));
    }

    #[test]
    fn the_markdown_has_a_line_per_row_and_says_what_is_unmet() {
        let table = Table {
            date: "2026-11-30".into(),
            machine: "test cpu, 2 cores".into(),
            against: None,
            rows: vec![
                Row::cost("a", 1.0, "ns", ("b", 1.0), Some(1.5)),
                Row::speedup("c", 10.0, "ns", ("d", 20.0), 5.0),
            ],
            notes: vec!["a note".into()],
        };
        let text = table.markdown();
        assert!(text.contains("2026-11-30") && text.contains("test cpu, 2 cores"));
        assert!(text.contains("| a | 1.00 ns | b: 1.00 ns | 1.00× | ≤ 1.5× | yes |"));
        assert!(text.contains("| c | 10.0 ns | d: 20.0 ns | 2.00× | ≥ 5× | **no** |"));
        assert!(text.ends_with("a note\n"));
    }

    #[test]
    fn a_budget_not_measured_is_not_met() {
        let row = |value: f64| Row { goal: Goal::Budget(300.0), ..Row::reported("first ring", value, "ms", None) };
        let table = Table { rows: vec![row(250.0), row(f64::NAN), row(301.0)], ..Table::default() };
        let over: Vec<f64> = table.over_budget().iter().map(|r| r.value).collect();
        assert_eq!(over.len(), 2);
        assert!(over[0].is_nan() && over[1] == 301.0, "{over:?}");
        let text = table.markdown();
        assert!(text.contains("| first ring | 250 ms |  |  | budget ≤ 300 ms | yes |"), "{text}");
        assert!(text.contains("| first ring | not measured |  |  | budget ≤ 300 ms | **no** |"), "{text}");
        assert_eq!(number(2.0, "modules"), "2 modules");
    }
}
