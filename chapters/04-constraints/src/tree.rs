//! The multipliers in linear time when the constraints form a tree (Baraff, "Linear-Time
//! Dynamics using Lagrange Multipliers", SIGGRAPH 1996).
//!
//! Instead of J W Jᵀ λ = rhs, whose matrix fills in wherever a particle carries several
//! constraints, the solve takes the larger system the two halves of Newton's law make
//! together,
//!
//! ```text
//! [ M  Jᵀ ] [  a ]   [  0  ]
//! [ J  0  ] [ −λ ] = [ rhs ]
//! ```
//!
//! (the top rows: the constraint force Jᵀλ gives the accelerations a = W Jᵀλ; the bottom
//! rows: those accelerations meet the constraints' demand, J W Jᵀ λ = rhs). Its graph has
//! a node per free particle and per constraint and an edge per non-zero block of J. When
//! that graph is a tree, eliminating the nodes leaves first creates no fill-in: a leaf
//! touches only its parent, so removing it changes only the parent's diagonal block.

use crate::block_matrix::BlockMatrix;
use nalgebra::{SMatrix, SVector};
use pbm_prelim::PbmError;
use std::collections::VecDeque;

/// A node's block: D × D, a particle's coordinates or up to D rows of a constraint. A
/// constraint of fewer rows sits in the top-left corner, the rest of the diagonal one:
/// padding that never meets the answer.
type Block<const D: usize> = SMatrix<f64, D, D>;

/// What a node of the graph stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A particle a force can move.
    Particle {
        /// The column of J where its coordinates start.
        col: usize,
    },
    /// A constraint.
    Constraint {
        /// The row of J where its rows start.
        row: usize,
    },
}

/// One node, in the elimination order.
#[derive(Debug, Clone, Copy)]
struct Node {
    kind: Kind,
    /// How many numbers the node has: D for a particle, its rows for a constraint.
    size: usize,
    /// The node eliminated after it that it touches, with the block of J between them
    /// (`None` for the root of a piece).
    parent: Option<(usize, usize)>,
    /// A constraint's rows of J as (first row, count): its own, then those of a second
    /// tie to the ground on the same particle merged into it (count 0 if none).
    rows: [(usize, usize); 2],
    /// The block of J of that merged second tie.
    second: Option<usize>,
}

impl Node {
    /// A constraint's rows of `from` (its own, then a merged tie's) into the top of
    /// its block `x`; nothing for a particle.
    fn gather<const D: usize>(&self, from: &[f64], x: &mut SVector<f64, D>) {
        if let Kind::Constraint { .. } = self.kind {
            let [(a, n), (b, m)] = self.rows;
            x.rows_mut(0, n).copy_from_slice(&from[a..a + n]);
            x.rows_mut(n, m).copy_from_slice(&from[b..b + m]);
        }
    }

    /// The reverse of [`Node::gather`]: the top of `x` into the constraint's rows of
    /// `to`.
    fn scatter<const D: usize>(&self, x: &SVector<f64, D>, to: &mut [f64]) {
        if let Kind::Constraint { .. } = self.kind {
            let [(a, n), (b, m)] = self.rows;
            to[a..a + n].copy_from_slice(&x.as_slice()[..n]);
            to[b..b + m].copy_from_slice(&x.as_slice()[n..n + m]);
        }
    }
}

/// The tree of a constrained system of particles in D dimensions, ordered for
/// elimination, with the storage its factorization reuses from solve to solve.
#[derive(Debug, Clone)]
pub struct TreeSolve<const D: usize> {
    nodes: Vec<Node>,
    /// E = ±Δ (the node's pivot block), positive definite for both kinds of node;
    /// once factored, E⁻¹.
    pivots: Vec<Block<D>>,
    /// L̂ᵢ = Eᵢ⁻¹ Hᵢ,parent for each node with a parent.
    l: Vec<Block<D>>,
    x: Vec<SVector<f64, D>>,
    /// Which coordinates a force can move (W > 0) when the tree was built.
    moving: Vec<bool>,
}

impl<const D: usize> TreeSolve<D> {
    /// The graph of the constraints in `j` (D columns per particle, at most D rows per
    /// constraint) over the particles with a non-zero inverse mass in `w`, ordered for
    /// elimination. Fails, naming a node, if the graph has a loop, counting the ground
    /// as one body.
    pub fn new(j: &BlockMatrix, w: &[f64]) -> Result<Self, PbmError> {
        let graph = Graph::new(j, w, D)?;
        let nodes = graph.elimination_order()?;
        Ok(TreeSolve {
            pivots: vec![Block::zeros(); nodes.len()],
            l: vec![Block::zeros(); nodes.len()],
            x: vec![SVector::zeros(); nodes.len()],
            moving: w.iter().map(|&w| w > 0.0).collect(),
            nodes,
        })
    }

