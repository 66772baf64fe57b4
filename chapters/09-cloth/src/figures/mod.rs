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

mod elements;

use elements::*;

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
            palette_lines(&mut chart, &curves)?;
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
        &format!(
            "The drape's cloth 10 s after it was let go on a sphere and on a box, held on \
             their surfaces by constraints inside CG; friction k{} = 1000 s/m",
            sub("f")
        ),
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
