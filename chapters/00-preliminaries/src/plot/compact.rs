//! A figure's SVG made small enough to download: plotters writes every stroke as its
//! own `<polyline>` (a dashed outline is one element per dash), about a hundred bytes
//! of attributes around twenty of coordinates. A scene of a thousand dashed boxes then
//! weighs a megabyte. [`compact_strokes`] writes each run of consecutive opaque
//! polylines of one stroke as a single `<path>`, one `M` per polyline and each corner a
//! step from the last, joins a fill and its own outline into one shape, and leaves out
//! fills that cover no area; what the reader sees is unchanged. [`style_classes`] then
//! names each paint used three times or more once, in a `<style>`, instead of on every
//! shape.

/// `svg` with every run of consecutive opaque `<polyline>`s that share their stroke
/// written as one `<path>`, and every unstroked `<polygon>` whose corners all coincide
/// (a body drawn smaller than a pixel: it paints nothing) left out.
///
/// Merging is exact only for opaque strokes: overlapping parts of one path are painted
/// once, of separate elements once each, which differs where the stroke is translucent.
/// So only `opacity="1"` polylines merge, and only consecutive ones, which keeps the
/// order in which the colours overlap.
pub fn compact_strokes(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len() / 2);
    let mut run: Option<(&str, String)> = None;
    let mut lines = svg.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if let Some((attributes, points)) = opaque_polyline(line) {
            match &mut run {
                Some((same, d)) if *same == attributes => {
                    d.push_str(&subpath(points))
                }
                _ => {
                    flush(&mut out, run.take());
                    run = Some((attributes, subpath(points)));
                }
            }
            continue;
        }
        if paints_nothing(line) {
            continue;
        }
        flush(&mut out, run.take());
        if let Some(path) = lines.peek().and_then(|next| outlined_fill(line, next)) {
            out.push_str(&path);
            lines.next();
            continue;
        }
        out.push_str(line);
    }
    flush(&mut out, run);
    out
}

/// A fill followed by its own outline, `<polygon opacity="a" fill="c" points="P"/>` then an
/// opaque polyline through P and back to its first corner, as the one path that paints
/// both: the fill at `fill-opacity` a, then the stroke over it, as SVG paints a shape.
/// Its `d` is the polyline's, so the outline's corners and ends are drawn as before.
fn outlined_fill(fill: &str, outline: &str) -> Option<String> {
    let body = fill.trim_end().strip_prefix("<polygon ")?.strip_suffix("\"/>")?;
    let (attributes, corners) = body.split_once(" points=\"")?;
    let mut opacity = None;
    let mut colour = None;
    for a in attributes.split(' ') {
        if let Some(v) = a.strip_prefix("opacity=") {
            opacity = Some(v);
        } else if let Some(v) = a.strip_prefix("fill=") {
            colour = Some(v);
        } else {
            return None;
        }
    }
    let (stroke, points) = opaque_polyline(outline)?;
    let corners: Vec<&str> = corners.split_whitespace().collect();
    let mut path: Vec<&str> = points.split_whitespace().collect();
    if path.len() != corners.len() + 1 || path.pop() != corners.first().copied() {
        return None;
    }
    if path != corners {
        return None;
    }
    let stroke = stroke.strip_prefix("fill=\"none\" opacity=\"1\" ")?;
    Some(format!(
        "<path fill={} fill-opacity={} {stroke} d=\"{}\"/>\n",
        colour?,
        opacity?,
        subpath(points)
    ))
}

/// A polyline's points (`x,y x,y …`) as path data: the first corner absolute, each next
/// one relative to the last (`M307,118l5,0 0,-5`), a third the digits of plotters' whole
/// pixels. Points that are not whole numbers stay absolute.
fn subpath(points: &str) -> String {
    let pairs: Option<Vec<(i64, i64)>> = points
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        })
        .collect();
    let Some(pairs) = pairs.filter(|p| !p.is_empty()) else {
        return format!("M{points}");
    };
    let (mut x, mut y) = pairs[0];
    let mut d = format!("M{x},{y}");
    for (k, &(nx, ny)) in pairs.iter().enumerate().skip(1) {
        d.push_str(if k == 1 { "l" } else { " " });
        d.push_str(&format!("{},{}", nx - x, ny - y));
        (x, y) = (nx, ny);
    }
    d
}

