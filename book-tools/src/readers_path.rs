//! The reader's path: which chapters build on which, drawn for the introduction
//! from the chapter crates' own dependencies. A chapter whose crate uses another's
//! code (`pbm-rigid` in `chapters/08-contact/Cargo.toml`) builds on it, so the
//! drawing cannot say a chapter stands alone while its code imports another.

use crate::error::Error;
use crate::files::write_atomically;
use pbm_prelim::Chapter;
use pbm_prelim::plot::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The figure's file name under `book/src/figures`, without `.svg`.
pub const NAME: &str = "readers-path";

/// For each chapter (by number), the chapters its crate depends on directly: the
/// `pbm-…` entries of its `[dependencies]` (not its dev-dependencies), chapter 0's
/// toolkit left out.
pub fn dependencies(
    chapters: &[Chapter],
    root: &Path,
) -> Result<BTreeMap<u32, Vec<u32>>, Error> {
    let folders: Vec<(u32, &str)> =
        chapters.iter().map(|c| (c.number, c.pages)).collect();
    dependencies_of(&folders, root)
}

/// [`dependencies`] for chapters given by number and folder under `chapters/`.
pub fn dependencies_of(
    folders: &[(u32, &str)],
    root: &Path,
) -> Result<BTreeMap<u32, Vec<u32>>, Error> {
    let mut crate_of = BTreeMap::new();
    let mut texts = BTreeMap::new();
    for &(number, folder) in folders {
        let path = root.join("chapters").join(folder).join("Cargo.toml");
        let text = fs::read_to_string(&path)
            .map_err(|source| Error::Read { path, source })?;
        let name = text
            .lines()
            .find_map(|l| l.strip_prefix("name = \"")?.strip_suffix('"'))
            .unwrap_or_default()
            .to_string();
        crate_of.insert(name, number);
        texts.insert(number, text);
    }
    Ok(texts
        .iter()
        .map(|(&number, text)| {
            let deps = section(text, "[dependencies]")
                .filter_map(|l| l.split(['.', ' ', '=']).next())
                .filter_map(|name| crate_of.get(name).copied())
                .collect();
            (number, deps)
        })
        .collect())
}

/// The lines of a TOML section, up to the next section.
fn section<'a>(text: &'a str, header: &'a str) -> impl Iterator<Item = &'a str> {
    text.lines()
        .skip_while(move |l| l.trim() != header)
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with('['))
}

/// The edges worth drawing: a → b only if b cannot be reached from a through
/// another dependency (the transitive reduction).
pub fn direct(deps: &BTreeMap<u32, Vec<u32>>) -> BTreeMap<u32, Vec<u32>> {
    let reaches = |from: u32, to: u32| {
        let mut stack = vec![from];
        let mut seen = vec![from];
        while let Some(c) = stack.pop() {
            for &d in deps.get(&c).into_iter().flatten() {
                if d == to {
                    return true;
                }
                if !seen.contains(&d) {
                    seen.push(d);
                    stack.push(d);
                }
            }
        }
        false
    };
    deps.iter()
        .map(|(&c, ds)| {
            let kept = ds
                .iter()
                .copied()
                .filter(|&d| !ds.iter().any(|&other| other != d && reaches(other, d)))
                .collect();
            (c, kept)
        })
        .collect()
}

/// Each chapter's row: the length of the longest chain of chapters below it.
pub fn levels(deps: &BTreeMap<u32, Vec<u32>>) -> BTreeMap<u32, usize> {
    fn level(c: u32, deps: &BTreeMap<u32, Vec<u32>>, depth: usize) -> usize {
        // A cycle would never end; the chapters' crates cannot have one (Cargo
        // refuses it), and the depth bound keeps a malformed map finite.
        if depth > deps.len() {
            return depth;
        }
        deps.get(&c)
            .into_iter()
            .flatten()
            .map(|&d| 1 + level(d, deps, depth + 1))
            .max()
            .unwrap_or(0)
    }
    deps.keys().map(|&c| (c, level(c, deps, 0))).collect()
}

