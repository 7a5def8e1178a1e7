//! The one reference loop of the valve-spring and valvetrain kinds: a
//! case's references (the fine NCP run, and one converged run per penalty
//! model, shared by the methods of that model whatever their integrator)
//! and the grading of each method like for like (its discretisation error
//! against its own model converged, its error against the NCP run, the
//! model gap), from [`super::seat_force`]'s measures. A kind says what its
//! methods are and how a reference is run ([`LikeForLike`]); the loops are
//! here.

use crate::error::SolverError;
use crate::harness::checks::curve_difference;
use crate::harness::study::{CaseTable, MethodResult, ReferenceOutput, Scalar};
use crate::harness::table::Table;
use crate::integrators::bdf_contact::ContactModel;
use crate::studies::shared::seat_force::{
    WindowMeasure, like_for_like_errors, own_reference, penalty_reference_name,
};

/// One method as the grading sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Graded<'a> {
    /// Its label.
    pub label: &'a str,
    /// Its contact model.
    pub contact: ContactModel,
    /// What else makes its model (the valvetrain's spring model), as
    /// text; empty when the contact model is the whole of it.
    pub model: String,
}

/// What a kind tells the reference loop.
pub trait LikeForLike {
    /// The case's methods, in order.
    fn graded(&self) -> Vec<Graded<'_>>;
    /// The fine NCP reference at step `dt` and the words for it.
    fn ncp_reference(&self, dt: f64) -> Result<(Table, String), String>;
    /// Method `i`'s penalty model converged at `tolerance`, and the words.
    fn penalty_reference(&self, i: usize, tolerance: f64) -> Result<(Table, String), String>;
    /// The window-mean error's column and windows.
    fn measure(&self) -> WindowMeasure<'_>;
    /// The series column compared point by point (the max over the output
    /// intervals' means), if the kind reports that error.
    fn pointwise_column(&self) -> Option<&str> {
        None
    }
}

/// The label whose converged reference method `label` is measured
/// against: the first penalty method of the same model (one converged
/// reference per model, shared by its integrators), else itself.
pub fn reference_owner(graded: &[Graded], label: &str) -> String {
    let Some(m) = graded.iter().find(|m| m.label == label) else {
        return label.to_string();
    };
    graded
        .iter()
        .find(|o| {
            matches!(o.contact, ContactModel::Penalty { .. })
                && o.contact == m.contact
                && o.model == m.model
        })
        .map_or(label, |o| o.label)
        .to_string()
}

/// The reference tables of a case: `reference` (the fine NCP run at `dt`)
/// and `reference-<label>` for each penalty model, owned by its first
/// method, converged at `tolerance`.
pub fn reference_tables<K: LikeForLike>(
    case: &K,
    dt: f64,
    tolerance: f64,
) -> Result<Vec<CaseTable>, String> {
    let (table, doc) = case.ncp_reference(dt)?;
    let mut tables = vec![CaseTable {
        what: "reference".into(),
        doc,
        table,
    }];
    let graded = case.graded();
    for (i, m) in graded.iter().enumerate() {
        if !matches!(m.contact, ContactModel::Penalty { .. })
            || reference_owner(&graded, m.label) != m.label
        {
            continue;
        }
        let (table, doc) = case.penalty_reference(i, tolerance)?;
        tables.push(CaseTable {
            what: penalty_reference_name(m.label),
            doc,
            table,
        });
    }
    Ok(tables)
}

/// Grades every method of the case like for like against `reference`
/// (nothing without its `reference` table): the pointwise error where the
/// kind reports it, then the window-mean errors.
pub fn grade<K: LikeForLike>(
    case: &K,
    reference: Option<&ReferenceOutput>,
    methods: &mut [MethodResult],
) -> Result<(), SolverError> {
    let Some(r) = reference else { return Ok(()) };
    let Some(ncp) = r.table("reference").map(|t| &t.table) else {
        return Ok(());
    };
    let graded = case.graded();
    let measure = case.measure();
    for (m, config) in methods.iter_mut().zip(&graded) {
        let label = m.plan.label.clone();
        let Ok(run) = &mut m.outcome else { continue };
        let own_label = reference_owner(&graded, &label);
        let Some((own, own_doc)) = own_reference(&own_label, config.contact, ncp, r) else {
            continue;
        };
        if let Some(column) = case.pointwise_column() {
            let d = curve_difference(&run.output.series, own, column, None).map_err(|message| {
                SolverError::other(
                    label.clone(),
                    format!("comparing with the reference: {message}"),
                )
            })?;
            run.output.scalars.push(Scalar::new(
                format!("pointwise_error_{column}"),
                d.max_abs,
                format!(
                    "max |{} - {own_doc}| over the output intervals' means [N]",
                    measure.quantity
                ),
            ));
        }
        let errors = like_for_like_errors(
            &run.output.series,
            (own, own_doc),
            ncp,
            config.contact,
            &measure,
        );
        run.output.scalars.extend(errors);
    }
    Ok(())
}
