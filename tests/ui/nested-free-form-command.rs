use tool_contract::ToolArgs;

/// One step of a deployment.
#[derive(ToolArgs)]
pub struct DeployStep {
    /// Step label shown in the deployment log, e.g. "migrate".
    pub label: String,
    /// What the step runs on the host.
    pub shell_command: String,
}

fn main() {}
