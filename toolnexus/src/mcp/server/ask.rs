//! A served call's questions ([`CallContext::elicit`](crate::CallContext::elicit)) sent to the
//! MCP client as `elicitation/create`, when it declared the `elicitation` capability.

use std::sync::Arc;

use rmcp::model::{
    ClientResult, ElicitRequest, ElicitRequestParams, ElicitationAction, ElicitationSchema,
    ServerRequest,
};
use rmcp::{Peer, RoleServer};
use serde_json::Value;

use crate::ask::{Answering, AskError, Asker, Elicitation, Elicited};

/// Who answers the questions of a call served to `peer`: the client, asked in form mode, or,
/// when it took no `elicitation` capability, nobody ([`AskError::NotSupported`]).
pub(super) fn asker(peer: &Peer<RoleServer>) -> Asker {
    let peer = peer.clone();
    Arc::new(move |question: Elicitation| -> Answering {
        let peer = peer.clone();
        Box::pin(async move { ask(&peer, question).await })
    })
}

async fn ask(peer: &Peer<RoleServer>, question: Elicitation) -> Result<Elicited, AskError> {
    let takes_questions = peer
        .peer_info()
        .is_some_and(|info| info.capabilities.elicitation.is_some());
    if !takes_questions {
        return Err(AskError::NotSupported);
    }
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
