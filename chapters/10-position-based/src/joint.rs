//! Joints between rigid bodies and the XPBD loop for bodies (Müller's slides, "XPBD
//! Algorithm for Rigid Bodies" and "Interaction"): an attachment keeps a point of
//! one body at a distance (zero for a ball joint) from a point of another body or of
//! the world; the mouse is such an attachment to a point that moves.

use crate::projection::{Stiffness, multiplier_update};
use crate::rigid::Body;
use nalgebra::Vector3;
use pbm_prelim::PbmError;
use pbm_prelim::validate::{all_finite, non_negative};

/// One end of a joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Anchor {
    /// A point fixed in a body, in the body's coordinates.
    Body {
        /// Index of the body.
        body: usize,
        /// The point, in body coordinates (m).
        local: Vector3<f64>,
    },
    /// A point of the world (m).
    World(Vector3<f64>),
}

impl Anchor {
    /// Where the anchor is now.
    pub fn position(&self, bodies: &[Body]) -> Vector3<f64> {
        match self {
            Anchor::Body { body, local } => bodies[*body].world_point(local),
            Anchor::World(p) => *p,
        }
    }

    fn inverse_mass(
        &self,
        bodies: &[Body],
        p: &Vector3<f64>,
        n: &Vector3<f64>,
    ) -> f64 {
        match self {
            Anchor::Body { body, .. } => bodies[*body].generalized_inverse_mass(p, n),
            Anchor::World(_) => 0.0,
        }
    }

    fn apply(&self, bodies: &mut [Body], p: &Vector3<f64>, impulse: &Vector3<f64>) {
        if let Anchor::Body { body, .. } = self {
            bodies[*body].apply_correction(p, impulse);
        }
    }
}

/// A distance joint: C = |p_b − p_a| − rest, held with compliance α.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// First end.
    pub a: Anchor,
    /// Second end.
    pub b: Anchor,
    rest: f64,
    compliance: f64,
    lambda: f64,
}

impl Joint {
    /// A joint keeping `a` and `b` `rest` apart (0: a ball joint) with compliance
    /// α ≥ 0 (m/N; 0 is rigid).
    pub fn new(
        a: Anchor,
        b: Anchor,
        rest: f64,
        compliance: f64,
    ) -> Result<Self, PbmError> {
        for anchor in [&a, &b] {
            match anchor {
                Anchor::Body { local, .. } => {
                    all_finite("joint", "anchor", local.iter().copied())?
                }
                Anchor::World(p) => all_finite("joint", "anchor", p.iter().copied())?,
            };
        }
        Ok(Joint {
            a,
            b,
            rest: non_negative("joint", "rest length", rest)?,
            compliance: non_negative("joint", "compliance", compliance)?,
            lambda: 0.0,
        })
    }

    /// The multiplier accumulated in the current step; λ/h² is the joint's force.
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// C = |p_b − p_a| − rest now.
    pub fn violation(&self, bodies: &[Body]) -> f64 {
        (self.b.position(bodies) - self.a.position(bodies)).norm() - self.rest
    }

    // ANCHOR: solve
    /// One XPBD projection of the joint: n = (p_b − p_a)/|p_b − p_a|, w = w_a + w_b
    /// (generalized inverse masses at the two points along n), Δλ from chapter's
    /// multiplier update, and the positional impulse Δλ n applied to b, −Δλ n to a.
    pub fn solve(&mut self, bodies: &mut [Body], h: f64) {
        let (pa, pb) = (self.a.position(bodies), self.b.position(bodies));
        let d = pb - pa;
        let length = d.norm();
        if length == 0.0 {
            return; // a ball joint that holds exactly has no direction to push
        }
        let n = d / length;
        let w = self.a.inverse_mass(bodies, &pa, &n)
            + self.b.inverse_mass(bodies, &pb, &n);
        let stiffness = Stiffness::Xpbd(self.compliance);
        let d_lambda =
            multiplier_update(stiffness, length - self.rest, self.lambda, w, h);
        self.lambda += d_lambda;
        let impulse = n * d_lambda;
        self.a.apply(bodies, &pa, &-impulse);
        self.b.apply(bodies, &pb, &impulse);
    }
    // ANCHOR_END: solve
}

