//! A cloth: particles at the corners of a triangle mesh cut from a flat pattern,
//! held in shape by stretch and shear conditions on every triangle and bend
//! conditions on every interior edge, stepped by chapter 3's backward Euler.
//!
//! The step is chapter 3's: solve (M − h ∂f/∂v − h² ∂f/∂x) Δv = h (f₀ + h ∂f/∂x v₀)
//! by preconditioned conjugate gradients, then v += Δv and x += h v. Only the
//! bookkeeping differs: the mesh fixes which particles touch which, so the matrix's
//! pattern is built once, every condition knows where its blocks go, and each step
//! refills the blocks (the conditions evaluated in parallel, their blocks added in
//! a fixed order so that any number of threads gives the same bits).

use crate::contact::{Filter, Solid, filtered_cg};
use crate::energy::{Curvature, LocalTerms, MAX_PARTICLES, local_terms};
use crate::hinge::{Bend, RestHinge};
use crate::self_contact::{Proximity, RankOne, SelfContact, WithPairs};
use crate::triangle::{RestTriangle, Shear, Stretch};
use nalgebra::Matrix3;
use pbm_implicit::block_sparse::BlockSparse;
use pbm_implicit::cg::{BlockJacobi, CgReport, LinearOperator};
use pbm_ode::runge_kutta::check_step_size;
use pbm_particles::condition::Condition;
use pbm_particles::particle::Vector;
use pbm_prelim::PbmError;
use pbm_prelim::parallel::{map_indexed_mut, map_range_with};
use pbm_prelim::validate::{non_negative, positive};
use std::collections::BTreeMap;

type V3 = Vector<3>;

/// How many times a step may change its self-contact pairs to those its solve
/// brought inside the thickness and solve again.
pub const CONTACT_ROUNDS: usize = 4;

/// The self-contact pairs of one step: those within the reach looked at, those
/// in the solve, and their stiffness.
#[derive(Debug)]
struct Pairs {
    reach: f64,
    found: Vec<Proximity>,
    active: Vec<Proximity>,
    terms: Vec<RankOne>,
}

impl Default for Pairs {
    fn default() -> Self {
        Pairs {
            reach: f64::NEG_INFINITY,
            found: Vec::new(),
            active: Vec::new(),
            terms: Vec::new(),
        }
    }
}

/// A cloth's material, per unit of pattern area.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// Mass per unit area (kg/m²).
    pub density: f64,
    /// Stretch stiffness k of E = ½ k (S_u² + S_v²) A (N/m).
    pub stretch: f64,
    /// Shear stiffness k of E = ½ k (θ − π/2)² A (N/m).
    pub shear: f64,
    /// Bending stiffness k of E = ½ k κ² A (N m).
    pub bend: f64,
    /// Condition damping: each condition's k_d is this times its k (s).
    pub damping: f64,
}

impl Material {
    /// A light cotton-like cloth: 0.2 kg/m², stiff against stretch, softer in
    /// shear, limp in bending.
    pub const COTTON: Material = Material {
        density: 0.2,
        stretch: 1000.0,
        shear: 100.0,
        bend: 1e-4,
        damping: 2e-3,
    };

    /// Checks that the density is positive and the rest finite and non-negative.
    pub fn checked(self) -> Result<Self, PbmError> {
        positive("cloth", "density", self.density)?;
        non_negative("cloth", "stretch stiffness", self.stretch)?;
        non_negative("cloth", "shear stiffness", self.shear)?;
        non_negative("cloth", "bending stiffness", self.bend)?;
        non_negative("cloth", "damping", self.damping)?;
        Ok(self)
    }
}

/// A solid sphere the cloth rests on, pushing back on every particle that comes
/// closer than `radius` to its centre.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    /// Centre (m).
    pub center: V3,
    /// Radius, including the cloth's half-thickness (m).
    pub radius: f64,
    /// The penalty's stiffness per unit mass of the particle, ω² (1/s²): a
    /// particle resting under gravity g alone sinks g/ω².
    pub stiffness: f64,
    /// Friction as a damping rate of the tangential velocity in contact (1/s).
    pub friction: f64,
}

/// The three kinds of condition a cloth is made of.
#[derive(Debug, Clone)]
enum Piece {
    Stretch(Stretch),
    Shear(Shear),
    Bend(Bend),
}

