//! Which versions a toolbox serves and offers: older versions served
//! through the newest one's handler, the contracts a session is offered,
//! every version served, and the count of calls per version.

use std::fmt;
use std::ptr;

use tool_core::{
    Approval, ContractError, Effect, Session, Tool, ToolContract, VersionConflict, VersionGuard,
};

use crate::handler::{Older, Run};
use crate::toolbox::Toolbox;
use crate::versions::{CallCount, Resolution, VersionError};

impl Toolbox {
    /// Serves `Old`, an older major version of a registered tool `New`,
    /// through `New`'s handler: a migration without a flag day, where
    /// conversations pinned to the old version (see
    /// [`VersionPins`](crate::versions::VersionPins)) keep it while the
    /// others get the new one, and one handler works on one domain model.
    ///
    /// A call at `Old` is parsed by `Old`'s contract (its idempotency key,
    /// canonical arguments, approvals and audit record are `Old`'s),
    /// upgraded with `TryFrom<Old> for New` (a `From` impl gives one), run
    /// by `New`'s handler, and its output downgraded with `From<New::Output>
    /// for Old::Output` (nothing to write when both versions return the
    /// same type). A failed upgrade is the model's argument error:
    /// `INVALID_ARGUMENTS` at `$`, in the conversion error's words (its
    /// `Display`), so it should say which field to change and how.
    ///
    /// Its guards are `Old`'s contract's too (effect, approval, open
    /// world), so `Old` may not promise less than `New` in any of them: an
    /// old version without the approval, or with a smaller effect, that
    /// the handler's version declares is refused here rather than run
    /// unguarded.
    ///
    /// ```
    /// use tool_contract::runtime::VersionPins;
    /// use tool_contract::{CallContext, Session, Tool, ToolCall, ToolError, Toolbox};
    ///
    /// /// Look up the opening hours of a store by its code.
    /// #[derive(Tool)]
    /// #[tool(name = "get_store_hours", version = "1.0.0")]
    /// pub struct GetStoreHoursV1 {
    ///     /// Store code as printed on the receipt, e.g. "BER-1".
    ///     pub store: String,
    /// }
    ///
    /// /// Look up the opening hours of a store on one day.
    /// #[derive(Tool)]
    /// #[tool(name = "get_store_hours", version = "2.0.0")]
    /// pub struct GetStoreHoursV2 {
    ///     /// Store code as printed on the receipt, e.g. "BER-1".
    ///     pub store: String,
    ///     /// The day, e.g. "monday"; null for today.
    ///     pub day: Option<String>,
    /// }
    ///
    /// impl From<GetStoreHoursV1> for GetStoreHoursV2 {
    ///     fn from(v1: GetStoreHoursV1) -> Self {
    ///         GetStoreHoursV2 { store: v1.store, day: None }
    ///     }
    /// }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox
    ///     .register(|call: GetStoreHoursV2, _: CallContext| async move {
    ///         Ok::<_, ToolError>(format!("{} opens at 9 {}.", call.store, call.day.as_deref().unwrap_or("today")))
    ///     })
    ///     .serve_older::<GetStoreHoursV1, GetStoreHoursV2>();
    ///
    /// let v1 = Session::new().with(VersionPins::new().with("get_store_hours", 1));
    /// let call = ToolCall::new("c1", "get_store_hours", r#"{"store": "BER-1"}"#);
    /// let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
    /// let result = runtime.block_on(toolbox.call(&call, &v1));
    /// assert_eq!(result.model_text().as_deref(), Some("BER-1 opens at 9 today."));
    /// assert_eq!(result.version().map(|v| v.to_string()).as_deref(), Some("1.0.0"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    ///
    /// With the [`ContractError`] that
    /// [`try_serve_older`](Self::try_serve_older) returns.
    pub fn serve_older<Old, New>(&mut self) -> &mut Self
    where
        Old: Tool + Send + 'static,
        New: Tool + TryFrom<Old> + Send + 'static,
        <New as TryFrom<Old>>::Error: fmt::Display,
        Old::Output: From<New::Output>,
    {
        match self.try_serve_older::<Old, New>() {
            Ok(toolbox) => toolbox,
            Err(error) => panic!("{error}"),
        }
    }

