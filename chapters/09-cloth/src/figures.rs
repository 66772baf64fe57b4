//! The chapter's figures, computed with the chapter's own code.

use crate::cloth::{Cloth, Energies, Material as ClothMaterial};
use crate::contact::Solid;
use crate::energy::Curvature;
use crate::scenes::SEGMENTS;
use crate::scenes::{SPHERE, Scene, SolidKind, cloth, napkin, on_solid, run};
use crate::strand::{Material, Scaling, cantilever, settle};
use pbm_collision::figures::parts::{
    Chart2d, closed_ring, each_panel, fill, labels, letter, shape,
};
use pbm_particles::forces::G;
use pbm_prelim::parallel::map_range;
use pbm_prelim::plot::prelude::*;
use std::sync::OnceLock;

/// Every figure of the chapter, in reading order.
pub fn all() -> Vec<Figure> {
    vec![
        Figure::new(
            "pattern-map",
            "One triangle's map from pattern to world",
            pattern_map,
        ),
        Figure::new("hinge", "A hinge: two triangles across an edge", hinge),
        Figure::new(
            "strand-sampling",
            "One strand sampled four ways",
            strand_sampling,
        ),
        Figure::new("drape-frames", "A cloth draped over a sphere", drape_frames)
            .heavy(),
        Figure::new("drape-energy", "The drape's energies", drape_energy),
        Figure::new(
            "contact-solids",
            "A cloth held on a sphere and on a box by constraints inside CG",
            contact_solids,
        )
        .heavy(),
        Figure::new(
            "contact-cg",
            "CG iterations over time on the ball, the box and the bar",
            contact_cg,
        ),
        Figure::new(
            "self-contact",
            "A napkin's flap falling shut, with and without self-contact",
            self_contact,
        ),
        Figure::new(
            "cg-resolution",
            "CG iterations against resolution",
            cg_resolution,
        )
        .heavy(),
    ]
}

/// The settled shape (x, y in cm) of the page's strand at `segments` segments.
fn strand_shape(
    segments: usize,
    scaling: Scaling,
) -> Result<Vec<(f64, f64)>, PbmError> {
    let material =
        Material { length: 0.2, density: 0.005, stretch: 100.0, bend: 1e-3 };
    let mut model = cantilever(&material, segments, scaling, G)?;
    settle(&mut model)?;
    Ok(model
        .system
        .particles
        .iter()
        .map(|p| (100.0 * p.x.x, 100.0 * p.x.y))
        .collect())
}

fn strand_sampling() -> Result<Vec<Drawing>, PbmError> {
    let scalings = [Scaling::PerLength, Scaling::FixedAt(10)];
    let cases: Vec<(usize, Scaling)> = scalings
        .iter()
        .flat_map(|&s| SEGMENTS.iter().map(move |&n| (n, s)))
        .collect();
    let shapes = map_range(cases.len(), |i| strand_shape(cases[i].0, cases[i].1))
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    require_finite(shapes.iter().flatten().flat_map(|p| [p.0, p.1]))?;
    let lowest = shapes.iter().flatten().map(|p| p.1).fold(0.0, f64::min);
    titled_figure(
        [480, 760],
        "A 20 cm strand clamped at its root, sagging under its own weight",
        |root, layout| {
            let legend: Legend =
                series_legend(&SEGMENTS, Swatch::Line, LINE_WIDTH, |n| {
                    format!("{n} segments")
                });
            let root = legend_below(root, &legend)?;
            let titles = [
                "(a) springs per unit length: k = K/l, B/l",
                "(b) the 10-segment springs kept at every resolution",
            ];
            for (p, (panel, title)) in
                panels(&root, layout, 2, 2).iter().zip(titles).enumerate()
            {
                let panel = titled(panel, title, &label_font())?;
                let mut chart = chart_on(&panel)
                    .build_cartesian_2d(0.0..21.0, (lowest * 1.05).min(-1.0)..1.0)?;
                axes(&mut chart, "along the strand (cm)", "height (cm)")
                    .x_label_formatter(&|x| format!("{x:.0}"))
                    .y_label_formatter(&|y| format!("{y:.0}"))
                    .draw()?;
                for (i, shape) in shapes[p * SEGMENTS.len()..(p + 1) * SEGMENTS.len()]
                    .iter()
                    .enumerate()
                {
                    line(&mut chart, shape, color(i), LINE_WIDTH)?;
                }
            }
            Ok(())
        },
    )
}

/// A frame of the drape: each triangle's corners on the page, its depth, its
/// stretch and how squarely it faces the light.
type Frame = (f64, Vec<Seen>);

/// One triangle as seen: corners on the page, depth, strain, facing.
type Seen = ([(f64, f64); 3], f64, f64, f64);

/// The frames and the energies of the figures' drape.
type DrapeRun = (Vec<Frame>, Vec<(f64, Energies)>);

