//! A tool that returns an image: `render_chart` draws a bar chart as a PNG (made in code, no
//! image crate) and returns it next to its text. Prints the next request's messages for
//! Anthropic and Gemini, where the image travels inside the tool result. Offline; run with
//! `cargo run --example media`.

use serde_json::{json, Value};
use toolnexus::{tool, Dialect, ToolResult, Toolkit};

/// Draws a bar chart of the given values and returns it as a PNG image.
#[tool]
fn render_chart(
    /// The bar heights, 0 to 8.
    values: Vec<u8>,
) -> ToolResult {
    let image = png(values.len().max(1) as u32 * 4, 8, |x, y| {
        let height = values.get(x as usize / 4).copied().unwrap_or(0).min(8);
        if x % 4 != 3 && 8 - y <= u32::from(height) {
            [40, 90, 200] // a bar
        } else {
            [255, 255, 255]
        }
    });
    ToolResult::ok(format!("a bar chart of {} values", values.len())).with_image("image/png", image)
}

#[tokio::main]
pub async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let toolkit = Toolkit::new().with(RenderChart)?;

    // Anthropic: the image is an `image` block inside the `tool_result`'s content.
    let anthropic = json!({"id": "msg_01", "type": "message", "role": "assistant",
        "stop_reason": "tool_use", "content": [{"type": "tool_use", "id": "toolu_01",
            "name": "render_chart", "input": {"values": [3, 7, 5]}}]});
    let turn = toolkit.respond(&anthropic, Dialect::Anthropic).await?;
    let next = turn.result_messages;
    assert_eq!(next[0]["content"][0]["content"][1]["type"], "image");
    println!("Anthropic, the next request's messages after the assistant turn:");
    println!("{}", serde_json::to_string_pretty(&next)?);

    // Gemini: the image is `inlineData` in the `functionResponse`'s `parts`.
    let gemini = json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
        "parts": [{"functionCall": {"name": "render_chart", "args": {"values": [3, 7, 5]}}}]}}]});
    let turn = toolkit.respond(&gemini, Dialect::Gemini).await?;
    let next = turn.result_messages;
    let inline: &Value = &next[0]["parts"][0]["functionResponse"]["parts"][0]["inlineData"];
    assert_eq!(inline["mimeType"], "image/png");
    println!("Gemini, the next request's contents after the model turn:");
    println!("{}", serde_json::to_string_pretty(&next)?);
    Ok(())
}

/// A `width` x `height` PNG (8-bit RGB) whose pixel at (x, y) is `pixel(x, y)`: the image data
/// goes into stored (uncompressed) deflate blocks, so a few lines replace an image crate.
pub fn png(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 3]) -> Vec<u8> {
    let mut raw = Vec::new();
    for y in 0..height {
        raw.push(0); // row filter: none
        for x in 0..width {
            raw.extend(pixel(x, y));
        }
    }
    // zlib: a header, stored deflate blocks of at most 65535 bytes, the Adler-32 of the data.
    let mut zlib = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65535).collect();
    for (i, block) in blocks.iter().enumerate() {
        zlib.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        zlib.extend(len.to_le_bytes());
        zlib.extend((!len).to_le_bytes());
        zlib.extend(*block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    zlib.extend(((b << 16) | a).to_be_bytes());

    let mut header = Vec::with_capacity(13);
    header.extend(width.to_be_bytes());
    header.extend(height.to_be_bytes());
    header.extend([8, 2, 0, 0, 0]); // 8 bits, RGB, deflate, standard filters, no interlace

    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [(b"IHDR", header), (b"IDAT", zlib), (b"IEND", Vec::new())] {
        out.extend((data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend(kind);
        out.extend(data);
        out.extend(crc32(&out[start..]).to_be_bytes());
    }
    out
}

/// CRC-32 (IEEE 802.3), bit by bit: a small image needs no table.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
