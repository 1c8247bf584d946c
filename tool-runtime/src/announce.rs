//! The audit sink hears of a write or destructive call before it runs.

use tool_core::{Effect, ToolCall, ToolContract};

use crate::audit::AUDIT_SCHEMA_VERSION;
use crate::audit_sink::AuditStart;
use crate::pipeline::{Draft, Finished};
use crate::toolbox::Toolbox;

impl Toolbox {
    /// Tells the audit sink that a write or destructive call is about to
    /// run (once); when the sink fails, the call is not run
    /// ([`Toolbox::store_failed`] says how it is answered).
    pub(super) async fn announce(
        &self,
        contract: &'static ToolContract,
        call: &ToolCall,
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
        match sink.started(&start).await {
            Ok(entry) => {
                draft.audit_entry = Some(entry);
                Ok(())
            }
            Err(error) => Err(self.store_failed(draft, error.fault(), error.to_string())),
        }
    }
}