/// An energy term's name and how to read it.
type Term = (&'static str, fn(&Energies) -> f64);

/// The drape of the figures: 16 × 16 particles for 10 s, its energies every step
/// and four frames. Computed once and shared by both figures.
fn drape_run() -> Result<&'static DrapeRun, PbmError> {
    static RUN: OnceLock<Result<DrapeRun, String>> = OnceLock::new();
    let compute = || -> Result<_, PbmError> {
        let model = cloth(Scene::Drape, 16, ClothMaterial::COTTON)?;
        let mut frames = Vec::new();
        let wanted = [0.0, 0.2, 0.4, 10.0];
        let r = run(model, 1.0 / 30.0, 300, false, 1, |c| {
            if wanted
                .iter()
                .any(|t| (c.t - t).abs() < 1e-9 || (c.t - t).abs() < 0.5 / 30.0)
            {
                frames.push(frame(c));
            }
        })?;
        if let Some(why) = r.failure {
            return Err(PbmError::Figure { why });
        }
        Ok((frames, r.energies))
    };
    RUN.get_or_init(|| compute().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|why| PbmError::Figure { why: why.clone() })
}

/// The view: from the front (−y), 20° above, orthographic. Returns (right, up,
/// depth), depth growing away from the viewer.
fn view(p: &nalgebra::Vector3<f64>) -> (f64, f64, f64) {
    let (s, c) = 20f64.to_radians().sin_cos();
    (p.x, p.z * c + p.y * s, p.y * c - p.z * s)
}

/// Each triangle seen from the viewer, its depth and its larger thread strain.
fn frame(cloth: &Cloth) -> Frame {
    let light = nalgebra::Vector3::new(-0.3, -0.8, 0.6).normalize();
    let mut tris: Vec<Seen> = cloth
        .triangles
        .iter()
        .map(|t| {
            let x = t.corners.map(|i| cloth.x[i]);
            let (wu, wv) = t.map(&x);
            let strain = (wu.norm() - 1.0).max(wv.norm() - 1.0);
            let seen = x.map(|p| view(&p));
            let depth = seen.iter().map(|s| s.2).sum::<f64>() / 3.0;
            let normal = (x[1] - x[0]).cross(&(x[2] - x[0])).normalize();
            (seen.map(|s| (s.0, s.1)), depth, strain, normal.dot(&light).abs())
        })
        .collect();
    // Far triangles first, so that near ones paint over them.
    tris.sort_by(|a, b| b.1.total_cmp(&a.1));
    (cloth.t, tris)
}

/// Strain bands (upper bounds, %) and their colours.
const BANDS: [(f64, RGBColor); 4] = [
    (0.05, RGBColor(225, 232, 240)),
    (0.1, RGBColor(246, 196, 140)),
    (0.2, RGBColor(230, 120, 50)),
    (f64::INFINITY, RGBColor(165, 30, 25)),
];

/// The sphere's colour.
const SPHERE_GREY: RGBColor = RGBColor(150, 158, 170);

/// `c` darkened where the triangle turns away from the light (a cue to the shape;
/// the band stays recognisable).
fn lit(c: RGBColor, facing: f64) -> RGBColor {
    let f = 0.7 + 0.3 * facing;
    let scale = |v: u8| (f64::from(v) * f).round() as u8;
    RGBColor(scale(c.0), scale(c.1), scale(c.2))
}

fn band(strain: f64) -> RGBColor {
    BANDS.iter().find(|(top, _)| 100.0 * strain < *top).map_or(BANDS[3].1, |b| b.1)
}

fn drape_frames() -> Result<Vec<Drawing>, PbmError> {
    let (frames, _) = drape_run()?;
    require_finite(
        frames.iter().flat_map(|f| {
            f.1.iter().flat_map(|t| t.0.iter().flat_map(|p| [p.0, p.1]))
        }),
    )?;
    titled_figure(
        [560, 1300],
        "A 1 m cloth of 16 × 16 particles dropped on a sphere (0.3 m), h = 1/30 s; \
                 triangles shaded by their larger thread strain",
        |root, layout| {
            let legend: Legend = vec![
                ("strain < 0.05 %".into(), Swatch::Square(BANDS[0].1)),
                ("0.05–0.1 %".into(), Swatch::Square(BANDS[1].1)),
                ("0.1–0.2 %".into(), Swatch::Square(BANDS[2].1)),
                ("> 0.2 %".into(), Swatch::Square(BANDS[3].1)),
                ("sphere".into(), Swatch::Square(SPHERE_GREY)),
            ];
            let root = legend_below(root, &legend)?;
            let caption =
                |k: usize| format!("({}) t = {:.1} s", letter(k), frames[k].0);
            each_panel(&root, layout, (frames.len(), 2), caption, |k, panel| {
                drape_panel(panel, &frames[k].1)
            })
        },
    )
}

/// One frame of the drape: the triangles far to near, shaded by strain, and the
/// sphere painted in among them at its centre's depth.
fn drape_panel(panel: &Area<'_>, tris: &[Seen]) -> DrawResult {
    let mut chart = scene_chart(panel, -0.6..0.6, -0.45..0.45)?;
    let (_, centre_up, centre_depth) = view(&SPHERE.center);
    let sphere: Vec<(f64, f64)> = (0..=72)
        .map(|i| {
            let a = std::f64::consts::TAU * f64::from(i) / 72.0;
            (SPHERE.radius * a.cos(), centre_up + SPHERE.radius * a.sin())
        })
        .collect();
    let mut sphere_drawn = false;
    for (corners, depth, strain, facing) in tris {
        if !sphere_drawn && *depth < centre_depth {
            fill(&mut chart, &sphere, SPHERE_GREY)?;
            sphere_drawn = true;
        }
        fill(&mut chart, corners, lit(band(*strain), *facing))?;
    }
    if !sphere_drawn {
        fill(&mut chart, &sphere, SPHERE_GREY)?;
    }
    Ok(())
}