/// A polyline line as plotters writes it, `<polyline fill="none" opacity="1" … points="x,y
/// x,y "/>`: its attributes before `points` and its points, trimmed. None for anything else.
fn opaque_polyline(line: &str) -> Option<(&str, &str)> {
    let body = line.trim_end().strip_prefix("<polyline ")?.strip_suffix("\"/>")?;
    let (attributes, points) = body.split_once(" points=\"")?;
    let opaque = attributes.split(' ').any(|a| a == "opacity=\"1\"");
    (opaque && !points.contains('"')).then(|| (attributes, points.trim()))
}

fn flush(out: &mut String, run: Option<(&str, String)>) {
    if let Some((attributes, d)) = run {
        out.push_str("<path ");
        out.push_str(attributes);
        out.push_str(" d=\"");
        out.push_str(&d);
        out.push_str("\"/>\n");
    }
}

/// An unstroked polygon whose corners are all one point.
fn paints_nothing(line: &str) -> bool {
    let Some(body) = line.trim_end().strip_prefix("<polygon ") else {
        return false;
    };
    let Some((attributes, points)) = body.split_once(" points=\"") else {
        return false;
    };
    if attributes.contains("stroke=\"#") {
        return false;
    }
    let mut corners = points.trim_end_matches("\"/>").split_whitespace();
    let first = corners.next();
    first.is_some() && corners.all(|c| Some(c) == first)
}

/// The attributes that paint a shape, which [`style_classes`] moves into a class.
const PAINT: [&str; 6] =
    ["fill", "fill-opacity", "opacity", "stroke", "stroke-width", "stroke-opacity"];

/// The shapes plotters writes one to a line, whose paint [`style_classes`] moves.
const SHAPES: [&str; 5] = ["<path ", "<polygon ", "<polyline ", "<rect ", "<circle "];

/// `svg` with every paint (the [`PAINT`] attributes of a shape, in the order written) that
/// at least three shapes share written once as a CSS class in a `<style>` after the
/// `<svg>` tag, and each of those shapes naming its class instead (`class="p0"`).
/// A figure of a thousand bodies in four colours spends its bytes on their corners, not
/// on repeating `fill="#0072B2" fill-opacity="0.4" stroke="#0072B2" stroke-width="1"`.
/// The CSS properties are the attributes' own, so the shapes paint as before.
pub fn style_classes(svg: &str) -> String {
    let split = |line: &str| -> Option<(String, String)> {
        let shape = SHAPES.iter().find(|s| line.starts_with(**s))?;
        let body = line.trim_end().strip_prefix(shape)?.strip_suffix("/>")?;
        let (mut paint, mut rest) = (String::new(), String::new());
        for attribute in attributes(body)? {
            let (name, value) = attribute.split_once('=')?;
            let target = if PAINT.contains(&name) { &mut paint } else { &mut rest };
            target.push_str(name);
            target.push('=');
            target.push_str(value);
            target.push(' ');
        }
        (!paint.is_empty()).then_some((paint, rest))
    };
    let mut counts: Vec<(String, usize)> = Vec::new();
    for line in svg.lines() {
        if let Some((paint, _)) = split(line) {
            match counts.iter_mut().find(|(p, _)| *p == paint) {
                Some((_, n)) => *n += 1,
                None => counts.push((paint, 1)),
            }
        }
    }
    let classes: Vec<&String> =
        counts.iter().filter(|(_, n)| *n >= 3).map(|(p, _)| p).collect();
    if classes.is_empty() {
        return svg.to_string();
    }
    let mut style = String::from("<style>");
    for (k, paint) in classes.iter().enumerate() {
        style.push_str(&format!(".p{k}{{"));
        for attribute in paint.split_whitespace() {
            let (name, value) = attribute.split_once('=').unwrap_or_default();
            let value = value.trim_matches('"');
            let unit = if name == "stroke-width" && value.parse::<f64>().is_ok() {
                "px"
            } else {
                ""
            };
            style.push_str(&format!("{name}:{value}{unit};"));
        }
        style.push('}');
    }
    style.push_str("</style>\n");
    let mut out = String::with_capacity(svg.len());
    let mut styled = false;
    for line in svg.split_inclusive('\n') {
        let class = split(line).and_then(|(paint, rest)| {
            let k = classes.iter().position(|c| **c == paint)?;
            let shape = SHAPES.iter().find(|s| line.starts_with(**s))?;
            Some(format!("{shape}class=\"p{k}\" {}/>\n", rest.trim_end()))
        });
        match class {
            Some(shape) => out.push_str(&shape),
            None => out.push_str(line),
        }
        if !styled && line.starts_with("<svg ") {
            out.push_str(&style);
            styled = true;
        }
    }
    out
}

