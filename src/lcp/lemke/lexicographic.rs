//! The lexicographic rule of the ratio test: among tied leaving candidates,
//! the lexicographic minimum of (row of B^-1) / t (the perturbation
//! q + (eps, eps^2, ..) of the module doc), which excludes cycling.

use super::{Basis, Leaving, NONE};

impl Basis<'_> {
    /// Among the tied candidates, the lexicographic minimum of
    /// (row of B^-1) / t, columns in the original row order.
    ///
    /// Row r of B^-1 for a slack candidate is [-A_rS H, e_r] (zero in the
    /// columns of rows outside R but its own), for a structural candidate at
    /// position p it is row p of H. The rows are never formed whole: the
    /// columns are visited in blocks of up to `lex_block` columns of H, and
    /// the block's entries for all surviving slack candidates come from one
    /// matrix product C_alive H_block (faer), C = the rows A_rS. A tie
    /// usually ends long before all n columns are seen.
    pub(super) fn lexicographic_choice(&mut self) -> Leaving {
        let (n, k) = (self.n, self.k);
        // Each surviving candidate with its slot in this block's product.
        let mut alive: Vec<(Leaving, usize)> = Vec::with_capacity(self.ties.len());
        let mut coefs = std::mem::take(&mut self.lex_rows);
        coefs.clear();
        for &cand in &self.ties {
            alive.push((cand, coefs.len() / k.max(1)));
            if let Leaving::Slack(r) = cand {
                coefs.extend(self.s_var[..k].iter().map(|&var| -self.mcol(var)[r]));
            }
        }
        let mut panel = std::mem::take(&mut self.lex_panel);
        let mut products = std::mem::take(&mut self.lex_products);
        let mut block: Vec<usize> = Vec::with_capacity(self.lex_block);
        let mut values = vec![0.0; alive.len()];
        let mut col = 0;
        'columns: while col < n && alive.len() > 1 {
            // The next columns up to LEX_BLOCK columns of H.
            let start = col;
            block.clear();
            let mut end = col;
            while end < n && block.len() < self.lex_block {
                if self.row_at[end] != NONE {
                    block.push(self.row_at[end]);
                }
                end += 1;
            }
            let nb = block.len();
            // C for the surviving slack candidates (row-major, one row
            // each), compacted to the front: rows only move down.
            let mut slacks = 0;
            for (cand, cand_slot) in alive.iter_mut() {
                if matches!(cand, Leaving::Slack(_)) {
                    if *cand_slot != slacks {
                        coefs.copy_within(*cand_slot * k..(*cand_slot + 1) * k, slacks * k);
                    }
                    *cand_slot = slacks;
                    slacks += 1;
                }
            }
            // The block of H (k x nb, column-major) and C times it.
            panel.resize(k * nb, 0.0);
            for (b, &q) in block.iter().enumerate() {
                for p in 0..k {
                    panel[b * k + p] = self.h[p * n + q];
                }
            }
            products.resize(slacks * nb, 0.0);
            if slacks > 0 && nb > 0 {
                faer::linalg::matmul::matmul(
                    faer::MatMut::from_column_major_slice_mut(&mut products, slacks, nb),
                    faer::Accum::Replace,
                    faer::MatRef::from_row_major_slice(&coefs[..slacks * k], slacks, k),
                    faer::MatRef::from_column_major_slice(&panel, k, nb),
                    -1.0,
                    faer::Par::Seq,
                );
            }
            // Scan the columns of the block in order.
            let mut b = 0;
            for c in start..end {
                if alive.len() == 1 {
                    break;
                }
                let in_r = self.row_at[c] != NONE;
                if !in_r {
                    // Outside R every candidate's entry is 0 but that of the
                    // slack of row c, 1 / t_c > 0: the minimum is 0 and that
                    // slack (if tied) leaves the tie unless 1 / t_c is
                    // within the tolerance at 0. The candidates stay in
                    // their order (structural by position, then slacks by
                    // row), so it is found by bisection.
                    let key = |cand: &Leaving| match *cand {
                        Leaving::Structural(p) => (0, p),
                        Leaving::Slack(r) => (1, r),
                    };
                    if let Ok(i) = alive.binary_search_by(|(cand, _)| key(cand).cmp(&(1, c)))
                        && 1.0 / self.tw[c] > 1e-11
                    {
                        alive.remove(i);
                    }
                    continue;
                }
                // Column c is in R: the entries come from the block's
                // product (a slack candidate's own column is never in R).
                for (value, &(cand, slot)) in values.iter_mut().zip(&alive) {
                    *value = match cand {
                        Leaving::Structural(p) => panel[b * k + p] / self.ts[p],
                        Leaving::Slack(r) => products[b * slacks + slot] / self.tw[r],
                    };
                }
                b += 1;
                let best = values[..alive.len()]
                    .iter()
                    .copied()
                    .fold(f64::INFINITY, f64::min);
                if !best.is_finite() {
                    // Only with non-finite entries: keep the ties as they are.
                    break 'columns;
                }
                let tol = 1e-11 * (1.0 + best.abs());
                let mut i = 0;
                alive.retain(|_| {
                    let keep = values[i] <= best + tol;
                    i += 1;
                    keep
                });
            }
            col = end;
        }
        self.lex_rows = coefs;
        self.lex_panel = panel;
        self.lex_products = products;
        // Never empty: a finite minimum always survives its own test.
        alive.first().map_or(self.ties[0], |&(c, _)| c)
    }
}
