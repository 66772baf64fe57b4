//! The bench's world: bodies, the contacts found once per step, the impulses kept
//! from step to step for warm starting, and one solver chosen from
//! [`SolverKind`].

use crate::body::{Body, V2, rotation};
use crate::contact::{Constraint, Key, Point, effective_mass};
use crate::joint::{Joint, PinRow};
use crate::manifold::collide;
use crate::soft::Softness;
use crate::solvers::{SolverKind, step};
use pbm_collision::aabb::Aabb;
use pbm_collision::sweep::CoherentSweep;
use pbm_prelim::PbmError;

/// Overlap the position feedback of PGS and NGS leaves alone (m).
pub const LINEAR_SLOP: f64 = 0.005;
/// How far apart two parts may be and still get a (speculative) contact (m).
pub const SPECULATIVE_DISTANCE: f64 = 4.0 * LINEAR_SLOP;
/// Baumgarte's β: the share of an overlap fed back per step.
pub const BAUMGARTE: f64 = 0.2;
/// The fastest a position feedback may push bodies apart (m/s).
pub const MAX_BIAS_VELOCITY: f64 = 4.0;
/// The largest position correction of one NGS pass (m).
pub const MAX_CORRECTION: f64 = 0.2;
/// The pins' damping ratio (their frequency is twice the contacts').
pub const JOINT_DAMPING_RATIO: f64 = 2.0;
/// Approach speeds below this bounce not at all (m/s).
pub const RESTITUTION_THRESHOLD: f64 = 1.0;

/// What every solver of the bench is given.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The step (s).
    pub h: f64,
    /// Gravity (m/s²).
    pub gravity: V2,
    /// Velocity passes, or substeps for the substepping solvers.
    pub iterations: usize,
    /// Relax or position passes (for the substepping solvers: a relax pass per
    /// substep when above zero).
    pub relax: usize,
    /// Whether each step starts from the last one's impulses.
    pub warm_start: bool,
    /// The soft contacts' frequency (Hz), twice this against a fixed body, capped
    /// at a share of the (sub)step rate.
    pub contact_hertz: f64,
    /// The soft contacts' damping ratio.
    pub damping_ratio: f64,
    /// Coefficient of restitution (soft step and XPBD).
    pub restitution: f64,
    /// The solver.
    pub solver: SolverKind,
}

impl Default for Settings {
    /// Solver2D's: 60 Hz, gravity 10 m/s², 4 and 2 passes, warm starting, contacts at
    /// 30 Hz with damping ratio 10, no bounce, soft step.
    fn default() -> Self {
        Settings {
            h: 1.0 / 60.0,
            gravity: V2::new(0.0, -10.0),
            iterations: 4,
            relax: 2,
            warm_start: true,
            contact_hertz: 30.0,
            damping_ratio: 10.0,
            restitution: 0.0,
            solver: SolverKind::SoftStep,
        }
    }
}

impl Settings {
    /// The step each pass solves: h, or h/n for a solver that takes n substeps.
    pub fn pass_step(&self) -> f64 {
        if self.solver.substeps() { self.h / self.iterations as f64 } else { self.h }
    }

    /// The contacts' frequency, capped at the solver's share of the pass rate.
    pub fn capped_hertz(&self) -> f64 {
        self.contact_hertz.min(self.solver.frequency_cap() / self.pass_step())
    }
}

/// Counts of a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Steps taken.
    pub steps: usize,
    /// The deepest overlap found at the start of any step (m).
    pub max_penetration: f64,
    /// Contact points in the last step.
    pub points: usize,
    /// The largest pin error at the end of any step (m).
    pub max_joint_error: f64,
}

/// Bodies, their contacts and one solver.
#[derive(Debug, Clone)]
pub struct World {
    /// The bodies.
    pub bodies: Vec<Body>,
    /// The pins between them.
    pub joints: Vec<Joint>,
    settings: Settings,
    /// The last step's impulses, sorted by key: what warm starting reads.
    impulses: Vec<(Key, (f64, f64))>,
    /// The broad phase (chapter 7's coherent sweep), kept from step to step; built
    /// again when bodies are added.
    sweep: Option<CoherentSweep<2>>,
    constraints: Vec<Constraint>,
    stats: Stats,
    time: f64,
}

impl World {
    /// An empty world with `settings`.
    pub fn new(settings: Settings) -> Result<World, PbmError> {
        check(&settings)?;
        Ok(World {
            bodies: Vec::new(),
            joints: Vec::new(),
            settings,
            impulses: Vec::new(),
            sweep: None,
            constraints: Vec::new(),
            stats: Stats::default(),
            time: 0.0,
        })
    }

    /// Goes on with `settings` (another solver, budget or softness) from here.
    pub fn set_settings(&mut self, settings: Settings) -> Result<(), PbmError> {
        check(&settings)?;
        self.settings = settings;
        Ok(())
    }

    /// Adds `body`, returning its index.
    pub fn add(&mut self, body: Body) -> usize {
        self.bodies.push(body);
        self.bodies.len() - 1
    }

