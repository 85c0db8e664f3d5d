//! Call ids moved to another dialect (issue 41, first slice): whatever ids a source sends (none,
//! empty, reused, too long, any characters, Kimi's `functions.name:0`), every call gets an id
//! the target's API takes, no two calls the same one, each result the id of the latest call
//! that sent its id, and the same conversation always the same ids. An id the target takes and
//! no earlier call has stays as it was.

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use toolnexus::transcript::IdMap;
use toolnexus::Dialect;

/// An id as a source may send one.
fn source_id() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some(String::new())),
        "call_[0-3]".prop_map(Some),
        "toolu_[A-Za-z0-9]{1,30}".prop_map(Some),
        "functions\\.[a-z_]{1,12}:[0-9]".prop_map(Some),
        "[a-z]{30,90}".prop_map(Some),
        ".{1,50}".prop_map(Some),
        "[a-z._:-]{1,8}".prop_map(Some),
    ]
}

fn name() -> impl Strategy<Value = String> {
    "[a-z][a-z_]{0,63}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_call_gets_a_distinct_id_its_target_takes(
        calls in prop::collection::vec((source_id(), name()), 1..40),
    ) {
        for dialect in Dialect::ALL {
            let rule = dialect.id_rule();
            let mut ids = IdMap::new(rule);
            let mut again = IdMap::new(rule);
            let mut given = HashSet::new();
            let mut latest: HashMap<String, String> = HashMap::new();
            for (source, name) in &calls {
                let id = ids.call(source.as_deref(), name);
                prop_assert!(rule.accepts(&id), "{dialect:?}: {id:?} from {source:?}");
                prop_assert!(given.insert(id.clone()), "{dialect:?}: {id:?} given twice");
                // Deterministic: another map fed the same calls gives the same ids.
                prop_assert_eq!(&again.call(source.as_deref(), name), &id);
                if let Some(source) = source.as_deref().filter(|s| !s.is_empty()) {
                    // Kept when the target takes it and nothing had it before.
                    if rule.accepts(source) && !given_before(&given, &id, source) {
                        prop_assert_eq!(&id, source);
                    }
                    latest.insert(source.to_owned(), id.clone());
                }
            }
            for (source, id) in &latest {
                prop_assert_eq!(ids.result(source), Some(id.as_str()));
            }
        }
    }
}

/// Whether `source` was given to an earlier call than the one that got `id`.
fn given_before(given: &HashSet<String>, id: &str, source: &str) -> bool {
    id != source && given.contains(source)
}

#[test]
fn a_result_for_an_id_no_call_sent_has_none() {
    let mut ids = IdMap::new(Dialect::Anthropic.id_rule());
    ids.call(Some("toolu_1"), "search");
    assert_eq!(ids.result("toolu_2"), None);
}

#[test]
fn each_dialect_has_the_documented_rule() {
    let long = |n: usize| "a".repeat(n);
    let accepts = |d: Dialect, id: &str| d.id_rule().accepts(id);
    assert!(accepts(Dialect::OpenAiChat, &long(40)) && !accepts(Dialect::OpenAiChat, &long(41)));
    assert!(accepts(Dialect::OpenAiChat, "call.1:é"));
    for d in [Dialect::Anthropic, Dialect::Bedrock] {
        assert!(accepts(d, &long(64)) && !accepts(d, &long(65)), "{d:?}");
        assert!(accepts(d, "toolu_01-A") && !accepts(d, "a b"), "{d:?}");
    }
    assert!(!accepts(Dialect::Anthropic, "functions.get:0"));
    assert!(accepts(Dialect::Bedrock, "functions.get:0"));
    for d in [Dialect::OpenAiResponses, Dialect::Gemini, Dialect::Cohere] {
        assert!(accepts(d, &long(500)) && accepts(d, "any id: é"), "{d:?}");
        assert!(!accepts(d, ""), "{d:?}");
    }
}