fn drape_energy() -> Result<Vec<Drawing>, PbmError> {
    let (_, energies) = drape_run()?;
    let terms: [Term; 4] = [
        ("stretch", |e| e.stretch),
        ("shear", |e| e.shear),
        ("bend", |e| e.bend),
        ("kinetic", |e| e.kinetic),
    ];
    // The start is flat and still: every term zero, which a log axis cannot show.
    let curves: Vec<Vec<(f64, f64)>> = terms
        .iter()
        .map(|(_, f)| {
            energies.iter().skip(1).map(|(t, e)| (*t, f(e).max(1e-12))).collect()
        })
        .collect();
    require_finite(curves.iter().flatten().map(|p| p.1))?;
    titled_figure(
        [460, 560],
        "The energy in each term as the cloth of the frames above settles",
        |root, _| {
            let legend: Legend =
                series_legend(&terms, Swatch::Line, LINE_WIDTH, |(name, _)| {
                    (*name).into()
                });
            let root = legend_below(root, &legend)?;
            let mut chart = chart_on(&root)
                .build_cartesian_2d(0.0..10.0, (1e-8..10.0).log_scale())?;
            axes(&mut chart, "time (s)", "energy (J)")
                .x_label_formatter(&|t| format!("{t:.0}"))
                .y_label_formatter(&power_of_ten)
                .draw()?;
            for (i, curve) in curves.iter().enumerate() {
                line(&mut chart, curve, color(i), LINE_WIDTH)?;
            }
            Ok(())
        },
    )
}

/// The resolutions of the CG figure.
const SIDES: [usize; 5] = [8, 12, 16, 24, 32];

fn cg_resolution() -> Result<Vec<Drawing>, PbmError> {
    let modes = [Curvature::Projected, Curvature::GaussNewton];
    let cases: Vec<(Curvature, usize)> =
        modes.iter().flat_map(|&m| SIDES.iter().map(move |&n| (m, n))).collect();
    // The first half second of the drape: the cloth falls, lands and folds. A run
    // that fails (Gauss–Newton's energy grows at the finer sides) gives no count: its
    // iterations are those of a diverging cloth, and the figure marks it instead.
    let means = map_range(cases.len(), |i| {
        let (mode, n) = cases[i];
        let mut model = cloth(Scene::Drape, n, ClothMaterial::COTTON)?;
        model.curvature = mode;
        let r = run(model, 1.0 / 30.0, 15, false, usize::MAX, |_| {})?;
        let total: usize = r.cg_iterations.iter().sum();
        let mean = total as f64 / r.cg_iterations.len().max(1) as f64;
        Ok((n as f64, r.failure.is_none().then_some(mean)))
    })
    .into_iter()
    .collect::<Result<Vec<_>, PbmError>>()?;
    require_finite(means.iter().filter_map(|p| p.1))?;
    if means[..SIDES.len()].iter().any(|p| p.1.is_none()) {
        return Err(PbmError::Figure {
            why: "a drape with the projected Hessian failed".into(),
        });
    }
    let top = means.iter().filter_map(|p| p.1).fold(0.0, f64::max) * 1.15;
    titled_figure(
        [460, 560],
        "Mean CG iterations per step over the drape's first half second, \
                 h = 1/30 s, residual 1e-6",
        |root, _| {
            let legend: Legend = vec![
                ("projected Hessian".into(), Swatch::Line(color(0), LINE_WIDTH)),
                ("Gauss–Newton".into(), Swatch::Line(color(1), LINE_WIDTH)),
                (
                    "Gauss–Newton diverged (no count)".into(),
                    Swatch::Ring(color(1), 5),
                ),
            ];
            let root = legend_below(root, &legend)?;
            let mut chart =
                chart_on(&root).build_cartesian_2d(0.0..34.0, 0.0..top)?;
            axes(&mut chart, "particles along a side, n", "CG iterations per step")
                .x_label_formatter(&|n| format!("{n:.0}"))
                .y_label_formatter(&|i| format!("{i:.0}"))
                .draw()?;
            for (m, chunk) in means.chunks(SIDES.len()).enumerate() {
                let held: Vec<(f64, f64)> =
                    chunk.iter().filter_map(|&(n, mean)| Some((n, mean?))).collect();
                line_and_dots(&mut chart, &held, (color(m), LINE_WIDTH), 4)?;
                // A diverged run sits on the top edge, hollow: there is no count.
                let diverged = chunk.iter().filter(|p| p.1.is_none());
                chart.draw_series(diverged.map(|&(n, _)| {
                    Circle::new((n, top / 1.15 * 1.08), 5, color(m).stroke_width(2))
                }))?;
            }
            Ok(())
        },
    )
}