    /// Pins body `a` to body `b` at the world point `at`, where they are now; returns
    /// the pin's index. An error if either body is not in the world, or both are the
    /// same body.
    pub fn pin(&mut self, (a, b): (usize, usize), at: V2) -> Result<usize, PbmError> {
        let n = self.bodies.len();
        if a >= n || b >= n || a == b || !at.iter().all(|x| x.is_finite()) {
            return Err(PbmError::invalid(
                "pin",
                format!(
                    "bodies {a} and {b} of {n}, at {at:?}: two different bodies of \
                         the world, and a finite point"
                ),
            ));
        }
        let local = [a, b].map(|i| {
            let body = &self.bodies[i];
            rotation(-body.angle) * (at - body.position)
        });
        self.joints.push(Joint { a, b, local, impulse: V2::zeros() });
        Ok(self.joints.len() - 1)
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The simulated time (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// The counts so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The last step's constraints, with the impulses it found.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Kinetic plus gravitational potential energy of the moving bodies (J).
    pub fn energy(&self) -> f64 {
        let g = self.settings.gravity;
        self.bodies
            .iter()
            .filter(|b| !b.is_fixed())
            .map(|b| b.kinetic_energy() - b.mass() * g.dot(&b.position))
            .sum()
    }

    /// One step: find the contacts, solve them with the world's solver, keep the
    /// impulses. A body whose state stops being finite is an error naming the step.
    pub fn step(&mut self) -> Result<(), PbmError> {
        let found = self.detect()?;
        self.constraints = self.prepare(found)?;
        let mut pins = self.pin_rows()?;
        let kind = self.settings.solver;
        let rows = (&mut self.constraints[..], &mut pins[..]);
        step(&mut self.bodies, rows, &self.settings, kind);
        for (joint, row) in self.joints.iter_mut().zip(&pins) {
            joint.impulse = row.impulse;
        }
        let error = crate::joint::largest_error(&self.bodies, &self.joints);
        self.stats.max_joint_error = self.stats.max_joint_error.max(error);
        self.impulses = self
            .constraints
            .iter()
            .flat_map(|c| c.points.iter())
            .map(|p| (p.key, (p.normal_impulse, p.tangent_impulse)))
            .collect();
        self.impulses.sort_unstable_by_key(|(key, _)| *key);
        self.time += self.settings.h;
        self.stats.steps += 1;
        let finite = self.bodies.iter().all(|b| {
            b.position.iter().chain(b.velocity.iter()).all(|x| x.is_finite())
                && b.angle.is_finite()
                && b.angular_velocity.is_finite()
        });
        if !finite {
            return Err(PbmError::degenerate(
                "solver bench",
                format!(
                    "a body's state is not finite after step {}",
                    self.stats.steps
                ),
            ));
        }
        Ok(())
    }

    /// How many pairs of parts touch (or are within the speculative distance) now.
    pub fn touching_pairs(&self) -> Result<usize, PbmError> {
        Ok(self.clone().detect()?.len())
    }

    /// Steps until `t_end`, calling `watch` after every step.
    pub fn run(
        &mut self,
        t_end: f64,
        mut watch: impl FnMut(&World),
    ) -> Result<(), PbmError> {
        while self.time < t_end - 0.5 * self.settings.h {
            self.step()?;
            watch(self);
        }
        Ok(())
    }

    /// The manifolds of every pair of parts closer than the speculative distance:
    /// (body a, body b, part of a, part of b, manifold), in the order of those four.
    /// The bodies' bounding boxes go through chapter 7's coherent sweep, then each
    /// pair's parts are tested box against box.
    fn detect(&mut self) -> Result<Vec<Found>, PbmError> {
        let placed: Vec<Vec<_>> = self.bodies.iter().map(Body::placed).collect();
        let boxes: Vec<Vec<[f64; 4]>> = placed
            .iter()
            .map(|parts| parts.iter().map(|p| bounds(p.vertices())).collect())
            .collect();
        let whole = boxes
            .iter()
            .map(|parts| {
                let [x0, y0, x1, y1] = parts.iter().fold(EMPTY, |u, b| union(&u, b));
                Aabb::new([x0, y0], [x1, y1])
            })
            .collect::<Result<Vec<_>, _>>()?;
        let kept = self.sweep.as_mut().is_some_and(|s| s.update(&whole).is_ok());
        if !kept {
            self.sweep = Some(CoherentSweep::new(&whole)?);
        }
        let pairs = self.sweep.as_ref().map(CoherentSweep::pairs).unwrap_or_default();
        let mut found = Vec::new();
        for (a, b) in pairs.into_iter().map(|(a, b)| (a as usize, b as usize)) {
            let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
            let grouped = ba.group != 0 && ba.group == bb.group;
            if (ba.is_fixed() && bb.is_fixed()) || grouped {
                continue;
            }
            for (i, pa) in placed[a].iter().enumerate() {
                for (j, pb) in placed[b].iter().enumerate() {
                    if !overlap(&boxes[a][i], &boxes[b][j]) {
                        continue;
                    }
                    let bias = 0.1 * LINEAR_SLOP;
                    if let Some(m) = collide(pa, pb, SPECULATIVE_DISTANCE, bias)
                        && !m.points.is_empty()
                    {
                        found.push((a, b, i, j, m));
                    }
                }
            }
        }
        Ok(found)
    }

    /// The pins as this step solves them: their arms now, their softness (twice the
    /// contacts' frequency, damping ratio [`JOINT_DAMPING_RATIO`], as Box2D v3's) and
    /// the last step's impulses.
    fn pin_rows(&self) -> Result<Vec<PinRow>, PbmError> {
        let s = &self.settings;
        let (h, hertz) = (s.pass_step(), s.capped_hertz());
        let softness = Softness::new(2.0 * hertz, JOINT_DAMPING_RATIO, h)?;
        Ok(self
            .joints
            .iter()
            .map(|j| PinRow {
                a: j.a,
                b: j.b,
                local: j.local,
                softness,
                impulse: j.impulse,
            })
            .collect())
    }

    /// The constraints of this step's manifolds: anchors, effective masses, soft
    /// coefficients, and the last step's impulses where the same features touch.
    fn prepare(&mut self, found: Vec<Found>) -> Result<Vec<Constraint>, PbmError> {
        let s = &self.settings;
        let (h, hertz) = (s.pass_step(), s.capped_hertz());
        let (soft, soft_fixed) = (
            Softness::new(hertz, s.damping_ratio, h)?,
            Softness::new(2.0 * hertz, s.damping_ratio, h)?,
        );
        let mut out = Vec::with_capacity(found.len());
        let mut deepest = self.stats.max_penetration;
        let mut count = 0;
        // Into the bodies' frames: one rotation per body, not per point.
        let back: Vec<_> = self.bodies.iter().map(|b| rotation(-b.angle)).collect();
        for (a, b, i, j, m) in found {
            let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
            let n = m.normal;
            let t = V2::new(n.y, -n.x);
            let points = m
                .points
                .iter()
                .map(|mp| {
                    let (ra, rb) = (mp.point - ba.position, mp.point - bb.position);
                    let key = (a, b, i, j, mp.id);
                    let (normal_impulse, tangent_impulse) = self
                        .impulses
                        .binary_search_by_key(&key, |(k, _)| *k)
                        .map_or((0.0, 0.0), |at| self.impulses[at].1);
                    deepest = deepest.max(-mp.separation);
                    Point {
                        anchor_a: ra,
                        anchor_b: rb,
                        local: [back[a] * ra, back[b] * rb],
                        separation: mp.separation,
                        base: mp.separation
                            - (rb - ra).dot(&n)
                            - (bb.position - ba.position).dot(&n),
                        normal_mass: effective_mass(ba, bb, (&ra, &rb), &n),
                        tangent_mass: effective_mass(ba, bb, (&ra, &rb), &t),
                        normal_impulse,
                        tangent_impulse,
                        approach: (bb.velocity_at(&rb) - ba.velocity_at(&ra)).dot(&n),
                        key,
                    }
                })
                .collect::<Vec<_>>();
            count += points.len();
            out.push(Constraint {
                a,
                b,
                normal: n,
                friction: (ba.friction * bb.friction).sqrt(),
                softness: if ba.is_fixed() || bb.is_fixed() {
                    soft_fixed
                } else {
                    soft
                },
                points,
            });
        }
        self.stats.max_penetration = deepest;
        self.stats.points = count;
        Ok(out)
    }
}

/// Refuses settings no step can run with.
fn check(settings: &Settings) -> Result<(), PbmError> {
    let ok = settings.h > 0.0
        && settings.h.is_finite()
        && settings.gravity.iter().all(|g| g.is_finite())
        && settings.iterations >= 1
        && settings.contact_hertz > 0.0
        && settings.damping_ratio >= 0.0
        && (0.0..=1.0).contains(&settings.restitution);
    if !ok {
        return Err(PbmError::invalid(
            "solver settings",
            "the step and frequency must be positive, iterations ≥ 1, \
                 damping ≥ 0 and restitution in [0, 1]",
        ));
    }
    Ok(())
}

/// What detection found: (body a, body b, part of a, part of b, their manifold).
type Found = (usize, usize, usize, usize, crate::manifold::Manifold);

/// The bounds that contain nothing: the start of a union.
const EMPTY: [f64; 4] =
    [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY];

fn union(a: &[f64; 4], b: &[f64; 4]) -> [f64; 4] {
    [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])]
}

/// [x_min, y_min, x_max, y_max] of `vertices`, grown by the speculative distance.
fn bounds(vertices: &[V2]) -> [f64; 4] {
    let d = SPECULATIVE_DISTANCE;
    vertices.iter().fold(EMPTY, |[x0, y0, x1, y1], v| {
        [x0.min(v.x - d), y0.min(v.y - d), x1.max(v.x + d), y1.max(v.y + d)]
    })
}

fn overlap(a: &[f64; 4], b: &[f64; 4]) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}
