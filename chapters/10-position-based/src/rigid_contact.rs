//! Contact between rigid bodies by XPBD (Müller, Macklin, Chentanez, Jeschke and
//! Kim, *Detailed Rigid Body Simulation with Extended Position Based Dynamics*,
//! 2020, §3.5–3.6), on boxes and planes. Each substep predicts, finds the contacts
//! at the predicted poses, and then runs two passes over them:
//!
//! - the **position pass** pushes the two body points of a contact apart along the
//!   normal through the generalized inverse masses, and, while the tangential slip
//!   of the two points over the substep needs less than μ_s times the normal
//!   multiplier to undo, undoes it (static friction);
//! - the **velocity pass**, after the velocities are read off the motion, removes
//!   sliding speed up to μ_d times the normal impulse (dynamic friction) and sets
//!   the normal speed to e times the approach speed (restitution).
//!
//! Detection between boxes is chapter 7's manifold (`clipped_contacts`): the
//! separating-axis test, a reference face, and the incident face clipped to it.

use crate::projection::{Stiffness, multiplier_update};
use crate::rigid::Body;
use nalgebra::Vector3;
use nalgebra::{Quaternion, UnitQuaternion};
use pbm_collision::polyhedron::{
    ConvexPolyhedron, Feature, clipped_contacts, separation_over,
};
use pbm_prelim::PbmError;
use pbm_prelim::validate::{finite, non_negative};

type V3 = Vector3<f64>;

/// A fixed half-space: the points x with x·n ≥ offset are outside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plane {
    /// Unit normal, pointing out of the solid.
    pub normal: V3,
    /// The surface's distance from the origin along the normal (m).
    pub offset: f64,
}

impl Plane {
    /// The plane through `point` with normal `normal` (made unit).
    pub fn through(point: &V3, normal: &V3) -> Result<Self, PbmError> {
        let length = normal.norm();
        if !(length.is_finite() && length > 0.0) {
            return Err(PbmError::invalid("plane", "its normal has no direction"));
        }
        let normal = normal / length;
        Ok(Plane { normal, offset: finite("plane", "point", point.dot(&normal))? })
    }
}

/// The coefficients every contact of a world shares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// μ_s: a contact holds while undoing its slip needs less than μ_s λ_n.
    pub static_friction: f64,
    /// μ_d: a sliding contact loses at most μ_d times its normal impulse.
    pub dynamic_friction: f64,
    /// e: a contact that closes at speed v opens at e v.
    pub restitution: f64,
    /// α (m/N): 0 is a rigid contact; α > 0 lets a contact sink α times its load.
    pub compliance: f64,
    /// How the position pass applies static friction.
    pub rule: StaticRule,
}

/// How one contact point's static friction acts in the position pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaticRule {
    /// Müller et al.'s rule: undo the whole slip if that takes less than μ_s λ_n,
    /// else nothing. Each point of a face carries a share of the load but must undo
    /// the whole body's slip alone, so a box on four corners creeps.
    AllOrNothing,
    /// Undo the whole slip if μ_s λ_n allows; if not, undo as much as μ_d λ_n
    /// allows, the contact sliding (the friction cone's projection): the points of a
    /// face share the work as they share the load.
    Clamped,
}

impl Material {
    /// Checks that every coefficient is finite and at least zero.
    pub fn checked(self) -> Result<Self, PbmError> {
        non_negative("contact", "static friction", self.static_friction)?;
        non_negative("contact", "dynamic friction", self.dynamic_friction)?;
        non_negative("contact", "restitution", self.restitution)?;
        non_negative("contact", "compliance", self.compliance)?;
        Ok(self)
    }
}

/// One contact point: a point of body `a` pressed against body `b` (or a fixed
/// plane) along the normal n, which points out of b towards a.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// The body pushed along +n.
    pub a: usize,
    /// The body pushed along −n, or None for a fixed plane.
    pub b: Option<usize>,
    /// a's point, in a's coordinates.
    local_a: V3,
    /// b's point, in b's coordinates (in the world's for a plane).
    local_b: V3,
    /// The unit normal, out of b towards a.
    pub normal: V3,
    /// The normal multiplier accumulated in this substep (N s²).
    pub lambda_n: f64,
    /// The tangential multiplier static friction applied in this substep (N s²).
    pub lambda_t: f64,
    /// The dynamic-friction impulse the velocity passes applied (N s).
    friction: V3,
    /// The relative normal speed before the position pass (m/s; < 0 closing).
    approach: f64,
}