/// The rotational half of a hinge between body `a` and body `b` (or the world):
/// the hinge axis of each, kept aligned, and, if limits are given, the angle about
/// it between a reference direction of each kept within them (Müller et al. 2020,
/// §3.3.2). The hinge's point is a separate ball [`Joint`].
#[derive(Debug, Clone, PartialEq)]
pub struct Hinge {
    /// First body.
    pub a: usize,
    /// Second body, or None for the world.
    pub b: Option<usize>,
    /// The hinge axis and a reference direction across it, in a's coordinates
    /// (unit, perpendicular).
    pub axis_a: (Vector3<f64>, Vector3<f64>),
    /// The same in b's coordinates (or the world's).
    pub axis_b: (Vector3<f64>, Vector3<f64>),
    /// The allowed angle of a's reference about the axis, measured from b's
    /// (rad): lowest and highest.
    pub limits: Option<(f64, f64)>,
}

impl Hinge {
    /// The two axes and the two reference directions in the world, now.
    fn directions(&self, bodies: &[Body]) -> [Vector3<f64>; 4] {
        let turn = |k: Option<usize>, v: &Vector3<f64>| match k {
            Some(k) => bodies[k].rotation() * v,
            None => *v,
        };
        [
            turn(Some(self.a), &self.axis_a.0),
            turn(self.b, &self.axis_b.0),
            turn(Some(self.a), &self.axis_a.1),
            turn(self.b, &self.axis_b.1),
        ]
    }

    /// The angle between the two hinge axes (rad).
    pub fn misalignment(&self, bodies: &[Body]) -> f64 {
        let [a, b, _, _] = self.directions(bodies);
        a.cross(&b).norm().atan2(a.dot(&b))
    }

    /// The angle of a's reference direction about b's axis, from b's reference
    /// (rad, in (−π, π]).
    pub fn angle(&self, bodies: &[Body]) -> f64 {
        let [_, axis, ra, rb] = self.directions(bodies);
        rb.cross(&ra).dot(&axis).atan2(rb.dot(&ra))
    }

    // ANCHOR: hinge
    /// One projection: turn the bodies so that the axes line up (the rotation
    /// vector a × b, of length sin θ), then, if the angle about the axis is
    /// outside the limits, turn them back to the nearer limit. Each turn is an
    /// angular correction with w = nᵀI_a⁻¹n + nᵀI_b⁻¹n, rigid (α = 0).
    pub fn solve(&self, bodies: &mut [Body]) {
        let [a, b, _, _] = self.directions(bodies);
        self.turn(bodies, &a.cross(&b));
        if let Some((low, high)) = self.limits {
            let angle = self.angle(bodies);
            let target = angle.clamp(low, high);
            if target != angle {
                let [_, axis, _, _] = self.directions(bodies);
                self.turn(bodies, &(axis * (target - angle)));
            }
        }
    }

    /// Turns a by the rotation vector `theta` relative to b, the two sharing it by
    /// their angular inverse masses about its axis.
    fn turn(&self, bodies: &mut [Body], theta: &Vector3<f64>) {
        let size = theta.norm();
        if size < 1e-15 {
            return;
        }
        let n = theta / size;
        let w_b = self.b.map_or(0.0, |b| bodies[b].angular_inverse_mass(&n));
        let w = bodies[self.a].angular_inverse_mass(&n) + w_b;
        if w == 0.0 {
            return;
        }
        let p = n * (size / w);
        bodies[self.a].apply_turn(&p);
        if let Some(b) = self.b {
            bodies[b].apply_turn(&-p);
        }
    }
    // ANCHOR_END: hinge
}

/// Bodies, joints and gravity, stepped by XPBD.
#[derive(Debug, Clone)]
pub struct BodySystem {
    /// The bodies.
    pub bodies: Vec<Body>,
    /// The joints, solved in this order.
    pub joints: Vec<Joint>,
    /// The hinges' rotational parts, solved after the joints.
    pub hinges: Vec<Hinge>,
    /// Acceleration of gravity (m/s²).
    pub gravity: Vector3<f64>,
    /// Whether the prediction includes the gyroscopic torque −ω × (I ω). Always on
    /// in the book's scenes; off only to show what the slides' update does.
    pub gyroscopic: bool,
    /// The clock (s).
    pub t: f64,
    steps: usize,
}