/// A tag's attributes, `name="value"` each (values hold no quotes in plotters' output).
fn attributes(body: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = body.trim();
    while !rest.is_empty() {
        let eq = rest.find("=\"")?;
        let close = rest[eq + 2..].find('"')? + eq + 2;
        out.push(&rest[..=close]);
        rest = rest[close + 1..].trim_start();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DASHES: &str = "<svg>\n\
        <polyline fill=\"none\" opacity=\"1\" stroke=\"#3C3C3C\" stroke-width=\"1\" points=\"1,2 3,2 \"/>\n\
        <polyline fill=\"none\" opacity=\"1\" stroke=\"#3C3C3C\" stroke-width=\"1\" points=\"5,2 7,2 \"/>\n\
        <polyline fill=\"none\" opacity=\"1\" stroke=\"#0072B2\" stroke-width=\"1\" points=\"9,2 9,4 \"/>\n\
        <polyline fill=\"none\" opacity=\"0.4\" stroke=\"#0072B2\" stroke-width=\"1\" points=\"0,0 1,1 \"/>\n\
        <polyline fill=\"none\" opacity=\"0.4\" stroke=\"#0072B2\" stroke-width=\"1\" points=\"1,1 2,2 \"/>\n\
        <polygon opacity=\"0.4\" fill=\"#0072B2\" points=\"4,4 4,4 4,4 4,4 \"/>\n\
        <polygon opacity=\"0.4\" fill=\"#0072B2\" points=\"4,4 5,4 5,5 \"/>\n\
        <polygon opacity=\"1\" fill=\"#0072B2\" stroke=\"#000000\" points=\"6,6 6,6 \"/>\n\
        <polyline fill=\"none\" opacity=\"1\" stroke=\"#3C3C3C\" stroke-width=\"1\" points=\"11,2 13,2 \"/>\n\
        </svg>\n";

    #[test]
    fn consecutive_opaque_strokes_of_one_colour_become_one_path() {
        let out = compact_strokes(DASHES);
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "<svg>",
                "<path fill=\"none\" opacity=\"1\" stroke=\"#3C3C3C\" stroke-width=\"1\" d=\"M1,2l2,0M5,2l2,0\"/>",
                "<path fill=\"none\" opacity=\"1\" stroke=\"#0072B2\" stroke-width=\"1\" d=\"M9,2l0,2\"/>",
                // Translucent strokes stay apart: merged, their overlap would paint once.
                "<polyline fill=\"none\" opacity=\"0.4\" stroke=\"#0072B2\" stroke-width=\"1\" points=\"0,0 1,1 \"/>",
                "<polyline fill=\"none\" opacity=\"0.4\" stroke=\"#0072B2\" stroke-width=\"1\" points=\"1,1 2,2 \"/>",
                // The degenerate fill is gone; a real one, and a stroked point, stay.
                "<polygon opacity=\"0.4\" fill=\"#0072B2\" points=\"4,4 5,4 5,5 \"/>",
                "<polygon opacity=\"1\" fill=\"#0072B2\" stroke=\"#000000\" points=\"6,6 6,6 \"/>",
                // A later run of the first colour is not moved back across the others.
                "<path fill=\"none\" opacity=\"1\" stroke=\"#3C3C3C\" stroke-width=\"1\" d=\"M11,2l2,0\"/>",
                "</svg>",
            ]
        );
    }

    #[test]
    fn a_translucent_fill_and_its_outline_become_one_path() {
        let svg = "<polygon opacity=\"0.4\" fill=\"#0072B2\" points=\"1,1 5,1 5,5 \"/>\n\
            <polyline fill=\"none\" opacity=\"1\" stroke=\"#0072B2\" stroke-width=\"1\" points=\"1,1 5,1 5,5 1,1 \"/>\n\
            <polygon opacity=\"0.4\" fill=\"#0072B2\" points=\"1,1 5,1 5,5 \"/>\n\
            <polyline fill=\"none\" opacity=\"1\" stroke=\"#0072B2\" stroke-width=\"1\" points=\"1,1 5,1 6,6 1,1 \"/>\n";
        let out = compact_strokes(svg);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "<path fill=\"#0072B2\" fill-opacity=\"0.4\" stroke=\"#0072B2\" stroke-width=\"1\" d=\"M1,1l4,0 0,4 -4,-4\"/>"
        );
        // An outline of another shape is not this fill's: both stay.
        assert!(lines[1].starts_with("<polygon "), "{}", lines[1]);
        assert!(lines[2].starts_with("<path fill=\"none\""), "{}", lines[2]);
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn whole_pixels_become_steps_and_anything_else_stays_absolute() {
        assert_eq!(subpath("307,118 312,118 312,113 "), "M307,118l5,0 0,-5");
        assert_eq!(subpath("1.5,2 3,4"), "M1.5,2 3,4");
        assert_eq!(subpath("7,8"), "M7,8");
    }

    #[test]
    fn a_paint_shared_by_three_shapes_becomes_a_class() {
        let svg = "<svg width=\"9\" height=\"9\" xmlns=\"http://www.w3.org/2000/svg\">\n\
            <rect x=\"0\" y=\"0\" width=\"9\" height=\"9\" opacity=\"1\" fill=\"#FFFFFF\" stroke=\"none\"/>\n\
            <path fill=\"#0072B2\" fill-opacity=\"0.4\" stroke=\"#0072B2\" stroke-width=\"1\" d=\"M1,1l1,0\"/>\n\
            <path fill=\"#0072B2\" fill-opacity=\"0.4\" stroke=\"#0072B2\" stroke-width=\"1\" d=\"M2,2l1,0\"/>\n\
            <circle cx=\"1\" cy=\"1\" r=\"2\" fill=\"#0072B2\" fill-opacity=\"0.4\" stroke=\"#0072B2\" stroke-width=\"1\"/>\n\
            <text x=\"1\" fill=\"#000000\">\nA\n</text>\n</svg>\n";
        let out = style_classes(svg);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[1],
            "<style>.p0{fill:#0072B2;fill-opacity:0.4;stroke:#0072B2;stroke-width:1px;}</style>"
        );
        assert!(lines[2].starts_with("<rect x=\"0\""), "{}", lines[2]);
        assert_eq!(lines[3], "<path class=\"p0\" d=\"M1,1l1,0\"/>");
        assert_eq!(lines[5], "<circle class=\"p0\" cx=\"1\" cy=\"1\" r=\"2\"/>");
        assert_eq!(lines[6], "<text x=\"1\" fill=\"#000000\">");
        // Fewer than three alike: nothing to gain, nothing changed.
        let two: String = svg
            .lines()
            .filter(|l| !l.starts_with("<circle"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(style_classes(&two), two);
    }

    #[test]
    fn text_and_everything_else_pass_through_unchanged() {
        let svg = "<svg>\n<text x=\"1\" y=\"2\">\npoints=\"1,2\"/>\n</text>\n<rect x=\"0\"/>\n</svg>\n";
        assert_eq!(compact_strokes(svg), svg);
    }
}