/// The cloth of `cloth/contact` with its default size and friction, 10 s after it
/// was let go on `kind`.
fn settled_on(kind: SolidKind) -> Result<Cloth, PbmError> {
    let model = on_solid(kind, 16, ClothMaterial::COTTON, 1000.0)?;
    let r = run(model, 1.0 / 30.0, 300, false, usize::MAX, |_| {})?;
    match r.failure {
        Some(why) => Err(PbmError::Figure { why }),
        None => Ok(r.cloth),
    }
}

/// A triangle as seen (corners on the page, facing the light) and which side of
/// the solid it is on (true: the viewer's).
type Sided = ([(f64, f64); 3], f64, bool);

/// Each triangle of `cloth` as seen and whether `near` holds at its centre, far to
/// near.
fn seen_sides(
    cloth: &Cloth,
    near: impl Fn(&nalgebra::Vector3<f64>) -> bool,
) -> Vec<Sided> {
    let light = nalgebra::Vector3::new(-0.3, -0.8, 0.6).normalize();
    let mut seen: Vec<_> = cloth
        .triangles
        .iter()
        .map(|t| {
            let x = t.corners.map(|i| cloth.x[i]);
            let centre = (x[0] + x[1] + x[2]) / 3.0;
            let normal = (x[1] - x[0]).cross(&(x[2] - x[0])).normalize();
            let depth = view(&centre).2;
            let corners = x.map(|p| view(&p)).map(|p| (p.0, p.1));
            (corners, depth, normal.dot(&light).abs(), near(&centre))
        })
        .collect();
    seen.sort_by(|a, b| b.1.total_cmp(&a.1));
    seen.into_iter().map(|(c, _, f, n)| (c, f, n)).collect()
}

/// The direction toward the viewer of [`view`].
fn toward_viewer() -> nalgebra::Vector3<f64> {
    let (s, c) = 20f64.to_radians().sin_cos();
    nalgebra::Vector3::new(0.0, -c, s)
}

/// The faces of `solid` that face the viewer, each as its corners on the page
/// and how squarely it faces the light; a sphere is its outline.
fn solid_faces(solid: &Solid) -> Vec<(Vec<(f64, f64)>, f64)> {
    match *solid {
        Solid::Sphere { center, radius } => {
            let (x, up, _) = view(&center);
            let outline = (0..=72)
                .map(|i| {
                    let a = std::f64::consts::TAU * f64::from(i) / 72.0;
                    (x + radius * a.cos(), up + radius * a.sin())
                })
                .collect();
            vec![(outline, 1.0)]
        }
        Solid::Box { center, half } => {
            let light = nalgebra::Vector3::new(-0.3, -0.8, 0.6).normalize();
            let mut faces = Vec::new();
            for axis in 0..3 {
                for sign in [-1.0, 1.0] {
                    let mut n = nalgebra::Vector3::zeros();
                    n[axis] = sign;
                    if n.dot(&toward_viewer()) <= 1e-9 {
                        continue;
                    }
                    // The face's four corners, in order around it.
                    let (u, w) = ((axis + 1) % 3, (axis + 2) % 3);
                    let corners =
                        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                            .iter()
                            .map(|&(a, b)| {
                                let mut p = center + n.component_mul(&half);
                                p[u] += a * half[u];
                                p[w] += b * half[w];
                                let (x, up, _) = view(&p);
                                (x, up)
                            })
                            .collect();
                    faces.push((corners, n.dot(&light).abs()));
                }
            }
            faces
        }
    }
}

fn contact_solids() -> Result<Vec<Drawing>, PbmError> {
    let kinds = [SolidKind::Sphere, SolidKind::Box];
    let cloths = map_range(kinds.len(), |i| settled_on(kinds[i]))
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    require_finite(cloths.iter().flat_map(|c| c.x.iter().flatten().copied()))?;
    titled_figure(
        [440, 720],
        "The drape's cloth 10 s after it was let go on a sphere and on a box, held on their \
         surfaces by constraints inside CG; friction k_f = 1000 s/m",
        |root, layout| {
            let legend: Legend = vec![
                ("cloth".into(), Swatch::Square(BANDS[0].1)),
                ("particle held on the surface".into(), Swatch::Dot(color(0), 3)),
                ("solid".into(), Swatch::Square(SPHERE_GREY)),
            ];
            let root = legend_below(root, &legend)?;
            let titles = ["(a) on the sphere", "(b) on the box"];
            each_panel(
                &root,
                layout,
                (2, 2),
                |k| titles[k].into(),
                |k, panel| on_solid_panel(panel, &cloths[k]),
            )
        },
    )
}