/// Draws the reader's path of `chapters` into `figures_dir`, wide and narrow, and
/// returns the files written.
pub fn render(
    chapters: &[Chapter],
    root: &Path,
    figures_dir: &Path,
) -> Result<Vec<PathBuf>, Error> {
    let deps = dependencies(chapters, root)?;
    let edges = direct(&deps);
    let rows = levels(&deps);
    let titles: BTreeMap<u32, &str> =
        chapters.iter().map(|c| (c.number, c.title)).collect();
    let depth = rows.values().copied().max().unwrap_or(0) + 1;
    let drawings = titled_figure(
        [96 * depth as u32 + 50, 124 * depth as u32 + 50],
        "Each arrow points from a chapter to one whose code it uses",
        |area, layout| {
            let (w, h) = area.dim_in_pixel();
            let (w, h) = (f64::from(w), f64::from(h));
            // Each chapter in a slot of its row, placed so that no arrow passes
            // behind a box it does not join.
            let slots = place(&rows, &edges);
            let mut centre = BTreeMap::new();
            for (&c, &slot) in &slots {
                let x = w * (slot as f64 + 0.5) / SLOTS as f64;
                let y = h * (rows[&c] as f64 + 0.5) / depth as f64;
                centre.insert(c, (x, y));
            }
            let (bw, bh) = (layout.pick(164.0, 86.0), layout.pick(66.0, 94.0));
            let pixel = |(x, y): (f64, f64)| (x.round() as i32, y.round() as i32);
            for (&c, ds) in &edges {
                for d in ds {
                    let (from, to) = (centre[&c], centre[d]);
                    let start = (from.0, from.1 - bh / 2.0);
                    let end = (to.0, to.1 + bh / 2.0);
                    area.draw(&PathElement::new(
                        vec![pixel(start), pixel(end)],
                        color(0).stroke_width(2),
                    ))?;
                    // The arrowhead at the chapter built on.
                    let (dx, dy) = (end.0 - start.0, end.1 - start.1);
                    let len = dx.hypot(dy).max(1e-9);
                    let (ux, uy) = (dx / len, dy / len);
                    let back = (end.0 - 10.0 * ux, end.1 - 10.0 * uy);
                    let side = (-uy * 5.0, ux * 5.0);
                    area.draw(&Polygon::new(
                        vec![
                            pixel(end),
                            pixel((back.0 + side.0, back.1 + side.1)),
                            pixel((back.0 - side.0, back.1 - side.1)),
                        ],
                        color(0).filled(),
                    ))?;
                }
            }
            for (&c, &(x, y)) in &centre {
                let corner =
                    |sx: f64, sy: f64| pixel((x + sx * bw / 2.0, y + sy * bh / 2.0));
                area.draw(&Rectangle::new(
                    [corner(-1.0, -1.0), corner(1.0, 1.0)],
                    WHITE.filled(),
                ))?;
                area.draw(&Rectangle::new(
                    [corner(-1.0, -1.0), corner(1.0, 1.0)],
                    BLACK.stroke_width(1),
                ))?;
                let font = layout.pick(label_font(), tick_font());
                let inside = (bw - 10.0).max(1.0) as u32;
                let lines =
                    wrap(area, &format!("{c}. {}", titles[&c]), &font, inside);
                let style = font.pos(Pos::new(HPos::Center, VPos::Center));
                let step = layout.pick(19.0, 17.0);
                let top = y - step * (lines.len() as f64 - 1.0) / 2.0;
                for (k, line) in lines.iter().enumerate() {
                    area.draw(&Text::new(
                        line.clone(),
                        pixel((x, top + step * k as f64)),
                        style.clone(),
                    ))?;
                }
            }
            Ok(())
        },
    )
    .map_err(Error::Chapter)?;
    drawings
        .iter()
        .map(|d| {
            let path =
                figures_dir.join(format!("{NAME}{}.svg", d.layout.file_suffix()));
            write_atomically(&path, &d.svg)
                .map(|()| path.clone())
                .map_err(|source| Error::Write { path, source })
        })
        .collect()
}

/// Slots in a row.
const SLOTS: usize = 4;

/// A box's half width and half height, in slots and rows.
const HALF: (f64, f64) = (0.47, 0.4);

/// Each chapter's slot in its row: rows taken in turn, each trying every way of
/// putting its chapters in the slots (at most 24), keeping the one whose arrows
/// pass behind the fewest boxes and cross the fewest other arrows; four sweeps.
fn place(
    rows: &BTreeMap<u32, usize>,
    edges: &BTreeMap<u32, Vec<u32>>,
) -> BTreeMap<u32, usize> {
    let depth = rows.values().copied().max().unwrap_or(0) + 1;
    let row_of = |r: usize| {
        rows.iter().filter(|&(_, &x)| x == r).map(|(&c, _)| c).collect::<Vec<_>>()
    };
    let mut slots: BTreeMap<u32, usize> = BTreeMap::new();
    for r in 0..depth {
        let here = row_of(r);
        let first = (SLOTS - here.len().min(SLOTS)) / 2;
        for (k, c) in here.into_iter().enumerate() {
            slots.insert(c, (first + k).min(SLOTS - 1));
        }
    }
    for _ in 0..4 {
        for r in 0..depth {
            let here = row_of(r);
            let mut best = (cost(&slots, rows, edges), slots.clone());
            for choice in arrangements(here.len(), SLOTS) {
                let mut trial = slots.clone();
                for (&c, &s) in here.iter().zip(&choice) {
                    trial.insert(c, s);
                }
                let c = cost(&trial, rows, edges);
                if c < best.0 {
                    best = (c, trial);
                }
            }
            slots = best.1;
        }
    }
    slots
}

