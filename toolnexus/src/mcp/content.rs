//! MCP content and toolnexus results, both ways: a server's `CallToolResult` as a
//! [`ToolResult`] (client side), and a [`ToolResult`] as a `CallToolResult` (server side).

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::json;

use crate::values::media::Media;
use crate::values::result::ToolResult;
use crate::values::text::echo_name;

/// A server's answer to `tools/call` as the result the model reads.
///
/// Text parts become `output` (one per line), images and audio become image and audio
/// [`Media`] (a provider then gets a line of text for the audio), an embedded
/// resource's text becomes text and its blob a file [`Media`], a resource link a line of text
/// (`Resource: NAME <URI>`). `structuredContent` becomes the output only when the result has
/// neither text nor media; otherwise the content already says it (MCP asks servers to repeat
/// structured content as text, and a server that returns an image may repeat the image's base64
/// there), so it goes to `metadata.structuredContent`, for the host, and each image reaches the
/// model once. `isError` makes an error result.
/// Content that cannot be read (bad base64, an unknown type) becomes a line that says so.
pub(crate) fn to_tool_result(result: CallToolResult, server: &str) -> ToolResult {
    let mut lines: Vec<String> = Vec::new();
    let mut media: Vec<Media> = Vec::new();
    for block in result.content {
        match block {
            ContentBlock::Text(text) => lines.push(text.text),
            ContentBlock::Image(image) => match STANDARD.decode(image.data.as_bytes()) {
                Ok(bytes) => media.push(Media::image(image.mime_type, bytes)),
                Err(_) => lines.push(format!(
                    "[an image ({}) from MCP server `{server}` was not valid base64 and is left out]",
                    shorten(&image.mime_type)
                )),
            },
            ContentBlock::Audio(audio) => match STANDARD.decode(audio.data.as_bytes()) {
                Ok(bytes) => media.push(Media::audio(audio.mime_type, bytes)),
                Err(_) => lines.push(format!(
                    "[audio ({}) from MCP server `{server}` was not valid base64 and is left out]",
                    shorten(&audio.mime_type)
                )),
            },
            ContentBlock::Resource(embedded) => match embedded.resource {
                ResourceContents::TextResourceContents { text, .. } => lines.push(text),
                ResourceContents::BlobResourceContents {
                    uri,
                    mime_type,
                    blob,
                    ..
                } => match STANDARD.decode(blob.as_bytes()) {
                    Ok(bytes) => {
                        let mime = mime_type.unwrap_or_else(|| "application/octet-stream".into());
                        media.push(Media::file(mime, bytes, file_name(&uri)));
                    }
                    Err(_) => lines.push(format!(
                        "[resource {} from MCP server `{server}` was not valid base64 and is left out]",
                        shorten(&uri)
                    )),
                },
                _ => lines.push(format!(
                    "[a resource of a kind this client does not know, from MCP server `{server}`, is left out]"
                )),
            },
            ContentBlock::ResourceLink(link) => {
                let mut line = format!("Resource: {} <{}>", link.name, link.uri);
                if let Some(mime) = &link.mime_type {
                    line.push_str(&format!(" ({mime})"));
                }
                if let Some(description) = &link.description {
                    line.push_str(": ");
                    line.push_str(description);
                }
                lines.push(line);
            }
            _ => lines.push(format!(
                "[content of a type this client does not know, from MCP server `{server}`, is left out]"
            )),
        }
    }
    let mut metadata = None;
    let output = match result.structured_content {
        Some(structured) if lines.is_empty() && media.is_empty() => structured.to_string(),
        Some(structured) => {
            metadata = Some(json!({ "structuredContent": structured }));
            lines.join("\n")
        }
        None => lines.join("\n"),
    };
    let mut out = if result.is_error == Some(true) {
        ToolResult::error(output)
    } else {
        ToolResult::ok(output)
    };
    out.metadata = metadata.map(Box::new);
    out.media = media.into_boxed_slice();
    out
}

