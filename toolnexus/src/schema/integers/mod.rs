//! Whole-number floats where a hand-written schema says `integer`.
//!
//! Gemini sends every number as a double (its `args` is a protobuf Struct), so a tool whose
//! schema says `"type": "integer"` receives `2.0`, and `args["a"].as_i64()` is `None`. A
//! `#[tool]` parameter decodes such a float itself (see `decode::numbers`); a tool that reads a
//! [`Value`] gets [`Integers::apply`]: every whole-number float the schema places an integer at
//! becomes that integer, and nothing else changes (`2.5` stays, and so does `2.0` where the
//! schema says `number` or nothing).
//!
//! "Says integer": `type` is `integer` or a list holding it (`["integer", "null"]`), in any
//! capitalisation (OpenAPI writes `INTEGER`), directly or through `$ref`, `anyOf`, `oneOf` or
//! `allOf`. Followed: `properties`, `additionalProperties`, `items`, `prefixItems` (and the
//! older list form of `items` with `additionalItems`). Not followed: `patternProperties`,
//! conditionals, `not`, `dependentSchemas`, `unevaluated*`.
//!
//! The schema is compiled once, when its [`InputSchema`](super::InputSchema) is built, into one
//! node per subschema with its branches already merged and everything that cannot lead to an
//! integer cut away; a schema without integers compiles to nothing, and costs nothing per call.
//! A call walks only the parts of the arguments that can hold an integer, each value once.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::decode::whole_number;
use crate::schema::walk;

/// The places of a schema where a whole-number float is an integer; see the module docs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Integers {
    /// One per subschema; the root is node 0.
    nodes: Box<[Node]>,
}

/// A subschema with its `$ref` and `anyOf`/`oneOf`/`allOf` branches merged in: what its value
/// is, and which nodes describe each part of it (only parts that can hold an integer).
#[derive(Debug, Clone, PartialEq, Default)]
struct Node {
    integer: bool,
    /// By key, sorted: for a key some branch declares, every branch's schema of it (its own
    /// property, or its `additionalProperties`).
    properties: Vec<(Box<str>, Vec<u32>)>,
    /// For keys no branch declares.
    additional: Vec<u32>,
    /// By index, for the first items (tuples), then `items` for the rest.
    prefix: Vec<Vec<u32>>,
    items: Vec<u32>,
}

/// One subschema as written, before its branches are merged.
#[derive(Default)]
struct Raw {
    integer: bool,
    branches: Vec<u32>,
    properties: Vec<(String, u32)>,
    additional: Option<u32>,
    prefix: Vec<u32>,
    items: Option<u32>,
}

impl Integers {
    /// Compiles `schema` (a hand-written schema, as written); `None` when no integer is
    /// reachable in it.
    pub(crate) fn of(schema: &Value) -> Option<Self> {
        let raw = Collect::run(schema);
        if !raw.iter().any(|r| r.integer) {
            return None;
        }
        let mut nodes: Vec<Node> = (0..raw.len()).map(|n| merged(&raw, n)).collect();
        let reaches = reaching(&nodes);
        if !reaches[0] {
            return None;
        }
        for (node, reaches_here) in nodes.iter_mut().zip(&reaches) {
            if !reaches_here {
                *node = Node::default();
                continue;
            }
            let keep = |list: &mut Vec<u32>| list.retain(|&c| reaches[c as usize]);
            node.properties.iter_mut().for_each(|(_, l)| keep(l));
            node.properties.retain(|(_, l)| !l.is_empty());
            keep(&mut node.additional);
            node.prefix.iter_mut().for_each(keep);
            keep(&mut node.items);
        }
        Some(Self {
            nodes: nodes.into_boxed_slice(),
        })
    }

