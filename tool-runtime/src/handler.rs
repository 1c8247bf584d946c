//! Typed handlers behind one object-safe interface (and older versions of
//! a tool, upgraded into its handler's type), the context a handler gets,
//! and the guard that turns a handler's panic into a value.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use serde_json::Value;

use crate::idempotency::BoxFuture;
use tool_core::ArgumentError;
use tool_core::Session;
use tool_core::Tool;
use tool_core::ToolContract;
use tool_core::ToolError;
use tool_core::outcome::CanonicalArguments;

/// What a handler gets besides the parsed call: the call's id, the trusted
/// session, and ways to say more about its result than the output value.
///
/// Clones share the same notes, so a handler may hand a clone to a helper.
///
/// ```
/// # #[cfg(feature = "runtime")] {
/// use tool_contract::CallContext;
///
/// fn annotate(cx: &CallContext) {
///     cx.set_notice("Showing 20 of 312 orders; narrow the search to see others.");
///     cx.set_incomplete();
///     cx.set_resource_revision("orders@2026-05-04T09:30:00Z");
/// }
/// # }
/// ```
#[derive(Clone)]
pub struct CallContext {
    call_id: Arc<str>,
    session: Session,
    notes: Arc<Mutex<Notes>>,
}

/// What a handler said about its result through the [`CallContext`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Notes {
    pub notice: Option<String>,
    pub incomplete: bool,
    pub resource_revision: Option<String>,
}

impl CallContext {
    pub(crate) fn new(call_id: &str, session: Session) -> Self {
        CallContext {
            call_id: Arc::from(call_id),
            session,
            notes: Arc::default(),
        }
    }

    /// The provider's id of this call.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The trusted session the call was made in: shared state (a database
    /// pool, the signed-in user) that the application put there.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Sets a remark the model reads after the content of a success, e.g.
    /// "Showing 20 of 312; narrow the search to see others."
    pub fn set_notice(&self, notice: impl Into<String>) {
        self.lock().notice = Some(notice.into());
    }

    /// Marks the result as partial (one page of many): the model result's
    /// `execution.complete` is then `false`.
    pub fn set_incomplete(&self) {
        self.lock().incomplete = true;
    }

    /// Sets the revision of the data the tool read or wrote (an ETag, a row
    /// version), which the model result's provenance names.
    pub fn set_resource_revision(&self, revision: impl Into<String>) {
        self.lock().resource_revision = Some(revision.into());
    }

