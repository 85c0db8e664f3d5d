//! The per-dialect test fixtures (tests/common/dialects) grow with the providers: every
//! [`Dialect`] has exactly one, listed in [`Dialect::ALL`]'s order, and each names an SDK the
//! venv pins.

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
