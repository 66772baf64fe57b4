//! The chapter's cloths: a square pattern cut into triangles, draped over a sphere
//! or hung from one edge as a curtain, and the runs the exercises and figures make
//! of them.

use crate::cloth::{Cloth, ClothStep, Energies, Material, Sphere};
use crate::contact::Solid;
use crate::self_contact::SelfContact;
use crate::triangle::RestTriangle;
use nalgebra::Vector3;
use pbm_prelim::PbmError;
use std::time::{Duration, Instant};

/// A pattern: each particle's place (m), and the triangles' corners.
pub type Mesh = (Vec<[f64; 2]>, Vec<[usize; 3]>);

/// An n × n grid of places over a square pattern of side `side` (m), row by row,
/// and its triangles: each square cell cut along a diagonal, the diagonals
/// alternating like a chequerboard so that the mesh has no preferred direction
/// of fold.
pub fn grid(n: usize, side: f64) -> Result<Mesh, PbmError> {
    if n < 2 {
        let why = format!("n = {n}; a cloth needs at least 2 × 2 particles");
        return Err(PbmError::invalid("cloth grid", why));
    }
    pbm_prelim::validate::positive("cloth grid", "side", side)?;
    let spacing = side / (n - 1) as f64;
    let id = |i: usize, j: usize| i * n + j;
    let pattern = (0..n)
        .flat_map(|i| (0..n).map(move |j| [j as f64 * spacing, i as f64 * spacing]))
        .collect();
    let mut triangles = Vec::with_capacity(2 * (n - 1) * (n - 1));
    for i in 0..n - 1 {
        for j in 0..n - 1 {
            let (a, b, c, d) =
                (id(i, j), id(i, j + 1), id(i + 1, j + 1), id(i + 1, j));
            if (i + j) % 2 == 0 {
                triangles.extend([[a, b, c], [a, c, d]]);
            } else {
                triangles.extend([[a, b, d], [b, c, d]]);
            }
        }
    }
    Ok((pattern, triangles))
}

/// Which cloth to simulate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scene {
    /// A 1 m square held flat 5 cm above a sphere of radius 0.3 m and let go.
    Drape,
    /// A 1 m square held level by one edge, which stays pinned, and let go: it
    /// swings down and hangs.
    Curtain,
}

impl pbm_prelim::Choice for Scene {
    const OPTIONS: &'static [(&'static str, Self)] =
        &[("drape", Scene::Drape), ("curtain", Scene::Curtain)];
}

/// The sphere of the drape.
pub const SPHERE: Sphere = Sphere {
    center: Vector3::new(0.0, 0.0, 0.0),
    radius: 0.3,
    stiffness: 1e6,
    friction: 300.0,
};

// ANCHOR: scene
/// The cloth of `scene` with n × n particles, at rest.
pub fn cloth(scene: Scene, n: usize, material: Material) -> Result<Cloth, PbmError> {
    let (pattern, triangles) = grid(n, 1.0)?;
    let x = pattern
        .iter()
        .map(|p| match scene {
            Scene::Drape => {
                Vector3::new(p[0] - 0.5, p[1] - 0.5, SPHERE.radius + 0.05)
            }
            Scene::Curtain => Vector3::new(p[0] - 0.5, p[1], 0.0),
        })
        .collect();
    let mut cloth = Cloth::new(&pattern, x, &triangles, material)?;
    cloth.drag = 0.1;
    match scene {
        Scene::Drape => cloth.sphere = Some(SPHERE),
        // The y = 0 edge is the curtain rail.
        Scene::Curtain => cloth.pinned[..n].fill(true),
    }
    Ok(cloth)
}
// ANCHOR_END: scene

/// The solid of `cloth/contact`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolidKind {
    /// A ball of radius 0.3 m, the drape's sphere held by constraints.
    Sphere,
    /// A box 0.5 m wide and 0.6 m tall, its top where the ball's top is: a table.
    Box,
    /// The table made 1.2 m long, longer than the cloth: the cloth hangs over two
    /// opposite edges only, and has no corners to fold.
    Bar,
}

