//! Baraff's linear-time solve on the tree of particles and constraints, held to a dense
//! solve of J W Jᵀ λ = rhs, to CG over a whole run, and to its refusals.

use nalgebra::{DMatrix, DVector, SVector, Vector2, Vector3};
use pbm_constraints::constraint::{Nail, OnCircle, OnLine, Rod};
use pbm_constraints::scenes::{Chain, mobile, mobile_fill, mobile_tree};
use pbm_constraints::system::{ConstrainedSystem, Multipliers};
use pbm_constraints::tree::{Kind, fill_in};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::{G, Gravity};
use pbm_particles::particle::{Motion, Particle};
use pbm_prelim::PbmError;

/// λ by the tree solve and by nalgebra's dense Cholesky of the formed J W Jᵀ, from the
/// same right-hand side, and the larger |λ| for scale.
fn both_ways<const D: usize>(
    system: &mut ConstrainedSystem<D>,
) -> Result<(Vec<f64>, Vec<f64>), PbmError> {
    system.particles.accumulate_forces()?;
    let (w, rhs) = system.assemble()?;
    let j = system.jacobian().to_dense();
    let jwjt = &j * DMatrix::from_diagonal(&DVector::from_vec(w)) * j.transpose();
    let dense = jwjt
        .cholesky()
        .expect("J W Jᵀ positive definite")
        .solve(&DVector::from_vec(rhs));
    system.multipliers = Multipliers::Tree;
    system.solve_constraint_forces()?;
    Ok((system.lambda().to_vec(), dense.as_slice().to_vec()))
}

fn assert_agree(tree: &[f64], dense: &[f64], what: &str) {
    let scale = dense.iter().fold(1.0_f64, |m, l| m.max(l.abs()));
    let gap = tree.iter().zip(dense).fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()));
    assert!(
        gap < 1e-10 * scale,
        "{what}: the tree solve is {gap:.1e} off (scale {scale:.1e})"
    );
}

#[test]
fn the_tree_solve_finds_the_multipliers_a_dense_solve_finds() {
    for links in [1, 10, 100] {
        let mut chain = Chain { links, length: 0.1, mass: 0.1 }.falling(20).unwrap();
        let (tree, dense) = both_ways(&mut chain).unwrap();
        assert_agree(&tree, &dense, &format!("a chain of {links} rods"));
    }
    // The mobile: three rods hang from one particle; it hangs by a rod from a hook.
    let (tree, dense) = both_ways(&mut mobile().unwrap()).unwrap();
    assert_agree(&tree, &dense, "the mobile");
}

/// A 3-D chain of five particles hanging from one that slides on a line; with
/// `circle`, its last particle is also held on a circle.
fn chain_on_a_line(circle: bool) -> Result<ConstrainedSystem<3>, PbmError> {
    let at = Vector3::new;
    let particles = (0..5)
        .map(|i| {
            let x = at(0.3 * i as f64, 0.1 * i as f64, -0.2 * i as f64);
            Particle::new(1.0, x, at(0.1, -0.2 * i as f64, 0.3))
        })
        .collect::<Result<Vec<Particle<3>>, _>>()?;
    let radius = particles[4].x.norm();
    let mut system = ConstrainedSystem::new(particles);
    system.add_force(Gravity { g: at(0.0, 0.0, -G) })?;
    system.add_constraint(OnLine::new(0, at(0.0, 0.0, 0.0), at(1.0, 0.0, 0.0))?)?;
    for i in 0..4 {
        let p = &system.particles.particles;
        let length = (p[i].x - p[i + 1].x).norm();
        system.add_constraint(Rod::new(i, i + 1, length)?)?;
    }
    if circle {
        system.add_constraint(OnCircle::new(4, SVector::zeros(), radius)?)?;
    }
    Ok(system)
}