/// The eight corners of a box with half-sides `half`, in its own coordinates.
pub fn corners(half: &V3) -> [V3; 8] {
    std::array::from_fn(|k| {
        let s = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
        Vector3::new(s(1) * half.x, s(2) * half.y, s(4) * half.z)
    })
}

impl Contact {
    fn new(
        bodies: &[Body],
        a: usize,
        b: Option<usize>,
        pa: &V3,
        pb: &V3,
        n: &V3,
    ) -> Self {
        let local =
            |k: usize, p: &V3| bodies[k].rotation().transpose() * (p - bodies[k].x);
        let local_b = b.map_or(*pb, |b| local(b, pb));
        let (local_a, normal) = (local(a, pa), *n);
        let approach = Self::relative_velocity_at(bodies, a, b, pa, pb).dot(n);
        let (lambda_n, lambda_t, friction) = (0.0, 0.0, V3::zeros());
        Contact {
            a,
            b,
            local_a,
            local_b,
            normal,
            lambda_n,
            lambda_t,
            friction,
            approach,
        }
    }

    /// The two points where they are now.
    pub fn points(&self, bodies: &[Body]) -> (V3, V3) {
        let pa = bodies[self.a].world_point(&self.local_a);
        let pb =
            self.b.map_or(self.local_b, |b| bodies[b].world_point(&self.local_b));
        (pa, pb)
    }

    /// How far a's point is inside b along the normal (m; < 0: apart).
    pub fn depth(&self, bodies: &[Body]) -> f64 {
        let (pa, pb) = self.points(bodies);
        (pb - pa).dot(&self.normal)
    }

    fn relative_velocity_at(
        bodies: &[Body],
        a: usize,
        b: Option<usize>,
        pa: &V3,
        pb: &V3,
    ) -> V3 {
        let vb = b.map_or(V3::zeros(), |b| bodies[b].point_velocity(pb));
        bodies[a].point_velocity(pa) - vb
    }

    /// w_a + w_b along the unit direction `dir` at the two points.
    fn inverse_mass(&self, bodies: &[Body], (pa, pb): (V3, V3), dir: &V3) -> f64 {
        let wb = self.b.map_or(0.0, |b| bodies[b].generalized_inverse_mass(&pb, dir));
        bodies[self.a].generalized_inverse_mass(&pa, dir) + wb
    }

    /// Pushes a by `p` at its point and b by −p at its point, as positions.
    fn correct(&self, bodies: &mut [Body], (pa, pb): (V3, V3), p: &V3) {
        bodies[self.a].apply_correction(&pa, p);
        if let Some(b) = self.b {
            bodies[b].apply_correction(&pb, &-p);
        }
    }

    /// The same as an impulse on the velocities.
    fn push(&self, bodies: &mut [Body], (pa, pb): (V3, V3), p: &V3) {
        bodies[self.a].apply_impulse(&pa, p);
        if let Some(b) = self.b {
            bodies[b].apply_impulse(&pb, &-p);
        }
    }

    // ANCHOR: position_pass
    /// The position pass: C = (p_a − p_b)·n ≥ 0 projected with compliance α, then
    /// static friction on the slip Δp_t of the two points over the substep, which
    /// a multiplier |Δp_t|/w_t would undo, against the bound μ_s λ_n.
    pub fn solve_position(&mut self, bodies: &mut [Body], m: &Material, h: f64) {
        let (n, points) = (self.normal, self.points(bodies));
        let c = (points.0 - points.1).dot(&n);
        if c >= 0.0 {
            return;
        }
        let w = self.inverse_mass(bodies, points, &n);
        let update =
            multiplier_update(Stiffness::Xpbd(m.compliance), c, self.lambda_n, w, h);
        let d_lambda = update.max(-self.lambda_n);
        self.lambda_n += d_lambda;
        self.correct(bodies, points, &(n * d_lambda));
        let points = self.points(bodies);
        let slip = self.slip(bodies, points);
        let length = slip.norm();
        let t = slip / length;
        let w_t =
            if length > 0.0 { self.inverse_mass(bodies, points, &t) } else { 0.0 };
        if w_t > 0.0 {
            let needed = length / w_t;
            let holds = needed < m.static_friction * self.lambda_n - self.lambda_t;
            // A contact that slides is held back by μ_d λ_n, not μ_s λ_n.
            let sliding =
                (m.dynamic_friction * self.lambda_n - self.lambda_t).max(0.0);
            let applied = match (m.rule, holds) {
                (_, true) => needed,
                (StaticRule::AllOrNothing, false) => 0.0,
                (StaticRule::Clamped, false) => needed.min(sliding),
            };
            self.lambda_t += applied;
            self.correct(bodies, points, &(-t * applied));
        }
    }
    // ANCHOR_END: position_pass

