use super::*;

fn study(sweeps: &str) -> Result<StudySpec, InputError> {
    let text = format!(
        "[[study]]\nname = \"s\"\nkind = \"gap-system\"\n[study.integrator]\ndt = 0.1\n{sweeps}"
    );
    let table: toml::Table = toml::from_str(&text).expect("toml");
    let schema: FileSchema =
        deserialize_at(Path::new("s.toml"), None, "", toml::Value::Table(table)).expect("schema");
    parse_study(
        Path::new("s.toml"),
        &gap_system_only(),
        schema.study.into_iter().next().expect("study"),
    )
}

/// The kind names of a registry of one kind, `gap-system` (parsing only
/// checks the name).
fn gap_system_only() -> Vec<&'static str> {
    vec!["gap-system"]
}

/// Crossed sweeps give the product; a zipped sweep pairs value by value
/// with the sweep it names, and both coordinates are recorded.
#[test]
fn sweeps_cross_or_zip() {
    let crossed = study(
        "[[study.sweep]]\nkey = \"integrator.dt\"\nvalues = [0.1, 0.2]\n\
         [[study.sweep]]\nkey = \"integrator.t_end\"\nvalues = [1.0, 2.0, 3.0]\n",
    )
    .expect("valid");
    assert_eq!(crossed.cases.len(), 6);
    let zipped = study(
        "[[study.sweep]]\nkey = \"integrator.dt\"\nvalues = [0.1, 0.2]\n\
         [[study.sweep]]\nkey = \"integrator.t_end\"\nzip = \"integrator.dt\"\nvalues = [1.0, 2.0]\n\
         [[study.sweep]]\nkey = \"excitation.omega\"\nlabel = \"w\"\nvalues = [5.0, 6.0, 7.0]\n",
    )
    .expect("valid");
    let names: Vec<&str> = zipped.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "dt-0.1_t_end-1_w-5",
            "dt-0.1_t_end-1_w-6",
            "dt-0.1_t_end-1_w-7",
            "dt-0.2_t_end-2_w-5",
            "dt-0.2_t_end-2_w-6",
            "dt-0.2_t_end-2_w-7"
        ]
    );
    let c = &zipped.cases[4];
    assert_eq!(c.coords.len(), 3);
    assert_eq!(c.coords[1].number(), Some(2.0));
    assert_eq!(
        c.table["integrator"].as_table().expect("table")["t_end"],
        toml::Value::Float(2.0)
    );
}

#[test]
fn a_zip_needs_an_earlier_sweep_with_as_many_values() {
    let err = study(
        "[[study.sweep]]\nkey = \"integrator.dt\"\nvalues = [0.1, 0.2]\n\
         [[study.sweep]]\nkey = \"integrator.t_end\"\nzip = \"integrator.dt\"\nvalues = [1.0]\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("study.sweep[1].values") && err.contains("as many values"),
        "{err}"
    );
    let err = study(
        "[[study.sweep]]\nkey = \"integrator.t_end\"\nzip = \"integrator.dt\"\nvalues = [1.0]\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("study.sweep[0].zip") && err.contains("earlier sweep"),
        "{err}"
    );
    let err = study(
        "[[study.sweep]]\nkey = \"integrator.dt\"\nvalues = [0.1]\n\
         [[study.sweep]]\nkey = \"integrator.dt\"\nvalues = [0.2]\n",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("study.sweep[1].key"), "{err}");
}

/// The study table's own keys: a missing name or kind, and a name, kind
/// or description that is not a string, are refused with the key and what
/// is allowed.
#[test]
fn the_study_keys_are_required_strings() {
    let parse = |text: &str| {
        let table: toml::Table = toml::from_str(text).expect("toml");
        parse_study(Path::new("s.toml"), &gap_system_only(), table)
            .expect_err("refused")
            .to_string()
    };
    let cases = [
        (
            "kind = \"gap-system\"",
            "key `study.name`: missing: every study needs a name",
        ),
        (
            "name = 3\nkind = \"gap-system\"",
            "key `study.name` = 3: a string",
        ),
        (
            "name = \"s\"",
            "key `study.kind`: missing: one of \"gap-system\"",
        ),
        ("name = \"s\"\nkind = 4", "key `study.kind` = 4: a string"),
        (
            "name = \"s\"\nkind = \"gap-system\"\ndescription = 5",
            "key `study.description` = 5: a string",
        ),
    ];
    for (text, expected) in cases {
        let message = parse(text);
        assert!(message.contains(expected), "{text:?}: {message}");
    }
}
