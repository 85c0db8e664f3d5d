//! A served call's questions ([`CallContext::elicit`](crate::CallContext::elicit)) and
//! sampling requests ([`CallContext::sample`](crate::CallContext::sample)) sent to the MCP
//! client as `elicitation/create` and `sampling/createMessage`, when it declared the
//! capability.
#![allow(deprecated)] // rmcp deprecates sampling (SEP-2577), which protocol 2025-11-25 has.

use std::sync::Arc;

use rmcp::model::{
    ClientResult, CreateMessageRequest, CreateMessageRequestParams, ElicitRequest,
    ElicitRequestParams, ElicitationAction, ElicitationSchema, ModelHint, ModelPreferences,
    SamplingMessage, SamplingMessageContentBlock, ServerRequest,
};
use rmcp::{Peer, RoleServer};
use serde_json::Value;

use crate::ask::{
    Answering, Ask, AskError, Asker, Elicitation, Elicited, Sampled, Sampling, SamplingRole,
};

/// Who answers the requests of calls served to `peer`: the client (questions in form mode),
/// or, for a capability it did not declare, nobody ([`AskError::NotSupported`]).
pub(super) fn asker(peer: &Peer<RoleServer>) -> Asker {
    Arc::new(Client(peer.clone()))
}

struct Client(Peer<RoleServer>);

impl Ask for Client {
    fn elicit(&self, question: Elicitation) -> Answering {
        let peer = self.0.clone();
        Box::pin(async move { ask(&peer, question).await })
    }

    fn sample(&self, request: Sampling) -> Answering<Sampled> {
        let peer = self.0.clone();
        Box::pin(async move { sample(&peer, request).await })
    }
}

/// `Ok` when the client declared `capability` (read by `declared` from its capabilities).
fn requires(
    peer: &Peer<RoleServer>,
    capability: &'static str,
    declared: impl Fn(&rmcp::model::ClientCapabilities) -> bool,
) -> Result<(), AskError> {
    if peer
        .peer_info()
        .is_some_and(|info| declared(&info.capabilities))
    {
        Ok(())
    } else {
        Err(AskError::NotSupported { capability })
    }
}

async fn ask(peer: &Peer<RoleServer>, question: Elicitation) -> Result<Elicited, AskError> {
    requires(peer, "elicitation", |c| c.elicitation.is_some())?;
    let message = question.message().to_owned();
    let schema = ElicitationSchema::from_json_schema(question.schema().clone())
        .map_err(|e| AskError::BadForm(format!("the MCP SDK does not take it: {e}")))?;
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: schema,
    };
    let answer = peer
        .send_request(ServerRequest::ElicitRequest(ElicitRequest::new(params)))
        .await
        .map_err(|e| AskError::Failed(e.to_string()))?;
    let ClientResult::ElicitResult(answer) = answer else {
        return Err(AskError::Failed(
            "the client answered with something other than an elicitation result".into(),
        ));
    };
    match answer.action {
        ElicitationAction::Accept => match answer.content {
            Some(Value::Object(content)) => Ok(Elicited::Accept(content)),
            None => Ok(Elicited::Accept(serde_json::Map::new())),
            Some(_) => Err(AskError::BadAnswer(
                "the accepted content is not a JSON object".into(),
            )),
        },
        ElicitationAction::Decline => Ok(Elicited::Decline),
        // `cancel`, and any action a later protocol adds: the user did not answer.
        _ => Ok(Elicited::Cancel),
    }
}

async fn sample(peer: &Peer<RoleServer>, request: Sampling) -> Result<Sampled, AskError> {
    requires(peer, "sampling", |c| c.sampling.is_some())?;
    let messages = request
        .messages()
        .iter()
        .map(|(role, text)| match role {
            SamplingRole::Assistant => SamplingMessage::assistant_text(text.clone()),
            _ => SamplingMessage::user_text(text.clone()),
        })
        .collect();
    let mut params = CreateMessageRequestParams::new(messages, request.max_tokens());
    params.system_prompt = request.system_prompt().map(str::to_owned);
    params.temperature = request.temperature();
    if !request.stop_sequences().is_empty() {
        params.stop_sequences = Some(request.stop_sequences().to_vec());
    }
    let [cost, speed, intelligence] = request.priorities();
    let hints = request.model_hints();
    if !hints.is_empty() || cost.is_some() || speed.is_some() || intelligence.is_some() {
        let mut preferences = ModelPreferences::new();
        if !hints.is_empty() {
            preferences.hints = Some(hints.iter().map(|h| ModelHint::new(h.clone())).collect());
        }
        preferences.cost_priority = cost;
        preferences.speed_priority = speed;
        preferences.intelligence_priority = intelligence;
        params.model_preferences = Some(preferences);
    }
    let answer = peer
        .send_request(ServerRequest::CreateMessageRequest(
            CreateMessageRequest::new(params),
        ))
        .await
        .map_err(|e| AskError::Failed(e.to_string()))?;
    let ClientResult::CreateMessageResult(answer) = answer else {
        return Err(AskError::Failed(
            "the client answered with something other than a sampling result".into(),
        ));
    };
    let text: Vec<String> = answer
        .message
        .content
        .into_vec()
        .into_iter()
        .filter_map(|block| match block {
            SamplingMessageContentBlock::Text(text) => Some(text.text),
            _ => None,
        })
        .collect();
    if text.is_empty() {
        return Err(AskError::BadAnswer(
            "the model's answer holds no text".into(),
        ));
    }
    let mut sampled = Sampled::new(text.join("\n"), answer.model);
    sampled.stop_reason = answer.stop_reason;
    Ok(sampled)
}