impl pbm_prelim::Choice for SolidKind {
    const OPTIONS: &'static [(&'static str, Self)] = &[
        ("sphere", SolidKind::Sphere),
        ("box", SolidKind::Box),
        ("bar", SolidKind::Bar),
    ];
}

impl SolidKind {
    /// The solid, its top at z = 0.3 m like the drape's sphere.
    pub fn solid(self) -> Solid {
        match self {
            SolidKind::Sphere => {
                Solid::Sphere { center: SPHERE.center, radius: SPHERE.radius }
            }
            SolidKind::Box => Solid::Box {
                center: Vector3::zeros(),
                half: Vector3::new(0.25, 0.25, SPHERE.radius),
            },
            SolidKind::Bar => Solid::Box {
                center: Vector3::zeros(),
                half: Vector3::new(0.25, 0.6, SPHERE.radius),
            },
        }
    }
}

/// The drape's square, n × n particles held flat 5 cm above `kind`'s top and let
/// go, the solid held by constraints inside the solve instead of by a penalty.
pub fn on_solid(
    kind: SolidKind,
    n: usize,
    material: Material,
    friction: f64,
) -> Result<Cloth, PbmError> {
    let mut cloth = cloth(Scene::Drape, n, material)?;
    cloth.sphere = None;
    cloth.solid = Some(kind.solid());
    cloth.solid_friction =
        pbm_prelim::validate::non_negative("cloth", "friction", friction)?;
    Ok(cloth)
}

// ANCHOR: folded
/// A napkin, n × n particles over a 1 m square, glued flat to a board over its
/// first 60 cm (those particles pinned); the rest, a flap, is lifted about the
/// last glued row like the cover of a book opened `opening` radians, and let go.
/// It falls shut onto the glued part: the cloth lands on itself.
pub fn folded(n: usize, opening: f64, material: Material) -> Result<Cloth, PbmError> {
    if !(opening > 0.0 && opening < std::f64::consts::PI) {
        let why = format!("an opening of {opening} rad is not in (0, π)");
        return Err(PbmError::invalid("folded napkin", why));
    }
    let (pattern, triangles) = grid(n, 1.0)?;
    let spacing = 1.0 / (n - 1) as f64;
    // The crease: the last glued row.
    let crease = (GLUED / spacing - 1e-9).ceil() * spacing;
    let x = pattern
        .iter()
        .map(|&[u, v]| {
            // How far past the crease, turned about it by π − opening.
            let s = v - crease;
            let (y, z) = match s > 0.0 {
                true => (crease - s * opening.cos(), s * opening.sin()),
                false => (v, 0.0),
            };
            Vector3::new(u - 0.5, y, z)
        })
        .collect();
    let mut cloth = Cloth::new(&pattern, x, &triangles, material)?;
    for (pinned, p) in cloth.pinned.iter_mut().zip(&pattern) {
        *pinned = p[1] <= crease + 1e-9;
    }
    cloth.drag = 0.1;
    Ok(cloth)
}
// ANCHOR_END: folded

/// The napkin of `cloth/self-contact`: [`folded`], touching itself with
/// `thickness` (m) and `stiffness` (N/m), and pushing apart only if `respond`.
pub fn napkin(
    n: usize,
    opening: f64,
    (thickness, stiffness): (f64, f64),
    respond: bool,
) -> Result<Cloth, PbmError> {
    let mut model = folded(n, opening, Material::COTTON)?;
    let corners = model.triangles.iter().map(|t| t.corners).collect();
    let mut contact = SelfContact::new(corners, thickness, stiffness)?;
    contact.respond = respond;
    model.self_contact = Some(contact);
    Ok(model)
}

/// How much of the napkin is glued to the board (m).
pub const GLUED: f64 = 0.6;

