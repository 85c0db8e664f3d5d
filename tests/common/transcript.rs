//! Conversations for the transcript suites (issue 41): a history each dialect's own toolkit
//! writes, turn by turn, and what it says, which any move between dialects must keep.

use serde_json::{json, Value};
use toolnexus::{NativeTool, Toolkit};

use super::dialects::Fixture;
use super::generate::{calls, Rng};

pub const TOOLS: [&str; 3] = ["lookup", "write_note", "fail"];

/// `lookup` and `write_note` answer with their arguments; `fail` fails.
pub fn toolkit() -> Toolkit {
    let mut toolkit = Toolkit::new();
    for name in TOOLS {
        let tool = NativeTool::of(
            name,
            "Test tool",
            json!({"type": "object"}),
            move |args: Value| async move {
                if name == "fail" {
                    Err(format!("fail: {}", args["i"]))
                } else {
                    Ok(format!("{name} {args}"))
                }
            },
        )
        .unwrap();
        toolkit.add(tool).unwrap();
    }
    toolkit
}

/// What a conversation should still say after any move.
#[derive(Debug, Default, PartialEq)]
pub struct Said {
    pub user: Vec<String>,
    pub model: Vec<String>,
    /// Each call's name and arguments, in order.
    pub calls: Vec<(String, Value)>,
    /// Each result's text and error flag, in call order.
    pub results: Vec<(String, bool)>,
}

/// A conversation of `turns` turns in `fixture`'s dialect, as its toolkit writes it, and what
/// it says.
pub async fn conversation(
    fixture: &dyn Fixture,
    rng: &mut Rng,
    turns: usize,
) -> (Vec<Value>, Said) {
    let dialect = fixture.dialect();
    let toolkit = toolkit();
    let mut history = Vec::new();
    let mut said = Said::default();
    let mut call_number = 0;
    for turn in 0..turns {
        let question = format!("question {turn} «{}»", rng.below(100));
        history.push(dialect.user_message(&question));
        said.user.push(question);
        let count = rng.below(4);
        let response = if count == 0 {
            fixture.text_only(&format!("answer {turn}"))
        } else {
            let mut made = calls(rng, count, &TOOLS);
            for call in &mut made {
                call.id = format!("call_{call_number}");
                call_number += 1;
                said.calls.push((call.name.clone(), call.arguments.clone()));
            }
            fixture.response(&made)
        };
        let turn = toolkit.respond(&response, dialect).await.unwrap();
        let text = turn.text();
        if !text.is_empty() {
            said.model.push(text);
        }
        for result in &turn.results {
            said.results.push((result.output.clone(), result.is_error));
        }
        history.extend(turn.into_messages());
    }
    (history, said)
}

/// A transcript whose first message is a user's question with media of every kind: images a
/// few dialects take and one they do not, a PDF, a spreadsheet, audio, and a zip archive no
/// dialect takes in a user message.
pub fn with_user_media() -> toolnexus::transcript::Transcript {
    use toolnexus::transcript::{Message, Transcript};
    use toolnexus::Media;
    let media = vec![
        Media::image("image/png", b"\x89PNG\r\n".to_vec()),
        Media::image("image/gif", b"GIF89a".to_vec()),
        Media::file("application/pdf", b"%PDF-1.4".to_vec(), "report.pdf"),
        Media::file("text/csv", b"a,b\n1,2\n".to_vec(), "table.csv"),
        Media::audio("audio/wav", b"RIFF".to_vec()),
        Media::file("application/zip", b"PK\x03\x04".to_vec(), "data.zip"),
    ];
    let mut transcript = Transcript::new();
    transcript.messages = vec![
        Message::User {
            text: "What is in these?".into(),
            media,
        },
        Message::Assistant {
            parts: vec![toolnexus::transcript::Part::Text {
                text: "A picture, a report, a table, a sound and an archive.".into(),
            }],
            native: None,
        },
    ];
    transcript
}
