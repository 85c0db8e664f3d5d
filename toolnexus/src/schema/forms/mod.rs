//! Each provider form of a schema, one lowering per form, run once per schema by
//! [`InputSchema::new`](crate::InputSchema::new): what the provider accepts, with every valid
//! argument object still valid, or a refusal naming the provider and the place.
//!
//! | form | file | who takes it |
//! |---|---|---|
//! | OpenAI | `openai` | Chat Completions, Responses, Cohere |
//! | OpenAI strict | `openai_strict` (its documented limits in `limits`) | strict tools of OpenAI's two APIs, typed answers |
//! | strict nulls | `strict_nulls` | the calls of OpenAI strict tools: the `null`s the schema does not accept, removed |
//! | Anthropic | `anthropic` | Anthropic Messages, Bedrock Converse |
//! | Anthropic strict | `anthropic_strict` | strict tools of Anthropic and Bedrock, structured outputs |
//! | Gemini | `gemini` | Gemini's `parameters` (its OpenAPI subset) |

pub(crate) mod anthropic;
pub(crate) mod anthropic_strict;
pub(crate) mod gemini;
pub(crate) mod openai;
pub(crate) mod openai_strict;
pub(crate) mod strict_nulls;
