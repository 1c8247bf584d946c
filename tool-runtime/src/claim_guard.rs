//! The guard of a claimed idempotency key while its call runs: when the
//! call's future is dropped before the call's end was settled (a caller
//! that gave up, a task that was cancelled), the key is recorded as
//! `Unknown`, so that a retry is refused `OUTCOME_UNKNOWN` rather than run
//! while the first run may still be going on (a blocking handler's thread
//! keeps running after its future is gone) or may have taken effect.

use std::sync::Arc;

use tool_core::ToolOutput;

use crate::idempotency::{IdempotencyRecord, IdempotencyScope, IdempotencyStore};
use crate::messages::dropped;
use crate::model_result::ExecutionOutcome;

/// Armed from the claim until the call's record or release is written.
pub(crate) struct ClaimGuard {
    armed: Option<Armed>,
}

struct Armed {
    store: Arc<dyn IdempotencyStore>,
    scope: IdempotencyScope,
    arguments_sha256: String,
}

impl ClaimGuard {
    /// A guard of `scope`, claimed in `store` for a call whose arguments
    /// hash to `arguments_sha256`.
    pub(crate) fn new(
        store: Arc<dyn IdempotencyStore>,
        scope: IdempotencyScope,
        arguments_sha256: String,
    ) -> Self {
        ClaimGuard {
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
        // Without a runtime to write on, the store's lease frees the key
        // in time (the process is going away).
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let record = IdempotencyRecord {
                arguments_sha256: armed.arguments_sha256,
                output: ToolOutput::respond_to_model(dropped()),
                model_result: None,
                outcome: ExecutionOutcome::Unknown,
            };
            if let Err(error) = armed.store.record(&armed.scope, record).await {
                tracing::error!(
                    tool = %armed.scope.tool,
                    %error,
                    "the idempotency key of a dropped call could not be recorded as unknown; its lease frees it"
                );
            }
        });
    }
}