#[test]
fn particles_on_wires_and_in_three_dimensions_are_nodes_like_any_other() {
    let (tree, dense) = both_ways(&mut chain_on_a_line(false).unwrap()).unwrap();
    assert_agree(&tree, &dense, "the 3-D chain on a line");
    // Tied to the ground at both ends: a loop through the ground.
    let mut looped = chain_on_a_line(true).unwrap();
    looped.multipliers = Multipliers::Tree;
    let refused = looped.solve_constraint_forces().unwrap_err().to_string();
    assert!(refused.contains("tie the same piece to the ground"), "{refused}");
}

/// A 2-D bead on a horizontal line that also hangs by a rod from a fixed hook (two
/// single-row ties to the ground on one particle), with a chain of `links` rods below
/// it; with `third`, the bead is also nailed (three rows on two coordinates).
fn bead_on_a_line_and_a_hook(links: usize, third: bool) -> ConstrainedSystem<2> {
    let at = Vector2::new;
    let mut particles = vec![Particle::new(1.0, at(0.3, 0.0), at(0.5, 0.0)).unwrap()];
    for k in 1..=links {
        let x = at(0.3 + 0.2 * k as f64, -0.1 * k as f64);
        particles.push(Particle::new(0.5, x, at(0.0, 0.2 * k as f64)).unwrap());
    }
    let hook = Particle::new(1.0, at(0.0, 0.4), Vector2::zeros()).unwrap();
    particles.push(hook.with_motion(Motion::Fixed));
    let mut system = ConstrainedSystem::new(particles);
    system.add_force(Gravity { g: at(0.0, -G) }).unwrap();
    system
        .add_constraint(OnLine::new(0, at(0.0, 0.0), at(1.0, 0.0)).unwrap())
        .unwrap();
    for k in 0..links {
        let p = &system.particles.particles;
        let length = (p[k].x - p[k + 1].x).norm();
        system.add_constraint(Rod::new(k, k + 1, length).unwrap()).unwrap();
    }
    system.add_constraint(Rod::new(0, links + 1, 0.5).unwrap()).unwrap();
    if third {
        system.add_constraint(Nail::new(0, at(0.3, 0.0)).unwrap()).unwrap();
    }
    system
}

#[test]
fn two_ties_to_the_ground_on_one_particle_are_one_node() {
    // The line and the rod to the hook are each one row on the bead: merged into one
    // two-row node, the piece is a tree and J W Jᵀ is nonsingular.
    for links in [0, 1, 5] {
        let mut system = bead_on_a_line_and_a_hook(links, false);
        let (tree, dense) = both_ways(&mut system).unwrap();
        assert_agree(&tree, &dense, &format!("a tied bead with {links} rods below"));
    }
    // A third tie would make three rows on two coordinates: refused as a loop.
    let mut over = bead_on_a_line_and_a_hook(1, true);
    over.multipliers = Multipliers::Tree;
    let refused = over.solve_constraint_forces().unwrap_err().to_string();
    assert!(refused.contains("tie the same piece to the ground"), "{refused}");
}

#[test]
fn the_tree_solve_refuses_a_loop_with_one_line_naming_it() {
    // Four particles joined in a square: a loop of rods.
    let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
    let particles = corners
        .iter()
        .map(|&(x, y)| Particle::new(1.0, Vector2::new(x, y), Vector2::zeros()))
        .collect::<Result<Vec<Particle<2>>, _>>()
        .unwrap();
    let mut square = ConstrainedSystem::new(particles);
    for k in 0..4 {
        square.add_constraint(Rod::new(k, (k + 1) % 4, 1.0).unwrap()).unwrap();
    }
    square.multipliers = Multipliers::Tree;
    let refused = square.solve_constraint_forces().unwrap_err().to_string();
    assert!(
        refused.contains("a second time") && !refused.contains('\n'),
        "{refused}"
    );
    assert!(!refused.contains("ground"), "{refused}");
    // CG takes the same system.
    square.multipliers = Multipliers::Cg;
    square.solve_constraint_forces().unwrap();

    // A chain nailed at both ends is a loop through the ground.
    let mut bridge = Chain { links: 4, length: 0.1, mass: 0.1 }.with_rods().unwrap();
    bridge.add_constraint(Nail::new(4, Vector2::new(0.4, 0.0)).unwrap()).unwrap();
    bridge.multipliers = Multipliers::Tree;
    let refused = bridge.solve_constraint_forces().unwrap_err().to_string();
    assert!(refused.contains("tie the same piece to the ground"), "{refused}");
    assert!(refused.contains("row 0") && refused.contains("row 6"), "{refused}");
}

