//! A response read as the wrong dialect (issue 41's bad input): each provider's response, read
//! as each other dialect, is refused naming the dialect it looks like, and nothing runs.

use serde_json::json;
use toolnexus::{Dialect, ResponseError, Toolkit};

use crate::common::dialects::{self, Call};

#[tokio::test]
async fn each_response_read_as_another_dialect_names_the_one_it_looks_like() {
    let toolkit = Toolkit::new();
    for sent in Dialect::ALL {
        let response = dialects::of(sent).response(&[Call::new("call_1", "ping", json!({}))]);
        for read_as in Dialect::ALL.into_iter().filter(|d| *d != sent) {
            let err = toolkit.respond(&response, read_as).await.unwrap_err();
            match &err {
                ResponseError::OtherDialect {
                    dialect,
                    looks_like,
                    ..
                } => {
                    assert_eq!((*dialect, *looks_like), (read_as, sent), "{err}");
                }
                other => panic!("{sent} read as {read_as}: {other}"),
            }
        }
    }
    let gemini = dialects::of(Dialect::Gemini).response(&[]);
    let err = toolkit
        .respond(&gemini, Dialect::Anthropic)
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "this looks like a Gemini generateContent response, not one of Anthropic Messages (read \
         it with `Dialect::Gemini`, or send the request to the API you read it as)"
    );
}