impl Piece {
    fn condition(&self) -> &dyn Condition<3> {
        match self {
            Piece::Stretch(c) => c,
            Piece::Shear(c) => c,
            Piece::Bend(c) => c,
        }
    }
}

/// The energy in each kind of term (J).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Energies {
    /// Stretch.
    pub stretch: f64,
    /// Shear.
    pub shear: f64,
    /// Bend.
    pub bend: f64,
    /// Gravity, relative to z = 0.
    pub gravity: f64,
    /// Kinetic.
    pub kinetic: f64,
}

impl Energies {
    /// An error if any term is not finite: a cloth whose positions are still
    /// finite numbers but so large that its energy overflows has diverged.
    fn check_finite(&self) -> Result<(), PbmError> {
        let terms = [
            ("stretch", self.stretch),
            ("shear", self.shear),
            ("bend", self.bend),
            ("gravity", self.gravity),
            ("kinetic", self.kinetic),
        ];
        match terms.iter().find(|(_, value)| !value.is_finite()) {
            None => Ok(()),
            Some((term, value)) => {
                let why =
                    format!("its {term} energy is {value}: the run has diverged");
                Err(PbmError::degenerate("cloth", why))
            }
        }
    }
}

/// What one implicit step cost and found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClothStep {
    /// The conjugate-gradient solve.
    pub cg: CgReport,
    /// Conditions whose exact Hessian was indefinite (counted only with
    /// [`Curvature::Projected`]).
    pub indefinite: usize,
    /// Particles held on the solid's surface during the step.
    pub held: usize,
    /// Self-contact pairs pushing apart during the step.
    pub pairs: usize,
}

/// A cloth, ready to step.
#[derive(Debug, Clone)]
pub struct Cloth {
    /// Positions (m).
    pub x: Vec<V3>,
    /// Velocities (m/s).
    pub v: Vec<V3>,
    /// Masses (kg).
    pub mass: Vec<f64>,
    /// Particles held in place.
    pub pinned: Vec<bool>,
    /// The rest triangles.
    pub triangles: Vec<RestTriangle>,
    /// Gravity (m/s²).
    pub gravity: V3,
    /// Air drag as a damping rate of every particle's velocity (1/s).
    pub drag: f64,
    /// A sphere to drape over, if any, pushing back as a penalty force.
    pub sphere: Option<Sphere>,
    /// A solid to rest on, if any, held by constraints inside the solve
    /// (implicit steps only).
    pub solid: Option<Solid>,
    /// Which particles are held on the solid's surface.
    pub held: Vec<bool>,
    /// Friction on the solid as the notes' linear model: a tangential drag
    /// −k_f N v_t on a held particle pressed on with normal force N (s/m).
    pub solid_friction: f64,
    /// Each held particle's normal force N in the last step (N).
    normal_force: Vec<f64>,
    /// Contact of the cloth with itself, if any (implicit steps only).
    pub self_contact: Option<SelfContact>,
    /// Which Hessian the implicit step uses.
    pub curvature: Curvature,
    /// CG stops at ‖b − A Δv‖ ≤ this × ‖b‖, or this × h‖M g‖ if larger.
    pub cg_tolerance: f64,
    /// Time (s).
    pub t: f64,
    material: Material,
    pieces: Vec<Piece>,
    /// Where each piece's blocks go: (row, position in the row) for its particle
    /// pairs (a, b), a × MAX_PARTICLES + b.
    slots: Vec<[(usize, usize); MAX_PARTICLES * MAX_PARTICLES]>,
    matrix: BlockSparse<3>,
    /// The last Δv, where the next solve starts.
    dv: Vec<f64>,
    /// Every condition's terms at the last evaluation (a buffer kept between
    /// steps: at 50 × 50 it holds about 40 MB).
    locals: Vec<LocalTerms>,
    steps: usize,
}

impl Cloth {
    /// A cloth of particles at pattern places `pattern` (m), lying at `x`, made of
    /// `triangles` (corner indices, counter-clockwise in the pattern). Every
    /// particle carries a third of the pattern area of each triangle it is a corner
    /// of; every edge shared by two triangles gets a hinge.
    pub fn new(
        pattern: &[[f64; 2]],
        x: Vec<V3>,
        triangles: &[[usize; 3]],
        material: Material,
    ) -> Result<Self, PbmError> {
        let n = x.len();
        if pattern.len() != n {
            let why = format!("{} pattern places for {n} particles", pattern.len());
            return Err(PbmError::invalid("cloth", why));
        }
        if let Some(t) = triangles.iter().find(|t| t.iter().any(|&i| i >= n)) {
            let why = format!("triangle {t:?} names a particle beyond {n}");
            return Err(PbmError::invalid("cloth", why));
        }
        let rest = triangles
            .iter()
            .map(|&t| RestTriangle::new(t, t.map(|i| pattern[i])))
            .collect::<Result<Vec<_>, _>>()?;
        Self::from_rest(x, rest, material)
    }

