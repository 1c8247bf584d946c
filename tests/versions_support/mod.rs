//! `create_refund_draft` at two major versions served side by side by one
//! `Toolbox`, shared by the tests of every promise versions make (the
//! runtime, the OpenAI and MCP adapters, the lock file, the docs).
//!
//! Version 1 (1.3.0, deprecated, sunset 2026-09-30) takes the amount as a
//! `Money` in the order's currency and always refunds to the original
//! payment; version 2 (2.0.0) asks where the refund goes (`refund_to`)
//! and refunds only a positive amount. The handler is version 2's; a
//! version-1 call is upgraded into it (a zero amount cannot be, which is
//! the model's argument error) and its output downgraded (without
//! `refund_to`). Nested types name the facade's copies of serde and
//! schemars, so that the MCP crate's tests can include this file too.
//!
//! `submit_refund` 1.0.0 and 2.0.0 both require approval, and one call's
//! text is valid at both: what tells their grants apart is the version.
#![allow(dead_code)]

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use tool_contract::audit::Subjects;
use tool_contract::schemars::JsonSchema;
use tool_contract::serde::{Deserialize, Serialize};
use tool_contract::{CallContext, Money, Session, Tool, ToolError, Toolbox};

/// The tool's name, at both versions.
pub const NAME: &str = "create_refund_draft";

/// Version 1's sunset, as the toolbox's clock reads it: 2026-09-30T00:00:00Z.
pub const SUNSET_SECS: u64 = 1_790_726_400;
/// The day before the sunset, 12:00 UTC: version 1 is still served.
pub const BEFORE_SUNSET_SECS: u64 = SUNSET_SECS - 12 * 3600;

/// The note of version 1's deprecation.
pub const NOTE: &str = "Use version 2, which asks where the refund goes.";
/// What the model reads at the end of version 1's description.
pub const NOTICE: &str = "Deprecated: this version of the tool stops working on 2026-09-30. Use version 2, which asks where the refund goes.";

/// The signed-in customer, put into the session by the application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomerId(pub String);

/// Where a refund goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
#[serde(rename_all = "snake_case")]
pub enum RefundTo {
    /// Back to the card or account the order was paid with.
    OriginalPayment,
    /// As credit in the customer's shop account, usable at once.
    StoreCredit,
}

/// A refund draft as version 1 returns it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct RefundDraftV1 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
    /// What the refund would pay back.
    pub amount: Money,
}

/// A refund draft as version 2 returns it: where the refund goes too.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct RefundDraftV2 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
    /// What the refund would pay back.
    pub amount: Money,
    /// Where the refund goes.
    pub refund_to: RefundTo,
}

/// Version 2's output, as version 1 returns it.
impl From<RefundDraftV2> for RefundDraftV1 {
    fn from(v2: RefundDraftV2) -> Self {
        RefundDraftV1 {
            draft_id: v2.draft_id,
            amount: v2.amount,
        }
    }
}

/// Create a refund draft for an order of the signed-in customer; the
/// refund goes back to the original payment.
///
/// It does not submit the refund (a person reviews drafts). Returns the
/// draft id and the amount.
#[derive(Debug, Tool)]
#[tool(
    name = "create_refund_draft",
    version = "1.3.0",
    deprecated(
        sunset = "2026-09-30",
        note = "Use version 2, which asks where the refund goes."
    ),
    effect = "write",
    output = RefundDraftV1
)]
pub struct CreateRefundDraftV1 {
    /// Order reference exactly as the app shows it, e.g. "A-10293".
    #[tool(min_length = 1)]
    pub order_ref: String,
    /// Amount to refund, in the order's currency.
    pub amount: Money,
    /// A key made up once per draft (a UUID) and repeated on a retry, so a
    /// retry does not draft twice.
    #[tool(idempotency_key, format = "uuid")]
    pub request_id: String,
    /// Signed-in customer; taken from the trusted session, never from the model.
    #[tool(inject)]
    pub customer: CustomerId,
}

/// Create a refund draft for an order of the signed-in customer, refunded
/// where the customer chose.
///
/// It does not submit the refund (a person reviews drafts). Returns the
/// draft id, the amount and where the refund goes.
#[derive(Clone, Debug, PartialEq, Tool)]
#[tool(
    name = "create_refund_draft",
    version = "2.0.0",
    effect = "write",
    output = RefundDraftV2
)]
pub struct CreateRefundDraftV2 {
    /// Order reference exactly as the app shows it, e.g. "A-10293".
    #[tool(min_length = 1)]
    pub order_ref: String,
    /// Amount to refund, more than zero, in the order's currency.
    #[tool(minimum = 1)]
    pub amount: Money,
    /// Where the refund goes; ask the customer.
    pub refund_to: RefundTo,
    /// A key made up once per draft (a UUID) and repeated on a retry, so a
    /// retry does not draft twice.
    #[tool(idempotency_key, format = "uuid")]
    pub request_id: String,
    /// Signed-in customer; taken from the trusted session, never from the model.
    #[tool(inject)]
    pub customer: CustomerId,
}