    pub(crate) fn notes(&self) -> Notes {
        self.lock().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Notes> {
        // Every write is a single assignment; a poisoned lock holds whole values.
        self.notes.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl fmt::Debug for CallContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("call_id", &self.call_id)
            .field("session", &self.session)
            .field("notes", &self.notes())
            .finish()
    }
}

/// What a handler's future ends with, the output already serialized.
pub(crate) enum HandlerResult {
    Ok(Value),
    Err(ToolError),
    /// The output value would not serialize; the message is internal.
    Unserializable(String),
    /// A blocking handler panicked on its thread: the panic's message.
    Panicked(String),
}

/// A call whose arguments parsed: its idempotency key, its canonical
/// arguments (from the text the parser just accepted) and the deferred run.
pub(crate) struct Parsed {
    pub key: Option<String>,
    pub canonical: Option<CanonicalArguments>,
    pub run: Box<dyn FnOnce(CallContext) -> BoxFuture<'static, HandlerResult> + Send>,
}

/// One served version of a tool, whatever its type: the version whose
/// handler is registered, or an older one whose calls are upgraded into it.
pub(crate) trait ErasedTool: Send + Sync {
    fn contract(&self) -> &'static ToolContract;
    fn parse(&self, arguments: &str, session: &Session) -> Result<Parsed, ArgumentError>;
    /// The [`Run`] of the tool's own handler (`Run<T>` for the type `T` it
    /// was registered with); `None` for an older version, which has none.
    fn handler(&self) -> Option<&(dyn Any + Send + Sync)>;
}

/// How a handler's output becomes the call's result: serialized as it is,
/// or first downgraded to an older version's output type.
pub(crate) type Finish<O> = fn(O) -> HandlerResult;

/// The handler of tool `T`, async or blocking: runs a parsed `T` and ends
/// with its output as [`Finish`] makes it.
pub(crate) type Run<T> = Arc<
    dyn Fn(T, CallContext, Finish<<T as Tool>::Output>) -> BoxFuture<'static, HandlerResult>
        + Send
        + Sync,
>;

/// The [`Run`] of an async handler.
pub(crate) fn async_run<T, H, Fut, E>(handler: H) -> Run<T>
where
    T: Tool + Send + 'static,
    H: Fn(T, CallContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<T::Output, E>> + Send + 'static,
    E: Into<ToolError> + 'static,
{
    let handler = Arc::new(handler);
    Arc::new(move |tool: T, cx: CallContext, finish: Finish<T::Output>| {
        let handler = Arc::clone(&handler);
        Box::pin(async move {
            // The handler is called inside the future, so a panic while
            // it builds its future is caught like one while it runs.
            match handler(tool, cx).await {
                Ok(output) => finish(output),
                Err(error) => HandlerResult::Err(error.into()),
            }
        })
    })
}

/// The [`Run`] of a blocking handler, which runs on Tokio's blocking
/// thread pool (`spawn_blocking`).
pub(crate) fn blocking_run<T, H, E>(handler: H) -> Run<T>
where
    T: Tool + Send + 'static,
    H: Fn(T, CallContext) -> Result<T::Output, E> + Send + Sync + 'static,
    E: Into<ToolError> + 'static,
{
    let handler = Arc::new(handler);
    Arc::new(move |tool: T, cx: CallContext, finish: Finish<T::Output>| {
        let handler = Arc::clone(&handler);
        Box::pin(async move {
            // The handler and the serialization of its output run on the
            // blocking pool; when the call is stopped first, the thread
            // runs to its end and its result is dropped there.
            let task = tokio::task::spawn_blocking(move || match handler(tool, cx) {
                Ok(output) => finish(output),
                Err(error) => HandlerResult::Err(error.into()),
            });
            match task.await {
                Ok(result) => result,
                Err(error) => match error.try_into_panic() {
                    Ok(payload) => HandlerResult::Panicked(take_panic(payload)),
                    Err(error) => HandlerResult::Panicked(error.to_string()),
                },
            }
        })
    })
}

/// A tool type and its handler.
pub(crate) struct Registered<T: Tool> {
    run: Run<T>,
}

impl<T: Tool> Registered<T> {
    pub(crate) fn new(run: Run<T>) -> Self {
        Registered { run }
    }
}

impl<T: Tool + Send + 'static> ErasedTool for Registered<T> {
    fn contract(&self) -> &'static ToolContract {
        T::contract()
    }

    fn parse(&self, arguments: &str, session: &Session) -> Result<Parsed, ArgumentError> {
        let tool = T::from_arguments(arguments, session)?;
        let key = tool.idempotency_key();
        let canonical = CanonicalArguments::of(T::input_schema(), arguments);
        let run = Arc::clone(&self.run);
        Ok(Parsed {
            key,
            canonical,
            run: Box::new(move |cx| run(tool, cx, serialized::<T::Output>)),
        })
    }

    fn handler(&self) -> Option<&(dyn Any + Send + Sync)> {
        Some(&self.run)
    }
}

/// An older version `Old` of a tool served by the handler of `New`: its
/// calls are parsed by `Old`'s contract (its idempotency key and
/// canonical arguments are `Old`'s), upgraded with `TryFrom<Old> for New`
/// (a failure is the model's argument error at `$`, in the conversion's
/// words), and `New`'s output is downgraded with `From` into `Old`'s.
pub(crate) struct Older<Old, New: Tool> {
    run: Run<New>,
    _old: PhantomData<fn() -> Old>,
}

impl<Old, New: Tool> Older<Old, New> {
    pub(crate) fn new(run: Run<New>) -> Self {
        Older {
            run,
            _old: PhantomData,
        }
    }
}

impl<Old, New> ErasedTool for Older<Old, New>
where
    Old: Tool + Send + 'static,
    New: Tool + TryFrom<Old> + Send + 'static,
    <New as TryFrom<Old>>::Error: fmt::Display,
    Old::Output: From<New::Output>,
{
    fn contract(&self) -> &'static ToolContract {
        Old::contract()
    }

    fn parse(&self, arguments: &str, session: &Session) -> Result<Parsed, ArgumentError> {
        let old = Old::from_arguments(arguments, session)?;
        let key = old.idempotency_key();
        let canonical = CanonicalArguments::of(Old::input_schema(), arguments);
        let new =
            New::try_from(old).map_err(|error| ArgumentError::invalid("$", error.to_string()))?;
        let run = Arc::clone(&self.run);
        Ok(Parsed {
            key,
            canonical,
            run: Box::new(move |cx| run(new, cx, downgraded::<New::Output, Old::Output>)),
        })
    }

    fn handler(&self) -> Option<&(dyn Any + Send + Sync)> {
        None
    }
}