    /// A cloth of particles lying at `x`, made of triangles each with its own rest
    /// shape: pieces that need not lie flat together (a cone, a sleeve). Masses and
    /// hinges as for [`Cloth::new`].
    pub fn from_rest(
        x: Vec<V3>,
        rest: Vec<RestTriangle>,
        material: Material,
    ) -> Result<Self, PbmError> {
        let material = material.checked()?;
        let n = x.len();
        if let Some(t) = rest.iter().find(|t| t.corners.iter().any(|&i| i >= n)) {
            let why = format!("triangle {:?} names a particle beyond {n}", t.corners);
            return Err(PbmError::invalid("cloth", why));
        }
        let triangles: Vec<[usize; 3]> = rest.iter().map(|t| t.corners).collect();
        let mut mass = vec![0.0; n];
        for t in &rest {
            for &i in &t.corners {
                mass[i] += material.density * t.area / 3.0;
            }
        }
        if let Some(i) = mass.iter().position(|&m| m <= 0.0) {
            let why = format!("particle {i} is a corner of no triangle");
            return Err(PbmError::invalid("cloth", why));
        }
        // Each edge (sorted ends) and the triangles that have it, in a fixed order.
        let mut edges: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for (k, t) in triangles.iter().enumerate() {
            for e in 0..3 {
                let (a, b) = (t[e], t[(e + 1) % 3]);
                edges.entry((a.min(b), a.max(b))).or_default().push(k);
            }
        }
        let mut pieces = Vec::new();
        for t in &rest {
            pieces.push(Piece::Stretch(Stretch(t.clone())));
            pieces.push(Piece::Shear(Shear(t.clone())));
        }
        for (edge, sharing) in &edges {
            match sharing[..] {
                [_] => {}
                [t1, t2] => pieces.push(Piece::Bend(Bend(RestHinge::between(
                    &rest[t1], &rest[t2],
                )?))),
                _ => {
                    let why = format!(
                        "edge {edge:?} is shared by {} triangles",
                        sharing.len()
                    );
                    return Err(PbmError::invalid("cloth", why));
                }
            }
        }
        let pairs = pieces.iter().flat_map(|p| {
            let ids = p.condition().particles();
            ids.iter().flat_map(move |&a| ids.iter().map(move |&b| (a, b)))
        });
        let matrix = BlockSparse::with_pattern(n, pairs);
        let slots = pieces
            .iter()
            .map(|p| {
                let ids = p.condition().particles();
                let mut s = [(0, 0); MAX_PARTICLES * MAX_PARTICLES];
                for (a, &i) in ids.iter().enumerate() {
                    for (b, &j) in ids.iter().enumerate() {
                        // Every pair was put in the pattern just above; a miss would
                        // be a bug here, said rather than written to a wrong block.
                        let position = matrix.position(i, j).ok_or_else(|| {
                            let why = format!("no block ({i}, {j}) in the pattern");
                            PbmError::degenerate("cloth matrix", why)
                        })?;
                        s[a * MAX_PARTICLES + b] = (i, position);
                    }
                }
                Ok(s)
            })
            .collect::<Result<_, PbmError>>()?;
        let cloth = Cloth {
            v: vec![V3::zeros(); n],
            mass,
            pinned: vec![false; n],
            triangles: rest,
            gravity: V3::new(0.0, 0.0, -pbm_particles::forces::G),
            drag: 0.0,
            sphere: None,
            solid: None,
            held: vec![false; n],
            solid_friction: 0.0,
            normal_force: vec![0.0; n],
            self_contact: None,
            curvature: Curvature::Projected,
            cg_tolerance: 1e-6,
            t: 0.0,
            material,
            pieces,
            slots,
            matrix,
            dv: vec![0.0; 3 * n],
            locals: Vec::new(),
            steps: 0,
            x,
        };
        for p in &cloth.pieces {
            let ids = p.condition().particles();
            let at: Vec<V3> = ids.iter().map(|&i| cloth.x[i]).collect();
            p.condition().check(&at)?;
        }
        Ok(cloth)
    }

