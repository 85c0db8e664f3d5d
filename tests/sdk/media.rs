//! Tool results beyond text (issue 15, SPEC §8): images and files next to a result's text, as
//! each dialect's official SDK types describe them, bounded by `Limits`, with MIME types each
//! provider accepts; text-only results unchanged.

/// Acceptance 3: `examples/media.rs`, a `#[tool]` returning a PNG made in code, printing the
/// Anthropic and Gemini next requests.
#[path = "../../examples/media.rs"]
mod media_example;

use std::path::Path;
use std::process::Command;

use media_example::png;
use serde_json::{json, Value};
use toolnexus::{
    tool, Arguments, Dialect, IntoToolResult, Limits, Media, ToolCall, ToolResult, Toolkit,
};

use crate::common::dialects::{self, Call};
use crate::venv::Turns;

/// A bar chart of `bars` bars, as a PNG.
#[tool]
async fn chart(
    /// How many bars.
    bars: u8,
) -> ToolResult {
    ToolResult::ok(format!("a chart of {bars} bars")).with_image("image/png", chart_png(bars))
}

fn chart_png(bars: u8) -> Vec<u8> {
    png(u32::from(bars.max(1)) * 2, 4, |x, y| {
        if y >= 4 - (x / 2 % 4) {
            [40, 90, 200]
        } else {
            [255, 255, 255]
        }
    })
}

/// Adds two integers.
#[tool]
fn add(
    /// First.
    a: i64,
    /// Second.
    b: i64,
) -> String {
    (a + b).to_string()
}

/// A one-page report as a PDF.
#[tool]
fn report() -> ToolResult {
    ToolResult::ok("the report").with_file("application/pdf", PDF.to_vec(), "report.pdf")
}

/// A screenshot, returned as media alone.
#[tool]
fn screenshot() -> Media {
    Media::image("image/png", png(1, 1, |_, _| [0, 0, 0]))
}

/// A screenshot that may fail.
#[tool]
fn maybe_screenshot(
    /// Fail instead.
    fail: bool,
) -> Result<Media, String> {
    if fail {
        Err("the browser is closed".into())
    } else {
        Ok(Media::image("image/png", png(1, 1, |_, _| [9, 9, 9])))
    }
}

/// An image in a format no provider takes.
#[tool]
fn bitmap() -> ToolResult {
    ToolResult::ok("a bitmap").with_image("image/bmp", b"BM\0\0".to_vec())
}

const PDF: &[u8] = b"%PDF-1.1\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n";

fn toolkit() -> Toolkit {
    Toolkit::new()
        .with(Chart)
        .unwrap()
        .with(Add)
        .unwrap()
        .with(Report)
        .unwrap()
        .with(Screenshot)
        .unwrap()
        .with(MaybeScreenshot)
        .unwrap()
        .with(Bitmap)
        .unwrap()
}

/// `calls` as a response of `dialect`: (id, name, arguments object).
fn response(dialect: Dialect, calls: &[(&str, &str, Value)]) -> Value {
    let calls: Vec<Call> = calls
        .iter()
        .map(|(id, name, args)| Call::new(*id, *name, args.clone()))
        .collect();
    dialects::of(dialect).response(&calls)
}

/// The ids each result message answers, in order (a Chat user message answers none).
fn answered_ids(dialect: Dialect, messages: &[Value]) -> Vec<String> {
    dialects::of(dialect)
        .answered(messages)
        .into_iter()
        .map(|id| id.expect("every result names its call"))
        .collect()
}

