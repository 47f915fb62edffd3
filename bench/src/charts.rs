//! SVG charts of the workloads' report, to read beside its markdown: per workload the cl100k
//! tokens of each step for every arm, then every workload's total tokens and median step
//! latency per arm.
//!
//! Tokens are drawn in the structured-first view ([`crate::client_view`]): what the most used
//! clients (Claude Code, Codex, OpenCode) give the model, an answer's `structuredContent` as
//! JSON when it carries one. The report's tables give the text view beside it.
//!
//! Only plotters' SVG backend is used, without a font feature: the SVG backend writes text as
//! `<text>` elements for the viewer to lay out, so no font files or system font libraries are
//! needed (plotters then only estimates text widths for placing labels).

use std::ops::Range;
use std::path::Path;

use plotters::coord::ranged1d::{AsRangedCoord, DefaultFormatting, KeyPointHint, ValueFormatter};
use plotters::prelude::*;

use crate::error::BenchError;
use crate::workload_report::Summary;

/// The y axis of the token charts, naming the view they draw and whose it is.
const TOKENS_AXIS: &str = "tokens (log), structured-first view (Claude Code, Codex)";

/// Canvas size in pixels.
const SIZE: (u32, u32) = (960, 540);

/// Arm colours, by order of first appearance (the Okabe–Ito set: distinct to colour-blind eyes
/// too); past eight they repeat.
const COLOURS: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];

/// Writes the report's charts into `dir`, returning the files written (names relative to dir).
///
/// One `tokens-per-step-<workload>.svg` per workload, then `tokens-total.svg` and
/// `latency.svg`. No summaries, no charts: nothing is written and the list is empty.
pub fn write_charts(summaries: &[Summary], dir: &Path) -> Result<Vec<String>, BenchError> {
    if summaries.is_empty() {
        return Ok(Vec::new());
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| BenchError::Chart(format!("cannot create {}: {e}", dir.display())))?;
    let workloads = first_seen(summaries.iter().map(|s| s.workload.as_str()));
    let arms = first_seen(summaries.iter().map(|s| s.arm.as_str()));
    let mut written = Vec::new();
    let mut save = |name: String, svg: String| {
        let path = dir.join(&name);
        std::fs::write(&path, svg)
            .map_err(|e| BenchError::Chart(format!("cannot write {}: {e}", path.display())))?;
        written.push(name);
        Ok::<_, BenchError>(())
    };
    for w in &workloads {
        let rows: Vec<&Summary> = summaries.iter().filter(|s| s.workload == *w).collect();
        save(format!("tokens-per-step-{}.svg", file_safe(w)), per_step(w, &rows, &arms)?)?;
    }
    let bars = Bars { summaries, workloads: &workloads, arms: &arms };
    let top = log_top(summaries.iter().map(|s| s.structured_first_tokens_cl100k));
    let svg = bars.draw(
        "Total tokens (cl100k, structured-first view), median over runs",
        TOKENS_AXIS,
        (1.0..top).log_scale(),
        |s| finite(s.structured_first_tokens_cl100k).max(1.0),
    )?;
    save("tokens-total.svg".into(), svg)?;
    let top = summaries.iter().map(|s| finite(s.step_latency_ms)).fold(0.0, f64::max).max(1.0) * 1.3;
    let svg = bars.draw("Median tool latency per step", "ms", 0.0..top, |s| finite(s.step_latency_ms))?;
    save("latency.svg".into(), svg)?;
    Ok(written)
}

/// The distinct values of `items` in order of first appearance (the report's order, and what
/// keeps an arm's colour the same on every chart).
fn first_seen<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// The colour of the arm at `index`.
fn colour(index: usize) -> RGBColor {
    COLOURS[index % COLOURS.len()]
}

/// `name` with anything but ASCII letters, digits, `-`, `_` and `.` replaced by `-`, so a
/// workload's name cannot leave `dir` or break a file name.
fn file_safe(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '-' }).collect();
    if s.is_empty() || s.chars().all(|c| c == '.') {
        "workload".into()
    } else {
        s
    }
}

/// `v`, or 0 when it is not a number or infinite (so one bad value cannot break an axis).
fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v.max(0.0)
    } else {
        0.0
    }
}

/// The top of a log axis over `values`: a decade above the largest (room for the legend), at
/// least 100 (values at or below 1 are drawn at 1, the bottom, since a log axis has no 0).
fn log_top(values: impl Iterator<Item = f64>) -> f64 {
    values.map(finite).fold(10.0, f64::max) * 10.0
}

/// An axis label: whole numbers, from 10,000 up in thousands as `k` (the token axes reach 100k
/// and more).
fn short(v: &f64) -> String {
    let v = v.round();
    if v >= 10_000.0 {
        format!("{}k", v / 1000.0)
    } else {
        format!("{v}")
    }
}