    /// Number of particles.
    pub fn len(&self) -> usize {
        self.x.len()
    }

    /// Whether the cloth has no particles (never, once built).
    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    /// Number of stretch, shear and bend conditions.
    pub fn condition_counts(&self) -> (usize, usize, usize) {
        let mut counts = (0, 0, 0);
        for p in &self.pieces {
            match p {
                Piece::Stretch(_) => counts.0 += 1,
                Piece::Shear(_) => counts.1 += 1,
                Piece::Bend(_) => counts.2 += 1,
            }
        }
        counts
    }

    fn stiffness(&self, piece: &Piece) -> f64 {
        match piece {
            Piece::Stretch(_) => self.material.stretch,
            Piece::Shear(_) => self.material.shear,
            Piece::Bend(_) => self.material.bend,
        }
    }

    /// Condition k's energy, force and Hessian (of the kind `curvature`) at
    /// positions `x` and velocities `v`.
    fn piece_terms(
        &self,
        k: usize,
        (x, v): (&[V3], &[V3]),
        curvature: Curvature,
        out: &mut LocalTerms,
    ) -> Result<(), PbmError> {
        let piece = &self.pieces[k];
        let ids = piece.condition().particles();
        let (mut xs, mut vs) =
            ([V3::zeros(); MAX_PARTICLES], [V3::zeros(); MAX_PARTICLES]);
        for (m, &i) in ids.iter().enumerate() {
            (xs[m], vs[m]) = (x[i], v[i]);
        }
        let n = ids.len();
        let k_s = self.stiffness(piece);
        local_terms(
            piece.condition(),
            (&xs[..n], &vs[..n]),
            (k_s, self.material.damping * k_s),
            curvature,
            out,
        )
    }

    /// Every condition's energy and force at the current state, in the pieces'
    /// order (evaluated in parallel), into a new vector. (Its Hessian is the
    /// cheapest kind: the energy does not depend on it.)
    fn local_terms(&self) -> Result<Vec<LocalTerms>, PbmError> {
        map_range_with(self.pieces.len(), LocalTerms::default, |out, k| {
            let state = (self.x.as_slice(), self.v.as_slice());
            self.piece_terms(k, state, Curvature::GaussNewton, out)
                .map(|()| out.clone())
        })
        .into_iter()
        .collect()
    }

    /// The same with the Hessian of kind `curvature`, into the cloth's own
    /// buffers, kept from step to step.
    fn evaluate(&mut self, curvature: Curvature) -> Result<(), PbmError> {
        let mut locals = std::mem::take(&mut self.locals);
        locals.resize_with(self.pieces.len(), LocalTerms::default);
        let this = &*self;
        let status = map_indexed_mut(&mut locals, |k, out| {
            this.piece_terms(k, (&this.x, &this.v), curvature, out)
        });
        self.locals = locals;
        status.into_iter().collect()
    }

    /// The sphere's push on particle i, with ∂f/∂x and ∂f/∂v, if it is touching.
    fn contact(&self, i: usize) -> Option<(V3, Matrix3<f64>, Matrix3<f64>)> {
        let s = self.sphere?;
        let r = self.x[i] - s.center;
        let distance = r.norm();
        if distance >= s.radius || distance == 0.0 {
            return None;
        }
        let n = r / distance;
        let m = self.mass[i];
        let normal = n * n.transpose();
        let tangential = Matrix3::identity() - normal;
        let (k, c) = (s.stiffness * m, s.friction * m);
        // Push out along n; slow the sliding; critically damp the normal motion.
        let damping_n = 2.0 * k.sqrt() * m.sqrt();
        let vn = n.dot(&self.v[i]);
        let f = n * (k * (s.radius - distance) - damping_n * vn)
            - tangential * self.v[i] * c;
        Some((f, -normal * k, -(normal * damping_n + tangential * c)))
    }