    /// Whether the tree still fits inverse masses `w`: the same coordinates move. (A
    /// particle nailed or let go since changes the graph.)
    pub fn fits(&self, w: &[f64]) -> bool {
        self.moving.len() == w.len()
            && self.moving.iter().zip(w).all(|(&m, &w)| m == (w > 0.0))
    }

    /// How many nodes the tree has (free particles and constraints together).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The nodes in elimination order, each with the position of its parent.
    pub fn order(&self) -> impl Iterator<Item = (Kind, Option<usize>)> + '_ {
        self.nodes.iter().map(|node| (node.kind, node.parent.map(|(p, _)| p)))
    }

    /// The tree's edges as (child, parent) positions in the elimination order.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let parents = self.nodes.iter().map(|node| node.parent.map(|(p, _)| p));
        parents.enumerate().filter_map(|(i, p)| Some((i, p?))).collect()
    }

    /// Whether there is nothing to solve.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The block Hᵢ,parent of node `i`: a block of J under a constraint, its transpose
    /// under a particle; a constraint with a merged second tie stacks both blocks.
    fn coupling(&self, i: usize, j: &BlockMatrix) -> Block<D> {
        let mut h = Block::zeros();
        let Some((parent, link)) = self.nodes[i].parent else { return h };
        let constraint = match self.nodes[i].kind {
            Kind::Constraint { .. } => i,
            Kind::Particle { .. } => parent,
        };
        let mut offset = 0;
        for b in std::iter::once(link).chain(self.nodes[constraint].second) {
            let block = &j.blocks[b];
            for r in 0..block.rows {
                for c in 0..block.cols {
                    let value = block.data[r * block.cols + c];
                    match self.nodes[i].kind {
                        Kind::Constraint { .. } => h[(offset + r, c)] = value,
                        Kind::Particle { .. } => h[(c, offset + r)] = value,
                    }
                }
            }
            offset += block.rows;
        }
        h
    }

    // ANCHOR: factor
    /// Factors H = L Δ Lᵀ leaves first. Each pivot block Δ starts as the node's own
    /// diagonal block (M for a particle, zero for a constraint) and takes one term
    /// from each child; a parent and its child are of opposite kinds, so with E = Δ
    /// for a particle and E = −Δ for a constraint every term is added: E_p += Hᵀ E⁻¹ H.
    /// E⁻¹, found from E's Cholesky factor, replaces E: the solve needs only it.
    pub fn factor(&mut self, j: &BlockMatrix, w: &[f64]) -> Result<(), PbmError> {
        for (e, node) in self.pivots.iter_mut().zip(&self.nodes) {
            *e = Block::identity();
            for k in 0..node.size {
                e[(k, k)] = match node.kind {
                    Kind::Particle { col } => 1.0 / w[col + k],
                    Kind::Constraint { .. } => 0.0,
                };
            }
        }
        for i in 0..self.nodes.len() {
            let factor = self.pivots[i].cholesky().ok_or_else(|| self.singular(i))?;
            self.pivots[i] = factor.inverse();
            if let Some((parent, _)) = self.nodes[i].parent {
                let h = self.coupling(i, j);
                self.l[i] = self.pivots[i] * h;
                let term = h.transpose() * self.l[i];
                self.pivots[parent] += term;
            }
        }
        Ok(())
    }
    // ANCHOR_END: factor

    // ANCHOR: solve
    /// Solves H [a; −λ] = [0; rhs] with the factors: up the tree from the leaves
    /// (L z = b), across (y = Δ⁻¹ z), back down from the root (Lᵀ x = y). Writes λ
    /// for every constraint in the tree.
    pub fn solve(&mut self, rhs: &[f64], lambda: &mut [f64]) {
        let sign = |kind: Kind| match kind {
            Kind::Particle { .. } => 1.0,
            Kind::Constraint { .. } => -1.0,
        };
        for (x, node) in self.x.iter_mut().zip(&self.nodes) {
            *x = SVector::zeros();
            node.gather(rhs, x);
        }
        for i in 0..self.nodes.len() {
            if let Some((parent, _)) = self.nodes[i].parent {
                let push =
                    self.l[i].transpose() * self.x[i] * sign(self.nodes[i].kind);
                self.x[parent] -= push;
            }
        }
        for ((x, inverse), node) in
            self.x.iter_mut().zip(&self.pivots).zip(&self.nodes)
        {
            *x = inverse * *x * sign(node.kind);
        }
        for i in (0..self.nodes.len()).rev() {
            if let Some((parent, _)) = self.nodes[i].parent {
                let pull = self.l[i] * self.x[parent] * sign(self.nodes[i].kind);
                self.x[i] -= pull;
            }
        }
        for (x, node) in self.x.iter().zip(&self.nodes) {
            node.scatter(&-x, lambda);
        }
    }
    // ANCHOR_END: solve

    fn singular(&self, i: usize) -> PbmError {
        let what = match self.nodes[i].kind {
            Kind::Particle { col } => format!("the particle at column {col}"),
            Kind::Constraint { row } => format!("the constraint at row {row}"),
        };
        PbmError::degenerate(
            "tree solve",
            format!(
                "{what} has a singular pivot: its constraints' rows are dependent where \
                 the tree meets it, and only CG tolerates redundant constraints"
            ),
        )
    }
}

