//! [`StreamTurn::finish_gated`]: a streamed turn under the toolkit's policy ends with the
//! [`PendingTurn`] when a call asks, the calls the policy let run already run.

use super::settle::Settled;
use super::{StreamError, StreamTurn};
use crate::approval::{self, Gated, PendingTurn, Status};

impl StreamTurn<'_> {
    /// Ends the turn as [`Toolkit::respond_gated`](crate::Toolkit::respond_gated) ends a whole
    /// response: the input is over, and when no call asks, this is
    /// [`finish`](StreamTurn::finish) ([`Gated::Ran`]). When one does, the calls the policy lets
    /// run finish running (they started as their arguments completed), no call that asks or is
    /// refused has run, and the [`PendingTurn`] comes back ([`Gated::Pending`]): the one
    /// `respond_gated` gives for the same response sent whole, except that each call that
    /// already ran is [`Status::Done`] with its result. Answer the calls that ask and
    /// [`resume`](crate::Toolkit::resume) it, here or in another process: the calls that ran
    /// keep their results and never run again, the approved ones run, all in call order, and
    /// the same [`Turn`](crate::Turn) comes out as `respond_gated` then `resume` give.
    ///
    /// A stream that does not complete is the [`StreamError`] [`finish`](StreamTurn::finish)
    /// gives; a call that asks never ran before it stopped either.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{tool, Answer, Dialect, Gated, Policy, RunOptions, Status, StreamTurn, Toolkit};
    ///
    /// /// Lists a folder.
    /// #[tool(read_only)]
    /// fn list(path: String) -> String {
    ///     format!("listed {path}")
    /// }
    ///
    /// /// Deletes a file.
    /// #[tool(destructive)]
    /// fn rm(path: String) -> String {
    ///     format!("deleted {path}")
    /// }
    ///
    /// let toolkit = Toolkit::new().with_all((List, Rm))?.with_policy(Policy::new());
    /// // A Gemini stream: `rm` asks (its hints say destructive), `list` runs as it arrives.
    /// let events = [
    ///     json!({"candidates": [{"content": {"role": "model", "parts": [
    ///         {"functionCall": {"name": "rm", "args": {"path": "/tmp/a"}}}]}}]}),
    ///     json!({"candidates": [{"content": {"role": "model", "parts": [
    ///         {"functionCall": {"name": "list", "args": {"path": "/tmp"}}}]}, "finishReason": "STOP"}]}),
    /// ];
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut turn = StreamTurn::new(&toolkit, Dialect::Gemini, RunOptions::default());
    /// for event in events {
    ///     turn.feed_event(event).for_each(drop);
    /// }
    /// let Gated::Pending(pending) = turn.finish_gated().await? else { unreachable!("rm asks") };
    /// let [rm, list] = pending.calls() else { unreachable!() };
    /// assert!(matches!(list.status(), Status::Done { result } if result.output == "listed /tmp"));
    /// assert!(rm.request().is_some()); // awaiting: it has not run
    ///
    /// let answers = [Answer::approve(rm)];
    /// let turn = toolkit.resume(pending, &answers).await?;
    /// assert_eq!(turn.results[0].output, "deleted /tmp/a");
    /// assert_eq!(turn.results[1].output, "listed /tmp"); // kept, not run again
    /// # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    // A stream ends once: its error is returned by value, as `Turn` is, not boxed for every host.
    #[allow(clippy::result_large_err)]
    pub async fn finish_gated(mut self) -> Result<Gated, StreamError> {
        self.settle();
        let statuses = match &self.settled {
            Some(Settled::Complete { calls, .. }) if self.toolkit.policy().is_some() => {
                approval::statuses(self.toolkit, calls)
            }
            _ => Vec::new(),
        };
        if !statuses
            .iter()
            .any(|s| matches!(s, Status::Awaiting { .. }))
        {
            return self.finish().await.map(Gated::Ran);
        }
        // Only what the policy lets run runs: the rest waits for the host's answer.
        self.queue_held(|position| matches!(statuses[position], Status::Ready));
        while self.next_call_event().await.is_some() {}
        self.events.clear();
        let Some(Settled::Complete { calls, model_turn }) = self.settled.take() else {
            unreachable!("a complete stream's calls were read above")
        };
        let statuses = statuses
            .into_iter()
            .enumerate()
            .map(|(position, status)| match status {
                // A call answered without running as a repeated id stays `Refused`, as
                // `respond_gated` says it; only a call the policy lets run is `Done`.
                Status::Ready => match self.take_result(position) {
                    Some(result) => Status::Done { result },
                    None => status,
                },
                status => status,
            })
            .collect();
        Ok(Gated::Pending(PendingTurn::of(
            self.dialect,
            model_turn,
            calls,
            statuses,
        )))
    }
}