    /// The energy in each term at the current state.
    pub fn energies(&self) -> Result<Energies, PbmError> {
        let mut e = Energies::default();
        for (piece, local) in self.pieces.iter().zip(self.local_terms()?) {
            match piece {
                Piece::Stretch(_) => e.stretch += local.energy,
                Piece::Shear(_) => e.shear += local.energy,
                Piece::Bend(_) => e.bend += local.energy,
            }
        }
        for i in 0..self.len() {
            e.gravity -= self.mass[i] * self.gravity.dot(&self.x[i]);
            e.kinetic += 0.5 * self.mass[i] * self.v[i].norm_squared();
        }
        e.check_finite()?;
        Ok(e)
    }

    /// The forces on every particle: the conditions', gravity, drag and the
    /// sphere's.
    fn forces(&self, locals: &[LocalTerms]) -> Vec<V3> {
        let mut f: Vec<V3> = (0..self.len())
            .map(|i| (self.gravity - self.v[i] * self.drag) * self.mass[i])
            .collect();
        for (piece, local) in self.pieces.iter().zip(locals) {
            for (m, &i) in piece.condition().particles().iter().enumerate() {
                f[i] += local.force[m];
            }
        }
        for (i, fi) in f.iter_mut().enumerate() {
            if let Some((push, _, _)) = self.contact(i) {
                *fi += push;
            }
            if let Some(drag) = self.friction(i) {
                *fi -= drag * self.v[i];
            }
        }
        f
    }

    /// The friction drag k_f N (I − n nᵀ) on held particle i, if it is pressed on:
    /// the force is −this × v, and ∂f/∂v is −this.
    fn friction(&self, i: usize) -> Option<Matrix3<f64>> {
        let solid = self.solid?;
        let pressed = self.held[i] && self.normal_force[i] > 0.0;
        pressed.then(|| {
            let n = solid.gap(&self.x[i]).1;
            (Matrix3::identity() - n * n.transpose())
                * (self.solid_friction * self.normal_force[i])
        })
    }

    // ANCHOR: implicit_step
    /// One backward Euler step of size h: chapter 3's linear system, assembled from
    /// the conditions' local Hessians, solved by CG from the last step's Δv with the
    /// pinned particles and those held on the solid filtered out.
    pub fn backward_euler_step(&mut self, h: f64) -> Result<ClothStep, PbmError> {
        check_step_size(h)?;
        let (step, t0) = (self.steps, self.t);
        let (mut b, indefinite) =
            self.assemble(h).map_err(|e| e.at_step(step, t0))?;
        let (filter, z) = self.constraints(h);
        let (cg, a_dv, pairs) =
            self.solve(h, &mut b, (&filter, &z)).map_err(|e| e.at_step(step, t0))?;
        let held = self.release(&a_dv, &b, &filter, h);
        for i in 0..self.len() {
            if !self.pinned[i] {
                self.v[i] += V3::from_column_slice(&self.dv[3 * i..3 * i + 3]);
                self.x[i] += self.v[i] * h;
            }
        }
        self.finish_step(h, step, t0)?;
        Ok(ClothStep { cg, indefinite, held, pairs })
    }
    // ANCHOR_END: implicit_step

    /// ‖M g‖ over the free particles (N): the size of b while the cloth falls, and
    /// the scale of CG's absolute floor.
    fn weight(&self) -> f64 {
        let g = self.gravity.norm();
        let free = (0..self.len()).filter(|&i| !self.pinned[i]);
        free.map(|i| (self.mass[i] * g).powi(2)).sum::<f64>().sqrt()
    }

    // ANCHOR: constraints
    /// Each particle's filter and prescribed Δv for this step of size h. A pinned
    /// particle is fixed. A particle held on the solid, or free but about to pass
    /// its surface within the step (gap + h v·n < 0), has its velocity along the
    /// normal set to −gap/h: it ends the step on the surface.
    fn constraints(&mut self, h: f64) -> (Vec<Filter>, Vec<f64>) {
        let n = self.len();
        let (mut filter, mut z) = (vec![Filter::Free; n], vec![0.0; 3 * n]);
        for i in 0..n {
            if self.pinned[i] {
                filter[i] = Filter::Fixed;
                continue;
            }
            let Some(solid) = self.solid else { continue };
            let (gap, normal) = solid.gap(&self.x[i]);
            let v_n = normal.dot(&self.v[i]);
            self.held[i] |= gap + h * v_n < 0.0;
            if self.held[i] {
                filter[i] = Filter::Across(normal);
                let change = normal * (-gap / h - v_n);
                z[3 * i..3 * i + 3].copy_from_slice(change.as_slice());
            }
        }
        (filter, z)
    }
    // ANCHOR_END: constraints