/// A cloth settled on its solid, in painter's order: cloth on the solid's far side,
/// the solid, then the cloth on its near side, each far to near; and the particles
/// held on the near side.
fn on_solid_panel(panel: &Area<'_>, cloth: &Cloth) -> DrawResult {
    let mut chart = scene_chart(panel, -0.62..0.62, -0.42..0.42)?;
    let solid = cloth
        .solid
        .ok_or_else(|| PbmError::Figure { why: "the cloth has no solid".into() })?;
    let near =
        |p: &nalgebra::Vector3<f64>| solid.gap(p).1.dot(&toward_viewer()) >= 0.0;
    let tris = seen_sides(cloth, near);
    for pass in [false, true] {
        if pass {
            for (corners, facing) in solid_faces(&solid) {
                fill(&mut chart, &corners, lit(SPHERE_GREY, facing))?;
            }
        }
        for (corners, facing, _) in tris.iter().filter(|t| t.2 == pass) {
            fill(&mut chart, corners, lit(BANDS[0].1, *facing))?;
        }
    }
    let held = (0..cloth.len()).filter(|&i| cloth.held[i] && near(&cloth.x[i]));
    let held: Vec<(f64, f64)> =
        held.map(|i| view(&cloth.x[i])).map(|p| (p.0, p.1)).collect();
    dots(&mut chart, &held, 3, color(0))
}

/// The pattern triangle of the map figure (m) and where its corners are in the
/// world (a plane, seen from above).
const PATTERN: [[f64; 2]; 3] = [[0.0, 0.0], [0.3, 0.04], [0.06, 0.26]];
const WORLD: [[f64; 2]; 3] = [[0.0, 0.0], [0.34, 0.13], [0.0, 0.28]];

fn pattern_map() -> Result<Vec<Drawing>, PbmError> {
    use crate::triangle::RestTriangle;
    let triangle = RestTriangle::new([0, 1, 2], PATTERN)?;
    let x = WORLD.map(|p| nalgebra::Vector3::new(p[0], p[1], 0.0));
    let (w_u, w_v) = triangle.map(&x);
    require_finite(w_u.iter().chain(w_v.iter()).copied())?;
    let angle = w_u.angle(&w_v).to_degrees();
    titled_figure(
        [380, 700],
        "One triangle: its threads in the pattern, and where the map T takes them",
        |root, layout| {
            let legend: Legend = vec![
                (
                    "warp (u) threads, and one metre of warp: û, w_u".into(),
                    Swatch::Line(color(0), 2),
                ),
                (
                    "weft (v) threads, and one metre of weft: v̂, w_v".into(),
                    Swatch::Line(color(1), 2),
                ),
            ];
            let root = legend_below(root, &legend)?;
            let titles = [
                "(a) the pattern: (u, v) in metres of cloth".to_string(),
                format!(
                    "(b) the world: |w_u| {:.2}, |w_v| {:.2}, {angle:.0}°",
                    w_u.norm(),
                    w_v.norm()
                ),
            ];
            each_panel(
                &root,
                layout,
                (2, 2),
                |k| titles[k].clone(),
                |k, panel| {
                    // A point of the pattern, where the panel draws it.
                    let place = |u: f64, v: f64| -> (f64, f64) {
                        if k == 0 {
                            (u, v)
                        } else {
                            (u * w_u.x + v * w_v.x, u * w_u.y + v * w_v.y)
                        }
                    };
                    let names = if k == 0 {
                        (["û/10", "v̂/10"], ["p_i", "p_j", "p_k"])
                    } else {
                        (["w_u/10", "w_v/10"], ["x_i", "x_j", "x_k"])
                    };
                    triangle_panel(panel, &place, names)
                },
            )
        },
    )
}

/// A point of the pattern (u, v) where a panel of the map figure draws it.
type Place<'a> = &'a dyn Fn(f64, f64) -> (f64, f64);

/// One panel of the map figure: the triangle's threads, its outline, a tenth of a
/// metre of warp and of weft as arrows, and its corners, each named.
fn triangle_panel(
    panel: &Area<'_>,
    place: Place<'_>,
    (tenths, corner_names): ([&str; 2], [&str; 3]),
) -> DrawResult {
    let mut chart = scene_chart(panel, -0.08..0.42, -0.06..0.33)?;
    threads(&mut chart, place)?;
    let corners: Vec<(f64, f64)> =
        PATTERN.iter().map(|p| place(p[0], p[1])).collect();
    line(&mut chart, &closed_ring(&corners), REFERENCE, 2)?;
    let tenth = 0.1;
    let (u_tip, v_tip) = (place(tenth, 0.0), place(0.0, tenth));
    arrow(&mut chart, (0.0, 0.0), u_tip, 0.025, color(0), 3)?;
    arrow(&mut chart, (0.0, 0.0), v_tip, 0.025, color(1), 3)?;
    labels(
        &mut chart,
        &[
            (tenths[0], (u_tip.0 + 0.005, u_tip.1 - 0.03)),
            (tenths[1], (v_tip.0 - 0.075, v_tip.1 + 0.02)),
        ],
    )?;
    for (name, &(x, y)) in corner_names.iter().zip(&corners) {
        dots(&mut chart, &[(x, y)], 4, REFERENCE)?;
        labels(&mut chart, &[(name, (x + 0.01, y + 0.02))])?;
    }
    Ok(())
}

/// The threads through the map figure's triangle: lines of constant v (warp) and
/// constant u (weft), every 4 cm of pattern, clipped to the triangle.
fn threads<'a, 'b: 'a>(chart: &mut Chart2d<'a, 'b>, place: Place<'_>) -> DrawResult {
    for step in 1..8 {
        let c = 0.04 * f64::from(step);
        for (warp, ink) in [(true, color(0)), (false, color(1))] {
            if let Some((p, q)) = chord(&PATTERN, warp, c) {
                let ends = [place(p[0], p[1]), place(q[0], q[1])];
                line(chart, &ends, pale(ink), 1)?;
            }
        }
    }
    Ok(())
}