/// Acceptance 1: a turn where one tool returns text and a PNG and another text only gives a next
/// request the official SDK types accept, every call answered once and in order; so does a
/// turn with a PDF and one whose media alone make the result.
#[tokio::test]
async fn a_turn_with_an_image_is_accepted_by_every_official_sdk() {
    let toolkit = toolkit();
    let mut turns = Turns::default();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let cases: [&[(&str, &str, Value)]; 3] = [
            &[
                ("call_png", "chart", json!({"bars": 3})),
                ("call_txt", "add", json!({"a": 2, "b": 3})),
            ],
            &[
                ("call_pdf", "report", json!({})),
                ("call_bare", "screenshot", json!({})),
                ("call_ok", "maybe_screenshot", json!({"fail": false})),
                ("call_err", "maybe_screenshot", json!({"fail": true})),
            ],
            &[
                ("call_bmp", "bitmap", json!({})),
                ("call_png2", "chart", json!({"bars": 1})),
            ],
        ];
        for calls in cases {
            let response = response(dialect, calls);
            let turn = toolkit.respond(&response, dialect).await.unwrap();
            let expected: Vec<&str> = calls.iter().map(|c| c.0).collect();
            assert_eq!(
                answered_ids(dialect, &turn.result_messages),
                expected,
                "{dialect:?}"
            );
            assert_eq!(turn.results.len(), calls.len());
            turns.add(fixture, turn.into_messages(), &toolkit);
        }
    }
    turns.assert_accepted("media");
}

/// The validator itself refuses media the providers would: bad base64, a type outside the
/// SDK's literals, a Chat user message not after tool messages, a file without its name.
#[test]
fn the_validator_refuses_media_the_providers_would() {
    let wrong = json!({
        "openai_chat": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,!!"}}]}],
        "openai_responses": [{"type": "function_call_output", "call_id": "c", "output": [
            {"type": "input_file", "file_data": "data:application/pdf;base64,JVBERi0="}]}],
        "anthropic": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t",
            "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/bmp",
                "data": "Qk0="}}]}]}],
        "gemini": [{"role": "user", "parts": [{"functionResponse": {"name": "a",
            "response": {"output": "x"},
            "parts": [{"inlineData": {"mimeType": "image/png", "data": "!!"}}]}}]}],
        "cohere": [{"role": "tool", "tool_call_id": "c", "content": [
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AQID"}}]}],
    });
    let Some((ok, report)) = crate::venv::validate_messages(&wrong, "media_wrong_messages.json")
    else {
        return;
    };
    assert!(!ok, "{report}");
    for expected in [
        "openai_chat[0]: a user message must follow the turn's tool messages",
        "openai_chat[0].content[0]: not standard base64",
        "openai_responses[0].output[0]: a file sent as `file_data` needs a `filename`",
        "anthropic[0].content[0].content[0]: not a valid ImageBlockParam",
        "gemini[0]: not a valid google.genai Content",
        "cohere[0]: ",
    ] {
        assert!(
            report.contains(expected),
            "missing {expected:?} in:\n{report}"
        );
    }
}

fn b64(bytes: &[u8]) -> String {
    // Independent of the crate's encoder: the textbook algorithm.
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

async fn render(dialect: Dialect, calls: &[(&str, &str, Value)]) -> Vec<Value> {
    toolkit()
        .respond(&response(dialect, calls), dialect)
        .await
        .unwrap()
        .result_messages
}

/// Each dialect's exact shape for text + PNG next to a text-only result.
#[tokio::test]
async fn each_dialect_renders_media_as_its_sdk_types_describe() {
    let calls = [
        ("call_png", "chart", json!({"bars": 2})),
        ("call_txt", "add", json!({"a": 2, "b": 3})),
    ];
    let data = b64(&chart_png(2));
    let url = format!("data:image/png;base64,{data}");

    assert_eq!(
        render(Dialect::Anthropic, &calls).await,
        [json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "call_png", "content": [
                {"type": "text", "text": "a chart of 2 bars"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}]},
            {"type": "tool_result", "tool_use_id": "call_txt", "content": "5"}]})]
    );
    assert_eq!(
        render(Dialect::OpenAiResponses, &calls).await,
        [
            json!({"type": "function_call_output", "call_id": "call_png", "output": [
                {"type": "input_text", "text": "a chart of 2 bars"},
                {"type": "input_image", "image_url": url}]}),
            json!({"type": "function_call_output", "call_id": "call_txt", "output": "5"}),
        ]
    );
    assert_eq!(
        render(Dialect::Gemini, &calls).await,
        [json!({"role": "user", "parts": [
            {"functionResponse": {"name": "chart", "id": "call_png",
                "response": {"output": "a chart of 2 bars"},
                "parts": [{"inlineData": {"mimeType": "image/png", "data": data}}]}},
            {"functionResponse": {"name": "add", "id": "call_txt", "response": {"output": "5"}}}]})]
    );
    // Chat: the text in the tool message, the images in ONE user message after the tool messages.
    assert_eq!(
        render(Dialect::OpenAiChat, &calls).await,
        [
            json!({"role": "tool", "tool_call_id": "call_png", "content": "a chart of 2 bars"}),
            json!({"role": "tool", "tool_call_id": "call_txt", "content": "5"}),
            json!({"role": "user", "content": [
                {"type": "text", "text": "The result of tool call `call_png` (`chart`) includes this image:"},
                {"type": "image_url", "image_url": {"url": url}}]}),
        ]
    );
}

