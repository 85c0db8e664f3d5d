//! [`Bm25`]: Okapi BM25 over what a model reads of a tool.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::terms::each_term;
use super::{Found, ToolSearch};
use crate::tool::Tool;

/// How much a term counts in each field: a tool's name says most about it, its parameters'
/// names next, its description and theirs least.
pub(super) const NAME: f32 = 3.0;
pub(super) const PARAMETER: f32 = 2.0;
const TEXT: f32 = 1.0;

/// BM25's constants, at their usual values: how fast a term's count saturates, and how much
/// a long document is held back.
const K1: f32 = 1.2;
const B: f32 = 0.75;

/// How deep into a schema's nested objects parameters are read.
const MAX_DEPTH: usize = 3;

type Terms = HashMap<String, Vec<(u32, f32)>, foldhash::fast::RandomState>;

/// An index of tools ranked by Okapi BM25 over their name (counted three times), their
/// parameters' names (twice), and their description and their parameters' descriptions
/// (once), each split into terms as [`ToolSearch`] users would type them (`get_weather` and
/// `getWeather` are `get weather`).
///
/// Built once for a set of tools ([`Bm25::index`]); a query costs the postings of its terms,
/// not a pass over every tool. It keeps its own copy of each name and none of the tools.
#[derive(Clone)]
pub struct Bm25 {
    names: Vec<Box<str>>,
    lengths: Vec<f32>,
    average: f32,
    terms: Terms,
}

impl Bm25 {
    /// An index of `tools` (a [`Toolkit`](crate::Toolkit)'s `tools()`, say).
    pub fn index(tools: &[Arc<dyn Tool>]) -> Self {
        let mut terms = Terms::default();
        let mut names = Vec::with_capacity(tools.len());
        let mut lengths = Vec::with_capacity(tools.len());
        let mut counts: HashMap<String, f32, foldhash::fast::RandomState> = HashMap::default();
        for (doc, tool) in tools.iter().enumerate() {
            counts.clear();
            let mut add = |text: &str, weight: f32| {
                each_term(text, |term| *counts.entry(term).or_insert(0.0) += weight);
            };
            add(tool.name(), NAME);
            add(tool.description(), TEXT);
            parameters(tool.input_schema().as_value(), 0, &mut add);
            let doc = u32::try_from(doc).unwrap_or(u32::MAX);
            let mut length = 0.0;
            for (term, count) in counts.drain() {
                length += count;
                terms.entry(term).or_default().push((doc, count));
            }
            names.push(Box::from(tool.name()));
            lengths.push(length);
        }
        let average = if lengths.is_empty() {
            1.0
        } else {
            (lengths.iter().sum::<f32>() / lengths.len() as f32).max(1.0)
        };
        Self {
            names,
            lengths,
            average,
            terms,
        }
    }

    /// How many tools it indexes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether it indexes no tool.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

impl ToolSearch for Bm25 {
    fn search(&self, query: &str, limit: usize) -> Vec<Found> {
        if limit == 0 || self.names.is_empty() {
            return Vec::new();
        }
        let mut wanted: Vec<String> = Vec::new();
        each_term(query, |term| {
            if !wanted.contains(&term) {
                wanted.push(term);
            }
        });
        let count = self.names.len() as f32;
        let mut scores: HashMap<u32, f32, foldhash::fast::RandomState> = HashMap::default();
        for term in &wanted {
            let Some(postings) = self.terms.get(term) else {
                continue;
            };
            let df = postings.len() as f32;
            let idf = ((count - df + 0.5) / (df + 0.5)).ln_1p();
            for &(doc, tf) in postings {
                let length = self.lengths[doc as usize] / self.average;
                #[allow(
                    clippy::suboptimal_flops,
                    reason = "mul_add is a libm call without FMA in the target, slower here"
                )]
                let score = idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length));
                *scores.entry(doc).or_insert(0.0) += score;
            }
        }
        let mut ranked: Vec<(u32, f32)> = scores.into_iter().collect();
        // Best first; of equal scores, the tool added first.
        ranked.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.truncate(limit);
        ranked
            .into_iter()
            .map(|(doc, score)| Found::new(&*self.names[doc as usize], score))
            .collect()
    }
}

impl fmt::Debug for Bm25 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bm25")
            .field("tools", &self.names.len())
            .field("terms", &self.terms.len())
            .finish()
    }
}

/// Each parameter's name and description in `schema` (and in nested objects' and arrays'
/// items, to [`MAX_DEPTH`]), handed to `add` with its weight.
pub(super) fn parameters(schema: &Value, depth: usize, add: &mut impl FnMut(&str, f32)) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            add(name, PARAMETER);
            if let Some(description) = property.get("description").and_then(Value::as_str) {
                add(description, TEXT);
            }
            parameters(property, depth + 1, add);
        }
    }
    if let Some(items) = schema.get("items") {
        parameters(items, depth + 1, add);
    }
}

#[cfg(test)]
mod tests;
