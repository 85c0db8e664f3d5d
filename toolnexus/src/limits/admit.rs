//! Holding results' media to what a provider accepts ([`MediaSupport`]) and to the media bounds
//! of [`Limits`], before a dialect renders them: a result that does not fit becomes an error
//! result that says why, never a silent drop.

use std::borrow::Cow;

use crate::limits::Limits;
use crate::values::call::ToolCall;
use crate::values::dialect::Dialect;
use crate::values::media::{Media, MediaSupport};
use crate::values::result::{Failure, ToolResult};
use crate::values::text::{echo, shorten};

/// The longest MIME type or file name echoed in an error message.
const MAX_ECHO: usize = 100;

/// `results` (paired with `calls` in order) held to `support` and `limits`: see
/// `Dialect::admit_media`, which calls this with the dialect's own [`MediaSupport`].
pub(crate) fn admit(
    dialect: Dialect,
    support: &MediaSupport,
    limits: &Limits,
    calls: &[ToolCall],
    results: &mut [ToolResult],
) {
    let mut turn_total = 0usize;
    for (call, result) in calls.iter().zip(results.iter_mut()) {
        if result.media.is_empty() {
            continue;
        }
        if let Some(spoken) = without_audio(dialect, support, result) {
            *result = spoken;
        }
        let total = result
            .media
            .iter()
            .fold(0usize, |sum, m| sum.saturating_add(m.len()));
        let after = turn_total.saturating_add(total);
        let reason = refusal(dialect, support, result).or_else(|| {
            if total > limits.max_media_bytes {
                Some(format!(
                    "its media total {total} bytes, more than the {} bytes one result may carry; \
                     return smaller or fewer images or files",
                    limits.max_media_bytes
                ))
            } else if after > limits.max_turn_media_bytes {
                Some(format!(
                    "its media ({total} bytes) would bring this turn's media to {after} bytes, \
                     more than the {} bytes one turn may carry; call fewer tools that return \
                     images or files at once",
                    limits.max_turn_media_bytes
                ))
            } else {
                None
            }
        });
        match reason {
            Some(reason) => refuse(&call.name, result, &reason),
            None => turn_total = after,
        }
    }
}

/// `result` as a dialect may render it: as is when its media are acceptable (or it has none),
/// otherwise the error result that says why. Renderers call this, so even results that did not
/// pass through `admit` never put a type the provider refuses on the wire.
pub(crate) fn checked<'r>(
    dialect: Dialect,
    support: &MediaSupport,
    call: &ToolCall,
    result: &'r ToolResult,
) -> Cow<'r, ToolResult> {
    if result.media.is_empty() {
        return Cow::Borrowed(result);
    }
    let result = match without_audio(dialect, support, result) {
        Some(spoken) => Cow::Owned(spoken),
        None => Cow::Borrowed(result),
    };
    match refusal(dialect, support, &result) {
        None => result,
        Some(reason) => {
            let mut refused = ToolResult::failed(String::new(), Failure::Limit);
            refused.metadata = result.metadata.clone();
            refuse(&call.name, &mut refused, &reason);
            Cow::Owned(refused)
        }
    }
}

/// `result` with each sound `dialect` does not take (`audio/*`: no provider takes one in a tool
/// result) left out and a line of its output saying so in its place, or `None` when it has none.
/// It is the documented text fallback, not a refusal: the model still reads the rest.
fn without_audio(
    dialect: Dialect,
    support: &MediaSupport,
    result: &ToolResult,
) -> Option<ToolResult> {
    let left_out = |m: &Media| m.is_audio() && !support.accepts(m.mime_type());
    if !result.media.iter().any(left_out) {
        return None;
    }
    let mut out = ToolResult {
        output: result.output.clone(),
        is_error: result.is_error,
        failure: result.failure,
        metadata: result.metadata.clone(),
        media: result
            .media
            .iter()
            .filter(|m| !left_out(m))
            .cloned()
            .collect(),
    };
    for sound in result.media.iter().filter(|m| left_out(m)) {
        let name = sound
            .name()
            .map(|n| format!(" `{}`", shorten(n, MAX_ECHO)))
            .unwrap_or_default();
        if !out.output.is_empty() {
            out.output.push('\n');
        }
        out.output.push_str(&format!(
            "[audio{name} ({}, {} bytes) is left out: {dialect} takes no audio in a tool result]",
            shorten(sound.mime_type(), MAX_ECHO),
            sound.len()
        ));
    }
    Some(out)
}

/// Why `dialect` cannot take `result`'s media, if it cannot: a MIME type outside `support`, or
/// `text/plain` that is not UTF-8 where the provider wants text.
fn refusal(dialect: Dialect, support: &MediaSupport, result: &ToolResult) -> Option<String> {
    for media in result.media.iter() {
        if !support.accepts(media.mime_type()) {
            let what = if media.is_image() {
                "an image"
            } else {
                "a file"
            };
            let mut accepted: Vec<&str> = support.images.to_vec();
            if support.any_document {
                accepted.push("any non-image file");
            } else {
                accepted.extend(support.documents);
            }
            // A provider whose tool results take no media at all (Cohere) says so.
            let accepted = if accepted.is_empty() {
                "no images or files".to_owned()
            } else {
                accepted.join(", ")
            };
            return Some(format!(
                "it is {what} of type `{}`, which {dialect} does not accept in a tool result \
                 (accepted: {accepted}); convert it or describe it in text",
                shorten(media.mime_type(), MAX_ECHO),
            ));
        }
        if support.text_must_be_utf8
            && media.mime_type() == "text/plain"
            && std::str::from_utf8(media.data()).is_err()
        {
            let name = media
                .name()
                .map(|n| format!(" `{}`", shorten(n, MAX_ECHO)))
                .unwrap_or_default();
            return Some(format!(
                "its `text/plain` file{name} is not UTF-8 text, which {dialect} needs"
            ));
        }
    }
    None
}

/// Turns `result` into the error result that says why its media were not sent (its metadata
/// stays; its media go).
fn refuse(tool: &str, result: &mut ToolResult, reason: &str) {
    result.output = format!("the result of `{}` was not sent: {reason}", echo(tool));
    result.is_error = true;
    result.media = Box::default();
}