/// Files: Anthropic `document` blocks with a `title`, Responses `input_file` with `filename`,
/// Gemini `inlineData` with `displayName`; OpenAI Chat cannot take a file there, so the user
/// message names it in a text note.
#[tokio::test]
async fn files_are_documents_and_a_note_in_chat() {
    let calls = [("call_pdf", "report", json!({}))];
    let data = b64(PDF);
    let anthropic = render(Dialect::Anthropic, &calls).await;
    assert_eq!(
        anthropic[0]["content"][0]["content"][1],
        json!({"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
            "data": data}, "title": "report.pdf"})
    );
    let responses = render(Dialect::OpenAiResponses, &calls).await;
    assert_eq!(
        responses[0]["output"][1],
        json!({"type": "input_file", "filename": "report.pdf",
            "file_data": format!("data:application/pdf;base64,{data}")})
    );
    let gemini = render(Dialect::Gemini, &calls).await;
    assert_eq!(
        gemini[0]["parts"][0]["functionResponse"]["parts"],
        json!([{"inlineData": {"mimeType": "application/pdf", "data": data,
            "displayName": "report.pdf"}}])
    );
    let chat = render(Dialect::OpenAiChat, &calls).await;
    assert_eq!(
        chat,
        [
            json!({"role": "tool", "tool_call_id": "call_pdf", "content": "the report"}),
            json!({"role": "user", "content": [{"type": "text", "text": format!(
                "The result of tool call `call_pdf` (`report`) includes a file that cannot be \
                 shown here: `report.pdf` (application/pdf, {} bytes).", PDF.len())}]}),
        ]
    );
}

/// Media alone (a `Media` return) and `Result<Media, E>` work as `#[tool]` return types; an
/// empty text with media gives Anthropic no empty text block and the Chat tool message a
/// pointer to the user message.
#[tokio::test]
async fn a_tool_may_return_media_alone() {
    let toolkit = toolkit();
    let shot = toolkit.execute("screenshot", json!({})).await;
    assert_eq!((shot.output.as_str(), shot.media.len()), ("", 1));
    let failed = toolkit
        .execute("maybe_screenshot", json!({"fail": true}))
        .await;
    assert_eq!(failed, ToolResult::error("the browser is closed"));

    let calls = [("call_1", "screenshot", json!({}))];
    let anthropic = render(Dialect::Anthropic, &calls).await;
    let blocks = anthropic[0]["content"][0]["content"].as_array().unwrap();
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0]["type"], "image");
    let chat = render(Dialect::OpenAiChat, &calls).await;
    assert_eq!(
        chat[0]["content"],
        "The result follows in the next user message."
    );
}

/// Acceptance 2 (with the unchanged golden and round-trip suites): a result without media
/// renders exactly as before media existed, byte for byte.
#[tokio::test]
async fn text_only_results_render_as_before() {
    let calls = [("call_txt", "add", json!({"a": 2, "b": 3}))];
    let expected = [
        (
            Dialect::OpenAiChat,
            r#"[{"role":"tool","tool_call_id":"call_txt","content":"5"}]"#,
        ),
        (
            Dialect::OpenAiResponses,
            r#"[{"type":"function_call_output","call_id":"call_txt","output":"5"}]"#,
        ),
        (
            Dialect::Anthropic,
            r#"[{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_txt","content":"5"}]}]"#,
        ),
        (
            Dialect::Gemini,
            r#"[{"role":"user","parts":[{"functionResponse":{"name":"add","id":"call_txt","response":{"output":"5"}}}]}]"#,
        ),
        (
            Dialect::Bedrock,
            r#"[{"role":"user","content":[{"toolResult":{"toolUseId":"call_txt","content":[{"text":"5"}]}}]}]"#,
        ),
        (
            Dialect::Cohere,
            r#"[{"role":"tool","tool_call_id":"call_txt","content":[{"type":"document","document":{"data":{"output":"5"}}}]}]"#,
        ),
    ];
    assert_eq!(
        expected.map(|(dialect, _)| dialect),
        Dialect::ALL,
        "one row per dialect"
    );
    for (dialect, bytes) in expected {
        let rendered = render(dialect, &calls).await;
        assert_eq!(
            serde_json::to_string(&rendered).unwrap(),
            bytes,
            "{dialect}"
        );
    }
    // A text-only result serializes as before too (no `media` key).
    assert_eq!(
        serde_json::to_string(&ToolResult::ok("5")).unwrap(),
        r#"{"output":"5","is_error":false}"#
    );
}

