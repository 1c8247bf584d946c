//! Start-up checks: what a toolbox needs from the sessions it will serve
//! (`Subjects`, one source of grants, injected values), found
//! before the first call rather than as a fatal `INTERNAL` at it.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use tool_core::{Approval, Idempotency, Session, ToolCall, ToolContract};

use crate::handler::take_panic;
use crate::pipeline::approval_source;
use crate::principal::principal;
use crate::toolbox::Toolbox;
use crate::versions::{Resolution, VersionError};

/// A session whose pin cannot be served, as a start-up problem.
fn version_problem(error: &VersionError) -> String {
    format!(
        "the session's `VersionPins` cannot be served ({}): {} The application must pin a version that is served, or none",
        error.code(),
        error.message()
    )
}

/// What [`Toolbox::check`] or [`Toolbox::check_call`] found missing: one
/// problem per line, each naming the tool, what is missing and what the
/// application must do. The calls these problems concern would each end
/// as a fatal `INTERNAL`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartupError {
    problems: Vec<String>,
}

impl StartupError {
    /// The problems, in the order of the tools' names.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }
}

impl fmt::Display for StartupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the toolbox cannot serve this session:")?;
        for problem in &self.problems {
            write!(f, "\n- {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for StartupError {}

impl Toolbox {
    /// Checks, for every registered tool, that a session like `session` (a
    /// sample of what the application builds per conversation) gives the
    /// toolbox what the tool's calls need: for a tool with an idempotency
    /// key or an approval, a non-empty [`Subjects`](crate::audit::Subjects)
    /// where the tool takes injected values or its store is shared; for a
    /// tool that requires approval, exactly one source of grants (the
    /// session's [`Approvals`](crate::approval::Approvals) or the toolbox's
    /// [`ApprovalStore`](crate::approval::ApprovalStore), not neither and
    /// not both). Call it at start-up; nothing is run or stored.
    ///
    /// It also names every required injected value (a `#[tool(inject)]`
    /// field that is not an `Option`) whose type the session does not
    /// hold. [`check_call`](Self::check_call) checks one sample call
    /// through the tool's parser as well.
    ///
    /// The tools are those `session` is offered
    /// ([`contracts_for`](Self::contracts_for)), each at the version its
    /// [`VersionPins`](crate::versions::VersionPins) name; a pin to a
    /// version that is not served or is retired is a problem of its own
    /// (`VERSION_NOT_SERVED`, `VERSION_RETIRED`).
    pub fn check(&self, session: &Session) -> Result<(), StartupError> {
        let problems: Vec<String> = match self.contracts_for(session) {
            Ok(contracts) => contracts
                .into_iter()
                .flat_map(|contract| self.needs(contract, session))
                .collect(),
            Err(error) => vec![version_problem(&error)],
        };
        if problems.is_empty() {
            Ok(())
        } else {
            Err(StartupError { problems })
        }
    }

    /// Checks one sample call against a sample session without running
    /// it: the tool is known, the call's arguments parse (once the session
    /// holds every value the tool injects), and the tool's needs as
    /// [`check`](Self::check) sees them. Nothing is
    /// claimed, announced, approved or run.
    pub fn check_call(&self, call: &ToolCall, session: &Session) -> Result<(), StartupError> {
        let tool = match self.resolve(&call.name, session, || self.clock_now()) {
            Resolution::Served(served) => &served.tool,
            Resolution::Retired(_, error) | Resolution::NotServed(error) => {
                return Err(StartupError {
                    problems: vec![version_problem(&error)],
                });
            }
            Resolution::Unknown => {
                let names: Vec<&str> = self.names().collect();
                return Err(StartupError {
                    problems: vec![format!(
                        "the sample call names the tool `{}`, which is not registered (registered: {})",
                        call.name,
                        names.join(", ")
                    )],
                });
            }
        };
        let contract = tool.contract();
        let mut problems = Vec::new();
        // A missing injected value is named by `needs`, from the contract;
        // the parser would stop at it before it read the arguments.
        let injected_missing = contract
            .fields()
            .iter()
            .any(|field| field.missing_from(session));
        let arguments = call.arguments_to_parse(contract.input_schema(), session);
        let parsed = catch_unwind(AssertUnwindSafe(|| {
            tool.parse(&arguments, session).map(drop)
        }));
        match parsed {
            _ if injected_missing => {}
            Ok(Ok(())) => {}
            Ok(Err(error)) => problems.push(format!(
                "the sample call of `{}` does not parse ({}): {error}",
                contract.name(),
                error.code()
            )),
            Err(payload) => problems.push(format!(
                "the sample call of `{}` made the parser panic: {}",
                contract.name(),
                take_panic(payload)
            )),
        }
        problems.extend(self.needs(contract, session));
        if problems.is_empty() {
            Ok(())
        } else {
            Err(StartupError { problems })
        }
    }

    /// What `contract`'s calls need from `session` that it lacks.
    fn needs(&self, contract: &ToolContract, session: &Session) -> Vec<String> {
        let mut problems: Vec<String> = contract
            .fields()
            .iter()
            .filter(|field| field.missing_from(session))
            .map(|field| {
                format!(
                    "the tool `{}` takes the injected field \"{}\", but the session holds no `{}`; the application must add it with `Session::with`",
                    contract.name(),
                    field.name(),
                    field.rust_type()
                )
            })
            .collect();
        if matches!(contract.idempotency(), Idempotency::Keyed { .. }) {
            if let Some(problem) = self.no_claim_grace() {
                problems.push(format!(
                    "the tool `{}` uses an idempotency key, but {problem}",
                    contract.name()
                ));
            }
            let shared = self.idempotency.requires_principal();
            if let Err(problem) = principal(contract, session, "an idempotency key", shared) {
                problems.push(problem);
            }
        }
        if contract.approval() == Approval::Required {
            match approval_source(self.approvals.as_deref(), contract, session) {
                Ok(store) => {
                    let shared = store.requires_principal();
                    if let Err(problem) = principal(contract, session, "approvals", shared) {
                        problems.push(problem);
                    }
                }
                Err(problem) => problems.push(problem),
            }
        }
        problems
    }
}
