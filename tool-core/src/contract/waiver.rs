//! Waivers of the contract rules that judge names.

use serde::{Deserialize, Serialize};

/// A contract rule that the declaration waives, with the reason given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Waiver {
    rule: ContractRule,
    field: Option<&'static str>,
    reason: &'static str,
}

impl Waiver {
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn __new(
        rule: ContractRule,
        field: Option<&'static str>,
        reason: &'static str,
    ) -> Self {
        Waiver {
            rule,
            field,
            reason,
        }
    }

    /// The rule's name, e.g. `model_identity`.
    pub const fn rule(&self) -> ContractRule {
        self.rule
    }

    /// The field it applies to, or `None` for the whole tool.
    pub const fn field(&self) -> Option<&'static str> {
        self.field
    }

    /// Why the rule does not apply here.
    pub const fn reason(&self) -> &'static str {
        self.reason
    }
}

/// The contract rules that judge names and what a tool reaches, which a declaration may waive with a reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContractRule {
    /// A money-like field that is not `Money` or `*_minor` + `currency`.
    UntypedAmount,
    /// A duration-like number without a unit.
    UntypedQuantity,
    /// An identity (`user_id`, `role`, ...) the model could choose.
    ModelIdentity,
    /// Two booleans that encode one state.
    BooleanPair,
    /// A vague tool name, or one that is not `verb_object`.
    VagueName,
    /// A tool name whose verb says another effect than the declared one
    /// (`get_order` that writes, `delete_address` that is not destructive).
    MisleadingName,
    /// A string field the model fills with a program (SQL, shell, script,
    /// expression, ...), with no enum, `pattern` or `max_length` + `format`.
    FreeFormCommand,
    /// An `open_world` tool that is not `read` and needs no approval.
    OpenWorldWrite,
    /// A destination field (`to`, `recipient`, `webhook_url`, ...) of an
    /// open-world write without a format the recipient policy can read.
    UntypedDestination,
}

impl ContractRule {
    /// The rule's name as written in `allow(...)`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContractRule::UntypedAmount => "untyped_amount",
            ContractRule::UntypedQuantity => "untyped_quantity",
            ContractRule::ModelIdentity => "model_identity",
            ContractRule::BooleanPair => "boolean_pair",
            ContractRule::VagueName => "vague_name",
            ContractRule::MisleadingName => "misleading_name",
            ContractRule::FreeFormCommand => "free_form_command",
            ContractRule::OpenWorldWrite => "open_world_write",
            ContractRule::UntypedDestination => "untyped_destination",
        }
    }
}
