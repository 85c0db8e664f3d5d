//! [`Sampling`]: a tool's request for a completion from the client's model, and [`Sampled`],
//! the answer.

use std::time::Duration;

use super::AskError;

/// Who speaks a message of a [`Sampling`] request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SamplingRole {
    /// The user (what the model answers).
    User,
    /// The model (an earlier answer of its own).
    Assistant,
}

/// A request for a completion from the model of whoever serves the tool: MCP's
/// `sampling/createMessage`, text only. The client (or the host's
/// [`Hooks::on_sample`](crate::Hooks::on_sample)) picks the model; the request only hints.
///
/// ```
/// use std::time::Duration;
/// use toolnexus::ask::{Sampling, SamplingRole};
///
/// let request = Sampling::new("Summarise: the meeting moved to Friday.", 100)
///     .with_system_prompt("Answer in one sentence.")
///     .with_model_hint("claude")
///     .with_priorities(Some(0.2), Some(0.8), None)
///     .with_timeout(Duration::from_secs(30));
/// assert_eq!(request.messages(), [(SamplingRole::User, "Summarise: the meeting moved to Friday.".to_owned())]);
/// assert_eq!(request.max_tokens(), 100);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Sampling {
    pub(super) messages: Vec<(SamplingRole, String)>,
    pub(super) system_prompt: Option<String>,
    pub(super) max_tokens: u32,
    pub(super) model_hints: Vec<String>,
    /// Cost, speed and intelligence, each from 0 to 1.
    pub(super) priorities: [Option<f32>; 3],
    pub(super) temperature: Option<f32>,
    pub(super) stop_sequences: Vec<String>,
    pub(super) timeout: Duration,
}

/// How long a sampling request waits for the model unless [`Sampling::with_timeout`] says
/// otherwise.
pub const SAMPLING_TIMEOUT: Duration = Duration::from_secs(120);

impl Sampling {
    /// A request whose one message is the user's `prompt`, answered in at most `max_tokens`
    /// tokens.
    pub fn new(prompt: impl Into<String>, max_tokens: u32) -> Self {
        Self {
            messages: vec![(SamplingRole::User, prompt.into())],
            system_prompt: None,
            max_tokens,
            model_hints: Vec::new(),
            priorities: [None; 3],
            temperature: None,
            stop_sequences: Vec::new(),
            timeout: SAMPLING_TIMEOUT,
        }
    }

    /// A request of these messages (a server's, as this crate's MCP client reads it).
    #[cfg(feature = "mcp")]
    pub(crate) fn of_messages(messages: Vec<(SamplingRole, String)>, max_tokens: u32) -> Self {
        Self {
            messages,
            ..Self::new(String::new(), max_tokens)
        }
    }

    /// The same request with one more message, after the others.
    #[must_use]
    pub fn with_message(mut self, role: SamplingRole, text: impl Into<String>) -> Self {
        self.messages.push((role, text.into()));
        self
    }

    /// The same request with a system prompt.
    #[must_use]
    pub fn with_system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// The same request with one more model hint (a name or family, such as `claude`), most
    /// preferred first.
    #[must_use]
    pub fn with_model_hint(mut self, name: impl Into<String>) -> Self {
        self.model_hints.push(name.into());
        self
    }

    /// The same request with how much cost, speed and intelligence matter, each from 0 to 1.
    #[must_use]
    pub fn with_priorities(
        mut self,
        cost: Option<f32>,
        speed: Option<f32>,
        intelligence: Option<f32>,
    ) -> Self {
        self.priorities = [cost, speed, intelligence];
        self
    }

    /// The same request with a sampling temperature.
    #[must_use]
    pub fn with_temperature(mut self, temperature: f32) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// The same request with one more stop sequence.
    #[must_use]
    pub fn with_stop_sequence(mut self, stop: impl Into<String>) -> Self {
        self.stop_sequences.push(stop.into());
        self
    }

    /// The same request, waiting at most `timeout` for the answer ([`SAMPLING_TIMEOUT`]
    /// otherwise).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The messages, in order.
    #[must_use]
    pub fn messages(&self) -> &[(SamplingRole, String)] {
        &self.messages
    }

    /// The system prompt, if any.
    #[must_use]
    pub fn system_prompt(&self) -> Option<&str> {
        self.system_prompt.as_deref()
    }

    /// The most tokens the answer may take.
    #[must_use]
    pub fn max_tokens(&self) -> u32 {
        self.max_tokens
    }

    /// The model hints, most preferred first.
    #[must_use]
    pub fn model_hints(&self) -> &[String] {
        &self.model_hints
    }

    /// How much cost, speed and intelligence matter (each from 0 to 1, if given).
    #[must_use]
    pub fn priorities(&self) -> [Option<f32>; 3] {
        self.priorities
    }

    /// The temperature, if any.
    #[must_use]
    pub fn temperature(&self) -> Option<f32> {
        self.temperature
    }

    /// The stop sequences.
    #[must_use]
    pub fn stop_sequences(&self) -> &[String] {
        &self.stop_sequences
    }

    /// How long the request waits for the answer.
    #[must_use]
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The request as it may be sent, or what is wrong with it: no messages, no tokens, a
    /// priority outside 0 to 1, a temperature that is not a finite number.
    pub(crate) fn check(&self) -> Result<(), AskError> {
        let bad = |why: &str| Err(AskError::BadRequest(why.to_owned()));
        if self.messages.is_empty() {
            return bad("it has no messages");
        }
        if self.max_tokens == 0 {
            return bad("`max_tokens` is 0; the model needs room to answer");
        }
        let names = ["cost", "speed", "intelligence"];
        for (name, priority) in names.iter().zip(self.priorities) {
            if priority.is_some_and(|p| !(0.0..=1.0).contains(&p)) {
                return Err(AskError::BadRequest(format!(
                    "the {name} priority is outside 0 to 1"
                )));
            }
        }
        if self.temperature.is_some_and(|t| !t.is_finite()) {
            return bad("the temperature is not a finite number");
        }
        Ok(())
    }
}

/// The client's model's answer to a [`Sampling`] request.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Sampled {
    /// The answer's text (its text parts, joined by newlines).
    pub text: String,
    /// The model that answered, as the client names it.
    pub model: String,
    /// Why it stopped (`endTurn`, `stopSequence`, `maxTokens`, …), if the client says.
    pub stop_reason: Option<String>,
}

impl Sampled {
    /// An answer: `text` from `model`.
    pub fn new(text: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            model: model.into(),
            stop_reason: None,
        }
    }

    /// The same answer, with why the model stopped.
    #[must_use]
    pub fn with_stop_reason(mut self, reason: impl Into<String>) -> Self {
        self.stop_reason = Some(reason.into());
        self
    }
}