/// Each node's parent in the walk, with the block of J between them.
type Parents = Vec<Option<(usize, usize)>>;

/// The graph before it is ordered: constraints, free particles, and the blocks of J
/// between them.
struct Graph {
    kinds: Vec<Kind>,
    sizes: Vec<usize>,
    /// For each node, its neighbours with the block of J between them.
    edges: Vec<Vec<(usize, usize)>>,
    /// The constraints tied to the ground: those that hold a single moving particle (a
    /// nail, a wire, a rod to a fixed particle), which would otherwise be childless
    /// leaves with a zero pivot.
    anchored: Vec<usize>,
    /// Each constraint's rows of J, as in [`Node`].
    rows: Vec<[(usize, usize); 2]>,
    /// The block of a second tie merged into a constraint, as in [`Node`].
    second: Vec<Option<usize>>,
}

impl Graph {
    fn new(j: &BlockMatrix, w: &[f64], dim: usize) -> Result<Self, PbmError> {
        let mut graph = Graph {
            kinds: Vec::new(),
            sizes: Vec::new(),
            edges: Vec::new(),
            anchored: Vec::new(),
            rows: Vec::new(),
            second: Vec::new(),
        };
        let mut particle_node = vec![None; j.n_cols / dim.max(1)];
        let mut tie: Vec<Option<usize>> = vec![None; j.n_cols / dim.max(1)];
        let mut start = 0;
        while start < j.blocks.len() {
            let row = j.blocks[start].row;
            let end =
                start + j.blocks[start..].iter().take_while(|b| b.row == row).count();
            let rows = j.blocks[start].rows;
            if rows > dim {
                return Err(PbmError::invalid(
                    "tree solve",
                    format!(
                        "the constraint at row {row} has {rows} rows, more than the {dim} \
                         coordinates of a particle"
                    ),
                ));
            }
            let free: Vec<usize> =
                (start..end).filter(|&b| w[j.blocks[b].col] > 0.0).collect();
            if let [b] = free[..]
                && graph.merge_tie(tie[j.blocks[b].col / dim], (row, rows, b), dim)
            {
                start = end;
                continue;
            }
            if !free.is_empty() {
                let c = graph.add(Kind::Constraint { row }, rows);
                graph.rows[c][0] = (row, rows);
                if free.len() == 1 {
                    graph.anchored.push(c);
                    tie[j.blocks[free[0]].col / dim] = Some(c);
                }
                for b in free {
                    let col = j.blocks[b].col;
                    let p = *particle_node[col / dim].get_or_insert_with(|| {
                        graph.add(Kind::Particle { col }, dim)
                    });
                    graph.edges[c].push((p, b));
                    graph.edges[p].push((c, b));
                }
            }
            start = end;
        }
        Ok(graph)
    }

    fn add(&mut self, kind: Kind, size: usize) -> usize {
        self.kinds.push(kind);
        self.sizes.push(size);
        self.edges.push(Vec::new());
        self.rows.push([(0, 0); 2]);
        self.second.push(None);
        self.kinds.len() - 1
    }