/// Why a version-1 call cannot be made at version 2.
#[derive(Debug, PartialEq, Eq)]
pub struct UpgradeError(String);

impl fmt::Display for UpgradeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A version-1 call as version 2 reads it: refunded to the original
/// payment, as version 1 always was; a zero amount, which version 1 took,
/// is no refund at version 2.
impl TryFrom<CreateRefundDraftV1> for CreateRefundDraftV2 {
    type Error = UpgradeError;

    fn try_from(v1: CreateRefundDraftV1) -> Result<Self, UpgradeError> {
        if v1.amount.amount_minor == 0 {
            return Err(UpgradeError(format!(
                "\"amount\" must be more than {}; a refund draft refunds a positive amount",
                Money::new(0, v1.amount.currency)
            )));
        }
        Ok(CreateRefundDraftV2 {
            order_ref: v1.order_ref,
            amount: v1.amount,
            refund_to: RefundTo::OriginalPayment,
            request_id: v1.request_id,
            customer: v1.customer,
        })
    }
}

/// Submit a refund draft so a person can pay it out.
///
/// Only after the customer approved the exact draft.
#[derive(Debug, Tool)]
#[tool(
    name = "submit_refund",
    version = "1.0.0",
    effect = "write",
    idempotent,
    approval = "required"
)]
pub struct SubmitRefundV1 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
}

/// Submit a refund draft so a person can pay it out, with a message to
/// the customer.
///
/// Only after the customer approved the exact draft.
#[derive(Debug, Tool)]
#[tool(
    name = "submit_refund",
    version = "2.0.0",
    effect = "write",
    idempotent,
    approval = "required"
)]
pub struct SubmitRefundV2 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
    /// What to tell the customer; null for the standard message.
    pub message: Option<String>,
}

impl From<SubmitRefundV1> for SubmitRefundV2 {
    fn from(v1: SubmitRefundV1) -> Self {
        SubmitRefundV2 {
            draft_id: v1.draft_id,
            message: None,
        }
    }
}

/// A clock the test sets: seconds since the Unix epoch.
#[derive(Clone, Default)]
pub struct Clock(Arc<AtomicU64>);

impl Clock {
    /// A clock at `secs`.
    pub fn at(secs: u64) -> Self {
        Clock(Arc::new(AtomicU64::new(secs)))
    }

    /// Moves the clock to `secs`.
    pub fn set(&self, secs: u64) {
        self.0.store(secs, Ordering::SeqCst);
    }

    /// The time it shows.
    pub fn now(&self) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(self.0.load(Ordering::SeqCst))
    }
}

/// The calls version 2's handler ran, in order, as it received them.
pub type Drafted = Arc<Mutex<Vec<CreateRefundDraftV2>>>;

/// One toolbox serving `create_refund_draft` at 2.0.0 (the handler) and
/// 1.3.0 (upgraded into it), on `clock`; the handler keeps each call it
/// ran in the returned list and numbers its drafts `RD-1`, `RD-2`, ...
pub fn toolbox(clock: &Clock) -> (Toolbox, Drafted) {
    let drafted = Drafted::default();
    let kept = Arc::clone(&drafted);
    let clock = clock.clone();
    let mut toolbox = Toolbox::new().with_clock(move || clock.now());
    toolbox
        .register(move |call: CreateRefundDraftV2, _cx: CallContext| {
            let kept = Arc::clone(&kept);
            async move {
                let mut drafts = kept.lock().unwrap();
                drafts.push(call.clone());
                Ok::<_, ToolError>(RefundDraftV2 {
                    draft_id: format!("RD-{}", drafts.len()),
                    amount: call.amount,
                    refund_to: call.refund_to,
                })
            }
        })
        .serve_older::<CreateRefundDraftV1, CreateRefundDraftV2>();
    (toolbox, drafted)
}

/// The session of customer `cus_42`: the injected customer and the
/// subjects that scope idempotency keys and approvals.
pub fn session() -> Session {
    Session::new()
        .with(CustomerId("cus_42".into()))
        .with(Subjects::new().with("customer", "cus_42"))
}

/// Both versions' contracts, newest first.
pub fn contracts() -> [&'static tool_contract::ToolContract; 2] {
    [
        CreateRefundDraftV2::contract(),
        CreateRefundDraftV1::contract(),
    ]
}