    // ANCHOR: release
    /// Lets go of every held particle whose constraint impulse, c = A Δv − b along
    /// the normal, pulled it toward the solid (a solid pushes, never pulls), and
    /// returns how many stay held.
    fn release(
        &mut self,
        a_dv: &[f64],
        b: &[f64],
        filter: &[Filter],
        h: f64,
    ) -> usize {
        for (i, s) in filter.iter().enumerate() {
            if let (Filter::Across(normal), true) = (s, self.held[i]) {
                let c = (0..3).map(|k| (a_dv[3 * i + k] - b[3 * i + k]) * normal[k]);
                let c = c.sum::<f64>();
                self.held[i] = c >= 0.0;
                self.normal_force[i] = c.max(0.0) / h;
            } else {
                self.normal_force[i] = 0.0;
            }
        }
        self.held.iter().filter(|&&held| held).count()
    }
    // ANCHOR_END: release

    /// The total force the solid exerted on the cloth over the last step (N): each
    /// held particle's normal force N n and its friction drag.
    pub fn contact_force(&self) -> V3 {
        let Some(solid) = self.solid else { return V3::zeros() };
        let mut total = V3::zeros();
        for i in (0..self.len()).filter(|&i| self.held[i]) {
            total += solid.gap(&self.x[i]).1 * self.normal_force[i];
            if let Some(drag) = self.friction(i) {
                total -= drag * self.v[i];
            }
        }
        total
    }

    /// The matrix A of the last assembled step.
    pub fn system_matrix(&self) -> &BlockSparse<3> {
        &self.matrix
    }

    // ANCHOR: solve
    /// Solves A Δv = b by filtered CG from the last step's Δv. With self-contact,
    /// the pairs in the solve are those that end the step inside the thickness:
    /// first as the step is expected to go, then, round by round, as the solved
    /// step goes, until the set stops changing. Returns CG's last report, A Δv,
    /// and how many pairs are in the solve.
    fn solve(
        &mut self,
        h: f64,
        b: &mut [f64],
        constraints: (&[Filter], &[f64]),
    ) -> Result<(CgReport, Vec<f64>, usize), PbmError> {
        let floor = self.cg_tolerance * h * self.weight();
        let limit = 10 * 3 * self.len() + 100;
        // A and b without any pair, to start each round from.
        let bare = self.self_contact.is_some().then(|| (b.to_vec(), self.diagonal()));
        let (mut pairs, mut last) = (Pairs::default(), None);
        for round in 0..=CONTACT_ROUNDS {
            let changed = self.choose_pairs(&mut pairs, h)?;
            if round > 0 && !changed {
                break;
            }
            if let Some((b_bare, diagonal)) = &bare {
                b.copy_from_slice(b_bare);
                self.set_diagonal(diagonal)?;
                pairs.terms = self.add_pairs(&pairs, h, b)?;
            }
            let a = WithPairs {
                base: BlockJacobi::new(&self.matrix)?,
                pairs: &pairs.terms,
            };
            let tol = (self.cg_tolerance, floor);
            last = Some(filtered_cg(&a, b, &mut self.dv, constraints, tol, limit)?);
        }
        let mut a_dv = vec![0.0; b.len()];
        let base = BlockJacobi::new(&self.matrix)?;
        WithPairs { base, pairs: &pairs.terms }.apply(&self.dv, &mut a_dv);
        let cg = last.ok_or_else(|| PbmError::degenerate("cloth", "no solve"))?;
        Ok((cg, a_dv, pairs.terms.len()))
    }
    // ANCHOR_END: solve

    /// Every particle's diagonal block of A.
    fn diagonal(&self) -> Vec<Matrix3<f64>> {
        (0..self.len()).map(|i| self.matrix.diagonal_block(i)).collect()
    }

    /// Sets every particle's diagonal block of A.
    fn set_diagonal(&mut self, blocks: &[Matrix3<f64>]) -> Result<(), PbmError> {
        for (i, block) in blocks.iter().enumerate() {
            let position = self.matrix.position(i, i).ok_or_else(|| {
                PbmError::degenerate("cloth matrix", format!("no diagonal block {i}"))
            })?;
            *self.matrix.block_mut(i, position) = *block;
        }
        Ok(())
    }