/// A handler's output serialized as it is.
fn serialized<O: serde::Serialize>(output: O) -> HandlerResult {
    match serde_json::to_value(&output) {
        Ok(value) => HandlerResult::Ok(value),
        Err(error) => HandlerResult::Unserializable(error.to_string()),
    }
}

/// A newer version's output as the older version's output type, serialized.
fn downgraded<O, P: From<O> + serde::Serialize>(output: O) -> HandlerResult {
    serialized(P::from(output))
}

/// Where a [`CatchUnwind`] leaves the message of a panic raised while its
/// future was dropped (after a timeout or an abort), for the call to report.
pub(crate) type DropPanic = Mutex<Option<String>>;

/// Polls a future and turns a panic in it into `Err(message)`; the future is
/// not polled again after it panicked.
///
/// It also owns the future's drop: dropping the future (once it panicked,
/// or when the call is stopped before it ends) happens inside
/// `catch_unwind`, and a panic there is kept in the [`DropPanic`] slot
/// instead of unwinding through the toolbox and the other calls of the
/// turn.
pub(crate) struct CatchUnwind<'a, F> {
    inner: Option<F>,
    dropped: &'a DropPanic,
}

impl<'a, F> CatchUnwind<'a, F> {
    pub(crate) fn new(inner: F, dropped: &'a DropPanic) -> Self {
        CatchUnwind {
            inner: Some(inner),
            dropped,
        }
    }

    /// Drops the future, keeping the message of a panic in its destructor.
    fn drop_inner(&mut self) {
        let Some(inner) = self.inner.take() else {
            return;
        };
        if let Err(payload) = catch_unwind(AssertUnwindSafe(move || drop(inner))) {
            let message = take_panic(payload);
            let mut slot = self.dropped.lock().unwrap_or_else(PoisonError::into_inner);
            *slot = Some(match slot.take() {
                Some(earlier) => format!("{earlier}; {message}"),
                None => message,
            });
        }
    }
}

impl<F> Drop for CatchUnwind<'_, F> {
    fn drop(&mut self) {
        self.drop_inner();
    }
}

impl<F: Future + Unpin> Future for CatchUnwind<'_, F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let Some(inner) = self.inner.as_mut() else {
            return Poll::Ready(Err("polled after it panicked".to_owned()));
        };
        match catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => {
                let message = take_panic(payload);
                // Drop the panicked future here, outside its own poll; a
                // second panic from its destructor lands in the slot.
                self.drop_inner();
                Poll::Ready(Err(message))
            }
        }
    }
}

/// The message of a panic payload (`&str` or `String`), else a placeholder.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with a payload that is not text".to_owned()
    }
}

/// The message of a panic payload, and the payload dropped so that a panic
/// in its own destructor (and in that panic's payload, a few times over)
/// cannot unwind further; a payload that keeps panicking is leaked.
pub(crate) fn take_panic(payload: Box<dyn Any + Send>) -> String {
    let message = panic_message(payload.as_ref());
    let mut next = payload;
    for _ in 0..8 {
        match catch_unwind(AssertUnwindSafe(move || drop(next))) {
            Ok(()) => return message,
            Err(again) => next = again,
        }
    }
    std::mem::forget(next);
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panic_becomes_its_message() {
        let slot = DropPanic::default();
        let fut: BoxFuture<'static, u8> = Box::pin(async { panic!("boom {}", 7) });
        assert_eq!(CatchUnwind::new(fut, &slot).await, Err("boom 7".to_owned()));
        let fut: BoxFuture<'static, u8> = Box::pin(async { std::panic::panic_any(5_u32) });
        assert_eq!(
            CatchUnwind::new(fut, &slot).await,
            Err("a panic with a payload that is not text".to_owned())
        );
        let fut: BoxFuture<'static, u8> = Box::pin(async { 3 });
        assert_eq!(CatchUnwind::new(fut, &slot).await, Ok(3));
        assert_eq!(*slot.lock().unwrap(), None);
    }

    #[test]
    fn notes_are_shared_by_clones() {
        let cx = CallContext::new("call_1", Session::new());
        cx.clone().set_notice("n");
        cx.set_incomplete();
        cx.set_resource_revision("r7");
        let notes = cx.notes();
        assert_eq!(notes.notice.as_deref(), Some("n"));
        assert!(notes.incomplete);
        assert_eq!(notes.resource_revision.as_deref(), Some("r7"));
        assert_eq!(cx.call_id(), "call_1");
    }
}
