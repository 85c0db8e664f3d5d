//! The per-dialect test fixtures (tests/common/dialects) grow with the providers: every
//! [`Dialect`] has exactly one, listed in [`Dialect::ALL`]'s order, each names an SDK the venv
//! pins, and the scripts under tests/sdk it names know it.

use std::collections::HashSet;

use toolnexus::Dialect;

use crate::common::dialects::{self, ALL};
use crate::common::root;

#[test]
fn every_dialect_has_one_fixture_in_the_order_of_dialect_all() {
    let fixtures: Vec<Dialect> = ALL.iter().map(|f| f.dialect()).collect();
    assert_eq!(
        fixtures,
        Dialect::ALL,
        "tests/common/dialects/mod.rs lists one fixture per dialect, in `Dialect::ALL`'s order"
    );
    for dialect in Dialect::ALL {
        assert_eq!(dialects::of(dialect).dialect(), dialect);
    }
}

#[test]
fn every_fixture_names_a_pinned_sdk_under_its_own_key() {
    let pins = std::fs::read_to_string(root().join("scripts/requirements-sdk.txt")).unwrap();
    let pinned: HashSet<&str> = pins
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once("=="))
        .map(|(package, _)| package.trim())
        .collect();
    let mut keys = HashSet::new();
    for fixture in ALL {
        let sdk = fixture.sdk();
        assert!(
            pinned.contains(sdk.package),
            "{:?}: `{}` is not pinned in scripts/requirements-sdk.txt",
            fixture.dialect(),
            sdk.package
        );
        assert!(
            keys.insert(sdk.key),
            "two fixtures share the key {}",
            sdk.key
        );
    }
}

/// The scripts under tests/sdk that read each dialect they judge under its `Sdk::key`.
const SHARED_SCRIPTS: [&str; 5] = [
    "validate_messages.py",
    "validate_answers.py",
    "validate_choices.py",
    "validate_user_messages.py",
    "stream_accumulate.py",
];

#[test]
fn every_fixture_is_judged_by_scripts_that_know_it() {
    for fixture in ALL {
        let sdk = fixture.sdk();
        if let Some(script) = sdk.bodies {
            assert!(
                root().join(script).is_file(),
                "{:?}: no {script}",
                fixture.dialect()
            );
        }
        if sdk.shared {
            for script in SHARED_SCRIPTS {
                let text = std::fs::read_to_string(root().join("tests/sdk").join(script)).unwrap();
                assert!(
                    text.contains(&format!("\"{}\"", sdk.key)),
                    "tests/sdk/{script} does not read `{}`: teach it the dialect, or say \
                     `shared: false` and name a script for its whole bodies",
                    sdk.key
                );
            }
        } else {
            assert!(
                sdk.bodies.is_some(),
                "{:?}: a dialect the shared scripts do not judge needs a script of its own",
                fixture.dialect()
            );
        }
    }
}