/// The dialects whose tool results take a PNG (not Cohere's: a tool message holds text and
/// documents only, so every result with media is refused by its type before any limit).
fn takes_images() -> impl Iterator<Item = (&'static str, Dialect)> {
    dialects::ALL
        .iter()
        .map(|f| (f.sdk().key, f.dialect()))
        .filter(|(_, d)| d.accepted_media().accepts("image/png"))
}

/// Acceptance 4: a result whose media exceed the per-result limit is an error result saying
/// so, in every dialect; nothing is silently dropped.
#[tokio::test]
async fn media_over_the_per_result_limit_is_an_error_result() {
    let size = chart_png(3).len();
    let toolkit = toolkit().with_limits(Limits::default().with_max_media_bytes(size - 1));
    for (key, dialect) in takes_images() {
        let calls = [
            ("call_png", "chart", json!({"bars": 3})),
            ("call_txt", "add", json!({"a": 1, "b": 1})),
        ];
        let turn = toolkit
            .respond(&response(dialect, &calls), dialect)
            .await
            .unwrap();
        let refused = &turn.results[0];
        assert!(refused.is_error, "{key}");
        assert!(refused.media.is_empty(), "{key}");
        assert_eq!(
            refused.output,
            format!(
                "the result of `chart` was not sent: its media total {size} bytes, more than the \
                 {} bytes one result may carry; return smaller or fewer images or files",
                size - 1
            ),
            "{key}"
        );
        assert_eq!(turn.results[1], ToolResult::ok("2"), "{key}");
        let text = serde_json::to_string(&turn.result_messages).unwrap();
        assert!(text.contains("was not sent"), "{key}: {text}");
        assert!(!text.contains("base64"), "{key}: {text}");
    }
}

/// Acceptance 4: the turn's media are counted in call order; a result that would take the turn
/// over its limit is an error result, and a later one that still fits is sent.
#[tokio::test]
async fn media_over_the_per_turn_limit_is_an_error_result() {
    let (three, one) = (chart_png(3).len(), chart_png(1).len());
    let toolkit = toolkit().with_limits(Limits::default().with_max_turn_media_bytes(three + one));
    for (key, dialect) in takes_images() {
        let calls = [
            ("c1", "chart", json!({"bars": 3})),
            ("c2", "chart", json!({"bars": 3})),
            ("c3", "chart", json!({"bars": 1})),
        ];
        let turn = toolkit
            .respond(&response(dialect, &calls), dialect)
            .await
            .unwrap();
        let flags: Vec<(bool, usize)> = turn
            .results
            .iter()
            .map(|r| (r.is_error, r.media.len()))
            .collect();
        assert_eq!(flags, [(false, 1), (true, 0), (false, 1)], "{key}");
        assert_eq!(
            turn.results[1].output,
            format!(
                "the result of `chart` was not sent: its media ({three} bytes) would bring this \
                 turn's media to {} bytes, more than the {} bytes one turn may carry; call fewer \
                 tools that return images or files at once",
                2 * three,
                three + one
            ),
            "{key}"
        );
        assert_eq!(
            answered_ids(dialect, &turn.result_messages),
            ["c1", "c2", "c3"]
        );
    }
}

