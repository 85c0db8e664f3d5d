//! A `#[tool]` that needs application state, without globals: the `#[state]` parameter becomes
//! a field of the generated tool type, filled in when the tool is registered.
//!
//! Run: `cargo run --example stateful` (offline: executes two canned model calls).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use toolnexus::{tool, Toolkit};

/// The application's own data: any `Send + Sync` type.
struct Db {
    users: Mutex<HashMap<u64, String>>,
}

/// Look up a user's name by id.
#[tool]
async fn find_user(
    #[state] db: Arc<Db>,
    #[state] lookups: Arc<AtomicUsize>,
    /// The user's numeric id.
    id: u64,
) -> Result<String, String> {
    lookups.fetch_add(1, Ordering::Relaxed);
    let users = db
        .users
        .lock()
        .map_err(|_| "the user table is unavailable".to_owned())?;
    users
        .get(&id)
        .cloned()
        .ok_or_else(|| format!("no user with id {id}"))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), toolnexus::Error> {
    let db = Arc::new(Db {
        users: Mutex::new(HashMap::from([(7, "Ada".to_owned())])),
    });
    let lookups = Arc::new(AtomicUsize::new(0));

    // The state is handed over once; the schema shows only `id`.
    let toolkit = Toolkit::new().with(FindUser {
        db: Arc::clone(&db),
        lookups: Arc::clone(&lookups),
    })?;
    println!(
        "{}",
        serde_json::to_string_pretty(&toolkit.to_openai()).unwrap_or_default()
    );

    // Two calls as a model would send them (OpenAI sends the arguments as JSON text).
    for args in [r#"{"id":7}"#, r#"{"id":8}"#] {
        let result = toolkit.execute_json("find_user", args).await;
        println!(
            "find_user({args}) -> {:?} (error: {})",
            result.output, result.is_error
        );
    }
    // The caller still holds the same state.
    println!("lookups so far: {}", lookups.load(Ordering::Relaxed));
    Ok(())
}
