//! Spec tables and summaries that more than one kind takes: a kind imports
//! these, never another kind. [`friction`]: the `[friction]` table (a law
//! and its parameters); [`figures`]: the cost-against-regularisation figure
//! of the kinds with regularised laws.

pub(crate) mod figures;
pub(crate) mod friction;
pub(crate) mod friction_method;