    // ANCHOR: merge_tie
    /// A second tie to the ground on the particle that `first` already ties (a bead on
    /// a line that also hangs by a rod from a hook) joins `first`'s node when their rows
    /// fit in one block: the two ties act as one constraint on one particle, and the
    /// piece stays a tree. Returns whether it was merged.
    fn merge_tie(
        &mut self,
        first: Option<usize>,
        (row, rows, block): (usize, usize, usize),
        dim: usize,
    ) -> bool {
        let Some(c) = first else { return false };
        if self.second[c].is_some() || self.sizes[c] + rows > dim {
            return false;
        }
        self.sizes[c] += rows;
        self.rows[c][1] = (row, rows);
        self.second[c] = Some(block);
        true
    }
    // ANCHOR_END: merge_tie

    // ANCHOR: order
    /// Each piece of the graph is walked breadth first from its tie to the ground (from
    /// any node if it has none), so that every constraint has a child to take its
    /// pivot from; read backwards, the walk puts every node after its children. A
    /// second tie to the ground, or a node met twice, is a loop. Returns the walk and
    /// each node's parent with the block of J between them.
    fn walk(&self) -> Result<(Vec<usize>, Parents), PbmError> {
        let n = self.kinds.len();
        let (mut parent, mut seen) = (vec![None; n], vec![false; n]);
        let (mut walk, mut anchored) = (Vec::with_capacity(n), vec![false; n]);
        for &c in &self.anchored {
            anchored[c] = true;
        }
        for root in self.anchored.iter().copied().chain(0..n) {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            let mut queue = VecDeque::from([root]);
            while let Some(i) = queue.pop_front() {
                walk.push(i);
                for &(next, block) in &self.edges[i] {
                    if parent[i].is_some_and(|(p, _)| p == next) {
                        continue;
                    }
                    if anchored[next] {
                        return Err(self.ground_error(root, next));
                    }
                    if seen[next] {
                        return Err(self.loop_error(root, next));
                    }
                    seen[next] = true;
                    parent[next] = Some((i, block));
                    queue.push_back(next);
                }
            }
        }
        Ok((walk, parent))
    }
    // ANCHOR_END: order

    /// The nodes in elimination order (the walk read backwards), each parent given by
    /// its position in that order.
    fn elimination_order(&self) -> Result<Vec<Node>, PbmError> {
        let (walk, parent) = self.walk()?;
        let mut position = vec![0; walk.len()];
        for (k, &i) in walk.iter().rev().enumerate() {
            position[i] = k;
        }
        Ok(walk
            .iter()
            .rev()
            .map(|&i| Node {
                kind: self.kinds[i],
                size: self.sizes[i],
                parent: parent[i].map(|(p, block)| (position[p], block)),
                rows: self.rows[i],
                second: self.second[i],
            })
            .collect())
    }

    fn name(&self, i: usize) -> String {
        match self.kinds[i] {
            Kind::Particle { col } => format!("the particle at column {col}"),
            Kind::Constraint { row } => format!("the constraint at row {row}"),
        }
    }

    fn ground_error(&self, first: usize, second: usize) -> PbmError {
        PbmError::invalid(
            "tree solve",
            format!(
                "{} and {} each tie the same piece to the ground (each holds a single \
                 moving particle): a loop through the ground; the linear-time solve needs \
                 a tree, so use CG",
                self.name(first),
                self.name(second)
            ),
        )
    }

    fn loop_error(&self, root: usize, met: usize) -> PbmError {
        let name = |i: usize| self.name(i);
        PbmError::invalid(
            "tree solve",
            format!(
                "the constraints form a loop: walking from {}, the tree solve met {} a \
                 second time; the linear-time solve needs a tree, so use CG",
                name(root),
                name(met)
            ),
        )
    }
}

/// The blocks an elimination in the order 0, 1, … n − 1 would fill in, for a graph of
/// `n` nodes with `edges`: eliminating a node couples every pair of its neighbours not
/// yet eliminated. A tree eliminated leaves first fills in nothing.
pub fn fill_in(n: usize, edges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut neighbours = vec![std::collections::BTreeSet::new(); n];
    for &(a, b) in edges {
        neighbours[a].insert(b);
        neighbours[b].insert(a);
    }
    let mut fill = Vec::new();
    for v in 0..n {
        let later: Vec<usize> = neighbours[v].range(v + 1..).copied().collect();
        for (k, &a) in later.iter().enumerate() {
            for &b in &later[k + 1..] {
                if neighbours[a].insert(b) {
                    neighbours[b].insert(a);
                    fill.push((a, b));
                }
            }
        }
    }
    fill
}