/// A [`ToolResult`] as MCP content: the text as a text part (also when empty and there is no
/// media, so the client always gets content), each image as an image part, each sound as an
/// audio part, each file as an embedded resource (text, JSON or XML in UTF-8 as a text
/// resource, any other as a blob; under the media's URI, or `toolnexus://result/N/NAME`), `is_error` as
/// `isError: true`, and an object in
/// `metadata.structuredContent` (what a tool with an output schema gives) as
/// `structuredContent`, the text being its copy.
pub(crate) fn to_call_result(mut result: ToolResult) -> CallToolResult {
    let structured = match result
        .metadata
        .as_mut()
        .and_then(|m| m.get_mut("structuredContent"))
    {
        Some(value) if value.is_object() => Some(value.take()),
        _ => None,
    };
    let mut content = Vec::with_capacity(1 + result.media.len());
    if !result.output.is_empty() || result.media.is_empty() {
        content.push(ContentBlock::text(result.output));
    }
    for (i, media) in result.media.iter().enumerate() {
        if media.is_image() {
            content.push(ContentBlock::image(media.base64(), media.mime_type()));
        } else if media.is_audio() {
            content.push(ContentBlock::audio(media.base64(), media.mime_type()));
        } else {
            let uri = media.uri().map_or_else(
                || {
                    let name = media
                        .name()
                        .map_or_else(|| media.default_name(), str::to_owned);
                    format!("toolnexus://result/{i}/{}", uri_segment(&name))
                },
                str::to_owned,
            );
            let text = is_text(media.mime_type())
                .then(|| std::str::from_utf8(media.data()).ok())
                .flatten();
            let resource = match text {
                Some(text) => ResourceContents::text(text, uri),
                None => ResourceContents::blob(media.base64(), uri),
            };
            content.push(ContentBlock::resource(
                resource.with_mime_type(media.mime_type()),
            ));
        }
    }
    let mut call = if result.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    call.structured_content = structured;
    call
}

/// Whether a file of `mime_type` is text to an MCP client: `text/*`, JSON and XML (and their
/// `+json`/`+xml` kinds).
fn is_text(mime_type: &str) -> bool {
    let essence = mime_type.split(';').next().unwrap_or_default().trim();
    essence.starts_with("text/")
        || matches!(essence, "application/json" | "application/xml")
        || essence.ends_with("+json")
        || essence.ends_with("+xml")
}

/// `name` as one URI path segment: characters outside `[A-Za-z0-9._-]` become `_`.
fn uri_segment(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '.' | '_' | '-' => c,
            _ => '_',
        })
        .collect()
}

/// The last segment of a URI, as a file name (`file:///tmp/a.txt` gives `a.txt`).
fn file_name(uri: &str) -> String {
    let last = uri
        .rsplit('/')
        .find(|s| !s.is_empty())
        .unwrap_or("resource");
    shorten(last)
}