    /// How far a's point slid over b's point, across the normal, since the start
    /// of the substep (m).
    fn slip(&self, bodies: &[Body], (pa, pb): (V3, V3)) -> V3 {
        let moved_b =
            self.b.map_or(V3::zeros(), |b| pb - bodies[b].previous_point(&pb));
        let slip = pa - bodies[self.a].previous_point(&pa) - moved_b;
        slip - self.normal * slip.dot(&self.normal)
    }

    // ANCHOR: velocity_pass
    /// One velocity pass over a contact the position pass pressed (λ_n > 0).
    /// Dynamic friction: the friction impulse this contact has given in the velocity
    /// passes stays within μ_d λ_n/h less what static friction already gave, λ_t/h.
    /// Restitution: the normal speed is set to e times the approach speed, or to zero
    /// for an approach slower than `resting` (m/s).
    pub fn solve_velocity(
        &mut self,
        bodies: &mut [Body],
        m: &Material,
        h: f64,
        resting: f64,
    ) {
        if self.lambda_n <= 0.0 {
            return;
        }
        let (n, points) = (self.normal, self.points(bodies));
        let v =
            Self::relative_velocity_at(bodies, self.a, self.b, &points.0, &points.1);
        let sliding = v - n * v.dot(&n);
        let speed = sliding.norm();
        if speed > 0.0 {
            let t = sliding / speed;
            let stop = speed / self.inverse_mass(bodies, points, &t);
            let bound =
                (m.dynamic_friction * self.lambda_n - self.lambda_t).max(0.0) / h;
            let wanted = self.friction - t * stop;
            let total = wanted * (bound / wanted.norm()).min(1.0);
            self.push(bodies, points, &(total - self.friction));
            self.friction = total;
        }
        let v =
            Self::relative_velocity_at(bodies, self.a, self.b, &points.0, &points.1);
        let e = if -self.approach <= resting { 0.0 } else { m.restitution };
        let target = (-e * self.approach).max(0.0);
        let w = self.inverse_mass(bodies, points, &n);
        self.push(bodies, points, &(n * ((target - v.dot(&n)) / w)));
    }
    // ANCHOR_END: velocity_pass
}

/// The corners of box `k` (half-sides `half`) below the plane, each a contact
/// with the plane's normal.
pub fn plane_contacts(
    bodies: &[Body],
    k: usize,
    half: &V3,
    plane: &Plane,
    out: &mut Vec<Contact>,
) {
    for corner in corners(half) {
        let p = bodies[k].world_point(&corner);
        let depth = plane.offset - p.dot(&plane.normal);
        if depth > 0.0 {
            let on_plane = p + plane.normal * depth;
            out.push(Contact::new(bodies, k, None, &p, &on_plane, &plane.normal));
        }
    }
}

/// Edge pairs crossing at a sine below this are left out of the separating-axis
/// search (chapter 8's choice, for the same reason: nearly parallel edges on two
/// flush faces give a tilted axis a hair shallower than the faces' own).
const PARALLEL: f64 = 0.1;

/// Body `k` as chapter 7's solid: a cuboid with half-sides `half` at its pose.
fn solid(body: &Body, half: &V3) -> Result<ConvexPolyhedron, PbmError> {
    let q = body.orientation();
    let turn = UnitQuaternion::new_normalize(Quaternion::new(q[0], q[1], q[2], q[3]));
    Ok(ConvexPolyhedron::cuboid(V3::zeros(), *half)?.placed(body.x, turn))
}

// ANCHOR: box_contacts
/// The contacts between boxes i and j, found as chapter 7 finds them: the
/// separating-axis test, a reference face, and the other box's incident face
/// clipped to its sides (`clipped_contacts`); each clipped point below the
/// reference face is a contact, pushed out along the reference face's normal.
pub fn box_contacts(
    bodies: &[Body],
    (i, hi): (usize, &V3),
    (j, hj): (usize, &V3),
    out: &mut Vec<Contact>,
) -> Result<(), PbmError> {
    let (a, b) = (solid(&bodies[i], hi)?, solid(&bodies[j], hj)?);
    let (gap, witness) = separation_over(&a, &b, PARALLEL);
    if gap >= 0.0 {
        return Ok(());
    }
    for found in clipped_contacts(&a, &b, witness, 0.0) {
        let Feature::FacePoint { of_b, face } = found.feature else { continue };
        // The point is on the incident box k, measured from box r's face.
        let (r, k, reference) = if of_b { (i, j, &a) } else { (j, i, &b) };
        let n = reference.normal(face);
        let on_face = reference.vertices()[reference.faces()[face][0]];
        let depth = n.dot(&(on_face - found.point));
        if depth > 0.0 {
            let p = found.point;
            out.push(Contact::new(bodies, k, Some(r), &p, &(p + n * depth), &n));
        }
    }
    Ok(())
}
// ANCHOR_END: box_contacts