/// Renders a chart into an SVG string: `draw` gets the canvas; plotters' errors become
/// [`BenchError::Chart`].
fn render(
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), String>,
) -> Result<String, BenchError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)
            .map_err(|e| e.to_string())
            .and_then(|()| draw(&root))
            .and_then(|()| root.present().map_err(|e| e.to_string()))
    }
    .map_err(BenchError::Chart)?;
    Ok(svg)
}

/// An x axis of `n` categories (steps or workloads) at 0..n, each a slot one wide, with ticks
/// on whole numbers only (plotters' own float axis would tick between categories).
struct Slots(usize);

impl Ranged for Slots {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, (lo, hi): (i32, i32)) -> i32 {
        let n = self.0.max(1) as f64;
        lo + ((v + 0.5) / n * f64::from(hi - lo)).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        // No light mesh lines; at most as many ticks as asked for, evenly thinned.
        if hint.weight().allow_light_points() || hint.max_num_points() == 0 {
            return Vec::new();
        }
        let step = self.0.div_ceil(hint.max_num_points()).max(1);
        (0..self.0).step_by(step).map(|i| i as f64).collect()
    }

    fn range(&self) -> Range<f64> {
        -0.5..self.0.max(1) as f64 - 0.5
    }
}

/// The tokens of each step of workload `w` (`rows` are its summaries), one line per arm.
fn per_step(w: &str, rows: &[&Summary], arms: &[&str]) -> Result<String, BenchError> {
    let steps = rows.iter().map(|s| s.structured_first_step_tokens.len()).max().unwrap_or(0);
    let top = log_top(rows.iter().flat_map(|s| s.structured_first_step_tokens.iter().copied()));
    render(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption(format!("{w}: tokens (cl100k) per step, median over runs"), ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(Slots(steps), (1.0..top).log_scale())
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("step (0 = the opening)")
            .y_desc(TOKENS_AXIS)
            .label_style(("sans-serif", 14))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&short)
            .draw()
            .map_err(|e| e.to_string())?;
        for s in rows {
            let c = colour(arms.iter().position(|a| *a == s.arm).unwrap_or(0));
            let points: Vec<(f64, f64)> = s
                .structured_first_step_tokens
                .iter()
                .enumerate()
                .map(|(i, t)| (i as f64, finite(*t).max(1.0)))
                .collect();
            chart
                .draw_series(std::iter::once(PathElement::new(points.clone(), c.stroke_width(2))))
                .map_err(|e| e.to_string())?
                .label(s.arm.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
            chart
                .draw_series(points.into_iter().map(|p| Circle::new(p, 4, c.filled())))
                .map_err(|e| e.to_string())?;
        }
        legend(&mut chart)
    })
}

/// Draws the series' legend at the top right.
fn legend<'a, 'b: 'a, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<Slots, Y>>,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 15))
        .draw()
        .map_err(|e| e.to_string())
}

/// A grouped bar chart: per workload one bar per arm.
struct Bars<'a> {
    /// Every workload × arm.
    summaries: &'a [Summary],
    /// Workloads, in the report's order.
    workloads: &'a [&'a str],
    /// Arms, in order of first appearance.
    arms: &'a [&'a str],
}