/// How a run went.
pub struct Run {
    /// Whether every step succeeded.
    pub stable: bool,
    /// The failure, if one step failed.
    pub failure: Option<String>,
    /// Steps taken.
    pub steps: usize,
    /// CG iterations of each implicit step.
    pub cg_iterations: Vec<usize>,
    /// Particles held on the solid in each implicit step.
    pub held: Vec<usize>,
    /// Self-contact pairs pushing apart in each implicit step.
    pub pairs: Vec<usize>,
    /// The deepest any particle was inside the solid at the end of a step (m; 0
    /// for a cloth with no solid or never inside it).
    pub deepest: f64,
    /// Conditions with an indefinite Hessian, summed over the steps.
    pub indefinite: usize,
    /// Wall time per step (ms).
    pub ms_per_step: f64,
    /// The energies after every `record_every` steps, with their time (s).
    pub energies: Vec<(f64, Energies)>,
    /// The cloth at the end.
    pub cloth: Cloth,
}

impl Run {
    /// The cloth's energies where the run ended; an error naming that step if its
    /// triangles have collapsed (a cloth with no shear stiffness can shear flat).
    pub fn end_energies(&self) -> Result<Energies, PbmError> {
        self.cloth.energies().map_err(|e| e.at_step(self.steps, self.cloth.t))
    }
}

// ANCHOR: energy_growth
/// The failure of an implicit run that ends with more energy than it began
/// with, by more than `allowance`. Backward Euler loses energy, and a cloth has
/// no source of it but its fall; a contact pushed back by a penalty (the drape's
/// sphere) can lend it some on impact, which the step's damping takes back within
/// a few steps. So a cloth that ends the run holding more than it would take to
/// lift it by its own size has diverged, even if every solve converged.
fn energy_growth(
    start: f64,
    now: f64,
    allowance: f64,
    step: usize,
    t: f64,
) -> Option<String> {
    (now > start + allowance).then(|| {
        // Three decimals, or three digits of a power of ten for an energy that has
        // run away (not ninety digits of a 1e88).
        let j = |e: f64| {
            if e.abs() < 1e7 { format!("{e:.3}") } else { format!("{e:.3e}") }
        };
        format!(
            "at step {step} (t = {t:.3} s) the cloth's energy has grown from {} J \
             to {} J, more than lifting it by its own size ({} J): the run has \
             diverged",
            j(start),
            j(now),
            j(allowance)
        )
    })
}
// ANCHOR_END: energy_growth

/// The energy it takes to lift `cloth` by its own size (the diagonal of the box
/// around its particles): how much an implicit run may gain before it has diverged.
fn lift_by_own_size(cloth: &Cloth) -> f64 {
    let first = cloth.x.first().copied().unwrap_or_default();
    let (low, high) =
        cloth.x.iter().fold((first, first), |(lo, hi), x| (lo.inf(x), hi.sup(x)));
    let mass: f64 = cloth.mass.iter().sum();
    mass * cloth.gravity.norm() * (high - low).norm()
}

/// The total of the energies.
fn total(e: &Energies) -> f64 {
    e.stretch + e.shear + e.bend + e.gravity + e.kinetic
}

