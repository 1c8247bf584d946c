//! What one call of the runtime gives back.

use tool_core::{ToolOutput, Version};

use crate::approval::ApprovalRequest;
use crate::audit::AuditRecord;
use crate::model_result::ModelResult;

/// How one call ended: the output, its projection for the model, the audit
/// record for the application, and what to ask the user to approve.
#[derive(Clone, Debug, PartialEq)]
pub struct CallResult {
    /// The outcome; its [`model_text`](ToolOutput::model_text) is what the
    /// model reads.
    pub output: ToolOutput,
    /// The structured result for the model; `None` when the output is fatal.
    pub model_result: Option<ModelResult>,
    /// What the application keeps; never sent to the model.
    pub audit: AuditRecord,
    /// Set when the call was refused with `APPROVAL_REQUIRED`: the call to
    /// show the user, whose approval ([`ApprovalRequest::approve`]) lets the
    /// same call run.
    pub approval_request: Option<ApprovalRequest>,
}

impl CallResult {
    /// The text the model reads; `None` when the output is fatal.
    pub fn model_text(&self) -> Option<String> {
        self.output.model_text()
    }

    /// True when the run must stop: the output is fatal.
    pub fn is_fatal(&self) -> bool {
        self.output.is_fatal()
    }

    /// The contract version the call was served at (the version its
    /// session reached, an older one upgraded into the handler's included),
    /// as its audit record names it; `None` for an unknown tool or a pin to
    /// a version that is not served.
    pub fn version(&self) -> Option<Version> {
        self.audit.contract_version
    }
}

/// The output of the call, for code that only needs the outcome (an
/// adapter writing the model's answer).
impl AsRef<ToolOutput> for CallResult {
    fn as_ref(&self) -> &ToolOutput {
        &self.output
    }
}

/// A round of `CallResult`s lists its approval requests and audit records.
impl tool_core::provider::Audited for CallResult {
    type Approval = ApprovalRequest;
    type Audit = AuditRecord;

    fn approval_request(&self) -> Option<&ApprovalRequest> {
        self.approval_request.as_ref()
    }

    fn audit(&self) -> &AuditRecord {
        &self.audit
    }
}
