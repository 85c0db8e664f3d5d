//! What this client answers when a server asks (`elicitation/create`,
//! `sampling/createMessage`) and hears when it logs (`notifications/message`): the host's
//! handlers set on [`McpSource`](super::McpSource), each capability declared only when its
//! handler is set.
#![allow(deprecated)] // rmcp deprecates sampling and logging (SEP-2577); 2025-11-25 has both.

use std::fmt;

use rmcp::model::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationCapability, ErrorData, FormElicitationCapability,
    LoggingMessageNotificationParam, SamplingCapability, SamplingMessage,
    SamplingMessageContentBlock,
};
use serde_json::Value;

use crate::ask::{checked, with_defaults, AskError, Elicitation, Elicited, Sampling, SamplingRole};
use crate::mcp::logging::from_rmcp;
use crate::policy::{OnElicit, OnLog, OnSample};
use crate::tool::logging::LogMessage;

/// The host's handlers for what one server asks of this client.
#[derive(Clone, Default)]
pub(crate) struct Answers {
    pub(crate) elicit: Option<OnElicit>,
    pub(crate) sample: Option<OnSample>,
    pub(crate) log: Option<OnLog>,
}

impl fmt::Debug for Answers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Answers")
            .field("elicit", &self.elicit.is_some())
            .field("sample", &self.sample.is_some())
            .field("log", &self.log.is_some())
            .finish()
    }
}

impl Answers {
    /// The capabilities the handshake declares: those with a handler, no other.
    pub(crate) fn capabilities(&self) -> ClientCapabilities {
        let mut capabilities = ClientCapabilities::default();
        if self.elicit.is_some() {
            let mut elicitation = ElicitationCapability::default();
            elicitation.form = Some(FormElicitationCapability::default());
            capabilities.elicitation = Some(elicitation);
        }
        if self.sample.is_some() {
            capabilities.sampling = Some(SamplingCapability::default());
        }
        capabilities
    }

    /// Server `server`'s question, put to the host's handler: the form checked as a tool's
    /// own question is, the answer held to it and the form's defaults filled in for the
    /// fields it leaves out. A question this client cannot put (a URL, a form outside the
    /// restricted one) or an answer that does not fit is an error to the server.
    pub(crate) async fn elicit(
        &self,
        server: &str,
        params: ElicitRequestParams,
    ) -> Result<ElicitResult, ErrorData> {
        let Some(hook) = &self.elicit else {
            return Ok(ElicitResult::new(ElicitationAction::Decline));
        };
        let ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } = params
        else {
            return Err(ErrorData::invalid_params(
                "this client answers form questions only, not URLs",
                None,
            ));
        };
        let schema = serde_json::to_value(requested_schema).unwrap_or(Value::Null);
        let question = Elicitation::form(message, schema)
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        let timeout = question.timeout();
        let answer = within(timeout, hook(server, question.clone())).await?;
        let answer = match answer {
            Elicited::Accept(content) => Elicited::Accept(with_defaults(&question, content)),
            other => other,
        };
        match checked(&question, answer)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?
        {
            Elicited::Accept(content) => {
                let mut result = ElicitResult::new(ElicitationAction::Accept);
                result.content = Some(Value::Object(content));
                Ok(result)
            }
            Elicited::Decline => Ok(ElicitResult::new(ElicitationAction::Decline)),
            _ => Ok(ElicitResult::new(ElicitationAction::Cancel)),
        }
    }

    /// Server `server`'s sampling request, put to the host's handler: text messages only.
    pub(crate) async fn sample(
        &self,
        server: &str,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorData> {
        let Some(hook) = &self.sample else {
            return Err(ErrorData::method_not_found::<
                rmcp::model::CreateMessageRequestMethod,
            >());
        };
        let request = sampling(params)?;
        let timeout = request.timeout();
        let answer = within(timeout, hook(server, request)).await?;
        let mut result =
            CreateMessageResult::new(SamplingMessage::assistant_text(answer.text), answer.model);
        result.stop_reason = answer.stop_reason;
        Ok(result)
    }

    /// Server `server`'s log message, handed to the host's handler (or dropped).
    pub(crate) fn log(&self, server: &str, params: LoggingMessageNotificationParam) {
        if let Some(hook) = &self.log {
            let mut message = LogMessage::new(from_rmcp(params.level), params.data);
            if let Some(logger) = params.logger {
                message = message.with_logger(logger);
            }
            hook(server, message);
        }
    }
}

/// The host's answer, within `timeout`; its error, or running past the timeout, an error to
/// the server.
async fn within<T>(
    timeout: std::time::Duration,
    answering: crate::ask::Answering<T>,
) -> Result<T, ErrorData> {
    tokio::time::timeout(timeout, answering)
        .await
        .map_err(|_| AskError::TimedOut(timeout))
        .and_then(|answer| answer)
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

/// A server's `sampling/createMessage` as a [`Sampling`] request, or why this client cannot
/// take it (content other than text, tools).
fn sampling(params: CreateMessageRequestParams) -> Result<Sampling, ErrorData> {
    let not_text = || {
        ErrorData::invalid_params(
            "this client answers sampling requests of text messages only",
            None,
        )
    };
    if params.tools.is_some() {
        return Err(ErrorData::invalid_params(
            "this client answers sampling requests without tools only",
            None,
        ));
    }
    let mut messages = Vec::with_capacity(params.messages.len());
    for message in params.messages {
        let mut texts = Vec::new();
        for block in message.content.into_vec() {
            match block {
                SamplingMessageContentBlock::Text(text) => texts.push(text.text),
                _ => return Err(not_text()),
            }
        }
        let role = match message.role {
            rmcp::model::Role::Assistant => SamplingRole::Assistant,
            rmcp::model::Role::User => SamplingRole::User,
        };
        messages.push((role, texts.join("\n")));
    }
    let mut request = Sampling::of_messages(messages, params.max_tokens);
    if let Some(prompt) = params.system_prompt {
        request = request.with_system_prompt(prompt);
    }
    if let Some(temperature) = params.temperature {
        request = request.with_temperature(temperature);
    }
    for stop in params.stop_sequences.into_iter().flatten() {
        request = request.with_stop_sequence(stop);
    }
    if let Some(preferences) = params.model_preferences {
        for hint in preferences.hints.into_iter().flatten() {
            if let Some(name) = hint.name {
                request = request.with_model_hint(name);
            }
        }
        request = request.with_priorities(
            preferences.cost_priority,
            preferences.speed_priority,
            preferences.intelligence_priority,
        );
    }
    request
        .check()
        .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
    Ok(request)
}