/// Acceptance 4: a MIME type the provider does not accept is an error result naming it and
/// what the provider takes; the same result is fine where the type is accepted.
#[tokio::test]
async fn an_unsupported_mime_type_is_a_clear_error_result() {
    let toolkit = toolkit();
    let bmp = [("call_bmp", "bitmap", json!({}))];
    let turn = toolkit
        .respond(&response(Dialect::Anthropic, &bmp), Dialect::Anthropic)
        .await
        .unwrap();
    assert_eq!(
        turn.results[0].output,
        "the result of `bitmap` was not sent: it is an image of type `image/bmp`, which Anthropic \
         Messages does not accept in a tool result (accepted: image/jpeg, image/png, image/gif, \
         image/webp, application/pdf, text/plain); convert it or describe it in text"
    );
    assert_eq!(
        turn.result_messages[0]["content"][0]["is_error"],
        json!(true)
    );

    // GIF: the OpenAI APIs and Anthropic take it, Gemini does not.
    let gif = ToolResult::ok("anim").with_image("image/gif", b"GIF89a".to_vec());
    let call = ToolCall::new("g", "anim", Arguments::Absent);
    for dialect in [
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
    ] {
        let mut results = [gif.clone()];
        dialect.admit_media(
            std::slice::from_ref(&call),
            &mut results,
            &Limits::default(),
        );
        assert!(!results[0].is_error, "{dialect}");
    }
    let mut results = [gif.clone()];
    Dialect::Gemini.admit_media(
        std::slice::from_ref(&call),
        &mut results,
        &Limits::default(),
    );
    assert!(results[0].is_error);
    assert!(results[0]
        .output
        .contains("`image/gif`, which Gemini generateContent does not accept"));

    // A zip file: only OpenAI Chat takes any file (as a note).
    let zip = ToolResult::ok("archive").with_file("application/zip", b"PK".to_vec(), "a.zip");
    for dialect in Dialect::ALL {
        let refused = dialect != Dialect::OpenAiChat;
        let mut results = [zip.clone()];
        dialect.admit_media(
            std::slice::from_ref(&call),
            &mut results,
            &Limits::default(),
        );
        assert_eq!(results[0].is_error, refused, "{dialect}");
    }

    // Anthropic takes `text/plain` documents as text, so they must be UTF-8.
    let latin1 = ToolResult::ok("notes").with_file("text/plain", vec![0xE9], "notes.txt");
    let mut results = [latin1];
    Dialect::Anthropic.admit_media(
        std::slice::from_ref(&call),
        &mut results,
        &Limits::default(),
    );
    assert_eq!(
        results[0].output,
        "the result of `anim` was not sent: its `text/plain` file `notes.txt` is not UTF-8 text, \
         which Anthropic Messages needs"
    );

    // `render_results` alone (no `admit_media`) still never sends a refused type.
    let rendered = Dialect::Gemini.render_results([(&call, &gif)]);
    let text = serde_json::to_string(&rendered).unwrap();
    assert!(
        text.contains("does not accept") && !text.contains("inlineData"),
        "{text}"
    );
}

/// Audio (issue 49): no provider takes sound in a tool result, so each gets the documented
/// text fallback, a line in place of the sound, and the rest of the result as it was: not an
/// error, other media kept, the sound's bytes nowhere on the wire.
#[tokio::test]
async fn audio_becomes_a_line_of_text_for_every_provider() {
    let wav = b"RIFF\0\0\0\0WAVEfmt ".to_vec();
    let spoken = ToolResult::ok("the greeting")
        .with_media(Media::audio("audio/wav", wav.clone()).with_name("hello.wav"))
        .with_image("image/png", png(2, 2, |_, _| [0, 0, 0]));
    let call = ToolCall::new("call_a", "speak", Arguments::Absent);
    for dialect in Dialect::ALL {
        let mut results = [spoken.clone()];
        dialect.admit_media(
            std::slice::from_ref(&call),
            &mut results,
            &Limits::default(),
        );
        let api = dialect.api_name();
        if dialect == Dialect::Cohere {
            // Cohere takes no images either: the PNG is refused as before.
            assert!(results[0].is_error, "{dialect}");
            continue;
        }
        assert!(!results[0].is_error, "{dialect}: {}", results[0].output);
        assert_eq!(
            results[0].output,
            format!(
                "the greeting\n[audio `hello.wav` (audio/wav, {} bytes) is left out: {api} takes \
                 no audio in a tool result]",
                wav.len()
            ),
            "{dialect}"
        );
        assert_eq!(results[0].media.len(), 1, "{dialect}");
        assert!(results[0].media[0].is_image(), "{dialect}");
        // Rendered without `admit_media` too: the same line, and never the sound.
        let rendered = dialect.render_results([(&call, &spoken)]);
        let text = serde_json::to_string(&rendered).unwrap();
        assert!(text.contains("is left out: "), "{dialect}: {text}");
        assert!(!text.contains(&b64(&wav)), "{dialect}: {text}");
        assert!(!text.contains("audio/wav;base64"), "{dialect}: {text}");
    }
}