    // ANCHOR: choose_pairs
    /// Puts in the solve the self-contact pairs that end a step of size h inside
    /// the thickness τ, linearized, if each particle's velocity changes by the Δv
    /// held now (the last step's before the first solve, the solve's after it):
    /// d + h ḋ < τ. Looks for pairs again if those speeds could close pairs the
    /// last look left out. Returns whether the set changed.
    fn choose_pairs(&mut self, pairs: &mut Pairs, h: f64) -> Result<bool, PbmError> {
        let Some(mut contact) = self.self_contact.take() else { return Ok(false) };
        let speeds: Vec<V3> = (0..self.len())
            .map(|i| self.v[i] + V3::from_column_slice(&self.dv[3 * i..3 * i + 3]))
            .collect();
        let fastest = speeds.iter().map(|v| v.norm()).fold(0.0, f64::max);
        let reach = contact.thickness + h * (2.0 * fastest + h * self.gravity.norm());
        let looked =
            (reach > pairs.reach).then(|| contact.find(&self.x, &self.pinned, reach));
        let (tau, respond) = (contact.thickness, contact.respond);
        self.self_contact = Some(contact);
        if let Some(found) = looked {
            (pairs.found, pairs.reach) = (found?, reach);
        }
        let inside =
            |p: &&Proximity| respond && p.distance + h * p.rate(&speeds) < tau;
        let active: Vec<Proximity> =
            pairs.found.iter().filter(inside).copied().collect();
        let changed = active != pairs.active;
        pairs.active = active;
        Ok(changed)
    }
    // ANCHOR_END: choose_pairs

    /// The stiffness of every pair in the solve, each added by [`Cloth::add_pair`].
    fn add_pairs(
        &mut self,
        pairs: &Pairs,
        h: f64,
        b: &mut [f64],
    ) -> Result<Vec<RankOne>, PbmError> {
        let Some(contact) = &self.self_contact else { return Ok(Vec::new()) };
        let (k, tau) = (contact.stiffness, contact.thickness);
        pairs.active.iter().map(|pair| self.add_pair(pair, h, (k, tau), b)).collect()
    }

    // ANCHOR: add_self_contact
    /// Adds one self-contact pair to the step: its penalty linearized at the
    /// step's start, h k (τ − d − h ḋ) g, to `b`, and its stiffness h² k g gᵀ
    /// (g = ∇d): the diagonal blocks into A, the pair as a rank-one term, which
    /// it returns.
    fn add_pair(
        &mut self,
        pair: &Proximity,
        h: f64,
        (k, tau): (f64, f64),
        b: &mut [f64],
    ) -> Result<RankOne, PbmError> {
        let predicted = pair.distance + h * pair.rate(&self.v);
        // A pinned particle's Δv is zero: its row and column are left out.
        let g = std::array::from_fn(|m| match self.pinned[pair.ids[m]] {
            true => V3::zeros(),
            false => pair.gradient()[m],
        });
        let term = RankOne { ids: pair.ids, g, scale: h * h * k };
        for (m, &i) in pair.ids.iter().enumerate() {
            let push = g[m] * (h * k * (tau - predicted));
            b[3 * i..3 * i + 3].iter_mut().zip(&push).for_each(|(b, p)| *b += p);
            let diagonal = self.matrix.position(i, i).ok_or_else(|| {
                PbmError::degenerate("cloth matrix", format!("no block {i}"))
            })?;
            *self.matrix.block_mut(i, diagonal) += term.diagonal(m);
        }
        Ok(term)
    }
    // ANCHOR_END: add_self_contact

    // ANCHOR: assemble
    /// Fills A = M − h ∂f/∂v − h² ∂f/∂x into the cloth's matrix and returns
    /// b = h (f₀ + h ∂f/∂x v₀), with the number of conditions whose Hessian was
    /// indefinite.
    pub fn assemble(&mut self, h: f64) -> Result<(Vec<f64>, usize), PbmError> {
        self.evaluate(self.curvature)?;
        let locals = std::mem::take(&mut self.locals);
        let f = self.forces(&locals);
        let n = self.len();
        // A = M − h ∂f/∂v − h² ∂f/∂x and b = h (f₀ + h ∂f/∂x v₀), block by block.
        self.matrix.clear();
        let mut b: Vec<f64> = (0..n).flat_map(|i| (f[i] * h).data.0[0]).collect();
        let indefinite = self.add_conditions(&locals, h, &mut b);
        self.add_diagonal(h, &mut b)?;
        self.locals = locals;
        Ok((b, indefinite))
    }
    // ANCHOR_END: assemble