/// The chord of `triangle` along a thread: the line v = c (warp) or u = c (weft)
/// where it crosses the triangle, if it does.
fn chord(
    triangle: &[[f64; 2]; 3],
    warp: bool,
    c: f64,
) -> Option<([f64; 2], [f64; 2])> {
    let (fixed, free) = if warp { (1, 0) } else { (0, 1) };
    let mut hits = Vec::new();
    for e in 0..3 {
        let (p, q) = (triangle[e], triangle[(e + 1) % 3]);
        let (a, b) = (p[fixed] - c, q[fixed] - c);
        if a * b < 0.0 {
            let t = a / (a - b);
            let mut hit = [0.0; 2];
            hit[fixed] = c;
            hit[free] = p[free] + t * (q[free] - p[free]);
            hits.push(hit);
        }
    }
    (hits.len() == 2).then(|| (hits[0], hits[1]))
}

fn hinge() -> Result<Vec<Drawing>, PbmError> {
    use crate::hinge::{Bend, RestHinge};
    use crate::triangle::RestTriangle;
    use pbm_particles::condition::Condition;
    // The pattern: edge a–b along x, c above, d below (m).
    let flat = [[0.0, 0.0], [0.4, 0.0], [0.14, 0.2], [0.26, -0.15]];
    let t1 = RestTriangle::new([0, 1, 2], [flat[0], flat[1], flat[2]])?;
    let t2 = RestTriangle::new([1, 0, 3], [flat[1], flat[0], flat[3]])?;
    let rest = RestHinge::between(&t1, &t2)?;
    // Folded: d's triangle turned 40° about the edge; its fold angle, from the
    // bend condition itself.
    let fold = 40f64.to_radians();
    let x: Vec<nalgebra::Vector3<f64>> = vec![
        nalgebra::Vector3::new(0.0, 0.0, 0.0),
        nalgebra::Vector3::new(0.4, 0.0, 0.0),
        nalgebra::Vector3::new(0.14, 0.2, 0.0),
        nalgebra::Vector3::new(0.26, -0.15 * fold.cos(), 0.15 * fold.sin()),
    ];
    let bend = Bend(rest.clone());
    let mut c = [0.0];
    let mut j = [nalgebra::Vector3::zeros(); 4];
    bend.position(&x, &mut c, &mut j)?;
    let theta = c[0] * rest.l_perp / rest.area.sqrt();
    require_finite([theta, rest.l_perp])?;
    titled_figure(
        [400, 700],
        "A hinge: the triangles a b c and b a d share the edge a b",
        |root, layout| {
            let titles = [
                format!("(a) flat: l⊥ = (h_c + h_d)/3 = {:.3} m", rest.l_perp),
                format!(
                    "(b) along the edge: folded by θ = {:.0}°",
                    theta.to_degrees().abs()
                ),
            ];
            each_panel(
                root,
                layout,
                (2, 2),
                |k| titles[k].clone(),
                |k, panel| {
                    if k == 0 {
                        flat_hinge(panel, &flat)
                    } else {
                        folded_hinge(panel, fold)
                    }
                },
            )
        },
    )
}

/// The hinge flat, in its pattern (m): the two triangles, the shared edge, the
/// heights h_c and h_d, the triangles' centres a third of the way up them, and l⊥
/// between the centres.
fn flat_hinge(panel: &Area<'_>, flat: &[[f64; 2]; 4]) -> DrawResult {
    let mut chart = scene_chart(panel, -0.06..0.52, -0.2..0.25)?;
    let pt = |i: usize| (flat[i][0], flat[i][1]);
    for tri in [[0, 1, 2, 0], [0, 1, 3, 0]] {
        let path: Vec<(f64, f64)> = tri.iter().map(|&i| pt(i)).collect();
        shape(&mut chart, &path, color(0).mix(0.12), (REFERENCE, 2))?;
    }
    line(&mut chart, &[pt(0), pt(1)], color(1), 4)?;
    dashed_line(&mut chart, &[pt(2), (flat[2][0], 0.0)], REFERENCE, 1)?;
    dashed_line(&mut chart, &[pt(3), (flat[3][0], 0.0)], REFERENCE, 1)?;
    let centre =
        |i: usize| ((flat[0][0] + flat[1][0] + flat[i][0]) / 3.0, flat[i][1] / 3.0);
    dots(&mut chart, &[centre(2), centre(3)], 5, color(2))?;
    let at = flat[1][0] + 0.05;
    for i in [2, 3] {
        dashed_line(&mut chart, &[centre(i), (at, centre(i).1)], color(2), 1)?;
    }
    let (c, d) = ((at, centre(2).1), (at, centre(3).1));
    arrow(&mut chart, d, c, 0.02, color(2), 2)?;
    arrow(&mut chart, c, d, 0.02, color(2), 2)?;
    labels(
        &mut chart,
        &[
            ("a", (-0.04, 0.01)),
            ("b", (0.405, -0.035)),
            ("c", (flat[2][0], flat[2][1] + 0.03)),
            ("d", (flat[3][0] + 0.01, flat[3][1] - 0.005)),
            ("h_c", (flat[2][0] + 0.01, 0.12)),
            ("h_d", (flat[3][0] + 0.01, -0.07)),
            ("l⊥", (at + 0.012, 0.05)),
        ],
    )
}