/// Media never show up in `Debug` output, error text or the default limits' refusals.
#[test]
fn media_bytes_stay_out_of_debug_and_errors() {
    let secret = b"\x89PNG-very-secret-pixels".to_vec();
    let result = ToolResult::ok("x").with_image("image/png", secret.clone());
    let debug = format!("{result:?}");
    assert!(
        debug.contains(r#"Media { mime_type: "image/png", name: None, uri: None, bytes: 23 }"#),
        "{debug}"
    );
    assert!(
        !debug.contains("secret") && !debug.contains("137"),
        "{debug}"
    );
    assert!(!debug.contains(&b64(&secret)), "{debug}");

    let mut results = [result.with_image("image/x-secret", secret.clone())];
    let call = ToolCall::new("c", "t", Arguments::Absent);
    Dialect::Anthropic.admit_media(&[call], &mut results, &Limits::default());
    assert!(results[0].is_error);
    assert!(!results[0].output.contains(&b64(&secret)));
    assert!(!results[0].output.contains("secret-pixels"));
}

/// A result with media survives serde (the bytes as base64) for a host that stores results.
#[test]
fn media_round_trips_through_serde() {
    let result = ToolResult::ok("x")
        .with_image("IMAGE/PNG ", vec![0, 1, 2, 255])
        .with_file("application/pdf", PDF.to_vec(), "r.pdf");
    let text = serde_json::to_string(&result).unwrap();
    assert!(
        text.starts_with(
            r#"{"output":"x","is_error":false,"media":[{"mime_type":"image/png","data":"AAEC/w=="}"#
        ),
        "{text}"
    );
    let back: ToolResult = serde_json::from_str(&text).unwrap();
    assert_eq!(back, result);
    let bad = r#"{"output":"x","is_error":false,"media":[{"mime_type":"image/png","data":"%%"}]}"#;
    let err = serde_json::from_str::<ToolResult>(bad).unwrap_err();
    assert!(err.to_string().contains("not standard base64"), "{err}");
    assert_eq!(
        Media::image("image/png", vec![1]).into_tool_result().media[0].data(),
        [1]
    );
}

/// Acceptance 3: the example runs offline (it asserts where the image lands for Anthropic and
/// Gemini), and the PNG it makes in code is a real one: Python's zlib inflates it and every
/// chunk's CRC matches.
#[test]
fn the_media_example_runs_and_its_png_is_valid() {
    media_example::main().expect("the media example runs offline");
    let image = png(3, 2, |x, y| [x as u8 * 80, y as u8 * 100, 7]);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("media_example.png");
    std::fs::write(&path, &image).unwrap();
    let check = r#"
import sys, zlib, struct
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, kinds = 8, b"", []
while pos < len(data):
    (n,) = struct.unpack(">I", data[pos:pos + 4]); kind = data[pos + 4:pos + 8]; body = data[pos + 8:pos + 8 + n]
    (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
    assert zlib.crc32(kind + body) == crc, kind
    kinds.append(kind.decode()); idat += body if kind == b"IDAT" else b""; pos += 12 + n
w, h = struct.unpack(">II", data[16:24])
raw = zlib.decompress(idat)
assert len(raw) == h * (1 + 3 * w)
print(kinds, w, h, list(raw[1:4]), list(raw[-3:]))
"#;
    let Some(python) = crate::venv::python() else {
        return;
    };
    let out = Command::new(python)
        .args(["-c", check])
        .arg(&path)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert_eq!(
        text.trim(),
        "['IHDR', 'IDAT', 'IEND'] 3 2 [0, 0, 7] [160, 100, 7]"
    );
}
