//! The plot in a terminal: the series as points on a grid of characters, heap size n
//! across and the value up, with the title, the proof summary, numbered axes and a line
//! saying how many heap sizes share a column when they do not fit one per column.

use std::fmt::Write as _;

use super::plot::{Series, SeriesKind};
use crate::error::{Error, Result};

/// Distance between the numbers of the heap axis, in columns.
const LABEL_EVERY: usize = 10;

/// Renders `series` in at most `cols` columns, its chart `rows` lines tall (the value
/// axis is scaled when the values do not fit one per line; the heap axis packs several
/// heap sizes per column, showing each value any of them takes, when they do not fit
/// one per column).
pub fn render_plot_terminal(series: &Series, cols: usize, rows: usize) -> Result<String> {
    let values = &series.values;
    let top = values.iter().copied().max().unwrap_or(0);
    let margin = top.to_string().len() + 2;
    let width = cols.saturating_sub(margin);
    if width < LABEL_EVERY || rows < 2 || values.is_empty() {
        return Err(Error::input(format!(
            "{cols} columns and {rows} lines are too few to draw the plot"
        )));
    }
    let per_column = values.len().div_ceil(width);
    let columns = values.len().div_ceil(per_column);
    // One line per value when they fit, else the values scaled onto `rows` lines.
    let fits = (top as usize) < rows;
    let lines = (top as usize + 1).min(rows);
    // The line of value v, 0 at the bottom; values scale onto the lines when there are more.
    let line_of = |v: u64| -> usize {
        if fits {
            v as usize
        } else {
            ((v as u128 * (lines as u128 - 1)) / u128::from(top.max(1))) as usize
        }
    };
    let mut grid = vec![vec![' '; columns]; lines];
    for (n, &v) in values.iter().enumerate() {
        grid[lines - 1 - line_of(v)][n / per_column] = '*';
    }
    let mut out = String::new();
    let _ = writeln!(out, "{}", series.title);
    let _ = writeln!(out, "{}", series.proof_summary());
    let label_of_line = |line: usize| -> Option<u64> {
        let from_bottom = lines - 1 - line;
        if fits {
            Some(from_bottom as u64)
        } else {
            // The smallest value drawn on this line.
            Some((from_bottom as u128 * u128::from(top)).div_ceil(lines as u128 - 1) as u64)
        }
    };
    let every = lines.div_ceil(8).max(1);
    for (i, row) in grid.iter().enumerate() {
        let from_bottom = lines - 1 - i;
        let label = match label_of_line(i) {
            Some(v) if from_bottom.is_multiple_of(every) || i == 0 => v.to_string(),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "{label:>width$} |{}",
            row.iter().collect::<String>().trim_end(),
            width = margin - 2
        );
    }
    let mut axis: Vec<char> = std::iter::repeat_n(' ', margin - 1)
        .chain(std::iter::once('+'))
        .chain(std::iter::repeat_n('-', columns))
        .collect();
    let mut numbers = vec![' '; margin + columns + 12];
    for column in (0..columns).step_by(LABEL_EVERY) {
        axis[margin + column] = '+';
        let label = (column * per_column).to_string();
        let start = margin + column;
        for (slot, c) in numbers[start..].iter_mut().zip(label.chars()) {
            *slot = c;
        }
    }
    let _ = writeln!(out, "{}", axis.iter().collect::<String>());
    let _ = writeln!(out, "{}", numbers.iter().collect::<String>().trim_end());
    let up = match series.kind {
        SeriesKind::Outcomes => "1 safe, 0 unsafe".to_string(),
        _ => series.y_label.clone(),
    };
    let across = if per_column == 1 {
        "heap size n, one per column".to_string()
    } else {
        format!("heap size n, {per_column} per column (every value they take)")
    };
    let _ = writeln!(
        out,
        "across: {across}\nup: {up}{}",
        if !fits {
            format!(" ({} values to a line)", (top as usize + 1).div_ceil(lines))
        } else {
            String::new()
        }
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kayles_like(n: u64) -> Series {
        Series {
            title: "kayles, normal play".into(),
            y_label: "G(n)".into(),
            values: (0..=n).map(|n| n % 5).collect(),
            ..Series::default()
        }
    }

    #[test]
    fn every_value_is_a_point_where_it_belongs() {
        let text = render_plot_terminal(&kayles_like(30), 80, 20).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // Title, summary, five value lines (4 down to 0), axis, numbers, two captions.
        assert_eq!(lines.len(), 11, "{text}");
        let zero = lines[6];
        assert!(zero.starts_with("0 |*"), "{text}");
        // Heap 4 has value 4: the top line's fifth column.
        assert_eq!(lines[2].find('*').unwrap(), "4 |".len() + 4, "{text}");
        assert!(text.contains("one per column"), "{text}");
        assert!(lines.iter().all(|l| l.chars().count() <= 80), "{text}");
    }

    #[test]
    fn long_series_pack_heaps_into_columns_and_say_so() {
        let text = render_plot_terminal(&kayles_like(1000), 60, 20).unwrap();
        assert!(text.contains("per column"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 60), "{text}");
    }

    #[test]
    fn too_small_is_an_error() {
        assert!(render_plot_terminal(&kayles_like(10), 5, 20).is_err());
    }
}