impl BodySystem {
    /// Bodies under gravity, with no joints.
    pub fn new(bodies: Vec<Body>, gravity: Vector3<f64>) -> Self {
        BodySystem {
            bodies,
            joints: Vec::new(),
            hinges: Vec::new(),
            gravity,
            gyroscopic: true,
            t: 0.0,
            steps: 0,
        }
    }

    /// Adds a joint after checking the bodies it names.
    pub fn add_joint(&mut self, joint: Joint) -> Result<usize, PbmError> {
        for anchor in [&joint.a, &joint.b] {
            if let Anchor::Body { body, .. } = anchor
                && *body >= self.bodies.len()
            {
                return Err(PbmError::invalid(
                    "joint",
                    format!(
                        "body {body} does not exist ({} bodies)",
                        self.bodies.len()
                    ),
                ));
            }
        }
        self.joints.push(joint);
        Ok(self.joints.len() - 1)
    }

    /// Adds a hinge's rotational part, after checking its bodies exist and each
    /// side's axis and reference are perpendicular unit vectors.
    pub fn add_hinge(&mut self, hinge: Hinge) -> Result<usize, PbmError> {
        let n = self.bodies.len();
        if hinge.a >= n || hinge.b.is_some_and(|b| b >= n) || Some(hinge.a) == hinge.b
        {
            let why = format!("bodies {} and {:?} of {n}", hinge.a, hinge.b);
            return Err(PbmError::invalid("hinge", why));
        }
        for (axis, reference) in [hinge.axis_a, hinge.axis_b] {
            let unit = |v: &Vector3<f64>| (v.norm() - 1.0).abs() < 1e-9;
            if !(unit(&axis) && unit(&reference) && axis.dot(&reference).abs() < 1e-9)
            {
                let why =
                    "each side needs a unit axis and a unit reference across it";
                return Err(PbmError::invalid("hinge", why));
            }
        }
        if let Some((low, high)) = hinge.limits
            && !(low <= high && low.is_finite() && high.is_finite())
        {
            return Err(PbmError::invalid(
                "hinge",
                format!("limits {low} to {high}"),
            ));
        }
        self.hinges.push(hinge);
        Ok(self.hinges.len() - 1)
    }

    // ANCHOR: body_step
    /// One step of size `h` with `iterations` passes over the joints.
    pub fn step(&mut self, h: f64, iterations: usize) -> Result<(), PbmError> {
        let no_torque = Vector3::zeros();
        for body in &mut self.bodies {
            body.integrate(h, &self.gravity, &no_torque, self.gyroscopic);
        }
        for joint in &mut self.joints {
            joint.lambda = 0.0;
        }
        for _ in 0..iterations {
            for joint in &mut self.joints {
                joint.solve(&mut self.bodies, h);
            }
            for hinge in &self.hinges {
                hinge.solve(&mut self.bodies);
            }
        }
        for body in &mut self.bodies {
            body.update_velocities(h);
        }
        let (step, t0) = (self.steps, self.t);
        self.t += h;
        self.steps += 1;
        if !self.bodies.iter().all(Body::is_finite) {
            return Err(PbmError::Diverged { step, time: t0 });
        }
        Ok(())
    }
    // ANCHOR_END: body_step

    /// Total linear momentum.
    pub fn momentum(&self) -> Vector3<f64> {
        self.bodies.iter().map(Body::momentum).sum()
    }

    /// Total angular momentum about the origin.
    pub fn angular_momentum(&self) -> Vector3<f64> {
        self.bodies.iter().map(Body::angular_momentum).sum()
    }

    /// Kinetic plus gravitational potential energy (−m g·x), and ½ C²/α of every
    /// compliant joint.
    pub fn energy(&self) -> f64 {
        let bodies: f64 = self
            .bodies
            .iter()
            .filter(|b| b.inverse_mass() > 0.0)
            .map(|b| b.kinetic_energy() - b.mass() * self.gravity.dot(&b.x))
            .sum();
        let joints: f64 = self
            .joints
            .iter()
            .filter(|j| j.compliance > 0.0)
            .map(|j| 0.5 * j.violation(&self.bodies).powi(2) / j.compliance)
            .sum();
        bodies + joints
    }

    /// The largest |C| over the rigid joints (compliance 0).
    pub fn max_rigid_violation(&self) -> f64 {
        self.joints
            .iter()
            .filter(|j| j.compliance == 0.0)
            .map(|j| j.violation(&self.bodies).abs())
            .fold(0.0, f64::max)
    }
}
