//! The audit sink hears of a write or destructive call before it runs.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::PoisonError;

use tokio::time::Instant;
use tool_core::{Effect, ToolCall, ToolContract};

use crate::audit::AUDIT_SCHEMA_VERSION;
use crate::audit_sink::AuditStart;
use crate::handler::{CatchUnwind, DropPanic, take_panic};
use crate::messages::store_unavailable;
use crate::model_result::ExecutionOutcome;
use crate::pipeline::{Draft, Finished, add_detail, within};
use crate::toolbox::Toolbox;

impl Toolbox {
    /// Tells the audit sink that a write or destructive call is about to
    /// run (once); when the sink fails, the call is not run
    /// ([`Toolbox::store_failed`] says how it is answered), and when it
    /// panics, the call ends as a fatal `INTERNAL`, outcome `not_started`.
    pub(super) async fn announce(
        &self,
        contract: &'static ToolContract,
        call: &ToolCall,
        claimed: Option<Instant>,
        draft: &mut Draft,
    ) -> Result<(), Finished> {
        let Some(sink) = &self.audit else {
            return Ok(());
        };
        if contract.effect() == Effect::Read || draft.audit_entry.is_some() {
            return Ok(());
        }
        let start = AuditStart {
            schema_version: AUDIT_SCHEMA_VERSION.to_owned(),
            call_id: call.call_id.clone(),
            tool: contract.name().to_owned(),
            contract_version: contract.version(),
            subjects: draft.subjects.clone(),
            started_at: draft.started_at.clone(),
            arguments_sha256: draft.arguments_sha256.clone(),
            idempotency_key: draft.idempotency_key.clone(),
        };
        // The sink is the application's code: a panic while it builds its
        // future, polls it or drops it is this call's fatal `INTERNAL`,
        // before its handler (or its grant) is touched, so the call is
        // known not to have started and its key is freed.
        let dropped = DropPanic::default();
        let written = match catch_unwind(AssertUnwindSafe(|| sink.started(&start))) {
            Ok(future) => {
                let mut future = CatchUnwind::new(future, &dropped);
                let deadline = self.store_deadline(claimed);
                let Some(written) = within(deadline, &mut future).await else {
                    drop(future);
                    let mut detail = format!(
                        "the audit sink did not answer `started` within {} ms (half of the toolbox's claim grace); the call was not run",
                        self.store_budget().as_millis()
                    );
                    if let Some(panic) = dropped
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .take()
                    {
                        detail.push_str(&format!(
                            "; the audit sink panicked while its `started` future was dropped: {panic}"
                        ));
                    }
                    add_detail(draft, detail);
                    return Err(self.refuse(draft, store_unavailable()));
                };
                drop(future);
                written
            }
            Err(payload) => Err(take_panic(payload)),
        };
        let drop_panic = dropped
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Ok(Ok(entry)) = &written {
            // Written: its end completes it, whatever follows.
            draft.audit_entry = Some(*entry);
        }
        let panic = match (written, drop_panic) {
            (Err(panic), _) => format!("the audit sink panicked in `started`: {panic}"),
            (Ok(_), Some(panic)) => {
                format!("the audit sink panicked while its `started` future was dropped: {panic}")
            }
            (Ok(Ok(_)), None) => return Ok(()),
            (Ok(Err(error)), None) => {
                return Err(self.store_failed(draft, error.fault(), error.to_string()));
            }
        };
        Err(self.fatal(draft, ExecutionOutcome::NotStarted, panic))
    }
}
