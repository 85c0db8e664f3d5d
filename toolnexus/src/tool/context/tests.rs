//! A call's context asking the user: the question's timeout and the call's cancellation end
//! the wait.

use serde_json::json;

use crate::ask::{AskError, Elicitation, Elicited};
use crate::tool::context::CallContext;

/// A context whose questions go to `answer`'s future.
fn asking(answer: impl Fn() -> crate::ask::Answering + Send + Sync + 'static) -> CallContext {
    struct Asks<F>(F);
    impl<F: Fn() -> crate::ask::Answering + Send + Sync> crate::ask::Ask for Asks<F> {
        fn elicit(&self, _: Elicitation) -> crate::ask::Answering {
            (self.0)()
        }
        fn sample(&self, _: crate::ask::Sampling) -> crate::ask::Answering<crate::ask::Sampled> {
            Box::pin(async { Err(AskError::Failed("not here".into())) })
        }
    }
    CallContext::new().with_asker(std::sync::Arc::new(Asks(answer)))
}

#[tokio::test]
async fn a_question_ends_at_its_timeout_or_when_the_call_is_cancelled() {
    use std::time::Duration;
    let pending = || -> crate::ask::Answering { Box::pin(std::future::pending()) };
    let question = || Elicitation::form("?", json!({"type": "object"})).unwrap();

    let ctx = asking(pending);
    let quick = question().with_timeout(Duration::from_millis(30));
    assert_eq!(
        ctx.elicit(quick).await,
        Err(AskError::TimedOut(Duration::from_millis(30)))
    );

    let ctx = asking(pending);
    let cancel = ctx.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        cancel.cancel();
    });
    assert_eq!(ctx.elicit(question()).await, Err(AskError::Cancelled));
    // Already cancelled: nobody is asked.
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = std::sync::Arc::clone(&asked);
    let ctx = asking(move || -> crate::ask::Answering {
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
        Box::pin(async { Ok(Elicited::Decline) })
    });
    ctx.cancel();
    assert_eq!(ctx.elicit(question()).await, Err(AskError::Cancelled));
    assert!(!asked.load(std::sync::atomic::Ordering::SeqCst));

    // A clone made after the asker was set asks the same asker.
    let ctx = asking(|| -> crate::ask::Answering { Box::pin(async { Ok(Elicited::Decline) }) });
    assert_eq!(
        ctx.clone().with_id("x").elicit(question()).await,
        Ok(Elicited::Decline)
    );
}