    /// [`serve_older`](Self::serve_older), or the [`ContractError`] that
    /// refuses it: `Old`'s contract breaks a rule, or its version conflicts
    /// ([`VersionConflict`]): the names differ, no handler is registered
    /// under the name or it is not `New`'s, `Old`'s major is not below
    /// `New`'s, a version of `Old`'s major is served already, or `Old`
    /// promises less than `New` in a guard its calls get from its own
    /// contract (a smaller effect, no approval where `New` requires one, a
    /// closed world where `New`'s is open), so its calls would run `New`'s
    /// handler without it.
    pub fn try_serve_older<Old, New>(&mut self) -> Result<&mut Self, ContractError>
    where
        Old: Tool + Send + 'static,
        New: Tool + TryFrom<Old> + Send + 'static,
        <New as TryFrom<Old>>::Error: fmt::Display,
        Old::Output: From<New::Output>,
    {
        let (old, new) = (Old::contract(), New::contract());
        let conflict = |conflict| Err(ContractError::conflict(old.name(), conflict));
        if old.name() != new.name() {
            return conflict(VersionConflict::OtherName { newer: new.name() });
        }
        old.check_rules()?;
        let Some(versions) = self.tools.get_mut(new.name()) else {
            return conflict(VersionConflict::NoHandler {
                newer: new.version(),
            });
        };
        let handler = versions.newest();
        let run = handler
            .tool
            .handler()
            .and_then(|run| run.downcast_ref::<Run<New>>())
            .filter(|_| ptr::eq(handler.contract(), new));
        let Some(run) = run.cloned() else {
            // The name has a handler, of another version (or type): older
            // versions are served through it.
            return conflict(VersionConflict::OtherHandler {
                newer: new.version(),
                handler: handler.contract().version(),
            });
        };
        if old.version().major == new.version().major {
            return conflict(VersionConflict::SameMajor {
                served: new.version(),
                offered: old.version(),
            });
        }
        if old.version().major > new.version().major {
            return conflict(VersionConflict::NotOlder {
                handler: new.version(),
                offered: old.version(),
            });
        }
        if let Some(served) = versions.at_major(old.version().major) {
            return conflict(VersionConflict::SameMajor {
                served: served.contract().version(),
                offered: old.version(),
            });
        }
        if let Some(guard) = weaker_guard(old, new) {
            return conflict(VersionConflict::WeakerGuard {
                handler: new.version(),
                offered: old.version(),
                guard,
            });
        }
        versions.insert_older(Box::new(Older::<Old, New>::new(run)));
        Ok(self)
    }

    /// The contracts `session` is offered, by name: one version of each
    /// tool, the one the session's [`VersionPins`](crate::versions::VersionPins)
    /// name, else the newest that is not retired (by the toolbox's clock);
    /// a tool whose every version is retired is left out. Build a
    /// conversation's tool definitions from these, and run its calls in the
    /// same session, so that it never sees two versions of one tool.
    ///
    /// A pin to a major that is not served is
    /// [`VersionError::NotServed`] (`VERSION_NOT_SERVED`), a pin to a
    /// retired version [`VersionError::Retired`] (`VERSION_RETIRED`,
    /// naming the version to use): the session's pins must change.
    pub fn contracts_for(
        &self,
        session: &Session,
    ) -> Result<Vec<&'static ToolContract>, VersionError> {
        let now = self.clock_now();
        let mut offered = Vec::with_capacity(self.tools.len());
        for name in self.tools.keys() {
            match self.resolve(name, session, || now) {
                Resolution::Served(served) => offered.push(served.contract()),
                Resolution::NotServed(error) => return Err(error),
                Resolution::Retired(_, error) if pinned(session, name) => return Err(error),
                Resolution::Retired(..) | Resolution::Unknown => {}
            }
        }
        Ok(offered)
    }

    /// Every version served, by name and newest first: what a lock file
    /// and a catalog of the toolbox record.
    pub fn served_contracts(&self) -> impl Iterator<Item = &'static ToolContract> + '_ {
        self.tools
            .values()
            .flat_map(|versions| versions.all().iter().map(|served| served.contract()))
    }

    /// The contract of the tool called `name` at the major version
    /// `major`, if it is served (retired or not).
    pub fn contract_at(&self, name: &str, major: u64) -> Option<&'static ToolContract> {
        Some(self.tools.get(name)?.at_major(major)?.contract())
    }

    /// How many calls each served version got, by name and newest first
    /// (a version no call reached with `0`): every call that reached the
    /// version counts, whatever its outcome, so a team sees who still
    /// calls an older version before removing it.
    pub fn call_counts(&self) -> Vec<CallCount> {
        self.tools
            .values()
            .flat_map(|versions| versions.all())
            .map(|served| CallCount {
                tool: served.contract().name(),
                version: served.contract().version(),
                calls: served.calls(),
            })
            .collect()
    }
}

/// The first guard in which `old`, served through `new`'s handler,
/// promises less than `new`: its calls are guarded as `old`'s contract
/// says (the turn's order for a destructive call, the audit sink's
/// announcement and the unknown outcome of a stopped write, the approval,
/// the trust of the content and the recipient check of an open world),
/// and they run `new`'s handler.
fn weaker_guard(old: &ToolContract, new: &ToolContract) -> Option<VersionGuard> {
    let rank = |effect: Effect| match effect {
        Effect::Read => 0,
        Effect::Write => 1,
        Effect::Destructive => 2,
    };
    if rank(old.effect()) < rank(new.effect()) {
        return Some(VersionGuard::Effect {
            handler: new.effect(),
            offered: old.effect(),
        });
    }
    if new.approval() == Approval::Required && old.approval() != Approval::Required {
        return Some(VersionGuard::Approval);
    }
    if new.open_world() && !old.open_world() {
        return Some(VersionGuard::OpenWorld);
    }
    None
}

/// Whether `session` pins the tool `name` to a version.
fn pinned(session: &Session, name: &str) -> bool {
    session
        .get::<crate::versions::VersionPins>()
        .is_some_and(|pins| pins.get(name).is_some())
}