/// The hinge seen along its edge (a point here), folded by `fold`: face c to the
/// left and up the page, face d turned by the fold, their normals, and the angle.
fn folded_hinge(panel: &Area<'_>, fold: f64) -> DrawResult {
    let (h_c, h_d) = (0.2, 0.15);
    let mut chart = scene_chart(panel, -0.2..0.28, -0.2..0.25)?;
    let face_c = (-h_c, 0.0);
    let face_d = (h_d * fold.cos(), h_d * fold.sin());
    line(&mut chart, &[face_c, (0.0, 0.0), face_d], REFERENCE, 3)?;
    dashed_line(&mut chart, &[(0.0, 0.0), (h_d, 0.0)], REFERENCE, 1)?;
    dots(&mut chart, &[(0.0, 0.0)], 6, color(1))?;
    let n_c = (0.0, 0.12);
    let n_d = (-0.12 * fold.sin(), 0.12 * fold.cos());
    let base_c = (-0.6 * h_c, 0.0);
    let base_d = (0.6 * face_d.0, 0.6 * face_d.1);
    let tip_c = (base_c.0 + n_c.0, base_c.1 + n_c.1);
    let tip_d = (base_d.0 + n_d.0, base_d.1 + n_d.1);
    arrow(&mut chart, base_c, tip_c, 0.025, color(0), 2)?;
    arrow(&mut chart, base_d, tip_d, 0.025, color(0), 2)?;
    let arc: Vec<(f64, f64)> = (0..=20)
        .map(|i| {
            let a = fold * f64::from(i) / 20.0;
            (0.09 * a.cos(), 0.09 * a.sin())
        })
        .collect();
    line(&mut chart, &arc, color(2), 2)?;
    labels(
        &mut chart,
        &[
            ("edge a b", (-0.07, -0.04)),
            ("c's face", (face_c.0, -0.03)),
            ("d's face", (face_d.0 - 0.02, face_d.1 + 0.03)),
            ("n_c", (base_c.0 + 0.01, base_c.1 + 0.13)),
            ("n_d", (tip_d.0 - 0.05, tip_d.1 + 0.03)),
            ("θ", (0.1, 0.02)),
        ],
    )
}

/// `c` mixed halfway to white: a thread drawn behind the figure's arrows.
fn pale(c: RGBColor) -> RGBColor {
    let half = |v: u8| ((u16::from(v) + 255) / 2) as u8;
    RGBColor(half(c.0), half(c.1), half(c.2))
}

/// The figure's napkin: `cloth/self-contact` at its defaults.
const FOLD: (usize, f64, f64, f64) = (16, 10.0, 0.01, 100.0);

/// The steps of h = 1/30 s after which the side views are drawn.
const FOLD_STEPS: [usize; 5] = [0, 2, 4, 9, 60];

/// One run of the figure's napkin: the middle column of particles, (y, z) in m,
/// after each of [`FOLD_STEPS`], and the smallest signed distance of any pair at the
/// start of each step, (t, d) in s and m.
type Fold = (Vec<Vec<(f64, f64)>>, Vec<(f64, f64)>);

fn fold_run(respond: bool) -> Result<Fold, PbmError> {
    let (n, opening, thickness, stiffness) = FOLD;
    let model = napkin(n, opening.to_radians(), (thickness, stiffness), respond)?;
    let h = 1.0 / 30.0;
    let (mut columns, mut nearest) = (Vec::new(), Vec::new());
    let column = |c: &Cloth| -> Vec<(f64, f64)> {
        (0..n).map(|i| (c.x[i * n + n / 2].y, c.x[i * n + n / 2].z)).collect()
    };
    let steps = FOLD_STEPS[FOLD_STEPS.len() - 1];
    let r = run(model, h, steps, false, 1, |c| {
        if FOLD_STEPS.iter().any(|&k| (c.t - k as f64 * h).abs() < 0.5 * h) {
            columns.push(column(c));
        }
        if let Some(d) = c.self_contact.as_ref().and_then(|s| s.nearest) {
            nearest.push((c.t - h, d));
        }
    })?;
    match r.failure {
        Some(why) => Err(PbmError::Figure { why }),
        None => Ok((columns, nearest)),
    }
}

fn self_contact() -> Result<Vec<Drawing>, PbmError> {
    let runs = map_range(2, |k| fold_run(k == 1));
    let runs = runs.into_iter().collect::<Result<Vec<_>, _>>()?;
    let points = runs.iter().flat_map(|(c, d)| c.iter().flatten().chain(d));
    require_finite(points.flat_map(|p| [p.0, p.1]))?;
    titled_figure(
        [760, 1180],
        "A napkin glued to a board over 60 cm, its 40 cm flap opened 10° and let go \
         (16 × 16 particles, h = 1/30 s)",
        |root, layout| {
            let (top, bottom) = root.split_vertically(layout.pick(440, 760));
            side_views(&top, layout, &runs)?;
            closest_over_time(&bottom, &runs)
        },
    )
}