/// Boxes on planes, stepped by XPBD with contacts, friction and restitution.
#[derive(Debug, Clone)]
pub struct BoxWorld {
    /// The bodies (boxes; a fixed body is an immovable box).
    pub bodies: Vec<Body>,
    /// Each body's half-sides (m).
    pub half: Vec<V3>,
    /// The fixed planes.
    pub planes: Vec<Plane>,
    /// The contacts' coefficients.
    pub material: Material,
    /// Acceleration of gravity (m/s²).
    pub gravity: V3,
    /// The clock (s).
    pub t: f64,
    /// The contacts of the last substep.
    pub contacts: Vec<Contact>,
    /// Position passes per substep (Müller et al. run one), alternately forward
    /// and backward over the contacts.
    pub position_passes: usize,
    /// Velocity passes per substep (Müller et al. run one).
    pub velocity_passes: usize,
    steps: usize,
}

impl BoxWorld {
    /// Boxes with half-sides `half` (one per body) on `planes`.
    pub fn new(
        bodies: Vec<Body>,
        half: Vec<V3>,
        planes: Vec<Plane>,
        material: Material,
        gravity: V3,
    ) -> Result<Self, PbmError> {
        if bodies.len() != half.len() {
            let why = format!("{} bodies but {} box sizes", bodies.len(), half.len());
            return Err(PbmError::invalid("box world", why));
        }
        let material = material.checked()?;
        let contacts = Vec::new();
        Ok(BoxWorld {
            bodies,
            half,
            planes,
            material,
            gravity,
            t: 0.0,
            contacts,
            position_passes: 2,
            velocity_passes: 2,
            steps: 0,
        })
    }

    /// Every contact at the current poses: boxes against planes, then pairs of
    /// boxes whose bounding spheres meet.
    pub fn detect(&mut self) -> Result<(), PbmError> {
        self.contacts.clear();
        for k in
            (0..self.bodies.len()).filter(|&k| self.bodies[k].inverse_mass() > 0.0)
        {
            for plane in &self.planes {
                plane_contacts(
                    &self.bodies,
                    k,
                    &self.half[k],
                    plane,
                    &mut self.contacts,
                );
            }
        }
        for i in 0..self.bodies.len() {
            for j in i + 1..self.bodies.len() {
                let reach = self.half[i].norm() + self.half[j].norm();
                let movable = self.bodies[i].inverse_mass()
                    + self.bodies[j].inverse_mass()
                    > 0.0;
                if movable && (self.bodies[i].x - self.bodies[j].x).norm() < reach {
                    box_contacts(
                        &self.bodies,
                        (i, &self.half[i]),
                        (j, &self.half[j]),
                        &mut self.contacts,
                    )?;
                }
            }
        }
        Ok(())
    }

    // ANCHOR: substep
    /// One substep of size h: predict, find the contacts, the position pass, the
    /// velocities from the motion, the velocity pass.
    pub fn substep(&mut self, h: f64) -> Result<(), PbmError> {
        for body in &mut self.bodies {
            body.integrate(h, &self.gravity, &V3::zeros(), true);
        }
        self.detect()?;
        if self.steps % 2 == 1 {
            self.contacts.reverse();
        }
        for pass in 0..self.position_passes {
            for contact in &mut self.contacts {
                contact.solve_position(&mut self.bodies, &self.material, h);
            }
            if pass + 1 < self.position_passes {
                self.contacts.reverse();
            }
        }
        for body in &mut self.bodies {
            body.update_velocities(h);
        }
        let resting = 2.0 * self.gravity.norm() * h;
        for _ in 0..self.velocity_passes {
            for contact in &mut self.contacts {
                contact.solve_velocity(&mut self.bodies, &self.material, h, resting);
            }
        }
        let (step, time) = (self.steps, self.t);
        self.t += h;
        self.steps += 1;
        if !self.bodies.iter().all(Body::is_finite) {
            return Err(PbmError::Diverged { step, time });
        }
        Ok(())
    }
    // ANCHOR_END: substep

    /// The deepest any contact of the last substep is now (m; 0 when none is in).
    pub fn deepest(&self) -> f64 {
        self.contacts.iter().map(|c| c.depth(&self.bodies)).fold(0.0, f64::max)
    }
}
