//! `examples/http/stream_loop.rs` end to end, offline: the loop streams from the example's scripted
//! SSE server over HTTP (reqwest's `bytes_stream()`), starts `get_weather` while `add` is still
//! being written, and the server checks that the second request carries the assistant message
//! and both tool results before it streams the answer.

#[allow(dead_code)] // `main` and the real-endpoint path are the example's, not the test's
#[path = "../stream_loop.rs"]
mod stream_loop;

use stream_loop::Shown;

#[tokio::test]
async fn the_streaming_loop_answers_two_calls_over_http_and_streams_the_answer() {
    let toolkit = stream_loop::toolkit().unwrap();
    let mut shown = Vec::new();
    let answer = stream_loop::run_offline(&toolkit, stream_loop::QUESTION, &mut |s| shown.push(s))
        .await
        .unwrap();
    assert_eq!(answer, stream_loop::scripted::FINAL_ANSWER);

    let position = |wanted: &Shown| shown.iter().position(|s| s == wanted).unwrap();
    let weather_started = position(&Shown::Started("get_weather".into()));
    let add_started = position(&Shown::Started("add".into()));
    let weather_done = position(&Shown::Finished(
        "get_weather".into(),
        "Paris: 18°C, sunny".into(),
    ));
    let add_done = position(&Shown::Finished("add".into(), "5".into()));
    assert!(weather_started < add_started && add_started < add_done);
    assert!(weather_started < weather_done);
    // The first turn's text came before the calls; the answer streamed in several pieces.
    assert_eq!(shown[0], Shown::Text("Let me look ".into()));
    let answer_pieces = shown[add_done.max(weather_done)..]
        .iter()
        .filter(|s| matches!(s, Shown::Text(_)))
        .count();
    assert!(answer_pieces > 3, "{shown:?}");
}
