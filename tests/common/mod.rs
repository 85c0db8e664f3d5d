//! Fixtures shared by more than one test binary, in one place. A binary includes this module
//! with `#[path = "../common/mod.rs"] mod common;` and uses the parts it needs.

#![allow(dead_code)] // each test binary uses its own part

pub mod roundtrip;
pub mod stream;