#[test]
fn a_chain_run_by_the_tree_solve_follows_the_run_by_cg() {
    let chain = Chain { links: 20, length: 0.1, mass: 0.1 };
    let run = |multipliers| {
        let mut system = chain.with_rods().unwrap();
        system.multipliers = multipliers;
        let mut stepper = RungeKutta::new(RK4);
        for _ in 0..200 {
            stepper.step(&mut system, 1e-3).unwrap();
        }
        let mut x = vec![0.0; system.dimension()];
        system.gather_state(&mut x);
        x
    };
    let (tree, cg) = (run(Multipliers::Tree), run(Multipliers::Cg));
    let gap = tree.iter().zip(&cg).fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()));
    // CG stops at a relative residual of 1e-12; the tree solve is exact to rounding.
    assert!(gap < 1e-9, "the two runs part by {gap:.1e} after 0.2 s");
}

#[test]
fn leaves_first_fills_in_nothing_and_root_first_fills_in() {
    let (_, tree) = mobile_tree().unwrap();
    let edges = tree.edges();
    // Seven rods and seven free particles; every node but the root has one parent.
    assert_eq!((tree.len(), edges.len()), (14, 13));
    assert!(fill_in(tree.len(), &edges).is_empty());
    // The root is the rod to the hook, the mobile's one tie to the ground.
    let (root, _) = tree.order().last().unwrap();
    assert_eq!(root, Kind::Constraint { row: 0 });
    // Numbered the other way round, the branch point couples the rods below it.
    let (leaves_first, root_first) = mobile_fill().unwrap();
    assert_eq!(leaves_first, 0);
    assert!(root_first > 0, "root first should fill in");
    // A square's loop fills in whatever the order: one block closes it.
    assert_eq!(fill_in(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]), vec![(1, 3)]);
}

#[test]
fn pieces_with_no_tie_to_the_ground_and_several_pieces_at_once_are_solved() {
    // Two chains in one system: one nailed, one floating free (rods only, no tie to
    // the ground, walked from any node), all moving.
    let chain = Chain { links: 6, length: 0.1, mass: 0.1 };
    let mut particles = chain.falling(20).unwrap().particles.particles.clone();
    let floating: Vec<Particle<2>> = particles
        .iter()
        .map(|p| {
            let v = Vector2::new(0.3, -0.1) + p.v;
            Particle::new(p.mass, p.x + Vector2::new(0.0, 1.0), v).unwrap()
        })
        .collect();
    let n = particles.len();
    particles.extend(floating);
    let mut system = ConstrainedSystem::new(particles);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) }).unwrap();
    system.add_constraint(Nail::new(0, Vector2::zeros()).unwrap()).unwrap();
    for offset in [0, n] {
        for i in offset..offset + n - 1 {
            let p = &system.particles.particles;
            let length = (p[i].x - p[i + 1].x).norm();
            system.add_constraint(Rod::new(i, i + 1, length).unwrap()).unwrap();
        }
    }
    let (tree, dense) = both_ways(&mut system).unwrap();
    assert_agree(&tree, &dense, "a nailed chain and a free one");

    // Nailing a particle after a solve changes the graph: the tree is built again.
    system.particles.particles[n + 2].motion = Motion::Fixed;
    let (tree, dense) = both_ways(&mut system).unwrap();
    assert_agree(&tree, &dense, "the free chain, nailed in the middle afterwards");
}