/// Panels (a) and (b) of the self-contact figure: the middle column of each run
/// seen from the side after [`FOLD_STEPS`].
fn side_views(area: &Area<'_>, layout: Layout, runs: &[Fold]) -> DrawResult {
    let times: Legend = series_legend(&FOLD_STEPS, Swatch::Line, LINE_WIDTH, |k| {
        format!("t = {:.2} s", *k as f64 / 30.0)
    });
    let area = legend_below(area, &times)?;
    let titles = ["(a) without self-contact", "(b) with it (heights in cm)"];
    let ranges = [(-0.05..1.0, -0.45..0.1), (0.1..0.65, -1.0..8.0)];
    let units = [("height (m)", 1.0), ("height (cm)", 100.0)];
    for (p, (panel, title)) in
        panels(&area, layout, 2, 2).iter().zip(titles).enumerate()
    {
        let panel = titled(panel, title, &label_font())?;
        let (x, y) = ranges[p].clone();
        let (unit, scale) = units[p];
        let mut chart = chart_on(&panel).build_cartesian_2d(x, y)?;
        axes(&mut chart, "along the napkin, y (m)", unit)
            .x_label_formatter(&|y| format!("{y:.1}"))
            .y_label_formatter(&|z| format!("{z:.1}"))
            .draw()?;
        for (i, points) in runs[p].0.iter().enumerate() {
            let points: Vec<_> =
                points.iter().map(|&(y, z)| (y, z * scale)).collect();
            line(&mut chart, &points, color(i), LINE_WIDTH)?;
        }
    }
    Ok(())
}

/// Panel (c) of the self-contact figure: the smallest signed distance of any pair
/// at each step of each run, and the thickness.
fn closest_over_time(area: &Area<'_>, runs: &[Fold]) -> DrawResult {
    let legend: Legend = vec![
        ("without self-contact".into(), Swatch::Line(color(4), LINE_WIDTH)),
        ("with it".into(), Swatch::Line(color(5), LINE_WIDTH)),
        ("the thickness τ".into(), Swatch::Dashed(REFERENCE, 1)),
    ];
    let area = legend_below(area, &legend)?;
    let title = "(c) the nearest vertex over a triangle, signed";
    let area = titled(&area, title, &label_font())?;
    let mut chart = chart_on(&area).build_cartesian_2d(0.0..2.0, -13.0..4.0)?;
    axes(&mut chart, "time (s)", "distance (cm)")
        .x_label_formatter(&|t| format!("{t:.1}"))
        .y_label_formatter(&|d| format!("{d:.0}"))
        .draw()?;
    for (k, (_, nearest)) in runs.iter().enumerate() {
        let points: Vec<_> = nearest.iter().map(|&(t, d)| (t, 100.0 * d)).collect();
        line(&mut chart, &points, color(4 + k), LINE_WIDTH)?;
    }
    let tau = 100.0 * FOLD.2;
    dashed_line(&mut chart, &[(0.0, tau), (2.0, tau)], REFERENCE, 1)
}

/// The solids of the CG figure, with their names in its legend.
const CG_SOLIDS: [(SolidKind, &str); 3] = [
    (SolidKind::Sphere, "ball"),
    (SolidKind::Box, "box (four edges, four corners)"),
    (SolidKind::Bar, "bar (two edges, no corners)"),
];

fn contact_cg() -> Result<Vec<Drawing>, PbmError> {
    // `cloth/contact` at its defaults on each solid: 8 s at h = 1/30 s.
    let h = 1.0 / 30.0;
    let runs = map_range(CG_SOLIDS.len(), |k| {
        let model = on_solid(CG_SOLIDS[k].0, 16, ClothMaterial::COTTON, 1000.0)?;
        let r = run(model, h, 240, false, usize::MAX, |_| {})?;
        let points = r.cg_iterations.iter().enumerate();
        Ok(points.map(|(i, &n)| ((i + 1) as f64 * h, n as f64)).collect::<Vec<_>>())
    })
    .into_iter()
    .collect::<Result<Vec<_>, PbmError>>()?;
    require_finite(runs.iter().flatten().map(|p| p.1))?;
    let top = runs.iter().flatten().map(|p| p.1).fold(0.0, f64::max) * 1.05;
    titled_figure(
        [420, 520],
        "CG iterations of each step of cloth/contact, the cloth held on three solids",
        |root, _| {
            let legend: Legend =
                series_legend(&CG_SOLIDS, Swatch::Line, LINE_WIDTH, |s| {
                    s.1.to_string()
                });
            let root = legend_below(root, &legend)?;
            let mut chart = chart_on(&root).build_cartesian_2d(0.0..8.0, 0.0..top)?;
            axes(&mut chart, "time (s)", "CG iterations")
                .x_label_formatter(&|t| format!("{t:.0}"))
                .y_label_formatter(&|i| format!("{i:.0}"))
                .draw()?;
            for (k, points) in runs.iter().enumerate() {
                line(&mut chart, points, color(k), LINE_WIDTH)?;
            }
            Ok(())
        },
    )
}
