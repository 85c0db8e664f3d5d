//! Checks over the repository itself, by reading its files: the runtime crate's module graph and
//! file sizes, the published crates' docs and manifests, source hygiene, the README's first
//! example, which runs, and README as a landing page that leads to the guides.

#[path = "../common/mod.rs"]
mod common;
mod source;

mod architecture;
mod ci;
mod dialect_tables;
mod examples;
mod fixtures;
mod hygiene;
mod layout;
mod package_docs;
mod readme;
mod surface;