/// At most 100 characters of a server's text that goes into a message of ours, control
/// characters escaped.
fn shorten(text: &str) -> String {
    echo_name(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::Resource;

    #[test]
    fn every_kind_of_content_becomes_text_or_media() {
        let png = STANDARD.encode([0x89, b'P', b'N', b'G']);
        let mut result = CallToolResult::success(vec![
            ContentBlock::text("first"),
            ContentBlock::image(png.clone(), "image/png"),
            ContentBlock::image("not base64!", "image/png"),
            ContentBlock::embedded_text("file:///a.txt", "embedded text"),
            ContentBlock::resource(
                ResourceContents::blob(STANDARD.encode(b"%PDF"), "file:///docs/r.pdf")
                    .with_mime_type("application/pdf"),
            ),
            ContentBlock::resource_link(Resource::new("file:///b", "b")),
        ]);
        result.structured_content = Some(json!({"n": 1}));
        let out = to_tool_result(result, "srv");
        assert!(!out.is_error);
        assert_eq!(
            out.output,
            "first\n[an image (image/png) from MCP server `srv` was not valid base64 and is left out]\nembedded text\nResource: b <file:///b>"
        );
        assert_eq!(out.media.len(), 2);
        assert_eq!(out.media[0].data(), [0x89, b'P', b'N', b'G']);
        assert_eq!(out.media[1].name(), Some("r.pdf"));
        assert_eq!(out.media[1].mime_type(), "application/pdf");
        assert_eq!(out.metadata.unwrap()["structuredContent"]["n"], 1);
    }

    #[test]
    fn structured_content_is_the_output_without_text_and_is_error_is_kept() {
        let mut result = CallToolResult::error(vec![]);
        result.structured_content = Some(json!({"temperature": 22}));
        let out = to_tool_result(result, "srv");
        assert!(out.is_error);
        assert_eq!(out.output, r#"{"temperature":22}"#);
        assert_eq!(out.metadata, None);
    }

    #[test]
    fn structured_content_next_to_an_image_stays_in_metadata() {
        let png = STANDARD.encode([0x89, b'P', b'N', b'G']);
        let mut result =
            CallToolResult::success(vec![ContentBlock::image(png.clone(), "image/png")]);
        result.structured_content = Some(json!({"data": png}));
        let out = to_tool_result(result, "srv");
        assert_eq!(out.output, "");
        assert_eq!(out.media.len(), 1);
        assert_eq!(out.metadata.unwrap()["structuredContent"]["data"], png);
    }

    #[test]
    fn results_become_content_and_back() {
        let result = ToolResult::error("no such city")
            .with_image("image/png", vec![1, 2, 3])
            .with_file("application/pdf", b"%PDF".to_vec(), "report v1.pdf");
        let call = to_call_result(result);
        assert_eq!(call.is_error, Some(true));
        let wire = serde_json::to_value(&call.content).unwrap();
        assert_eq!(wire[0], json!({"type": "text", "text": "no such city"}));
        assert_eq!(
            wire[1],
            json!({"type": "image", "data": "AQID", "mimeType": "image/png"})
        );
        assert_eq!(
            wire[2]["resource"]["uri"],
            "toolnexus://result/1/report_v1.pdf"
        );
        let back = to_tool_result(call, "srv");
        assert!(back.is_error);
        assert_eq!(back.output, "no such city");
        assert_eq!(back.media[0].data(), [1, 2, 3]);
        assert_eq!(back.media[1].data(), b"%PDF");
        assert_eq!(back.media[1].name(), Some("report_v1.pdf"));
        // Empty text with no media still sends one (empty) text part.
        assert_eq!(to_call_result(ToolResult::ok("")).content.len(), 1);
    }

    #[test]
    fn audio_goes_out_as_audio_and_comes_back_as_audio() {
        let result =
            ToolResult::ok("listen").with_media(Media::audio("audio/wav", b"RIFF".to_vec()));
        let call = to_call_result(result);
        let wire = serde_json::to_value(&call.content).unwrap();
        assert_eq!(
            wire[1],
            json!({"type": "audio", "data": STANDARD.encode(b"RIFF"), "mimeType": "audio/wav"})
        );
        let back = to_tool_result(call, "srv");
        assert_eq!(back.output, "listen");
        assert_eq!(back.media.len(), 1);
        assert!(back.media[0].is_audio());
        assert_eq!(back.media[0].data(), b"RIFF");

        let bad = CallToolResult::success(vec![ContentBlock::audio("not base64!", "audio/mpeg")]);
        let out = to_tool_result(bad, "srv");
        assert!(out.media.is_empty());
        assert_eq!(
            out.output,
            "[audio (audio/mpeg) from MCP server `srv` was not valid base64 and is left out]"
        );
    }

    #[test]
    fn a_text_file_goes_out_as_a_text_resource_under_its_own_uri() {
        let result = ToolResult::ok("")
            .with_media(
                Media::file("text/markdown", "# Notes\nété", "notes.md")
                    .with_uri("file:///srv/notes.md"),
            )
            .with_media(Media::file("text/plain", vec![0xff, 0xfe], "raw.txt"))
            .with_media(Media::file("application/ld+json", "{}", "doc.jsonld"));
        let wire = serde_json::to_value(&to_call_result(result).content).unwrap();
        assert_eq!(
            wire[0],
            json!({"type": "resource", "resource": {"uri": "file:///srv/notes.md",
                   "mimeType": "text/markdown", "text": "# Notes\nété"}})
        );
        // Not UTF-8: a blob, under a URI made from its name.
        assert_eq!(
            wire[1],
            json!({"type": "resource", "resource": {"uri": "toolnexus://result/1/raw.txt",
                   "mimeType": "text/plain", "blob": STANDARD.encode([0xff, 0xfe])}})
        );
        // JSON is text too.
        assert_eq!(wire[2]["resource"]["text"], "{}");
    }
}
