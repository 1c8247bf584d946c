use tool_contract::ToolArgs;

/// Which subscriptions to list.
#[derive(ToolArgs)]
pub enum SubscriptionFilter {
    /// Every subscription.
    All,
    /// By state.
    ByState {
        /// Only running subscriptions.
        is_active: bool,
        /// Only cancelled subscriptions.
        is_cancelled: bool,
    },
}

fn main() {}
