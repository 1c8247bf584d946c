//! The guard of a claimed idempotency key while its call runs: when the
//! call's future is dropped before the call's end was settled (a caller
//! that gave up, a task that was cancelled), the key is recorded as
//! `Unknown`, so that a retry is refused `OUTCOME_UNKNOWN` rather than run
//! while the first run may still be going on (a blocking handler's thread
//! keeps running after its future is gone) or may have taken effect.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tool_core::ToolOutput;

use crate::handler::take_panic;
use crate::idempotency::{
    BoxFuture, IdempotencyError, IdempotencyRecord, IdempotencyScope, IdempotencyStore,
};
use crate::messages::dropped;
use crate::model_result::ExecutionOutcome;

/// Armed from the claim until the call's record or release is written.
pub(crate) struct ClaimGuard {
    armed: Option<Armed>,
    /// How long the write on its own task is waited for.
    bound: Duration,
}

struct Armed {
    store: Arc<dyn IdempotencyStore>,
    scope: IdempotencyScope,
    arguments_sha256: String,
}

impl ClaimGuard {
    /// A guard of `scope`, claimed in `store` for a call whose arguments
    /// hash to `arguments_sha256`; a write that does not finish at once
    /// is waited for up to `bound`.
    pub(crate) fn new(
        store: Arc<dyn IdempotencyStore>,
        scope: IdempotencyScope,
        arguments_sha256: String,
        bound: Duration,
    ) -> Self {
        ClaimGuard {
            bound,
            armed: Some(Armed {
                store,
                scope,
                arguments_sha256,
            }),
        }
    }

    /// The call's end was written: nothing is left to do on drop.
    pub(crate) fn disarm(&mut self) {
        self.armed = None;
    }
}

impl Drop for ClaimGuard {
    fn drop(&mut self) {
        let Some(armed) = self.armed.take() else {
            return;
        };
        let tool = armed.scope.tool.clone();
        let mut write: BoxFuture<'static, Result<(), IdempotencyError>> = Box::pin(async move {
            let record = IdempotencyRecord {
                arguments_sha256: armed.arguments_sha256,
                output: ToolOutput::respond_to_model(dropped()),
                model_result: None,
                outcome: ExecutionOutcome::Unknown,
            };
            armed.store.record(&armed.scope, record).await
        });
        // The write is started here, in the drop: a store that answers at
        // once (the in-memory store) has the key `Unknown` before the drop
        // returns, with or without a runtime (a future dropped outside one,
        // or by a runtime that is shutting down and runs no new task). A
        // store's panic is kept from the drop, which may run while a panic
        // unwinds.
        let mut cx = Context::from_waker(Waker::noop());
        let first = catch_unwind(AssertUnwindSafe(|| write.as_mut().poll(&mut cx)));
        match first {
            Ok(Poll::Ready(Ok(()))) => {}
            Ok(Poll::Ready(Err(error))) => unrecorded(&tool, &error.to_string()),
            Ok(Poll::Pending) => match tokio::runtime::Handle::try_current() {
                // The rest of the write on a task of its own, bounded as the
                // call's own store steps are (a frozen store leaves no task
                // behind for good).
                Ok(runtime) => {
                    let bound = self.bound;
                    runtime.spawn(async move {
                        match tokio::time::timeout(bound, write).await {
                            Ok(Ok(())) => {}
                            Ok(Err(error)) => unrecorded(&tool, &error.to_string()),
                            Err(_) => unrecorded(
                                &tool,
                                &format!(
                                    "the store did not answer within {} ms",
                                    bound.as_millis()
                                ),
                            ),
                        }
                    });
                }
                Err(_) => {
                    let _ = catch_unwind(AssertUnwindSafe(move || drop(write)));
                    unrecorded(
                        &tool,
                        "the store did not answer at once and there is no Tokio runtime to finish the write on",
                    );
                }
            },
            Err(payload) => {
                let _ = catch_unwind(AssertUnwindSafe(move || drop(write)));
                unrecorded(
                    &tool,
                    &format!("the store panicked: {}", take_panic(payload)),
                );
            }
        }
    }
}

/// Reports a key that could not be recorded `Unknown`: the store's lease
/// (at least the claim's hold) frees it.
fn unrecorded(tool: &str, error: &str) {
    tracing::error!(
        tool = %tool,
        %error,
        "the idempotency key of a dropped call could not be recorded as unknown; its lease frees it"
    );
}