impl Bars<'_> {
    /// The chart of `value` over a y axis of `y` (linear or log; `value` keeps to its range).
    fn draw<Y>(
        &self,
        title: &str,
        y_desc: &str,
        y: Y,
        value: fn(&Summary) -> f64,
    ) -> Result<String, BenchError>
    where
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let y: Y::CoordDescType = y.into();
        // Bars rise from the axis' bottom: 0, or 1 on a log axis.
        let bottom = y.range().start;
        render(|root| {
            let mut chart = ChartBuilder::on(root)
                .caption(title, ("sans-serif", 22))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d(Slots(self.workloads.len()), y)
                .map_err(|e| e.to_string())?;
            let names =
                |x: &f64| self.workloads.get(x.round().max(0.0) as usize).map_or("", |w| *w).to_string();
            chart
                .configure_mesh()
                .disable_x_mesh()
                .y_desc(y_desc)
                .label_style(("sans-serif", 14))
                .x_label_formatter(&names)
                .y_label_formatter(&short)
                .draw()
                .map_err(|e| e.to_string())?;
            // The arms share 80% of each workload's slot, leaving a gap between workloads.
            let width = 0.8 / self.arms.len().max(1) as f64;
            for (j, arm) in self.arms.iter().enumerate() {
                let c = colour(j);
                let bars = self.workloads.iter().enumerate().filter_map(|(i, w)| {
                    let s = self.summaries.iter().find(|s| s.workload == *w && s.arm == *arm)?;
                    let x0 = i as f64 - 0.4 + j as f64 * width;
                    Some(Rectangle::new([(x0, bottom), (x0 + width, value(s))], c.filled()))
                });
                chart
                    .draw_series(bars)
                    .map_err(|e| e.to_string())?
                    .label(*arm)
                    .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], c.filled()));
            }
            legend(&mut chart)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(workload: &str, arm: &str, steps: &[f64]) -> Summary {
        Summary {
            workload: workload.into(),
            arm: arm.into(),
            server: "server 1".into(),
            succeeded: 3,
            runs: 3,
            tokens_cl100k: steps.iter().sum(),
            tokens_o200k: steps.iter().sum(),
            structured_first_tokens_cl100k: steps.iter().sum(),
            structured_first_tokens_o200k: steps.iter().sum(),
            structured: false,
            step_latency_ms: steps.len() as f64 * 40.0,
            call_latency_ms: 40.0,
            step_tokens: steps.to_vec(),
            structured_first_step_tokens: steps.to_vec(),
        }
    }

    /// The contents of the SVG's `<text>` elements, trimmed.
    fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.trim()))
            .collect()
    }

    /// A fresh folder under the system's temp dir.
    fn temp_dir(tag: &str) -> std::path::PathBuf {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        std::env::temp_dir().join(format!("axsnap-charts-{tag}-{}-{nanos}", std::process::id()))
    }

    #[test]
    fn writes_every_chart_with_names() {
        let arms = ["playwright-mcp", "axsnap-full", "axsnap-auto"];
        let mut summaries = Vec::new();
        for w in ["docs-nav", "jupyter-cell"] {
            summaries.push(summary(w, arms[0], &[150_000.0, 120_000.0, 90_000.0, 130_000.0]));
            summaries.push(summary(w, arms[1], &[9_000.0, 8_500.0, 0.0, 9_100.0]));
            // Fewer steps than the others (a run that stopped early), and a zero on a log axis.
            summaries.push(summary(w, arms[2], &[9_000.0, 12.0]));
        }
        let dir = temp_dir("full");
        let written = write_charts(&summaries, &dir).expect("charts");
        assert_eq!(
            written,
            [
                "tokens-per-step-docs-nav.svg",
                "tokens-per-step-jupyter-cell.svg",
                "tokens-total.svg",
                "latency.svg"
            ]
        );
        for name in &written {
            let svg = std::fs::read_to_string(dir.join(name)).expect("read");
            assert!(svg.trim_start().starts_with("<svg") && svg.contains("</svg>"), "{name}: {svg}");
            let texts = texts(&svg);
            for arm in arms {
                assert!(texts.contains(&arm), "{name} lacks {arm}: {texts:?}");
            }
            // The workload names: the per-step chart's caption, the bar charts' x labels.
            let workloads: &[&str] = match name.strip_prefix("tokens-per-step-") {
                Some(w) => &[w.trim_end_matches(".svg")],
                None => &["docs-nav", "jupyter-cell"],
            };
            for w in workloads {
                assert!(texts.iter().any(|t| t.split(':').next() == Some(w)), "{name} lacks {w}: {texts:?}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn tokens_are_drawn_in_the_structured_first_view() {
        // A peer whose answers carry structuredContent ten times its text: the charts' axes
        // reach its JSON, not its text.
        let mut peer = summary("docs", "peer", &[9_000.0, 9_000.0]);
        peer.structured = true;
        peer.structured_first_step_tokens = vec![90_000.0, 90_000.0];
        peer.structured_first_tokens_cl100k = 180_000.0;
        let summaries = [summary("docs", "axsnap-auto", &[9_000.0, 500.0]), peer];
        let dir = temp_dir("views");
        write_charts(&summaries, &dir).expect("charts");
        for name in ["tokens-per-step-docs.svg", "tokens-total.svg"] {
            let svg = std::fs::read_to_string(dir.join(name)).expect("read");
            let texts = texts(&svg);
            assert!(texts.contains(&TOKENS_AXIS), "{name}: {texts:?}");
            // Axis labels up to 100k appear only when the JSON sizes are drawn.
            assert!(texts.contains(&"100k"), "{name}: {texts:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn no_summaries_no_charts() {
        let dir = temp_dir("empty");
        assert!(write_charts(&[], &dir).expect("no charts").is_empty());
        assert!(!dir.exists());
    }

    #[test]
    fn odd_names_stay_in_the_folder() {
        assert_eq!(file_safe("../a b/c"), "..-a-b-c");
        assert_eq!(file_safe(".."), "workload");
    }
}