    // ANCHOR: add_conditions
    /// Adds each condition's blocks h² H + h k_d JᵀJ to A and −h² H v₀ to `b`;
    /// returns how many had an indefinite Hessian.
    fn add_conditions(
        &mut self,
        locals: &[LocalTerms],
        h: f64,
        b: &mut [f64],
    ) -> usize {
        let mut indefinite = 0;
        for ((piece, local), slots) in self.pieces.iter().zip(locals).zip(&self.slots)
        {
            indefinite += usize::from(local.indefinite);
            let ids = piece.condition().particles();
            let k_d = self.material.damping * self.stiffness(piece);
            for (a, &i) in ids.iter().enumerate() {
                for (c, &j) in ids.iter().enumerate() {
                    let hessian = local.hessian.fixed_view::<3, 3>(3 * a, 3 * c);
                    let jtj = local.jtj.fixed_view::<3, 3>(3 * a, 3 * c);
                    // ∂f/∂x = −H and ∂f/∂v = −k_d JᵀJ.
                    // Pinned particles' rows and columns are left out: their Δv is
                    // zero.
                    if !(self.pinned[i] || self.pinned[j]) {
                        let (row, position) = slots[a * MAX_PARTICLES + c];
                        *self.matrix.block_mut(row, position) +=
                            hessian * (h * h) + jtj * (h * k_d);
                    }
                    let pull = hessian * self.v[j] * (h * h);
                    for r in 0..3 {
                        b[3 * i + r] -= pull[r];
                    }
                }
            }
        }
        indefinite
    }
    // ANCHOR_END: add_conditions

    // ANCHOR: add_diagonal
    /// Adds each particle's diagonal block to A: its mass with the air's drag, and
    /// the penalty contact's and the friction's terms; a pinned particle's block is
    /// I, its b and Δv zero.
    fn add_diagonal(&mut self, h: f64, b: &mut [f64]) -> Result<(), PbmError> {
        for i in 0..self.len() {
            // `with_pattern` stores every diagonal block.
            let position = self.matrix.position(i, i).ok_or_else(|| {
                PbmError::degenerate("cloth matrix", format!("no diagonal block {i}"))
            })?;
            if self.pinned[i] {
                *self.matrix.block_mut(i, position) = Matrix3::identity();
                b[3 * i..3 * i + 3].fill(0.0);
                self.dv[3 * i..3 * i + 3].fill(0.0);
                continue;
            }
            let mut diagonal =
                Matrix3::identity() * self.mass[i] * (1.0 + h * self.drag);
            if let Some((_, dfdx, dfdv)) = self.contact(i) {
                diagonal -= dfdv * h + dfdx * (h * h);
                let pull = dfdx * self.v[i] * (h * h);
                for r in 0..3 {
                    b[3 * i + r] += pull[r];
                }
            }
            if let Some(drag) = self.friction(i) {
                diagonal += drag * h;
            }
            *self.matrix.block_mut(i, position) += diagonal;
        }
        Ok(())
    }
    // ANCHOR_END: add_diagonal

    fn finish_step(&mut self, h: f64, step: usize, t0: f64) -> Result<(), PbmError> {
        self.t += h;
        self.steps += 1;
        if self.x.iter().any(|p| !p.iter().all(|c| c.is_finite())) {
            return Err(PbmError::Diverged { step, time: t0 });
        }
        Ok(())
    }

    /// One step of symplectic Euler with the same forces, for comparison.
    pub fn symplectic_euler_step(&mut self, h: f64) -> Result<(), PbmError> {
        check_step_size(h)?;
        let (step, t0) = (self.steps, self.t);
        if self.solid.is_some() || self.self_contact.is_some() {
            let why = "a solid held by constraints, and self-contact, are held only \
                       by the implicit step";
            return Err(PbmError::invalid("cloth", why));
        }
        // Only the forces are needed: the cheapest Hessian.
        self.evaluate(Curvature::GaussNewton).map_err(|e| e.at_step(step, t0))?;
        let f = self.forces(&self.locals);
        for (i, fi) in f.iter().enumerate() {
            if !self.pinned[i] {
                self.v[i] += fi * (h / self.mass[i]);
                self.x[i] += self.v[i] * h;
            }
        }
        self.finish_step(h, step, t0)
    }
}
