//! Checks over the repository itself, by reading its files: the runtime crate's module graph and
//! file sizes, the published crates' docs and manifests, source hygiene, and the README's first
//! example, which runs.

#[path = "../common/mod.rs"]
mod common;
mod source;

mod architecture;
mod examples;
mod hygiene;
mod layout;
mod package_docs;