    /// Turns every whole-number float of `args` that the schema places an integer at into that
    /// integer (within i64/u64; see `decode::whole_number`).
    pub(crate) fn apply(&self, args: &mut Value) {
        let mut stack: Vec<(&mut Value, Vec<u32>)> = vec![(args, vec![0])];
        while let Some((value, set)) = stack.pop() {
            let nodes = set.iter().map(|&n| &self.nodes[n as usize]);
            match value {
                Value::Number(n) if n.is_f64() && nodes.clone().any(|node| node.integer) => {
                    if let Some(whole) = n.as_f64().and_then(whole_number) {
                        *n = whole;
                    }
                }
                Value::Object(map) => {
                    for (key, v) in map.iter_mut().filter(|(_, v)| may_change(v)) {
                        let at = union(nodes.clone().map(|node| node.property(key)));
                        if !at.is_empty() {
                            stack.push((v, at));
                        }
                    }
                }
                Value::Array(items) => {
                    let tuple = nodes.clone().any(|node| !node.prefix.is_empty());
                    let rest = union(nodes.clone().map(|node| &node.items[..]));
                    for (i, v) in items.iter_mut().enumerate().filter(|(_, v)| may_change(v)) {
                        let at = if tuple {
                            union(nodes.clone().map(|node| node.item(i)))
                        } else {
                            rest.clone()
                        };
                        if !at.is_empty() {
                            stack.push((v, at));
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

impl Node {
    fn property(&self, key: &str) -> &[u32] {
        match self.properties.binary_search_by(|(k, _)| (**k).cmp(key)) {
            Ok(i) => &self.properties[i].1,
            Err(_) => &self.additional,
        }
    }

    fn item(&self, index: usize) -> &[u32] {
        self.prefix.get(index).unwrap_or(&self.items)
    }

    fn children(&self) -> impl Iterator<Item = u32> + '_ {
        let properties = self.properties.iter().flat_map(|(_, l)| l);
        let prefix = self.prefix.iter().flatten();
        properties
            .chain(&self.additional)
            .chain(prefix)
            .chain(&self.items)
            .copied()
    }
}

/// A value worth a look: a number, or a container that may hold one.
fn may_change(v: &Value) -> bool {
    matches!(v, Value::Number(_) | Value::Object(_) | Value::Array(_))
}

/// The nodes of several lists, each once.
fn union<'a>(lists: impl Iterator<Item = &'a [u32]>) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    let mut merged = false;
    for list in lists.filter(|l| !l.is_empty()) {
        merged = !out.is_empty();
        out.extend_from_slice(list);
    }
    if merged {
        out.sort_unstable();
        out.dedup();
    }
    out
}

/// Numbers every subschema object reachable from the root (each once, so `$ref` cycles end)
/// and reads what [`Raw`] holds of it.
struct Collect<'s> {
    root: &'s Value,
    ids: HashMap<*const Value, u32>,
    queue: Vec<&'s Map<String, Value>>,
}

impl<'s> Collect<'s> {
    fn run(root: &'s Value) -> Vec<Raw> {
        let mut collect = Collect {
            root,
            ids: HashMap::new(),
            queue: Vec::new(),
        };
        let mut raws = Vec::new();
        collect.id(root);
        while let Some(schema) = collect.queue.get(raws.len()).copied() {
            raws.push(collect.read(schema));
        }
        raws
    }

    /// The node of `schema`, numbered on first sight; `None` for a boolean schema.
    fn id(&mut self, schema: &'s Value) -> Option<u32> {
        let map = schema.as_object()?;
        let next = self.ids.len() as u32;
        let id = *self.ids.entry(schema as *const Value).or_insert(next);
        if id == next {
            self.queue.push(map);
        }
        Some(id)
    }

    fn read(&mut self, schema: &'s Map<String, Value>) -> Raw {
        let integer = match schema.get("type") {
            Some(Value::String(t)) => t.eq_ignore_ascii_case("integer"),
            Some(Value::Array(list)) => list.iter().any(|t| {
                t.as_str()
                    .is_some_and(|t| t.eq_ignore_ascii_case("integer"))
            }),
            _ => false,
        };
        let mut raw = Raw {
            integer,
            ..Raw::default()
        };
        let target = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| walk::resolve(self.root, r));
        raw.branches.extend(target.and_then(|t| self.id(t)));
        for key in ["anyOf", "oneOf", "allOf"] {
            for branch in schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                raw.branches.extend(self.id(branch));
            }
        }
        for (key, sub) in schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if let Some(id) = self.id(sub) {
                raw.properties.push((key.clone(), id));
            }
        }
        raw.additional = schema.get("additionalProperties").and_then(|s| self.id(s));
        let tuple = match schema.get("items") {
            Some(Value::Array(list)) => {
                raw.items = schema.get("additionalItems").and_then(|s| self.id(s));
                Some(list)
            }
            Some(items) => {
                raw.items = self.id(items);
                schema.get("prefixItems").and_then(Value::as_array)
            }
            None => schema.get("prefixItems").and_then(Value::as_array),
        };
        // A boolean schema in a tuple still holds its place (`u32::MAX`: no node).
        raw.prefix = tuple
            .into_iter()
            .flatten()
            .map(|s| self.id(s).unwrap_or(u32::MAX))
            .collect();
        raw
    }
}

/// Node `n` with every branch it reaches through `$ref`/`anyOf`/`oneOf`/`allOf` merged in.
fn merged(raw: &[Raw], n: usize) -> Node {
    let mut members = vec![n as u32];
    let mut i = 0;
    while let Some(&m) = members.get(i) {
        for &b in &raw[m as usize].branches {
            if !members.contains(&b) {
                members.push(b);
            }
        }
        i += 1;
    }
    let members: Vec<&Raw> = members.iter().map(|&m| &raw[m as usize]).collect();
    let mut node = Node {
        integer: members.iter().any(|m| m.integer),
        ..Node::default()
    };
    let mut keys: Vec<&str> = members
        .iter()
        .flat_map(|m| m.properties.iter().map(|(k, _)| k.as_str()))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    for key in keys {
        let at = members.iter().filter_map(|m| {
            let own = m
                .properties
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, id)| *id);
            own.or(m.additional)
        });
        node.properties.push((key.into(), dedup(at)));
    }
    node.additional = dedup(members.iter().filter_map(|m| m.additional));
    let longest = members.iter().map(|m| m.prefix.len()).max().unwrap_or(0);
    node.prefix = (0..longest)
        .map(|i| {
            dedup(
                members
                    .iter()
                    .filter_map(|m| m.prefix.get(i).copied().or(m.items)),
            )
        })
        .collect();
    node.items = dedup(members.iter().filter_map(|m| m.items));
    node
}

/// The nodes, each once, without the placeholder of a boolean schema.
fn dedup(ids: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut out: Vec<u32> = ids.filter(|&id| id != u32::MAX).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Which nodes can lead to an integer: the integer nodes and, going backwards along every
/// edge, whatever holds them (linear in the edges, cycles included).
fn reaching(nodes: &[Node]) -> Vec<bool> {
    let mut parents: Vec<Vec<u32>> = vec![Vec::new(); nodes.len()];
    for (n, node) in nodes.iter().enumerate() {
        for child in node.children() {
            parents[child as usize].push(n as u32);
        }
    }
    let mut reaches: Vec<bool> = nodes.iter().map(|n| n.integer).collect();
    let mut work: Vec<u32> = (0..nodes.len() as u32)
        .filter(|&n| reaches[n as usize])
        .collect();
    while let Some(n) = work.pop() {
        for &p in &parents[n as usize] {
            if !reaches[p as usize] {
                reaches[p as usize] = true;
                work.push(p);
            }
        }
    }
    reaches
}

#[cfg(test)]
mod tests;