/// Every way of giving `n` items distinct slots out of `slots`, in order.
fn arrangements(n: usize, slots: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for rest in arrangements(n - 1, slots) {
        for s in (0..slots).filter(|s| !rest.contains(s)) {
            let mut next = rest.clone();
            next.push(s);
            out.push(next);
        }
    }
    out
}

/// An arrow: from chapter, to chapter, and its two ends in slots and rows.
type Arrow = (u32, u32, (f64, f64), (f64, f64));

/// How bad a placement is: 100 for each arrow behind a box it does not join, 1 for
/// each crossing of two arrows, a little for each arrow's slant.
fn cost(
    slots: &BTreeMap<u32, usize>,
    rows: &BTreeMap<u32, usize>,
    edges: &BTreeMap<u32, Vec<u32>>,
) -> f64 {
    let at = |c: u32| (slots[&c] as f64, rows[&c] as f64);
    let arrows: Vec<Arrow> = edges
        .iter()
        .flat_map(|(&c, ds)| ds.iter().map(move |&d| (c, d)))
        .map(|(c, d)| {
            let ((x0, y0), (x1, y1)) = (at(c), at(d));
            (c, d, (x0, y0 - HALF.1), (x1, y1 + HALF.1))
        })
        .collect();
    let mut total = 0.0;
    for &(c, d, p, q) in &arrows {
        total += 0.01 * (p.0 - q.0).abs();
        for &b in slots.keys().filter(|&&b| b != c && b != d) {
            let (x, y) = at(b);
            if crosses_box(p, q, (x - HALF.0, y - HALF.1), (x + HALF.0, y + HALF.1)) {
                total += 100.0;
            }
        }
    }
    for (i, a) in arrows.iter().enumerate() {
        for b in &arrows[i + 1..] {
            let shared = a.0 == b.0 || a.0 == b.1 || a.1 == b.0 || a.1 == b.1;
            if !shared && segments_cross(a.2, a.3, b.2, b.3) {
                total += 1.0;
            }
        }
    }
    total
}

/// Whether the segment p–q passes through the box with corners lo and hi
/// (Liang–Barsky clipping).
fn crosses_box(p: (f64, f64), q: (f64, f64), lo: (f64, f64), hi: (f64, f64)) -> bool {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (step, distance) in
        [(-dx, p.0 - lo.0), (dx, hi.0 - p.0), (-dy, p.1 - lo.1), (dy, hi.1 - p.1)]
    {
        if step == 0.0 {
            if distance < 0.0 {
                return false;
            }
        } else {
            let t = distance / step;
            if step < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    t0 < t1
}

/// Whether segments a–b and c–d cross at a point inside both.
fn segments_cross(
    a: (f64, f64),
    b: (f64, f64),
    c: (f64, f64),
    d: (f64, f64),
) -> bool {
    let side = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    side(a, b, c) * side(a, b, d) < 0.0 && side(c, d, a) * side(c, d, b) < 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drawing_keeps_only_the_edges_no_other_path_implies() {
        // 3 uses 2 and 1, 2 uses 1: the edge 3 → 1 goes.
        let deps = BTreeMap::from([(1, vec![]), (2, vec![1]), (3, vec![1, 2])]);
        let direct = direct(&deps);
        assert_eq!(direct[&3], vec![2]);
        assert_eq!(levels(&deps), BTreeMap::from([(1, 0), (2, 1), (3, 2)]));
        assert!(crosses_box((0.0, 0.0), (2.0, 2.0), (0.5, 0.5), (1.5, 1.5)));
        assert!(!crosses_box((0.0, 0.0), (2.0, 0.1), (0.5, 0.5), (1.5, 1.5)));
        assert_eq!(arrangements(2, 3).len(), 6);
    }

    #[test]
    fn no_arrow_of_the_books_path_passes_behind_a_box() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        // The chapter folders, by the number they start with (chapter 0 is the
        // toolkit, not a chapter).
        let names: Vec<(u32, String)> = fs::read_dir(root.join("chapters"))
            .unwrap()
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                let number =
                    name.split('-').next()?.parse().ok().filter(|&n| n > 0)?;
                Some((number, name))
            })
            .collect();
        let folders: Vec<(u32, &str)> =
            names.iter().map(|(n, f)| (*n, f.as_str())).collect();
        let deps = dependencies_of(&folders, &root).unwrap();
        assert_eq!(deps.len(), folders.len());
        assert_eq!(
            deps.iter().filter(|(_, d)| d.is_empty()).count(),
            1,
            "one root: {deps:?}"
        );
        let (edges, rows) = (direct(&deps), levels(&deps));
        let slots = place(&rows, &edges);
        assert!(cost(&slots, &rows, &edges) < 100.0, "{slots:?}");
    }
}