/// Steps `cloth` with backward Euler (or, if `explicit`, symplectic Euler) at h
/// for `steps` steps, recording its energies every `record_every` steps and
/// handing it to `frame` then too (and at the start). Stops at the first failed
/// step and says so; an implicit run that ends with more energy than it began with
/// ([`energy_growth`]) has failed too.
pub fn run(
    mut cloth: Cloth,
    h: f64,
    steps: usize,
    explicit: bool,
    record_every: usize,
    mut frame: impl FnMut(&Cloth),
) -> Result<Run, PbmError> {
    let mut energies = vec![(0.0, cloth.energies()?)];
    let (start, allowance) = (total(&energies[0].1), lift_by_own_size(&cloth));
    let (mut cg_iterations, mut indefinite) = (Vec::with_capacity(steps), 0);
    let (mut held, mut deepest) = (Vec::with_capacity(steps), 0.0_f64);
    let mut pairs = Vec::with_capacity(steps);
    let (mut taken, mut failure) = (0, None);
    let mut stepping = Duration::ZERO;
    frame(&cloth);
    for s in 0..steps {
        let begin = Instant::now();
        let result = if explicit {
            cloth.symplectic_euler_step(h).map(|()| None)
        } else {
            cloth.backward_euler_step(h).map(Some)
        };
        stepping += begin.elapsed();
        match result {
            Ok(Some(ClothStep {
                cg,
                indefinite: count,
                held: touching,
                pairs: p,
            })) => {
                cg_iterations.push(cg.iterations);
                indefinite += count;
                held.push(touching);
                pairs.push(p);
            }
            Ok(None) => {}
            Err(e) => {
                failure = Some(e.to_string());
                break;
            }
        }
        taken = s + 1;
        if !explicit && taken == steps {
            let now =
                total(&cloth.energies().map_err(|e| e.at_step(taken, cloth.t))?);
            failure = energy_growth(start, now, allowance, taken, cloth.t);
            if failure.is_some() {
                break;
            }
        }
        if let Some(solid) = cloth.solid {
            let inside = cloth.x.iter().map(|x| -solid.gap(x).0);
            deepest = inside.fold(deepest, f64::max);
        }
        if taken % record_every.max(1) == 0 {
            // A cloth whose triangles have collapsed has no energy to record: the
            // run says at which step that happened.
            let now = cloth.energies().map_err(|e| e.at_step(taken, cloth.t))?;
            energies.push((cloth.t, now));
            frame(&cloth);
        }
    }
    // The last state is looked at too, for the closest a vertex came to a triangle.
    if let Some(contact) = cloth.self_contact.as_mut() {
        let found = contact.find(&cloth.x, &cloth.pinned, contact.thickness);
        found.map_err(|e| e.at_step(taken, cloth.t))?;
    }
    Ok(Run {
        stable: failure.is_none(),
        failure,
        steps: taken,
        cg_iterations,
        held,
        pairs,
        deepest,
        indefinite,
        ms_per_step: stepping.as_secs_f64() * 1e3 / taken.max(1) as f64,
        energies,
        cloth,
    })
}

// ANCHOR: fan
/// A fan of m triangles around a centre particle, each cut from a pattern whose
/// corner at the centre is (2π − deficit)/m wide: with no deficit the pieces lie
/// flat together; with one they close only into a cone. The rest of every hinge is
/// flat. The particles start flat at full spacing, the centre raised 1 mm so that
/// the fan can choose which way to cone.
pub fn fan(m: usize, deficit: f64, material: Material) -> Result<Cloth, PbmError> {
    if !(3..=24).contains(&m) {
        let why = format!("{m} triangles; a fan needs 3 to 24");
        return Err(PbmError::invalid("fan", why));
    }
    let full = std::f64::consts::TAU;
    if !(0.0..full / 2.0).contains(&deficit) {
        let why = format!("an angle deficit of {deficit} rad is not in [0, π)");
        return Err(PbmError::invalid("fan", why));
    }
    let radius = 0.1;
    let wedge = (full - deficit) / m as f64;
    let mut x = vec![Vector3::new(0.0, 0.0, 1e-3)];
    x.extend((0..m).map(|k| {
        let a = full * k as f64 / m as f64;
        Vector3::new(radius * a.cos(), radius * a.sin(), 0.0)
    }));
    let rest = (0..m)
        .map(|k| {
            let pattern = [
                [0.0, 0.0],
                [radius, 0.0],
                [radius * wedge.cos(), radius * wedge.sin()],
            ];
            RestTriangle::new([0, 1 + k, 1 + (k + 1) % m], pattern)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut cloth = Cloth::from_rest(x, rest, material)?;
    cloth.gravity = Vector3::zeros();
    cloth.drag = 20.0;
    Ok(cloth)
}
// ANCHOR_END: fan

/// The resolutions the strand is sampled at.
pub const SEGMENTS: [usize; 4] = [10, 20, 40, 80];

/// Four ways to bend the chapter's grid, each with the same size of curvature κ
/// (1/m) somewhere: the hinge energy's direction dependence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bending {
    /// A cylinder of radius 1/κ whose axis runs along the warp: the weft bends.
    CylinderAlongThread,
    /// z = κ (u² − v²)/2: a saddle curved along both threads.
    SaddleAlongThreads,
    /// The cylinder turned 45°: its axis along a diagonal of the pattern.
    CylinderOnBias,
    /// z = κ u v: the saddle turned 45°, every thread straight.
    Twist,
}

impl Bending {
    /// All four, in that order.
    pub const ALL: [Bending; 4] = [
        Bending::CylinderAlongThread,
        Bending::SaddleAlongThreads,
        Bending::CylinderOnBias,
        Bending::Twist,
    ];

    /// Where the pattern place (u, v), measured from the pattern's centre, goes.
    pub fn place(self, [u, v]: [f64; 2], kappa: f64) -> Vector3<f64> {
        // The cylinders are rolled without stretching: s across the axis, t along.
        let roll = |s: f64, t: f64, across: [f64; 2], along: [f64; 2]| {
            let r = 1.0 / kappa;
            let (x, z) = (r * (s / r).sin(), r * (1.0 - (s / r).cos()));
            Vector3::new(
                x * across[0] + t * along[0],
                x * across[1] + t * along[1],
                z,
            )
        };
        let h = std::f64::consts::FRAC_1_SQRT_2;
        match self {
            Bending::CylinderAlongThread => roll(u, v, [1.0, 0.0], [0.0, 1.0]),
            Bending::SaddleAlongThreads => {
                Vector3::new(u, v, kappa * (u * u - v * v) / 2.0)
            }
            Bending::CylinderOnBias => {
                roll(h * (u + v), h * (v - u), [h, h], [-h, h])
            }
            Bending::Twist => Vector3::new(u, v, kappa * u * v),
        }
    }

    /// The continuum's |II|², the squared norm of the surface's second derivatives
    /// (κ_uu² + 2 κ_uv² + κ_vv²): κ² for a cylinder, 2κ² for either saddle.
    pub fn second_form_squared(self, kappa: f64) -> f64 {
        match self {
            Bending::CylinderAlongThread | Bending::CylinderOnBias => kappa * kappa,
            Bending::SaddleAlongThreads | Bending::Twist => 2.0 * kappa * kappa,
        }
    }
}

/// The hinges' bend energy over the continuum's ½ k |II|² A, for the n × n grid
/// of a 1 m square bent by `bending` with curvature κ: both over the hinges of
/// the cells in the middle half of the pattern, away from the border (whose edges
/// are not hinges), each hinge standing for its area A.
pub fn bend_ratio(bending: Bending, n: usize, kappa: f64) -> Result<f64, PbmError> {
    use crate::hinge::{Bend, RestHinge};
    use pbm_particles::condition::Condition;
    let (pattern, triangles) = grid(n, 1.0)?;
    let rest = (triangles.iter())
        .map(|&t| RestTriangle::new(t, t.map(|i| pattern[i])))
        .collect::<Result<Vec<_>, _>>()?;
    let x: Vec<Vector3<f64>> = pattern
        .iter()
        .map(|p| bending.place([p[0] - 0.5, p[1] - 0.5], kappa))
        .collect();
    // Each edge and the triangles that have it; an edge of two is a hinge.
    let mut edges = std::collections::BTreeMap::<_, Vec<usize>>::new();
    for (k, t) in triangles.iter().enumerate() {
        for e in 0..3 {
            let (a, b) = (t[e], t[(e + 1) % 3]);
            edges.entry((a.min(b), a.max(b))).or_default().push(k);
        }
    }
    // Each cell owns its bottom edge, its left edge and its diagonal: the edge's
    // ends' lowest row and column. The cells counted are the middle half's.
    let (q, cells) = ((n - 1) / 4, n - 1);
    let middle = |i: usize| (q..cells - q).contains(&i);
    let (mut hinge_energy, mut area) = (0.0, 0.0);
    for ((a, b), sharing) in edges.iter().filter(|(_, s)| s.len() == 2) {
        if !(middle(a.min(b) / n) && middle((a % n).min(b % n))) {
            continue;
        }
        let hinge = RestHinge::between(&rest[sharing[0]], &rest[sharing[1]])?;
        let at: Vec<_> = hinge.corners.iter().map(|&i| x[i]).collect();
        let (mut c, mut j) = ([0.0], [Vector3::zeros(); 4]);
        area += hinge.area;
        Bend(hinge).position(&at, &mut c, &mut j)?;
        hinge_energy += 0.5 * c[0] * c[0];
    }
    Ok(hinge_energy / (0.5 * bending.second_form_squared(kappa) * area))
}
